"""Map mode of Ticket to Ride: a round read on a map — claims checked, tickets and longest trails worked out."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import names, ordinal, plural
from scorekeeper.games.boards import STATIONS
from scorekeeper.games.trains import (
    Card,
    Routes,
    card_of,
    counts_points,
    counts_short,
    counts_trains,
    counts_why,
    route_counts,
)
from scorekeeper.model.problems import Problem, Severity, location

if TYPE_CHECKING:
    from scorekeeper.games.stations import Borrow
    from scorekeeper.model.session import Session


@dataclass(frozen=True)
class Claim:
    """A readable claimed route: where it stands in `claimed` (from 1), its cities and length."""

    index: int
    a: str
    b: str
    length: int


@dataclass
class MapRound:
    """A round on a map: each player's accepted claims, tickets as scored, longest trail, and the problems."""

    claims: dict[str, list[Claim]] = field(default_factory=dict)
    tickets: dict[str, list[Card]] = field(default_factory=dict)
    trails: dict[str, tuple[int, list[str]]] = field(default_factory=dict)
    problems: list[Problem] = field(default_factory=list)
    trains: int = 0  # trains each player has on this map
    # Europe: per player, each station built: (its city, the route it uses or None, the tickets it completes)
    stations: dict[str, list[tuple[str, Borrow | None, list[str]]]] = field(default_factory=dict)
    built: dict[str, int] = field(default_factory=dict)  # Europe: stations each player built

    def counts(self, player: str) -> dict[int, int]:
        """The player's accepted claims counted by length."""
        counts: dict[int, int] = {}
        for c in sorted(self.claims[player], key=lambda c: c.length):
            counts[c.length] = counts.get(c.length, 0) + 1
        return counts

    def routes(self, player: str) -> Routes:
        """The player's route points and trains from their accepted claims."""
        counts = self.counts(player)
        why = "claimed " + counts_why(counts) if counts else "no routes claimed"
        return Routes(counts_points(counts), counts_trains(counts), why, "claimed", counts)


COUNTED = {2: "two", 3: "three", 4: "four", 5: "five"}


@dataclass(frozen=True)
class _Asked:
    """A round to read on a map, hashed and compared by what its reading depends on (a session is no key)."""

    map_id: str
    number: int
    players: tuple[str, ...]
    entries: str  # the round's entries of the players, written out
    session: Session = field(compare=False)


def map_round(map_id: str, session: Session, number: int) -> MapRound:
    """Read a round on a map: claims checked against each other, tickets and longest trails worked out."""
    rnd = session.round(number)
    entries = repr([(p, rnd.players.get(p)) for p in session.players])
    return _map_round(_Asked(map_id, number, session.players, entries, session))


@functools.lru_cache(maxsize=256)
def _map_round(asked: _Asked) -> MapRound:
    return _read_map_round(asked.map_id, asked.session, asked.number)


_LENGTH = re.compile(r"\s*(?:\(\s*(\d+)\s*\)|\s(\d+))\s*$")
"""A length after a route's name: "Kristiansand – Stavanger (3)" (in the app also "kri - sta 3")."""


def split_length(text: str) -> tuple[str, int | None]:
    """A claimed name and the length written after it, if any."""
    m = _LENGTH.search(text)
    if m is None:
        return text, None
    return text[: m.start()], int(m.group(1) or m.group(2))


def _read_map_round(map_id: str, session: Session, number: int) -> MapRound:
    from scorekeeper.maps import MapNameError, connected, load_map, longest_trail

    game_map = load_map(map_id)
    rnd = session.round(number)
    players = session.players
    out = MapRound(trains=game_map.trains)

    def problem(severity: Severity, msg: str, player: str, fld: str, path: str) -> None:
        out.problems.append(Problem(msg, severity, path, round=number, player=player, field=fld))

    held: dict[tuple[str, str], list[tuple[str, int]]] = {}
    for p in players:
        out.claims[p] = []
        for i, text in enumerate(rnd.entry(p).get("claimed", []), start=1):
            at = location(number, p, "claimed", i)
            bare, length = split_length(text)
            try:
                a, b = game_map.resolve_pair(bare if length is not None else text, "route")
            except MapNameError as exc:
                problem("error", str(exc), p, "claimed", at)
                continue
            segments = game_map.pair(a, b)
            name = game_map.route_name(a, b)
            lengths = sorted({s.length for s in segments})
            if length is not None and length not in lengths:
                problem("error", f"{name} is {' or '.join(map(str, lengths))} trains long, not {length}",
                        p, "claimed", at)
                continue
            if length is None and len(lengths) > 1:
                both = " and ".join(f"\"{name} ({n})\"" for n in lengths)
                problem("error", f"{name} is a double route whose tracks differ in length "
                        f"({' or '.join(map(str, lengths))} trains): name the one claimed, {both}",
                        p, "claimed", at)
                continue
            claimed_length = length if length is not None else segments[0].length
            earlier = held.setdefault((a, b), [])
            mine = [j for q, j in earlier if q == p]
            others = [q for q, _ in earlier if q != p]
            if len(segments) == 1 and mine:
                problem("error", f"{name} is listed twice in {p}'s claimed routes (claimed[{mine[0]}] and "
                        f"claimed[{i}]); a route is claimed once", p, "claimed", at)
                continue
            if len(segments) == 1 and others:
                problem("error", f"{name} is a single route and {others[0]} claimed it already; only one "
                        "player can claim it", p, "claimed", at)
                continue
            if mine:
                problem("error", f"{name} is a double route and {p} lists it twice (claimed[{mine[0]}] and "
                        f"claimed[{i}]); a player may claim only one of its two routes", p, "claimed", at)
                continue
            if others and len(players) <= (2 if map_id == "nordic" else 3):
                problem("error", f"{others[0]} claimed {name} already; with {len(players)} players only one "
                        "route of a double route is used, so only one player can claim it", p, "claimed", at)
                continue
            if len(others) >= 2:
                problem("error", f"{name} is a double route already claimed by {names(others)}; "
                        "it has only two routes", p, "claimed", at)
                continue
            earlier.append((p, i))
            out.claims[p].append(Claim(i, a, b, claimed_length))

    built = _stations(game_map, session, number, out) if map_id == "europe" else {}
    where: dict[str, list[str]] = {}
    for p in players:
        edges = [(c.a, c.b, c.length) for c in out.claims[p]]
        cards: list[Card] = []
        named: list[tuple[int, Any, tuple[str, str, int]]] = []  # (place in cards, the ticket, its goal)
        for i, card in enumerate(rnd.entry(p).get("tickets", []), start=1):
            at = location(number, p, "tickets", i)
            if not card.get("name"):
                if "points" not in card:
                    problem("error", "the ticket has neither name nor points; give its cities, like "
                            "name = \"Denver – El Paso\" (its points come from the map), or its points",
                            p, "tickets", at)
                    continue
                cards.append(card_of(card, f"ticket {i}"))
                continue
            try:
                a, b = game_map.resolve_pair(card["name"], "ticket")
            except MapNameError as exc:
                problem("error", str(exc), p, "tickets", f"{at}.name")
                continue
            ticket = game_map.ticket(a, b)
            assert ticket is not None
            where.setdefault(ticket.name, []).append(p)
            if "points" in card and card["points"] != ticket.points:
                problem("warning", f"points is {card['points']}, but the {game_map.name} ticket {ticket.name} is "
                        f"worth {ticket.points}; the map's points count", p, "tickets", f"{at}.points")
            named.append((len(cards), (ticket, card, at), (ticket.a, ticket.b, ticket.points)))
            cards.append(Card(f"ticket {ticket.name}", ticket.points, False, "", ticket.name))
        own = [(c.a, c.b) for c in out.claims[p]]
        if map_id == "europe":
            from scorekeeper.games.stations import Borrow, Goal, choose_stations, completes_without  # Europe only

            goals = [Goal(*g) for _, _, g in named]
            borrowable = [Borrow(q, c.a, c.b, game_map.route_name(c.a, c.b))
                      for q in players if q != p for c in out.claims[q]]
            cities = built.get(p, [])
            choice = choose_stations(own, cities, borrowable, goals)
            done_all = choice.done
            alone = completes_without(own, (), goals, -1)
            out.stations[p] = []
            needed: dict[int, list[str]] = {}
            for k, city in enumerate(cities):
                without = completes_without(own, choice.uses, goals, k)
                helped = [j for j, g in enumerate(goals) if done_all[j] and not without[j]]
                for j in helped:
                    needed.setdefault(j, []).append(city)
                out.stations[p].append((city, choice.uses[k], [named[j][1][0].name for j in helped]))
            for j in range(len(named)):
                if done_all[j] and not alone[j] and j not in needed:
                    needed[j] = [c for c, u, _ in out.stations[p] if u is not None]
        else:
            done_all = tuple(connected(edges, a, b) for _, _, (a, b, _) in named)
            needed = {}
        for j, (place, (ticket, card, at), _) in enumerate(named):
            done = done_all[j]
            state = "connected" if done else "not connected"
            how = f"{state} by the claimed routes"
            if done and needed.get(j):
                via = " and ".join(needed[j])
                how = f"connected by the claimed routes and the station{'s' if len(needed[j]) > 1 else ''} in {via}"
            if "completed" in card and card["completed"] != done:
                problem("warning", f"completed is {str(card['completed']).lower()}, but {p}'s claimed routes "
                        f"{'and stations ' if map_id == 'europe' else ''}leave {ticket.name} {state}; the map "
                        "counts", p, "tickets", f"{at}.completed")
            cards[place] = Card(f"ticket {ticket.name}", ticket.points, done, how, ticket.name,
                                tuple(needed.get(j, ())) if done else ())
        out.tickets[p] = cards
        out.trails[p] = longest_trail(edges)
        length, cities = out.trails[p]
        given = rnd.entry(p).get("longest_path")
        if given is not None and given != length:
            shown = f" ({' – '.join(cities)})" if cities else ""
            problem("warning", f"longest_path is {given}, but {p}'s claimed routes make a longest continuous "
                    f"path of {plural(length, 'train')}{shown}; the map counts", p, "longest_path",
                    location(number, p, "longest_path"))
        given_counts = route_counts(rnd.entry(p))
        if "routes" in rnd.entry(p) and given_counts != out.counts(p):
            given_points = plural(counts_points(given_counts), "point")
            claimed_points = plural(out.routes(p).points, "point")
            problem("warning", f"routes gives {counts_short(given_counts)} ({given_points}), but the claimed routes "
                    f"are {counts_short(out.counts(p))} ({claimed_points}); the claimed routes count — correct or "
                    "remove routes", p, "routes", location(number, p, "routes"))
    for ticket_name, holders in where.items():
        if len(holders) > 1:
            out.problems.append(Problem(
                f"the ticket {ticket_name} is listed {len(holders)} times "
                f"({names(list(dict.fromkeys(holders)))}); the deck has one of each ticket",
                "warning", location(number), round=number))
    return out


def _stations(game_map: Any, session: Session, number: int, out: MapRound) -> dict[str, list[str]]:
    """Each player's station cities on Europe, checked: a known city, at most 3, no city holding two."""
    from scorekeeper.maps import MapNameError

    rnd = session.round(number)
    built: dict[str, list[str]] = {}
    at_city: dict[str, list[tuple[str, int]]] = {}
    for p in session.players:
        built[p] = []
        for i, text in enumerate(rnd.entry(p).get("station_cities", []), start=1):
            at = location(number, p, "station_cities", i)
            try:
                city = game_map.city(text)
            except MapNameError as exc:
                out.problems.append(Problem(str(exc), "error", at, round=number, player=p, field="station_cities"))
                continue
            if len(built[p]) >= STATIONS:
                out.problems.append(Problem(
                    f"a station in {city} would be {p}'s station {len(built[p]) + 1}; each player has "
                    f"{STATIONS} stations", "error", at, round=number, player=p, field="station_cities"))
                continue
            at_city.setdefault(city, []).append((p, i))
            built[p].append(city)
    for city, holders in at_city.items():
        if len(holders) < 2:
            continue
        places = names([f"{q}'s station_cities[{j}]" for q, j in holders])  # the same words at each of them
        said = names([f"{q}'s {ordinal(j)} station" for q, j in holders])  # the table's words, for the app
        count = COUNTED.get(len(holders), len(holders))
        for p, i in holders:
            out.problems.append(Problem(
                f"{city} holds {count} stations ({places}); no city holds more than one station",
                "error", location(number, p, "station_cities", i), round=number, player=p,
                field="station_cities", said=f"{city} holds {count} stations ({said}); no city holds more than one "
                                             "station"))
    out.built = {p: len(cities) for p, cities in built.items()}
    return built
