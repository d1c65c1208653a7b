"""The walkthrough's state without a screen (scorekeeper.walk.state): the cursor, the edit pipeline from a typed
value to the change staged in the Document, and what the screen is told to show. No Pilot, no Textual."""

from __future__ import annotations

import sys
from fractions import Fraction
from pathlib import Path
from typing import Any

from scorekeeper import store
from scorekeeper.model.session import Round
from scorekeeper.walk.document import Document
from scorekeeper.walk.parts import Refused, Total
from scorekeeper.walk.state import DONE, NOT_READY, REFUSED, WARNED, Left, Spot, WalkState, Where
from tests.test_tui_support import write_session


def booth(tmp_path: Path, *rounds: dict[str, Any], index: int = 0, **kwargs: Any) -> tuple[Document, WalkState]:
    """A 2-player Ticket Booth (3 rounds) with these rounds typed, and its walkthrough state in the last round."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"],
                         rounds=tuple(Round(players=r) for r in rounds) or (Round(),))
    doc = Document.open(path)
    return doc, WalkState(doc, max(1, len(rounds)), index, **kwargs)


def where(state: WalkState, player: str) -> Where:
    slot = state.slots[0]
    return player, slot.key, slot.sub


def test_the_state_imports_no_textual() -> None:
    """The state is the core's side: importing it loads no Textual (the import contracts say so too)."""
    import subprocess

    code = "import sys, scorekeeper.walk.state; print(any(m.split('.')[0] in ('textual', 'rich') for m in sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "False"


def test_the_cursor_starts_at_the_first_box_left_and_moves_player_by_player(tmp_path: Path) -> None:
    _, state = booth(tmp_path, {"Ana": {"attractions": {"1": 1, "2": 0}}, "Bo": {"attractions": {"1": 0}}}, index=1)
    assert state.step.title == "#2" and state.spot is not None and state.spot.player == 1  # Bo has no #2 yet
    state.go(0)
    assert state.at == 0 and state.move(1) and state.spot.player == 1 and not state.move(1)
    assert state.move(-1) and state.spot.player == 0
    assert state.advance() == "box" and state.spot.player == 1
    assert state.advance() == "step" and state.step.title == "#2"
    state.go(len(state.steps) - 1)
    assert state.step.id == "summary" and state.spot is None and state.advance() == "end"


def test_a_focus_asked_for_is_where_the_cursor_goes(tmp_path: Path) -> None:
    _, state = booth(tmp_path)
    state.load_step(7, ("Bo", "attractions", "8"))
    assert state.step.title == "#8" and state.spot is not None and state.spot.player == 1
    state.load_step(99)
    assert state.step.id == "summary"  # clamped to the last step


def test_a_value_accepted_is_staged_in_the_document_not_written(tmp_path: Path) -> None:
    doc, state = booth(tmp_path)
    state.go(7)  # #8
    slot = state.slots[0]
    before = path_text = doc.path.read_text()
    assert state.edit(where(state, "Ana"), slot, 5)
    assert state.value("Ana", slot) == 5 and doc.session.round(1).entry("Ana") == {}
    assert doc.path.read_text() == path_text == before and doc.staged
    assert state.points["Ana"] == 8  # scored for its round at once: most #8
    batch = state.take()
    assert batch is not None and batch.edits[-1][1] == (1, "Ana", "attractions", "8") and batch.base is doc.session
    assert state.take() is None


def test_a_value_refused_keeps_its_reason_at_its_box_and_changes_nothing(tmp_path: Path) -> None:
    doc, state = booth(tmp_path)
    slot = state.slots[0]
    model = state.model
    assert not state.edit(where(state, "Ana"), slot, 9)  # #1: one card at most
    assert state.model is model and not doc.staged
    [problem] = state.rejected[where(state, "Ana")]
    assert problem.is_error and "out of range" in problem.message
    assert Refused(problem) in state.live("Ana") and state.marks()[0] == REFUSED
    assert not state.edit(where(state, "Ana"), slot, NOT_READY)  # text that is no value yet: the reason goes
    assert where(state, "Ana") not in state.rejected and state.marks()[0] == ""


def test_a_value_refused_is_taken_once_another_change_makes_room(tmp_path: Path) -> None:
    """#1 has one card: Bo's 1 is refused while Ana holds it; Ana's 0 frees it, and Bo's box (still 1) is taken."""
    typed: dict[Where, Any] = {}
    doc, state = booth(tmp_path, value_at=lambda w: typed.get(w, NOT_READY))
    slot = state.slots[0]
    assert state.edit(where(state, "Ana"), slot, 1)
    typed[where(state, "Bo")] = 1
    assert not state.edit(where(state, "Bo"), slot, 1) and where(state, "Bo") in state.rejected
    assert state.edit(where(state, "Ana"), slot, 0)
    assert state.rejected == {} and state.value("Bo", slot) == 1 and state.value("Ana", slot) == 0
    assert doc.take() is not None


def test_the_digits_of_one_box_are_one_edit_and_enter_ends_it(tmp_path: Path) -> None:
    doc, state = booth(tmp_path)
    state.go(10)  # #11
    slot = state.slots[0]
    for value in (1, 11):
        assert state.edit(where(state, "Ana"), slot, value)
    assert state.edit(where(state, "Ana"), slot, 11, boundary=True)  # Enter on the value as it is: the run ends
    assert state.edit(where(state, "Ana"), slot, 1)  # the same box again: a new edit
    batch = doc.take()
    assert batch is not None and [(e[0].round(1).entry("Ana")["attractions"]["11"], e[2]) for e in batch.edits] \
        == [(11, True), (1, False)]


def test_enter_on_an_empty_box_confirms_its_blank(tmp_path: Path) -> None:
    _, state = booth(tmp_path)
    assert state.blank("Ana", state.slots[0]) == (False, 0)
    state.go(12)  # Ticket Booth: who holds it, picked once for the step
    assert state.spot is not None and state.spot.player is None and 0 not in state.given
    assert state.pick(0, {"Ana": False, "Bo": True})
    held = state.slots[0]
    assert 0 in state.given and state.value("Bo", held) is True and state.value("Ana", held) is False


def test_what_the_screen_shows_scores_heading_notes_marks(tmp_path: Path) -> None:
    whole = {"Ana": {"attractions": {str(n): 0 for n in range(1, 12)}, "outhouses": 0, "ticket_booth": True,
                     "demolition_derby": False, "tickets": 2, "piglet_race": False},
             "Bo": {"attractions": {str(n): 0 for n in range(1, 12)}, "outhouses": 1, "ticket_booth": False,
                    "demolition_derby": False, "tickets": 1, "piglet_race": True}}
    _, state = booth(tmp_path, whole, {})
    assert state.number == 2 and state.step.title == "#1"
    heading = state.heading()
    assert heading.round == "Round 2 of 3" and heading.step == "#1" and heading.left is None
    scores = state.scores()
    assert scores.before and not scores.after and [row[0] for row in scores.rows] == ["Ana", "Bo"]
    assert all(row[1] != 0 or row[0] for row in scores.rows)
    assert dict((row[0], row[1]) for row in scores.rows) == {p: state.before[p] for p in ("Ana", "Bo")}
    assert state.marks()[-1] == "" and not any(state.marks())  # round 2: nothing typed yet
    state.go(len(state.steps) - 1)
    notes = state.notes()
    assert notes.summary and notes.next == "score round 2 (first player: Bo)" and notes.final is None
    assert Total(Fraction(0)) in state.live("Ana")


def test_a_step_done_is_marked_and_a_warning_stops_the_cursor_once(tmp_path: Path) -> None:
    """#1 with no card held by anybody is done but warned (the cards add up to 0): leaving it says so, once."""
    doc, state = booth(tmp_path)
    slot = state.slots[0]
    assert state.edit(where(state, "Ana"), slot, 0, boundary=True)
    assert state.edit(where(state, "Bo"), slot, 0, boundary=True)
    assert state.marks()[0] == WARNED and state.step_warnings()
    state.cursor = state.cursor.to(len(state.spots) - 1)
    assert state.advance() == "step" and isinstance(state.left, Left) and state.left.step == "#1"
    assert state.heading().left == state.left
    state.go(0)
    state.cursor = state.cursor.to(len(state.spots) - 1)
    assert state.advance() == "step" and state.left is None  # said once
    assert state.edit(where(state, "Ana"), state.slots[0], 2, boundary=True)  # #2
    assert state.marks()[:2] == (WARNED, "") and DONE not in state.marks()[2:]


def test_undo_shows_where_the_session_changed(tmp_path: Path) -> None:
    doc, state = booth(tmp_path, {"Bo": {"attractions": {"1": 0}}})
    state.go(7)
    assert state.edit(where(state, "Bo"), state.slots[0], 4, boundary=True)
    batch = state.take()
    assert batch is not None
    doc.save(batch)
    state.saved(batch.session)
    old = doc.session
    state.go(0)
    new = doc.undo()
    assert new is not None
    assert state.replaced(old, new) == (1, 7, ("Bo", "attractions", "8"))
    assert state.model is doc.session and not doc.staged


def test_changes_from_elsewhere_come_into_what_is_typed(tmp_path: Path) -> None:
    doc, state = booth(tmp_path)
    slot = state.slots[0]
    assert state.edit(where(state, "Ana"), slot, 1)  # typed here, staged, not saved yet
    theirs = doc.session.with_value(1, "Bo", "outhouses", 2)
    store.save(doc.path, theirs)
    assert doc.poll() is not None
    assert state.merged() == {}  # nothing of the step shown changed
    assert state.model.round(1).entry("Bo")["outhouses"] == 2 and state.value("Ana", slot) == 1
    batch = doc.take()
    assert batch is not None and batch.session.round(1).entry("Bo")["outhouses"] == 2
    assert state.merged() is None  # nothing new


def test_the_cursor_starts_at_the_box_left_inside_a_players_row(tmp_path: Path) -> None:
    """Ticket to Mars Pairs: Ana gave the count, not the points each: the cursor is on Ana's second box."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"],
                         rounds=(Round(players={"Ana": {"pairs": {"count": 2}}}),))
    doc = Document.open(path)
    titles = [step.title for step in WalkState(doc, 1).steps]
    state = WalkState(doc, 1, titles.index("Pairs"))
    assert state.spot == Spot(0, 1) and state.slots[1].sub == "each"


# -- one player's view (a seat at the table) -----------------------------------------------------------------------
def test_one_players_view_walks_that_players_inputs_only(tmp_path: Path) -> None:
    """A seat's walk (`player`): Bo's boxes alone, the Piglet Race his own yes/no box (not a pick for the step),
    the cursor first on his box left empty, up/down and Tab through his inputs."""
    doc, state = booth(tmp_path, {"Bo": {"tickets": 2}}, index=14, player="Bo")
    assert WalkState(doc, 1, 14).spots[-1] == Spot(None, 1)  # every player's view: who holds it, picked once
    assert state.players == ("Bo",) and state.step.title == "Tickets"
    assert state.spots == (Spot(0, 0), Spot(0, 1)) and state.at == 1  # his tickets given: the Piglet Race
    assert state.move(-1) and state.at == 0 and not state.move(-1)
    assert state.move(1) and state.at == 1 and not state.move(1)
    state.cycle(1)
    assert state.at == 0
    state.cycle(-1)
    assert state.at == 1
    assert state.edit(("Bo", "piglet_race", None), state.slots[1], True, boundary=True)
    assert state.value("Bo", state.slots[1]) is True and "Ana" not in state.model.round(1).players
    assert state.take() is not None
    state.cursor = state.cursor.to(0)
    assert state.advance() == "box" and state.advance() == "step" and state.step.id == "summary"
    state.go(0)
    assert state.spots == (Spot(0, 0),) and state.spot_of(("Bo", "attractions", "1")) == 0


def test_one_players_view_starts_at_that_players_first_empty_box(tmp_path: Path) -> None:
    """Ticket to Mars Pairs: Bo gave the count, Ana nothing: Bo's view is on his second box, Ana's on her first."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"],
                         rounds=(Round(players={"Bo": {"pairs": {"count": 2}}}),))
    doc = Document.open(path)
    titles = [step.title for step in WalkState(doc, 1).steps]
    assert WalkState(doc, 1, titles.index("Pairs")).spot == Spot(0, 0)  # every player's: Ana first
    bo = WalkState(doc, 1, titles.index("Pairs"), player="Bo")
    assert bo.spot == Spot(0, 1) and bo.slots[1].sub == "each"
    assert WalkState(doc, 1, titles.index("Pairs"), player="Ana").spot == Spot(0, 0)


def test_one_players_view_takes_in_only_that_players_changes_and_no_points_with_an_error(tmp_path: Path) -> None:
    """#1 has one card: Bo's view holds it (staged); Ana's 1 saved elsewhere comes in: the boxes told are Bo's only
    (none changed), and while the round has that error the view shows no points (every player's keeps the last)."""
    doc, state = booth(tmp_path, player="Bo")
    everyone = WalkState(doc, 1)
    slot = state.slots[0]
    assert state.edit(("Bo", "attractions", "1"), slot, 1)
    assert everyone.edit(("Bo", "attractions", "1"), slot, 1) and state.items and everyone.items
    doc.discard()
    store.save(doc.path, doc.session.with_value(1, "Ana", "attractions", {"1": 1}))
    assert doc.poll() is not None
    assert state.merged() == {} and everyone.merged() == {("Ana", "attractions", "1"): 1}
    assert state.value("Bo", slot) == 1 and state.model.round(1).entry("Ana")["attractions"] == {"1": 1}
    assert state.items == [] and everyone.items
