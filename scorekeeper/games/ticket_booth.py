"""The Ticket Booth: three rounds of attraction majorities, special cards and tickets (rulebook 000)."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from scorekeeper.games.base import Game, HasRules, Item, RoundScore, Rule, Step, TieBreak, most, names, plural
from scorekeeper.games.fields import CountsField, HolderField, IntField
from scorekeeper.games.records import Figure, Rate
from scorekeeper.model.points import fmt, half, whole
from scorekeeper.model.problems import Problem, location

if TYPE_CHECKING:
    from scorekeeper.model.session import Session

ATTRACTIONS = tuple(range(1, 12))
_KEYS = tuple((n, str(n)) for n in ATTRACTIONS)
SPECIALS = (
    ("ticket_booth", "Ticket Booth"),
    ("demolition_derby", "Demolition Derby"),
    ("piglet_race", "Piglet Race"),
)
TICKETS_EACH = 5
CARDS = 72


class TicketBooth(Game):
    """The Ticket Booth (county-fair card game)."""

    id = "ticket-booth"
    name = "The Ticket Booth"
    rulebook = "000"
    seating_hint = "start with the oldest player, then clockwise; the first player rotates each round"
    summary = (
        "Each round: attractions #1 to #11, lowest first — the most cards of #n score n, "
        "players tied for the most score n/2 each, all n cards score 2n. Outhouse: all three "
        "+8, otherwise -2 each. Ticket Booth: +4 to its holder with the most tickets. "
        "Demolition Derby: +4, its holder's tickets score nothing. Tickets: 1 point each. "
        "Three rounds; the highest total wins, a tie goes to the best last round, then is shared."
    )
    compared = frozenset({"attraction", "ticket-booth"})
    groups = MappingProxyType({"attraction": "attractions", "outhouse": "outhouses", "ticket-booth": "Ticket Booth",
                               "demolition-derby": "Demolition Derby", "tickets": "tickets"})
    losses = MappingProxyType({"outhouse": "Outhouses lost"})
    rules = (
        Rule("rounds", 3, "how many rounds the game lasts", lo=1),
        Rule("booth_tie", "full", "Ticket Booth when its holder ties for the most tickets: "
             "full +4, half +2, none 0", choices=("full", "half", "none"), kind="choice"),
        Rule("attraction_names", None, "display names of attractions, e.g. { \"4\" = \"Pie\" }",
             kind="names"),
    )
    fields = (
        CountsField("attractions", "Attractions", "cards of each attraction held (#n has n cards)",
                    keys=ATTRACTIONS, max_for=lambda n: n, what="attraction number"),
        IntField("outhouses", "Outhouses", "Outhouse cards held (0 to 3)", lo=0, hi=3),
        HolderField("ticket_booth", "Ticket Booth", "holds the Ticket Booth card"),
        HolderField("demolition_derby", "Demolition Derby", "holds the Demolition Derby card"),
        HolderField("piglet_race", "Piglet Race", "holds the Piglet Race card (scores nothing)"),
        IntField("tickets", "Tickets", "tickets held at the end of the round", lo=0),
    )

    # -- rules --------------------------------------------------------------------
    def check_rules(self, rules: dict[str, Any]) -> list[Problem]:
        """The generic checks, plus the attraction names table."""
        problems = super().check_rules(rules)
        names_ = rules.get("attraction_names")
        if names_ is not None:
            if not isinstance(names_, dict):
                problems.append(Problem("expected a table like { \"4\" = \"Pie\" }", path="rules.attraction_names"))
            else:
                for key, value in names_.items():
                    if key not in {str(n) for n in ATTRACTIONS}:
                        problems.append(Problem(f"{key!r} is not an attraction; allowed: 1 to 11",
                                                path=f'rules.attraction_names."{key}"'))
                    elif not isinstance(value, str):
                        problems.append(Problem("expected text, the attraction's name",
                                                path=f'rules.attraction_names."{key}"'))
        return problems

    def label(self, session: HasRules, n: int) -> str:
        """`#4 Pie` with a display name, else `#4`."""
        names_ = session.rules.get("attraction_names") or {}
        name = names_.get(str(n)) if isinstance(names_, dict) else None
        return f"#{n} {name}" if name else f"#{n}"

    # -- steps ----------------------------------------------------------------------
    def steps(self, session: HasRules) -> tuple[Step, ...]:
        """#1 … #11, Outhouse, Ticket Booth, Demolition Derby, Tickets, Summary."""
        if session.rules.get("attraction_names"):
            return self._steps(session)
        if self._plain_steps is None:
            self._plain_steps = self._steps(session)
        return self._plain_steps

    _plain_steps: tuple[Step, ...] | None = None  # the steps without attraction names (they are the same for all)

    def _steps(self, session: HasRules) -> tuple[Step, ...]:
        attractions = tuple(
            Step(f"attraction:{n}", self.label(session, n), (("attractions", str(n)),), (f"attraction:{n}",),
                 f"How many {self.label(session, n)} cards does each player hold? (0 to {n})")
            for n in ATTRACTIONS
        )
        return (*attractions,
                Step("outhouse", "Outhouse", (("outhouses", None),), ("outhouse",),
                     "How many Outhouse cards does each player hold? All three: +8, otherwise -2 each."),
                Step("ticket-booth", "Ticket Booth", (("ticket_booth", None),), ("ticket-booth",),
                     "Who holds the Ticket Booth? +4 if they hold the most tickets."),
                Step("demolition-derby", "Demolition Derby", (("demolition_derby", None),), ("demolition-derby",),
                     "Who holds the Demolition Derby? +4, and their tickets do not score."),
                Step("tickets", "Tickets", (("tickets", None), ("piglet_race", None)), ("tickets",),
                     "How many tickets does each player hold? 1 point each. (Piglet Race scores nothing.)"),
                Step("summary", "Summary", (), (), "The round's points, player by player."))

    # -- rounds ---------------------------------------------------------------------
    def scheduled_rounds(self, session: Session) -> int:
        """Rule `rounds` (3)."""
        return int(self.rule(session, "rounds"))

    def first_player(self, session: Session, number: int, totals_before: dict[str, Fraction]) -> str:
        """The starting player rotates clockwise: round k starts with players[(k-1) mod N]."""
        return session.players[(number - 1) % len(session.players)]

    def _counts(self, session: Session, number: int) -> dict[int, dict[str, int]]:
        """Each attraction's cards held per player in round `number` (read once for all eleven)."""
        last = self._last_counts
        if last is not None and last[0] is session and last[1] == number:
            return last[2]
        rnd = session.round(number)
        players = session.players
        held = [rnd.entry(p).get("attractions", {}) for p in players]
        every = {n: {p: int(h.get(key, 0)) for p, h in zip(players, held, strict=True)} for n, key in _KEYS}
        self._last_counts = session, number, every
        return every

    _last_counts: tuple[Session, int, dict[int, dict[str, int]]] | None = None  # checks, then scores, one round

    def _int(self, session: Session, number: int, key: str) -> dict[str, int]:
        rnd = session.round(number)
        return {p: int(rnd.entry(p).get(key, 0)) for p in session.players}

    def _holders(self, session: Session, number: int, key: str) -> list[str]:
        rnd = session.round(number)
        return [p for p in session.players if rnd.entry(p).get(key, False) is True]

    # -- checks ---------------------------------------------------------------------
    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Errors at every field of what cannot exist in the box (more #n cards than n, a special card held twice,
        over 3 Outhouses, over 5 tickets per player); warnings: a deal that does not add up."""
        problems: list[Problem] = []
        players = session.players
        count = len(players)
        rnd = session.round(number)

        def err(msg: str, fld: str, player: str, *sub: str) -> None:
            problems.append(Problem(msg, "error", location(number, player, fld, *sub),
                                    round=number, player=player, field=fld))

        def warn(msg: str, fld: str | None = None, player: str | None = None, key: str | None = None) -> None:
            problems.append(Problem(msg, "warning", location(number, player, fld) if player else location(number),
                                    round=number, player=player, field=fld, key=key))

        every = self._counts(session, number)
        for n in ATTRACTIONS:
            counts = every[n]
            total = sum(counts.values())
            if total > n:
                held = ", ".join(f"{p} {c}" for p, c in counts.items() if c)
                for p in (p for p, c in counts.items() if c):
                    err(f"the {self.label(session, n)} cards add up to {total} ({held}), but there are only {n}",
                        "attractions", p, str(n))
        for key, title in SPECIALS:
            holders = self._holders(session, number, key)
            if len(holders) > 1:
                for p in holders:
                    err(f"the {title} is held by {names(holders)}; there is one {title} card, "
                        "so at most one player holds it", key, p)
        outhouses = self._int(session, number, "outhouses")
        if sum(outhouses.values()) > 3:
            held = ", ".join(f"{p} {n}" for p, n in outhouses.items() if n)
            for p in (p for p, n in outhouses.items() if n):
                err(f"{sum(outhouses.values())} Outhouses are held ({held}); there are 3 Outhouse cards",
                    "outhouses", p)
        tickets = self._int(session, number, "tickets")
        limit = TICKETS_EACH * count
        if sum(tickets.values()) > limit:
            held = ", ".join(f"{p} {n}" for p, n in tickets.items() if n)
            for p in (p for p, n in tickets.items() if n):
                err(f"{sum(tickets.values())} tickets are held ({held}); a {count}-player game has "
                    f"{limit} tickets ({TICKETS_EACH} per player)", "tickets", p)
        if any(p.is_error for p in problems):
            return problems

        if not rnd.is_complete(players):
            return problems
        if count <= 4:
            for n in ATTRACTIONS:
                total = sum(every[n].values())
                if total < n and n == 1:  # one card: nobody holds it
                    warn(f"nobody holds the {self.label(session, n)} card, but every card is taken "
                         f"in a {count}-player game", "attractions", key=str(n))
                elif total < n:
                    warn(f"the {self.label(session, n)} cards add up to {total}, but all {n} are taken "
                         f"in a {count}-player game", "attractions", key=str(n))
            if sum(outhouses.values()) != 3:
                warn(f"the Outhouses add up to {sum(outhouses.values())}, but all 3 are taken "
                     f"in a {count}-player game", "outhouses")
            for key, title in SPECIALS:
                if not self._holders(session, number, key):
                    warn(f"nobody holds the {title}, but every card is taken in a {count}-player game", key)
            if sum(tickets.values()) != limit:
                warn(f"the tickets add up to {sum(tickets.values())}, but all {limit} stay with the players "
                     f"in a {count}-player game", "tickets")
        each = CARDS // count if count <= 4 else 14
        held_all = 0
        for p in players:
            cards = self.cards_held(session, number, p)
            held_all += cards
            if cards != each:
                where = "every card is taken" if count <= 4 else "one pair stays on the table"
                warn(f"{p} holds {plural(cards, 'card')}, but each player holds {each} in a {count}-player game "
                     f"({where})", None, p)
        if count == 5 and held_all != CARDS - 2:
            warn(f"the players hold {held_all} cards in all, but 70 are held in a 5-player game "
                 "(one pair stays on the table)")
        return problems

    def cards_held(self, session: Session, number: int, player: str) -> int:
        """How many cards a player holds in a round: attractions, Outhouses and special cards."""
        entry = session.round(number).entry(player)
        held = sum(int(c) for c in entry.get("attractions", {}).values()) + int(entry.get("outhouses", 0))
        return held + sum(1 for key, _ in SPECIALS if entry.get(key, False) is True)

    # -- scoring --------------------------------------------------------------------
    def score_round(self, session: Session, number: int) -> list[Item]:
        """Attractions #1 to #11, Outhouse, Ticket Booth, Demolition Derby, Tickets."""
        items: list[Item] = []
        players = session.players
        every = self._counts(session, number)
        for n in ATTRACTIONS:
            items.extend(self._attraction(session, n, every[n]))
        outhouses = self._int(session, number, "outhouses")
        for p in players:
            k = outhouses[p]
            if k == 3:
                items.append(Item(p, "outhouse", whole(8), "all three Outhouses: +8"))
            elif k:
                items.append(Item(p, "outhouse", whole(-2 * k), f"{plural(k, 'Outhouse')} at -2 each"))
        tickets = self._int(session, number, "tickets")
        booth = self._holders(session, number, "ticket_booth")
        derby = self._holders(session, number, "demolition_derby")
        if booth:
            items.extend(self._booth(session, booth[0], tickets))
        if derby:
            d = derby[0]
            items.append(Item(d, "demolition-derby", whole(4),
                              f"holds the Demolition Derby: +4, and their {plural(tickets[d], 'ticket')} "
                              "do not score"))
        for p in players:
            if tickets[p] and (not derby or p != derby[0]):
                items.append(Item(p, "tickets", whole(tickets[p]), f"{plural(tickets[p], 'ticket')} at 1 each"))
            elif tickets[p]:  # the Demolition Derby holder: said where the tickets are scored
                verb = "scores" if tickets[p] == 1 else "score"
                items.append(Item(p, "tickets", whole(0),
                                  f"{plural(tickets[p], 'ticket')} {verb} 0: they hold the Demolition Derby"))
        return items

    def _attraction(self, session: Session, n: int, counts: dict[str, int]) -> list[Item]:
        leaders, top = most(counts)
        if top == 0:
            return []
        label = self.label(session, n)
        category = f"attraction:{n}"
        if top == n:
            every_card = f"the 1 {label} card" if n == 1 else f"all {n} {label} cards"
            return [Item(p, category, whole(2 * n), f"{every_card}: double {n}") for p in leaders]
        has = "has" if len(leaders) == 1 else "have"
        missed = [Item(p, category, whole(0),
                       f"{plural(c, f'{label} card')}, but {names(leaders)} {has} more ({top}): 0")
                  for p, c in counts.items() if 0 < c < top]  # every card that scored nothing, and why
        if len(leaders) == 1:
            p = leaders[0]
            others = sorted((c for q, c in counts.items() if q != p), reverse=True)
            nxt = f"; next best {others[0]}" if others else ""
            return [Item(p, category, whole(n), f"most {label} ({plural(top, 'card')}{nxt}): {n}"), *missed]
        return [
            *(Item(p, category, half(n),
                   f"tied with {names([q for q in leaders if q != p])} for most {label} "
                   f"({plural(top, 'card')} each): half of {n}")
              for p in leaders),
            *missed,
        ]

    def _booth(self, session: Session, holder: str, tickets: dict[str, int]) -> list[Item]:
        mine = tickets[holder]
        leaders, top = most(tickets)
        if mine == 0:
            return [Item(holder, "ticket-booth", whole(0),
                         "holds the Ticket Booth but no ticket (holding none is never the most): 0")]
        if mine < top:
            has = "holds" if len(leaders) == 1 else "each hold"
            return [Item(holder, "ticket-booth", whole(0),
                         f"holds the Ticket Booth with {plural(mine, 'ticket')}, but {names(leaders)} {has} more "
                         f"({top}): 0")]
        rivals = [p for p in leaders if p != holder]
        if not rivals:
            return [Item(holder, "ticket-booth", whole(4),
                         f"holds the Ticket Booth and the most tickets ({mine}): +4")]
        mode = self.rule(session, "booth_tie")
        value = {"full": whole(4), "half": whole(2), "none": whole(0)}[mode]
        return [Item(holder, "ticket-booth", value,
                     f"holds the Ticket Booth, tied with {names(rivals)} for the most tickets ({mine}): "
                     f"{fmt(value, signed=True)} (rule booth_tie = \"{mode}\")")]

    # -- the end --------------------------------------------------------------------
    def tiebreaks(self, session: Session, rounds: list[RoundScore]) -> list[TieBreak]:
        """A tie goes to the tied player with the highest score in the last round."""
        if not rounds:
            return []
        last = rounds[-1]
        return [TieBreak(lambda p: last.points[p], "scored more in the last round", fmt,
                         "they scored {} each in the last round")]

    # -- after play ---------------------------------------------------------------
    def figures(self, counts: Mapping[str, list[int]], categories: Mapping[str, int],
                board: str | None) -> dict[str, Any]:
        """Points by attraction and by special card over all games, most first."""
        attractions: list[dict[str, Any]] = [
            {"category": k, "label": f"#{k.split(':', 1)[1]}", "points": Fraction(v, 2)}
            for k, v in categories.items() if k.startswith("attraction:")]
        specials: list[dict[str, Any]] = [
            {"category": k, "label": k.replace("-", " ").title(), "points": Fraction(v, 2)}
            for k, v in categories.items() if k in SPECIAL_CATEGORIES]
        attractions.sort(key=lambda r: (-Fraction(r["points"]), int(str(r["category"]).split(":")[1])))
        specials.sort(key=lambda r: (-Fraction(r["points"]), str(r["category"])))
        return {"ticket_booth": {"attractions": attractions, "specials": specials}}

    def figure_lines(self, own: Mapping[str, Any], board: str | None, fig: Figure, pct: Rate) -> list[tuple[str, str]]:
        """`Points by attraction`, `Points by special`."""
        booth = own.get("ticket_booth")
        if not booth:
            return []
        return [(f"Points by {what}", ", ".join(f"{a['label']} {fig(a['points'])}" for a in booth[key]))
                for what, key in (("attraction", "attractions"), ("special", "specials"))]


SPECIAL_CATEGORIES = ("outhouse", "ticket-booth", "demolition-derby", "tickets")
"""The categories besides the attractions."""
