"""Ticket to Mars: three objective cards scored per round, extra rounds until one player leads (rulebook 004)."""

from __future__ import annotations

from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING

from scorekeeper.games.base import Game, Item, Place, RoundScore, Rule, Step, add_items, most, names, plural, rank
from scorekeeper.games.fields import ObjectiveField
from scorekeeper.model.points import ZERO, fmt, whole
from scorekeeper.model.problems import Problem, location

if TYPE_CHECKING:
    from scorekeeper.games.base import HasRules
    from scorekeeper.model.session import Session

OBJECTIVES = (
    # key, card title, unit (singular, plural): in the rulebook's order
    ("pairs", "Pairs", ("pair", "pairs")),
    ("occupancy", "Occupancy", ("qualifying spaceship", "qualifying spaceships")),
    ("character", "Character", ("crew tile", "crew tiles")),
)
CREW_TILES = 30
MOST_COUNT = {"pairs": CREW_TILES // 2, "character": CREW_TILES}
"""The most a card can count: 30 Crew tiles make at most 15 pairs; the Occupancy limit depends on the board."""


def leaders(players: tuple[str, ...], totals: dict[str, Fraction]) -> tuple[list[str], Fraction]:
    """The players with the most points (seating order) and that total."""
    return most({p: totals[p] for p in players})


def fewest(players: tuple[str, ...], totals: dict[str, Fraction]) -> list[str]:
    """The players with the fewest points, in seating order."""
    return most({p: -totals.get(p, ZERO) for p in players})[0]


class TicketToMars(Game):
    """Ticket to Mars (crew tiles on spaceships, objective cards revealed at the end of a round)."""

    id = "ticket-to-mars"
    name = "Ticket to Mars"
    rulebook = "004"
    seating_hint = "seating order, clockwise; the first listed player starts round 1"
    summary = (
        "Each round every player reveals three objective cards: Pairs (points per pair in the same spaceship), "
        "Occupancy (points per spaceship that meets the card), Character (points per crew tile); each scores "
        "count × points on the card. Points carry over from round to round. After the last round the most "
        "points win; a tie for the most means an extra round, again until one player leads. Round 1 starts "
        "with the first listed player, every later round with the player who has the fewest points (a tie: the "
        "tied players may draw for it, as the rulebook chooses at random; the app assumes the first of them seated)."
    )
    groups = MappingProxyType({"ticket": "tickets", "routes": "routes"})
    losses = MappingProxyType({"ticket": "failed tickets"})
    rules = (
        Rule("rounds", 1, "how many rounds are scheduled (a tie for the most points after them adds extra rounds)",
             lo=1),
    )
    fields = tuple(
        ObjectiveField(key, title, f"the {title} card: {unit[1]} achieved (count) and points for each (each)")
        for key, title, unit in OBJECTIVES
    )

    # -- steps ----------------------------------------------------------------------
    def steps(self, session: HasRules) -> tuple[Step, ...]:
        """Pairs, Occupancy, Character, Summary."""
        helps = {
            "pairs": "Pairs card: how many pairs does each player have in the same spaceship, "
                     "and how many points does the card give per pair?",
            "occupancy": "Occupancy card: how many spaceships meet the card (occupants, or more adults than "
                         "young people or the other way around), and how many points per spaceship?",
            "character": "Character card: how many of the card's crew tiles are in the spaceships, "
                         "and how many points per tile?",
        }
        cards = tuple(
            Step(f"objective:{key}", title, ((key, "count"), (key, "each")), (f"objective:{key}",), helps[key])
            for key, title, _ in OBJECTIVES
        )
        return (*cards, Step("summary", "Summary", (), (), "The round's points and the totals so far."))

    # -- rounds ---------------------------------------------------------------------
    def scheduled_rounds(self, session: Session) -> int:
        """Rule `rounds` (1)."""
        return int(self.rule(session, "rounds"))

    def allows_extra_rounds(self) -> bool:
        """Extra rounds follow a tie for the most points; `check_session` checks each one."""
        return True

    def first_player(self, session: Session, number: int, totals_before: dict[str, Fraction]) -> str:
        """Round 1: the first listed player; later rounds: the fewest points (a tie: the first of them seated)."""
        if number <= 1:
            return session.players[0]
        return fewest(session.players, totals_before)[0]

    def first_player_text(self, session: Session, number: int, totals_before: dict[str, Fraction]) -> str:
        """`Cy`; on a tie for the fewest points, who was assumed and that the tied players may draw for it."""
        first = self.first_player(session, number, totals_before)
        tied = fewest(session.players, totals_before) if number > 1 else [first]
        if len(tied) < 2:
            return first
        return (f"{first} — {names(tied)} are tied for the fewest points and may draw for it; {first}, "
                "first in seating order, is assumed")

    def _objective(self, session: Session, number: int, player: str, key: str) -> tuple[int, int]:
        card = session.round(number).entry(player).get(key, {})
        return int(card.get("count", 0)), int(card.get("each", 0))

    # -- checks ---------------------------------------------------------------------
    def check_session(self, session: Session) -> list[Problem]:
        """The rounds' checks, and an error for a round past the schedule that no tie for the most points called for."""
        problems = super().check_session(session)
        scheduled = self.scheduled_rounds(session)
        players = session.players
        totals = {p: ZERO for p in players}
        for number in range(1, len(session.rounds) + 1):
            if number > scheduled:
                reason = self._no_extra_round(session, number - 1, totals)
                if reason:
                    problems.insert(0, Problem(
                        f"round {number} is an extra round (rule rounds = {scheduled}), but {reason}; "
                        "an extra round is played only when the rounds before it end in a tie for the most "
                        "points — remove this round, or raise rule rounds if it was a scheduled one",
                        path=location(number), round=number))
                    break
            points = add_items(players, self.scored_round(session, number))
            for p in players:
                totals[p] += points[p]
        return problems

    def _no_extra_round(self, session: Session, before: int, totals: dict[str, Fraction]) -> str | None:
        """Why no extra round may follow round `before` (None when the players tied for the most)."""
        for number in range(1, before + 1):
            missing = [p for p in session.players if p not in session.round(number).players]
            if missing:
                return f"round {number} is not finished (no scores for {names(missing)})"
        tied, top = leaders(session.players, totals)
        if len(tied) > 1:
            return None
        runner_up, second = leaders(tuple(p for p in session.players if p != tied[0]), totals)
        return f"{tied[0]} leads on {fmt(top)} after round {before} (next best: {names(runner_up)} on {fmt(second)})"

    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Warnings: a count with no points per unit, more pairs or crew tiles than the 30 Crew tiles allow."""
        problems: list[Problem] = []
        for p in session.players:
            for key, title, unit in OBJECTIVES:
                count, each = self._objective(session, number, p, key)
                at = location(number, p, key)
                if count and not each:
                    problems.append(Problem(
                        f"{p}'s {title} card counts {plural(count, *unit)} but each = 0, so it scores nothing; "
                        f"give each = the points per {unit[0]} printed on the card",
                        "warning", f"{at}.each", round=number, player=p, field=key))
                most = MOST_COUNT.get(key)
                if most is not None and count > most:
                    why = (f"{CREW_TILES} Crew tiles make at most {most} pairs" if key == "pairs"
                           else f"there are {CREW_TILES} Crew tiles")
                    problems.append(Problem(
                        f"{p}'s {title} card counts {plural(count, *unit)}, but {why}",
                        "warning", f"{at}.count", round=number, player=p, field=key))
        return problems

    # -- scoring --------------------------------------------------------------------
    def score_round(self, session: Session, number: int) -> list[Item]:
        """Pairs, Occupancy, Character: count × each, player by player in seating order."""
        items: list[Item] = []
        for key, _, unit in OBJECTIVES:
            for p in session.players:
                count, each = self._objective(session, number, p, key)
                if count * each:
                    items.append(Item(p, f"objective:{key}", whole(count * each),
                                      f"{plural(count, *unit)} × {each} = {count * each}"))
        return items

    # -- the end --------------------------------------------------------------------
    def ranking(
        self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction]
    ) -> tuple[list[Place], str | None]:
        """Competition ranking by total (no chain: extra rounds settle a tie), and the story of the tie for first."""
        places, _ = rank(session.players, totals)
        return places, self.tie_story(session, rounds, totals)

    def tie_story(self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction]) -> str | None:
        """How the tie for the most points stands or was settled by extra rounds; None when nobody tied for first."""
        players = session.players
        scheduled = self.scheduled_rounds(session)
        done = 0
        while done < len(rounds) and rounds[done].complete:
            done += 1
        if done < scheduled:
            tied, top = leaders(players, totals)
            if len(tied) < 2 or not any(r.players for r in session.rounds):
                return None
            return f"{names(tied)} tied on {fmt(top)} so far: the game goes on"
        after = {p: ZERO for p in players}
        for r in rounds[:scheduled]:
            for p in players:
                after[p] += r.points[p]
        tied, top = leaders(players, after)
        if len(tied) < 2:
            return None
        parts = [f"{names(tied)} tied on {fmt(top)} after round {scheduled}"]
        extras = done - scheduled
        for number in range(scheduled + 1, done + 1):
            for p in players:
                after[p] += rounds[number - 1].points[p]
            label = (f"extra round {number - scheduled} (round {number})" if extras > 1
                     else f"the extra round (round {number})")
            now, top = leaders(players, after)
            if len(now) == 1:
                shown = [now[0], *sorted((p for p in tied if p != now[0]), key=lambda p: -after[p])]
                parts.append(f"{label} decided it: " + ", ".join(f"{p} {fmt(after[p])}" for p in shown))
                return "; ".join(parts)
            who = "still" if now == tied else names(now)
            parts.append(f"{who} tied on {fmt(top)} after {label}")
            tied = now
        return "; ".join(parts) + (": an extra round decides" if extras == 0 else ": another extra round decides")

    def progress(
        self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction], ranking: list[Place]
    ) -> tuple[bool, str | None]:
        """Missing rounds first; after the schedule, a tie for the most points calls for an extra round."""
        for r in rounds:
            if not r.complete:
                before = {p: sum((s.points[p] for s in rounds[:r.number - 1]), ZERO) for p in session.players}
                first = self.first_player_text(session, r.number, before)
                return False, f"score round {r.number} (first player: {first})"
        number = len(rounds) + 1
        first = self.first_player_text(session, number, totals)
        if len(rounds) < self.scheduled_rounds(session):
            return False, f"score round {number} (first player: {first})"
        tied, top = leaders(session.players, totals)
        if len(tied) > 1:
            return False, f"extra round: {names(tied)} tied on {fmt(top)} (first player: {first})"
        return True, None
