"""Tests for scorekeeper.maps: the packaged USA map, name resolution and the path graph code."""

from __future__ import annotations

import random
import statistics
import time
import tomllib
from collections import Counter
from pathlib import Path

import pytest

import scorekeeper.maps.graph as graph
from scorekeeper.maps import (
    MAPS,
    GameMap,
    MapNameError,
    Route,
    Ticket,
    UnknownMapError,
    connected,
    load_map,
    longest_trail,
    map_from_toml,
    normalise,
)


@pytest.fixture(scope="module")
def usa() -> GameMap:
    return load_map("usa")


# -- the data ---------------------------------------------------------------------------------


def test_usa_counts(usa: GameMap) -> None:
    assert MAPS == ("usa", "europe", "nordic")
    assert usa.id == "usa" and usa.name == "USA" and usa.trains == 45
    assert len(usa.cities) == len(set(usa.cities)) == 36
    assert len(usa.routes) == 100
    assert len(usa.city_pairs) == 78
    assert sum(r.length for r in usa.routes) == 309
    doubles = [r for r in usa.routes if r.double]
    assert len(doubles) == 44
    assert sum(1 for a, b in usa.city_pairs if len(usa.pair(a, b)) == 2) == 22
    assert len(usa.tickets) == 30
    assert sum(t.points for t in usa.tickets) == 349
    assert min(t.points for t in usa.tickets) == 4 and max(t.points for t in usa.tickets) == 22


def test_usa_doubles_are_pairs_of_equal_length(usa: GameMap) -> None:
    per_pair = Counter(tuple(sorted((r.a, r.b))) for r in usa.routes)
    for (a, b), count in per_pair.items():
        segments = usa.pair(a, b)
        assert len(segments) == count
        assert all(s.double == (count == 2) for s in segments)
        assert len({s.length for s in segments}) == 1


def test_usa_names_keep_accents(usa: GameMap) -> None:
    assert "Montréal" in usa.cities
    assert usa.route_name("montreal", "TORONTO") == "Montréal – Toronto"
    assert usa.ticket("Atlanta", "Montreal") == Ticket("Montréal", "Atlanta", 9)


def test_every_city_is_used(usa: GameMap) -> None:
    used = {c for r in usa.routes for c in (r.a, r.b)} | {c for t in usa.tickets for c in (t.a, t.b)}
    assert used == set(usa.cities)


def test_load_map_caches_and_rejects_unknown_ids(usa: GameMap) -> None:
    assert load_map("usa") is usa
    assert load_map(" USA ") is usa
    with pytest.raises(KeyError):
        load_map("mars")
    with pytest.raises(ValueError, match="unknown map 'nowhere'; the maps are usa, europe, nordic"):
        load_map("nowhere")
    with pytest.raises(UnknownMapError) as info:
        load_map("us")
    assert info.value.suggestions == ("usa",)
    assert "did you mean 'usa'?" in str(info.value)


def test_the_maps_and_the_trains_are_stated_once_in_the_package() -> None:
    """MAPS and TRAINS are stated once, in the package; the games import them without the map code (start-up:
    tests/test_imports.py)."""
    from scorekeeper import maps

    assert (maps.MAPS, maps.TRAINS) == (("usa", "europe", "nordic"), 45)


def test_a_map_without_trains_has_the_base_games_45() -> None:
    """Rulebook 001: "each player takes his set of 45 colored train cars" — usa.toml does not repeat it."""
    from scorekeeper.maps import TRAINS

    assert "trains" not in tomllib.loads((Path(__file__).resolve().parent.parent / "scorekeeper" / "maps"
                                          / "usa.toml").read_text(encoding="utf-8"))
    assert load_map("usa").trains == TRAINS == 45
    assert map_from_toml(TINY.replace("trains = 10\n", ""), "tiny.toml").trains == 45
    assert map_from_toml(TINY, "tiny.toml").trains == 10


TINY = """
id = "tiny"
name = "Tiny"
trains = 10
cities = ["Ås", "Bö", "Cé"]
routes = [
  { a = "Ås", b = "Bö", length = 2, color = "red", double = true },
  { a = "Ås", b = "Bö", length = 2, color = "blue", double = true },
  { a = "Bö", b = "Cé", length = 3, color = "gray", double = false },
]
tickets = [{ a = "Cé", b = "Ås", points = 5 }]
"""


def test_another_map_is_one_more_file() -> None:
    tiny = map_from_toml(TINY, "tiny.toml")
    assert tiny.cities == ("Ås", "Bö", "Cé")
    assert tiny.resolve_pair("as-bo", "route") == ("Ås", "Bö")
    assert tiny.resolve_pair("as - ce") == ("Cé", "Ås")  # the ticket's order
    assert tiny.ticket("as", "ce") == Ticket("Cé", "Ås", 5)
    assert len(tiny.pair("Bö", "Ås")) == 2


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (("double = false }", "double = true }"), "marked double but has one segment"),
        (('color = "blue", double = true', 'color = "blue", double = false'), "both must be marked double"),
        (('b = "Cé", length = 3', 'b = "Dé", length = 3'), "unknown city"),
        (("points = 5", "points = 0"), "points must be"),
        (("trains = 10", 'trains = "10"'), "trains must be int"),
        (("length = 3,", "length = 3, bridge = true,"), "expected keys"),
        (('name = "Tiny"', 'nom = "Tiny"'), "missing keys"),
    ],
)
def test_malformed_maps_are_rejected(change: tuple[str, str], message: str) -> None:
    assert change[0] in TINY
    with pytest.raises(ValueError, match=message):
        map_from_toml(TINY.replace(*change, 1), "tiny.toml")


# -- names ------------------------------------------------------------------------------------


def test_normalise() -> None:
    assert normalise("  Montréal ") == "montreal"
    assert normalise("SAULT\tSt.  Marie") == "sault st. marie"
    assert normalise("Åre") == "are"


@pytest.mark.parametrize(
    "text",
    [
        "Denver – Kansas City",
        "Kansas City - Denver",
        "denver-kansas city",
        "DENVER—KANSAS CITY",
        "Denver ‐ Kansas City",
        "Denver ‒ Kansas City",
        "Denver − Kansas City",
        "Denver -- Kansas City",
        "  denver   --   kansas   city ",
        "Denver - - Kansas City",
        "den - kan",
        "kans–denv",
    ],
)
def test_resolve_route_any_dash_order_case(usa: GameMap, text: str) -> None:
    assert usa.resolve_pair(text) == ("Denver", "Kansas City")
    assert usa.resolve_pair(text, "route") == ("Denver", "Kansas City")


def test_resolve_accents_and_aliases(usa: GameMap) -> None:
    assert usa.resolve_pair("montreal - toronto") == ("Montréal", "Toronto")
    assert usa.resolve_pair("TORONTO–MONTRÉAL") == ("Montréal", "Toronto")
    assert usa.resolve_pair("St. Louis - Chicago", "route") == ("Chicago", "Saint Louis")
    assert usa.resolve_pair("st louis - chicago", "route") == ("Chicago", "Saint Louis")
    assert usa.resolve_pair("Sault Ste Marie - Toronto") == ("Sault St. Marie", "Toronto")
    assert usa.resolve_pair("sault st marie - duluth") == ("Duluth", "Sault St. Marie")


def test_resolve_ticket_order_is_the_decks(usa: GameMap) -> None:
    assert usa.resolve_pair("Chicago - Los Angeles", "ticket") == ("Los Angeles", "Chicago")
    assert usa.resolve_pair("el paso – denver") == ("Denver", "El Paso")
    assert usa.resolve_pair("Denver - Pittsburgh", "ticket") == ("Denver", "Pittsburgh")
    # any two cities: map order when neither a route nor a ticket
    assert usa.resolve_pair("Miami - Denver") == ("Denver", "Miami")


def test_prefix_ambiguity_settled_by_the_kind(usa: GameMap) -> None:
    assert usa.resolve_pair("san - los", "route") == ("Los Angeles", "San Francisco")
    assert usa.resolve_pair("san - los") == ("Los Angeles", "San Francisco")
    assert usa.resolve_pair("santa - okla", "route") == ("Oklahoma City", "Santa Fe")
    with pytest.raises(MapNameError, match="ambiguous") as info:
        usa.resolve_pair("city - denver", "route")
    assert info.value.suggestions == (
        "Denver – Kansas City",
        "Denver – Oklahoma City",
        "Denver – Salt Lake City",
    )


def test_resolve_errors_say_what_is_wrong(usa: GameMap) -> None:
    with pytest.raises(MapNameError, match="unknown city 'Denvr'.*did you mean 'Denver – Kansas City'"):
        usa.resolve_pair("Denvr - Kansas City", "route")
    with pytest.raises(MapNameError, match="no route joins Denver and Miami; from Denver routes go to"):
        usa.resolve_pair("Denver - Miami", "route")
    with pytest.raises(MapNameError, match="not a destination ticket") as info:
        usa.resolve_pair("Denver - Miami", "ticket")
    assert info.value.suggestions
    with pytest.raises(MapNameError, match="two cities joined by a dash.*did you mean 'Denver – Kansas City'"):
        usa.resolve_pair("Denver Kansas City", "route")
    with pytest.raises(MapNameError, match="names Denver twice"):
        usa.resolve_pair("Denver - denver")
    with pytest.raises(MapNameError):
        usa.resolve_pair("", "route")
    with pytest.raises(MapNameError):
        usa.resolve_pair(" - Denver")
    with pytest.raises(ValueError, match="kind must be"):
        usa.resolve_pair("Denver - Omaha", "road")  # type: ignore[arg-type]
    assert issubclass(MapNameError, ValueError)


def test_complete_city(usa: GameMap) -> None:
    assert usa.complete_city("city") == ["Kansas City", "Oklahoma City", "Salt Lake City"]
    assert usa.complete_city("San") == ["San Francisco", "Santa Fe"]
    assert usa.complete_city("sa") == [
        "Saint Louis",
        "Salt Lake City",
        "San Francisco",
        "Santa Fe",
        "Sault St. Marie",
    ]
    assert usa.complete_city("mont") == ["Montréal"]
    assert usa.complete_city("new y") == ["New York"]
    assert usa.complete_city("lake c") == ["Salt Lake City"]
    assert usa.complete_city("st") == ["Saint Louis", "Sault St. Marie"]  # alias, then word start
    assert usa.complete_city("zz") == []
    assert len(usa.complete_city("")) == 36


def test_city(usa: GameMap) -> None:
    assert usa.city("Denver") == "Denver"
    assert usa.city("den") == "Denver"
    assert usa.city("montreal") == "Montréal"
    assert usa.city("york") == "New York"
    assert usa.city("  kansas   CITY ") == "Kansas City"
    with pytest.raises(MapNameError, match="could be New Orleans or New York") as info:
        usa.city("new")
    assert info.value.suggestions == ("New Orleans", "New York")
    with pytest.raises(MapNameError, match="unknown city 'Pitsburg'.*did you mean 'Pittsburgh'"):
        usa.city("Pitsburg")
    with pytest.raises(MapNameError, match="no city name given"):
        usa.city("  ")


def test_pair_ticket_route_name(usa: GameMap) -> None:
    assert usa.pair("Kansas City", "Denver") == (
        Route("Denver", "Kansas City", 4, "black", True),
        Route("Denver", "Kansas City", 4, "orange", True),
    )
    assert usa.pair("Denver", "helena") == (Route("Denver", "Helena", 4, "green", False),)
    assert usa.pair("Denver", "Miami") == ()
    with pytest.raises(MapNameError):
        usa.pair("Denver", "Atlantis")
    assert usa.route_name("kansas city", "denver") == "Denver – Kansas City"
    assert usa.route_name("Chicago", "Los Angeles") == "Los Angeles – Chicago"
    assert usa.ticket("Kansas City", "Houston") == Ticket("Kansas City", "Houston", 5)
    assert usa.ticket("Houston", "kansas city") == Ticket("Kansas City", "Houston", 5)
    assert usa.ticket("Denver", "Omaha") is None
    assert usa.pair("Denver", "Kansas City")[0].name == "Denver – Kansas City"
    assert usa.neighbours("Seattle") == ("Calgary", "Helena", "Portland", "Vancouver")


def test_every_route_and_ticket_name_resolves(usa: GameMap) -> None:
    for a, b in usa.city_pairs:
        assert usa.resolve_pair(f"{b} - {a}", "route") == (a, b)
        assert usa.resolve_pair(usa.route_name(a, b), "route") == (a, b)
    for t in usa.tickets:
        assert usa.resolve_pair(f"{t.b}-{t.a}", "ticket") == (t.a, t.b)
        assert usa.resolve_pair(t.name) == (t.a, t.b)  # no ticket's cities share a route


# -- connected --------------------------------------------------------------------------------


def test_connected() -> None:
    edges = [("A", "B", 1), ("B", "C", 2), ("D", "E", 1), ("E", "E", 3)]
    assert connected(edges, "A", "C") and connected(edges, "C", "A")
    assert connected(edges, "D", "E")
    assert not connected(edges, "A", "D")
    assert not connected(edges, "A", "Z")
    assert connected(edges, "Z", "Z")
    assert not connected([], "A", "B")
    assert connected([Route("A", "B", 2, "red", False)], "B", "A")


def test_connected_on_usa_tickets(usa: GameMap) -> None:
    names = ["Denver - Santa Fe", "Santa Fe - El Paso", "Kansas City - Omaha", "Omaha - Duluth"]
    edges = [(a, b, usa.pair(a, b)[0].length) for a, b in (usa.resolve_pair(n, "route") for n in names)]
    assert connected(edges, "Denver", "El Paso")  # ticket Denver – El Paso
    assert connected(edges, "Kansas City", "Duluth")
    assert not connected(edges, "Duluth", "El Paso")


# -- longest trail: reference and checks ------------------------------------------------------


def exhaustive(edges: list[tuple[str, str, int]]) -> int:
    """The naive reference: depth first over every trail from every city.

    A trail's length and its possible continuations depend only on where it is and which
    edges it used, so each (city, used edges) state is expanded once.
    """
    adjacency: dict[str, list[tuple[int, str, int]]] = {}
    for i, (a, b, w) in enumerate(edges):
        adjacency.setdefault(a, []).append((i, b, w))
        if a != b:
            adjacency.setdefault(b, []).append((i, a, w))
    best = 0
    seen: set[tuple[str, int]] = set()

    def walk(x: str, used: int, length: int) -> None:
        nonlocal best
        best = max(best, length)
        for i, y, w in adjacency[x]:
            if not used >> i & 1 and (y, used | 1 << i) not in seen:
                seen.add((y, used | 1 << i))
                walk(y, used | 1 << i, length + w)

    for x in adjacency:
        walk(x, 0, 0)
    return best


def is_trail(edges: list[tuple[str, str, int]], length: int, path: list[str]) -> bool:
    """Whether path's steps use distinct edges of `edges` whose lengths add up to length."""
    if not path:
        return length == 0
    steps = list(zip(path, path[1:], strict=False))
    used = [False] * len(edges)

    def match(i: int, total: int) -> bool:
        if i == len(steps):
            return total == length
        x, y = steps[i]
        tried = set()
        for j, (a, b, w) in enumerate(edges):
            if not used[j] and {a, b} == {x, y} and w not in tried:
                tried.add(w)
                used[j] = True
                if match(i + 1, total + w):
                    return True
                used[j] = False
        return False

    return len(path) >= 2 and match(0, 0)


def random_multigraph(rng: random.Random) -> list[tuple[str, str, int]]:
    """Up to 12 edges on up to 8 cities: loops, parallel edges, disconnected parts."""
    cities = [chr(ord("A") + i) for i in range(rng.randint(1, 8))]
    edges = [(rng.choice(cities), rng.choice(cities), rng.randint(1, 6)) for _ in range(rng.randint(0, 12))]
    if rng.random() < 0.5:
        edges = [e for e in edges if e[0] != e[1]]
    return edges


def bridged_clusters(rng: random.Random) -> list[tuple[str, str, int]]:
    """Two or three small dense clusters joined by bridges (and sometimes a pendant chain)."""
    groups, edges = [], []
    for g in range(rng.randint(2, 3)):
        cities = [f"{'PQR'[g]}{i}" for i in range(rng.randint(2, 4))]
        groups.append(cities)
        edges += [(rng.choice(cities), rng.choice(cities), rng.randint(1, 5)) for _ in range(rng.randint(2, 5))]
    for g in range(1, len(groups)):
        edges.append((rng.choice(groups[rng.randrange(g)]), rng.choice(groups[g]), rng.randint(1, 5)))
    if rng.random() < 0.3:
        edges += [("P0", "T1", rng.randint(1, 4)), ("T1", "T2", rng.randint(1, 4))]
    return edges[:15]


def check_against_reference(edges: list[tuple[str, str, int]]) -> None:
    length, path = longest_trail(edges)
    assert length == exhaustive(edges), edges
    assert is_trail(edges, length, path), (edges, length, path)
    if path and path[0] != path[-1]:
        assert path[0] <= path[-1]
    shuffled = [(b, a, w) for a, b, w in edges]
    random.Random(len(edges)).shuffle(shuffled)
    assert longest_trail(shuffled) == (length, path), "result depends on the edge order"


@pytest.mark.parametrize("budget", [0, graph._TRAIL_BUDGET, 10**9], ids=["exclusion", "default", "dfs"])
def test_longest_trail_matches_exhaustive_search(monkeypatch: pytest.MonkeyPatch, budget: int) -> None:
    """Hundreds of random multigraphs, with each search phase forced in turn."""
    monkeypatch.setattr(graph, "_TRAIL_BUDGET", budget)
    rng = random.Random(20240601 + budget % 1000)
    for _ in range(600):
        check_against_reference(random_multigraph(rng))
    for _ in range(300):
        check_against_reference(bridged_clusters(rng))


def test_longest_trail_on_random_usa_networks(usa: GameMap) -> None:
    """Small random legal networks on the real map, against the reference."""
    rng = random.Random(7)
    pairs = list(usa.city_pairs)
    for _ in range(60):
        start = rng.choice(pairs)
        chosen = [start]
        while len(chosen) < 11:
            cities = {c for p in chosen for c in p}
            options = [p for p in pairs if p not in chosen and (p[0] in cities or p[1] in cities)]
            chosen.append(rng.choice(options))
        edges = [(a, b, usa.pair(a, b)[0].length) for a, b in chosen]
        check_against_reference(edges)


# -- longest trail: worked cases --------------------------------------------------------------


def test_longest_trail_empty_and_single() -> None:
    assert longest_trail([]) == (0, [])
    assert longest_trail([("Zed", "Abe", 3)]) == (3, ["Abe", "Zed"])
    assert longest_trail([("A", "A", 4)]) == (4, ["A", "A"])
    assert longest_trail([Route("B", "A", 2, "red", False)]) == (2, ["A", "B"])


def test_longest_trail_rejects_bad_lengths() -> None:
    with pytest.raises(ValueError, match="length"):
        longest_trail([("A", "B", 0)])
    with pytest.raises(ValueError, match="length"):
        longest_trail([("A", "B", True)])


def test_figure_eight_uses_everything() -> None:
    edges = [("A", "B", 1), ("B", "C", 2), ("C", "A", 3), ("A", "D", 4), ("D", "E", 5), ("E", "A", 6)]
    length, path = longest_trail(edges)
    assert length == 21
    assert path[0] == path[-1] and len(path) == 7
    assert is_trail(edges, length, path)


def test_loop_with_a_tail() -> None:
    edges = [("A", "B", 2), ("B", "C", 2), ("C", "D", 2), ("D", "A", 2), ("D", "E", 3), ("E", "F", 1)]
    length, path = longest_trail(edges)
    assert length == 12
    assert path[0] == "D" and path[-1] == "F"  # odd ends; written from the smaller one
    assert path[-3:] == ["D", "E", "F"]
    assert is_trail(edges, length, path)


def test_star_uses_two_arms_only() -> None:
    edges = [("Hub", "N", 2), ("Hub", "E", 5), ("Hub", "S", 3), ("Hub", "W", 4)]
    assert longest_trail(edges) == (9, ["E", "Hub", "W"])
    chains = [("Hub", "N1", 1), ("N1", "N2", 1), ("Hub", "S1", 3), ("Hub", "W1", 1), ("W1", "W2", 1), ("W2", "W3", 1)]
    assert longest_trail(chains) == (6, ["S1", "Hub", "W1", "W2", "W3"])


def test_fork_whose_two_leaves_beat_the_way_in() -> None:
    edges = [("X", "L1", 5), ("X", "L2", 5), ("X", "Y", 1), ("Y", "Z", 1), ("Y", "W", 1), ("Z", "W", 1)]
    assert longest_trail(edges) == (10, ["L1", "X", "L2"])
    edges[0] = ("X", "L1", 2)
    assert longest_trail(edges) == (9, ["L2", "X", "Y", "Z", "W", "Y"])


def test_parallel_edges_and_loops() -> None:
    assert longest_trail([("A", "B", 2), ("A", "B", 2)]) == (4, ["A", "B", "A"])
    edges = [("A", "B", 1), ("B", "B", 5), ("B", "C", 1), ("C", "C", 2), ("C", "D", 1), ("D", "D", 1), ("B", "E", 4)]
    length, path = longest_trail(edges)
    assert length == exhaustive(edges) == 14
    assert is_trail(edges, length, path)


def test_disconnected_network_takes_the_best_part() -> None:
    edges = [("A", "B", 3), ("B", "C", 3), ("X", "Y", 4), ("Y", "Z", 1), ("Z", "X", 2)]
    length, path = longest_trail(edges)
    assert length == 7
    assert path[0] == path[-1] and set(path) == {"X", "Y", "Z"}


def test_long_chain_on_the_usa_map(usa: GameMap) -> None:
    names = [
        "Vancouver - Seattle",
        "Seattle - Portland",
        "Portland - San Francisco",
        "San Francisco - Los Angeles",
        "Los Angeles - El Paso",
        "El Paso - Houston",
        "Houston - New Orleans",
        "New Orleans - Miami",
        "Seattle - Calgary",  # a spur: a trail takes at most two of Seattle's three arms
    ]
    pairs = [usa.resolve_pair(n, "route") for n in names]
    edges = [(a, b, usa.pair(a, b)[0].length) for a, b in pairs]
    assert sum(w for *_, w in edges) == 34
    length, path = longest_trail(edges)
    assert length == 33
    assert path == [
        "Calgary",
        "Seattle",
        "Portland",
        "San Francisco",
        "Los Angeles",
        "El Paso",
        "Houston",
        "New Orleans",
        "Miami",
    ]


def test_dense_usa_network(usa: GameMap) -> None:
    """Every route among ten eastern cities, many cycles, six odd cities.

    By hand: 36 trains; the odd cities are Atlanta, Nashville, Raleigh, Pittsburgh, Montréal
    and Washington, so a trail leaves out a set pairing four of them: at least Atlanta –
    Nashville (1) and another route (2 or more), e.g. Pittsburgh – Washington: 33.
    """
    east = {"Atlanta", "Boston", "Charleston", "Montréal", "Nashville", "New York", "Pittsburgh", "Raleigh"}
    east |= {"Toronto", "Washington"}
    edges = [(a, b, usa.pair(a, b)[0].length) for a, b in usa.city_pairs if a in east and b in east]
    assert len(edges) == 16 and sum(w for *_, w in edges) == 36
    length, path = longest_trail(edges)
    assert length == exhaustive(edges) == 33
    assert is_trail(edges, length, path)
    assert {path[0], path[-1]} == {"Montréal", "Raleigh"}


ADVERSARIAL = [
    # hill-climbed for slowness during development: dense clusters joined by bridges
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
]


@pytest.mark.slow
@pytest.mark.parametrize("names", ADVERSARIAL)
def test_adversarial_networks_are_fast(usa: GameMap, names: str) -> None:
    """A generous guard against exponential regressions (the bench measures the real figures)."""
    edges = [(a, b, usa.pair(a, b)[0].length) for a, b in (usa.resolve_pair(n, "route") for n in names.split("|"))]
    assert sum(w for *_, w in edges) <= 45
    times = []
    for _ in range(5):
        start = time.perf_counter()
        length, path = longest_trail(edges)
        times.append(time.perf_counter() - start)
    assert is_trail(edges, length, path)
    assert statistics.median(times) < 0.05
