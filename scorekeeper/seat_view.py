"""What one player's seat at the table shows of a round (SPEC §5, "join as one seat"), decided without a screen.

A seat walks the round as a `WalkState` filtered to its player. What it may show is decided here: the round the
table walks and the step to start at, the others' progress (a step filled or not) but not their values until the
round is revealed at its Summary, and of the player's own points only those that tell nothing of the others'
values. No Textual here: it is tested alone.
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from typing import TYPE_CHECKING

from scorekeeper import games, walk
from scorekeeper.text import inert

if TYPE_CHECKING:
    from scorekeeper.document import Document
    from scorekeeper.games.base import Item
    from scorekeeper.session import Problem
    from scorekeeper.walk_state import WalkState

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
    """Whether the round's values may be shown to everyone: every player has a table and the table is no longer
    walking it (every input of every step given; a round written by hand: once every player is in)."""
    model, number = state.model, state.number
    if seat_player(state) not in model.players or not model.round(number).is_complete(model.players):
        return False
    where = walk.resume(state.game, model)  # the round the table walks, at its first step not done
    return where is None or where[0] != number


def reason(errors: list[Problem], player: str) -> str:
    """Why a value of the player was refused: the first error about the player, else a clash with the others."""
    mine = [p for p in errors if p.player == player]
    return inert(mine[0].message) if mine else CLASH


def alone_items(state: WalkState) -> list[Item]:
    """The player's items of the round scored as if the others had typed nothing: an item the same either way
    tells nothing of the others' values (shown before the Summary); one that differs waits for it."""
    player, session, number = seat_player(state), state.model, state.number
    if number > len(session.rounds):
        return []
    rounds = list(session.rounds)
    rnd = rounds[number - 1]
    rounds[number - 1] = replace(rnd, players={player: rnd.entry(player)})
    alone = replace(session, rounds=tuple(rounds))
    if walk.errors(walk.round_check(state.game, alone, number)):
        return []
    return [it for it in state.game.score_round(alone, number) if it.player == player]


def own_items(state: WalkState) -> tuple[list[Item], bool]:
    """The player's items of the step that may be shown now, and whether others wait for the Summary (they depend
    on the others' values: a bonus to the longest, a reason naming another player)."""
    player, step = seat_player(state), state.step
    others = [p for p in state.model.players if p != player]
    alone = alone_items(state)
    shown: list[Item] = []
    compared = False
    for it in state.items:
        if it.player != player or not step.shows(it):
            continue
        if it not in alone or any(name_in(p, it.why) for p in others):
            compared = True
        else:
            shown.append(it)
    return shown, compared


def all_points(state: WalkState) -> list[tuple[str, Fraction, list[Item]]]:
    """Every player's points of the round and their items, in seat order (shown once the round is revealed)."""
    out = []
    for player in state.model.players:
        mine = [it for it in state.items if it.player == player]
        out.append((player, sum((it.points for it in mine), Fraction(0)), mine))
    return out


def others_done(state: WalkState) -> list[tuple[str, bool]]:
    """Each other player, and whether they have filled the step shown (their values stay theirs)."""
    player, model, number, step = seat_player(state), state.model, state.number, state.step
    return [(p, walk.player_done(model, number, step, state.slots, p)) for p in model.players if p != player]


def waiting_for(state: WalkState) -> list[str]:
    """The other players with an input of some step of the round not filled yet, in seat order."""
    player, model, number = seat_player(state), state.model, state.number
    return [p for p in model.players if p != player and any(
        slots and not walk.player_done(model, number, step, slots, p)
        for step, slots in zip(state.steps, state.inputs, strict=True))]


def name_in(name: str, text: str) -> bool:
    """Whether a player's name is a word of the text."""
    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None
