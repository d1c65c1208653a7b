"""Ticket to Ride maps shipped as data: cities, routes, tickets, name lookup and path finding.

The map code is imported when first used: the games import this package for `MAPS` and `TRAINS` alone.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

MAPS: tuple[str, ...] = ("usa", "europe", "nordic")
"""Ids of the maps shipped with the package (one `<id>.toml` each in this folder)."""

TRAINS = 45
"""Trains each player has in the base game (rulebook 001: "his set of 45 colored train cars"), and on a map
whose file gives no `trains`."""

if TYPE_CHECKING:
    from scorekeeper.maps.game_map import (
        DASHES,
        SEPARATOR,
        GameMap,
        MapNameError,
        Route,
        Ticket,
        UnknownMapError,
        load_map,
        map_from_toml,
        normalise,
    )
    from scorekeeper.maps.graph import Edge, connected, longest_trail

__all__ = [
    "DASHES",
    "MAPS",
    "SEPARATOR",
    "TRAINS",
    "Edge",
    "GameMap",
    "MapNameError",
    "Route",
    "Ticket",
    "UnknownMapError",
    "connected",
    "load_map",
    "longest_trail",
    "map_from_toml",
    "normalise",
]

_HOMES = {
    **dict.fromkeys(("Edge", "connected", "longest_trail"), "graph"),
    **dict.fromkeys(("DASHES", "SEPARATOR", "GameMap", "MapNameError", "Route", "Ticket", "UnknownMapError",
                     "load_map", "map_from_toml", "normalise"), "game_map"),
}


def __getattr__(name: str) -> Any:
    """A name of the map code, imported on first use."""
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(f"{__name__}.{home}"), name)
    globals()[name] = value
    return value
