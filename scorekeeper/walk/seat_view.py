"""What one player's seat at the table may be shown of a round (SPEC §5, "Live sessions"), decided without a screen.

A seat walks the round as a `WalkState` filtered to its player; everything its card draws besides its own boxes is
one `SeatView`, computed by `seat_view` from the session, the player, the round and the step: its own values'
refusals and its points that tell nothing of the others (scored on its table alone), the others' progress (a step
filled or not), and everyone's points and who leads only once the round is revealed (`Game.revealed`: every player
has filled every step). No Textual here: it is tested alone, as non-interference.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from scorekeeper import games, walk
from scorekeeper.games.base import Game, Item, Step, names
from scorekeeper.model.session import Session, SessionError
from scorekeeper.model.text import inert

if TYPE_CHECKING:
    from scorekeeper.walk.document import Document
    from scorekeeper.walk.state import WalkState

CLASH = "this clashes with another player's value"
"""Why a value is refused when the round's errors are all about other players (whose values are not shown)."""


def table_round(doc: Document) -> int:
    """The round the table is walking (a new one when it is next), else the last one."""
    session = doc.session
    game = games.get(session.game)
    sheet = doc.sheet()
    where = walk.resume(game, session, sheet)
    if where is not None:
        return where[0]
    if walk.needs_new_round(game, session, sheet):
        return len(session.rounds) + 1
    return max(1, len(session.rounds))


def seat_player(state: WalkState) -> str:
    """The player the seat's walk is filtered to."""
    if state.player is None:
        raise ValueError("a seat walks the round of one player")
    return state.player


def first_step(state: WalkState) -> int:
    """The first step with an input of the seat's player not filled yet (else the Summary, the last step)."""
    player = seat_player(state)
    for i, step in enumerate(state.steps):
        slots = state.inputs[i]
        if slots and not walk.player_done(state.model, state.number, step, slots, player):
            return i
    return len(state.steps) - 1


def revealed(state: WalkState) -> bool:
    """Whether the round's values may be shown to the seat: every player has filled every step of it
    (`Game.revealed`, the one rule)."""
    return seat_player(state) in state.model.players and state.game.revealed(state.model, state.number)


def alone(session: Session, number: int, player: str) -> Session:
    """The session with only the player's table in round `number` (what the seat may know of that round)."""
    rounds = list(session.rounds)
    if number > len(rounds):
        return session
    rnd = rounds[number - 1]
    rounds[number - 1] = replace(rnd, players={player: rnd.entry(player)} if player in rnd.players else {})
    return replace(session, rounds=tuple(rounds))


def refusal(game: Game, session: Session, number: int, player: str, step: Step, slot: walk.Slot,
            value: Any) -> str:
    """Why the seat's value was refused, in the seat's own values only: the round's error about its table alone,
    else that the value does not fit with the others' (whose values are not named)."""
    if value is None or isinstance(value, (dict, list)):
        return CLASH
    own = walk.with_slot(alone(session, number, player), number, player, slot, value)
    mine = [p for p in walk.errors(walk.round_check(game, own, number)) if p.player in (player, None)]
    if mine:
        return inert(mine[0].message)
    if value is True:
        return inert(f"another player holds {step.title}")
    if isinstance(value, int) and not isinstance(value, bool):
        return inert(f"{value} is more than the others leave at {step.title}")
    return inert(f"{'no' if value is False else value} does not fit with the others' values at {step.title}")


def own_items(game: Game, session: Session, number: int, player: str) -> list[Item]:
    """The player's items of the round scored on its table alone, those that tell nothing of the others (no
    category the game compares, `Game.compared`; no other player named); the others wait for the reveal."""
    others = [p for p in session.players if p != player]
    mine = alone(session, number, player)
    if number > len(session.rounds) or walk.errors(walk.round_check(game, mine, number)):
        return []
    return [it for it in game.score_round(mine, number) if it.player == player
            and it.category.split(":")[0] not in game.compared and not any(name_in(p, it.why) for p in others)]


def lines_of(items: list[Item]) -> tuple[tuple[Fraction, str], ...]:
    """Items as (points, why)."""
    return tuple((it.points, it.why) for it in items)


def standing(game: Game, session: Session, number: int) -> str:
    """Who won (the round is the game's last and it is over) or who leads after round `number`, its rounds
    revealed; empty when one of them has an error."""
    from scorekeeper import games as all_games

    if number == len(session.rounds):
        try:
            sheet = all_games.score(session)
        except SessionError:
            return ""
        if walk.finished(game, session, sheet):
            return walk.won_text(game, session, sheet)
    totals = dict.fromkeys(session.players, Fraction(0))
    for n in range(1, min(number, len(session.rounds)) + 1):
        if walk.errors(walk.round_check(game, session, n)):
            return ""
        for it in game.score_round(session, n):
            totals[it.player] += it.points
    top = max(totals.values())
    leaders = [p for p in session.players if totals[p] == top]
    verb = "leads" if len(leaders) == 1 else "lead"
    return f"{names(leaders)} {verb} with {walk.points(top)} after round {number}"


@dataclass(frozen=True)
class SeatView:
    """All a seat's screen draws besides its own boxes: where it is, its own refusals and its points that tell
    nothing of the others, the others' progress (and who has not filled every step yet, the seat's player too),
    and at the Summary everyone's points and who leads or won, only once the round is revealed. A function of
    the session, the player, the round, the step and the seat's own refused values: nothing of the others' values
    before the reveal."""

    player: str
    title: str
    step_id: str
    step_title: str
    step_help: str
    index: int
    count: int
    inputs: bool
    refusals: tuple[tuple[str, str | None, str], ...]
    own: tuple[tuple[Fraction, str], ...]
    compared: bool
    others: tuple[tuple[str, bool], ...]
    waiting: tuple[str, ...]
    revealed: bool
    points: tuple[tuple[str, Fraction, tuple[tuple[Fraction, str], ...]], ...] = ()
    standing: str = ""


def seat_view(session: Session, player: str, number: int, index: int,
              refused: Mapping[tuple[str, str | None], Any] | None = None, entry: str | None = None) -> SeatView:
    """What the seat of `player` may be shown at step `index` of round `number`; `refused`: the seat's own values
    refused, by (field, key inside it); `entry`: how the table enters routes."""
    game = games.get(session.game)
    steps = game.steps(session)
    index = max(0, min(index, len(steps) - 1))
    step = steps[index]
    slots = walk.shown_slots(game, session, step, entry)
    shown = player in session.players and game.revealed(session, number)
    refusals = []
    for (key, sub), value in (refused or {}).items():
        slot = next((s for s in walk.slots(game, session, step) if (s.key, s.sub) == (key, sub)), None)
        if slot is not None:
            refusals.append((key, sub, refusal(game, session, number, player, step, slot, value)))
    others = tuple((p, walk.player_done(session, number, step, slots, p)) for p in session.players if p != player)
    waiting = tuple(p for p in session.players if not game.filled(session, number, p))
    own = lines_of([it for it in own_items(game, session, number, player) if step.shows(it)])
    compared = any(c.split(":")[0] in game.compared for c in step.categories)
    points: list[tuple[str, Fraction, tuple[tuple[Fraction, str], ...]]] = []
    said = ""
    if shown and step.id == "summary" and not walk.errors(walk.round_check(game, session, number)):
        items = game.score_round(session, number)
        for p in session.players:
            mine = [it for it in items if it.player == p]
            points.append((p, sum((it.points for it in mine), Fraction(0)), lines_of(mine)))
        said = standing(game, session, number)
    return SeatView(player, walk.round_title(game, session, number), step.id, step.title, step.help, index,
                    len(steps), bool(slots), tuple(refusals), own, compared, others, waiting, shown, tuple(points),
                    said)


def name_in(name: str, text: str) -> bool:
    """Whether a player's name is a word of the text."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None
