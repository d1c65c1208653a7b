"""A key costs the same in round 30 as in round 3: a save checks, scores and writes again only the round that
changed; the other rounds are kept as they were (the same objects), their results found again by value."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from typing import Any
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import games, store
from scorekeeper.games import fields, validation
from scorekeeper.model.memo import PerRound
from scorekeeper.model.session import Round, Session
from scorekeeper.walk.document import Document
from scorekeeper.walk.merge import apply, diff

PLAYERS = ("Ana", "Bo", "Cy", "Dee", "Eve")
CARDS = {1: (1, 0, 0), 2: (0, 2, 0), 3: (1, 1, 1), 4: (2, 1, 1), 5: (0, 3, 2), 6: (3, 2, 1), 7: (2, 2, 3),
         8: (4, 2, 2), 9: (3, 3, 3), 10: (4, 3, 3), 11: (2, 4, 5)}
"""The attraction cards each of the first three players holds (the others none): every card is held."""


def booth(rounds: int) -> Session:
    """A 5-player Ticket Booth of `rounds` rounds, each the same filled table (equal values, separate objects)."""
    def table(i: int) -> dict[str, Any]:
        return {"attractions": {str(n): (*c, 0, 0)[i] for n, c in CARDS.items()}, "outhouses": (1, 0, 2, 0, 0)[i],
                "ticket_booth": i == 0, "demolition_derby": i == 2, "tickets": (7, 5, 3, 0, 0)[i],
                "piglet_race": i == 1}

    return Session(game="ticket-booth", players=PLAYERS, rules={"rounds": rounds},
                   rounds=tuple(Round(players={p: table(i) for i, p in enumerate(PLAYERS)}) for _ in range(rounds)))


def counted(monkeypatch: pytest.MonkeyPatch) -> Counter[tuple[str, int]]:
    """The rounds each piece of per-round work is done for, from now on."""
    seen: Counter[tuple[str, int]] = Counter()
    game = games.get("ticket-booth")
    check_round, score_round, check_entry = game.check_round, game.score_round, fields.check_entry

    def checking(session: Session, number: int) -> Any:
        seen["check", number] += 1
        return check_round(session, number)

    def scoring(session: Session, number: int) -> Any:
        seen["score", number] += 1
        return score_round(session, number)

    def entry(specs: Any, value: Any, base: str, number: int, player: str) -> Any:
        seen["entry", number] += 1
        return check_entry(specs, value, base, number, player)

    monkeypatch.setattr(game, "check_round", checking)
    monkeypatch.setattr(game, "score_round", scoring)
    monkeypatch.setattr(validation, "check_entry", entry)
    return seen


@pytest.mark.parametrize("rounds", [3, 30])
def test_a_save_in_the_last_round_checks_and_scores_that_round_alone(tmp_path: Path, rounds: int,
                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "booth.toml"
    store.save(path, booth(rounds))
    doc = Document.open(path)
    doc.commit(doc.session.with_value(rounds, "Bo", "tickets", 6), key="box")  # the first save checks them all
    doc.sheet()
    seen = counted(monkeypatch)
    for tickets in (7, 8):
        doc.commit(doc.session.with_value(rounds, "Bo", "tickets", tickets), key="box")
        doc.sheet()
    assert {number for _, number in seen} == {rounds}
    assert doc.session.round(rounds).entry("Bo")["tickets"] == 8
    assert store.dumps(doc.session) == store.dumps(Document.open(path).session)


def test_a_round_written_again_is_the_same_text_as_a_whole_file() -> None:
    session = booth(4)
    edited = session.with_value(2, "Cy", "tickets", 9)
    assert store.dumps(edited) == store.dumps(booth(4).with_value(2, "Cy", "tickets", 9))
    assert "tickets = 9" in store.dumps(edited).split("[[rounds]]")[2]


counts = st.fixed_dictionaries({"count": st.integers(0, 9)})
entries = st.dictionaries(st.sampled_from(("pairs", "character")), counts, max_size=2)
tables = st.dictionaries(st.sampled_from(PLAYERS[:3]), entries, max_size=3)
sessions = st.builds(lambda rs: Session(game="ticket-to-mars", players=PLAYERS[:3],
                                        rounds=tuple(Round(players=r) for r in rs)),
                     st.lists(tables, min_size=1, max_size=5))
edits = st.lists(st.tuples(st.integers(1, 6), st.sampled_from(PLAYERS[:3]), st.sampled_from(("pairs", "character")),
                           st.one_of(st.none(), counts)), max_size=3)


@settings(max_examples=300, deadline=None)
@given(sessions, edits)
def test_applying_an_edit_keeps_every_round_it_does_not_touch(session: Session, edit: list[Any]) -> None:
    edited = session
    for number, player, key, value in edit:
        edited = edited.with_value(number, player, key, value)
    ops = diff(session, edited)
    done = apply(session, ops)
    assert done.session == edited
    assert apply(edited, diff(edited, session)).session == session
    touched = {op.key[1] for op in ops if op.key[0] != "rounds"}
    for number, rnd in enumerate(done.session.rounds, 1):
        if number not in touched and number <= len(session.rounds):
            assert rnd is session.rounds[number - 1]


@settings(max_examples=100, deadline=None)
@given(st.lists(st.tuples(st.integers(1, 4), st.sampled_from(PLAYERS), st.sampled_from(("tickets", "outhouses")),
                          st.integers(0, 9)), min_size=1, max_size=6))
def test_what_is_kept_is_what_would_be_found_anew(edits_made: list[Any]) -> None:
    """After any edits, the problems and the points found with the rounds kept are those of a fresh copy."""
    session = booth(4)
    validation.validate(session)
    for number, player, key, value in edits_made:
        session = session.with_value(number, player, key, value)
        kept = validation.validate(session)
        with mock.patch.object(PerRound, "get", lambda self, rnd, key, depends, make: make()):  # nothing kept
            anew = validation.validate(session), store.dumps(session)
            totals = games.score(session, anew[0]).totals if not any(p.is_error for p in anew[0]) else None
        assert kept == anew[0]
        assert store.dumps(session) == anew[1]
        if totals is not None:
            assert games.score(session, kept).totals == totals
