"""Issue 25 item 8, what a table expects from a score app: the home footer at 80 columns, toasts that stay on
their screen, the winner's score on the home list, recent players, the sample opened without copying it, and a
result to paste in a group chat."""

from __future__ import annotations

import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from textual.pilot import Pilot

from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.help import HelpScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.widgets.bars import KeyBar
from tests.test_tui_support import SIZE, app_for, burst, pilot_test, running, settle, write_session

SMALL = (80, 24)


def footer(screen: object) -> str:
    """The footer as drawn at the terminal's width (the keys that do not fit are left out)."""
    return " ".join(str(screen.query_one(KeyBar).render()).split())  # type: ignore[attr-defined]


# -- the home footer keeps ^o, ^q and F1 at 80 columns ------------------------------------------
@pilot_test
async def test_the_home_footer_keeps_sample_quit_and_help_at_80_columns(tmp_path: Path) -> None:
    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="a.toml", aged=0)
    write_session(tmp_path, "ticket-to-mars", ["Cy", "Di"], name="b.toml", aged=1)
    async with running(tmp_path, size=SMALL) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        shown = footer(home)
        for key in ("^n New session", "del Delete", "^o Open a sample", "^q Quit", "f1 Help", "^p palette"):
            assert key in shown, shown
        assert shown.count("Help") == 1
        await burst(pilot, "ctrl+d", "y")  # Undo delete joins the footer: the three stay
        shown = footer(home)
        assert "^z Undo delete" in shown or "Undo delete" not in shown
        for key in ("^o Open a sample", "^q Quit", "f1 Help"):
            assert key in shown, shown
        await burst(pilot, "?")  # a printable key is the filter's
        assert app.screen is home and home.query_one("#filter").value == "?"  # type: ignore[attr-defined]
        await burst(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)


@pilot_test
async def test_the_home_footer_at_120_columns_shows_every_key(tmp_path: Path) -> None:
    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path) as (app, _pilot):
        shown = footer(app.screen)
        for key in ("^n New session", "del Delete", "^t Trash", "f2 History", "f3 Statistics", "^o Open a sample",
                    "^q Quit", "f1 Help"):
            assert key in shown, shown


# -- toasts stay on the screen they were raised on ------------------------------------------------
@asynccontextmanager
async def with_toasts(folder: Path) -> AsyncIterator[tuple[ScorekeeperApp, Pilot]]:
    """The app as `running` gives it, with Textual's toasts drawn (a test app has none unless asked)."""
    app = app_for(folder)
    async with app.run_test(size=SIZE, notifications=True) as pilot:
        await settle(pilot)
        yield app, pilot


def toasts(app: object) -> list[str]:
    return [" ".join(str(t.render()).split()) for t in app.screen.query("Toast")]  # type: ignore[attr-defined]


@pilot_test
async def test_a_toast_does_not_follow_to_the_next_screen(tmp_path: Path) -> None:
    """Delete on the home list: "Deleted … ctrl+z brings it back" there; ctrl+n: the New session form has no
    toast over it; back home: none either (the list is not covered)."""
    from scorekeeper.tui.screens.new_session import NewSessionScreen

    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="a.toml", aged=0)
    write_session(tmp_path, "ticket-to-mars", ["Cy", "Di"], name="b.toml", aged=1)
    async with with_toasts(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+d", "y")
        assert any("Deleted" in t for t in toasts(app)), toasts(app)
        await burst(pilot, "ctrl+n")
        assert isinstance(app.screen, NewSessionScreen)
        assert toasts(app) == []
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen) and toasts(app) == []


@pilot_test
async def test_an_error_toast_outlives_the_change_of_screen(tmp_path: Path) -> None:
    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with with_toasts(tmp_path) as (app, pilot):
        app.notify("Could not save: the disk is full", severity="error", timeout=30)
        await burst(pilot)
        app.errors = [(raised - 1, *rest) for raised, *rest in app.errors]  # raised a second ago
        await burst(pilot, "ctrl+n")
        assert any("disk is full" in t for t in toasts(app)), toasts(app)


# -- the winner's score on the home list ----------------------------------------------------------
SAMPLES = Path(__file__).parent.parent / "sample_sessions"


@pytest.mark.parametrize(("name", "state"), [
    ("ticket-booth-3p.toml", "finished — Bo won 95½–76"),
    ("ticket-booth-tiebreak.toml", "finished — Bo won 71–71 (scored more in the last round)"),
    ("ticket-booth-shared.toml", "finished — Ivy and Jo share the victory on 129"),
    ("ticket-to-ride-tie-tickets.toml", "finished — Jun won 76–76 (completed more tickets)"),
    ("ticket-to-ride-europe-4p.toml", "finished — Finn won 71–71 (built fewer stations)"),
    ("ticket-to-mars-extra-round.toml", "finished — Rafael won 25–23"),
    ("ticket-booth-in-progress.toml", "round 2 of 3 — Kim leads"),
])
def test_the_state_has_the_winners_score(name: str, state: str) -> None:
    from scorekeeper import files, games, walk

    session, warnings = files.load(SAMPLES / name)
    assert walk.state_text(games.get(session.game), session, games.score(session, warnings)) == state


@pilot_test
async def test_the_home_list_shows_the_winners_score(tmp_path: Path) -> None:
    for name in ("ticket-booth-tiebreak.toml", "ticket-to-ride-4p.toml"):
        shutil.copy(SAMPLES / name, tmp_path / name)
    async with running(tmp_path, size=SMALL) as (app, _pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        drawn = " ".join(" ".join(str(line) for line in entry.lines()) for entry in home.shown)  # type: ignore[attr-defined]
        assert "finished — Bo won 71–71 (scored more in the last round)" in drawn, drawn
        assert "finished — Theo won 117–79" in drawn, drawn


def test_an_index_of_the_older_schema_is_rebuilt_with_the_scores(tmp_path: Path) -> None:
    """An index written before the states had the scores (schema 3) is rebuilt: no `finished — Bo won` stays."""
    import os
    import sqlite3

    from scorekeeper.index import Index, db_path

    shutil.copy(SAMPLES / "ticket-booth-3p.toml", tmp_path / "a.toml")
    os.utime(tmp_path / "a.toml", (1_700_000_000, 1_700_000_000))  # long ago: the index trusts its row
    with Index(tmp_path) as index:
        index.refresh(workers=None)
    con = sqlite3.connect(db_path(tmp_path))
    with con:
        con.execute("UPDATE sessions SET state = 'finished — Bo won'")
        con.execute("PRAGMA user_version = 3")
    con.close()
    with Index(tmp_path) as index:
        index.refresh(workers=None)
        assert [s.state for s in index.summaries()] == ["finished — Bo won 95½–76"]


# -- ctrl+o opens the sample without copying it for good ------------------------------------------
def tomls(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.glob("*.toml"))


@pilot_test
async def test_ctrl_o_opens_the_sample_and_leaves_nothing_behind(tmp_path: Path) -> None:
    """A look at the sample (its walkthrough, its standings, back home) writes nothing in the folder."""
    from scorekeeper.tui.screens.standings import StandingsScreen
    from scorekeeper.tui.screens.walkthrough import WalkthroughScreen

    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+o")
        assert isinstance(app.screen, WalkthroughScreen)
        assert app.screen.session.players == ("Kim", "Lou", "Max")
        await burst(pilot, "pagedown", "pageup", "escape")
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)
        assert tomls(tmp_path) == [] and not (tmp_path / "exports").exists()
        assert app.screen.shown == []  # type: ignore[attr-defined]


@pilot_test
async def test_the_first_change_to_the_sample_keeps_a_copy_with_it(tmp_path: Path) -> None:
    """What is typed into the sample is not lost: the first change copies it into the folder (a free name), the
    change saved there; the next ones and ctrl+z too; back home, the copy is listed."""
    from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
    from tests.test_tui_support import saved

    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="sample-ticket-booth-in-progress.toml", aged=0)
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+o")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert screen.step.title == "#1"  # round 2: Kim and Lou in, Kim first (#1 is Lou's)
        await burst(pilot, "0", "enter")
        copy = tmp_path / "sample-ticket-booth-in-progress-2.toml"
        assert tomls(tmp_path) == [copy.name, "sample-ticket-booth-in-progress.toml"]
        assert app.doc is not None and app.doc.path == copy
        first = saved(copy)[0]
        assert first.rounds[1].players["Kim"]["attractions"]["1"] == 0
        await burst(pilot, "down", "down", "enter")  # Max: none
        assert saved(copy)[0] != first
        await burst(pilot, "ctrl+z")
        assert saved(copy)[0] == first
        await burst(pilot, "escape", "escape")
        assert isinstance(app.screen, HomeScreen)
        assert copy in [entry.path for entry in app.screen.shown]  # type: ignore[attr-defined]


# -- recent players on New session ----------------------------------------------------------------
def test_recent_names_most_recent_first_once_each_and_only_valid_ones() -> None:
    from scorekeeper.tui.screens.new_session import completion, recent_names

    names = recent_names([("2026-01-02", ("Zoé", "bo")), ("2026-03-01", ("Zoltan", "Bo")),
                          ("2026-02-01", ("Ann\x1b[31m", " Cy", "x" * 41, "Dee"))])
    assert names == ("Zoltan", "Bo", "Dee", "Zoé")
    assert completion("zo", names) == "Zoltan"
    assert completion("zo", names, taken=["ZOLTAN"]) == "Zoé"
    assert completion("Zoe\u0301", names) == "Zoé"  # NFC: the same letters typed decomposed
    assert completion("", names) is None and completion("q", names) is None


@pilot_test
async def test_a_few_letters_and_tab_complete_a_recent_player(tmp_path: Path) -> None:
    """ctrl+n, then `zo` Tab in the first box: Zoltan (the most recent session's); `zo` Tab in the second: Zoé
    (Zoltan is taken); `q` Tab: nothing to complete, the next box; the session is created with the names."""
    from tests.test_tui_support import saved

    old = write_session(tmp_path, "ticket-to-mars", ["Zoé", "Bo"], name="old.toml", aged=60)
    old.write_text(old.read_text("utf-8").replace("2026-11-27 19:30:00", "2026-10-02 19:30:00"), "utf-8")
    write_session(tmp_path, "ticket-booth", ["Zoltan", "Ana"], name="new.toml", aged=0)  # played 2026-11-27
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+n", "enter", "zo", "tab")
        form = app.screen
        assert form.query_one("#player-1").value == "Zoltan"  # type: ignore[attr-defined]
        assert form.focused is form.query_one("#player-1")
        await burst(pilot, "enter", "zo", "tab", "enter", "q", "tab")
        assert form.query_one("#player-2").value == "Zoé"  # type: ignore[attr-defined]
        assert form.query_one("#player-3").value == "q"  # type: ignore[attr-defined]
        assert form.focused is form.query_one("#player-4")
        await burst(pilot, "shift+tab", "backspace", "ctrl+s")
    created = [p for p in tmp_path.glob("*.toml") if p.name not in ("old.toml", "new.toml")]
    assert len(created) == 1 and saved(created[0])[0].players == ("Zoltan", "Zoé")
