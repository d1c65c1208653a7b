"""What a new user met first: the app as it looks the first time, each finding with the keys that showed it."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.model.session import Round
from scorekeeper.tui.screens.dialogs import RenameScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from tests.test_tui_support import burst, pilot_test, running, saved, settle, write_session

SMALL = (80, 24)


@pilot_test
async def test_a_refused_count_says_why_once(tmp_path: Path) -> None:
    """Two #1 cards when the game has one: the reason is shown once at the refused box, and nothing is saved."""
    path = write_session(tmp_path, "ticket-booth", ["Kim", "Lou"],
                         rounds=(Round(players={"Lou": {"attractions": {"1": 1}}}),))
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        screen.go(0, ("Kim", "attractions", "1"))
        await burst(pilot, "1", "enter")
        row = " ".join(screen.row_text("Kim").split())
        assert row.count("but there are only 1") == 1, row
    assert "Kim" not in saved(path)[0].rounds[0].players


@pilot_test
async def test_rename_down_in_the_name_box_picks_the_next_player(tmp_path: Path) -> None:
    """r opens with the name box focused: ↓ picks the next player (as a new user tries first), typing replaces
    that name, Enter renames; one burst, as tmux sends it."""
    path = write_session(tmp_path, "ticket-to-mars", ["Kim", "Lou", "Max"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, "escape")
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "r")
        assert isinstance(app.screen, RenameScreen)
        await burst(pilot, "down", "down", "up", "Lucia", "enter")
        assert isinstance(app.screen, StandingsScreen)
    assert saved(path)[0].players == ("Kim", "Lucia", "Max")


@pilot_test
async def test_the_empty_ticket_box_at_the_cursor_shows_how_to_type(tmp_path: Path) -> None:
    """On the tickets step the box with the cursor shows the example lines too (it showed only on the others',
    beside another player's name, as if it were theirs); typed tickets are saved as typed."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        screen.go(1)
        await settle(pilot)
        assert "-8 failed" in screen.row_text("Ana")
        await burst(pilot, "8", "enter", "-4 Denver - El Paso", "enter", "enter")
        assert "-8 failed" in screen.row_text("Bo")
    assert saved(path)[0].rounds[0].players["Ana"]["tickets"] == [
        {"points": 8, "completed": True}, {"points": 4, "completed": False, "name": "Denver - El Paso"}]


@pilot_test
async def test_the_route_entry_note_is_whole_at_80_columns(tmp_path: Path) -> None:
    """The routes step at 80×24: the note naming the other way to enter routes is read whole (the note of the
    alternatives was cut to `give one or`); route points typed for both players are saved, one Enter each."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        text = screen.query_one(StepGrid).plain()
        assert "ctrl+e: counts by length" in text, text
        assert all(len(line.rstrip()) <= screen.query_one(StepGrid).size.width for line in text.splitlines())
        await burst(pilot, "31", "enter", "17", "enter")
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["route_points"] == 31 and players["Bo"]["route_points"] == 17


def test_a_folder_given_as_the_file_says_to_use_dir(tmp_path: Path, monkeypatch, capsys) -> None:
    """`scorekeeper FOLDER` opened the app on the default folder over a dialog telling to fix 'the file' in an
    editor; it now says what to type instead, and starts nothing."""
    from scorekeeper.cli import main

    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    started: list[object] = []
    monkeypatch.setattr("scorekeeper.tui.app.run", lambda *a: started.append(a) or 0)
    code = main([str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and not started
    assert f"is a folder, not a session file: to open it as the sessions folder, scorekeeper --dir {tmp_path}" in err
