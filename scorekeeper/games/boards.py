"""The Ticket to Ride boards (editions): USA, Europe and Nordic Countries — their trains, route tables, and
Europe's stations, chosen jointly for each player (SPEC 4.2.1)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from scorekeeper.games.records import Figure, Item, Rate, Records, Sheet, held, points, rate

if TYPE_CHECKING:
    from scorekeeper.model.session import Session

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


BOARDS = {"usa": "USA map", "europe": "Europe", "nordic": "Nordic Countries", "none": "no board"}
"""The boards as history and statistics name them (rule `map`, else rule `edition`, else none), in their order."""


class BoardRecords(Records):
    """What Ticket to Ride keeps after play per board: Europe's stations and Express, Nordic's Globetrotter."""

    boards = MappingProxyType(BOARDS)
    bgg_id = 9209
    compared = frozenset({"longest-path", "globetrotter", "station"})
    groups = MappingProxyType({"ticket": "tickets", "routes": "routes", "longest-path": "longest path"})
    losses = MappingProxyType({"ticket": "failed tickets"})

    def board_key(self, rules: Mapping[str, Any]) -> str | None:
        """Rule `map`, else rule `edition`, else "none"."""
        board = rules.get("map") or rules.get("edition") or "none"
        return board if isinstance(board, str) and board in BOARDS else None

    def bgstats_game(self, rules: Mapping[str, Any]) -> tuple[int | None, str]:
        """Europe and Nordic Countries are games of their own on BoardGameGeek."""
        return BOARD_GAMES.get(board_of(dict(rules)), (self.bgg_id, self.name))

    def marks(self, session: Session, sheet: Sheet) -> dict[str, dict[str, Any]]:
        """The path bonus; on Europe the stations built over the rounds; the Globetrotter received."""
        out = super().marks(session, sheet)
        if self.board_key(session.rules) == "europe":
            for p in session.players:
                out[p]["stations"] = sum(self.stations_built(session, n).get(p, 0)
                                         for n in range(1, len(sheet.rounds) + 1))
        trotters = {i.player for r in sheet.rounds for i in r.items if i.category == "globetrotter" and i.points > 0}
        for p in trotters:
            out[p]["globetrotter"] = True
        return out

    def tally(self, counts: dict[str, list[int]], mine: Sequence[tuple[bool, Mapping[str, Any]]]) -> None:
        """The path's and the Globetrotter's holders; Europe's stations: results, built, with some unbuilt."""
        super().tally(counts, mine)
        trotters = [won for won, marks in mine if marks.get("globetrotter")]
        if trotters:
            slot = counts.setdefault("globetrotter", [0, 0])
            slot[0] += 1
            slot[1] += any(trotters)
        for _won, marks in mine:
            built = marks.get("stations")
            if built is not None:
                slot = counts.setdefault("stations", [0, 0, 0])
                slot[0] += 1
                slot[1] += built
                slot[2] += built < STATIONS

    def figures(self, counts: Mapping[str, list[int]], categories: Mapping[str, int],
                board: str | None) -> dict[str, Any]:
        """The path's holders (not on Nordic), Europe's stations, Nordic's Globetrotter."""
        out: dict[str, Any] = {}
        if board != "nordic":
            games, won = counts.get("longest_path", [0, 0])
            out["longest_path"] = {"games": games, "holder_won": won, "rate": rate(won, games)}
        if board == "europe":
            results, built, unused = counts.get("stations", [0, 0, 0])
            out["stations"] = {"results": results, "built": built,
                               "average_built": Fraction(built, results) if results else None,
                               "unused": unused, "unused_rate": rate(unused, results),
                               "unused_points": points(categories, "station")}
        if board == "nordic":
            games, won = counts.get("globetrotter", [0, 0])
            out["globetrotter"] = {"games": games, "holder_won": won, "rate": rate(won, games)}
        return out

    def figure_lines(self, own: Mapping[str, Any], board: str | None, fig: Figure, pct: Rate) -> list[tuple[str, str]]:
        """`Longest Path` (on Europe the `European Express`), `Stations`, `Globetrotter`."""
        out = []
        path = own.get("longest_path")
        if path and path["games"]:
            out.append(held("European Express" if board == "europe" else "Longest Path", path, pct))
        st = own.get("stations")
        if st and st["results"]:
            n = st["results"]
            out.append(("Stations", f"{fig(st['average_built'])} built on average ({st['built']} by {n} "
                        f"player{'s' * (n != 1)}); {st['unused']} of {n} player{'s' * (n != 1)} left stations "
                        f"unbuilt ({pct(st['unused_rate'])}), for {fig(st['unused_points'])} points at "
                        f"{STATION_POINTS} each"))
        trotter = own.get("globetrotter")
        if trotter and trotter["games"]:
            out.append(held("Globetrotter", trotter, pct))
        return out

    def shown_boards(self, boards: Sequence[str]) -> bool:
        """Yes, unless the plays are all on one board with no figures of its own (the USA map, no board), which
        would only repeat the game's."""
        return not (len(boards) == 1 and boards[0] in ("usa", "none"))

    def provisional(self, session: Session, number: int, items: Sequence[Item]) -> set[str]:
        """The Longest Path bonus while some player's routes are not in yet."""
        rnd = session.round(number)
        if all(any(k in rnd.entry(p) for k in ("routes", "route_points", "claimed")) for p in session.players):
            return set()
        return {i.player for i in items if i.category == "longest-path" and i.points}

    def round_json(self, session: Session, number: int) -> dict[str, Any]:
        """On a board (map mode): per player the computed longest path (trains and cities), the completed tickets
        and the stations' uses (SPEC 4.2.1); else nothing."""
        played = self.on_map(session, number)
        if played is None:
            return {}
        out: dict[str, Any] = {}
        for p in session.players:
            length, cities = played.trails.get(p, (0, []))
            out[p] = {
                "longest_path": length,
                "path": list(cities),
                "completed_tickets": [c.name for c in played.tickets.get(p, []) if c.completed and c.name],
            }
            if p in played.stations:
                out[p]["stations"] = [
                    {"station": city, "route": use.name if use else None, "owner": use.owner if use else None,
                     "completes": helped}
                    for city, use, helped in played.stations[p]
                ]
        return {"board": out}

    def stations_built(self, session: Session, number: int) -> dict[str, int]:
        raise NotImplementedError

    def on_map(self, session: Session, number: int) -> Any:
        raise NotImplementedError
