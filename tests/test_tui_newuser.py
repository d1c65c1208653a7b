"""What a new user met first: the app as it looks the first time, each finding with the keys that showed it."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.session import Round
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from tests.test_tui_support import app_for, burst, pilot_test, saved, settle, write_session

SMALL = (80, 24)


@pilot_test
async def test_a_refused_count_says_why_once(tmp_path: Path) -> None:
    """Two #1 cards when the game has one: the reason is shown once at the refused box, and nothing is saved."""
    path = write_session(tmp_path, "ticket-booth", ["Kim", "Lou"],
                         rounds=(Round(players={"Lou": {"attractions": {"1": 1}}}),))
    app = app_for(tmp_path, path)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        screen.go(0, ("Kim", "attractions", "1"))
        await burst(pilot, "1", "enter")
        row = " ".join(screen.row_text("Kim").split())
        assert row.count("but there are only 1") == 1, row
    assert "Kim" not in saved(path)[0].rounds[0].players
