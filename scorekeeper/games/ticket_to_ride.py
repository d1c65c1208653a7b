"""Ticket to Ride: routes, destination tickets and the Longest Continuous Path, one round (rulebooks 001, 003)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any

from scorekeeper.fields import CardListField, CountsField, Field, IntField, Report, RouteNamesField, TicketNamesField
from scorekeeper.games.base import Game, Item, RoundScore, Rule, Step, TieBreak, names, plural
from scorekeeper.session import Problem, Session, Severity, location

ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
"""Points of a claimed route by its length in trains."""
LENGTHS = tuple(ROUTE_POINTS)
TRAINS = 45
"""Trains each player starts with."""
LAST_TRAINS = 2
"""The last turns begin when a player ends a turn with this many trains or fewer."""
MAPS = ("usa",)
"""The maps whose routes and tickets the program knows (rule `map`)."""


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
        most = max(routes[p].trains or 0 for p in session.players)
        if most < trains - LAST_TRAINS:
            used = ", ".join(f"{p} {routes[p].trains}" for p in session.players)
            problems.append(Problem(
                f"no player has {LAST_TRAINS} or fewer trains left (trains used: {used}); the game ends when "
                f"a player is down to {LAST_TRAINS} or fewer of their {trains}, so someone used at least "
                f"{trains - LAST_TRAINS} — check the routes", "warning", location(number), round=number))
    return problems


def routes_items(session: Session, number: int, routes: dict[str, Routes]) -> list[Item]:
    """The `routes` item of each player with route points."""
    return [Item(p, "routes", Fraction(routes[p].points), routes[p].why) for p in session.players if routes[p].points]


# -- cards -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Card:
    """A ticket or tourist card as scored: a label, its points, and whether (and how we know) it counts."""

    label: str
    points: int
    completed: bool
    how: str  # "completed", "failed", "not marked completed, so failed", "connected on the map" …
    name: str = ""  # the card's name, when it has one

    @property
    def value(self) -> int:
        """+points when completed, -points when failed."""
        return self.points if self.completed else -self.points

    def why(self) -> str:
        """`ticket Denver – El Paso completed: +4`."""
        sign = "+" if self.completed else "-"
        return f"{self.label} {self.how}: {sign}{self.points}"


def card_of(card: dict[str, Any], label: str) -> Card:
    """A card as marked: a card without `completed` counts as failed."""
    if "completed" not in card:
        return Card(label, int(card["points"]), False, "not marked completed, so failed")
    if card["completed"]:
        return Card(label, int(card["points"]), True, "completed")
    return Card(label, int(card["points"]), False, "failed")


def cards_of(entry: dict[str, Any], key: str, noun: str) -> list[Card]:
    """The cards of a CardListField as scored, labelled by name or by place in the list."""
    return [replace(card_of(card, f"{noun} {card['name']}" if card.get("name") else f"{noun} {i}"),
                    name=str(card.get("name") or ""))
            for i, card in enumerate(entry.get(key, []), start=1)]


def card_items(player: str, cards: list[Card], category: str, keep: Callable[[Card], bool] = lambda c: True
               ) -> list[Item]:
    """An item per card (that `keep` accepts): + its points when completed, - when failed."""
    return [Item(player, category, Fraction(c.value), c.why(), (c.name,) if c.name else ()) for c in cards if keep(c)]


def most(values: dict[str, int]) -> tuple[list[str], int]:
    """The players with the greatest value (seating order) and that value; nobody when it is 0."""
    top = max(values.values())
    return ([p for p, v in values.items() if v == top] if top > 0 else []), top


# -- map mode --------------------------------------------------------------------------
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
    out = MapRound()

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


# -- fields ----------------------------------------------------------------------------
@dataclass(frozen=True)
class NeedsMapField(Field):
    """`claimed` in a session without a map: always an error that says what to add."""

    def default(self) -> Any:
        """Missing means none."""
        return []

    def check(self, value: Any, report: Report) -> None:
        """Report that claimed routes need a map."""
        report("", "claimed routes need a map: add map = \"usa\" under [rules], or give routes "
                   "(counted by length) or route_points instead")


TICKETS_HELP = "destination tickets: points, completed = true/false, name (\"Denver – El Paso\", optional)"


class TicketToRide(Game):
    """Ticket to Ride (the base game; optionally on the USA map, which scores claimed routes itself)."""

    id = "ticket-to-ride"
    name = "Ticket to Ride"
    rulebook = "001, 003"
    seating_hint = "start with the player who plays first, then clockwise"
    summary = (
        "One round, scored at the end of the game: routes by length 1→1, 2→2, 3→4, 4→7, 5→10, 6→15 "
        "(7→18, 8→21, 9→27), or the points on the score track; each destination ticket adds its points "
        "when completed and subtracts them when failed; the Longest Continuous Path earns +10 (every tied "
        "player receives it). The highest total wins; a tie goes to the most completed tickets, then to "
        "the Longest Path bonus, then is shared. With the USA map, list claimed routes and the program "
        "works out route points, tickets and the longest path."
    )
    rules = (
        Rule("longest_path_bonus", 10, "points for the Longest Continuous Path (every tied player receives them)",
             lo=0),
        Rule("map", None, "a map the program knows (\"usa\"): list claimed routes by their cities and it scores "
             "routes, tickets and the longest path", choices=MAPS, kind="choice"),
    )
    fields = (
        IntField("route_points", "Route points", "points for claimed routes, as on the score track", lo=0),
        CountsField("routes", "Routes", "claimed routes counted by length in trains (1 to 9)",
                    keys=LENGTHS, what="route length"),
        CardListField("tickets", "Tickets", TICKETS_HELP, lo=1),
        IntField("longest_path", "Longest path", "trains in the player's longest continuous path", lo=0),
        NeedsMapField("claimed", "Claimed routes", "routes claimed on the map (needs [rules] map)"),
    )

    def map_name(self, rules: dict[str, Any]) -> str | None:
        """The map of the session's rules, or None (also for a map the program does not know)."""
        value = rules.get("map")
        return value if value in MAPS else None

    def fields_for(self, rules: dict[str, Any]) -> dict[str, Field]:
        """Without a map, `claimed` is an error; on a map, tickets need no points and `claimed` lists routes."""
        fields: dict[str, Field] = {f.key: f for f in self.fields}
        if self.map_name(rules) is not None:
            fields["tickets"] = TicketNamesField("tickets", "Tickets",
                                                 TICKETS_HELP + "; on a map the name alone will do",
                                                 lo=1, needs_points=False)
            fields["claimed"] = RouteNamesField("claimed", "Claimed routes",
                                                "routes claimed, by their two cities (\"Denver – Kansas City\")")
        return fields

    # -- steps ----------------------------------------------------------------------
    def steps(self, session: Session) -> tuple[Step, ...]:
        """Routes, Destination tickets, Longest path, Summary."""
        on_map = self.map_name(session.rules) is not None
        if on_map:
            routes = Step("routes", "Routes", (("claimed", None),), ("routes",),
                          "Which routes did each player claim? Name each by its two cities; the program "
                          "scores them by the route table.")
            path = Step("longest-path", "Longest path", (), ("longest-path",),
                        f"The longest continuous path, worked out from the claimed routes: "
                        f"+{self.rule(session, 'longest_path_bonus')} to every player who has it.")
        else:
            routes = Step("routes", "Routes", (("routes", None), ("route_points", None)), ("routes",),
                          "Routes claimed, counted by length (1→1, 2→2, 3→4, 4→7, 5→10, 6→15), "
                          "or the points on the score track.", either=True)
            path = Step("longest-path", "Longest path", (("longest_path", None),), ("longest-path",),
                        f"How many trains in each player's longest continuous path? "
                        f"+{self.rule(session, 'longest_path_bonus')} to the longest (all tied players receive it).")
        return (
            routes,
            Step("tickets", "Destination tickets", (("tickets", None),), ("ticket",),
                 "Name each destination ticket by its two cities: the map looks up its points and "
                 "whether the claimed routes connect it (connected adds them, not connected subtracts them)."
                 if on_map else
                 "Reveal the destination tickets: each completed one adds its points, each failed one "
                 "subtracts them."),
            path,
            Step("summary", "Summary", (), (), "The final points, player by player."),
        )

    # -- what each player did ---------------------------------------------------------
    def on_map(self, session: Session, number: int) -> MapRound | None:
        """The round read on the session's map, or None without a map."""
        map_id = self.map_name(session.rules)
        return map_round(map_id, session, number) if map_id is not None else None

    def routes(self, session: Session, number: int) -> dict[str, Routes]:
        """Each player's route points and trains used (on a map: from the claimed routes)."""
        played = self.on_map(session, number)
        if played is not None:
            return {p: played.routes(p) for p in session.players}
        rnd = session.round(number)
        return {p: routes_of(rnd.entry(p)) for p in session.players}

    def tickets(self, session: Session, number: int, player: str) -> list[Card]:
        """The player's destination tickets as scored (on a map: completed when the routes connect them)."""
        played = self.on_map(session, number)
        if played is not None:
            return played.tickets[player]
        return cards_of(session.round(number).entry(player), "tickets", "ticket")

    def paths(self, session: Session, number: int) -> dict[str, int]:
        """Trains in each player's longest continuous path (on a map: the longest trail of the claimed routes)."""
        played = self.on_map(session, number)
        if played is not None:
            return {p: played.trails[p][0] for p in session.players}
        rnd = session.round(number)
        return {p: int(rnd.entry(p).get("longest_path", 0)) for p in session.players}

    def path_holders(self, session: Session, number: int) -> list[str]:
        """Who holds the Longest Continuous Path bonus (every player tied for the greatest path > 0)."""
        return most(self.paths(session, number))[0]

    # -- checks ---------------------------------------------------------------------
    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Errors: over 45 trains, bad claims and tickets on a map; warnings: figures that disagree, no end."""
        routes = self.routes(session, number)
        played = self.on_map(session, number)
        if played is not None:
            return played.problems + route_checks(session, number, routes)
        problems = route_checks(session, number, routes)
        rnd = session.round(number)
        for p in session.players:
            path = int(rnd.entry(p).get("longest_path", 0))
            used = routes[p].trains
            if used is not None and path > used:
                problems.append(Problem(
                    f"longest_path is {path}, but {p}'s routes use only {plural(used, 'train')}; a path is "
                    f"at most the trains used", "warning", location(number, p, "longest_path"),
                    round=number, player=p, field="longest_path"))
            elif path > TRAINS:
                problems.append(Problem(
                    f"longest_path is {path}, but a player has only {TRAINS} trains", "warning",
                    location(number, p, "longest_path"), round=number, player=p, field="longest_path"))
        return problems

    # -- scoring --------------------------------------------------------------------
    def score_round(self, session: Session, number: int) -> list[Item]:
        """Routes, destination tickets (+ completed, - failed), the Longest Continuous Path."""
        items = routes_items(session, number, self.routes(session, number))
        for p in session.players:
            items.extend(card_items(p, self.tickets(session, number, p), "ticket"))
        items.extend(self.path_items(session, number))
        return items

    def path_items(self, session: Session, number: int) -> list[Item]:
        """The Longest Continuous Path bonus, to every player tied for the greatest path."""
        bonus = int(self.rule(session, "longest_path_bonus"))
        paths = self.paths(session, number)
        holders, top = most(paths)
        if not bonus or not holders:
            return []
        played = self.on_map(session, number)
        items = []
        for p in holders:
            if len(holders) == 1:
                rest = [v for q, v in paths.items() if q != p]
                why = f"the longest continuous path ({plural(top, 'train')}; next best {max(rest)}): +{bonus}"
            else:
                others = names([q for q in holders if q != p])
                why = f"tied with {others} for the longest continuous path ({top} trains each): +{bonus}"
            if played is not None:
                why += f" — {' – '.join(played.trails[p][1])}"
            items.append(Item(p, "longest-path", Fraction(bonus), why,
                              tuple(played.trails[p][1]) if played is not None else ()))
        return items

    # -- the end --------------------------------------------------------------------
    def tiebreaks(self, session: Session, rounds: list[RoundScore]) -> list[TieBreak]:
        """Most completed tickets, then the holder of the Longest Path bonus."""
        if not session.rounds:
            return []
        number = len(session.rounds)
        done = {p: sum(1 for c in self.tickets(session, number, p) if c.completed) for p in session.players}
        holders = set(self.path_holders(session, number))
        totals = {p: sum((r.points[p] for r in rounds), Fraction(0)) for p in session.players}
        best = max(totals.values())
        tied = [p for p in session.players if totals[p] == best]
        ahead = [p for p in tied if done[p] == max(done[q] for q in tied)]
        both = "both" if len(ahead) == 2 else "all"
        neither = "neither" if len(ahead) == 2 else "none of them"
        same = (f"{both} held the Longest Path bonus" if all(p in holders for p in ahead)
                else f"{neither} held the Longest Path bonus")
        return [
            TieBreak(lambda p: done[p], "completed more tickets"),
            TieBreak(lambda p: p in holders, "held the Longest Path bonus", lambda v: "", same=same),
        ]
