"""Issue 25 item 4: after a round typed in one burst, the Summary says the final result (it used to lose it until
PgUp, PgDn: the notes were drawn while the burst's save was still pending, and not again after it)."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.hanging import Hanging
from tests.test_tui_support import burst, pilot_test, running, settle, write_session

MARS_TYPED = ("2", "3", "3", "2", "1", "4", "2", "2", "", "5", "1", "5")


def notes_text(screen: WalkthroughScreen) -> str:
    return " ".join(str(screen.query_one("#step-notes", Hanging).render()).split())  # the Summary's notes


@pilot_test
async def test_mars_summary_after_a_burst_says_who_won(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, *[t for value in MARS_TYPED for t in (value, "enter") if t])
        await settle(pilot)
        assert screen.step.id == "summary"
        shown = notes_text(screen)
        assert "Final result: Bo won" in shown, shown


@pilot_test
async def test_ticket_to_ride_summary_after_a_burst_says_who_won(tmp_path: Path) -> None:
    """The whole round in one burst: the score track, tickets as lines, the longest path; on the Summary the
    final result is there at once (Ana 41 + 8 + 10 = 59, Bo 37 + 12 - 5 = 44)."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, "41", "enter", "37", "enter",  # route points
                    "8", "enter", "enter", "12", "enter", "-5", "enter", "enter",  # tickets
                    "9", "enter", "6", "enter")  # longest path
        await settle(pilot)
        assert screen.step.id == "summary"
        shown = notes_text(screen)
        assert "Final result: Ana won" in shown, shown
