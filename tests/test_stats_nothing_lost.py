"""Statistics lose nothing and let nothing in twice (issue 33): exports never replace a file, statistics wait for
the index on a cold folder, a link to a session in the folder counts once."""

from __future__ import annotations

import shutil
import threading
from pathlib import Path

import pytest

from scorekeeper import store
from scorekeeper.cli import main
from scorekeeper.index import Index
from scorekeeper.tui.screens.statistics import StatisticsScreen
from tests.test_tui_support import burst, pilot_test, running, settle

SAMPLES = Path(__file__).parent.parent / "sample_sessions"
FINISHED = len(list(SAMPLES.glob("*.toml"))) - 1
"""Every sample but ticket-booth-in-progress.toml is a finished game."""


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A sessions folder holding every sample session (all finished but one)."""
    target = tmp_path / "sessions"
    target.mkdir()
    for path in SAMPLES.glob("*.toml"):
        shutil.copy(path, target / path.name)
    return target


# -- 1. an export never replaces a file ----------------------------------------------------
def test_write_new_never_replaces_a_file(tmp_path: Path) -> None:
    """The same name asked for three times: three files, each with what was written; a file there already stays."""
    (tmp_path / "statistics-x.csv").write_text("mine")
    written = [store.write_new(tmp_path, "statistics-x", ".csv", text) for text in ("a", "bb", "ccc")]
    assert [p.name for p in written] == ["statistics-x-2.csv", "statistics-x-3.csv", "statistics-x-4.csv"]
    assert [p.read_text() for p in written] == ["a", "bb", "ccc"]
    assert (tmp_path / "statistics-x.csv").read_text() == "mine"


def test_write_new_counts_a_link_as_taken(tmp_path: Path) -> None:
    """A symbolic link at the name (even a dangling one) is neither replaced nor written through."""
    away = tmp_path / "away"
    (tmp_path / "s.json").symlink_to(away)
    target = store.write_new(tmp_path, "s", ".json", "{}")
    assert target.name == "s-2.json" and not away.exists() and (tmp_path / "s.json").is_symlink()


@pilot_test
async def test_statistics_exported_in_the_same_minute_are_all_kept(folder: Path) -> None:
    """c three times and j twice in one minute (the app's clock is frozen): five files, none replaced."""
    async with running(folder, size=(100, 30)) as (app, pilot):
        await burst(pilot, "f3")
        assert isinstance(app.screen, StatisticsScreen)
        for key in ("c", "j", "c", "j", "c"):
            await burst(pilot, key)
        written = sorted((folder / "exports").glob("statistics-*"))
        assert sorted(p.suffix for p in written) == [".csv"] * 3 + [".json"] * 2
        assert len({p.read_bytes() for p in written if p.suffix == ".csv"}) == 1  # each one whole


def test_export_to_an_existing_file_is_refused(folder: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`export -o OUT` never replaces OUT: a clear error, OUT as it was; a new name is written."""
    out = folder.parent / "out.csv"
    out.write_text("an earlier export")
    session = str(folder / "ticket-booth-3p.toml")
    assert main(["export", session, "--to", "csv", "-o", str(out)]) == 1
    assert out.read_text() == "an earlier export"
    err = capsys.readouterr().err
    assert "out.csv exists; an export never replaces a file" in err and "Traceback" not in err
    assert main(["export", session, "--to", "csv", "-o", str(folder.parent / "new.csv")]) == 0
    assert (folder.parent / "new.csv").read_text(encoding="utf-8-sig").startswith("file,game,")
