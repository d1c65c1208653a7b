"""Statistics lose nothing and let nothing in twice (issue 33): exports never replace a file, statistics wait for
the index on a cold folder, a link to a session in the folder counts once."""

from __future__ import annotations

import json
import tempfile
import threading
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from textual.pilot import Pilot

from scorekeeper import store
from scorekeeper.cli import main
from scorekeeper.index import Index, indexing
from scorekeeper.tui import compat
from scorekeeper.tui.screens.statistics import StatisticsScreen
from tests.test_tui_support import burst, key_events, pilot_test, running, settle

SAMPLES = Path(__file__).parent.parent / "sample_sessions"
FINISHED = len(list(SAMPLES.glob("*.toml"))) - 1
"""Every sample but ticket-booth-in-progress.toml is a finished game."""



# -- 1. an export never replaces a file ----------------------------------------------------
def test_write_new_never_replaces_a_file(tmp_path: Path) -> None:
    """The same name asked for three times: three files, each with what was written; a file there already stays."""
    (tmp_path / "statistics-x.csv").write_text("mine")
    written = [store.write_new(tmp_path, "statistics-x", ".csv", text) for text in ("a", "bb", "ccc")]
    assert [p.name for p in written] == ["statistics-x-2.csv", "statistics-x-3.csv", "statistics-x-4.csv"]
    assert [p.read_text() for p in written] == ["a", "bb", "ccc"]
    assert (tmp_path / "statistics-x.csv").read_text() == "mine"


@settings(max_examples=40, deadline=None)
@given(st.lists(st.text(st.characters(blacklist_categories=("Cs",)), max_size=5), min_size=1, max_size=6),
       st.sets(st.integers(1, 5), max_size=4))
def test_write_new_never_loses_a_write_nor_an_existing_file(texts: list[str], taken: set[int]) -> None:
    """Whatever names are taken already, each write lands in a new file holding its text; no file changes."""
    with tempfile.TemporaryDirectory() as where:
        folder = Path(where)
        for n in taken:
            (folder / ("s.csv" if n == 1 else f"s-{n}.csv")).write_text(f"old {n}")
        before = {p.name: p.read_text() for p in folder.iterdir()}
        written = [store.write_new(folder, "s", ".csv", text) for text in texts]
        assert len({p.name for p in written}) == len(texts) and not {p.name for p in written} & set(before)
        assert [p.read_bytes() for p in written] == [t.encode("utf-8") for t in texts]
        assert all((folder / name).read_text() == text for name, text in before.items())


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


# -- 2. statistics wait for the index ----------------------------------------------------------
def figures(screen: StatisticsScreen) -> str:
    """What the statistics screen shows in its figures, as plain text."""
    return "\n".join(str(w.render()) for w in screen.query("#figures Static"))


async def until(pilot: Pilot, done: object, what: str) -> None:
    """Let the app run until `done()` holds (a test whose workers are held up cannot wait for them all)."""
    for _ in range(200):
        await pilot.pause(0.02)
        if done():  # type: ignore[operator]
            return
    raise AssertionError(f"never: {what}")


@pilot_test
async def test_statistics_on_a_cold_index_say_they_are_reading_and_fill_in(
        folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Statistics opened while the index is still empty (a folder never indexed, read in the background) say they
    are reading, with how far, never "0 finished sessions"; an export then writes nothing and says why; once the
    index is read, the figures and the export hold every finished session."""
    async with running(folder, size=(100, 30)) as (app, pilot):
        with Index(folder) as index:
            index.forget()
        gate = threading.Event()
        read_chunk = indexing.read_chunk

        def held(where: str, names: list[str]) -> indexing.Answer:
            gate.wait(30)
            return read_chunk(where, names)

        monkeypatch.setattr(indexing, "read_chunk", held)
        for event in key_events("f3"):
            app.post_message(event)
        await until(pilot, lambda: isinstance(app.screen, StatisticsScreen)
                    and f"0 of {FINISHED + 1}" in figures(app.screen), "the reading's progress shown")
        screen = app.screen
        assert isinstance(screen, StatisticsScreen)
        assert "finished session" not in figures(screen) and "Reading the sessions" in figures(screen)
        for event in key_events("c"):
            app.post_message(event)
        await until(pilot, lambda: compat.notifications(app), "a word on the export")
        said = " ".join(n.message for n in compat.notifications(app))
        assert "Nothing written: the sessions are still being read" in said
        assert not list(folder.glob("exports/*"))
        gate.set()
        await settle(pilot)
        assert screen.plain().splitlines()[0].startswith(f"{FINISHED} finished sessions")
        await burst(pilot, "c")
        written = list(folder.glob("exports/statistics-*.csv"))
        assert len(written) == 1 and len(written[0].read_text(encoding="utf-8-sig").splitlines()) > FINISHED


# -- 4. one file, one game -------------------------------------------------------------------
@pytest.mark.parametrize(("kind", "name"), [("symlink", "a-copy.toml"), ("symlink", "z-copy.toml"),
                                            ("hard link", "z-copy.toml")])
def test_a_link_to_a_session_of_the_folder_counts_it_once(folder: Path, kind: str, name: str,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """A link to ticket-booth-3p.toml in the folder (its name sorting before or after): every figure is as without
    it, counted from the file itself, and the link is named apart, in the JSON and the text."""
    assert main(["stats", str(folder), "--json"]) == 0
    before = json.loads(capsys.readouterr().out)
    target = folder / "ticket-booth-3p.toml"
    if kind == "symlink":
        (folder / name).symlink_to(target.name)
    else:
        (folder / name).hardlink_to(target)
    assert main(["stats", str(folder), "--json"]) == 0
    after = json.loads(capsys.readouterr().out)
    assert after.pop("links") == [name] and before.pop("links") == []
    assert after == before
    assert main(["stats", str(folder)]) == 0
    assert f"Counted once (links to a session of the folder): {name}" in capsys.readouterr().out


@pilot_test
async def test_history_on_a_cold_index_says_how_far_the_reading_is(folder: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """History opened on an index not read yet says how far the reading is (never "No finished session yet"),
    then lists every finished session."""
    from textual.widgets import Static

    from scorekeeper.tui.screens.history import HistoryScreen

    async with running(folder, size=(100, 30)) as (app, pilot):
        with Index(folder) as index:
            index.forget()
        gate = threading.Event()
        read_chunk = indexing.read_chunk

        def held(where: str, names: list[str]) -> indexing.Answer:
            gate.wait(30)
            return read_chunk(where, names)

        monkeypatch.setattr(indexing, "read_chunk", held)
        for event in key_events("f2"):
            app.post_message(event)

        def count() -> str:
            return str(app.screen.query_one("#history-count", Static).render())

        await until(pilot, lambda: isinstance(app.screen, HistoryScreen) and f"0 of {FINISHED + 1}" in count(),
                    "the reading's progress shown")
        assert "Reading the sessions" in count()
        gate.set()
        await settle(pilot)
        assert count() == f"{FINISHED} finished sessions"


def test_a_session_exported_twice_keeps_both_files(folder: Path) -> None:
    """The app's session export: the first under the session's name, the next beside it, the first untouched."""
    from scorekeeper import files, games
    from scorekeeper.tui.screens.export import write_export

    path = folder / "ticket-booth-3p.toml"
    session, warnings = files.load(path)
    sheet = games.score(session, warnings)
    first = write_export(path, sheet, "md")
    before = first.read_bytes()
    second = write_export(path, sheet, "md")
    assert (first.name, second.name) == ("ticket-booth-3p.md", "ticket-booth-3p-2.md")
    assert first.read_bytes() == before == second.read_bytes()
