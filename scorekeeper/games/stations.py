"""Europe's stations: for one player, the other players' routes their stations use, chosen jointly (SPEC 4.2.1)."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product


# -- stations ------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Borrow:
    """A route another player claimed that a station may use: its owner, cities and display name."""

    owner: str
    a: str
    b: str
    name: str


@dataclass(frozen=True)
class Goal:
    """A ticket as the station search sees it: its two cities and its points."""

    a: str
    b: str
    points: int


@dataclass(frozen=True)
class StationChoice:
    """The search's answer for one player: per station its route (None: nothing claimed next to it), and per
    ticket whether it is completed."""

    uses: tuple[Borrow | None, ...]
    done: tuple[bool, ...]


class _Union:
    """Union-find over small integers."""

    def __init__(self, n: int) -> None:
        self.parent = list(range(n))

    def find(self, x: int) -> int:
        parent = self.parent
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    def join(self, x: int, y: int) -> None:
        self.parent[self.find(x)] = self.find(y)


def station_options(city: str, others: list[Borrow]) -> list[Borrow]:
    """The routes a station in `city` may use: other players' claimed routes into or out of it, in file order."""
    return [o for o in others if city in (o.a, o.b)]


def choose_stations(
    own: list[tuple[str, str]], stations: list[str], others: list[Borrow], goals: list[Goal]
) -> StationChoice:
    """Every choice of one other player's route per station (none where nothing is claimed next to it), and
    the one with the greatest ticket total; still equal, the most completed tickets; still equal, the first in
    file order (stations in the order listed, each one's routes in file order)."""
    ids: dict[str, int] = {}

    def cid(city: str) -> int:
        return ids.setdefault(city, len(ids))

    for a, b in own:
        cid(a), cid(b)
    for goal in goals:
        cid(goal.a), cid(goal.b)
    options = [station_options(s, others) for s in stations]
    for opts in options:
        for o in opts:
            cid(o.a), cid(o.b)
    base = _Union(len(ids))
    for a, b in own:
        base.join(ids[a], ids[b])
    comp = [base.find(i) for i in range(len(ids))]
    # Each ticket, each borrowable route, as a pair of components of the player's own network.
    goal_ends = [(comp[ids[g.a]], comp[ids[g.b]]) for g in goals]
    choices: list[list[tuple[int, int] | None]] = [
        [(comp[ids[o.a]], comp[ids[o.b]]) for o in opts] or [None] for opts in options
    ]
    best_key: tuple[int, int] | None = None
    best_pick: tuple[int, ...] = tuple(0 for _ in stations)
    best_done: tuple[bool, ...] = ()
    n = len(ids)
    for pick in product(*(range(len(c)) for c in choices)):
        union = _Union(n)
        for i, k in enumerate(pick):
            edge = choices[i][k]
            if edge is not None:
                union.join(*edge)
        done = tuple(union.find(x) == union.find(y) for x, y in goal_ends)
        total = sum(g.points if d else -g.points for g, d in zip(goals, done, strict=True))
        key = (total, sum(done))
        if best_key is None or key > best_key:
            best_key, best_pick, best_done = key, pick, done
    uses = tuple(opts[k] if opts else None for opts, k in zip(options, best_pick, strict=True))
    return StationChoice(uses, best_done)


def completes_without(
    own: list[tuple[str, str]], uses: tuple[Borrow | None, ...], goals: list[Goal], drop: int
) -> tuple[bool, ...]:
    """Each ticket's completion with the chosen routes but the one of station `drop` (None: all kept)."""
    ids: dict[str, int] = {}
    edges = [(a, b) for a, b in own] + [(u.a, u.b) for i, u in enumerate(uses) if u is not None and i != drop]
    for a, b in edges:
        ids.setdefault(a, len(ids))
        ids.setdefault(b, len(ids))
    union = _Union(len(ids))
    for a, b in edges:
        union.join(ids[a], ids[b])
    return tuple(g.a in ids and g.b in ids and union.find(ids[g.a]) == union.find(ids[g.b]) for g in goals)
