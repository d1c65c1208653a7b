"""An independent reference for Ticket to Ride Europe and Nordic Countries, written from SPEC 4.2.1 alone: plain
brute force (every trail, every choice of stations' routes), and random legal games to compare against."""

from __future__ import annotations

import random
import tomllib
from itertools import product
from pathlib import Path
from typing import Any

MAPS = Path(__file__).resolve().parent.parent / "scorekeeper" / "maps"
TABLE = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
TRAINS = {"europe": 45, "nordic": 40, "usa": 45}


def board(name: str) -> dict[str, Any]:
    """The map file as plain data."""
    return tomllib.loads((MAPS / f"{name}.toml").read_text(encoding="utf-8"))


def joined(edges: list[tuple[str, str]], a: str, b: str) -> bool:
    """Breadth-first: does a path of edges join a and b?"""
    seen, todo = {a}, [a]
    while todo:
        x = todo.pop(0)
        if x == b:
            return True
        for p, q in edges:
            for u, v in ((p, q), (q, p)):
                if u == x and v not in seen:
                    seen.add(v)
                    todo.append(v)
    return False


def longest(edges: list[tuple[str, str, int]]) -> int:
    """Every trail from every city, each edge used at most once: the greatest sum of lengths."""
    best = 0

    def walk(city: str, used: frozenset[int], length: int) -> None:
        nonlocal best
        best = max(best, length)
        for i, (a, b, n) in enumerate(edges):
            if i not in used and city in (a, b):
                walk(b if city == a else a, used | {i}, length + n)

    for city in {c for a, b, _ in edges for c in (a, b)}:
        walk(city, frozenset(), 0)
    return best


def tickets_with_stations(own: list[tuple[str, str]], stations: list[str], others: list[tuple[str, str]],
                          tickets: list[tuple[str, str, int]]) -> tuple[int, int]:
    """The best (ticket total, completed) over every choice of one other player's route per station."""
    options = [[e for e in others if city in e] or [None] for city in stations]
    best: tuple[int, int] | None = None
    for pick in product(*options):
        edges = own + [e for e in pick if e is not None]
        done = [joined(edges, a, b) for a, b, _ in tickets]
        key = (sum(p if d else -p for (_, _, p), d in zip(tickets, done, strict=True)), sum(done))
        best = key if best is None or key > best else best
    assert best is not None
    return best


def reference(name: str, players: list[str], entries: dict[str, dict[str, Any]]) -> dict[str, dict[str, int]]:
    """Per player: route points, ticket total, completed tickets, stations built, longest path, total."""
    data = board(name)
    lengths = {}
    for r in data["routes"]:
        lengths.setdefault(frozenset((r["a"], r["b"])), []).append(r["length"])
    out: dict[str, dict[str, int]] = {}
    for p in players:
        e = entries[p]
        claims = [_claim(c, lengths) for c in e.get("claimed", [])]
        others = [(a, b) for q in players if q != p
                  for a, b, _ in (_claim(c, lengths) for c in entries[q].get("claimed", []))]
        tickets = [(*t["name"].split(" – "), _points(data, t["name"])) for t in e.get("tickets", [])]
        stations = e.get("station_cities", []) if name == "europe" else []
        total, done = tickets_with_stations([(a, b) for a, b, _ in claims], stations, others, tickets)
        out[p] = {"routes": sum(TABLE[n] for _, _, n in claims), "tickets": total, "done": done,
                  "stations": len(stations), "path": longest(claims)}
    top_path = max(v["path"] for v in out.values())
    top_done = max(v["done"] for v in out.values())
    for v in out.values():
        v["total"] = v["routes"] + v["tickets"]
        if name == "europe":
            v["total"] += 4 * (3 - v["stations"]) + (10 if v["path"] == top_path and top_path > 0 else 0)
        else:
            v["total"] += 10 if v["done"] == top_done and top_done > 0 else 0
    return out


def _claim(text: str, lengths: dict[frozenset[str], list[int]]) -> tuple[str, str, int]:
    name, _, rest = text.partition(" (")
    a, b = name.split(" – ")
    return a, b, int(rest.rstrip(")")) if rest else lengths[frozenset((a, b))][0]


def _points(data: dict[str, Any], name: str) -> int:
    a, b = name.split(" – ")
    return next(t["points"] for t in data["tickets"] if {t["a"], t["b"]} == {a, b})


def random_game(name: str, rng: random.Random, players: int | None = None, stations: int | None = None
                ) -> tuple[list[str], dict[str, dict[str, Any]]]:
    """A random legal game on the board: claims within the trains and the double-route limits, stations in
    distinct cities, tickets from the deck (each held once)."""
    data = board(name)
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][: players or rng.randint(2, 5)]
    one_track = len(names) <= (2 if name == "nordic" else 3)
    segments = list(enumerate(data["routes"]))
    rng.shuffle(segments)
    taken: dict[frozenset[str], list[str]] = {}
    used_idx: set[int] = set()
    entries: dict[str, dict[str, Any]] = {p: {"claimed": []} for p in names}
    trains = dict.fromkeys(names, 0)
    for p in names:
        budget = rng.randint(5, TRAINS[name])
        for i, r in segments:
            pair = frozenset((r["a"], r["b"]))
            holders = taken.get(pair, [])
            if i in used_idx or p in holders or (holders and one_track) or trains[p] + r["length"] > budget:
                continue
            if rng.random() < 0.6:
                continue
            used_idx.add(i)
            taken.setdefault(pair, []).append(p)
            trains[p] += r["length"]
            two = {x["length"] for x in data["routes"] if frozenset((x["a"], x["b"])) == pair}
            label = f"{r['a']} – {r['b']}" + (f" ({r['length']})" if len(two) > 1 else "")
            entries[p]["claimed"].append(label)
            if len(entries[p]["claimed"]) >= 12:
                break
    deck = [f"{t['a']} – {t['b']}" for t in data["tickets"]]
    rng.shuffle(deck)
    cities = list(data["cities"])
    rng.shuffle(cities)
    for p in names:
        entries[p]["tickets"] = [{"name": deck.pop()} for _ in range(rng.randint(2, 4))]
        if name == "europe":
            k = stations if stations is not None else rng.randint(0, 3)
            entries[p]["station_cities"] = [cities.pop() for _ in range(k)]
    return names, entries
