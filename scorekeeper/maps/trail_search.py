"""The search for a heaviest trail of a reduced component with four or more odd cities (the solver in `graph.py`):
phase 1, a depth-first enumeration of trails with a step budget; phase 2, a best-first search over the edges left
out; and Euler trails (Hierholzer). F1-F4, the reductions that come first, are in scorekeeper.maps.graph.

F5. Bound (all lengths are >= 1): the edges a trail leaves out, F, have as their odd-degree cities the odd cities
    of the graph but the trail's two ends, so F holds edge-disjoint paths pairing them; each such path is at least
    as long as the distance from either end to the nearest other odd city. Hence weight(F) >= (sum over all odd
    cities but the two farthest-apart of that distance) / 2, rounded up; a trail can weigh at most total - that.
"""

from __future__ import annotations

import heapq
from typing import Any


class _Stop(Exception):
    """Ends phase 1 of the search: the bound is reached or the budget is spent."""


def euler_trail(edges: dict[int, list[Any]], inc: dict[str, list[int]], start: str) -> list[tuple[int, str]]:
    """Hierholzer: an Euler trail of the given edges from start, as (edge id, city) steps."""
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


class Search:
    """A reduced component with four or more odd cities, indexed for the two search phases."""

    def __init__(self, edges: dict[int, list[Any]], inc: dict[str, list[int]], odd: list[str], total: int):
        self.edges = edges
        self.names = names = sorted(inc)
        index = {x: i for i, x in enumerate(names)}
        self.n = n = len(names)
        self.eids = eids = sorted(edges)
        self.ends = ends = [(index[edges[e][0]], index[edges[e][1]]) for e in eids]
        self.weight = weight = [edges[e][2] for e in eids]
        self.total = total
        self.odd = [index[x] for x in odd]
        self.odd_mask = sum(1 << i for i in self.odd)
        # adjacency, heaviest first: (edge bit, other city, length, edge index)
        self.adj: list[list[tuple[int, int, int, int]]] = [[] for _ in range(n)]
        for k, (u, v) in enumerate(ends):
            self.adj[u].append((1 << k, v, weight[k], k))
            if v != u:
                self.adj[v].append((1 << k, u, weight[k], k))
        for row in self.adj:
            row.sort(key=lambda t: (-t[2], t[3]))

    def nearest_odd(self) -> list[int]:
        """For each odd city, the distance to the nearest other odd city (Dijkstra, cut short)."""
        out = []
        for s in self.odd:
            dist = {s: 0}
            queue = [(0, s)]
            while queue:
                d, x = heapq.heappop(queue)
                if d > dist[x]:
                    continue
                if x != s and self.odd_mask >> x & 1:
                    out.append(d)
                    break
                for _, y, w, _ in self.adj[x]:
                    if d + w < dist.get(y, d + w + 1):
                        dist[y] = d + w
                        heapq.heappush(queue, (d + w, y))
        return out

    def trails(self, budget: int) -> tuple[int, str, list[tuple[int, str]], bool]:
        """Phase 1: depth-first over trails from the odd cities (F1), each (city, edge set) state
        once, until the F5 bound is reached or `budget` states are spent.

        Returns (best length, its start, its (edge id, city) steps, whether it is proven best).
        """
        nearest = sorted(self.nearest_odd())
        upper = self.total - (sum(nearest[:-2]) + 1) // 2
        adj, n = self.adj, self.n
        best = 0
        best_start = start = self.odd[0]
        best_steps: list[tuple[int, int]] = []
        steps: list[tuple[int, int]] = []
        push, pop = steps.append, steps.pop
        seen: set[int] = set()
        seen_add = seen.add
        left = budget

        def dfs(x: int, used: int, length: int) -> None:
            nonlocal best, best_start, best_steps, left
            if length > best:
                best, best_start, best_steps = length, start, steps.copy()
                if length >= upper:
                    raise _Stop
            left -= 1
            if left < 0:
                raise _Stop
            for bit, y, w, k in adj[x]:
                if used & bit:
                    continue
                key = (used | bit) * n + y
                if key in seen:
                    continue
                seen_add(key)
                push((k, y))
                dfs(y, used | bit, length + w)
                pop()

        try:
            for start in self.odd[:-1]:
                dfs(start, 0, 0)
            finished = True
        except _Stop:
            finished = best >= upper
        steps_out = [(self.eids[k], self.names[y]) for k, y in best_steps]
        return best, self.names[best_start], steps_out, finished

    def exclusion(self, lower: int) -> tuple[int, str, list[tuple[int, str]]] | None:
        """Phase 2 (see _exclusion_search): a trail longer than `lower` as (length, start, steps),
        or None if there is none."""
        dist = _distances(self.n, self.ends, self.weight)
        found = _exclusion_search(self.n, self.ends, self.weight, self.odd_mask, dist, self.total, lower)
        if found is None:
            return None
        length, keep = found
        edges, names, ends = self.edges, self.names, self.ends
        sub_inc: dict[str, list[int]] = {}
        for k, eid in enumerate(self.eids):
            if keep >> k & 1:
                for x in {names[ends[k][0]], names[ends[k][1]]}:
                    sub_inc.setdefault(x, []).append(eid)
        sub_odd = sorted(x for x in sub_inc if sum(2 if edges[e][0] == edges[e][1] else 1 for e in sub_inc[x]) % 2)
        first = sub_odd[0] if sub_odd else min(sub_inc)
        sub_edges = {e: edges[e] for ids in sub_inc.values() for e in ids}
        return length, first, euler_trail(sub_edges, sub_inc, first)


def _distances(n: int, ends: list[tuple[int, int]], weight: list[int]) -> list[list[int]]:
    """All-pairs shortest path lengths (Floyd-Warshall; the graphs here are tiny)."""
    inf = 1 << 30
    dist = [[inf] * n for _ in range(n)]
    for i in range(n):
        dist[i][i] = 0
    for (u, v), w in zip(ends, weight, strict=True):
        if u != v and w < dist[u][v]:
            dist[u][v] = dist[v][u] = w
    for k in range(n):
        dk = dist[k]
        for i in range(n):
            di = dist[i]
            dik = di[k]
            if dik >= inf:
                continue
            for j in range(n):
                if dik + dk[j] < di[j]:
                    di[j] = dik + dk[j]
    return dist


def _exclusion_search(
    n: int,
    ends: list[tuple[int, int]],
    weight: list[int],
    odd_mask: int,
    dist: list[list[int]],
    total: int,
    lower: int,
) -> tuple[int, int] | None:
    """Best-first search for the set F of edges to leave out; (length, kept edges) or None.

    A node is (F, D, ends): D, the odd cities of the graph without F, as a bitmask, and up to
    two odd cities chosen as the trail's ends. The node takes a city x of D that is not an
    end (the one with the fewest edges left, so leaves are settled first) and either makes x
    an end or adds one more non-loop edge at x to F. Once D has at most two cities every
    component of the rest has at most two odd cities, so the heaviest one is a trail.

    Every heaviest trail W, from s to t, is reached: the edges it leaves out contain a
    minimal set J whose odd cities are the graph's odd cities but s and t (edge-disjoint
    paths pairing them, no cycles), and W is a whole component of the graph without J (a
    part touching W would make a heavier trail with it). Adding J's edges, choosing s and t
    as ends when their turn comes, stays inside J all the way, so a finished node on the way
    keeps W inside one component. Along that way the F5 bound (in distances of the whole
    graph, to the nearest other city of D or odd city) never falls below W, so the first
    finished node taken off the queue is a heaviest trail. Only results above `lower` count.
    """
    m = len(ends)
    full = (1 << m) - 1
    incident = [0] * n
    plain_mask: dict[int, int] = {1 << x: 0 for x in range(n)}
    plain: dict[int, list[tuple[int, int, int]]] = {1 << x: [] for x in range(n)}
    for k, (u, v) in enumerate(ends):
        incident[u] |= 1 << k
        incident[v] |= 1 << k
        if u != v:
            for a, b in ((u, v), (v, u)):
                plain[1 << a].append((weight[k], 1 << k, 1 << b))
                plain_mask[1 << a] |= 1 << k
    for row in plain.values():
        row.sort()
    near = {
        1 << x: [(dist[x][y], 1 << y) for y in sorted(range(n), key=lambda y: (dist[x][y], y)) if y != x]
        for x in range(n)
    }

    def bound(cut: int, d_mask: int) -> int:
        targets = d_mask | odd_mask
        gaps = []
        rest = d_mask
        while rest:
            low = rest & -rest
            rest ^= low
            for gap, y in near[low]:
                if targets & y:
                    gaps.append(gap)
                    break
        gaps.sort()
        return total - cut - (sum(gaps[:-2]) + 1) // 2

    def heaviest(out: int) -> tuple[int, int]:
        left = full & ~out
        best_w, best_mask = 0, 0
        while left:
            k = (left & -left).bit_length() - 1
            verts = (1 << ends[k][0]) | (1 << ends[k][1])
            frontier, mask = verts, 0
            while frontier:
                low = frontier & -frontier
                frontier ^= low
                new = incident[low.bit_length() - 1] & left & ~mask
                mask |= new
                while new:
                    bit = new & -new
                    new ^= bit
                    u, v = ends[bit.bit_length() - 1]
                    y = (1 << u) | (1 << v)
                    if y & ~verts:
                        frontier |= y & ~verts
                        verts |= y
            left &= ~mask
            w = 0
            rest = mask
            while rest:
                bit = rest & -rest
                rest ^= bit
                w += weight[bit.bit_length() - 1]
            if w > best_w:
                best_w, best_mask = w, mask
        return best_w, best_mask

    seen: set[tuple[int, int]] = set()
    count = 0
    queue: list[tuple[int, int, int, int, int, int, int, int]] = [(-bound(0, odd_mask), 0, 0, 0, odd_mask, 0, 0, -1)]
    while queue:
        neg, _, out, cut, d_mask, chosen, n_chosen, keep = heapq.heappop(queue)
        if -neg <= lower:
            return None
        if keep >= 0:
            return -neg, keep
        free = d_mask & ~chosen
        x, fewest = 0, m + 1
        while free:
            low = free & -free
            free ^= low
            options = (plain_mask[low] & ~out).bit_count()
            if options < fewest:
                x, fewest = low, options
        children = [(out | bit, cut + w, d_mask ^ x ^ y, chosen, n_chosen) for w, bit, y in plain[x] if not out & bit]
        if n_chosen < 2 and odd_mask & x:
            children.append((out, cut, d_mask, chosen | x, n_chosen + 1))
        for c_out, c_cut, c_d, c_chosen, c_n in children:
            key = (c_out, c_chosen)
            if key in seen:
                continue
            seen.add(key)
            if c_d.bit_count() <= 2:
                value, c_keep = heaviest(c_out)
            else:
                value, c_keep = bound(c_cut, c_d), -1
            if value > lower:
                count += 1
                heapq.heappush(queue, (-value, count, c_out, c_cut, c_d, c_chosen, c_n, c_keep))
    return None
