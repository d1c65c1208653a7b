"""Typed results: statistics and the index's detail are frozen values, written as JSON in one place and read back
through them (a detail of any other shape is refused)."""

from __future__ import annotations

import dataclasses
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scorekeeper.after.stats import statistics, to_json
from scorekeeper.after.stats_model import GameStats, Statistics, json_data
from scorekeeper.index.detail import Detail, PlayerDetail
from scorekeeper.index.indexing import summarize

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


def test_statistics_are_a_frozen_value_and_their_json_is_written_from_it() -> None:
    result = statistics([summarize(p) for p in sorted(SAMPLES.glob("*.toml"))])
    assert isinstance(result, Statistics) and all(isinstance(g, GameStats) for g in result.games)
    with pytest.raises(dataclasses.FrozenInstanceError):
        result.sessions = 0  # type: ignore[misc]
    assert json.loads(to_json(result, "f")) == {"folder": "f", **json_data(result)}
    ride = next(g for g in result.games if g.boards)
    assert {b.board for b in ride.boards or ()} == {"usa", "europe", "nordic", "none"}


points = st.one_of(st.integers(-10**6, 10**6), st.integers(-10**6, 10**6).map(lambda n: n + 0.5))
texts = st.text(max_size=8)
players = st.builds(PlayerDetail, texts, points, st.integers(1, 5), st.none() | texts,
                    st.lists(points, max_size=4).map(tuple), st.dictionaries(texts, points, max_size=3),
                    st.tuples(st.integers(0, 9), st.integers(0, 9)),
                    st.dictionaries(st.sampled_from(["longest_path", "stations", "globetrotter"]),
                                    st.booleans() | st.integers(0, 3)))
details = st.builds(Detail, st.integers(0, 9), st.none() | texts, st.none() | texts, st.integers(0, 9),
                    st.none() | texts, st.none() | texts, st.lists(players, max_size=3).map(tuple))


@given(details)
def test_a_detail_reads_back_as_it_was_written(detail: Detail) -> None:
    assert Detail.read(detail.json()) == detail


WRONG = {"name": 5, "total": "many", "place": 1.5, "why": 3, "rounds": ["x"], "categories": {"a": None},
         "tickets": [True, 0], "stations": "three"}


@given(details.filter(lambda d: bool(d.players)), st.sampled_from(sorted(WRONG)))
def test_a_detail_of_any_other_shape_is_refused(detail: Detail, key: str) -> None:
    data = json.loads(detail.json())
    data["players"][0][key] = WRONG[key]
    with pytest.raises(ValueError):
        Detail.read(json.dumps(data))
