"""The walk's cursor is a value: frozen, each move a new cursor (the one moved from is left as it was), always on a
place of its step; the walk's moves replace it, so a cursor kept by a view never changes under it."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import store
from scorekeeper.model.session import Round, Session
from scorekeeper.walk.cursor import Cursor, Spot
from scorekeeper.walk.document import Document
from scorekeeper.walk.state import WalkState


@st.composite
def cursors(draw: st.DrawFn) -> Cursor:
    """A step of 1 to 5 players with 1 to 4 inputs each and 0 to 2 step-wide picks, the cursor anywhere on it."""
    players, slots, wide = draw(st.integers(1, 5)), draw(st.integers(1, 4)), draw(st.integers(0, 2))
    spots = tuple(Spot(p, s) for p in range(players) for s in range(slots)) + \
        tuple(Spot(None, slots + s) for s in range(wide))
    at = draw(st.integers(0, players * slots - 1))
    return Cursor(draw(st.integers(1, 30)), draw(st.integers(0, 6)), spots, at, draw(st.booleans()))


moves = st.lists(st.one_of(st.tuples(st.just("next"), st.just(0)),
                           st.tuples(st.sampled_from(("cycle", "move")), st.sampled_from((-1, 1))),
                           st.tuples(st.just("player"), st.integers(0, 4))), max_size=20)


def moved(cursor: Cursor, what: str, n: int) -> Cursor | None:
    """A move of the cursor: the next box, Tab round the row, up/down, to a player's row."""
    if what == "next":
        return cursor.next_box()
    if what == "cycle":
        return cursor.cycled(n)
    if what == "move":
        return cursor.moved(n)
    return cursor.to_player(n)


@settings(max_examples=300, deadline=None)
@given(cursors(), moves)
def test_a_move_makes_a_new_cursor_and_leaves_the_old_one(start: Cursor, steps: list[tuple[str, int]]) -> None:
    cursor = start
    for what, n in steps:
        before = dataclasses.replace(cursor)
        new = moved(cursor, what, n)
        assert cursor == before  # the cursor moved from is as it was
        if new is None:
            continue
        assert (new.number, new.index, new.spots, new.single) == (cursor.number, cursor.index, cursor.spots,
                                                                   cursor.single)
        assert new.spot is not None
        if what == "cycle":
            assert new.spot.player == cursor.spot.player and new.cycled(-n) == cursor  # type: ignore[union-attr]
        if what == "move":
            assert new.moved(-n) == cursor
        cursor = new if new.spot.player is not None else cursor


def test_the_cursor_is_frozen() -> None:
    with pytest.raises(dataclasses.FrozenInstanceError):
        Cursor(1).at = 2  # type: ignore[misc]


def test_the_walk_moves_by_replacing_its_cursor(tmp_path: Path) -> None:
    path = tmp_path / "mars.toml"
    store.save(path, Session(game="ticket-to-mars", players=("Ana", "Bo"), rounds=(Round(),)))
    state = WalkState(Document.open(path), 1)
    first = state.cursor
    kept = dataclasses.replace(first)
    assert state.advance() == "box" and state.cursor is not first and first == kept
    assert state.cursor.at == first.at + 1 == state.at
    second = state.cursor
    state.cycle(1)
    assert second == dataclasses.replace(second) and state.cursor != second
    state.go(1)
    assert state.index == state.cursor.index == 1 and first.index == 0
