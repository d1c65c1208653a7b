"""The Ticket to Ride boards (editions): USA, Europe and Nordic Countries — their trains, route tables, and
Europe's stations, chosen jointly for each player (SPEC 4.2.1)."""

from __future__ import annotations

EDITIONS = ("usa", "europe", "nordic")
"""The values of rule `edition` (and the boards of rule `map`)."""

EDITION_NAMES = {"usa": "USA", "europe": "Europe", "nordic": "Nordic Countries"}

TRAINS = {"usa": 45, "europe": 45, "nordic": 40}
"""Trains a player has on each board."""

TABLES = {
    "usa": {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27},
    "europe": {1: 1, 2: 2, 3: 4, 4: 7, 6: 15, 8: 21},
    "nordic": {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 9: 27},
}
"""The route table (trains → points) of each board; a length a board lacks is an error."""

STATIONS = 3
"""Stations each player has on Europe."""
STATION_POINTS = 4
"""Points for each station not built."""
GLOBETROTTER = 10
"""Points of Nordic Countries' Globetrotter bonus."""


def table_text(edition: str) -> str:
    """`1→1, 2→2, 3→4, 4→7, 6→15, 8→21`."""
    return ", ".join(f"{n}→{p}" for n, p in TABLES[edition].items())

BOARD_GAMES = {"europe": (14996, "Ticket to Ride: Europe"), "nordic": (31627, "Ticket to Ride: Nordic Countries")}
"""The boards that are games of their own on BoardGameGeek (and BG Stats): their ids and names."""


def board_of(rules: dict[str, object]) -> str:
    """The board a Ticket to Ride session is played on: rule map's, else rule edition's, else "usa"."""
    for key in ("map", "edition"):
        value = rules.get(key)
        if isinstance(value, str) and value in EDITIONS:
            return value
    return "usa"
