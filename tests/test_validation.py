"""The one validation entry point: `validate(session)` on the model finds what reading the session's file finds."""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import files, games, store
from scorekeeper.games import validation
from scorekeeper.model.session import FORMAT, Round, Session

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
SAMPLE_NAMES = sorted(p.name for p in SAMPLES.glob("*.toml"))


def sample(name: str) -> Session:
    """A sample session, loaded."""
    return files.load(SAMPLES / name)[0]


def as_read(session: Session) -> list[Any]:
    """What validating the session's file table finds (the round trip `validate` replaces)."""
    return validation.from_dict(store.to_dict(session))[1]


BAD_VALUES: list[Any] = [-1, 0, 1, 3, 999, 2.5, True, False, "x", "\x1b[31mred", "a" * 300, [], {}, [1, "x"],
                         {"8": 99}, {"1": 1, "zz": 2}, {"count": 2}, {"count": 2, "each": 3},
                         [{"points": 8, "completed": True}], [{"points": 0, "completed": True, "name": "\x07"}],
                         [{"points": 21, "completed": False}], ["Denver – El Paso"], {"a\x00": 1}]

def _broken() -> dict[str, Session]:
    """Sessions with errors of every kind the file format and the games can hold."""
    booth = sample("ticket-booth-3p.toml")
    ride = sample("ticket-to-ride-4p.toml")
    mars = sample("ticket-to-mars-two-rounds.toml")
    ana, bo = booth.players[0], booth.players[1]
    return {
        "attraction over its count": booth.with_value(1, ana, "attractions", {"8": 9}),
        "unknown field": booth.with_value(2, bo, "mystery", 3),
        "entry not a table": booth.with_entry(1, ana, [1, 2]),  # type: ignore[arg-type]
        "unknown player in a round": booth.with_entry(1, "Zed", {"tickets": 2}),
        "two ticket booths": booth.with_value(1, bo, "ticket_booth", True),
        "negative tickets": booth.with_value(3, ana, "tickets", -4),
        "duplicate players": replace(booth, players=(ana, ana.upper(), bo)),
        "one player": replace(booth, players=(ana,), rounds=()),
        "empty name": replace(booth, players=(ana, " ", bo)),
        "long name": replace(booth, players=(ana, "n" * 41, bo)),
        "control in the title": replace(booth, title="night\x1b]8;;x\x07"),
        "notes too long": replace(booth, notes="x" * 10_001),
        "title not text": replace(booth, title=3),  # type: ignore[arg-type]
        "started not a date": replace(booth, started="yesterday"),  # type: ignore[arg-type]
        "unknown rule": replace(booth, rules={"rounds": 3, "house": True}),
        "bad rule value": replace(booth, rules={"rounds": "three"}),
        "rules not a table": replace(booth, rules=[1]),  # type: ignore[arg-type]
        "unknown game": replace(booth, game="ticket-bothe"),
        "format newer": replace(booth, format=FORMAT + 1),
        "format zero": replace(booth, format=0),
        "format not a number": replace(booth, format="1"),  # type: ignore[arg-type]
        "too many rounds": replace(booth, rounds=tuple(Round() for _ in range(101))),
        "round players not a table": replace(booth, rounds=(Round(players=["x"]),)),  # type: ignore[arg-type]
        "round players an empty list (none)": replace(booth, rounds=(Round(players=[]),)),  # type: ignore[arg-type]
        "empty rounds between": replace(booth, rounds=(Round(), *booth.rounds, Round())),
        "card of no points": ride.with_value(1, ride.players[0], "tickets", [{"points": 0, "completed": True}]),
        "card name with a bell": ride.with_value(1, ride.players[1], "tickets",
                                                 [{"points": 8, "completed": True, "name": "a\x07b"}]),
        "route key with a control": ride.with_value(1, ride.players[0], "claimed", {"a\x00": 1}),
        "pairs without each (a warning)": mars.with_value(1, mars.players[0], "pairs", {"count": 2}),
        "errors in two rounds": mars.with_value(2, mars.players[1], "pairs", {"count": -1})
                                    .with_value(1, mars.players[0], "mystery", 1),
        "datetime start kept": replace(booth, started=datetime(2026, 11, 27, 19, 30), title="\u202eevil"),
    }


@pytest.mark.parametrize("name", SAMPLE_NAMES)
def test_validate_finds_what_the_file_would_show_on_every_sample(name: str) -> None:
    session = sample(name)
    found = validation.validate(session)
    assert found == as_read(session)
    loaded = [replace(p, line=None) for p in files.load(SAMPLES / name)[1]]
    assert sorted(found, key=lambda p: (p.path, p.message)) == sorted(loaded, key=lambda p: (p.path, p.message))


@pytest.mark.parametrize("name", sorted(_broken()))
def test_validate_finds_what_the_file_would_show_on_broken_sessions(name: str) -> None:
    session = _broken()[name]
    found = validation.validate(session)
    assert found == as_read(session)
    assert bool(found) != name.endswith("(none)"), name


@st.composite
def mutated(draw: st.DrawFn) -> Session:
    """A sample with a few fields of a few players set to values that may or may not be allowed."""
    session = sample(draw(st.sampled_from(SAMPLE_NAMES)))
    game = games.get(session.game)
    keys = [*game.fields_for(session.rules), "mystery"]
    for _ in range(draw(st.integers(1, 4))):
        number = draw(st.integers(1, len(session.rounds) + 1))
        player = draw(st.sampled_from([*session.players, "Zed"]))
        value = draw(st.sampled_from([*BAD_VALUES, None]))
        session = session.with_value(number, player, draw(st.sampled_from(keys)), value)
    return session


@settings(max_examples=150, deadline=None)
@given(mutated())
def test_property_validate_is_the_file_round_trip(session: Session) -> None:
    assert validation.validate(session) == as_read(session)


def test_validate_pins_its_problems() -> None:
    """What `validate` says, word for word and in order, about a session with errors of several kinds."""
    booth = sample("ticket-booth-3p.toml")
    ana, bo = booth.players[0], booth.players[1]
    session = replace(booth.with_value(1, ana, "attractions", {"8": 9}).with_value(2, bo, "mystery", 3),
                      title="a\x07", rules={"rounds": 3, "house": True})
    assert [(p.severity, p.path, p.message) for p in validation.validate(session)] == [
        ("error", "title",
         "a control character (\\x07) at character 2 of the title; it must be one line of plain text"),
        ("error", "rules.house", "unknown key 'house'; allowed: rounds, booth_tie, attraction_names"),
        ("error", 'rounds[1].players."Ana".attractions."8"', "9 is out of range; expected a whole number from 0 to 8"),
        ("error", 'rounds[2].players."Bo".mystery',
         "unknown key 'mystery'; allowed: attractions, outhouses, ticket_booth, demolition_derby, piglet_race, "
         "tickets"),
    ]
    assert validation.validate(booth) == []


def test_the_one_pass_control_search_agrees_with_is_control_on_every_code_point() -> None:
    """`has_control` (one regular expression, what the text check runs first) refuses exactly what `is_control` does."""
    from scorekeeper.model.text import has_control, is_control

    assert [c for c in range(0x110000) if has_control(chr(c)) != is_control(chr(c))] == []
    assert has_control("ok\u202e") and has_control("a\x85") and not has_control("👩\u200d💻 ok\ufe0f")
