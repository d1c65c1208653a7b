"""The figures behind the charts of a game: running totals by round and each player's points by category."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from scorekeeper.games import GROUPS, LOSSES, get
from scorekeeper.games.base import Sheet
from scorekeeper.model.points import ZERO


def group_of(category: str, points: Fraction = ZERO) -> str:
    """The share a category counts in, as its game says (`GROUPS`; else the part after `:`, else the category).

    A loss in a category of the games' `LOSSES` counts apart (`ticket` at -8 → `failed tickets`).
    """
    head, _, tail = category.partition(":")
    if points < 0 and head in LOSSES:
        return LOSSES[head]
    if head in GROUPS:
        return GROUPS[head]
    return tail or head


@dataclass(frozen=True)
class Step:
    """One round of the running totals: each player's points in the round and their total after it."""

    number: int
    complete: bool
    gained: dict[str, Fraction]
    totals: dict[str, Fraction]
    extra: bool = False
    """An extra round, played past the schedule to break a tie (Ticket to Mars)."""

    def leaders(self) -> list[str]:
        """The players with the most points after this round."""
        best = max(self.totals.values())
        return [p for p, v in self.totals.items() if v == best]


def running_totals(sheet: Sheet) -> list[Step]:
    """The totals after each round, in the seating order of the players."""
    players = sheet.session.players
    scheduled = get(sheet.session.game).scheduled_rounds(sheet.session)
    totals = {p: ZERO for p in players}
    out: list[Step] = []
    for rnd in sheet.rounds:
        totals = {p: totals[p] + rnd.points.get(p, ZERO) for p in players}
        out.append(Step(rnd.number, rnd.complete, {p: rnd.points.get(p, ZERO) for p in players}, totals,
                        rnd.number > scheduled))
    return out


@dataclass(frozen=True)
class Split:
    """One player's points by category share over the whole game (shares in the game's order, zeros left out)."""

    player: str
    total: Fraction
    shares: tuple[tuple[str, Fraction], ...]

    def positive(self) -> Fraction:
        """The sum of the shares that add points."""
        return sum((v for _, v in self.shares if v > 0), ZERO)

    def negative(self) -> Fraction:
        """The sum of the shares that take points away (zero or less)."""
        return sum((v for _, v in self.shares if v < 0), ZERO)


def groups(sheet: Sheet) -> list[str]:
    """The category shares of the game, in the order the scoring first reaches them."""
    seen: dict[str, None] = {}
    for rnd in sheet.rounds:
        for item in rnd.items:
            if item.points:  # a 0-point item says why nothing scored: no share
                seen.setdefault(group_of(item.category, item.points), None)
    return list(seen)


def by_category(sheet: Sheet) -> list[Split]:
    """Each player's points over every round, summed by share (net: a share may be negative)."""
    order = groups(sheet)
    sums = {p: {g: ZERO for g in order} for p in sheet.session.players}
    touched: dict[str, set[str]] = {p: set() for p in sheet.session.players}
    for rnd in sheet.rounds:
        for item in (i for i in rnd.items if i.points):
            group = group_of(item.category, item.points)
            sums[item.player][group] += item.points
            touched[item.player].add(group)
    return [
        Split(p, sheet.totals[p], tuple((g, sums[p][g]) for g in order if g in touched[p] and sums[p][g] != 0))
        for p in sheet.session.players
    ]
