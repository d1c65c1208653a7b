"""A seat cannot see what it must not (SPEC §5, "Live sessions"), as non-interference: two sessions that differ only
in the other players' values of a round not yet revealed give the seat the same `SeatView`, and the same text drawn
from it, refusals included — over every game and board. And the one reveal rule: a round is revealed when every
player has filled every step of it, whatever the others' tables hold."""

from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import files, games, walk
from scorekeeper.model.session import Round, Session
from scorekeeper.tui.screens.seat import view_text
from scorekeeper.walk import seat_view
from scorekeeper.walk.document import Document
from scorekeeper.walk.state import WalkState
from tests.reference_boards import random_game
from tests.reference_model import GENS
from tests.test_tui_support import write_session

BOARDS = ("usa", "europe", "nordic")
KINDS = (*sorted(GENS), *BOARDS)


def generated(kind: str, rng: random.Random) -> Session:
    """A valid session of a game (its generator in tests/reference_model.py) or of a board with a map."""
    if kind in BOARDS:
        players, entries = random_game(kind, rng)
        doc: dict[str, Any] = {"format": 1, "game": "ticket-to-ride", "players": players, "rules": {"map": kind},
                               "rounds": [{"players": entries}]}
    else:
        doc = GENS[kind](rng)
    session, found = files.parse(tomli_w.dumps(doc))
    assert session is not None, [p.describe() for p in found if p.is_error]
    if not session.rounds:
        session = replace(session, rounds=(Round(),))
    return session


def strings(value: Any) -> list[str]:
    """Every text inside a value (route and city names, ticket names)."""
    if isinstance(value, str):
        return [value]
    if isinstance(value, dict):
        return [t for v in value.values() for t in strings(v)]
    if isinstance(value, list):
        return [t for v in value for t in strings(v)]
    return []


def shaken(value: Any, rng: random.Random, pool: list[str]) -> Any:
    """Another value of the same shape: a number another number, a flag either way, a text another of the round's
    texts, a list other items (what is given stays given: the others' progress is theirs to show)."""
    if isinstance(value, bool):
        return rng.random() < 0.5
    if isinstance(value, int):
        return rng.randint(0, value + 2)  # mostly in range: the round's checks across players get their turn
    if isinstance(value, str):
        return rng.choice(pool) if pool else value
    if isinstance(value, dict):
        return {k: shaken(v, rng, pool) for k, v in value.items()}
    if isinstance(value, list):
        if value and isinstance(value[0], str):
            return [rng.choice(pool) for _ in range(rng.randint(0, len(value) + 2))]
        return [shaken(v, rng, pool) for v in value]
    return value


def prefix(game: Any, session: Session, entry: dict[str, Any], k: int) -> dict[str, Any]:
    """The table as the app leaves it after the player's first `k` steps: their values, a blank (0, no, none)
    where the table had none, nothing of the later steps (a player still typing)."""
    out: dict[str, Any] = {}
    number = 1
    typed = Session(session.game, session.players, rules=session.rules, rounds=(Round(players={"p": out}),))
    for step in game.steps(session)[:k]:
        slots = walk.slots(game, session, step)
        given = [slot for slot in slots if walk.value_of(entry, slot) is not None]
        for slot in slots:
            value = walk.value_of(entry, slot)
            if value is None and (given if walk.either(step) else False):
                continue
            if value is None:
                value = slot.blank()
                given.append(slot)
            if value is not None:
                typed = walk.with_slot(typed, number, "p", slot, value)
    return dict(typed.round(number).entry("p"))


def case(kind: str, seed: int) -> tuple[Session, Session, str, int, int, dict[tuple[str, str | None], Any]]:
    """Two sessions differing only in the others' values of round `number`, the seat's player, the round, a step
    and the seat's own values refused there."""
    rng = random.Random(seed)
    one = generated(kind, rng)
    game = games.get(one.game)
    number = rng.randint(1, len(one.rounds))
    player = rng.choice(one.players)
    steps = game.steps(one)
    rnd = one.round(number)
    tables = {p: prefix(game, one, rnd.entry(p), rng.choice([len(steps), rng.randint(0, len(steps))]))
              for p in one.players if p in rnd.players or rng.random() < 0.3}
    rounds = list(one.rounds)
    rounds[number - 1] = Round(players=tables)
    one = replace(one, rounds=tuple(rounds))
    pool = strings(list(tables.values()))
    other = {p: (shaken(t, rng, pool) if p != player else t) for p, t in tables.items()}
    rounds[number - 1] = Round(players=other)
    two = replace(one, rounds=tuple(rounds))
    index = rng.randrange(len(steps))
    refused: dict[tuple[str, str | None], Any] = {}
    for slot in walk.slots(game, one, steps[index]):
        if rng.random() < 0.5 and slot.kind in ("int", "bool", "holder"):
            top = slot.hi if slot.hi is not None else 15
            number_ = top if rng.random() < 0.5 else rng.randint(slot.lo, top)  # the most: a clash with the others
            refused[(slot.key, slot.sub)] = number_ if slot.kind == "int" else rng.random() < 0.5
    return one, two, player, number, index, refused


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(kind=st.sampled_from(KINDS), seed=st.integers(0, 2**32))
def test_a_seat_is_shown_nothing_of_the_others_values_before_the_reveal(kind: str, seed: int) -> None:
    one, two, player, number, index, refused = case(kind, seed)
    game = games.get(one.game)
    if game.revealed(one, number):
        assert game.revealed(two, number)  # the others' progress is the same in both: so is the reveal
        return
    a = seat_view.seat_view(one, player, number, index, refused)
    b = seat_view.seat_view(two, player, number, index, refused)
    assert a == b
    assert view_text(a, 40) == view_text(b, 40)
    assert not a.revealed and a.points == () and a.standing == ""


def test_a_refusal_names_only_the_seats_own_value() -> None:
    """Ana types 7 at #11 while Bo holds 5 of the 11 cards: the seat's reason names her 7, never Bo's 5."""
    ana = {"attractions": {str(n): 0 for n in range(1, 11)}}
    bo = {"attractions": {**{str(n): 0 for n in range(1, 11)}, "11": 5}}
    session = Session("ticket-booth", ("Ana", "Bo"), rounds=(Round(players={"Ana": ana, "Bo": bo}),))
    game = games.get("ticket-booth")
    index = next(i for i, s in enumerate(game.steps(session)) if s.id == "attraction:11")
    core = walk.errors(walk.round_check(game, walk.with_slot(session, 1, "Ana", walk.slots(
        game, session, game.steps(session)[index])[0], 7), 1))
    assert core and "Bo 5" in core[0].message  # what the host's screen says
    shown = seat_view.seat_view(session, "Ana", 1, index, {("attractions", "11"): 7})
    ((_key, _sub, text),) = shown.refusals
    assert "7" in text and "5" not in text and "Bo" not in text, text


def test_a_half_typed_round_is_not_revealed_however_the_others_tables_look() -> None:
    """Bo's phone has typed his first three objectives of a Mars round; Ana has typed hers all: the round is not
    revealed (and not where the table stops), though every player has a table."""
    game = games.get("ticket-to-mars")
    full = {k: {"count": 1, "each": 2} for k in ("pairs", "occupancy", "character")}
    session = Session("ticket-to-mars", ("Ana", "Bo"), rules={"rounds": 3}, rounds=(Round(players={
        "Ana": full, "Bo": {"pairs": {"count": 0, "each": 1}}}),))
    assert not game.revealed(session, 1) and game.filled(session, 1, "Ana") and not game.filled(session, 1, "Bo")
    assert walk.resume(game, session) == (1, 1)
    both = replace(session, rounds=(Round(players={"Ana": full, "Bo": full}),))
    assert game.revealed(both, 1) and walk.resume(game, both) is None


def test_a_half_typed_round_is_told_to_be_finished_not_the_next_one(tmp_path: Path) -> None:
    """Both players' tables hold a Mars round's first objective only: its Summary says to finish it (the table
    does not score round 2 yet), and the walk resumes there."""
    half = {"pairs": {"count": 1, "each": 2}}
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 3},
                         rounds=(Round(players={"Ana": half, "Bo": half}),))
    doc = Document.open(path)
    state = WalkState(doc, 1)
    state.go(len(state.steps) - 1)
    assert state.notes().next == "finish round 1 from Occupancy"
    assert walk.resume(state.game, doc.session) == (1, 1)
