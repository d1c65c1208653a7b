"""Ticket to Ride: routes, destination tickets and the Longest Continuous Path, one round (rulebooks 001, 003)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorekeeper.fields import CardListField, CountsField, Field, IntField, NameListField, Report
from scorekeeper.games.base import Game, Item, RoundScore, Rule, Step, TieBreak, names
from scorekeeper.session import Problem, Session, location

ROUTE_POINTS = {1: 1, 2: 2, 3: 4, 4: 7, 5: 10, 6: 15, 7: 18, 8: 21, 9: 27}
"""Points of a claimed route by its length in trains."""
LENGTHS = tuple(ROUTE_POINTS)
TRAINS = 45
"""Trains each player starts with."""
LAST_TRAINS = 2
"""The last turns begin when a player ends a turn with this many trains or fewer."""


def plural(n: int, one: str, many: str | None = None) -> str:
    """`1 ticket`, `3 tickets`."""
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


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


@dataclass(frozen=True)
class Routes:
    """A player's route points, the trains they used when known, and how the points were found."""

    points: int
    trains: int | None
    why: str
    source: str  # "routes", "route_points", "claimed" or "" (nothing given)


def routes_of(entry: dict[str, Any]) -> Routes:
    """Route points from `routes` (it wins when both are given), else from `route_points`."""
    if "routes" in entry:
        counts = route_counts(entry)
        return Routes(counts_points(counts), counts_trains(counts), counts_why(counts), "routes")
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
                f"{p}'s routes use {r.trains} trains ({r.why}); each player has {trains} trains",
                "error", location(number, p, r.source), round=number, player=p, field=r.source))
        if r.source in ("routes", "claimed") and "route_points" in entry and int(entry["route_points"]) != r.points:
            given = "routes by length" if r.source == "routes" else "claimed routes"
            problems.append(Problem(
                f"route_points is {entry['route_points']}, but the {given} score {r.points} "
                f"({r.why}); the {given} count — correct or remove route_points",
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

    @property
    def value(self) -> int:
        """+points when completed, -points when failed."""
        return self.points if self.completed else -self.points

    def why(self) -> str:
        """`ticket Denver – El Paso completed: +4`."""
        sign = "+" if self.completed else "-"
        return f"{self.label} {self.how}: {sign}{self.points}"


def cards_of(entry: dict[str, Any], key: str, noun: str) -> list[Card]:
    """The cards of a CardListField as scored: a card without `completed` counts as failed."""
    out: list[Card] = []
    for i, card in enumerate(entry.get(key, []), start=1):
        label = f"{noun} {card['name']}" if card.get("name") else f"{noun} {i}"
        if "completed" not in card:
            out.append(Card(label, int(card["points"]), False, "not marked completed, so failed"))
        elif card["completed"]:
            out.append(Card(label, int(card["points"]), True, "completed"))
        else:
            out.append(Card(label, int(card["points"]), False, "failed"))
    return out


def card_items(player: str, cards: list[Card], category: str, keep: Callable[[Card], bool] = lambda c: True
               ) -> list[Item]:
    """An item per card (that `keep` accepts): + its points when completed, - when failed."""
    return [Item(player, category, Fraction(c.value), c.why()) for c in cards if keep(c)]


def most(values: dict[str, int]) -> tuple[list[str], int]:
    """The players with the greatest value (seating order) and that value; nobody when it is 0."""
    top = max(values.values())
    return ([p for p, v in values.items() if v == top] if top > 0 else []), top


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
             "routes, tickets and the longest path", choices=("usa",), kind="choice"),
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
        """The map of the session's rules, or None."""
        value = rules.get("map")
        return value if isinstance(value, str) else None

    def fields_for(self, rules: dict[str, Any]) -> dict[str, Field]:
        """Without a map, `claimed` is an error; on a map, tickets need no points and `claimed` lists routes."""
        fields = {f.key: f for f in self.fields}
        if self.map_name(rules) is not None:
            fields["tickets"] = CardListField("tickets", "Tickets", TICKETS_HELP + "; on a map the name alone will do",
                                              lo=1, needs_points=False)
            fields["claimed"] = NameListField("claimed", "Claimed routes",
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
                 "Reveal the destination tickets: each completed one adds its points, each failed one "
                 "subtracts them."),
            path,
            Step("summary", "Summary", (), (), "The final points, player by player."),
        )

    # -- what each player did ---------------------------------------------------------
    def routes(self, session: Session, number: int) -> dict[str, Routes]:
        """Each player's route points and trains used."""
        rnd = session.round(number)
        return {p: routes_of(rnd.entry(p)) for p in session.players}

    def tickets(self, session: Session, number: int, player: str) -> list[Card]:
        """The player's destination tickets as scored."""
        return cards_of(session.round(number).entry(player), "tickets", "ticket")

    def paths(self, session: Session, number: int) -> dict[str, int]:
        """Trains in each player's longest continuous path."""
        rnd = session.round(number)
        return {p: int(rnd.entry(p).get("longest_path", 0)) for p in session.players}

    def path_holders(self, session: Session, number: int) -> list[str]:
        """Who holds the Longest Continuous Path bonus (every player tied for the greatest path > 0)."""
        return most(self.paths(session, number))[0]

    # -- checks ---------------------------------------------------------------------
    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Errors: over 45 trains; warnings: route_points that disagrees, no end of game, paths too long."""
        routes = self.routes(session, number)
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
        items = []
        for p in holders:
            if len(holders) == 1:
                rest = [v for q, v in paths.items() if q != p]
                why = f"the longest continuous path ({plural(top, 'train')}; next best {max(rest)}): +{bonus}"
            else:
                others = names([q for q in holders if q != p])
                why = f"tied with {others} for the longest continuous path ({top} trains each): +{bonus}"
            items.append(Item(p, "longest-path", Fraction(bonus), why + self.path_shown(session, number, p)))
        return items

    def path_shown(self, session: Session, number: int, player: str) -> str:
        """The path city by city (on a map), to follow the bonus's reason; else nothing."""
        return ""

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
