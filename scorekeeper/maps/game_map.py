"""A Ticket to Ride map read from its file: cities, routes, tickets and name lookup."""

from __future__ import annotations

import os
import re
import tomllib
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cache, lru_cache
from itertools import product
from typing import Any, Literal

from scorekeeper.maps import MAPS, TRAINS

DASHES = "-\u2010\u2011\u2012\u2013\u2014\u2015\u2212\ufe58\ufe63\uff0d"
"""Characters accepted between the two cities of a route or ticket name."""

SEPARATOR = " \u2013 "
"""How names are displayed: the two cities around an en dash, "Denver – Kansas City"."""
EXAMPLE_ROUTES = (f"Denver{SEPARATOR}Kansas City", f"Berlin{SEPARATOR}Essen", f"Kristiansand{SEPARATOR}Oslo")
"""The routes a board's messages give as an example of a name, the first this map has (else its first route)."""

_DASH = re.escape(DASHES)
_DASH_RUN = re.compile(f"[{_DASH}](?:[\\s{_DASH}]*[{_DASH}])?")
_KINDS = ("any", "route", "ticket")


class MapNameError(ValueError):
    """A city, route or ticket name that does not resolve on the map; `suggestions` may help."""

    def __init__(self, message: str, suggestions: tuple[str, ...] | list[str] = ()) -> None:
        super().__init__(message)
        self.suggestions: tuple[str, ...] = tuple(suggestions)


class UnknownMapError(MapNameError, KeyError):
    """A map id that the package does not ship (both a KeyError and a ValueError)."""

    def __str__(self) -> str:
        return str(self.args[0])


def normalise(text: str) -> str:
    """Text for comparing names: accents stripped (NFKD), casefolded, whitespace collapsed."""
    if text.isascii():  # nothing to decompose or strip: the common case, a tenth of the work
        return " ".join(text.casefold().split())
    decomposed = unicodedata.normalize("NFKD", text)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(stripped.casefold().split())


def _key_of(text: str) -> str:
    """Matching key for a city name: normalise() with full stops read as spaces."""
    return " ".join(normalise(text).replace(".", " ").split())


_key = lru_cache(maxsize=8192)(_key_of)


def _clip(text: str, width: int = 30) -> str:
    """The start of an over-long name, for a message: its first width characters and '…'."""
    shown = " ".join(text.split())
    return shown if len(shown) <= width else shown[:width] + "…"


def _did_you_mean(names: list[str] | tuple[str, ...]) -> str:
    """'; did you mean 'A' or 'B'?' for a message, or nothing."""
    if not names:
        return ""
    quoted = [f"'{name}'" for name in names]
    listed = quoted[0] if len(quoted) == 1 else ", ".join(quoted[:-1]) + " or " + quoted[-1]
    return f"; did you mean {listed}?"


def _either(names: list[str]) -> str:
    """'A, B or C'."""
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


@dataclass(frozen=True)
class Route:
    """One route segment; a double route is two segments (double=True) between the same cities."""

    a: str
    b: str
    length: int
    color: str
    double: bool
    tunnel: bool = False
    ferry: int = 0  # locomotives a ferry needs (0: not a ferry)

    @property
    def name(self) -> str:
        """Display name, "Denver – Kansas City"."""
        return f"{self.a}{SEPARATOR}{self.b}"


@dataclass(frozen=True)
class Ticket:
    """A destination ticket: join cities a and b for `points` (lose them if not)."""

    a: str
    b: str
    points: int

    @property
    def name(self) -> str:
        """Display name, "Denver – El Paso"."""
        return f"{self.a}{SEPARATOR}{self.b}"


@dataclass(frozen=True)
class _Index:
    """Lookup tables of a GameMap."""

    by_key: dict[str, str]  # matching key of a city or alias -> city
    keys: tuple[tuple[str, str], ...]  # (key, city) for cities then aliases, in map order
    rank: dict[str, int]  # city -> position in GameMap.cities
    segments: dict[tuple[str, str], tuple[Route, ...]]  # sorted pair -> its segments
    tickets: dict[tuple[str, str], Ticket]  # sorted pair -> ticket
    neighbours: dict[str, tuple[str, ...]]  # city -> cities one route away, map order
    resolved: Callable[[str, str], tuple[str, str]]  # resolve_pair's answers: _resolve_pair in an LRU cache
    longest: int = 0  # length of the longest key: a longer name is refused before matching


def _sorted_pair(a: str, b: str) -> tuple[str, str]:
    """(a, b) in string order, as a dictionary key."""
    return (a, b) if a <= b else (b, a)


@dataclass(frozen=True)
class GameMap:
    """A Ticket to Ride map: cities, route segments, the destination tickets of one deck."""

    id: str
    name: str
    trains: int
    cities: tuple[str, ...]
    routes: tuple[Route, ...]
    tickets: tuple[Ticket, ...]
    aliases: tuple[tuple[str, str], ...] = ()
    examples: tuple[str, ...] = ()
    """What an empty line shows: a route, a ticket, a city (a few letters of each); derived when not given."""
    _index: _Index = field(init=False)

    def empty_line(self, kind: int) -> str:
        """What an empty line shows (0: a route, 1: a ticket, 2: a city): `examples`, else the first route's."""
        if self.examples:
            return self.examples[kind]
        a, b = (self.routes[0].a, self.routes[0].b) if self.routes else (self.cities[0], self.cities[-1])
        return a[:3].casefold() if kind == 2 else f"{a[:3]} - {b[:3]}".casefold()

    def __post_init__(self) -> None:
        """Check the data and build the lookup tables."""
        where = f"map {self.id!r}"
        if not self.id or not self.name:
            raise ValueError(f"{where}: id and name must not be empty")
        if self.trains < 1:
            raise ValueError(f"{where}: trains must be at least 1")
        rank: dict[str, int] = {}
        by_key: dict[str, str] = {}
        keys: list[tuple[str, str]] = []
        for city in self.cities:
            key = _key(city)
            if not key or city != city.strip():
                raise ValueError(f"{where}: bad city name {city!r}")
            if key in by_key:
                raise ValueError(f"{where}: cities {by_key[key]!r} and {city!r} read the same")
            rank[city] = len(rank)
            by_key[key] = city
            keys.append((key, city))
        for alias, city in self.aliases:
            key = _key(alias)
            if city not in rank:
                raise ValueError(f"{where}: alias {alias!r} names an unknown city {city!r}")
            if by_key.get(key, city) != city:
                raise ValueError(f"{where}: alias {alias!r} reads like {by_key[key]!r}")
            if key not in by_key:
                by_key[key] = city
                keys.append((key, city))

        segments: dict[tuple[str, str], list[Route]] = {}
        for route in self.routes:
            what = f"{where}: route {route.a!r} – {route.b!r}"
            if route.a not in rank or route.b not in rank:
                raise ValueError(f"{what}: unknown city")
            if route.a == route.b:
                raise ValueError(f"{what}: joins a city to itself")
            if not isinstance(route.length, int) or route.length < 1:
                raise ValueError(f"{what}: length must be a whole number ≥ 1")
            segments.setdefault(_sorted_pair(route.a, route.b), []).append(route)
        for (a, b), segs in segments.items():
            what = f"{where}: route {a!r} – {b!r}"
            if len(segs) > 2:
                raise ValueError(f"{what}: {len(segs)} segments (at most two, a double route)")
            if len(segs) == 2 and not (segs[0].double and segs[1].double):
                raise ValueError(f"{what}: two segments, so both must be marked double")
            if len(segs) == 1 and segs[0].double:
                raise ValueError(f"{what}: marked double but has one segment")
        neighbours: dict[str, list[str]] = {city: [] for city in self.cities}
        for a, b in segments:
            neighbours[a].append(b)
            neighbours[b].append(a)

        tickets: dict[tuple[str, str], Ticket] = {}
        for ticket in self.tickets:
            what = f"{where}: ticket {ticket.a!r} – {ticket.b!r}"
            if ticket.a not in rank or ticket.b not in rank or ticket.a == ticket.b:
                raise ValueError(f"{what}: needs two different known cities")
            if not isinstance(ticket.points, int) or ticket.points < 1:
                raise ValueError(f"{what}: points must be a whole number ≥ 1")
            if _sorted_pair(ticket.a, ticket.b) in tickets:
                raise ValueError(f"{what}: appears twice")
            tickets[_sorted_pair(ticket.a, ticket.b)] = ticket

        index = _Index(
            by_key=by_key,
            keys=tuple(keys),
            rank=rank,
            segments={pair: tuple(segs) for pair, segs in segments.items()},
            tickets=tickets,
            neighbours={c: tuple(sorted(ns, key=rank.__getitem__)) for c, ns in neighbours.items()},
            longest=max((len(key) for key, _ in keys), default=0),
            resolved=lru_cache(maxsize=8192)(self._resolve_pair),
        )
        object.__setattr__(self, "_index", index)

    # -- cities ------------------------------------------------------------------------------

    def complete_city(self, prefix: str) -> list[str]:
        """Cities whose name, or a word of it, starts with prefix (normalised); names first."""
        key = _key(prefix)
        if not key:
            return list(self.cities)
        starts: list[str] = []
        words: list[str] = []
        for name_key, city in self._index.keys:
            if name_key.startswith(key):
                if city not in starts:
                    starts.append(city)
            elif f" {key}" in f" {name_key}" and city not in words:
                words.append(city)
        return starts + [city for city in words if city not in starts]

    def _refuse_long_city(self, text: str) -> None:
        """Refuse, in time linear in its length, a city name longer than any city of the map."""
        if len(text) > self._index.longest and len(_key_of(text)) > self._index.longest:
            raise MapNameError(f"{_clip(text)!r} is not a city of the {self.name} map: it is "
                               f"{len(text):,} characters long, and no city name there is over "
                               f"{self._index.longest}")

    def _candidates(self, text: str) -> list[str]:
        """Cities that text may name: an exact (normalised) name or alias, else completions."""
        self._refuse_long_city(text)
        key = _key(text)
        if not key:
            return []
        exact = self._index.by_key.get(key)
        return [exact] if exact else self.complete_city(text)

    def _close_cities(self, text: str, n: int = 3) -> list[str]:
        """Cities whose names are close to text (difflib on normalised names)."""
        import difflib  # only to suggest a name

        keys = [k for k, _ in self._index.keys]
        out: list[str] = []
        for key in difflib.get_close_matches(_key(text), keys, n=n + 2, cutoff=0.6):
            city = self._index.by_key[key]
            if city not in out:
                out.append(city)
        return out[:n]

    def city(self, text: str) -> str:
        """The city that text names: exact name (accents and case optional) or unique prefix."""
        self._refuse_long_city(text)
        candidates = self._candidates(text)
        if len(candidates) == 1:
            return candidates[0]
        shown = text.strip()
        if not _key(text):
            raise MapNameError("no city name given")
        if candidates:
            raise MapNameError(f"{shown!r} could be {_either(candidates)}; type more of the name", candidates)
        close = self._close_cities(text)
        raise MapNameError(f"unknown city {shown!r} on the {self.name} map{_did_you_mean(close)}", close)

    def _exact(self, text: str) -> str:
        """A city named exactly (accents, case, spacing and full stops aside)."""
        self._refuse_long_city(text)
        city = self._index.by_key.get(_key(text))
        if city is None:
            close = self._close_cities(text)
            raise MapNameError(f"unknown city {text!r} on the {self.name} map{_did_you_mean(close)}", close)
        return city

    # -- routes and tickets ------------------------------------------------------------------

    def pair(self, a: str, b: str) -> tuple[Route, ...]:
        """The segments between cities a and b, either order: 1, 2 (a double route) or none."""
        return self._index.segments.get(_sorted_pair(self._exact(a), self._exact(b)), ())

    def ticket(self, a: str, b: str) -> Ticket | None:
        """The destination ticket between cities a and b, either order, or None."""
        return self._index.tickets.get(_sorted_pair(self._exact(a), self._exact(b)))

    @property
    def city_pairs(self) -> tuple[tuple[str, str], ...]:
        """Every pair of cities a route joins, once, as the map stores it, in map order."""
        seen: dict[tuple[str, str], tuple[str, str]] = {}
        for route in self.routes:
            seen.setdefault(_sorted_pair(route.a, route.b), (route.a, route.b))
        return tuple(seen.values())

    def neighbours(self, city: str) -> tuple[str, ...]:
        """The cities one route away from city, in map order."""
        return self._index.neighbours[self._exact(city)]

    def _canonical(self, a: str, b: str, kind: str = "any") -> tuple[str, str]:
        """Two cities in canonical order: the route's, else the ticket's, else map order
        (the ticket's first for kind 'ticket')."""
        pair = _sorted_pair(a, b)
        ticket = self._index.tickets.get(pair)
        if ticket and kind == "ticket":
            return ticket.a, ticket.b
        segments = self._index.segments.get(pair)
        if segments:
            return segments[0].a, segments[0].b
        if ticket:
            return ticket.a, ticket.b
        return (a, b) if self._index.rank[a] < self._index.rank[b] else (b, a)

    def route_name(self, a: str, b: str) -> str:
        """Canonical display name of the pair a, b: "Denver – Kansas City" (en dash)."""
        x, y = self._canonical(self._exact(a), self._exact(b))
        return f"{x}{SEPARATOR}{y}"

    def _fits(self, pair: tuple[str, str], kind: str) -> bool:
        """Whether a city pair is a route (kind 'route'), a ticket ('ticket') or anything."""
        if kind == "route":
            return _sorted_pair(*pair) in self._index.segments
        if kind == "ticket":
            return _sorted_pair(*pair) in self._index.tickets
        return True

    def _names(self, kind: str) -> list[str]:
        """Display names of all routes ('route'), tickets ('ticket') or both ('any')."""
        names: list[str] = []
        if kind in ("route", "any"):
            names += [f"{a}{SEPARATOR}{b}" for a, b in self.city_pairs]
        if kind in ("ticket", "any"):
            names += [t.name for t in self.tickets if t.name not in names]
        return names

    def _close_names(self, text: str, kind: str, n: int = 3) -> list[str]:
        """Route or ticket names close to text, in either order of the two cities."""
        import difflib  # only to suggest a name

        wanted = _key(_DASH_RUN.sub(" - ", text))
        by_key: dict[str, str] = {}
        for name in self._names(kind):
            a, b = name.split(SEPARATOR)
            by_key.setdefault(f"{_key(a)} - {_key(b)}", name)
            by_key.setdefault(f"{_key(b)} - {_key(a)}", name)
        out: list[str] = []
        for key in difflib.get_close_matches(wanted, list(by_key), n=2 * n, cutoff=0.6):
            if by_key[key] not in out:
                out.append(by_key[key])
        return out[:n]

    def resolve_pair(self, text: str, kind: Literal["any", "route", "ticket"] = "any") -> tuple[str, str]:
        """The two cities a route or ticket name gives, as (a, b) in canonical order.

        The name is two cities joined by any dash (- – — ‐ ‒ − or "--"), in either order, any
        case and spacing, accents optional; each city may be a unique prefix of a name or of a
        word of it ("den - kan"). kind "route" accepts only cities a route joins, "ticket" only
        a ticket of the map's deck, "any" any two different cities (an ambiguous prefix is then
        settled by a route or ticket if exactly one fits). The order returned is the route's
        as stored, else the ticket's (the ticket's first for kind "ticket"), else the map's
        city order. Raises MapNameError; a name longer than two cities' names and a dash is
        refused before any matching, in time linear in its length.
        """
        self._refuse_long_pair(text, kind)
        return self._index.resolved(text, kind)

    def _refuse_long_pair(self, text: str, kind: str) -> None:
        """Refuse a route or ticket name longer than the map's two longest city names and a dash."""
        limit = 2 * self._index.longest + 6  # two cities, a run of dashes and the spaces around it
        if len(text) > limit and len(_key_of(text)) > limit:
            what = {"route": "route", "ticket": "ticket"}.get(kind, "route or ticket")
            raise MapNameError(f"{_clip(text)!r} is not a {what} name of the {self.name} map: it is "
                               f"{len(text):,} characters long, and no city name there is over "
                               f"{self._index.longest}")

    def example(self) -> str:
        """A route of this map to show how a name is written (`Denver – Kansas City` on the USA map, `Berlin –
        Essen` on Europe): a board's own, never another's."""
        names = {route.name for route in self.routes}
        known = next((n for n in EXAMPLE_ROUTES if n in names), None)
        return known or (self.routes[0].name if self.routes else f"Denver{SEPARATOR}Kansas City")

    def _resolve_pair(self, text: str, kind: str) -> tuple[str, str]:
        if kind not in _KINDS:
            raise ValueError(f"kind must be one of {', '.join(_KINDS)}, not {kind!r}")
        shown = " ".join(text.split())
        what = {"route": "route", "ticket": "ticket", "any": "route or ticket"}[kind]
        splits = [(text[: m.start()], text[m.end() :]) for m in _DASH_RUN.finditer(text)]
        splits = [(left, right) for left, right in splits if _key(left) and _key(right)]
        if not splits:
            close = self._close_names(text, kind)
            raise MapNameError(
                f"{shown!r} is not a {what} name: write two cities joined by a dash, as in "
                f"'{self.example()}'{_did_you_mean(close)}",
                close,
            )
        options: list[tuple[str, str]] = []
        unknown: list[tuple[str, list[str]]] = []  # (unresolved side, other side's cities)
        for left, right in splits:
            lefts, rights = self._candidates(left), self._candidates(right)
            if not lefts:
                unknown.append((left, rights))
            if not rights:
                unknown.append((right, lefts))
            for x, y in product(lefts, rights):
                pair = self._canonical(x, y, kind) if x != y else (x, y)
                if pair not in options:
                    options.append(pair)
        distinct = [p for p in options if p[0] != p[1]]
        fitting = [p for p in distinct if self._fits(p, kind)]
        if kind == "any" and len(fitting) > 1:
            known = [p for p in fitting if self._fits(p, "route") or self._fits(p, "ticket")]
            fitting = known or fitting
        if len(fitting) == 1:
            return fitting[0]
        names = [f"{a}{SEPARATOR}{b}" for a, b in fitting]
        if fitting:
            raise MapNameError(f"{shown!r} is ambiguous: it could be {_either(names)}", names)
        if unknown and not distinct:
            side, others = unknown[0]
            close = self._close_cities(side)
            pairs = [self._canonical(c, o, kind) for c, o in product(close, others) if c != o]
            fit = [f"{a}{SEPARATOR}{b}" for a, b in pairs if self._fits((a, b), kind)]
            suggestions = fit[:3] or close
            if not suggestions and len(others) == 1 and kind != "ticket":
                # Nothing is close by spelling: name the routes from the city that is known,
                # nearest first, so "den - kam" still points at Denver's routes.
                import difflib

                near = sorted(self.neighbours(others[0]),
                              key=lambda c: -difflib.SequenceMatcher(None, _key(side), _key(c)).ratio())
                suggestions = [self.route_name(*self._canonical(others[0], c, "route")) for c in near[:3]]
            raise MapNameError(f"unknown city {side.strip()!r} in {shown!r}{_did_you_mean(suggestions)}", suggestions)
        if not distinct:
            city = options[0][0]
            raise MapNameError(f"{shown!r} names {city} twice; a {what} joins two cities")
        close = self._close_names(text, kind)
        if len(distinct) == 1 and kind == "route":
            a, b = distinct[0]
            raise MapNameError(
                f"no route joins {a} and {b}; from {a} routes go to {_either(list(self.neighbours(a)))}",
                close,
            )
        if len(distinct) == 1:
            a, b = distinct[0]
            message = f"{a}{SEPARATOR}{b} is not a destination ticket of the {self.name} map"
        else:
            message = f"no {what} matches {shown!r}"
        raise MapNameError(message + _did_you_mean(close), close)


# -- loading ---------------------------------------------------------------------------------

_MAP_KEYS = {"id", "name", "cities", "routes", "tickets"}
_OPTIONAL_KEYS = {"trains", "ticket_deck", "aliases", "examples"}


def _table(value: Any, keys: dict[str, type], where: str, optional: dict[str, type] | None = None
           ) -> dict[str, Any]:
    """Check one inline table of a map file: exactly these keys (and any of `optional`) of these types."""
    optional = optional or {}
    if not isinstance(value, dict):
        raise ValueError(f"{where}: expected a table, got {value!r}")
    if not set(keys) <= set(value) or not set(value) <= set(keys) | set(optional):
        raise ValueError(f"{where}: expected keys {sorted(keys)} (optional {sorted(optional)}), got {sorted(value)}")
    for name, kind in {**keys, **optional}.items():
        if name in value and (not isinstance(value[name], kind) or (kind is int and isinstance(value[name], bool))):
            raise ValueError(f"{where}: {name} must be {kind.__name__}, got {value[name]!r}")
    return value


def map_from_toml(text: str, source: str = "<map>") -> GameMap:
    """A GameMap from the text of a map file (format: see usa.toml); ValueError if malformed."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{source}: not valid TOML: {exc}") from exc
    missing = _MAP_KEYS - set(data)
    extra = set(data) - _MAP_KEYS - _OPTIONAL_KEYS
    if missing or extra:
        raise ValueError(f"{source}: missing keys {sorted(missing)}, unknown keys {sorted(extra)}")
    data.setdefault("trains", TRAINS)
    for name, kind in (("id", str), ("name", str), ("trains", int), ("cities", list)):
        if not isinstance(data[name], kind) or isinstance(data[name], bool):
            raise ValueError(f"{source}: {name} must be {kind.__name__}")
    if not all(isinstance(c, str) for c in data["cities"]):
        raise ValueError(f"{source}: cities must be strings")
    route_keys = {"a": str, "b": str, "length": int, "color": str, "double": bool}
    extra_keys = {"tunnel": bool, "ferry": int}
    routes = tuple(Route(**_table(r, route_keys, f"{source}: routes[{i}]", extra_keys))
                   for i, r in enumerate(data["routes"]))
    ticket_keys = {"a": str, "b": str, "points": int}
    tickets = tuple(Ticket(**_table(t, ticket_keys, f"{source}: tickets[{i}]")) for i, t in enumerate(data["tickets"]))
    aliases = data.get("aliases", {})
    if not isinstance(aliases, dict) or not all(isinstance(v, str) for v in aliases.values()):
        raise ValueError(f"{source}: aliases must be a table of names to cities")
    examples = data.get("examples", [])
    if not isinstance(examples, list) or len(examples) not in (0, 3) or not all(isinstance(e, str) for e in examples):
        raise ValueError(f"{source}: examples must be three texts (a route, a ticket, a city)")
    try:
        return GameMap(
            id=data["id"],
            name=data["name"],
            trains=data["trains"],
            cities=tuple(data["cities"]),
            routes=routes,
            tickets=tickets,
            aliases=tuple(aliases.items()),
            examples=tuple(examples),
        )
    except ValueError as exc:
        raise ValueError(f"{source}: {exc}") from exc


@cache
def _load(map_id: str) -> GameMap:
    """Read and check a packaged map (once per process): the file beside this module, as a wheel installs it (or
    through importlib.resources where the package is not plain files, a zip)."""
    try:
        with open(os.path.join(os.path.dirname(__file__), f"{map_id}.toml"), encoding="utf-8") as fh:
            text = fh.read()
    except OSError:
        from importlib import resources

        text = resources.files("scorekeeper.maps").joinpath(f"{map_id}.toml").read_text(encoding="utf-8")
    game_map = map_from_toml(text, f"{map_id}.toml")
    if game_map.id != map_id:
        raise ValueError(f"{map_id}.toml: its id is {game_map.id!r}")
    return game_map


def load_map(map_id: str) -> GameMap:
    """The packaged map with this id ("usa"); UnknownMapError (a KeyError and ValueError) if none."""
    wanted = map_id.strip().casefold() if isinstance(map_id, str) else map_id
    if wanted not in MAPS:
        import difflib

        close = difflib.get_close_matches(str(wanted), MAPS, n=1)
        raise UnknownMapError(f"unknown map {map_id!r}; the maps are {', '.join(MAPS)}{_did_you_mean(close)}", close)
    return _load(wanted)
