"""The sessions index: what it keeps, noticing changes, rebuilding itself, and several processes at once."""

from __future__ import annotations

import os
import shutil
import sqlite3
import subprocess
import sys
import time
from fractions import Fraction
from pathlib import Path

import pytest
import tomli_w
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import files, store
from scorekeeper.index import SCHEMA, Index, db_path
from scorekeeper.index.indexing import summarize
from tests.test_tui_support import pilot_test, running

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"



def by_name(index: Index) -> dict:
    return {s.file: s for s in index.summaries()}


def test_summaries_hold_what_home_and_statistics_show(folder):
    with Index(folder) as index:
        changes = index.refresh()
        assert sorted(changes.added) == sorted(p.name for p in SAMPLES.glob("*.toml")) and not changes.changed
        assert not index.refresh()  # nothing changed: nothing read
        listed = index.summaries()
    # Newest first: the in-progress Ticket Booth was started 2026-11-28, the latest of the samples.
    assert listed[0].file == "ticket-booth-in-progress.toml" and listed[0].state == "round 2 of 3 — Kim leads"
    s = {x.file: x for x in listed}["ticket-booth-3p.toml"]
    assert (s.game, s.title, s.started, s.players) == ("ticket-booth", "Friday at Mia's", "2026-11-27T19:30:00",
                                                        ("Ana", "Bo", "Cy"))
    assert s.state == "finished — Bo won 95½–76" and s.complete and s.winners == ("Bo",) and s.valid
    assert s.totals == {"Ana": 76, "Bo": Fraction(191, 2), "Cy": 60}
    bo = s.results[1]
    assert (bo.name, bo.place, bo.winner, bo.rounds) == ("Bo", 1, True, (43, 32, Fraction(41, 2)))
    assert bo.categories["attraction:1"] == 2  # round 2: Bo holds the one #1 card
    assert sum(bo.categories.values()) == bo.total


def test_the_index_lives_in_the_user_cache_keyed_by_the_folder(folder, tmp_path, monkeypatch):
    monkeypatch.delenv("SCOREKEEPER_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    path = db_path(folder)
    assert path.is_relative_to(tmp_path / "cache" / "scorekeeper")
    assert db_path(folder / ".." / "sessions") == path and db_path(tmp_path) != path
    with Index(folder) as index:
        index.refresh()
    assert path.exists()


def test_changed_added_removed_files_are_noticed(folder):
    with Index(folder) as index:
        index.refresh()
        path = folder / "ticket-to-mars-two-rounds.toml"
        session, _ = files.load(path)
        # Maya: 20 points, 2 pairs worth 2 each in round 1 (4 points); 6 pairs instead make 20 - 4 + 12 = 28.
        store.save(path, session.with_value(1, "Maya", "pairs", {"count": 6, "each": 2}))
        shutil.copy(SAMPLES / "ticket-to-ride-4p.toml", folder / "another.toml")
        (folder / "ticket-to-mars-one-round.toml").unlink()
        changes = index.refresh()
        assert (changes.added, changes.changed, changes.removed) == (
            ["another.toml"], ["ticket-to-mars-two-rounds.toml"], ["ticket-to-mars-one-round.toml"])
        summaries = by_name(index)
    assert summaries["ticket-to-mars-two-rounds.toml"].totals["Maya"] == 28  # never a stale total after a save
    assert "ticket-to-mars-one-round.toml" not in summaries and summaries["another.toml"].game == "ticket-to-ride"


def test_a_save_with_the_same_size_and_time_is_noticed(folder):
    path = folder / "ticket-to-mars-one-round.toml"
    with Index(folder) as index:
        index.refresh()
        before = path.stat()
        text = path.read_text()
        assert "count = 3" in text
        # An atomic save (a new file renamed over the old: a new inode), same size, same mtime.
        store.write_atomic(path, text.replace("count = 3", "count = 4", 1))
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        assert path.stat().st_size == before.st_size
        assert index.refresh().changed == [path.name]
        # An in-place edit (same inode, size and mtime) of a file saved a moment ago: read again as well,
        # because it was indexed within the modification time's resolution.
        new = index.get(path.name)
        assert new is not None
        inode = path.stat().st_ino
        with open(path, "r+b") as fh:
            data = fh.read()
            fh.seek(0)
            fh.write(data.replace(b"count = 4", b"count = 2", 1))
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
        after = path.stat()
        assert (after.st_ino, after.st_size, after.st_mtime_ns) == (inode, before.st_size, before.st_mtime_ns)
        index.refresh()
        again = index.get(path.name)
    assert again is not None and again.totals != new.totals


def test_an_invalid_file_is_listed_with_its_first_problem(folder):
    (folder / "broken.toml").write_text('format = 1\ngame = "ticket-boot"\nplayers = ["A", "B"]\n')
    (folder / "notoml.toml").write_text("x = ")
    (folder / "latin1.toml").write_bytes(b"title = \"caf\xe9\"\n")
    with Index(folder) as index:
        index.refresh()
        s = by_name(index)
    assert s["broken.toml"].state == "has problems" and "did you mean 'ticket-booth'" in s["broken.toml"].error
    assert s["notoml.toml"].state == s["latin1.toml"].state == "cannot be read"
    assert s["broken.toml"].players == ("A", "B") and "line 2" in s["broken.toml"].error
    assert "not valid TOML" in s["notoml.toml"].error and "UTF-8" in s["latin1.toml"].error
    assert s["broken.toml"].totals == {} and s["broken.toml"].results == []


@pytest.mark.parametrize("damage", ["garbage", "truncated", "older", "empty"])
def test_a_damaged_or_older_index_is_rebuilt_silently(folder, damage):
    with Index(folder) as index:
        index.refresh()
        expected = {s.file: s.state for s in index.summaries()}
        path = index.path
    if damage == "garbage":
        path.write_bytes(b"this is not a database" * 100)
    elif damage == "truncated":
        data = path.read_bytes()
        path.write_bytes(data[: len(data) // 3])
    elif damage == "older":
        con = sqlite3.connect(path)
        con.execute("DROP TABLE sessions")
        con.execute("CREATE TABLE sessions (name TEXT, total REAL)")
        con.execute(f"PRAGMA user_version = {SCHEMA - 1}")
        con.commit()
        con.close()
    else:
        path.write_bytes(b"")
    for suffix in ("-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    with Index(folder) as index:
        index.refresh()
        assert {s.file: s.state for s in index.summaries()} == expected


def test_an_index_of_the_previous_schema_is_rebuilt_not_misread(folder):
    """An index written before the summary held the start player and the board (the schema before: the same table,
    details without them) is rebuilt on opening: every row gets them, none is read as if they were missing."""
    import json

    for p in folder.glob("*.toml"):  # old enough that the index trusts its rows (no racy re-read)
        os.utime(p, (time.time() - 100, time.time() - 100))
    with Index(folder) as index:
        index.refresh()
        path = index.path
    con = sqlite3.connect(path)
    for name, detail in con.execute("SELECT name, detail FROM sessions").fetchall():
        old = {k: v for k, v in json.loads(detail).items() if k not in ("start", "board")}
        for r in old.get("players", ()):
            r.pop("stations", None)
            r.pop("globetrotter", None)
        con.execute("UPDATE sessions SET detail = ? WHERE name = ?", (json.dumps(old), name))
    con.execute(f"PRAGMA user_version = {SCHEMA - 1}")
    con.commit()
    con.close()
    with Index(folder) as index:
        index.refresh()
        rows = by_name(index)
    assert rows["ticket-to-ride-europe-4p.toml"].start_player == "Eva"
    assert rows["ticket-to-ride-europe-4p.toml"].board == "europe"
    assert [r.marks["stations"] for r in rows["ticket-to-ride-europe-4p.toml"].results] == [3, 1, 0, 3]
    assert [r.marks["globetrotter"] for r in rows["ticket-to-ride-nordic-2p.toml"].results] == [True, True]
    assert rows["ticket-to-ride-4p.toml"].board == "none" and rows["ticket-booth-3p.toml"].board is None
    assert all(s.start_player for s in rows.values() if s.valid)


def test_deleting_the_index_loses_nothing(folder):
    with Index(folder) as index:
        index.refresh()
        expected = [(s.file, s.state, s.totals) for s in index.summaries()]
        path = index.path
    path.unlink()
    with Index(folder) as index:
        assert index.summaries() == []
        index.refresh()
        assert [(s.file, s.state, s.totals) for s in index.summaries()] == expected


def test_an_unwritable_cache_falls_back_to_memory(folder, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with Index(folder, path=blocker / "index.sqlite3") as index:
        index.refresh()
        assert len(index.summaries()) == len(list(SAMPLES.glob("*.toml")))


def test_progress_is_reported_and_workers_read_the_same(folder, tmp_path):
    calls = []
    with Index(folder) as index:
        index.refresh(progress=lambda done, total: calls.append((done, total)))
        serial = [(s.file, s.state, s.detail) for s in index.summaries()]
    assert calls[0][0] == 0 and calls[-1] == (len(serial), len(serial))
    with Index(folder, path=tmp_path / "other.sqlite3") as index:
        index.refresh(workers=2)
        assert [(s.file, s.state, s.detail) for s in index.summaries()] == serial
    with Index(folder, path=tmp_path / "stopped.sqlite3") as index:
        index.refresh(stop=lambda: True)  # stopped before the first chunk: nothing read, nothing lost
        assert index.summaries() == []
        assert len(index.refresh().added) == len(serial)


class CapturedStderr:
    """What a full-screen app puts in place of sys.stderr while it runs (Textual's capture): no real file."""

    def write(self, text: str) -> int:
        return len(text)

    def flush(self) -> None:
        pass

    def fileno(self) -> int:
        return -1


CAPTURED = """
import sys
from pathlib import Path
from scorekeeper.index import indexing
from scorekeeper.index import Index
from tests.test_index import CapturedStderr

folder, database, prepare = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3] == "prepare"
indexing.PARALLEL = indexing.CHUNK = 2
if prepare:
    assert indexing.prepare_workers(folder, database)
sys.stderr = CapturedStderr()


def not_here(path):
    print("read in this process: the workers did not start", flush=True)
    raise SystemExit(1)


indexing.read_file = not_here  # here only: a worker process has its own module
with Index(folder, path=database) as index:
    index.refresh(workers=2)
    print(len(index.summaries()))
"""


@pytest.mark.parametrize("prepare", [True, False], ids=["prepared", "not prepared"])
def test_workers_start_while_an_app_captures_stderr(folder, tmp_path, prepare):
    """In a running app stderr is an object without a file descriptor (Textual's capture), and a process pool
    cannot start its helper then; the app starts it before (`prepare_workers`, in its `on_load`). A process of
    its own each: a helper once started serves the process to its end."""
    from scorekeeper.index import indexing

    assert not indexing.prepare_workers(folder, tmp_path)  # an index already (here, a folder): nothing to start
    env = {**os.environ, "SCOREKEEPER_WORKERS": "2"}
    run = subprocess.run([sys.executable, "-c", CAPTURED, str(folder), str(tmp_path / "workers.sqlite3"),
                          "prepare" if prepare else "-"], capture_output=True, text=True, env=env, timeout=120)
    if prepare:
        assert run.returncode == 0 and run.stdout.split() == [str(len(list(SAMPLES.glob("*.toml"))))], run.stderr
    else:
        assert run.returncode == 1 and "workers did not start" in run.stdout


def die_at_start() -> None:
    """A worker process's start that kills it (the pool breaks)."""
    os._exit(3)


def test_chunks_of_a_worker_that_dies_are_read_here(folder, tmp_path, monkeypatch):
    from scorekeeper.index import indexing

    here: list[str] = []
    real = indexing.read_file

    def counted(path: Path) -> object:
        here.append(path.name)
        return real(path)

    monkeypatch.setattr(indexing, "CHUNK", 2)
    monkeypatch.setattr(indexing, "worker_start", die_at_start)  # pickled by name: the workers run it too
    monkeypatch.setattr(indexing, "read_file", counted)
    with Index(folder, path=tmp_path / "dead.sqlite3") as index:
        index.refresh(workers=2)
        assert len(index.summaries()) == len(list(SAMPLES.glob("*.toml")))
    assert sorted(here) == sorted(p.name for p in SAMPLES.glob("*.toml"))  # each read here, once


def test_summarize_one_file_without_the_database(folder):
    s = summarize(folder / "ticket-to-mars-extra-round.toml")
    assert s is not None and s.state == "finished — Rafael won 25–23" and s.rounds == 2  # round 1, then an extra round
    assert summarize(folder / "missing.toml") is None


REFRESHER = """
import sys, time
from scorekeeper.index import Index
index = Index(sys.argv[1])
deadline = time.monotonic() + float(sys.argv[2])
while time.monotonic() < deadline:
    index.refresh()
    assert all(s.file for s in index.summaries())
index.close()
"""


def test_two_processes_refreshing_while_files_are_saved(folder):
    for i in range(60):  # enough files that refreshes overlap
        shutil.copy(SAMPLES / "ticket-booth-3p.toml", folder / f"copy-{i:02d}.toml")
    procs = [subprocess.Popen([sys.executable, "-c", REFRESHER, str(folder), "3"], stderr=subprocess.PIPE)
             for _ in range(2)]
    path = folder / "ticket-to-mars-two-rounds.toml"
    session, _ = files.load(path)
    deadline = time.monotonic() + 2.5
    saves = 0
    while time.monotonic() < deadline:  # the table keeps saving while both processes refresh
        saves += 1
        store.save(path, session.with_value(1, "Maya", "pairs", {"count": saves % 10, "each": 2}))
        (folder / f"copy-{saves % 60:02d}.toml").touch()
        time.sleep(0.01)
    for p in procs:
        _, err = p.communicate(timeout=60)
        assert p.returncode == 0, err.decode()
    with Index(folder) as index:
        con = sqlite3.connect(index.path)
        assert con.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
        con.close()
        index.refresh()
        # After the last look, the index says what the files say: Maya's total follows the last save
        # (20 points with 2 pairs worth 2 each: 16 + 2 x count).
        got = index.get(path.name)
        assert got is not None and got.totals["Maya"] == 16 + 2 * (saves % 10), (
            saves, got and (got.size, got.mtime_ns, got.totals), os.stat(path))
        for s in index.summaries():
            fresh = summarize(s.path)
            assert fresh is not None and (s.state, s.detail) == (fresh.state, fresh.detail), (s, fresh)


def test_a_read_only_index_is_left_alone(folder):
    with Index(folder) as index:
        index.refresh()
    (folder / "new.toml").write_bytes((SAMPLES / "ticket-booth-3p.toml").read_bytes())
    with Index(folder) as index:
        # The database can be read but not written (a read-only cache, a full disk): the look goes on in memory.
        index._con.close()
        index._con = sqlite3.connect(f"file:{index.path}?mode=ro", uri=True, isolation_level=None,
                                     check_same_thread=False)
        assert "new.toml" in index.refresh().added
        assert "new.toml" in by_name(index) and len(by_name(index)) == len(list(folder.glob("*.toml")))


# -- the quick looks the index takes before the full checks ------------------------------------
TEXT = st.one_of(st.text(max_size=30), st.text(st.characters(codec="ascii", exclude_categories=["Cc"]), min_size=150,
                                                max_size=230))


@settings(max_examples=300, deadline=None)
@given(st.dictionaries(TEXT, st.one_of(TEXT, st.lists(TEXT, max_size=4)), max_size=4), st.booleans())
def test_texts_shown_plain_have_no_text_problem(doc, literal):
    import tomllib

    from scorekeeper.games.fields import text_problems
    from scorekeeper.index.summary import _plain_texts

    text = tomli_w.dumps(doc)
    if literal:  # the texts as literal strings ('…': no escapes)
        text = text.replace('"', "'")
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError:
        return
    if _plain_texts(text):
        assert text_problems(raw) == []


def test_without_a_pool_to_start_the_files_are_read_here(folder, tmp_path, monkeypatch):
    import concurrent.futures

    from scorekeeper.index import indexing

    class NoProcesses:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise OSError(11, "Resource temporarily unavailable")

    monkeypatch.setattr(indexing, "CHUNK", 2)
    monkeypatch.setattr(concurrent.futures, "ProcessPoolExecutor", NoProcesses)
    with Index(folder, path=tmp_path / "none.sqlite3") as index:
        index.refresh(workers=2)
        assert len(index.summaries()) == len(list(SAMPLES.glob("*.toml")))


@pilot_test
async def test_the_app_prepares_the_workers_before_it_takes_over_the_terminal(folder, monkeypatch):
    """The app asks for the workers' helper in its `on_load`, while stderr is still the process's own (once the
    app runs, stderr is Textual's capture): with the folder, and the index database it has not made yet."""
    from scorekeeper.index import indexing

    asked: list[tuple[Path, bool, bool]] = []

    def prepare(folder: Path, database: Path) -> bool:
        asked.append((folder, database.exists(), sys.stderr.fileno() >= 0))  # Textual's capture says -1
        return False

    monkeypatch.setattr(indexing, "prepare_workers", prepare)
    async with running(folder) as (app, _pilot):
        assert len(app.screen.entries) == len(list(SAMPLES.glob("*.toml")))
    assert asked == [(folder, False, True)]


FORKED = """
import os, sys, threading
from pathlib import Path
from scorekeeper.index import indexing
from scorekeeper.index import Index

folder, database, marks = Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])
indexing.PARALLEL = indexing.CHUNK = 2
if sys.argv[4] == "thread":
    stop = threading.Event()
    threading.Thread(target=stop.wait, daemon=True).start()
read = indexing.read_file
parent = os.getpid()


def marked(path):
    (marks / f"{os.getpid()}").touch()  # set here: only a fork of this process runs it
    return read(path)


indexing.read_file = marked
start = indexing.start_method()
with Index(folder, path=database) as index:
    index.refresh(workers=2)
    print(len(index.summaries()), start)
if sys.argv[4] == "thread":
    stop.set()
"""


@pytest.mark.parametrize("threads", ["alone", "thread"])
def test_the_command_lines_workers_are_forks_and_an_apps_new_programs(folder, tmp_path, threads):
    """A process with no other thread and its own stderr (the command line) forks its workers: they start in
    milliseconds with what it imported (a function replaced in it runs in them too); a process with threads
    (an app) starts new programs, which read the files with the module as written."""
    marks = tmp_path / "marks"
    marks.mkdir()
    env = {**os.environ, "SCOREKEEPER_WORKERS": "2"}
    run = subprocess.run([sys.executable, "-c", FORKED, str(folder), str(tmp_path / "f.sqlite3"), str(marks), threads],
                         capture_output=True, text=True, env=env, timeout=120, cwd=Path(__file__).parent.parent)
    count = len(list(SAMPLES.glob("*.toml")))
    if threads == "alone":
        assert run.returncode == 0 and run.stdout.split() == [str(count), "fork"], run.stderr
        assert len(list(marks.iterdir())) >= 1  # the copies ran the replaced function
    else:
        assert run.returncode == 0 and run.stdout.split() == [str(count), "spawn"], run.stderr
        assert not list(marks.iterdir())  # new programs: the module as written
