"""The program against the brute-force reference of tests/reference_boards.py on random legal games of Europe and
Nordic Countries: 0 disagreements."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tests.helpers import errors, session, sheet
from tests.reference_boards import random_game, reference


def program(name: str, players: list[str], entries: dict) -> dict[str, dict[str, int]]:
    s = session("ticket-to-ride", players, entries, rules={"map": name})
    assert not errors(s), [p.message for p in errors(s)]
    sh = sheet(s)
    items = [i for r in sh.rounds for i in r.items]
    out: dict[str, dict[str, int]] = {}
    for p in players:
        mine = [i for i in items if i.player == p]
        out[p] = {
            "tickets": int(sum(i.points for i in mine if i.category == "ticket")),
            "done": sum(1 for i in mine if i.category == "ticket" and i.points > 0),
            "total": int(sh.totals[p]),
        }
    return out


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["europe", "nordic"]), st.integers(0, 2**32))
def test_the_program_agrees_with_the_reference(name, seed):
    players, entries = random_game(name, random.Random(seed))
    want = reference(name, players, entries)
    got = program(name, players, entries)
    for p in players:
        assert got[p] == {k: want[p][k] for k in ("tickets", "done", "total")}, (p, entries)
