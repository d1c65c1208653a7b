"""Random valid sessions of every game scored by the core against an independent reading of SPEC.md §2.1 and §4."""

from __future__ import annotations

import random

import pytest
import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import files, games
from scorekeeper.after.report import sheet_json
from tests.reference_model import GENS, compare


def score_json(doc: dict) -> dict:
    """The `score --json` object of a session document, through the file format."""
    session, found = files.parse(tomli_w.dumps(doc))
    assert session is not None, [p.describe() for p in found if p.is_error]
    return sheet_json(games.score(session, found), "x.toml")


@pytest.mark.parametrize("game", sorted(GENS))
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_the_core_agrees_with_an_independent_reading(game: str, seed: int) -> None:
    """Per-round points, items by category summing to points, totals, ranking (competition ranking, the
    tie-break chain at every place), winners, tiebreak null or a sentence, complete, next and the warnings."""
    doc = GENS[game](random.Random(seed))
    assert compare(doc, score_json(doc)) == []
