"""Bench: longest_trail against a naive exhaustive search on legal USA networks (≤ 45 trains).

Run: .venv/bin/python bench/longest_path.py   (well under a minute)

Cases: random legal networks (random segments, never both of a double route), random connected
networks, cycle-heavy networks of short routes, every short route of one region up to 45
trains, networks hill-climbed for slowness during development, and a fresh hill-climb. Each
row gives the median and the worst of our time over its networks (each network timed as the
median of several runs), the naive search's median and the ratio. The naive search is a plain
depth-first walk over every trail from every city; it is capped per network (and sampled for
the large families), and a capped figure is shown as ">".
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from pathlib import Path

try:
    from scorekeeper.maps import GameMap, load_map, longest_trail
except ModuleNotFoundError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from scorekeeper.maps import GameMap, load_map, longest_trail

Network = list[tuple[str, str, int]]

TARGET_MS = 5.0
REPEATS = 7  # runs of ours per network, median taken
NAIVE_CAP_S = 1.0  # per network
NAIVE_SAMPLE = 40  # networks per family given to the naive search
FAMILY_SIZE = 150


class _Capped(Exception):
    pass


def naive_longest(edges: Network, cap_s: float) -> int:
    """Plain exhaustive DFS over trails from every city, no pruning; raises _Capped."""
    adjacency: dict[str, list[tuple[int, str, int]]] = {}
    for i, (a, b, w) in enumerate(edges):
        adjacency.setdefault(a, []).append((1 << i, b, w))
        if a != b:
            adjacency.setdefault(b, []).append((1 << i, a, w))
    deadline = time.perf_counter() + cap_s
    best = 0
    steps = 0

    def walk(x: str, used: int, length: int) -> None:
        nonlocal best, steps
        steps += 1
        if steps & 0xFFF == 0 and time.perf_counter() > deadline:
            raise _Capped
        if length > best:
            best = length
        for bit, y, w in adjacency[x]:
            if not used & bit:
                walk(y, used | bit, length + w)

    for x in adjacency:
        walk(x, 0, 0)
    return best


def time_ours(edges: Network) -> tuple[float, int]:
    """Median milliseconds of longest_trail over REPEATS runs, and the length found."""
    times = []
    length = 0
    for _ in range(REPEATS):
        start = time.perf_counter()
        length, _path = longest_trail(edges)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000, length


def time_naive(edges: Network, expected: int) -> float | None:
    """Milliseconds of the naive search (median of up to 3 runs), None if capped."""
    times = []
    for _ in range(3):
        start = time.perf_counter()
        try:
            length = naive_longest(edges, NAIVE_CAP_S)
        except _Capped:
            return None
        elapsed = time.perf_counter() - start
        if length != expected:
            raise SystemExit(f"MISMATCH: naive {length}, ours {expected} on {edges}")
        times.append(elapsed)
        if elapsed > 0.2:
            break
    return statistics.median(times) * 1000


# -- networks ---------------------------------------------------------------------------------


def legal_random(usa: GameMap, rng: random.Random) -> Network:
    """Random segments, one per city pair at most, until 45 trains are (nearly) used."""
    taken: dict[tuple[str, str], int] = {}
    trains = 0
    for route in rng.sample(usa.routes, len(usa.routes)):
        pair = (route.a, route.b)
        if pair not in taken and trains + route.length <= usa.trains:
            taken[pair] = route.length
            trains += route.length
    return [(a, b, w) for (a, b), w in taken.items()]


def connected_random(usa: GameMap, rng: random.Random, max_length: int = 9, closing: float = 0.0) -> Network:
    """A network grown route by route from one route, as a player might; `closing` is the
    chance of preferring a route that closes a cycle."""
    pairs = [(a, b, usa.pair(a, b)[0].length) for a, b in usa.city_pairs]
    pairs = [p for p in pairs if p[2] <= max_length]
    net = [rng.choice(pairs)]
    cities = {net[0][0], net[0][1]}
    trains = net[0][2]
    while True:
        options = [
            p for p in pairs if p not in net and (p[0] in cities or p[1] in cities) and trains + p[2] <= usa.trains
        ]
        if not options:
            return net
        cycle = [p for p in options if p[0] in cities and p[1] in cities]
        pick = rng.choice(cycle if cycle and rng.random() < closing else options)
        net.append(pick)
        cities |= {pick[0], pick[1]}
        trains += pick[2]


REGIONS = {
    "east": (
        "Atlanta",
        "Boston",
        "Charleston",
        "Chicago",
        "Miami",
        "Montréal",
        "Nashville",
        "New York",
        "Pittsburgh",
        "Raleigh",
        "Saint Louis",
        "Sault St. Marie",
        "Toronto",
        "Washington",
    ),
    "central": (
        "Chicago",
        "Dallas",
        "Denver",
        "Duluth",
        "El Paso",
        "Houston",
        "Kansas City",
        "Little Rock",
        "Nashville",
        "New Orleans",
        "Oklahoma City",
        "Omaha",
        "Saint Louis",
        "Santa Fe",
    ),
    "west": (
        "Calgary",
        "Denver",
        "El Paso",
        "Helena",
        "Las Vegas",
        "Los Angeles",
        "Phoenix",
        "Portland",
        "Salt Lake City",
        "San Francisco",
        "Santa Fe",
        "Seattle",
        "Vancouver",
    ),
}


def region(usa: GameMap, name: str) -> Network:
    """All routes inside a region, shortest first, while they fit in 45 trains."""
    cities = set(REGIONS[name])
    inside = sorted((usa.pair(a, b)[0].length, a, b) for a, b in usa.city_pairs if a in cities and b in cities)
    net: Network = []
    for length, a, b in inside:
        if sum(w for *_, w in net) + length <= usa.trains:
            net.append((a, b, length))
    return net


CLIMBED = [  # slowest for longest_trail found by hill-climbing during development
    "Nashville-Saint Louis|Little Rock-Saint Louis|Dallas-Little Rock|Dallas-Oklahoma City|"
    "Little Rock-Oklahoma City|Atlanta-Nashville|Kansas City-Saint Louis|Atlanta-Raleigh|"
    "Atlanta-Charleston|Pittsburgh-Raleigh|Pittsburgh-Washington|New York-Pittsburgh|"
    "New York-Washington|Kansas City-Omaha|Boston-New York|Dallas-Houston|Duluth-Omaha|"
    "Houston-New Orleans|Duluth-Winnipeg|Raleigh-Washington|Los Angeles-San Francisco|"
    "Oklahoma City-Santa Fe",
    "Chicago-Saint Louis|Kansas City-Saint Louis|Kansas City-Omaha|Little Rock-Saint Louis|"
    "Dallas-Little Rock|Chicago-Pittsburgh|Little Rock-Nashville|Nashville-Saint Louis|"
    "Atlanta-Charleston|Atlanta-Raleigh|Raleigh-Washington|Dallas-Houston|Charleston-Raleigh|"
    "Montréal-New York|Pittsburgh-Washington|Chicago-Duluth|New York-Pittsburgh|"
    "New York-Washington|Dallas-Oklahoma City|Atlanta-Nashville|Montréal-Toronto",
    "Duluth-Sault St. Marie|Chicago-Duluth|Chicago-Saint Louis|Kansas City-Saint Louis|"
    "Little Rock-Saint Louis|Little Rock-Oklahoma City|Dallas-Oklahoma City|Dallas-Little Rock|"
    "Chicago-Pittsburgh|Nashville-Saint Louis|New York-Pittsburgh|New York-Washington|"
    "Pittsburgh-Washington|Atlanta-Charleston|Raleigh-Washington|Dallas-Houston|Boston-New York|"
    "Atlanta-Nashville|Nashville-Raleigh|Atlanta-Raleigh|Oklahoma City-Santa Fe",
    "Chicago-Saint Louis|Kansas City-Saint Louis|Nashville-Saint Louis|Kansas City-Oklahoma City|"
    "Atlanta-Nashville|Dallas-Little Rock|Dallas-Houston|Dallas-Oklahoma City|Houston-New Orleans|"
    "Atlanta-Raleigh|Pittsburgh-Washington|Raleigh-Washington|Pittsburgh-Toronto|"
    "New York-Washington|Duluth-Omaha|Boston-New York|New York-Pittsburgh|Atlanta-Charleston|"
    "Kansas City-Omaha|Charleston-Raleigh|Little Rock-Nashville|Seattle-Vancouver|"
    "Little Rock-Oklahoma City|Boston-Montréal",
]

CLIMBED_NAIVE = [  # slowest for the naive search found during development
    "Little Rock-Nashville|Nashville-Raleigh|Little Rock-Saint Louis|Nashville-Saint Louis|"
    "Chicago-Pittsburgh|Chicago-Saint Louis|Raleigh-Washington|Pittsburgh-Washington|Atlanta-Raleigh|"
    "Atlanta-Nashville|Pittsburgh-Toronto|Montréal-Toronto|Montréal-New York|Chicago-Toronto|"
    "Pittsburgh-Raleigh|Charleston-Raleigh|Atlanta-Charleston|New York-Pittsburgh|New York-Washington",
]


def named(usa: GameMap, names: str) -> Network:
    """A network from route names "A-B|C-D|..."."""
    pairs = [usa.resolve_pair(name, "route") for name in names.split("|")]
    return [(a, b, usa.pair(a, b)[0].length) for a, b in pairs]


def hill_climb(usa: GameMap, rng: random.Random, steps: int, against_naive: bool = False) -> Network:
    """Search for a network slow for longest_trail (or for the naive search): swap short
    routes in and out, keep a change that makes it slower."""
    pairs = [(a, b, usa.pair(a, b)[0].length) for a, b in usa.city_pairs]
    pairs = [p for p in pairs if p[2] <= 4]

    def cost(net: Network) -> float:
        if against_naive:
            start = time.perf_counter()
            try:
                naive_longest(net, 0.3)
            except _Capped:
                pass
            return time.perf_counter() - start
        return min(_once(net) for _ in range(3))

    net = max((connected_random(usa, rng, 3, 0.7) for _ in range(10)), key=cost)
    current = cost(net)
    for _ in range(steps):
        trial = list(net)
        for _ in range(rng.randint(1, 3)):
            trial.remove(rng.choice(trial))
        for _ in range(8):
            pick = rng.choice(pairs)
            if pick not in trial and sum(w for *_, w in trial) + pick[2] <= usa.trains:
                trial.append(pick)
        if (c := cost(trial)) > current:
            net, current = trial, c
    return net


def _once(net: Network) -> float:
    start = time.perf_counter()
    longest_trail(net)
    return time.perf_counter() - start


# -- the run ----------------------------------------------------------------------------------


Row = tuple[str, str, str, str, str, str, str]


def row(label: str, nets: list[Network], naive_sample: int) -> tuple[Row, float]:
    """Time one case (one or more networks): its table row and our worst time."""
    ours, lengths = [], []
    for net in nets:
        ms, length = time_ours(net)
        ours.append(ms)
        lengths.append(length)
    naive: list[float] = []
    ratios: list[float] = []
    capped = 0
    for i in range(min(naive_sample, len(nets))):
        timed = time_naive(nets[i], lengths[i])
        if timed is None:
            capped += 1
            timed = NAIVE_CAP_S * 1000
        naive.append(timed)
        ratios.append(timed / ours[i])
    sizes = [len(n) for n in nets]
    edges = str(sizes[0]) if len(set(sizes)) == 1 else f"{min(sizes)}–{max(sizes)}"
    held = ">" if capped * 2 >= len(naive) else ""  # the median itself is a capped figure
    cells = (
        label,
        edges,
        f"{statistics.median(ours):.3f}",
        f"{max(ours):.3f}",
        f"{held}{statistics.median(naive):.2f}",
        f"{'>' if capped else ''}{max(naive):.2f}" + (f" ({capped}/{len(naive)} capped)" if capped else ""),
        f"{held}{statistics.median(ratios):.1f}×",
    )
    return cells, max(ours)


def main() -> None:
    """Build the networks, time both searches, print the table."""
    began = time.perf_counter()
    usa = load_map("usa")
    rng = random.Random(2024)
    longest_trail(named(usa, CLIMBED[0]))  # warm up
    cases: list[tuple[str, list[Network], int]] = [
        (f"random legal networks ({FAMILY_SIZE})", [legal_random(usa, rng) for _ in range(FAMILY_SIZE)], NAIVE_SAMPLE),
        (f"random connected ({FAMILY_SIZE})", [connected_random(usa, rng) for _ in range(FAMILY_SIZE)], NAIVE_SAMPLE),
        (
            f"connected, routes ≤ 3, cycle-heavy ({FAMILY_SIZE})",
            [connected_random(usa, rng, 3, 0.7) for _ in range(FAMILY_SIZE)],
            NAIVE_SAMPLE,
        ),
        (
            f"connected, routes ≤ 2, cycle-heavy ({FAMILY_SIZE})",
            [connected_random(usa, rng, 2, 0.9) for _ in range(FAMILY_SIZE)],
            NAIVE_SAMPLE,
        ),
    ]
    for name in REGIONS:
        cases.append((f"region {name}: all short routes ≤ 45", [region(usa, name)], 1))
    for i, names in enumerate(CLIMBED, 1):
        cases.append((f"hill-climbed against ours (development) #{i}", [named(usa, names)], 1))
    for i, names in enumerate(CLIMBED_NAIVE, 1):
        cases.append((f"hill-climbed against naive (development) #{i}", [named(usa, names)], 1))
    cases.append(("hill-climbed now against ours (150 steps)", [hill_climb(usa, random.Random(7), 150)], 1))
    cases.append(("hill-climbed now against naive (300 steps)", [hill_climb(usa, random.Random(8), 300, True)], 1))

    header = ("case", "edges", "ours median ms", "ours max ms", "naive median ms", "naive max ms", "naive/ours")
    results = [row(label, nets, sample) for label, nets, sample in cases]
    rows = [cells for cells, _ in results]
    widths = [max(len(x) for x in col) for col in zip(header, *rows, strict=True)]
    print(" | ".join(h.ljust(w) for h, w in zip(header, widths, strict=True)))
    print("-+-".join("-" * w for w in widths))
    for cells in rows:
        print(" | ".join(c.ljust(w) for c, w in zip(cells, widths, strict=True)))
    worst = max(w for _, w in results)
    verdict = "OK" if worst < TARGET_MS else "OVER"
    total = sum(len(nets) for _, nets, _ in cases)
    print()
    print(f"ours, worst network (median of {REPEATS} runs): {worst:.2f} ms; target {TARGET_MS:.0f} ms: {verdict}")
    print(
        f"{total} networks; the naive search ran on the first {NAIVE_SAMPLE} of each family, capped at "
        f"{NAIVE_CAP_S:.1f} s a network; naive/ours is the median of the per-network ratios"
    )
    print(f"python {sys.version.split()[0]}; bench took {time.perf_counter() - began:.1f} s")


if __name__ == "__main__":
    main()
