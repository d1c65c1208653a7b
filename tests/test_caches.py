"""The caches are derived data and untrusted; any file name the file system holds works and is shown inert.

Tampered index rows (outside the folder, `..`, absolute paths, bad JSON, wrong types), a FIFO or symlink in place
of the database, names that are not UTF-8 (made from bytes), and the CLI under LANG=C, C.UTF-8 and en_US.UTF-8.
"""

from __future__ import annotations

import json
import os
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper.index import Index, db_path
from scorekeeper.index.summary import is_session_name
from scorekeeper.model.session import SessionError
from scorekeeper.model.text import inert
from scorekeeper.tui.screens.home import HomeScreen
from tests.test_tui_support import burst, pilot_test, running, settle

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
BAD = os.fsdecode(b"bad\x9bname.toml")  # not UTF-8: a lone surrogate in Python's text
ODD = "tab\tline\nfeed.toml"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    target = tmp_path / "sessions"
    target.mkdir()
    for p in SAMPLES.glob("ticket-booth*.toml"):
        shutil.copy(p, target / p.name)
    return target


def env(locale: str) -> dict[str, str]:
    drop = ("PYTHONUTF8", "PYTHONIOENCODING")
    out = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in drop}
    return {**out, "LANG": locale, "LC_ALL": locale}


# -- file names --------------------------------------------------------------------------------
def test_inert_shows_the_bytes_of_a_name_that_is_not_utf8_and_escapes_lf_and_tab():
    assert inert(BAD) == "bad\\x9bname.toml"
    assert inert(ODD) == "tab\\x09line\\x0afeed.toml"
    inert(BAD).encode("ascii")  # nothing left that a terminal (or an encoder) can choke on


def test_a_name_that_is_not_utf8_is_indexed_with_every_other(folder):
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", os.path.join(os.fsencode(folder), b"bad\x9bname.toml"))
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", folder / ODD)
    with Index(folder) as index:
        index.refresh()
        names = {s.file for s in index.summaries()}
        assert BAD in names and ODD in names
        assert len(names) == len(os.listdir(folder))
        got = index.get(BAD)
        assert got is not None and got.valid and got.path.exists()
    with Index(folder) as again:  # kept across runs, found again by its bytes
        assert not again.refresh()
        assert again.get(BAD) is not None
    (folder / BAD).unlink()
    with Index(folder) as index:
        assert index.refresh().removed == [BAD]


@pytest.mark.parametrize("locale", ["C", "C.UTF-8", "en_US.UTF-8"])
def test_the_cli_never_crashes_on_nor_prints_a_raw_name(folder, tmp_path, locale):
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", os.path.join(os.fsencode(folder), b"bad\x9bname.toml"))
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", folder / ODD)
    names = [BAD, ODD, "ticket-booth-3p.toml"]
    runs = [["stats", "."], ["stats", "--json", "."], ["check", *names], ["score", *names], ["score", "--json", *names],
            *(["export", "--to", to, *names] for to in ("csv", "md", "json", "bgstats"))]
    for args in runs:
        done = subprocess.run([sys.executable, "-m", "scorekeeper", *args], cwd=folder, env=env(locale),
                              capture_output=True, timeout=60)
        out = done.stdout + done.stderr
        assert done.returncode == 0, (args, out[-2000:])
        assert b"Traceback" not in out and b"\x9b" not in out and b"\t" not in out, (args, out[-2000:])
        if args[0] in ("check", "score") and "--json" not in args:
            assert b"bad\\x9bname.toml" in out and b"tab\\x09line\\x0afeed.toml" in out, (args, out[-2000:])
    stats = subprocess.run([sys.executable, "-m", "scorekeeper", "stats", "."], cwd=folder, env=env(locale),
                           capture_output=True, timeout=60)
    assert b": 6 finished sessions" in stats.stdout  # 4 samples and both copies: not "none", not a crash


# -- tampered index rows -----------------------------------------------------------------------
OUTSIDE_NAMES = ["../outside.toml", "/tmp/absolute.toml", "sub/inner.toml", ".hidden.toml", "evil.txt", "..", "",
                 "a\x00b.toml", 5, None, 1.5, b"../outside.toml"]


def tampered(folder: Path, **columns: object) -> None:
    """Copy the row of ticket-booth-3p.toml with some columns replaced (as a hand or a bug could)."""
    con = sqlite3.connect(db_path(folder), isolation_level=None)
    try:
        cols = [r[1] for r in con.execute("PRAGMA table_info(sessions)")]
        found = con.execute("SELECT * FROM sessions WHERE name = 'ticket-booth-3p.toml'").fetchone()
        row = dict(zip(cols, found, strict=True))
        row.update(columns)
        if row["name"] == "ticket-booth-3p.toml":
            con.execute("DELETE FROM sessions WHERE name = 'ticket-booth-3p.toml'")
        con.execute(f"INSERT OR REPLACE INTO sessions ({', '.join(cols)}) VALUES ({', '.join('?' * len(cols))})",
                    [row[c] for c in cols])
    finally:
        con.close()


def mallory() -> str:
    return json.dumps({"rounds": 1, "players": [{"name": "Mallory", "total": 999, "place": 1, "rounds": [999],
                                                 "categories": {}, "tickets": [0, 0], "longest_path": False}]})


@pytest.mark.parametrize("name", OUTSIDE_NAMES, ids=repr)
def test_a_row_naming_anything_but_a_file_of_the_folder_is_never_listed_and_is_dropped(folder, tmp_path, name):
    outside = tmp_path / "outside.toml"
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", outside)
    with Index(folder) as index:
        index.refresh()
    tampered(folder, name=name, players='["Mallory"]', winners='["Mallory"]', detail=mallory())
    with Index(folder) as index:
        listed = index.summaries()
        assert all(is_session_name(s.file) and s.path.parent == folder for s in listed)
        assert "Mallory" not in {p for s in listed for p in s.players}
        index.refresh()
        left = sqlite3.connect(db_path(folder)).execute("SELECT name FROM sessions").fetchall()
        assert {r[0] for r in left} == {p.name for p in folder.glob("*.toml")}  # dropped, the rest rebuilt
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "stats", "--json", str(folder)],
                          capture_output=True, timeout=60, env=os.environ)
    assert done.returncode == 0 and b"Mallory" not in done.stdout, done.stderr[-2000:]
    assert outside.read_bytes() == (SAMPLES / "ticket-booth-3p.toml").read_bytes()


BAD_COLUMNS = [
    {"players": "not json"}, {"players": '{"a": 1}'}, {"players": "[1, 2]"}, {"players": "null"}, {"players": 7},
    {"winners": "[[["}, {"winners": "[null]"}, {"winners": b"\x80"},
    {"detail": "{"}, {"detail": "[]"}, {"detail": '{"players": 5}'}, {"detail": '{"players": [1]}'},
    {"detail": '{"rounds": "two"}'}, {"detail": '{"warnings": []}'}, {"detail": '{"next": 5}'},
    {"detail": json.dumps({"players": [{"name": "Kim", "total": "many"}]})},
    {"detail": json.dumps({"players": [{"name": 5, "total": 1, "place": 1, "rounds": [], "categories": {},
                                        "tickets": [0, 0], "longest_path": False}]})},
    {"detail": json.dumps({"players": [{"name": "Kim", "total": 1, "place": 1, "rounds": ["x"], "categories": {},
                                        "tickets": [0, 0], "longest_path": False}]})},
    {"detail": json.dumps({"players": [{"name": "Kim", "total": 1, "place": 1, "rounds": [], "categories": [],
                                        "tickets": [0], "longest_path": False}]})},
    {"detail": '{"players": [{"name": "Kim", "total": NaN}]}'}, {"detail": "null"}, {"detail": 3},
    {"title": 5}, {"game": b"x"}, {"state": 3}, {"error": 1}, {"sort_when": 2.5}, {"size": "big"},
    {"mtime_ns": "x"}, {"ino": "x"}, {"racy": "x"},
]


@pytest.mark.parametrize("columns", BAD_COLUMNS, ids=repr)
def test_a_row_that_does_not_parse_is_dropped_and_read_again_from_its_file(folder, columns):
    with Index(folder) as index:
        index.refresh()
        good = index.get("ticket-booth-3p.toml")
        assert good is not None
        expected = (good.state, good.players, good.winners, good.results)
    tampered(folder, **columns)
    with Index(folder) as index:
        for s in index.summaries():  # every summary is whole: its results can be read
            assert s.results is not None and s.totals is not None
        index.refresh()
        fresh = index.get("ticket-booth-3p.toml")
        assert fresh is not None and (fresh.state, fresh.players, fresh.winners, fresh.results) == expected
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "stats", str(folder)], capture_output=True,
                          timeout=60, env=os.environ)
    assert done.returncode == 0 and b"Traceback" not in done.stderr, done.stderr[-2000:]


# -- the database file itself ------------------------------------------------------------------
def test_a_fifo_in_place_of_the_database_is_replaced_not_waited_on(folder):
    path = db_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    os.mkfifo(path)
    os.mkfifo(f"{path}-wal")
    code = "import sys; from scorekeeper.index import Index; i = Index(sys.argv[1]); print(len(i.refresh().added))"
    done = subprocess.run([sys.executable, "-c", code, str(folder)], capture_output=True, timeout=30, env=os.environ)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout) == len(list(folder.glob("*.toml")))
    assert path.is_file() and not path.is_symlink()


def test_a_symlink_in_place_of_the_database_is_replaced_and_its_target_untouched(folder, tmp_path):
    target = tmp_path / "precious.txt"
    target.write_text("keep me")
    path = db_path(folder)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.symlink_to(target)
    with Index(folder) as index:
        index.refresh()
        assert index.summaries()
    assert target.read_text() == "keep me"
    assert not path.is_symlink()


def test_a_full_disk_leaves_no_wal_behind(folder, monkeypatch):
    with Index(folder) as index:
        index.refresh()
        index._to_memory(full=True)
        assert not Path(f"{index.path}-wal").exists() and not index.path.exists()
        assert index.refresh().added  # goes on in memory


# -- session files that are not regular files, and headers ------------------------------------
def test_a_fifo_named_toml_is_refused_without_blocking(folder):
    fifo = folder / "pipe.toml"
    os.mkfifo(fifo)
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "check", str(fifo)], capture_output=True, timeout=30,
                          env=os.environ)
    assert done.returncode != 0 and b"regular file" in done.stdout + done.stderr
    with Index(folder) as index:
        index.refresh()
        assert "pipe.toml" not in {s.file for s in index.summaries()}


def test_an_unknown_array_of_tables_is_refused_with_its_line(tmp_path):
    path = tmp_path / "x.toml"
    path.write_text('format = 1\ngame = "ticket-booth"\nplayers = ["A", "B"]\n\n[[x]]\n')
    with pytest.raises(SessionError) as caught:
        from scorekeeper import files

        session, problems = files.load(path)
        raise SessionError(problems)
    problem = next(p for p in caught.value.problems if "unknown key 'x'" in p.describe())
    assert problem.line == 5


# -- the app -----------------------------------------------------------------------------------
@pilot_test
async def test_the_home_lists_a_name_that_is_not_utf8_escaped_and_deletes_it(tmp_path: Path) -> None:
    """Beside a name that is not UTF-8 (and one with LF and TAB), every session is listed, drawn escaped; the
    odd one is deleted to trash/ and comes back with ctrl+z."""
    for p in SAMPLES.glob("ticket-booth*.toml"):
        shutil.copy(p, tmp_path / p.name)
    raw = os.path.join(os.fsencode(tmp_path), b"bad\x9bname.toml")
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", raw)
    shutil.copy(SAMPLES / "ticket-booth-3p.toml", tmp_path / ODD)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        await settle(pilot)
        assert len(home.shown) == len(list(tmp_path.glob("*.toml")))
        assert {e.path.name for e in home.shown} >= {BAD, ODD}
        drawn = [inert(text) for e in home.shown for line in e.parts() for text, _style in line]
        assert all(inert(t) == t for t in drawn)
        await burst(pilot, *"bad")
        assert [e.path.name for e in home.shown] == [BAD]
        await burst(pilot, "ctrl+d", "y")
        assert not os.path.exists(raw) and os.path.exists(os.path.join(os.fsencode(tmp_path), b"trash",
                                                                        b"bad\x9bname.toml"))
        await burst(pilot, "ctrl+z")
        assert os.path.exists(raw)
