"""Fixes noticed in use: keys typed while a screen is pushed land on it, one truth for a round's state, help
from what the screen offers, invalid files told from unreadable ones, toasts that keep the grid in view."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from tests.test_tui_support import app_for, burst, pilot_test, saved, settle, values, write_session

SMALL = (80, 24)


# -- 1. keys typed while a screen is being pushed land on it, in order ---------------------------------------
@pilot_test
async def test_ctrl_n_the_form_and_the_first_round_in_one_burst(tmp_path: Path) -> None:
    """From home: ctrl+n, Ticket to Mars, two names, a title, ctrl+s, then round 1, all in one burst."""
    app = app_for(tmp_path)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await burst(pilot, "ctrl+n", "down", "down", "down", "enter", *values("Ana", "Bo"), "tab", "tab", "tab",
                    "Mars night", "ctrl+s",
                    *values("2", "3", "3", "2", "1", "4", "2", "2", "", "5", "1", "5"))
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.step.title == "Summary"
    [path] = tmp_path.glob("*.toml")
    session, _ = saved(path)
    assert session.game == "ticket-to-mars" and session.players == ("Ana", "Bo")
    assert session.title == "Mars night"
    assert session.rounds[0].players == {
        "Ana": {"pairs": {"count": 2, "each": 3}, "occupancy": {"count": 1, "each": 4},
                "character": {"count": 0, "each": 5}},
        "Bo": {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 2, "each": 2},
               "character": {"count": 1, "each": 5}},
    }
