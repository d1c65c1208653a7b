"""Unit tests of the app's pure parts: slots and steps done, resuming, text parsing, the document's history."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from scorekeeper import files, games, walk
from scorekeeper.games import validation
from scorekeeper.model.session import Round, Session, SessionError
from scorekeeper.walk.document import Document
from tests.test_tui_support import write_session

BOOTH = games.get("ticket-booth")


def booth(*rounds: dict) -> Session:
    """A 2-player Ticket Booth session with these rounds."""
    return Session(game="ticket-booth", players=("Ana", "Bo"), rounds=tuple(Round(players=r) for r in rounds))


def test_slots_of_each_game() -> None:
    """Every input of every step of every game (on a map too) has an editor in the one table of kinds."""
    from scorekeeper.tui.widgets.kinds import EDITORS, editor_kind

    for game in games.GAMES.values():
        for rules in ({}, {"map": "usa"}) if game.id == "ticket-to-ride" else ({},):
            session = Session(game=game.id, players=("Ana", "Bo"), rules=rules)
            for step in game.steps(session):
                for slot in walk.slots(game, session, step):
                    assert editor_kind(slot) in EDITORS, (game.id, step.id, slot)


def test_problems_carry_their_place() -> None:
    """A problem names its round, player, field, key and line: the app places it without reading its words."""
    [error] = walk.errors(validation.validate(booth({"Ana": {"attractions": {"8": 9}}})))
    assert (error.round, error.player, error.field, error.key, error.index) == (1, "Ana", "attractions", "8", None)
    ttr = Session(game="ticket-to-ride", players=("Ana", "Bo"),
                  rounds=(Round(players={"Ana": {"tickets": [{"points": 8, "completed": True},
                                                             {"points": 0, "completed": True}]}}),))
    [error] = walk.errors(validation.validate(ttr))
    assert (error.field, error.key, error.index) == ("tickets", None, 2)
    warned = booth({"Ana": {"attractions": {"5": 2}}, "Bo": {"attractions": {"5": 1}}})  # 3 of 5: a warning
    [warning] = [p for p in validation.validate(warned) if p.field == "attractions" and p.key == "5"]
    assert (warning.player, warning.key) == (None, "5")
    steps = BOOTH.steps(warned)
    reworded = replace(warning, message="something else entirely")
    assert walk.round_problems([reworded], 1, steps[4]) == [reworded]
    assert walk.round_problems([reworded], 1, steps[3]) == []


def test_round_check_is_the_rounds_own() -> None:
    """The checks of one round find what the whole session's do for that round."""
    session = booth({"Ana": {"attractions": {"8": 5}}, "Bo": {"attractions": {"8": 5}}})
    whole = [p for p in validation.validate(session) if p.round == 1]
    assert walk.round_check(BOOTH, session, 1) == whole


def test_steps_not_reached_are_not_problems_yet() -> None:
    """In the middle of a round, a warning about a step the table has not come to is left out (#2 … #11, the
    specials, the tickets: nothing typed there yet); one that concerns no step (a player's card count) stays, and
    a round not being walked keeps all of its warnings."""
    session = booth({"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}})
    problems = validation.validate(session)
    assert walk.resume(BOOTH, session) == (1, 1)  # at #2
    by_key = {(p.field, p.key) for p in problems}
    assert {("attractions", "2"), ("attractions", "11"), ("tickets", None)} <= by_key
    kept = walk.reached(BOOTH, session, 1, problems)
    assert kept and all(p.field is None for p in kept)
    assert [p for p in problems if p.field is None] == kept
    assert walk.reached(BOOTH, session, 2, problems) == problems
    errors = validation.validate(booth({"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 1}}}))
    assert errors and all(p.is_error for p in errors)
    assert walk.reached(BOOTH, session, 1, errors) == errors  # errors are always kept


def test_while_walking_errors_and_warnings_of_a_step_done_stay() -> None:
    """At #2 of round 1: an error about a step not reached stays (errors always do); a warning about the
    attractions as a whole (#1 is done, #2 … #11 are not) stays; one about the tickets alone waits."""
    from scorekeeper.model.problems import Problem

    session = booth({"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}})
    assert walk.resume(BOOTH, session) == (1, 1)
    error = Problem("too many #7", "error", round=1, field="attractions", key="7")
    whole = Problem("the attractions", "warning", round=1, field="attractions")
    later = Problem("the tickets", "warning", round=1, field="tickets")
    assert walk.reached(BOOTH, session, 1, [error, whole, later]) == [error, whole]


def test_slot_values_and_writing() -> None:
    """A sub-key slot reads and writes inside its table; None removes; counts stay in key order."""
    step = BOOTH.steps(booth())[7]
    (slot,) = walk.slots(BOOTH, booth(), step)
    assert (slot.key, slot.sub, slot.lo, slot.hi, slot.blank()) == ("attractions", "8", 0, 8, 0)
    s = walk.with_slot(booth(), 1, "Ana", slot, 5)
    s = walk.with_slot(s, 1, "Ana", walk.slots(BOOTH, s, BOOTH.steps(s)[0])[0], 0)
    assert list(s.round(1).entry("Ana")["attractions"]) == ["1", "8"]
    assert walk.value_of(s.round(1).entry("Ana"), slot) == 5
    s = walk.with_slot(s, 1, "Ana", slot, None)
    assert s.round(1).entry("Ana") == {"attractions": {"1": 0}}
    assert walk.with_slot(booth(), 1, "Bo", slot, None) == booth()


def test_step_done_needs_every_player_and_explicit_zeros() -> None:
    """A step is done when every player has every input (0 and false written count)."""
    first = BOOTH.steps(booth())[0]
    slots = walk.slots(BOOTH, booth(), first)
    assert not walk.step_done(booth({"Ana": {"attractions": {"1": 1}}}), 1, first, slots)
    assert walk.step_done(booth({"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}}), 1, first, slots)


def test_either_step_is_done_with_one_alternative() -> None:
    """Routes by length or route points: one of them is enough."""
    ttr = games.get("ticket-to-ride")
    session = Session(game=ttr.id, players=("Ana", "Bo"),
                      rounds=(Round(players={"Ana": {"routes": {"3": 1}}, "Bo": {"route_points": 12}}),))
    step = ttr.steps(session)[0]
    assert walk.either(step)
    assert walk.step_done(session, 1, step, walk.slots(ttr, session, step))


def test_resume_at_the_first_step_not_scored() -> None:
    """The app's own files resume at the frontier; a round written by hand with zeros left out is done."""
    assert walk.resume(BOOTH, booth()) == (1, 0)
    walked = booth({"Ana": {"attractions": {"1": 1, "2": 0}}, "Bo": {"attractions": {"1": 0}}})
    assert walk.resume(BOOTH, walked) == (1, 1)
    by_hand = booth({"Ana": {"attractions": {"1": 1, "2": 2}, "tickets": 5}, "Bo": {"tickets": 5}})
    assert walk.resume(BOOTH, by_hand) is None
    missing_player = booth({"Ana": {"attractions": {"1": 1}, "tickets": 5}})
    assert walk.resume(BOOTH, missing_player) == (1, 0)


def test_state_text() -> None:
    """The home screen's state line."""
    session = booth({"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}})
    sheet = games.score(session)
    assert walk.state_text(BOOTH, session, sheet) == "round 1 of 3 — Ana leads"
    assert walk.state_text(BOOTH, booth(), games.score(booth())) == "round 1 of 3 — not started"


@pytest.mark.parametrize(("text", "value"), [("", None), (" 7 ", 7), ("-1", -1), ("2.5", 2.5), ("abc", "abc")])
def test_parse_number(text: str, value: object) -> None:
    """Typed text becomes what the core's checks judge (text stays text, to be refused with a message)."""
    assert walk.parse_number(text) == value


@pytest.mark.parametrize(("text", "card"), [
    ("8", {"points": 8, "completed": True}),
    ("-8", {"points": 8, "completed": False}),
    ("12 Denver - El Paso", {"points": 12, "completed": True, "name": "Denver - El Paso"}),
    ("x", {"points": "x", "completed": True}),
    ("  ", None),
])
def test_parse_card(text: str, card: dict | None) -> None:
    """One line of a card list."""
    assert walk.parse_card(text) == card
    if card and isinstance(card.get("points"), int):
        assert walk.parse_card(walk.card_text(card)) == card


def test_problem_at_slot() -> None:
    """A field check's problem lands on its sub-key; a cross-field one on its player's field."""
    session = booth({"Ana": {"attractions": {"8": 9}}})
    problems = validation.validate(session)
    step = BOOTH.steps(session)[7]
    (slot,) = walk.slots(BOOTH, session, step)
    other = walk.slots(BOOTH, session, BOOTH.steps(session)[6])[0]
    [error] = walk.errors(problems)
    assert walk.at_slot(error, 1, "Ana", slot) and not walk.at_slot(error, 1, "Ana", other)


def test_changed_at() -> None:
    """Where two sessions differ: round, player, field, key inside it."""
    a = booth({"Ana": {"attractions": {"1": 1}}})
    b = a.with_value(1, "Ana", "attractions", {"1": 1, "2": 2})
    assert walk.changed_at(a, b) == (1, "Ana", "attractions", "2")
    assert walk.changed_at(a, a.with_round_added()) == (2, None, None, None)
    assert walk.changed_at(a, a) is None


def test_document_history_and_fingerprints(tmp_path: Path) -> None:
    """Commits save at once; edits of one field coalesce into one undo step; undo and redo save too."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    doc = Document.open(path)
    start = doc.session
    one = start.with_value(1, "Ana", "tickets", 1)
    doc.commit(one, key="t")
    doc.commit(one.with_value(1, "Ana", "tickets", 4), key="t")
    doc.commit(doc.session.with_value(1, "Bo", "tickets", 3), key="b")
    assert files.load(path)[0] == doc.session
    assert not doc.changed_on_disk()
    assert doc.undo() is not None and doc.session.round(1).entry("Ana") == {"tickets": 4}
    assert doc.undo() == start and files.load(path)[0] == start
    assert doc.undo() is None
    assert doc.redo() is not None and files.load(path)[0].round(1).entry("Ana") == {"tickets": 4}
    path.write_text(path.read_text() + "\n")
    assert doc.changed_on_disk()
    doc.reload()
    assert not doc.changed_on_disk()


def test_document_refuses_a_broken_file(tmp_path: Path) -> None:
    """Opening a file with errors raises the core's SessionError (the app shows its problems)."""
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\ngame = "ticket-booth"\nplayers = ["Ana"]\n')
    with pytest.raises(SessionError) as caught:
        Document.open(bad)
    assert "1 players listed" in caught.value.problems[0].message


def test_packaged_samples_are_the_project_samples() -> None:
    """The samples the home screen offers are copies of sample_sessions/ (kept identical)."""
    from scorekeeper.tui.screens.home import SAMPLES

    root = Path(__file__).resolve().parents[1]
    for name in SAMPLES:
        packaged = root / "scorekeeper" / "samples" / name
        assert packaged.read_bytes() == (root / "sample_sessions" / name).read_bytes(), name
        files.load(packaged)
