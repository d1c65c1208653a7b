"""Nothing lost, nothing injected: session files under races, kills, hostile input and a full disk."""

from __future__ import annotations

import errno
import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from datetime import datetime
from pathlib import Path

import pytest

from scorekeeper import files, store
from scorekeeper.cli import main
from scorekeeper.model.session import Session
from scorekeeper.store import reading
from scorekeeper.tui import compat
from scorekeeper.walk.document import Document
from tests.faults_support import (
    CONTROL_FIELDS,
    HOSTILE,
    PAYLOAD,
    data_leaks,
    disk_full,
    exit_code_within,
    race,
    run_in_pty,
    scorekeeper_argv,
)
from tests.test_tui_support import SIZE, app_for, pilot_test, running, settle, write_session

ROOT = os.geteuid() == 0
NOW = datetime(2026, 11, 27, 19, 30)


def session(title: str | None = None) -> Session:
    """A small Ticket Booth session."""
    return Session(game="ticket-booth", players=("Ana", "Bo"), title=title, started=NOW)


# -- 1. new sessions never replace one another -------------------------------------------
def test_create_never_replaces_a_file(tmp_path: Path) -> None:
    """The name is taken: the suffix counts up; an existing file is never touched."""
    taken = store.new_path(tmp_path, session("Friday"), NOW)
    taken.write_text("mine\n")
    first = store.create(tmp_path, session("Friday"), NOW)
    second = store.create(tmp_path, session("Friday"), NOW)
    assert taken.read_text() == "mine\n"
    assert len({taken, first, second}) == 3
    assert [p.name for p in (first, second)] == [taken.stem + "-2.toml", taken.stem + "-3.toml"]


@pytest.mark.slow
def test_many_new_commands_at_once_lose_nothing(tmp_path: Path) -> None:
    """24 `scorekeeper new` runs, 6 at a time, same title and minute: 24 distinct files, each complete."""
    argv = scorekeeper_argv("new", "ticket-booth", "-p", "Ana", "-p", "Bo", "--title", "same", "--no-open",
                            "--dir", str(tmp_path))
    printed: list[str] = []
    for _ in range(4):
        procs = [subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(6)]
        for p in procs:
            out, err = p.communicate(timeout=60)
            assert p.returncode == 0, err
            printed.append(out.strip())
    assert len(set(printed)) == 24
    written = store.session_files(tmp_path)
    assert len(written) == 24
    for f in written:
        files.load(f)


# -- 2. control sequences ----------------------------------------------------------------
@pytest.mark.parametrize(("field", "text", "line"), CONTROL_FIELDS, ids=[c[0] for c in CONTROL_FIELDS])
def test_control_characters_are_refused_with_their_place(tmp_path: Path, field: str, text: str, line: int) -> None:
    """A control character in any text of a file: refused, the line named, and the output inert."""
    path = tmp_path / f"{field}.toml"
    path.write_text(text)
    for command in (["check", str(path)], ["score", str(path)], ["score", "--json", str(path)]):
        res = subprocess.run(scorekeeper_argv(*command), capture_output=True, timeout=30)
        assert res.returncode == 2, (command, res.stderr)
        out = res.stdout + res.stderr
        assert f"(line {line})".encode() in out, out
        assert data_leaks(out) == [], out
        assert b"\x1b" not in out and b"\x07" not in out and b"\r" not in out


def test_a_file_name_with_control_characters_is_printed_inert(tmp_path: Path) -> None:
    """A valid session whose file name holds an escape sequence: score, check, stats, JSON print it escaped."""
    path = tmp_path / ("x" + PAYLOAD.replace("\\", "_") + ".toml")
    store.save(path, session("Fine"))
    for command in (["score", str(path)], ["check", str(path)], ["stats", str(tmp_path)],
                    ["stats", "--json", str(tmp_path)]):
        res = subprocess.run(scorekeeper_argv(*command), capture_output=True, timeout=30)
        assert res.returncode == 0, res.stderr
        assert data_leaks(res.stdout + res.stderr) == [] and b"\x1b" not in res.stdout + res.stderr
    res = subprocess.run(scorekeeper_argv("score", "--json", str(path)), capture_output=True, timeout=30)
    assert b"\x1b" not in res.stdout and json.loads(res.stdout)["file"] == str(path)


@pytest.mark.slow
def test_the_app_draws_no_control_sequence_from_the_data(tmp_path: Path) -> None:
    """The home screen over every control-holding file and a session whose name holds one: nothing leaks."""
    for field, text, _ in CONTROL_FIELDS:
        (tmp_path / f"{field}.toml").write_text(text)
    store.save(tmp_path / ("named" + PAYLOAD.replace("\\", "_") + ".toml"), session("Fine"))
    run = run_in_pty(scorekeeper_argv("--dir", str(tmp_path)), keys=[(t, b"\x11") for t in (1.5, 4, 8)],
                     ready=b"has problems", timeout=40)
    assert run.status == 0
    assert b"PWNED" in run.output and b"has problems" in run.output  # it was drawn, escaped
    assert data_leaks(run.output) == []


# -- 3 and 4. hostile files ----------------------------------------------------------------
@pytest.mark.parametrize(("name", "data", "line", "word"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_hostile_files_are_refused_fast_with_a_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
                                                    data: bytes, line: int, word: str) -> None:
    """Exit 2, the file and the line named, a clear message, no runaway parse, the file untouched.

    The bound is a hang guard, not a speed test (a runaway parse of these takes minutes; a refusal under a
    tenth of a second): bench/faults.py prints the time of each."""
    path = tmp_path / f"{name}.toml"
    path.write_bytes(data)
    before = path.stat().st_mtime_ns
    start = time.perf_counter()
    code = main(["check", str(path)])
    took = time.perf_counter() - start
    out = capsys.readouterr().out
    assert code == 2
    assert took < 10.0, took
    first = out.splitlines()[0]
    assert first.startswith(f"{path}: error: ") and word in first, first
    assert f"(line {line})" in first or f"(line {line}, column " in first, first
    assert path.read_bytes() == data and path.stat().st_mtime_ns == before


def test_hostile_files_through_the_command_in_a_second(tmp_path: Path) -> None:
    """The whole lot through a real `scorekeeper check`, one process: every file refused, none runs away."""
    paths = []
    for name, data, _, _ in HOSTILE:
        paths.append(tmp_path / f"{name}.toml")
        paths[-1].write_bytes(data)
    start = time.perf_counter()
    res = subprocess.run(scorekeeper_argv("check", *map(str, paths)), capture_output=True, text=True, timeout=60)
    took = time.perf_counter() - start
    assert res.returncode == 2 and "Traceback" not in res.stderr
    assert res.stdout.count(": invalid — ") == len(HOSTILE)
    assert took < 10.0 * len(HOSTILE), took


@pytest.mark.parametrize("kind", ["fifo", "folder", "device"])
def test_only_regular_files_are_opened(tmp_path: Path, kind: str) -> None:
    """A FIFO, a folder or a device named *.toml: refused at once, never read (a FIFO would block)."""
    path = tmp_path / f"{kind}.toml"
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "folder":
        path.mkdir()
    else:
        path.symlink_to("/dev/zero")
    res = subprocess.run(scorekeeper_argv("check", str(path)), capture_output=True, text=True, timeout=10)
    assert res.returncode == 2
    assert "regular file" in res.stdout or "folder" in res.stdout, res.stdout


@pilot_test
async def test_the_home_screen_lists_every_bad_file_and_opens_the_good_one(tmp_path: Path) -> None:
    """All hostile files, a FIFO and a good session in one folder: each listed with its message; the good opens."""
    from scorekeeper.tui.screens.home import HomeScreen

    for name, data, _, _ in HOSTILE:
        (tmp_path / f"{name}.toml").write_bytes(data)
    os.mkfifo(tmp_path / "pipe.toml")
    good = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="good.toml")
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        entries = {e.path.name: e for e in home.entries}
        assert len(entries) == len(HOSTILE) + 2
        assert all(e.error for n, e in entries.items() if n != "good.toml")
        assert not entries["good.toml"].error
        assert app.open_file(good)
        await settle(pilot)
        assert app.doc is not None and app.doc.path == good


# -- 5. mode, group, read-only -------------------------------------------------------------
def test_a_save_keeps_mode_and_group(tmp_path: Path) -> None:
    """0664 and group `users` stay after a save; a new file follows the umask."""
    path = tmp_path / "shared.toml"
    store.save(path, session())
    os.chmod(path, 0o664)
    gid = 100 if ROOT else os.getgid()
    if ROOT:
        os.chown(path, -1, gid)
    store.save(path, session("again"))
    st = path.stat()
    assert (st.st_mode & 0o7777, st.st_gid) == (0o664, gid)
    old = os.umask(0o027)
    try:
        fresh = store.create(tmp_path, session("new"), NOW)
    finally:
        os.umask(old)
    assert fresh.stat().st_mode & 0o7777 == 0o640


@pilot_test
async def test_a_read_only_session_is_never_written(tmp_path: Path) -> None:
    """0444: the app says read-only, a typed value is refused, the file is untouched."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    os.chmod(path, 0o444)
    data = path.read_bytes()
    with pytest.raises(store.ReadOnlyError):
        store.save_checked(path, session("x"))
    async with running(tmp_path, path) as (app, pilot):
        assert app.doc is not None and app.doc.read_only
        await pilot.press("1")
        await settle(pilot)
        said = " ".join(n.message for n in compat.notifications(app))
        assert "read-only" in said
    assert path.read_bytes() == data and path.stat().st_mode & 0o777 == 0o444


# -- 6. stale temporary files -------------------------------------------------------------
def test_stale_temporary_files_are_removed_and_nothing_else(tmp_path: Path) -> None:
    """Ours, old and not held: removed; fresh, held open by a writer, or not ours: kept."""
    import fcntl

    old = time.time() - 120
    stale = tmp_path / ".s.toml.abcd1234.tmp"
    fresh = tmp_path / ".s.toml.efgh5678.tmp"
    held = tmp_path / ".s.toml.ijkl9012.tmp"
    users = [tmp_path / ".notes.tmp", tmp_path / "s.toml.abcd1234.tmp", tmp_path / "s.toml"]
    for p in (stale, fresh, held, *users):
        p.write_text("x")
    for p in (stale, held, *users):
        os.utime(p, (old, old))
    fd = os.open(held, os.O_RDONLY)
    fcntl.flock(fd, fcntl.LOCK_EX)
    try:
        assert store.remove_stale_temps(tmp_path) == [stale]
    finally:
        os.close(fd)
    assert not stale.exists() and fresh.exists() and held.exists() and all(p.exists() for p in users)


@pilot_test
async def test_the_app_removes_stale_temporary_files_at_start(tmp_path: Path) -> None:
    """What a killed save left behind is gone once the app is up."""
    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    stale = tmp_path / ".session.toml.zz99zz99.tmp"
    stale.write_text("half")
    os.utime(stale, (time.time() - 300, time.time() - 300))
    async with app_for(tmp_path).run_test(size=SIZE) as pilot:
        await settle(pilot)
    assert not stale.exists()


# -- 7. comments ----------------------------------------------------------------------------
COMMENTED = '''# Friday at Mia's
format = 1
game = "ticket-booth"
players = ["Ana", "Bo"]  # Bo arrived late
title = "#1 is not a comment"

# round one
[[rounds]]
'''


@pilot_test
async def test_a_file_with_comments_is_kept_in_trash_before_the_first_save(tmp_path: Path) -> None:
    """The first save copies the hand-written file (comments and all) to trash/, and says so once."""
    path = tmp_path / "commented.toml"
    path.write_text(COMMENTED)
    async with running(tmp_path, path) as (app, pilot):
        await pilot.press("1")
        await settle(pilot)
        await pilot.press("enter", "0")
        await settle(pilot)
        said = [n.message for n in compat.notifications(app) if "comments" in n.message]
    assert (tmp_path / "trash" / "commented.toml").read_text() == COMMENTED
    assert len(list((tmp_path / "trash").iterdir())) == 1
    assert len(said) == 1 and "trash/commented.toml" in said[0]
    assert "#" not in path.read_text().replace('"#1 is not a comment"', "")
    assert not reading.has_comments(path.read_text())


# -- 8. folders and unreadable files ---------------------------------------------------------
def test_a_dir_that_is_a_file_is_refused(tmp_path: Path) -> None:
    """--dir pointing at a file: a clear message, exit 1, no traceback (app, new, stats)."""
    file = tmp_path / "plain"
    file.write_text("x")
    for argv in (["--dir", str(file)], ["new", "ticket-booth", "-p", "A", "-p", "B", "--no-open", "--dir", str(file)],
                 ["stats", str(file)]):
        res = subprocess.run(scorekeeper_argv(*argv), capture_output=True, text=True, timeout=30)
        assert res.returncode == 1, (argv, res.stderr)
        assert "Traceback" not in res.stderr and ("not a folder" in res.stderr or "no such folder" in res.stderr)


@pytest.mark.skipif(ROOT, reason="root reads and writes every file")
def test_an_unreadable_file_is_named_and_the_rest_go_on(tmp_path: Path) -> None:
    """check, stats: the unreadable file named with why; the others are still read."""
    good = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="good.toml")
    bad = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="bad.toml")
    os.chmod(bad, 0)
    res = subprocess.run(scorekeeper_argv("check", str(bad), str(good)), capture_output=True, text=True, timeout=30)
    assert res.returncode == 2 and "bad.toml: error: the file: cannot read the file: Permission denied" in res.stdout
    assert f"{good}: ok" in res.stdout


# -- 9. a full disk --------------------------------------------------------------------------
def test_a_full_disk_keeps_the_old_file_and_the_value(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """ENOSPC on write: the old file stays whole, no temp file is left, the value stays; space back: saved."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    data = path.read_bytes()
    doc = Document.open(path)
    real = store._write_all

    def full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    monkeypatch.setattr(store, "_write_all", full)
    with pytest.raises(OSError, match="No space left"):
        doc.commit(doc.session.with_value(1, "Ana", "tickets", 4))
    assert path.read_bytes() == data and doc.unsaved and doc.session.round(1).entry("Ana") == {"tickets": 4}
    assert [p.name for p in tmp_path.iterdir()] == ["session.toml"]
    monkeypatch.setattr(store, "_write_all", real)
    doc.commit(doc.session.with_value(1, "Bo", "tickets", 2))
    assert files.load(path)[0].round(1).players == {"Ana": {"tickets": 4}, "Bo": {"tickets": 2}}


@pilot_test
async def test_the_app_on_a_full_disk(tmp_path: Path) -> None:
    """The app: a clear message, the typed value stays on screen, the file keeps its last state; later saved."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    data = path.read_bytes()
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert " ".join(screen.row_text("Ana").split()) == "Ana starts"  # nothing typed yet
        with disk_full():
            await pilot.press("1")
            await settle(pilot)
        assert path.read_bytes() == data
        assert " ".join(screen.row_text("Ana").split()).startswith("Ana starts 1") and app.screen is screen
        said = " ".join(n.message for n in compat.notifications(app))
        assert "No space left on device" in said and "stays here" in said
        await pilot.press("enter", "0")
        await settle(pilot)
    players = files.load(path)[0].round(1).players
    assert players["Ana"]["attractions"] == {"1": 1} and players["Bo"]["attractions"] == {"1": 0}


# -- 10. the file-changed guard between our writers ------------------------------------------
@pytest.mark.slow
def test_two_writers_never_overwrite_each_other_silently(tmp_path: Path) -> None:
    """Two processes saving one session through the app's Document for 3 s: conflicts, but 0 silent overwrites."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    saves, conflicts, silent = race(path, writers=2, seconds=3.0)
    assert saves > 20
    assert silent == 0, (saves, conflicts, silent)
    files.load(path)


def test_a_checked_save_refuses_a_changed_file(tmp_path: Path) -> None:
    """The check and the replacement are one step: a stale fingerprint is refused and nothing is written."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    seen = store.fingerprint(path)
    store.save(path, session("theirs"))
    with pytest.raises(store.ChangedOnDisk):
        store.save_checked(path, session("mine"), expected=seen)
    assert files.load(path)[0].title == "theirs"


# -- 11. signals ---------------------------------------------------------------------------
@pytest.mark.slow
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_a_signal_quits_like_ctrl_q(tmp_path: Path, sig: int) -> None:
    """SIGTERM/SIGHUP: exit 0 with the alternate screen and mouse reporting turned off."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    run = run_in_pty(scorekeeper_argv(str(path)), send_signal=(1.0, sig), ready=b"palette", timeout=40)
    assert run.status == 0, run.status
    tail = run.output[run.output.rfind(b"\x1b[?1049h"):]
    assert b"\x1b[?1049l" in tail and b"\x1b[?1000l" in tail
    files.load(path)


@pytest.mark.slow
def test_save_is_atomic_when_the_writer_is_killed(tmp_path: Path) -> None:
    """A save loop killed with SIGKILL at random moments: the file is always whole (old or new)."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    loop = ("import sys\nfrom dataclasses import replace\nfrom scorekeeper import files, store\n"
            "p = sys.argv[1]\ns = files.load(p)[0]\ni = 0\nwhile True:\n"
            "    i += 1\n    store.save(p, replace(s, title=f't{i}', notes='x' * 5000))\n")
    for delay in (0.3, 0.45, 0.6, 0.75):
        proc = subprocess.Popen([sys.executable, "-c", loop, str(path)])
        time.sleep(delay)
        proc.kill()
        proc.wait()
        files.load(path)
    assert replace(files.load(path)[0], title=None, notes=None).players == ("Ana", "Bo")


def test_mutated_samples_never_crash_and_every_refusal_has_a_line() -> None:
    """600 randomly broken sample files: no traceback, none over a second, every refusal names its line."""
    from tests.faults_support import fuzz

    root = Path(__file__).resolve().parent.parent / "sample_sessions"
    samples = [p.read_text() for p in sorted(root.glob("*.toml"))]
    found = fuzz(samples, 600, seed=11)
    assert found["crashed"] == 0, found["tracebacks"][:3]
    assert found["over 1 s"] == 0 and found["no line"] == 0, found["without line"][:5]
    assert found["refused"] > 300 and found["read"] > 0


def test_the_app_guard_escapes_exactly_what_the_core_calls_control() -> None:
    """The app's fast filter and text.is_control agree on every character (but line feed and tab)."""
    import re

    from scorekeeper.model.text import is_control
    from scorekeeper.tui.inert import CONTROLS, escape_controls

    for code in [*range(0x3000), *range(0xFE00, 0x10000), 0x1F600, 0xE0001]:
        ch = chr(code)
        if 0xD800 <= code < 0xE000:
            continue
        control = bool(re.fullmatch(CONTROLS, ch))
        assert control == (is_control(ch) and ch not in "\n\t"), hex(code)
        assert not (control and ch.isprintable()), hex(code)  # a printable text is passed without a look
        if not control:
            assert escape_controls(f"a{ch}\n\tb") == f"a{ch}\n\tb", hex(code)
    assert escape_controls("a\x1b]2;x\x07\nb\u202e") == "a\\x1b]2;x\\x07\nb\\u202e"


def test_new_refuses_a_title_with_control_characters(tmp_path: Path) -> None:
    """`new --title` with an escape sequence: refused (exit 1), the message inert, no file written."""
    res = subprocess.run(scorekeeper_argv("new", "ticket-booth", "-p", "Ana", "-p", "Bo", "--title", PAYLOAD,
                                          "--no-open", "--dir", str(tmp_path)), capture_output=True, timeout=30)
    assert res.returncode == 1 and b"control character (\\x1b)" in res.stderr
    assert data_leaks(res.stdout + res.stderr) == [] and b"\x1b" not in res.stderr
    assert not list(tmp_path.glob("*.toml"))


def test_stats_over_a_folder_of_hostile_files_goes_on(tmp_path: Path) -> None:
    """`stats` on a folder of every hostile file, a FIFO and one finished session: no traceback, in time."""
    from tests.test_tui_support import write_session as write

    for name, data, _, _ in HOSTILE:
        (tmp_path / f"{name}.toml").write_bytes(data)
    os.mkfifo(tmp_path / "pipe.toml")
    write(tmp_path, "ticket-booth", ["Ana", "Bo"], name="good.toml")
    start = time.perf_counter()
    res = subprocess.run(scorekeeper_argv("stats", str(tmp_path)), capture_output=True, text=True, timeout=60)
    assert res.returncode == 0 and "Traceback" not in res.stderr, res.stderr
    assert time.perf_counter() - start < 10


@pytest.mark.slow
def test_the_app_given_a_fifo_shows_why_and_quits(tmp_path: Path) -> None:
    """`scorekeeper pipe.toml` on a FIFO: the app does not block, it says why, ctrl+q quits with 0."""
    fifo = tmp_path / "pipe.toml"
    os.mkfifo(fifo)
    run = run_in_pty(scorekeeper_argv(str(fifo)), keys=[(t, b"\x11") for t in (1.5, 3, 6)], ready=b"regular",
                     timeout=40)
    assert run.status == 0
    assert b"regular" in run.output


def test_new_in_a_folder_that_cannot_be_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """The folder refuses the write: a clear message naming the folder, exit 1, nothing left behind."""
    real = os.open

    def refused(path: str, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_CREAT:
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES))
        return real(path, flags, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "open", refused)
    code = main(["new", "ticket-booth", "-p", "Ana", "-p", "Bo", "--no-open", "--dir", str(tmp_path)])
    err = capsys.readouterr().err
    assert code == 1 and f"cannot write a session file in {tmp_path}: Permission denied" in err
    assert list(tmp_path.iterdir()) == []


@pilot_test
async def test_a_folder_that_cannot_be_written_opens_read_only(tmp_path: Path) -> None:
    """The app says the folder cannot be written, and a session in it is read-only (never written)."""
    from unittest import mock

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    data = path.read_bytes()
    real = os.access

    def access(p: object, mode: int, **kw: object) -> bool:
        return False if Path(str(p)) == tmp_path and mode & os.W_OK else real(p, mode, **kw)  # type: ignore[arg-type]

    with mock.patch("os.access", access):
        async with running(tmp_path, path) as (app, pilot):
            assert app.doc is not None and app.doc.read_only
            await pilot.press("1")
            await settle(pilot)
            said = " ".join(n.message for n in compat.notifications(app))
            assert "cannot be written" in said and "read-only" in said
    assert path.read_bytes() == data


@pytest.mark.slow
def test_the_terminal_going_away_ends_the_app_cleanly(tmp_path: Path) -> None:
    """The terminal window is closed (the kernel sends SIGHUP): exit 0 within seconds, the session whole."""
    import pty
    import select

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "scorekeeper", str(path)])
    seen, end = b"", time.monotonic() + 40
    while time.monotonic() < end and b"palette" not in seen:
        if select.select([fd], [], [], 0.1)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    time.sleep(1.0)
    os.close(fd)
    code = exit_code_within(pid, 10)
    assert code is not None, "the app hung after its terminal went away"
    assert code == 0
    files.load(path)
    assert [p.name for p in tmp_path.iterdir()] == ["session.toml"]


def test_the_guard_agrees_with_a_token_walk() -> None:
    """On mutated samples and every hostile file: the same refusal (message and line) as a plain walk token by
    token (tests/reference_scan.py); when nothing is refused, the same comments and lines inside strings."""
    import random

    from tests.faults_support import mutate
    from tests.reference_scan import scan_tokens

    root = Path(__file__).resolve().parent.parent / "sample_sessions"
    samples = [p.read_text() for p in sorted(root.glob("*.toml"))]
    rng = random.Random(3)
    texts = [mutate(rng.choice(samples), rng).decode("utf-8", "replace") for _ in range(800)]
    texts += [data.decode("utf-8", "replace") for _, data, _, _ in HOSTILE] + [t for _, t, _ in CONTROL_FIELDS]
    refused = 0
    for text in texts:
        if len(text) > reading.MAX_FILE_BYTES:
            continue
        fast, slow = reading.scan(text), scan_tokens(text)
        assert fast.problem == slow.problem, text[:200]
        if fast.problem is None:
            assert (fast.comments, fast.in_strings) == (slow.comments, slow.in_strings), text[:200]
        refused += fast.problem is not None
    assert refused > 20


def test_a_session_too_big_to_read_back_is_never_written(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A save that would pass the size limit is refused (EFBIG), the file and the document untouched (notes
    within their own limit, the file's limit lowered: a session over 128 KiB is refused by its texts first)."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    data = path.read_bytes()
    doc = Document.open(path)
    monkeypatch.setattr(reading, "MAX_FILE_BYTES", 4096)
    with pytest.raises(store.TooBig, match="at most 4,096"):
        doc.commit(replace(doc.session, notes="x\n" * 4_000))
    assert path.read_bytes() == data and not doc.unsaved and doc.session.notes is None
