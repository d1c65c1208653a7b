"""Trails in a player's network of routes: connectivity and the Longest Continuous Path."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from scorekeeper.maps.trail_search import Search, euler_trail

Edge = tuple[str, str, int]
_Path = tuple[str, str, int, tuple[str, ...]]  # (a, b, length, the cities between a and b)

# Phase 1 of the search (plain trail enumeration) stops after this many steps and hands over
# to a bridge split or phase 2 (best-first search over the routes left out); see _solve.
_TRAIL_BUDGET = 300


def _edge_list(edges: Iterable[Any]) -> list[Edge]:
    """Edges as sorted (a, b, length) triples with a <= b; accepts triples or Route objects."""
    out: list[Edge] = []
    for edge in edges:
        if hasattr(edge, "length"):
            a, b, length = edge.a, edge.b, edge.length
        else:
            a, b, length = edge
        if not isinstance(length, int) or isinstance(length, bool) or length < 1:
            raise ValueError(f"route {a} – {b}: length must be a whole number ≥ 1, not {length!r}")
        out.append((a, b, length) if a <= b else (b, a, length))
    out.sort()
    return out


def connected(edges: Iterable[Any], a: str, b: str) -> bool:
    """Whether a path of the given edges joins city a to city b (a city is joined to itself)."""
    if a == b:
        return True
    neighbours: dict[str, list[str]] = {}
    for x, y, _ in _edge_list(edges):
        neighbours.setdefault(x, []).append(y)
        neighbours.setdefault(y, []).append(x)
    if a not in neighbours or b not in neighbours:
        return False
    seen = {a}
    todo = [a]
    while todo:
        for y in neighbours[todo.pop()]:
            if y == b:
                return True
            if y not in seen:
                seen.add(y)
                todo.append(y)
    return False


def _components(edges: list[Edge]) -> list[list[Edge]]:
    """The edges split into connected components, each in input order."""
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        root = x
        while parent[root] != root:
            root = parent[root]
        while parent[x] != root:
            parent[x], x = root, parent[x]
        return root

    for a, b, _ in edges:
        parent.setdefault(a, a)
        parent.setdefault(b, b)
        ra, rb = find(a), find(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    groups: dict[str, list[Edge]] = {}
    for edge in edges:
        groups.setdefault(find(edge[0]), []).append(edge)
    return list(groups.values())


def longest_trail(edges: Iterable[Any]) -> tuple[int, list[str]]:
    """The Longest Continuous Path: the heaviest trail (each edge at most once, cities may repeat).

    `edges` holds (city_a, city_b, length) triples (or objects with a, b and length), parallel
    edges and loops allowed. Returns the total length and one best trail city by city (first ==
    last for a closed trail); (0, []) for no edges.

    Ties: the trail returned depends only on the multiset of edges, never on their order: the
    edges are sorted by city names first and every later choice is made in a fixed order (it is
    the first best trail that order finds, not the lexicographically smallest). An open trail
    is written from its alphabetically smaller end; a closed one from its smallest city, in
    the direction that reads smaller.
    """
    edge_list = _edge_list(edges)
    if not edge_list:
        return 0, []
    comps = _components(edge_list)
    comps.sort(key=lambda comp: -sum(e[2] for e in comp))  # stable: ties keep edge order
    best_length, best_path = 0, []
    for comp in comps:
        if sum(e[2] for e in comp) <= best_length:
            break
        length, path = _component_trail(comp)
        if length > best_length:
            best_length, best_path = length, path
    return best_length, _oriented(best_path)


def _oriented(path: list[str]) -> list[str]:
    """An open trail from its smaller end; a closed one from its smallest city, the smaller way."""
    if path[0] != path[-1]:
        return path if path[0] < path[-1] else path[::-1]
    ring = path[:-1]
    i = ring.index(min(ring))
    forward = ring[i:] + ring[:i]
    backward = forward[:1] + forward[1:][::-1]
    best = min(forward, backward)
    return [*best, best[0]]


# ---------------------------------------------------------------------------------------------
# One connected component.
#
# Facts used (all lengths are >= 1):
#  F1. A heaviest trail is maximal: no unused edge can be added at either end. The ends of a
#      maximal open trail have odd degree in the graph (an end has odd degree in the trail, so
#      an even degree in the graph leaves an unused edge there to extend by). A maximal closed
#      trail uses every edge of its connected component (an unused edge touching it could be
#      added after rotating the circuit). So with 0 or 2 odd-degree cities an Euler circuit or
#      trail of the whole component is best; otherwise a heaviest trail runs between two odd
#      cities, and the starts worth trying are all the odd cities but one.
#  F2. The loops at a city can be added to any trail that visits the city.
#  F3. A city with exactly two non-loop edges a–v, v–b (and any loops) can be replaced by one
#      edge a–b of the summed length, loops included: a maximal trail uses both or neither (a
#      trail that uses both non-consecutively is closed at v and rotates to pass through v).
#      A city with one non-loop edge and some loops becomes a leaf with the loops folded in.
#  F4. A trail uses at most two pendant edges (edges to a leaf): each ends it at its leaf. At
#      one city the two heaviest pendants can replace any used ones, so the others go. If a
#      city has two pendants p1 >= p2 and a single other edge, a trail through that edge can
#      only go on to one leaf (p1 at best), so p2 goes too, after noting the trail p2 + p1 as
#      a candidate on its own.
#  F5, the bound a trail's search stops at, and the search itself: see scorekeeper.maps.trail_search.
# ---------------------------------------------------------------------------------------------


class _Kernel:
    """A component as a reducible multigraph whose edges remember the cities they stand for."""

    def __init__(self, comp: list[_Path]) -> None:
        # edge id -> [u, v, length, cities strictly between u and v in the u -> v direction]
        self.edges: dict[int, list[Any]] = {}
        self.inc: dict[str, list[int]] = {}
        self.next_id = 0
        self.candidates: list[tuple[int, list[str]]] = []
        for a, b, length, mid in comp:
            self.add(a, b, length, list(mid))

    def add(self, a: str, b: str, length: int, mid: list[str]) -> int:
        """Add an edge a -> b."""
        eid = self.next_id
        self.next_id += 1
        self.edges[eid] = [a, b, length, mid]
        self.inc.setdefault(a, []).append(eid)
        if b != a:
            self.inc.setdefault(b, []).append(eid)
        return eid

    def drop(self, eid: int) -> list[Any]:
        """Remove an edge (and any city left without edges)."""
        edge = self.edges.pop(eid)
        for x in {edge[0], edge[1]}:
            self.inc[x].remove(eid)
            if not self.inc[x]:
                del self.inc[x]
        return edge

    def split(self, x: str) -> tuple[list[int], list[int]]:
        """The non-loop edges and the loops at x."""
        plain: list[int] = []
        loops: list[int] = []
        for eid in self.inc[x]:
            (loops if self.edges[eid][0] == self.edges[eid][1] else plain).append(eid)
        return plain, loops

    def walk(self, eid: int, start: str) -> tuple[str, int, list[str]]:
        """Edge eid walked from start: (the other end, length, cities between in walk order)."""
        u, v, length, mid = self.edges[eid]
        return (v, length, mid) if u == start else (u, length, mid[::-1])

    def through(self, x: str, loops: list[int]) -> tuple[int, list[str]]:
        """Passing x while taking all its loops: (their length, [x, ..., x])."""
        cities, extra = [x], 0
        for eid in loops:
            _, _, length, mid = self.edges[eid]
            cities += [*mid, x]
            extra += length
        return extra, cities

    def reduce(self) -> None:
        """Apply F2-F4 until nothing changes."""
        changed = True
        while changed:
            changed = False
            for x in sorted(self.inc):
                if x not in self.inc:
                    continue
                plain, loops = self.split(x)
                if len(plain) == 1 and loops:  # F3: a leaf with its loops folded in
                    u, length, mid = self.walk(plain[0], x)
                    extra, cities = self.through(x, loops)
                    for eid in [*loops, plain[0]]:
                        self.drop(eid)
                    self.add(u, x, length + extra, [*mid[::-1], *cities[:-1]])
                    changed = True
                elif len(plain) == 2:  # F3: contract
                    a, la, mida = self.walk(plain[0], x)
                    b, lb, midb = self.walk(plain[1], x)
                    extra, cities = self.through(x, loops)
                    for eid in [*loops, *plain]:
                        self.drop(eid)
                    self.add(a, b, la + lb + extra, [*mida[::-1], *cities, *midb])
                    changed = True
            for x in sorted(self.inc):
                if x not in self.inc:
                    continue
                plain, loops = self.split(x)
                if len(plain) < 3:
                    continue
                pendants = [e for e in plain if len(self.inc[self.walk(e, x)[0]]) == 1]
                pendants.sort(key=lambda e: (-self.edges[e][2], e))
                for eid in pendants[2:]:  # F4: at most two pendants per city
                    self.drop(eid)
                    changed = True
                if len(pendants) >= 2 and len(plain) - len(pendants[2:]) == 3:  # F4: one way in
                    leaf1, l1, mid1 = self.walk(pendants[0], x)
                    leaf2, l2, mid2 = self.walk(pendants[1], x)
                    extra, cities = self.through(x, loops)
                    path = [leaf2, *mid2[::-1], *cities, *mid1, leaf1]
                    self.candidates.append((l1 + l2 + extra, path))
                    self.drop(pendants[1])
                    changed = True

    def degree(self, x: str) -> int:
        """Degree of x, a loop counting twice."""
        return sum(2 if self.edges[e][0] == self.edges[e][1] else 1 for e in self.inc[x])

    def expand(self, start: str, steps: list[tuple[int, str]]) -> list[str]:
        """City-by-city path from (edge id, city reached) steps, restoring contracted cities."""
        path = [start]
        for eid, x in steps:
            _, _, mid = self.walk(eid, path[-1])
            path.extend(mid)
            path.append(x)
        return path

    def bridge(self) -> tuple[int, set[str]] | None:
        """A bridge with at least two edges on each side, as balanced as any: (edge id, side)."""
        names = sorted(self.inc)
        order: dict[str, int] = {}
        low: dict[str, int] = {}
        bridges: list[int] = []
        for root in names:
            if root in order:
                continue
            order[root] = low[root] = len(order)
            stack = [(root, -1, iter(sorted(self.inc[root])))]
            while stack:
                x, via, it = stack[-1]
                for eid in it:
                    u, v = self.edges[eid][0], self.edges[eid][1]
                    if eid == via or u == v:
                        continue
                    y = v if u == x else u
                    if y in order:
                        low[x] = min(low[x], order[y])
                    else:
                        order[y] = low[y] = len(order)
                        stack.append((y, eid, iter(sorted(self.inc[y]))))
                        break
                else:
                    stack.pop()
                    if stack:
                        parent = stack[-1][0]
                        low[parent] = min(low[parent], low[x])
                        if low[x] > order[parent]:
                            bridges.append(via)
        best: tuple[int, int, set[str]] | None = None
        for eid in sorted(bridges):
            side = self.side(eid)
            inside = sum(1 for e in self.edges if e != eid and self.edges[e][0] in side)
            smaller = min(inside, len(self.edges) - 1 - inside)
            if smaller >= 2 and (best is None or smaller > best[0]):
                best = (smaller, eid, side)
        return None if best is None else (best[1], best[2])

    def side(self, eid: int) -> set[str]:
        """The cities on the first end's side of bridge eid."""
        start = self.edges[eid][0]
        side = {start}
        todo = [start]
        while todo:
            x = todo.pop()
            for e in self.inc[x]:
                if e == eid:
                    continue
                y = self.walk(e, x)[0]
                if y not in side:
                    side.add(y)
                    todo.append(y)
        return side


def _component_trail(comp: list[Edge]) -> tuple[int, list[str]]:
    """The heaviest trail of one connected component (see the facts above)."""
    return _solve([(a, b, w, ()) for a, b, w in comp], {})


def _solve(comp: list[_Path], memo: dict[Any, tuple[int, list[str]]]) -> tuple[int, list[str]]:
    """The heaviest trail of a connected multigraph whose edges may stand for chains of cities.

    After the reductions: with at most two odd cities, an Euler trail. Otherwise phase 1, a
    depth-first enumeration of trails with a step budget, which settles sparse graphs at
    once. If the budget runs out: a bridge a–b with two or more edges on each side splits the
    work (a trail crosses a bridge at most once, so the best trail lies in side A, or in side
    B, or is a trail of A ending at a, the bridge, and a trail of B from b); without such a
    bridge, phase 2, a best-first search over the set of edges left out, settles it.
    """
    key = tuple(sorted(comp))
    if key in memo:
        return memo[key]
    kernel = _Kernel(comp)
    kernel.reduce()
    edges, inc = kernel.edges, kernel.inc
    total = sum(e[2] for e in edges.values())
    odd = sorted(x for x in inc if kernel.degree(x) % 2)
    if len(odd) <= 2:
        start = odd[0] if odd else min(inc)
        length, path = total, kernel.expand(start, euler_trail(edges, inc, start))
    else:
        search = Search(edges, inc, odd, total)
        length, start, steps, finished = search.trails(_TRAIL_BUDGET)
        path = kernel.expand(start, steps)
        split = None if finished else kernel.bridge()
        if split is not None:
            eid, side = split
            a, b, w, mid = edges[eid]
            part_a = [(e[0], e[1], e[2], tuple(e[3])) for k, e in edges.items() if k != eid and e[0] in side]
            part_b = [(e[0], e[1], e[2], tuple(e[3])) for k, e in edges.items() if k != eid and e[0] not in side]
            length_a, path_a = _rooted(part_a, a, memo)
            length_b, path_b = _rooted(part_b, b, memo)
            length, path = length_a + w + length_b, [*path_a[::-1], *mid, *path_b]
            for part in (part_a, part_b):
                part_length, part_path = _solve(part, memo)
                if part_length > length:
                    length, path = part_length, part_path
        elif not finished:
            found = search.exclusion(length)
            if found is not None:
                length, start, steps = found
                path = kernel.expand(start, steps)
    for cand_length, cand_path in kernel.candidates:
        if cand_length > length:
            length, path = cand_length, cand_path
    memo[key] = (length, path)
    return length, path


def _rooted(part: list[_Path], root: str, memo: dict[Any, tuple[int, list[str]]]) -> tuple[int, list[str]]:
    """The heaviest trail of `part` that starts at root (an extra pendant heavier than the rest,
    from root to a placeholder city, must lie on the heaviest trail of part + pendant)."""
    if not part:
        return 0, [root]
    heavy = sum(p[2] for p in part) + 1
    placeholder = "\x00" * (1 + max(len(p[0]) + len(p[1]) for p in part))  # sorts first, unique
    length, path = _solve([*part, (root, placeholder, heavy, ())], memo)
    if path[0] != placeholder:
        path = path[::-1]
    assert path[0] == placeholder and path[1] == root, "the heavy pendant ends the trail"
    return length - heavy, path[1:]
