"""Map mode of Ticket to Ride: a round read on a map — claims checked, tickets and longest trails worked out."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import names, plural
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
from scorekeeper.problems import Problem, Severity, location

if TYPE_CHECKING:
    from scorekeeper.session import Session


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


_MAP_ROUNDS: dict[tuple[Any, ...], MapRound] = {}


def map_round(map_id: str, session: Session, number: int) -> MapRound:
    """Read a round on a map: claims checked against each other, tickets and longest trails worked out."""
    rnd = session.round(number)
    key = (map_id, number, session.players, repr([(p, rnd.players.get(p)) for p in session.players]))
    found = _MAP_ROUNDS.get(key)
    if found is None:
        if len(_MAP_ROUNDS) > 256:
            _MAP_ROUNDS.clear()
        found = _MAP_ROUNDS[key] = _read_map_round(map_id, session, number)
    return found


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
            try:
                a, b = game_map.resolve_pair(text, "route")
            except MapNameError as exc:
                problem("error", str(exc), p, "claimed", at)
                continue
            segments = game_map.pair(a, b)
            name = game_map.route_name(a, b)
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
            if others and len(players) <= 3:
                problem("error", f"{others[0]} claimed {name} already; with {len(players)} players only one "
                        "route of a double route is used, so only one player can claim it", p, "claimed", at)
                continue
            if len(others) >= 2:
                problem("error", f"{name} is a double route already claimed by {names(others)}; "
                        "it has only two routes", p, "claimed", at)
                continue
            earlier.append((p, i))
            out.claims[p].append(Claim(i, a, b, segments[0].length))

    where: dict[str, list[str]] = {}
    for p in players:
        edges = [(c.a, c.b, c.length) for c in out.claims[p]]
        cards: list[Card] = []
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
            done = connected(edges, ticket.a, ticket.b)
            state = "connected" if done else "not connected"
            if "points" in card and card["points"] != ticket.points:
                problem("warning", f"points is {card['points']}, but the {game_map.name} ticket {ticket.name} is "
                        f"worth {ticket.points}; the map's points count", p, "tickets", f"{at}.points")
            if "completed" in card and card["completed"] != done:
                problem("warning", f"completed is {str(card['completed']).lower()}, but {p}'s claimed routes "
                        f"leave {ticket.name} {state}; the map counts", p, "tickets", f"{at}.completed")
            cards.append(Card(f"ticket {ticket.name}", ticket.points, done, f"{state} by the claimed routes",
                              ticket.name))
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
