"""Map mode for the app, without Textual: the session's map, completion of city names, trails for display.

The maps package is imported only here and only when a session on a map is open (start-up stays fast).
Nothing here scores: points come from the core; the trail is shown for players the bonus skips.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import Game
from scorekeeper.games.map_mode import split_length
from scorekeeper.model.session import Session

if TYPE_CHECKING:
    from scorekeeper.maps import GameMap

ROUTE, TICKET = "route", "ticket"
DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""The dashes a route or ticket name may join its cities with (as the maps package accepts them)."""
_DASH_RUN = re.compile(f"[{re.escape(DASHES)}](?:[\\s{re.escape(DASHES)}]*[{re.escape(DASHES)}])?")
SEPARATOR = " \u2013 "


def map_of(game: Game, session: Session) -> GameMap | None:
    """The map of a session (its `map` rule), or None when it is not played on a map."""
    name = getattr(game, "map_name", None)
    map_id = name(session.rules) if callable(name) else None
    if map_id is None:
        return None
    from scorekeeper.maps import load_map

    return load_map(map_id)


@dataclass(frozen=True)
class Resolved:
    """What a line names: its canonical name, cities and length in trains (routes) or points (tickets); or
    the core's message (with suggestions) when it names nothing."""

    name: str | None
    a: str = ""
    b: str = ""
    size: int = 0
    error: str = ""
    suggestions: tuple[str, ...] = ()


def resolve(game_map: GameMap, text: str, kind: str) -> Resolved:
    """A line of the route or ticket list, read by the map (`den - kan` -> `Denver – Kansas City`); a route may
    end with its length (`kri - sta 3` -> `Kristiansand – Stavanger (3)`), which a double route whose tracks differ
    in length needs."""
    from scorekeeper.maps import MapNameError

    bare, length = split_length(text) if kind == ROUTE else (text, None)
    try:
        a, b = game_map.resolve_pair(bare if length is not None else text, "route" if kind == ROUTE else "ticket")
    except MapNameError as exc:
        return Resolved(None, error=str(exc), suggestions=tuple(exc.suggestions))
    if kind == ROUTE:
        name = game_map.route_name(a, b)
        lengths = sorted({s.length for s in game_map.pair(a, b)})
        if length is not None and length not in lengths:
            return Resolved(None, a, b, error=f"{name} is {' or '.join(map(str, lengths))} trains long, not {length}")
        if length is None and len(lengths) > 1:
            asked = " or ".join(f"{bare.strip()} {n}" for n in lengths)
            return Resolved(None, a, b, error=f"{name} is a double route whose tracks differ in length "
                            f"({' or '.join(map(str, lengths))} trains): which one? type {asked} (or Tab)",
                            suggestions=tuple(f"{name} ({n})" for n in lengths))
        if len(lengths) > 1:
            name = f"{name} ({length})"
        return Resolved(name, a, b, length if length is not None else (lengths[0] if lengths else 0))
    ticket = game_map.ticket(a, b)
    assert ticket is not None
    return Resolved(ticket.name, ticket.a, ticket.b, ticket.points)


@dataclass(frozen=True)
class Fragment:
    """The city name being typed at the cursor: where it stands in the line, and the other city if given."""

    start: int
    end: int
    typed: str
    first: str | None  # the line's first city when the cursor is on the second one
    second_side: bool


def fragment(text: str, cursor: int) -> Fragment:
    """The city name at the cursor: before the first dash, or after it."""
    match = _DASH_RUN.search(text)
    if match is None or cursor <= match.start():
        end = match.start() if match else len(text)
        start = len(text[:end]) - len(text[:end].lstrip())
        return Fragment(start, end, text[start:end].strip(), None, False)
    start = match.end()
    start += len(text[start:]) - len(text[start:].lstrip())
    end = len(split_length(text)[0]) if split_length(text)[1] is not None else len(text)
    end = max(end, start)
    return Fragment(start, end, text[start:end].strip(), text[: match.start()].strip(), True)


def partners(game_map: GameMap, city: str, kind: str) -> list[str]:
    """The cities a route (or a ticket of the deck) joins to `city`, in map order."""
    if kind == ROUTE:
        return list(game_map.neighbours(city))
    out = []
    for t in game_map.tickets:
        if t.a == city and t.b not in out:
            out.append(t.b)
        elif t.b == city and t.a not in out:
            out.append(t.a)
    return out


def ticket_cities(game_map: GameMap) -> set[str]:
    """The cities some ticket of the deck names."""
    return {c for t in game_map.tickets for c in (t.a, t.b)}


def candidates(game_map: GameMap, text: str, cursor: int, kind: str) -> tuple[Fragment, list[str]]:
    """The cities the name at the cursor may be completed to (on the second side: only those that fit the first)."""
    from scorekeeper.maps import MapNameError

    frag = fragment(text, cursor)
    found = game_map.complete_city(frag.typed)
    if frag.second_side and frag.first:
        try:
            first = game_map.city(frag.first)
        except MapNameError:
            return frag, found
        allowed = partners(game_map, first, kind)
        if not frag.typed:
            return frag, allowed
        return frag, [c for c in found if c in allowed]
    if kind == TICKET:
        cities = ticket_cities(game_map)
        found = [c for c in found if c in cities]
    return frag, found


def complete(text: str, frag: Fragment, city: str) -> tuple[str, int]:
    """The line with the city at the cursor replaced by `city` (and a dash after a first city): text, cursor."""
    if frag.second_side:
        head = text[: frag.start] + city
        return head + text[frag.end:], len(head)
    rest = text[frag.end:]
    if not rest.strip():
        new = city + SEPARATOR
        return new, len(new)
    head = text[: frag.start] + city
    tail = rest if rest[:1].isspace() else " " + rest
    return head + tail, len(head)


def claimed_edges(game_map: GameMap, claimed: Any) -> list[tuple[str, str, int]]:
    """The routes of a `claimed` list the map knows, as (city, city, trains), each once."""
    edges: list[tuple[str, str, int]] = []
    seen: set[frozenset[str]] = set()
    for text in claimed if isinstance(claimed, list) else []:
        if not isinstance(text, str):
            continue
        found = resolve(game_map, text, ROUTE)
        if found.name is None or frozenset((found.a, found.b)) in seen:
            continue
        seen.add(frozenset((found.a, found.b)))
        edges.append((found.a, found.b, found.size))
    return edges


def trail(game_map: GameMap, claimed: Any) -> tuple[int, list[str]]:
    """A player's longest continuous path (trains, cities), for display beside the core's bonus."""
    from scorekeeper.maps import longest_trail

    return longest_trail(claimed_edges(game_map, claimed))
