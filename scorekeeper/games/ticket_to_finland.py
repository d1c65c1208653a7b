"""Ticket to Finland: deductions, eight bonus cards, completed cards, then routes; one round (rulebook 002)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import Game, HasRules, Item, Place, RoundScore, Rule, Step, missed_items, names, rank
from scorekeeper.games.fields import CardListField, CountsField, IntField
from scorekeeper.games.records import Figure, Rate
from scorekeeper.games.trains import (
    LENGTHS,
    TICKETS_HELP,
    Card,
    Routes,
    bonus_holders,
    card_items,
    card_of,
    cards_of,
    kept_checks,
    route_checks,
    routes_items,
    routes_of,
)
from scorekeeper.maps import TRAINS
from scorekeeper.model.points import fmt, whole
from scorekeeper.model.problems import Problem, location

if TYPE_CHECKING:
    from scorekeeper.model.session import Session

TOURIST_CARDS: dict[str, int] = {
    "Kokkola": 3, "Vaasa": 4, "Seinäjoki": 5, "Pori": 6, "Tromsø": 7, "Alta": 8,
    "Kilpisjärvi": 3, "Kolari": 4, "Kemi": 5, "Oulu": 6, "Malmberget": 7, "Boden": 8,
}
"""The tourist cards printed in rulebook 002's card table: location -> the value on the card."""


def _fold(name: str) -> str:
    """A name for matching: case, accents and spacing ignored (`Tromsø` = `tromso`)."""
    text = unicodedata.normalize("NFKD", name.replace("ø", "o").replace("Ø", "O"))
    return " ".join("".join(c for c in text if not unicodedata.combining(c)).casefold().split())


_TOURISTS_FOLDED = {_fold(name): name for name in TOURIST_CARDS}


def tourist_name(name: str) -> str | None:
    """The printed name of a known tourist card (any case, with or without accents), else None."""
    return _TOURISTS_FOLDED.get(_fold(name))


def tourist_value(name: str) -> int | None:
    """The value printed on a known tourist card (`"seinajoki"` -> 5), else None."""
    known = tourist_name(name)
    return TOURIST_CARDS[known] if known else None


BONUSES = (
    # measure, points, step label, what the bonus is for
    ("longest_route", 5, "Longest route", "the longest route"),
    ("tunnels", 15, "Most tunnels", "the most tunnels"),
    ("ferries", 15, "Most ferries", "the most ferries"),
    ("longest_journey", 20, "Longest journey", "the longest journey"),
    ("cities_visited", 10, "Most cities visited", "the most cities visited"),
    ("valid_tickets", 10, "Most valid tickets", "the most valid tickets"),
    ("foreign_countries", 25, "Most foreign countries", "the most foreign countries visited"),
    ("perimeter_path", 25, "Longest perimeter path", "the longest perimeter path"),
)
"""The eight bonus cards in the rulebook's order; `valid_tickets` is counted from the completed tickets."""
MEASURES = tuple(key for key, *_ in BONUSES if key != "valid_tickets")
"""The measures entered per player."""
MEASURE_HELP = {
    "longest_route": "the player's longest route",
    "tunnels": "tunnels the player built",
    "ferries": "ferries the player used",
    "longest_journey": "the player's longest journey",
    "cities_visited": "cities the player visited",
    "foreign_countries": "foreign countries the player visited",
    "perimeter_path": "the player's longest perimeter path",
}


class TicketToFinland(Game):
    """Ticket to Finland (fan expansion for Ticket to Ride: tourist cards and eight bonus cards)."""

    id = "ticket-to-finland"
    name = "Ticket to Finland"
    rulebook = "002"
    seating_hint = "start with the youngest player (who plays first), then clockwise"
    summary = (
        "One round, scored at the end of the game in the rulebook's order: A. subtract every failed ticket "
        "and tourist card; B. award the bonus cards to the player with the greatest measure — longest route 5, "
        "most tunnels 15, most ferries 15, longest journey 20, most cities visited 10, most valid (completed) "
        "tickets 10, most foreign countries 25, longest perimeter path 25 (nobody when the greatest is 0; "
        "a tie: every tied player, or nobody with bonus_tie = \"none\"); C. add every completed ticket and "
        "tourist card; then routes by length (1→1, 2→2, 3→4, 4→7, 5→10, 6→15, 7→18, 8→21, 9→27) or the "
        "score track. Each player keeps at least 3 tickets and 3 tourist cards; a tourist card printed in the "
        "rulebook's card table takes its printed value; rule trains (45) is the wagons each player has. "
        "The highest total wins; a tie is a shared victory."
    )
    compared = frozenset({"bonus"})
    groups = MappingProxyType({"bonus": "bonuses", "tourist": "tourists", "ticket": "tickets", "routes": "routes"})
    losses = MappingProxyType({"ticket": "failed tickets", "tourist": "failed tourists"})
    rules = (
        Rule("bonus_tie", "all", "a bonus card when players tie for the greatest measure: all (every tied "
             "player receives it) or none (nobody does)", choices=("all", "none"), kind="choice"),
        Rule("trains", TRAINS, f"wagons each player has, the limit of the checks (rulebook 002: \"preferably the "
             f"full {TRAINS}\")", lo=1),
    )
    fields = (
        IntField("route_points", "Route points", "points for claimed routes, as on the score track", lo=0),
        CountsField("routes", "Routes", "claimed routes counted by length in trains (1 to 9)",
                    keys=LENGTHS, what="route length"),
        CardListField("tickets", "Tickets", TICKETS_HELP, lo=1),
        CardListField("tourists", "Tourist cards",
                      "tourist cards: points (3 to 8), completed = true/false, name (\"Pori\"; a card printed in "
                      "the rulebook takes its value, so its points may be left out)", lo=3, hi=8, needs_points=False,
                      deck=tourist_value, names=tuple(TOURIST_CARDS)),
        *(IntField(key, label, MEASURE_HELP[key], lo=0) for key, _, label, _ in BONUSES if key in MEASURES),
    )

    # -- steps ----------------------------------------------------------------------
    def steps(self, session: HasRules) -> tuple[Step, ...]:
        """A. Deductions, B. Bonuses, C. Completed cards, Routes, Summary."""
        values = ", ".join(f"{label.lower()} {points}" for _, points, label, _ in BONUSES)
        return (
            Step("deductions", "A. Deductions", (("tickets", None), ("tourists", None)), ("ticket", "tourist"),
                 "Reveal the tickets and tourist cards, each marked completed or not: the failed ones are "
                 "subtracted now.", sign=-1),
            Step("bonuses", "B. Bonuses", tuple((key, None) for key in MEASURES),
                 tuple(f"bonus:{key}" for key, *_ in BONUSES),
                 f"Each bonus card goes to the greatest measure ({values}); most valid tickets is counted "
                 "from the completed tickets."),
            Step("completed", "C. Completed cards", (), ("ticket", "tourist"),
                 "The completed tickets and tourist cards are added.", sign=1),
            Step("routes", "Routes", (("routes", None), ("route_points", None)), ("routes",),
                 "Routes claimed, counted by length (1→1, 2→2, 3→4, 4→7, 5→10, 6→15, 7→18, 8→21, 9→27), "
                 "or the points on the score track.", either=True),
            Step("summary", "Summary", (), (), "The final points, player by player."),
        )

    # -- what each player did ---------------------------------------------------------
    def routes(self, session: Session, number: int) -> dict[str, Routes]:
        """Each player's route points and trains used."""
        rnd = session.round(number)
        return {p: routes_of(rnd.entry(p)) for p in session.players}

    def cards(self, session: Session, number: int, player: str) -> tuple[list[Card], list[Card]]:
        """The player's tickets and tourist cards as scored."""
        entry = session.round(number).entry(player)
        tourists = [card_of(card, f"tourist card {card['name']}" if card.get("name") else f"tourist card {i}",
                            tourist_value(card.get("name") or ""))
                    for i, card in enumerate(entry.get("tourists", []), start=1)]
        return cards_of(entry, "tickets", "ticket"), tourists

    def measures(self, session: Session, number: int, key: str) -> dict[str, int]:
        """Each player's measure for a bonus card (valid tickets: the completed tickets)."""
        if key == "valid_tickets":
            return {p: sum(1 for c in self.cards(session, number, p)[0] if c.completed) for p in session.players}
        rnd = session.round(number)
        return {p: int(rnd.entry(p).get(key, 0)) for p in session.players}

    # -- checks ---------------------------------------------------------------------
    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Errors: over rule trains, a tourist card valued other than printed or without points; warnings: figures
        that disagree, no end of game, fewer than 3 tickets or tourist cards kept."""
        problems = route_checks(session, number, self.routes(session, number), int(self.rule(session, "trains")))
        rnd = session.round(number)
        for p in session.players:
            for i, card in enumerate(rnd.entry(p).get("tourists", []), start=1):
                at = location(number, p, "tourists", i)
                name = card.get("name") or ""
                known = tourist_name(name)
                if known is None and "points" not in card:
                    problems.append(Problem(
                        f"the tourist card {name + ' ' if name else ''}has no points and is not one printed in the "
                        "rulebook's card table; give points = a whole number from 3 to 8",
                        "error", at, round=number, player=p, field="tourists"))
                elif known is not None and "points" in card and card["points"] != TOURIST_CARDS[known]:
                    problems.append(Problem(
                        f"{known} is a {TOURIST_CARDS[known]} on its card (rulebook 002), but points is "
                        f"{card['points']}; write points = {TOURIST_CARDS[known]}, or leave points out",
                        "error", f"{at}.points", round=number, player=p, field="tourists",
                        said=f"{known} is a {TOURIST_CARDS[known]} on its card (rulebook 002), not "
                             f"{card['points']}: type its name alone, or {TOURIST_CARDS[known]} {known}"))
        source = "rulebook 002: at least 3 route cards and at least 3 tourist cards"
        problems += kept_checks(session, number, "tickets", 3, ("ticket", "tickets"), source)
        problems += kept_checks(session, number, "tourists", 3, ("tourist card", "tourist cards"), source)
        return problems

    # -- scoring --------------------------------------------------------------------
    def score_round(self, session: Session, number: int) -> list[Item]:
        """A. failed tickets and tourist cards, B. the bonuses, C. completed cards, then routes."""
        items: list[Item] = []
        cards = {p: self.cards(session, number, p) for p in session.players}
        for p in session.players:
            tickets, tourists = cards[p]
            items.extend(card_items(p, tickets, "ticket", lambda c: not c.completed))
            items.extend(card_items(p, tourists, "tourist", lambda c: not c.completed))
        for key, points, _, what in BONUSES:
            items.extend(self.bonus_items(session, number, key, points, what))
        for p in session.players:
            tickets, tourists = cards[p]
            items.extend(card_items(p, tickets, "ticket", lambda c: c.completed))
            items.extend(card_items(p, tourists, "tourist", lambda c: c.completed))
        items.extend(routes_items(session, number, self.routes(session, number)))
        return items

    def bonus_items(self, session: Session, number: int, key: str, points: int, what: str) -> list[Item]:
        """One bonus card: to the greatest measure; a tie per rule bonus_tie; nobody when the greatest is 0."""
        values = self.measures(session, number, key)
        leaders, top = bonus_holders(values)
        if not leaders:
            return []
        category = f"bonus:{key}"
        missed = missed_items(values, leaders, category, what.removeprefix("the "),
                              str(top))
        if len(leaders) == 1:
            p = leaders[0]
            nxt = max(v for q, v in values.items() if q != p)
            return [Item(p, category, whole(points), f"{what} ({top}; next best {nxt}): +{points}"), *missed]
        if self.rule(session, "bonus_tie") == "none":
            return [Item(p, category, whole(0), f"tied with {names([q for q in leaders if q != p])} for {what} "
                         f"({top} each): no bonus (rule bonus_tie = \"none\")") for p in leaders] + missed
        return [
            Item(p, category, whole(points),
                 f"tied with {names([q for q in leaders if q != p])} for {what} ({top} each): +{points} "
                 "(rule bonus_tie = \"all\")")
            for p in leaders
        ] + missed

    # -- the end --------------------------------------------------------------------
    def ranking(
        self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction]
    ) -> tuple[list[Place], str | None]:
        """By total only: a tie for first is a shared victory."""
        places, _ = rank(session.players, totals)
        first = places[0]
        if len(first.players) < 2:
            return places, None
        return places, (f"{names(first.players)} tied on {fmt(first.total)}: a shared victory "
                        "(Ticket to Finland has no tie-break)")

    # -- after play ---------------------------------------------------------------
    def figures(self, counts: Mapping[str, list[int]], categories: Mapping[str, int],
                board: str | None) -> dict[str, Any]:
        """The tourist cards' points and each bonus card's points over all games, most first."""
        bonuses: list[dict[str, Any]] = [
            {"bonus": k.split(":", 1)[1], "label": k.split(":", 1)[1].replace("_", " ").capitalize(),
             "points": Fraction(v, 2)} for k, v in categories.items() if k.startswith("bonus:")]
        bonuses.sort(key=lambda r: (-Fraction(r["points"]), str(r["bonus"])))
        return {"finland": {"tourists": Fraction(categories.get("tourist", 0), 2), "bonuses": bonuses}}

    def figure_lines(self, own: Mapping[str, Any], board: str | None, fig: Figure, pct: Rate) -> list[tuple[str, str]]:
        """`Tourist cards: 12 points; bonuses: Longest route 5, …`."""
        fin = own.get("finland")
        if not fin:
            return []
        return [("Tourist cards", f"{fig(fin['tourists'])} points; bonuses: "
                 + (", ".join(f"{b['label']} {fig(b['points'])}" for b in fin["bonuses"]) or "none"))]
