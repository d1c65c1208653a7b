"""Counts of one read as one: `the 1 #1 card`, never `all 1 #1 cards` (issue 25.8)."""

from __future__ import annotations

from scorekeeper import games
from scorekeeper.model.session import Round, Session


def test_the_one_card_of_a_kind_is_singular() -> None:
    """Ana holds the only #1 card and both #2 cards: `the 1 #1 card: double 1`, `all 2 #2 cards: double 2`."""
    session = Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(players={
        "Ana": {"attractions": {"1": 1, "2": 2}}, "Bo": {"attractions": {"1": 0, "2": 0}}}),))
    reasons = [item.why for item in games.score(session, []).rounds[0].items if item.player == "Ana"]
    text = "\n".join(reasons)
    assert "all 1 " not in text and "1 #1 cards" not in text
    assert any(r.startswith("the 1 ") and r.endswith("card: double 1") for r in reasons), reasons
    assert any(r.startswith("all 2 ") and r.endswith("cards: double 2") for r in reasons), reasons
