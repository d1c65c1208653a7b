"""What Ticket to Ride and Ticket to Finland share: the route table, trains, routes and cards as scored."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import Item, most, plural
from scorekeeper.maps import TRAINS
from scorekeeper.model.points import whole
from scorekeeper.model.problems import Problem, location

if TYPE_CHECKING:
    from scorekeeper.model.session import Session

ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
"""Points of a claimed route by its length in trains."""
LENGTHS = tuple(ROUTE_POINTS)
LAST_TRAINS = 2
"""The last turns begin when a player ends a turn with this many trains or fewer."""

# -- routes ----------------------------------------------------------------------------
def route_counts(entry: dict[str, Any]) -> dict[int, int]:
    """The player's claimed routes counted by length (`routes`), lengths with a count of 0 left out."""
    return {int(k): int(v) for k, v in sorted(entry.get("routes", {}).items(), key=lambda kv: int(kv[0])) if v}


def counts_points(counts: dict[int, int]) -> int:
    """Route points of routes counted by length, from the route table."""
    return sum(n * ROUTE_POINTS[length] for length, n in counts.items())


def counts_trains(counts: dict[int, int]) -> int:
    """Trains used by routes counted by length."""
    return sum(n * length for length, n in counts.items())


def counts_why(counts: dict[int, int]) -> str:
    """`2×1 + 3×4 trains = 2 + 21 by the route table (14 trains used)`."""
    if not counts:
        return "no routes claimed"
    lengths = " + ".join(f"{n}×{length}" for length, n in counts.items())
    points = " + ".join(str(n * ROUTE_POINTS[length]) for length, n in counts.items())
    return f"routes of {lengths} trains = {points} by the route table ({plural(counts_trains(counts), 'train')} used)"


def counts_short(counts: dict[int, int]) -> str:
    """`2×1 + 3×4 trains`, or `no routes`."""
    return " + ".join(f"{n}×{length}" for length, n in counts.items()) + " trains" if counts else "no routes"


@dataclass(frozen=True)
class Routes:
    """A player's route points, the trains they used when known, and how the points were found."""

    points: int
    trains: int | None
    why: str
    source: str  # "routes", "route_points", "claimed" or "" (nothing given)
    counts: dict[int, int] | None = None  # routes by length, when known


def routes_of(entry: dict[str, Any]) -> Routes:
    """Route points from `routes` (it wins when both are given), else from `route_points`."""
    if "routes" in entry:
        counts = route_counts(entry)
        return Routes(counts_points(counts), counts_trains(counts), counts_why(counts), "routes", counts)
    if "route_points" in entry:
        return Routes(int(entry["route_points"]), None, "route points from the score track", "route_points")
    return Routes(0, None, "", "")


def route_checks(
    session: Session, number: int, routes: dict[str, Routes], trains: int = TRAINS
) -> list[Problem]:
    """Trains over the limit (error); `route_points` that disagrees with the routes, no end of game (warnings)."""
    problems: list[Problem] = []
    rnd = session.round(number)
    for p in session.players:
        entry = rnd.entry(p)
        r = routes[p]
        if r.trains is not None and r.trains > trains:
            problems.append(Problem(
                f"{p}'s routes use {r.trains} trains ({counts_short(r.counts or {})}); each player has {trains} "
                "trains",
                "error", location(number, p, r.source), round=number, player=p, field=r.source))
        if r.source in ("routes", "claimed") and "route_points" in entry and int(entry["route_points"]) != r.points:
            given = "routes by length" if r.source == "routes" else "claimed routes"
            problems.append(Problem(
                f"route_points is {entry['route_points']}, but the {given} score {r.points} "
                f"({counts_short(r.counts or {})}); the {given} count — correct or remove route_points",
                "warning", location(number, p, "route_points"), round=number, player=p, field="route_points"))
    if rnd.is_complete(session.players) and all(routes[p].trains is not None for p in session.players):
        furthest = max(routes[p].trains or 0 for p in session.players)
        if furthest < trains - LAST_TRAINS:
            used = ", ".join(f"{p} {routes[p].trains}" for p in session.players)
            problems.append(Problem(
                f"no player has {LAST_TRAINS} or fewer trains left (trains used: {used}); the game ends when "
                f"a player is down to {LAST_TRAINS} or fewer of their {trains}, so someone used at least "
                f"{trains - LAST_TRAINS} — check the routes", "warning", location(number), round=number))
    return problems


def routes_items(session: Session, number: int, routes: dict[str, Routes]) -> list[Item]:
    """The `routes` item of each player with route points."""
    return [Item(p, "routes", whole(routes[p].points), routes[p].why) for p in session.players if routes[p].points]


# -- cards -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Card:
    """A ticket or tourist card as scored: a label, its points, and whether (and how we know) it counts."""

    label: str
    points: int
    completed: bool
    how: str  # "completed", "failed", "not marked completed, so failed", "connected on the map" …
    name: str = ""  # the card's name, when it has one
    via: tuple[str, ...] = ()  # Europe: the cities of the stations that completed the ticket

    @property
    def value(self) -> int:
        """+points when completed, -points when failed."""
        return self.points if self.completed else -self.points

    def why(self) -> str:
        """`ticket Denver – El Paso completed: +4`."""
        sign = "+" if self.completed else "-"
        return f"{self.label} {self.how}: {sign}{self.points}"


def card_of(card: dict[str, Any], label: str, points: int | None = None) -> Card:
    """A card as marked (its `points`, else the points given): a card without `completed` counts as failed."""
    value = int(card["points"]) if "points" in card else int(points or 0)
    name = str(card.get("name") or "")
    if "completed" not in card:
        return Card(label, value, False, "not marked completed, so failed", name)
    if card["completed"]:
        return Card(label, value, True, "completed", name)
    return Card(label, value, False, "failed", name)


def cards_of(entry: dict[str, Any], key: str, noun: str) -> list[Card]:
    """The cards of a CardListField as scored, labelled by name or by place in the list."""
    return [card_of(card, f"{noun} {card['name']}" if card.get("name") else f"{noun} {i}")
            for i, card in enumerate(entry.get(key, []), start=1)]


def card_items(player: str, cards: list[Card], category: str, keep: Callable[[Card], bool] = lambda c: True
               ) -> list[Item]:
    """An item per card (that `keep` accepts): + its points when completed, - when failed."""
    return [Item(player, category, whole(c.value), c.why(), (c.name,) if c.name else (), via=c.via)
            for c in cards if keep(c)]


TICKETS_HELP = "destination tickets: points, completed = true/false, name (\"Denver – El Paso\", optional)"


def bonus_holders(values: dict[str, int]) -> tuple[list[str], int]:
    """Who receives a bonus for the greatest measure (seating order) and that measure; nobody when it is 0."""
    holders, top = most(values)
    return (holders if top > 0 else []), top


def kept_checks(session: Session, number: int, key: str, least: int, noun: tuple[str, str], source: str
                ) -> list[Problem]:
    """A warning at `key` for each entered player who kept fewer than `least` cards of a kind."""
    problems: list[Problem] = []
    rnd = session.round(number)
    for p in session.players:
        if p not in rnd.players:
            continue
        kept = len(rnd.entry(p).get(key, []))
        if kept < least:
            problems.append(Problem(
                f"{p} kept {plural(kept, *noun)}; every player keeps at least {least} ({source})",
                "warning", location(number, p, key), round=number, player=p, field=key))
    return problems


def shared_ticket_checks(session: Session, number: int, key: str = "tickets") -> list[Problem]:
    """A warning at each player holding a destination ticket another player holds too, by name (its two cities in
    either order, any dash, case and spacing): the base deck has one card of each ticket."""

    holders: dict[tuple[str, ...], list[str]] = {}
    rnd = session.round(number)
    for p in session.players:
        for card in rnd.entry(p).get(key, []) if p in rnd.players else []:
            name = card.get("name") if isinstance(card, dict) else None
            if not isinstance(name, str) or not name.strip():
                continue
            cities = tuple(sorted(" ".join(c.split()).casefold() for c in re.split(r"\s*[-–—]\s*", name.strip())))
            if p not in holders.setdefault(cities, []):
                holders[cities].append(p)
    problems: list[Problem] = []
    for cities, who in holders.items():
        if len(who) > 1:
            shown = " – ".join(cities)
            for p in who:
                problems.append(Problem(
                    f"the destination ticket {shown} is held by {' and '.join(who)}; the deck has one card of each "
                    "ticket", "warning", location(number, p, key), round=number, player=p, field=key))
    return problems
