"""The Routes step's hint lists the whole route table (issue 25.8)."""

from __future__ import annotations

from scorekeeper import games
from scorekeeper.session import Session


def test_routes_hint_has_the_whole_table() -> None:
    """1→1 … 6→15, and 7→18, 8→21, 9→27 on the USA board."""
    step = games.get("ticket-to-ride").steps(Session(game="ticket-to-ride", players=("Ana", "Bo")))[0]
    assert "1→1, 2→2, 3→4, 4→7, 5→10, 6→15, (7→18, 8→21, 9→27 on the USA board)" in step.help
