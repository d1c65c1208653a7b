"""Issue 22: a `*.toml` symbolic link in the sessions folder that points out of it is no session of the folder: the
home list, the index (so `stats` and the history) and the listing without an index leave it out, whatever it points
to (a session, nothing, a FIFO). A link to a file inside the folder is still listed (read-only, as any link)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import store
from scorekeeper.index import Index
from scorekeeper.index.indexing import session_keys as scan
from scorekeeper.tui.screens.home import HomeScreen, odd_files
from tests.test_tui_support import pilot_test, running

SAMPLE = Path(__file__).resolve().parent.parent / "sample_sessions" / "ticket-booth-3p.toml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """sessions/ with a session of its own and a link to it, and links out to away/: a finished session of
    Mallory's, a name that is not there, a FIFO."""
    sessions, away = tmp_path / "sessions", tmp_path / "away"
    sessions.mkdir()
    away.mkdir()
    shutil.copy(SAMPLE, sessions / "own.toml")
    (sessions / "alias.toml").symlink_to("own.toml")
    (away / "mallory.toml").write_text(SAMPLE.read_text(encoding="utf-8").replace("Ana", "Mallory"),
                                       encoding="utf-8")
    os.mkfifo(away / "pipe")
    (sessions / "mallory.toml").symlink_to(away / "mallory.toml")
    (sessions / "relative.toml").symlink_to(Path("..") / "away" / "mallory.toml")
    (sessions / "gone.toml").symlink_to(away / "none.toml")
    (sessions / "pipe.toml").symlink_to(away / "pipe")
    return sessions


INSIDE = {"own.toml", "alias.toml"}


def test_the_listing_and_the_index_leave_links_out_of_the_folder_out(folder: Path) -> None:
    assert {p.name for p in store.session_files(folder)} == INSIDE
    assert set(scan(folder)) == INSIDE
    assert odd_files(folder) == []
    with Index(folder) as index:
        index.refresh()
        assert {s.file for s in index.summaries()} == INSIDE


def test_a_link_turned_outwards_is_dropped_from_the_index(folder: Path) -> None:
    link = folder / "alias.toml"
    with Index(folder) as index:
        index.refresh()
        assert index.get("alias.toml") is not None
        link.unlink()
        link.symlink_to(folder.parent / "away" / "mallory.toml")
        assert index.refresh().removed == ["alias.toml"]
        assert index.get("alias.toml") is None


def test_a_sessions_folder_reached_through_a_link_still_lists_its_own_links(folder: Path, tmp_path: Path) -> None:
    """The folder given may itself be a link (the user chose it): its files and its inner links stay listed."""
    (tmp_path / "chosen").symlink_to(folder)
    assert {p.name for p in store.session_files(tmp_path / "chosen")} == INSIDE
    assert set(scan(tmp_path / "chosen")) == INSIDE


def test_stats_counts_no_session_out_of_the_folder(folder: Path, tmp_path: Path) -> None:
    env = {**os.environ, "SCOREKEEPER_CACHE": str(tmp_path / "cache")}
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "stats", "--json", str(folder)], capture_output=True,
                          timeout=60, env=env, text=True)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["sessions"] == 1 and data["links"] == ["alias.toml"] and data["invalid"] == []  # one file, one game
    assert "Mallory" not in done.stdout
    shown = subprocess.run([sys.executable, "-m", "scorekeeper", "stats", str(folder)], capture_output=True,
                           timeout=60, env=env, text=True)
    assert shown.returncode == 0 and "Mallory" not in shown.stdout and "gone.toml" not in shown.stdout


@pilot_test
async def test_the_home_list_shows_no_link_out_of_the_folder(folder: Path) -> None:
    async with running(folder) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert {e.path.name for e in home.entries} == INSIDE


def test_the_trash_lists_a_link_into_the_folder_and_none_out_of_it(folder: Path) -> None:
    """A link deleted from the folder (moved, never its target) can be brought back from the trash: a link into the
    sessions folder is listed there; one out of it is not."""
    trash = folder / "trash"
    trash.mkdir()
    (trash / "kept.toml").symlink_to(folder / "own.toml")
    (trash / "out.toml").symlink_to(folder.parent / "away" / "mallory.toml")
    assert [p.name for p in store.session_files(trash, within=folder)] == ["kept.toml"]
