"""Tab and shift+Tab in the walkthrough's grid stay in the grid: they go round the player's row (issue 25.3)."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from tests.test_tui_support import pilot_test, running, saved, settle, write_session


@pilot_test
async def test_shift_tab_from_the_first_box_goes_round_the_row(tmp_path: Path) -> None:
    """Ticket to Ride's Routes counted by length (ctrl+e), Ana's first box: shift+Tab goes to her last count (the
    row's last box), not to the step list; the digits typed land there; shift+Tab again: the 8s."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Routes"
        await pilot.press("ctrl+e")
        await pilot.press("shift+tab")
        await settle(pilot)
        assert isinstance(app.focused, StepGrid)
        await pilot.press("2")  # two 9s
        await pilot.press("shift+tab")  # the count before: the 8s
        await settle(pilot)
        assert isinstance(app.focused, StepGrid)
        await pilot.press("1", "enter")
        await settle(pilot)
        assert isinstance(app.focused, StepGrid)
    players = saved(path)[0].rounds[0].players
    assert players["Ana"].get("routes") == {"8": 1, "9": 2}
