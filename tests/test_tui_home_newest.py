"""On a cold folder the home list fills in from the index in the background: its cursor and view stay on the newest
session unless the user moved them (issue 33, item 5)."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

from scorekeeper import store
from scorekeeper.index.indexing import summarize
from scorekeeper.model.session import Round, Session
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.listing import Entry, SessionList
from tests.test_tui_support import STARTED, burst, pilot_test, running, settle


def nights(folder: Path, count: int) -> list[Entry]:
    """`count` sessions, one a night, and their entries newest first (as the index lists them)."""
    folder.mkdir()
    entries = []
    for n in range(count):
        session = Session(game="ticket-booth", players=("Ana", "Bo"), title=f"Night {n}",
                          started=STARTED + timedelta(days=n), rounds=(Round(),))
        path = folder / f"night-{n:03}.toml"
        store.save(path, session)
        summary = summarize(path)
        assert summary is not None
        entries.append(Entry.from_summary(summary))
    return entries[::-1]


@pilot_test
async def test_the_cursor_stays_on_the_newest_while_the_list_fills_in(tmp_path: Path) -> None:
    """The list first holds the 20 oldest nights (read first), then all 60: the cursor is still on the newest
    night, at the top, in view; once the user moved it, it stays on the session it was moved to."""
    entries = nights(tmp_path / "sessions", 60)
    async with running(tmp_path / "sessions", size=(100, 30)) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        listing = home.query_one(SessionList)
        home.post_message(HomeScreen.Loaded(entries[-20:], final=False))
        await settle(pilot)
        assert listing.highlighted == 0
        home.post_message(HomeScreen.Loaded(entries, final=False))
        await settle(pilot)
        assert home.current() is not None and home.current().name == "Night 59"  # type: ignore[union-attr]
        assert listing.highlighted == 0 and listing.scroll_y == 0
        home.post_message(HomeScreen.Loaded(entries[-20:], final=False))
        await burst(pilot, "down")
        assert home.current().name == "Night 18"  # type: ignore[union-attr]
        home.post_message(HomeScreen.Loaded(entries, final=False))
        await settle(pilot)
        assert home.current().name == "Night 18" and listing.highlighted == 41  # type: ignore[union-attr]
