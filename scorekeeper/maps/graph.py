"""Trails in a player's network of routes: connectivity and the Longest Continuous Path."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

Edge = tuple[str, str, int]

_ODD_SEARCH_LIMIT = 60  # kernel edges; a legal network has at most 45 routes


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
    edges are sorted by city names first and every later choice is made in a fixed order (the
    first best trail that order finds). An open trail is written from its alphabetically smaller
    end; a closed trail starts at its smallest city unless the search found it elsewhere.
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
    if best_path[-1] < best_path[0]:
        best_path.reverse()
    return best_length, best_path


# ---------------------------------------------------------------------------------------------
# One connected component.
#
# Facts used (all lengths are >= 1):
#  1. A heaviest trail is maximal (no unused edge can be added at either end). In a maximal
#     open trail both ends have odd degree in the graph: an end has odd degree in the trail,
#     so an even degree in the graph leaves an unused edge there to extend by. A maximal closed
#     trail uses every edge of its (connected) component: an unused edge touching it could be
#     added after rotating the circuit to start at that city. Hence: with 0 or 2 odd-degree
#     cities an Euler circuit/trail of the whole component is best; with more, a heaviest trail
#     runs between two odd-degree cities, and every start but the last odd city need be tried.
#  2. A city of degree 2 (two distinct non-loop edges a–v, v–b) can be replaced by one edge
#     a–b of the summed length: a maximal trail uses both edges or neither, and if it uses both
#     non-consecutively it is a closed trail from v, which rotates to pass through v.
#  3. Of three or more pendant edges (to cities of degree 1) at one city, a trail uses at most
#     two (each ends the trail at its leaf) and the two heaviest can replace any used ones.
#  4. The trail left unused, F, has the odd-degree cities of the graph except the two ends as
#     its own odd-degree cities, so it holds for each of them an incident non-loop edge that is
#     still unused: |F| >= half the sum over those cities of their lightest such edge. This and
#     the weight of the unused edges that the current end can still reach bound the search.
# ---------------------------------------------------------------------------------------------


class _Found(Exception):
    """The search reached its upper bound."""


def _component_trail(comp: list[Edge]) -> tuple[int, list[str]]:
    """The heaviest trail of one connected component (see the facts above)."""
    # edge id -> [u, v, length, cities strictly between u and v, in the u -> v direction]
    edges: dict[int, list[Any]] = {}
    inc: dict[str, list[int]] = {}
    for eid, (a, b, length) in enumerate(comp):
        edges[eid] = [a, b, length, []]
        inc.setdefault(a, []).append(eid)
        if b != a:
            inc.setdefault(b, []).append(eid)
    next_id = len(comp)

    def degree(x: str) -> int:
        return sum(2 if edges[e][0] == edges[e][1] else 1 for e in inc[x])

    def other(eid: int, x: str) -> str:
        u, v = edges[eid][0], edges[eid][1]
        return v if u == x else u

    changed = True
    while changed:
        changed = False
        for u in sorted(inc):
            if u not in inc:
                continue
            pendants = [
                e for e in inc[u]
                if edges[e][0] != edges[e][1] and len(inc[other(e, u)]) == 1 and degree(u) > 1
            ]
            if len(pendants) > 2:
                pendants.sort(key=lambda e: (-edges[e][2], e))
                for e in pendants[2:]:
                    leaf = other(e, u)
                    inc[u].remove(e)
                    del inc[leaf], edges[e]
                changed = True
        for v in sorted(inc):
            if v not in inc or len(inc[v]) != 2:
                continue
            e1, e2 = inc[v]
            if edges[e1][0] == edges[e1][1] or edges[e2][0] == edges[e2][1]:
                continue
            u1, v1, w1, in1 = edges.pop(e1)
            a, mid1 = (u1, in1) if v1 == v else (v1, in1[::-1])
            u2, v2, w2, in2 = edges.pop(e2)
            b, mid2 = (v2, in2) if u2 == v else (u2, in2[::-1])
            del inc[v]
            inc[a].remove(e1)
            inc[b].remove(e2)
            edges[next_id] = [a, b, w1 + w2, [*mid1, v, *mid2]]
            inc[a].append(next_id)
            if b != a:
                inc[b].append(next_id)
            next_id += 1
            changed = True

    total = sum(e[2] for e in edges.values())
    odd = sorted(x for x in inc if degree(x) % 2)
    if len(odd) <= 2:
        start = odd[0] if odd else min(inc)
        steps = _euler(edges, inc, start)
        return total, _expand(edges, start, steps)
    if len(edges) > _ODD_SEARCH_LIMIT:
        raise ValueError(f"network too large for the longest-path search ({len(edges)} routes)")
    length, start, steps = _search(edges, inc, odd, total)
    return length, _expand(edges, start, steps)


def _euler(edges: dict[int, list[Any]], inc: dict[str, list[int]], start: str) -> list[tuple[int, str]]:
    """Hierholzer: an Euler trail from start as (edge id, city reached) steps."""
    adj = {x: sorted(ids) for x, ids in inc.items()}
    pos = dict.fromkeys(adj, 0)
    used: set[int] = set()
    stack: list[tuple[str, int]] = [(start, -1)]
    out: list[tuple[int, str]] = []
    while stack:
        x, via = stack[-1]
        ids = adj[x]
        i = pos[x]
        while i < len(ids) and ids[i] in used:
            i += 1
        pos[x] = i
        if i == len(ids):
            stack.pop()
            if via >= 0:
                out.append((via, x))
        else:
            eid = ids[i]
            used.add(eid)
            u, v = edges[eid][0], edges[eid][1]
            stack.append((v if u == x else u, eid))
    out.reverse()
    return out


def _expand(edges: dict[int, list[Any]], start: str, steps: list[tuple[int, str]]) -> list[str]:
    """City-by-city path from kernel steps, restoring the cities of contracted chains."""
    path = [start]
    for eid, x in steps:
        u, _v, _w, mid = edges[eid]
        path.extend(mid if u == path[-1] else mid[::-1])
        path.append(x)
    return path


def _search(
    edges: dict[int, list[Any]], inc: dict[str, list[int]], odd: list[str], total: int
) -> tuple[int, str, list[tuple[int, str]]]:
    """Branch and bound over trails from odd-degree cities, with bitmask edge sets."""
    names = sorted(inc)
    index = {x: i for i, x in enumerate(names)}
    eids = sorted(edges)
    bit_of = {eid: 1 << k for k, eid in enumerate(eids)}
    weight = [edges[eid][2] for eid in eids]
    # adjacency: (edge bit, other city index, length, edge id), heaviest first
    adj: list[list[tuple[int, int, int, int]]] = []
    for x in names:
        row = []
        for eid in inc[x]:
            u, v, w, _ = edges[eid]
            row.append((bit_of[eid], index[v if u == x else u], w, eid))
        row.sort(key=lambda t: (-t[2], t[3]))
        adj.append(row)

    best_length = 0
    best_start = odd[0]
    best_steps: list[tuple[int, str]] = []
    seen: set[int] = set()
    steps: list[tuple[int, int]] = []
    n = len(names)

    # static bound from fact 4: lightest non-loop edge at each odd city
    lightest = sorted(min(w for _, o, w, _ in adj[index[x]] if o != index[x]) for x in odd)
    upper = total - (sum(lightest[:-2]) + 1) // 2

    def dfs(x: int, used: int, length: int) -> None:
        nonlocal best_length, best_steps, best_start
        if length > best_length:
            best_length = length
            best_start = start
            best_steps = [(eid, names[y]) for eid, y in steps]
            if length >= upper:
                raise _Found
        for bit, y, w, eid in adj[x]:
            if used & bit:
                continue
            nused = used | bit
            key = nused * n + y
            if key in seen:
                continue
            seen.add(key)
            steps.append((eid, y))
            dfs(y, nused, length + w)
            steps.pop()

    try:
        for start in odd[:-1]:
            dfs(index[start], 0, 0)
    except _Found:
        pass
    return best_length, best_start, best_steps
