"""Ticket to Ride: routes, destination tickets and the Longest Continuous Path, one round (rulebooks 001, 003)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import (
    Game,
    Item,
    Place,
    RoundScore,
    Rule,
    Step,
    TieBreak,
    missed_items,
    names,
    plural,
    rank,
)
from scorekeeper.games.boards import (
    EDITION_NAMES,
    EDITIONS,
    GLOBETROTTER,
    STATION_POINTS,
    STATIONS,
    TABLES,
    BoardRecords,
)
from scorekeeper.games.boards import TRAINS as BOARD_TRAINS
from scorekeeper.games.fields import (
    CardListField,
    CityNamesField,
    CountsField,
    Field,
    IntField,
    Report,
    RouteNamesField,
    TicketNamesField,
)
from scorekeeper.games.trains import (
    LENGTHS,
    TICKETS_HELP,
    Card,
    Routes,
    bonus_holders,
    card_items,
    cards_of,
    kept_checks,
    route_checks,
    routes_items,
    routes_of,
    shared_ticket_checks,
)
from scorekeeper.maps import MAPS
from scorekeeper.model.points import fmt, whole
from scorekeeper.model.problems import Problem, location

if TYPE_CHECKING:
    from scorekeeper.games.base import HasRules
    from scorekeeper.games.map_mode import MapRound
    from scorekeeper.model.session import Session

BOARD_RULES = {
    "usa": "45 trains; routes 1 to 9 long; +10 for the Longest Continuous Path; a tie goes to the most completed "
           "tickets",
    "europe": "45 trains; 3 stations each (+4 for each one not built; a station borrows one route of another "
              "player for tickets); +10 European Express; a tie goes to the most completed tickets, then the fewest "
              "stations built, then the European Express",
    "nordic": "designed for 2–3 players; 40 trains; +10 Globetrotter for the most completed tickets; a tie goes "
              "to the most completed tickets, then the longest path",
}
"""Each board's rules in one line, for the New session form."""

TIEBREAKS = {
    "tickets": ("the publisher's full rule, not printed in rulebooks 001/003",
                "most completed tickets, then the Longest Path bonus, then shared"),
    "shared": ("rulebooks 001 and 003 say only that the most points win", "a tie on total is shared"),
}
"""The values of rule `tiebreak`: where each comes from, and what it does."""

BOARD_TIEBREAKS = {
    "europe": "the Europe rulebook's: most completed tickets, then the fewest stations built, then the European "
              "Express, then shared",
    "nordic": "the Nordic Countries rulebook's: most completed tickets, then the longest continuous path, then "
              "shared",
}
"""What rule `tiebreak = "tickets"` does on Europe and Nordic Countries (their rulebooks print a tie-break)."""


def tiebreak_help(edition: str) -> str:
    """Rule `tiebreak` in one line, as it reads on the board chosen (the USA's: the publisher's full rule)."""
    parts = [f"{key} — {BOARD_TIEBREAKS[edition]}" if key == "tickets" and edition in BOARD_TIEBREAKS
             else f"{key} — {what} ({source})" for key, (source, what) in TIEBREAKS.items()]
    return "a tie for the most points: " + "; or ".join(parts)


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


class TicketToRide(BoardRecords, Game):
    """Ticket to Ride (the base game; optionally on the USA map, which scores claimed routes itself)."""

    id = "ticket-to-ride"
    name = "Ticket to Ride"
    rulebook = "001, 003"
    seating_hint = "start with the player who plays first, then clockwise"
    summary = (
        "One round, scored at the end of the game: routes by length 1→1, 2→2, 3→4, 4→7, 5→10, 6→15 "
        "(7→18, 8→21, 9→27), or the points on the score track; each destination ticket adds its points "
        "when completed and subtracts them when failed; the Longest Continuous Path earns +10 (every tied "
        "player receives it). Every player keeps at least 2 tickets. The highest total wins; a tie goes "
        "(rule tiebreak = \"tickets\", the publisher's full rule, not printed in rulebooks 001/003) to the "
        "most completed tickets, then to the Longest Path bonus, then is shared; with tiebreak = \"shared\" "
        "(the rulebooks: the most points win) a tie is shared. With the USA map, list claimed routes and the "
        "program works out route points, tickets and the longest path. Rule map = \"europe\" or \"nordic\" "
        "(or edition, without the board) plays Europe (3 stations, +4 each one not built, a station borrows one "
        "route of another player for tickets; the European Express; tie: tickets, fewest stations, the Express) "
        "or Nordic Countries (40 trains; the Globetrotter, +10 for the most completed tickets; tie: tickets, "
        "the longest path)."
    )
    rules = (
        Rule("longest_path_bonus", 10, "points for the Longest Continuous Path (every tied player receives them)",
             lo=0),
        Rule("map", None, "a board the program knows (\"usa\", \"europe\", \"nordic\"): list claimed routes by "
             "their cities (and on Europe the station cities) and it scores routes, tickets, stations and the "
             "longest path; the board sets the trains (45, 45, 40), the route table, the bonus (Longest Path, "
             "European Express, Globetrotter) and the tie-break", choices=MAPS, kind="choice",
             options=tuple((board, EDITION_NAMES[board], "claimed routes and tickets typed by their cities "
                            f"(a few letters, Tab completes) on the {EDITION_NAMES[board]} board: "
                            + BOARD_RULES[board]) for board in MAPS),
             blank=("none", "routes typed as counts by length or as points, tickets marked done or failed, the "
                            "longest path typed (rule edition picks the board's rules)")),
        Rule("edition", None, "the board's rules without the board (\"usa\", \"europe\", \"nordic\"): routes "
             "as counts or points, tickets marked completed, the longest path and Europe's stations typed; "
             "map implies its edition", choices=EDITIONS, kind="choice",
             options=tuple((board, EDITION_NAMES[board], "its rules, routes typed as counts or points: "
                            + BOARD_RULES[board]) for board in EDITIONS),
             blank=("as the map", "the rules of the board chosen above (with no board: the USA rules, as in "
                                  "the base game)")),
        Rule("tiebreak", "tickets", tiebreak_help("usa"), choices=tuple(TIEBREAKS), kind="choice"),
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

    def rules_for(self, rules: dict[str, Any]) -> tuple[Rule, ...]:
        """The house rules as the board chosen has them: Nordic Countries has no longest-path bonus (the
        Globetrotter is fixed); on Europe the bonus is the European Express; the tie-break names the board's."""
        edition = self.edition(rules)
        out: list[Rule] = []
        for rule in self.rules:
            if rule.key == "longest_path_bonus" and edition == "nordic":
                continue
            if rule.key == "longest_path_bonus" and edition == "europe":
                rule = replace(rule, help="points for the European Express, the longest continuous path of a "
                                          "player's own routes (every tied player receives them)")
            elif rule.key == "tiebreak":
                rule = replace(rule, help=tiebreak_help(edition))
            out.append(rule)
        return tuple(out)

    def edition(self, rules: dict[str, Any]) -> str:
        """The board whose rules apply: the map's, else rule edition's, else the USA (the base game)."""
        value = rules.get("map")
        if value in EDITIONS:
            return str(value)
        value = rules.get("edition")
        return str(value) if value in EDITIONS else "usa"

    def check_rules(self, rules: dict[str, Any]) -> list[Problem]:
        """The rules' own problems, and an edition that is not the map's."""
        problems = super().check_rules(rules)
        if rules.get("map") in EDITIONS and rules.get("edition") in EDITIONS and rules["map"] != rules["edition"]:
            problems.append(Problem(f"edition is {rules['edition']!r}, but map {rules['map']!r} implies edition "
                                    f"{rules['map']!r}; remove edition or make them agree", path="rules.edition"))
        return problems

    def fields_for(self, rules: dict[str, Any]) -> dict[str, Field]:
        """Without a map, `claimed` is an error; on a map, tickets need no points and `claimed` lists routes;
        Europe adds stations (`station_cities` on the map, `stations` without it)."""
        fields: dict[str, Field] = {f.key: f for f in self.fields}
        edition = self.edition(rules)
        if edition != "usa":
            lengths = tuple(TABLES[edition])
            shown = ", ".join(map(str, lengths))
            fields["routes"] = CountsField("routes", "Routes", f"claimed routes counted by length in trains "
                                           f"({shown})", keys=lengths,
                                           what=f"route length on the {EDITION_NAMES[edition]} board ({shown})")
        if edition == "europe" and self.map_name(rules) is None:
            fields["stations"] = IntField("stations", "Stations", f"stations built (0 to {STATIONS}; +"
                                          f"{STATION_POINTS} for each one not built)", lo=0, hi=STATIONS)
        if edition == "europe" and self.map_name(rules) is not None:
            fields["station_cities"] = CityNamesField("station_cities", "Stations",
                                                     f"the cities of the player's stations (at most {STATIONS})")
        if self.map_name(rules) is not None:
            fields["tickets"] = TicketNamesField("tickets", "Tickets",
                                                 TICKETS_HELP + "; on a map the name alone will do",
                                                 lo=1, needs_points=False)
            example = {"europe": "Berlin – Essen", "nordic": "Kristiansand – Oslo"}.get(edition, "Denver – Kansas City")
            fields["claimed"] = RouteNamesField("claimed", "Claimed routes",
                                                f"routes claimed, by their two cities (\"{example}\")")
        return fields

    # -- steps ----------------------------------------------------------------------
    def steps(self, session: HasRules) -> tuple[Step, ...]:
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
                          f"Routes claimed, counted by length ({route_table(self.edition(session.rules))}), "
                          "or the points on the score track.", either=True)
            path = Step("longest-path", "Longest path", (("longest_path", None),), ("longest-path",),
                        f"How many trains in each player's longest continuous path? "
                        f"+{self.rule(session, 'longest_path_bonus')} to the longest (all tied players receive it).")
        edition = self.edition(session.rules)
        if edition == "nordic":
            path = Step("longest-path", "Globetrotter", () if on_map else (("longest_path", None),),
                        ("globetrotter",),
                        f"The Globetrotter: +{GLOBETROTTER} to every player with the most completed tickets. "
                        + ("The longest continuous path is worked out from the claimed routes"
                           if on_map else "Type each player's longest continuous path")
                        + ": it settles a tie.")
        elif edition == "europe":
            path = Step("longest-path", "European Express", path.inputs, ("longest-path",),
                        f"The European Express: +{self.rule(session, 'longest_path_bonus')} to every player with "
                        "the longest continuous path of their own routes (stations never count)"
                        + (", worked out from the claimed routes." if on_map else "."))
        stations: tuple[Step, ...] = ()
        if edition == "europe":
            stations = (Step("stations", "Stations", (("station_cities" if on_map else "stations", None),),
                             ("station",),
                             f"Where did each player build stations (at most {STATIONS})? Each lets its owner use "
                             "one route of another player into its city for tickets; "
                             f"+{STATION_POINTS} for each station not built."
                             if on_map else
                             f"How many stations did each player build (0 to {STATIONS})? +{STATION_POINTS} for "
                             "each station not built."),)
        return (
            routes,
            *stations,
            Step("tickets", "Destination tickets", (("tickets", None),), ("ticket",),
                 "Name each destination ticket by its two cities: the map looks up its points and "
                 "whether the claimed routes " + ("and the stations " if edition == "europe" else "")
                 + "connect it (connected adds them, not connected subtracts them)."
                 if on_map else
                 "Reveal the destination tickets: each completed one adds its points, each failed one "
                 "subtracts them."),
            path,
            Step("summary", "Summary", (), (), "The final points, player by player." + self.board_summary(session)),
        )

    def board_summary(self, session: HasRules) -> str:
        """On Europe and Nordic Countries: the board's bonus and its tie-break, for the Summary step."""
        edition = self.edition(session.rules)
        if edition == "usa":
            return ""
        if edition == "europe":
            bonus = (f" The European Express: +{self.rule(session, 'longest_path_bonus')} to every player with the "
                     "longest continuous path of their own routes (stations and borrowed routes never count).")
            chain = "most completed tickets, then fewest stations built, then the European Express"
        else:
            bonus = f" The Globetrotter: +{GLOBETROTTER} to every player with the most completed tickets."
            chain = "most completed tickets, then the longer continuous path"
        if self.rule(session, "tiebreak") == "shared":
            return bonus + " A tie on points is shared (rule tiebreak = \"shared\")."
        return bonus + f" A tie on points ({EDITION_NAMES[edition]} rulebook): {chain}; still tied, shared."

    # -- what each player did ---------------------------------------------------------
    def on_map(self, session: Session, number: int) -> MapRound | None:
        """The round read on the session's map, or None without a map."""
        map_id = self.map_name(session.rules)
        if map_id is None:
            return None
        from scorekeeper.games.map_mode import map_round  # map mode only: the start-up of the rest stays light

        return map_round(map_id, session, number)

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
        return bonus_holders(self.paths(session, number))[0]

    # -- checks ---------------------------------------------------------------------
    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Errors: over the trains, a longest path above them, bad claims and tickets on a map; warnings: figures
        that disagree, no end of game, fewer than 2 tickets kept."""
        routes = self.routes(session, number)
        played = self.on_map(session, number)
        kept = kept_checks(session, number, "tickets", 2, ("destination ticket", "destination tickets"),
                           "rulebooks 001 and 003") + shared_ticket_checks(session, number)
        edition = self.edition(session.rules)
        kept += self.board_checks(session, number, edition)
        if played is not None:
            return played.problems + route_checks(session, number, routes, played.trains) + kept
        trains = BOARD_TRAINS[edition]
        problems = route_checks(session, number, routes, trains)
        rnd = session.round(number)
        for p in session.players:
            path = int(rnd.entry(p).get("longest_path", 0))
            used = routes[p].trains
            at = location(number, p, "longest_path")
            if used is not None and path > used:
                problems.append(Problem(
                    f"longest_path is {path}, but {p}'s routes use only {plural(used, 'train')}; a path is "
                    "made of the player's trains, so it is at most the trains used", "error", at,
                    round=number, player=p, field="longest_path"))
            elif path > trains:
                problems.append(Problem(
                    f"longest_path is {path}, but a player has only {trains} trains", "error", at,
                    round=number, player=p, field="longest_path"))
        return problems + kept

    def board_checks(self, session: Session, number: int, edition: str) -> list[Problem]:
        """Nordic Countries with 4-5 players (a warning)."""
        return [Problem(p.message, "warning", location(number), round=number)
                for p in self.seating_problems(session.rules, len(session.players))]

    def seating_problems(self, rules: dict[str, Any], count: int) -> list[Problem]:
        """Nordic Countries with 4-5 players (a warning)."""
        if self.edition(rules) == "nordic" and count > 3:
            return [Problem(f"Nordic Countries is designed for 2-3 players; this game has {count}", "warning",
                            "players")]
        return []

    # -- scoring --------------------------------------------------------------------
    def score_round(self, session: Session, number: int) -> list[Item]:
        """Routes, (Europe: stations,) destination tickets (+ completed, - failed), the board's bonus."""
        edition = self.edition(session.rules)
        items = routes_items(session, number, self.routes(session, number))
        if edition == "europe":
            items.extend(self.station_items(session, number))
        for p in session.players:
            items.extend(card_items(p, self.tickets(session, number, p), "ticket"))
        if edition == "nordic":
            items.extend(self.globetrotter_items(session, number))
        else:
            items.extend(self.path_items(session, number))
        return items

    def stations_built(self, session: Session, number: int) -> dict[str, int]:
        """Europe: the stations each player built (from `station_cities` on the map, else `stations`)."""
        played = self.on_map(session, number)
        if played is not None:
            return {p: played.built.get(p, 0) for p in session.players}
        rnd = session.round(number)
        return {p: int(rnd.entry(p).get("stations", 0)) for p in session.players}

    def station_items(self, session: Session, number: int) -> list[Item]:
        """Europe: each station's use (0 points, the route it borrows), and +4 per station not built."""
        built = self.stations_built(session, number)
        played = self.on_map(session, number)
        items: list[Item] = []
        for p in session.players:
            if p not in session.round(number).players:
                continue
            for city, use, helped in (played.stations.get(p, []) if played is not None else []):
                if use is None:
                    why = f"station in {city}: no other player claimed a route into {city}, so it uses none"
                    items.append(Item(p, "station", whole(0), why, (city,), uses=(city, "", "")))
                    continue
                does = f"completes {names(helped)}" if helped else "completes no ticket"
                why = f"station in {city}: uses {use.owner}'s {use.name} ({does})"
                items.append(Item(p, "station", whole(0), why, (city,), uses=(city, use.name, use.owner)))
            left = max(STATIONS - built[p], 0)
            if left:
                items.append(Item(p, "station", whole(STATION_POINTS * left),
                                  f"{plural(left, 'station')} not built: {left}×{STATION_POINTS}"))
        return items

    def completed(self, session: Session, number: int) -> dict[str, int]:
        """Completed destination tickets of each player."""
        return {p: sum(1 for c in self.tickets(session, number, p) if c.completed) for p in session.players}

    def globetrotter_items(self, session: Session, number: int) -> list[Item]:
        """Nordic Countries: +10 to every player with the most completed tickets (nobody when that is 0); a player
        with fewer is told so (no bonus), as Europe's Express says it."""
        done = self.completed(session, number)
        holders, top = bonus_holders(done)
        items = []
        for p in holders:
            if len(holders) == 1:
                rest = max(v for q, v in done.items() if q != p)
                why = f"the Globetrotter: the most completed tickets ({top}; next best {rest}): +{GLOBETROTTER}"
            else:
                others = names([q for q in holders if q != p])
                why = (f"the Globetrotter, tied with {others} for the most completed tickets ({top} each): "
                       f"+{GLOBETROTTER}")
            items.append(Item(p, "globetrotter", whole(GLOBETROTTER), why))
        return items + missed_items(done, holders, "globetrotter", "the Globetrotter: completed tickets",
                                    plural(top, "ticket"))

    def path_items(self, session: Session, number: int) -> list[Item]:
        """The Longest Continuous Path bonus, to every player tied for the greatest path."""
        bonus = int(self.rule(session, "longest_path_bonus"))
        paths = self.paths(session, number)
        holders, top = bonus_holders(paths)
        if not bonus or not holders:
            return []
        played = self.on_map(session, number)
        express = self.edition(session.rules) == "europe"
        what = "the longest continuous path of own routes" if express else "the longest continuous path"
        items = []
        for p in holders:
            if len(holders) == 1:
                rest = [v for q, v in paths.items() if q != p]
                why = f"{what} ({plural(top, 'train')}; next best {max(rest)}): +{bonus}"
            else:
                others = names([q for q in holders if q != p])
                why = f"tied with {others} for {what} ({top} trains each): +{bonus}"
            if express:
                why = "the European Express: " + why
            if played is not None:
                why += f" — {' – '.join(played.trails[p][1])}"
            items.append(Item(p, "longest-path", whole(bonus), why,
                              tuple(played.trails[p][1]) if played is not None else ()))
        trails = {q: tuple(t[1]) for q, t in played.trails.items()} if played is not None else None
        return items + missed_items(paths, holders, "longest-path", "European Express: longest continuous path "
                                   "of own routes" if express else "longest continuous path", plural(top, "train"),
                                   trails)

    # -- the end --------------------------------------------------------------------
    def tiebreaks(self, session: Session, rounds: list[RoundScore]) -> list[TieBreak]:
        """Rule tiebreak "tickets": most completed tickets, then the holder of the Longest Path bonus;
        "shared": none."""
        if not session.rounds or self.rule(session, "tiebreak") == "shared":
            return []
        edition = self.edition(session.rules)
        if edition == "europe":
            return self.europe_tiebreaks(session)
        if edition == "nordic":
            return self.nordic_tiebreaks(session)
        number = len(session.rounds)
        done = {p: sum(1 for c in self.tickets(session, number, p) if c.completed) for p in session.players}
        holders = set(self.path_holders(session, number)) if int(self.rule(session, "longest_path_bonus")) else set()
        return [
            TieBreak(lambda p: done[p], "completed more tickets"),
            TieBreak(lambda p: p in holders, "held the Longest Path bonus", lambda v: ""),
        ]

    def europe_tiebreaks(self, session: Session) -> list[TieBreak]:
        """Europe: most completed tickets; then fewest stations built; then the European Express holder."""
        number = len(session.rounds)
        done = self.completed(session, number)
        built = self.stations_built(session, number)
        holders = set(self.path_holders(session, number)) if int(self.rule(session, "longest_path_bonus")) else set()
        return [
            TieBreak(lambda p: done[p], "completed more tickets"),
            TieBreak(lambda p: -built[p], "built fewer stations", lambda v: str(-v)),
            TieBreak(lambda p: p in holders, "held the European Express", lambda v: ""),
        ]

    def nordic_tiebreaks(self, session: Session) -> list[TieBreak]:
        """Nordic Countries: most completed tickets; then the longest continuous path."""
        number = len(session.rounds)
        done = self.completed(session, number)
        paths = self.paths(session, number)
        return [
            TieBreak(lambda p: done[p], "completed more tickets"),
            TieBreak(lambda p: paths[p], "had the longer continuous path"),
        ]

    def ranking(
        self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction]
    ) -> tuple[list[Place], str | None]:
        """The ranking by total and rule tiebreak; the sentence on a tie for first names the rule it applied."""
        rule = self.rule(session, "tiebreak")
        places, sentence = rank(session.players, totals, self.tiebreaks(session, rounds))
        if sentence is None:
            return places, None
        if rule == "shared":
            first = places[0]
            return places, (f"{names(first.players)} tied on {fmt(first.total)}: a shared victory "
                            f"(rule tiebreak = \"shared\": {TIEBREAKS['shared'][0]})")
        edition = self.edition(session.rules)
        if edition != "usa":
            return places, f"{sentence} (the {EDITION_NAMES[edition]} rulebook's tie-break)"
        return places, f"{sentence} (rule tiebreak = \"tickets\": {TIEBREAKS['tickets'][0]})"


def route_table(edition: str = "usa") -> str:
    """The board's whole route table: `1→1, 2→2, 3→4, 4→7, 5→10, 6→15, 7→18, 8→21, 9→27` on the USA board."""
    return ", ".join(f"{length}→{points}" for length, points in TABLES[edition].items())
