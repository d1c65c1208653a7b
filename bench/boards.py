"""Bench: Europe's station search and the longest path on Europe and Nordic Countries, against a plain exhaustive
search of both, on the worst networks found among random legal players.

Run: .venv/bin/python bench/boards.py [PLAYERS]   (PLAYERS random players per board, default 10000; about a minute)

Each random legal player: routes claimed at random within the board's trains (45; Nordic Countries 40), never
both tracks of a double; every other route of the board claimed by opponents (the most routes a station may
borrow); on Europe 3 stations in random cities; 6 tickets of the deck. For each board the player whose station
search (Europe) and whose longest path took longest is kept, then timed again (median of 5) against the plain
search: every choice of the stations' routes with a breadth-first connection test per ticket, and every trail
from every city (capped at 20 s, shown as ">").
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from itertools import product
from pathlib import Path

try:
    from scorekeeper.games.stations import Borrow, Goal, choose_stations
    from scorekeeper.maps import load_map, longest_trail
except ModuleNotFoundError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from scorekeeper.games.stations import Borrow, Goal, choose_stations
    from scorekeeper.maps import load_map, longest_trail

TARGET_MS = 16.0
CAP_S = 20.0


def random_player(board: str, rng: random.Random) -> tuple[list, list, list, list]:
    """Own routes (a, b, length), others' routes as Borrow, station cities, tickets as Goal."""
    m = load_map(board)
    routes = list(m.routes)
    rng.shuffle(routes)
    budget, own, pairs = m.trains, [], set()
    grown = {rng.choice(m.cities)}
    for _ in range(3):  # prefer routes next to the network, as players build
        for r in routes:
            pair = frozenset((r.a, r.b))
            if pair in pairs or r.length > budget or not ({r.a, r.b} & grown):
                continue
            own.append(r)
            pairs.add(pair)
            budget -= r.length
            grown |= {r.a, r.b}
    others = [Borrow("them", r.a, r.b, r.name) for r in m.routes if r not in own]
    stations = rng.sample(list(m.cities), 3) if board == "europe" else []
    goals = [Goal(t.a, t.b, t.points) for t in rng.sample(list(m.tickets), 6)]
    return [(r.a, r.b, r.length) for r in own], others, stations, goals


def joined(edges: list[tuple[str, str]], a: str, b: str) -> bool:
    seen, todo = {a}, [a]
    while todo:
        x = todo.pop()
        if x == b:
            return True
        for p, q in edges:
            for u, v in ((p, q), (q, p)):
                if u == x and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return False


def plain_stations(own, others, stations, goals) -> tuple[int, int]:
    options = [[(o.a, o.b) for o in others if city in (o.a, o.b)] or [None] for city in stations]
    best = None
    for pick in product(*options):
        edges = [(a, b) for a, b, _ in own] + [e for e in pick if e is not None]
        done = [joined(edges, g.a, g.b) for g in goals]
        key = (sum(g.points if d else -g.points for g, d in zip(goals, done, strict=True)), sum(done))
        best = key if best is None or key > best else best
    return best


class Capped(Exception):
    pass


def plain_longest(edges, cap: float) -> int:
    best, start = 0, time.perf_counter()

    def walk(city, used, length):
        nonlocal best
        if time.perf_counter() - start > cap:
            raise Capped
        best = max(best, length)
        for i, (a, b, n) in enumerate(edges):
            if not used >> i & 1 and city in (a, b):
                walk(b if city == a else a, used | 1 << i, length + n)

    for city in {c for a, b, _ in edges for c in (a, b)}:
        walk(city, 0, 0)
    return best


def timed(fn, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times) * 1000


def bench_board(board: str, players: int) -> bool:
    """Search `players` random legal players of the board for the slowest, time it against the plain search, print
    the figures; whether the aim is met."""
    ok = True
    rng = random.Random(24)
    worst_s: tuple[float, tuple | None] = (0.0, None)
    worst_p: tuple[float, list] = (0.0, [])
    for _ in range(players):
        own, others, stations, goals = random_player(board, rng)
        if stations:
            t = time.perf_counter()
            choose_stations([(a, b) for a, b, _ in own], stations, others, goals)
            worst_s = max(worst_s, (time.perf_counter() - t, (own, others, stations, goals)), key=lambda x: x[0])
        t = time.perf_counter()
        longest_trail(own)
        worst_p = max(worst_p, (time.perf_counter() - t, own), key=lambda x: x[0])
    print(f"{board}: {players:,} random legal players")
    if worst_s[1] is not None:
        s_own, s_others, s_stations, s_goals = worst_s[1]
        choices = 1
        for city in s_stations:
            choices *= max(1, sum(1 for o in s_others if city in (o.a, o.b)))
        ours = timed(lambda: choose_stations([(a, b) for a, b, _ in s_own], s_stations, s_others, s_goals))
        plain = timed(lambda: plain_stations(s_own, s_others, s_stations, s_goals))
        ok &= ours < TARGET_MS
        print(f"  station search, worst player (stations in {', '.join(s_stations)}; {choices} choices): "
              f"ours {ours:.2f} ms, plain {plain:.2f} ms, ratio {plain / ours:.1f}x")
    p_own = worst_p[1]
    ours = timed(lambda: longest_trail(p_own))
    try:
        plain_t = timed(lambda: plain_longest(p_own, CAP_S), runs=1)
        shown = f"{plain_t:.2f} ms, ratio {plain_t / ours:.1f}x"
    except Capped:
        shown = f">{CAP_S * 1000:.0f} ms, ratio >{CAP_S * 1000 / ours:.0f}x"
    ok &= ours < TARGET_MS
    print(f"  longest path, worst player ({len(p_own)} routes, {sum(n for _, _, n in p_own)} trains): "
          f"ours {ours:.2f} ms, plain {shown}")
    return ok


def main() -> int:
    players = int(sys.argv[1]) if len(sys.argv) > 1 else 10_000
    ok = all([bench_board(board, players) for board in ("europe", "nordic")])
    print(f"aim: under {TARGET_MS:.0f} ms per player for the worst case: {'met' if ok else 'NOT met'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
