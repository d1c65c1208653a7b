"""The home screen's first-screen file: what it keeps, that a bad one is never used, that the index's truth
replaces it right after the first frame (issue 14, start-up)."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

from scorekeeper import first_screen
from scorekeeper.first_screen import Row
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.listing import SessionList
from tests.test_tui_support import SIZE, app_for, pilot_test, settle, write_session

TRICKY = [
    Row("a\tb\\n.toml", "tab\there, line\nthere \\ and \x1f", "ticket-booth", ("Ana", "B\x1fo", "\\", ""),
        "finished — Ana won", "", "2026-11-27T19:30:00"),
    Row("caf\udce9.toml", "", "", (), "cannot be read", "error: not UTF-8", "2026-01-02T03:04:05"),
    Row("z.toml", "Zoë 漢字", "nope", ("Zoë",), "has problems", "error: line 3: bad", ""),
]


def two_sessions(folder: Path) -> None:
    """Two sessions written a while ago (the index trusts them at once)."""
    write_session(folder, "ticket-booth", ["Ana", "Bo"], name="a.toml", title="Friday")
    write_session(folder, "ticket-to-mars", ["Cy", "Dee"], name="b.toml", title="Mars night")
    for i, name in enumerate(("a.toml", "b.toml")):
        os.utime(folder / name, (1_700_000_000 - i * 60, 1_700_000_000 - i * 60))


def test_rows_come_back_as_written_whatever_their_text(tmp_path: Path) -> None:
    """Tabs, line feeds, backslashes, unit separators, undecodable file names: each row reads back the same."""
    text = first_screen.text(tmp_path, TRICKY)
    assert first_screen.parse(tmp_path, text) == TRICKY
    assert first_screen.write(tmp_path, text)
    assert first_screen.read(tmp_path) == (TRICKY, text)
    assert first_screen.path(tmp_path).parent == first_screen.cache_dir()
    assert not [p for p in first_screen.cache_dir().iterdir() if p.name.endswith(".tmp")]


@pytest.mark.parametrize("damage", ["missing", "empty", "garbage", "truncated", "other folder", "bad escape",
                                    "extra field"])
def test_a_missing_damaged_or_foreign_file_is_not_used(tmp_path: Path, damage: str) -> None:
    """Anything but a whole file of this folder reads as no file (never as wrong rows, never an exception)."""
    text = first_screen.text(tmp_path, TRICKY)
    broken = {"missing": None, "empty": "", "garbage": "\x00\xff garbage\n",
              "truncated": text[:-5], "other folder": first_screen.text(tmp_path / "other", TRICKY),
              "bad escape": text.replace("Zoë 漢字", "Zo\\q"),
              "extra field": text.replace("Zoë 漢字", "Zoë\t漢字")}[damage]
    if broken is not None:
        first_screen.write(tmp_path, broken)
    assert first_screen.read(tmp_path) is None


def test_a_folder_that_cannot_be_written_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cache folder cannot be made: write says so, nothing is left behind."""
    blocker = tmp_path / "blocker"
    blocker.write_text("a file where the cache folder should be")
    monkeypatch.setenv("SCOREKEEPER_CACHE", str(blocker / "index"))
    assert not first_screen.write(tmp_path, first_screen.text(tmp_path, TRICKY))
    assert first_screen.read(tmp_path) is None


@pilot_test
async def test_the_first_paint_comes_from_the_file_and_opens_no_index(tmp_path: Path, monkeypatch) -> None:
    """A first look writes the file; the next start paints its rows before any index is opened."""
    two_sessions(tmp_path)
    async with app_for(tmp_path).run_test(size=SIZE) as pilot:
        await settle(pilot)
    kept = first_screen.read(tmp_path)
    assert kept is not None and [r.file for r in kept[0]] == ["b.toml", "a.toml"]

    monkeypatch.setattr(HomeScreen, "on_screen_resume", lambda self: None)  # no refresh after the first frame
    app = app_for(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        home = app.screen
        assert isinstance(home, HomeScreen) and home.index is None
        assert [e.name for e in home.entries] == ["Mars night", "Friday"]
        plain = home.query_one("#sessions", SessionList).plain()
        assert "Friday" in plain and "Ana, Bo" in plain and "Mars night" in plain


@pilot_test
async def test_a_stale_or_broken_file_is_replaced_by_the_index_truth(tmp_path: Path) -> None:
    """Rows of files changed or gone since the file was written show only until the index is read; the file is
    then written again, as the index has it."""
    two_sessions(tmp_path)
    async with app_for(tmp_path).run_test(size=SIZE) as pilot:
        await settle(pilot)
    rows, _ = first_screen.read(tmp_path) or ([], "")
    ghost = Row("ghost.toml", "A ghost", "ticket-booth", ("Nobody",), "finished — Nobody won", "",
                "2030-01-01T00:00:00")
    for text in (first_screen.text(tmp_path, [ghost, *rows]), "garbage\n"):
        first_screen.write(tmp_path, text)
        app = app_for(tmp_path)
        async with app.run_test(size=SIZE) as pilot:
            await settle(pilot)
            home = app.screen
            assert isinstance(home, HomeScreen)
            assert [e.path.name for e in home.entries] == ["b.toml", "a.toml"]
            assert "ghost" not in home.query_one("#sessions", SessionList).plain()
        again = first_screen.read(tmp_path)
        assert again is not None and [r.file for r in again[0]] == ["b.toml", "a.toml"]


@pilot_test
async def test_without_an_index_every_file_is_read(tmp_path: Path, monkeypatch) -> None:
    """The index cannot be opened after a first paint from the file: the list is read from the files instead."""
    two_sessions(tmp_path)
    async with app_for(tmp_path).run_test(size=SIZE) as pilot:
        await settle(pilot)
    ghost = Row("ghost.toml", "A ghost", "", (), "finished", "", "2030-01-01T00:00:00")
    first_screen.write(tmp_path, first_screen.text(tmp_path, [ghost]))
    from scorekeeper import index

    def broken(*args: object, **kwargs: object) -> None:
        raise sqlite3.OperationalError("disk I/O error")

    monkeypatch.setattr(index.Index, "__init__", broken)
    app = app_for(tmp_path)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        home = app.screen
        assert isinstance(home, HomeScreen) and home.index is None
        assert sorted(e.path.name for e in home.entries) == ["a.toml", "b.toml"]


PROBE = """
import os, sys
from pathlib import Path
from scorekeeper.tui import app
from scorekeeper.tui.screens import home

mounted = home.HomeScreen.on_mount


def on_mount(self):
    mounted(self)
    heavy = sorted(m for m in ("sqlite3", "json", "hashlib", "scorekeeper.index") if m in sys.modules)
    os.write(1, f"{len(self.entries)} {','.join(heavy) or '-'}\\n".encode())
    self.app.exit()


home.HomeScreen.on_mount = on_mount
app.ScorekeeperApp(Path(sys.argv[1])).run(headless=True)
"""


def test_the_first_paint_from_the_file_imports_no_index_code(tmp_path: Path) -> None:
    """With the file in place, the home screen is mounted (its rows set for the first frame) before sqlite3, json,
    hashlib or the index module is imported; without it, the index is opened at once."""
    import subprocess
    import sys

    two_sessions(tmp_path)
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    without = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], capture_output=True, text=True, env=env,
                             timeout=60, cwd=Path(__file__).resolve().parent.parent)
    assert without.stdout.split() == ["0", "json,scorekeeper.index,sqlite3"]  # a new index: empty
    from scorekeeper.index import Index

    with Index(tmp_path) as index:
        index.refresh()
        rows = [first_screen.row(s) for s in index.summaries(limit=first_screen.ROWS)]
    first_screen.write(tmp_path, first_screen.text(tmp_path, rows))
    with_file = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path)], capture_output=True, text=True,
                               env=env, timeout=60, cwd=Path(__file__).resolve().parent.parent)
    assert with_file.stdout.split() == ["2", "-"]

