"""The Routes step's hint lists the whole route table of the board played (issue 25.8)."""

from __future__ import annotations

import pytest

from scorekeeper import games
from scorekeeper.model.session import Session


@pytest.mark.parametrize("rules, table", [
    ({}, "1→1, 2→2, 3→4, 4→7, 5→10, 6→15, 7→18, 8→21, 9→27"),
    ({"edition": "europe"}, "1→1, 2→2, 3→4, 4→7, 6→15, 8→21"),
    ({"edition": "nordic"}, "1→1, 2→2, 3→4, 4→7, 5→10, 6→15, 9→27"),
])
def test_routes_hint_has_the_boards_whole_table(rules: dict, table: str) -> None:
    step = games.get("ticket-to-ride").steps(Session(game="ticket-to-ride", players=("Ana", "Bo"), rules=rules))[0]
    assert f"({table})" in step.help
