"""Nothing is written or moved through a symbolic link; backups keep the session's mode; stale temporary files
are removed in exports/ and trash/ too; CSV and Markdown cells stay inert (issue 22, items 6 and 7)."""

from __future__ import annotations

import os
import stat
import time
from pathlib import Path

import pytest

from scorekeeper import files, store
from scorekeeper.after import export
from scorekeeper.tui.screens.export import write_export
from tests.faults_support import disk_full
from tests.test_tui_support import pilot_test, running, saved, settle, write_session


def _outside(tmp_path: Path) -> tuple[Path, Path]:
    """A sessions folder, and a folder outside it that a link points to."""
    folder, away = tmp_path / "sessions", tmp_path / "away"
    folder.mkdir()
    away.mkdir()
    return folder, away


@pytest.mark.parametrize("name", ["exports", "trash"])
def test_a_linked_subfolder_is_refused_and_nothing_lands_outside(tmp_path: Path, name: str) -> None:
    folder, away = _outside(tmp_path)
    (folder / name).symlink_to(away)
    path = write_session(folder, "ticket-booth", ["Ana", "Bo"])
    with pytest.raises(OSError, match="symbolic link"):
        store.own_folder(folder / name)
    if name == "exports":
        with pytest.raises(OSError, match="symbolic link"):
            write_export(path, saved(path)[1], "csv")
    else:
        with pytest.raises(OSError, match="symbolic link"):
            store.to_trash(path)
        with pytest.raises(OSError, match="symbolic link"):
            store.copy_to_trash(path)
        assert path.exists()
    assert list(away.iterdir()) == []


def test_a_file_is_never_brought_back_out_of_a_linked_trash(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    (away / "old.toml").write_text("x")
    (folder / "trash").symlink_to(away)
    with pytest.raises(OSError, match="symbolic link"):
        store.from_trash(folder / "trash" / "old.toml")
    assert (away / "old.toml").exists() and not (folder / "old.toml").exists()


def test_a_link_at_the_name_is_replaced_never_written_through(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    (away / "s.csv").write_text("theirs")
    (folder / "s.csv").symlink_to(away / "s.csv")
    store.write_atomic(folder / "s.csv", "ours")
    assert (away / "s.csv").read_text() == "theirs"
    assert not (folder / "s.csv").is_symlink() and (folder / "s.csv").read_text() == "ours"


def test_an_exclusive_write_takes_a_dangling_link_as_a_taken_name(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    (folder / "new.toml").symlink_to(away / "new.toml")
    with pytest.raises(FileExistsError):
        store.write_atomic(folder / "new.toml", "x", exclusive=True)
    assert list(away.iterdir()) == []
    assert [p.name for p in folder.iterdir()] == ["new.toml"]


def test_a_linked_session_file_is_read_but_never_saved(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    real = write_session(away, "ticket-booth", ["Ana", "Bo"])
    before = real.read_bytes()
    (folder / "s.toml").symlink_to(real)
    session, _ = files.load(folder / "s.toml")
    with pytest.raises(store.ReadOnlyError, match="symbolic link"):
        store.save(folder / "s.toml", session)
    assert real.read_bytes() == before and (folder / "s.toml").is_symlink()


def test_to_trash_moves_a_linked_session_as_the_link(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    real = write_session(away, "ticket-booth", ["Ana", "Bo"])
    (folder / "s.toml").symlink_to(real)
    target = store.to_trash(folder / "s.toml")
    assert target.is_symlink() and real.exists() and list(away.iterdir()) == [real]


def test_the_comments_backup_keeps_the_sessions_mode(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    os.chmod(path, 0o600)
    kept = store.copy_to_trash(path)
    assert stat.S_IMODE(kept.stat().st_mode) == 0o600


@pytest.mark.parametrize("sub", ["exports", "trash"])
def test_stale_temps_are_removed_in_exports_and_trash(tmp_path: Path, sub: str) -> None:
    (tmp_path / sub).mkdir()
    stale = tmp_path / sub / ".s.csv.abcd1234.tmp"
    fresh = tmp_path / sub / ".t.toml.abcd1234.tmp"
    other = tmp_path / sub / ".notes.txt"
    for p in (stale, fresh, other):
        p.write_text("x")
    old = time.time() - 3600
    os.utime(stale, (old, old))
    os.utime(other, (old, old))
    assert store.remove_stale_temps(tmp_path) == [stale]
    assert not stale.exists() and fresh.exists() and other.exists()


def test_stale_temps_are_not_looked_for_through_a_linked_subfolder(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    (folder / "trash").symlink_to(away)
    theirs = away / ".s.toml.abcd1234.tmp"
    theirs.write_text("x")
    os.utime(theirs, (0, 0))
    assert store.remove_stale_temps(folder) == []
    assert theirs.exists()


@pytest.mark.parametrize("text", ["=1+1", "+1", "-1", "@SUM(A1)", "\tx", "\rx", "|cmd", "%x", "\uff1d1",
                                  "\uff0b1", "\uff0d1", "\uff20x"])
def test_csv_cells_that_start_like_a_formula_are_neutralised(text: str) -> None:
    assert export._cell(text) == "'" + text


def test_csv_plain_cells_are_left_alone() -> None:
    assert export._cell("Ana") == "Ana" and export._cell("") == ""


@pytest.mark.parametrize("text", ["see http://evil.com/x", "https://a.com", "ftp://a.com/c", "www.evil.com",
                                  "WWW.Evil.com", "ana@example.com", "mailto:ana@example.com"])
def test_markdown_text_never_autolinks_and_reads_the_same(text: str) -> None:
    from markdown_it import MarkdownIt

    md = MarkdownIt("gfm-like", {"linkify": True})
    assert "<a " in md.render(text)  # the check can fail: the text unescaped does autolink
    shown = export.md_text(text)
    html = md.render(shown)
    assert "<a " not in html
    assert html == f"<p>{text.replace('&', '&amp;')}</p>\n"


@pilot_test
async def test_the_sample_copy_never_goes_through_a_link(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    from scorekeeper.tui.screens.home import SAMPLES

    (folder / f"sample-{SAMPLES[0]}").symlink_to(away / "there.toml")
    async with running(folder) as (app, pilot):
        await pilot.press("ctrl+o")
        await pilot.press("0", "enter")  # the first change copies the sample into the folder
        await settle(pilot)
        assert list(away.iterdir()) == []
        copies = sorted(p.name for p in folder.iterdir() if not p.is_symlink() and p.suffix == ".toml")
        assert copies == [f"sample-{Path(SAMPLES[0]).stem}-2.toml"]


@pilot_test
async def test_a_linked_session_opens_read_only_in_the_app(tmp_path: Path) -> None:
    folder, away = _outside(tmp_path)
    real = write_session(away, "ticket-booth", ["Ana", "Bo"])
    before = real.read_bytes()
    (folder / "s.toml").symlink_to(real)
    async with running(folder, folder / "s.toml") as (app, pilot):
        assert app.doc is not None and app.doc.read_only
        await pilot.press("1")
        await settle(pilot)
    assert real.read_bytes() == before and (folder / "s.toml").is_symlink()


@pilot_test
async def test_quitting_on_a_full_disk_says_so_and_asks(tmp_path: Path) -> None:
    """ctrl+q with a value the disk refused: the app asks; Stay keeps it (saved once there is room), Quit anyway
    quits."""

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    data = path.read_bytes()
    async with running(tmp_path, path) as (app, pilot):
        with disk_full():
            await pilot.press("1")
            await settle(pilot)
            await pilot.press("ctrl+q")
            await settle(pilot)
            from scorekeeper.tui.screens.dialogs import ConfirmScreen

            assert isinstance(app.screen, ConfirmScreen) and app.return_code is None
            await pilot.press("n")  # stay
            await settle(pilot)
            assert not isinstance(app.screen, ConfirmScreen) and app.return_code is None
            assert path.read_bytes() == data
            await pilot.press("ctrl+q", "y")  # quit anyway
            await settle(pilot)
            assert app.return_code == 0

