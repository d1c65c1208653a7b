"""A sessions folder read for its index: the session files and their keys, each file's summary row, and a big
look read in worker processes (`concurrent.futures`), where starting them pays.

No database here (`scorekeeper.index` keeps the rows) and nothing written to the folder.
"""

from __future__ import annotations

import os
import stat
import time
from collections.abc import Callable, Iterator
from datetime import datetime
from pathlib import Path
from typing import Any

from scorekeeper.index.summary import COLUMNS, Columns, Key, Summary, _key, summarize_text, unreadable
from scorekeeper.store.paths import leads_out

RACY_NS = 3_000_000_000
"""A file modified this recently before it was read is read again on the next look (mtime ticks are coarse)."""

PARALLEL = 400
"""From this many files to read, a look reads them in worker processes, one per core (below, starting the
processes costs more than they save: `bench/folder.py`)."""

CHUNK = 100
"""Files read per task (a worker's answer, and the progress shown, come a chunk at a time)."""

AHEAD = 2
"""Chunks given to the pool per worker process at a time (one read, one waiting: answers do not pile up)."""

Row = tuple[Any, ...]
Answer = tuple[list[Row], list[str]]
"""What reading some files gives: their rows, and the names of the files gone meanwhile."""


def session_keys(folder: Path) -> dict[str, Key]:
    """The session files of a folder (`*.toml`, not hidden, not in trash, not a link out of it) and their keys."""
    found: dict[str, Key] = {}
    try:
        entries = os.scandir(folder)
    except OSError:
        return found
    real: str | None = None
    with entries:
        for entry in entries:
            name = entry.name
            if not name.endswith(".toml") or name.startswith("."):
                continue
            try:
                if not entry.is_file():
                    continue
                if entry.is_symlink():  # a link out of the folder is no session of it: never indexed
                    real = real or os.path.realpath(folder)
                    if leads_out(real, entry.path):
                        continue
                found[name] = _key(entry.stat())
            except OSError:
                continue
    return found


def read_file(path: Path) -> tuple[Key, Columns] | None:
    """A file's key and summary columns, the key taken from the very file read; None when it is gone."""
    from scorekeeper.store.reading import MAX_FILE_BYTES

    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        return Key(0, 0, 0), unreadable(f"error: cannot read the file: {exc.strerror or exc}")
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            return _key(st), unreadable("error: is not a regular file")
        if st.st_size > MAX_FILE_BYTES:
            return _key(st), unreadable(f"error: the file (line 1): the file is "
                              f"{st.st_size:,} bytes; a session file has at most {MAX_FILE_BYTES:,}")
        chunks = []
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
    except OSError as exc:
        return Key(0, 0, 0), unreadable(f"error: cannot read the file: {exc.strerror or exc}")
    finally:
        os.close(fd)
    data = b"".join(chunks)
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        from scorekeeper.model.session import SessionError
        from scorekeeper.store.reading import decode

        try:
            decode(data)
        except SessionError as exc:
            return _key(st), unreadable(exc.problems[0].describe())
    return _key(st), summarize_text(text)


def summarize(path: Path | str) -> Summary | None:
    """The summary of one session file, read now (no database); None when the file is gone."""
    path = Path(path)
    got = read_file(path)
    if got is None:
        return None
    key, cols = got
    return Summary.of(path.parent, dict(zip(COLUMNS, row(path.name, key, cols, time.time_ns()), strict=True)))


def row(name: str, key: Key, cols: Columns, now_ns: int) -> Row:
    """A file's row of the index: its name, key, whether it was read too soon after a change, its summary."""
    when = cols.started
    if when is None:
        when = datetime.fromtimestamp(key.mtime_ns / 1e9).isoformat(timespec="seconds") if key.mtime_ns else ""
    racy = int(now_ns - key.mtime_ns < RACY_NS)
    return (name, key.size, key.mtime_ns, key.ino, racy, cols.game, cols.title, cols.started, when, cols.players,
            cols.state, cols.complete, cols.winners, cols.error, cols.detail)


def read_chunk(folder: str, names: list[str]) -> Answer:
    """Index rows of some files of a folder, and the names of those gone (runs in a worker process too)."""
    rows: list[Row] = []
    gone: list[str] = []
    for name in names:
        got = read_file(Path(folder) / name)
        if got is None:
            gone.append(name)
        else:
            rows.append(row(name, got[0], got[1], time.time_ns()))
    return rows, gone


def workers_for(total: int) -> int:
    """How many processes read `total` files: from PARALLEL files on, as $SCOREKEEPER_WORKERS says, else one per
    core (at most 8); below, 1 (this one)."""
    if total < PARALLEL:
        return 1
    env = os.environ.get("SCOREKEEPER_WORKERS", "")
    return max(1, int(env)) if env.isdigit() else min(os.cpu_count() or 1, 8)


def read_chunks(folder: str, names: list[str], workers: int,
                stop: Callable[[], bool] | None = None) -> Iterator[Answer]:
    """`read_chunk` of the names a CHUNK at a time, in `workers` processes when more than one (answers then come
    in any order). `stop()` is asked between chunks: True ends the reading."""
    chunks = [names[i:i + CHUNK] for i in range(0, len(names), CHUNK)]
    if workers > 1 and len(chunks) > 1:
        yield from read_in_workers(folder, chunks, workers, stop)
        return
    for chunk in chunks:
        if stop and stop():
            return
        yield read_chunk(folder, chunk)


def start_method() -> str:
    """How the worker processes start: `fork` where it is safe, a process on Linux with no other thread and a
    stderr of its own (the command line: the workers are copies, with what this process imported, ready in
    milliseconds, and no resource tracker is needed); else `spawn`, new programs (an app: never a fork of it and
    its threads; its stderr is captured)."""
    import sys
    import threading

    if sys.platform != "linux" or threading.active_count() > 1:
        return "spawn"
    try:
        own = sys.stderr is not None and sys.stderr.fileno() >= 0
    except (AttributeError, ValueError, OSError):
        own = False
    return "fork" if own else "spawn"


def read_in_workers(folder: str, chunks: list[list[str]], workers: int,
                    stop: Callable[[], bool] | None = None) -> Iterator[Answer]:
    """`read_chunk` of every chunk in a `ProcessPoolExecutor` of `workers` processes, answers as they come.

    The processes start as `start_method` says, and leave the terminal to whoever has it (`worker_start`). A
    chunk the pool could not take, or whose process died,
    is read here; so is every chunk when no pool can start (no Python to start, no pipes left, or no real
    stderr to give multiprocessing's resource tracker, as inside a full-screen app that has not started it).
    `stop()` is asked between answers: True ends the reading and cancels the chunks not begun.
    """
    import multiprocessing
    from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait

    todo = list(reversed(chunks))
    here: list[list[str]] = []
    try:
        pool = ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context(start_method()),
                                   initializer=worker_start)
    except (OSError, ValueError):
        pool = None
    if pool is not None:
        given: dict[Future[Answer], list[str]] = {}

        def give() -> None:
            chunk = todo.pop()
            try:
                given[pool.submit(read_chunk, folder, chunk)] = chunk
            except (OSError, ValueError, RuntimeError):  # a process that cannot start; the pool broke
                here.append(chunk)

        try:
            while todo and len(given) < workers * AHEAD:
                give()
            while given:
                if stop and stop():
                    return
                done, _ = wait(given, return_when=FIRST_COMPLETED)
                for future in done:
                    chunk = given.pop(future)
                    try:
                        answer = future.result()
                    except Exception:  # its process died (BrokenProcessPool) or could not start: read here
                        here.append(chunk)
                        continue
                    if todo:
                        give()
                    yield answer
        finally:
            pool.shutdown(wait=False, cancel_futures=True)
    for chunk in here + todo[::-1]:
        if stop and stop():
            return
        yield read_chunk(folder, chunk)


def worker_start() -> None:
    """First thing in a worker process: a session of its own (the terminal's signals are for the app) and
    stdin, stdout and stderr on /dev/null (nothing of it reaches a terminal a full-screen app owns)."""
    try:
        os.setsid()
    except OSError:
        pass
    quiet = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(quiet, fd)
    os.close(quiet)


def prepare_workers(folder: Path, database: Path) -> bool:
    """Start multiprocessing's resource tracker now when the folder's first look will read in worker processes
    (no index database yet, and PARALLEL session files or more); True when it was started.

    For the app, before it takes over the terminal: it then replaces stderr with an object that has no file
    descriptor, and the tracker, which every process pool needs, could no longer start (`ValueError: bad
    value(s) in fds_to_keep`): the first look would read every file in the app's own process.
    """
    if workers_for(PARALLEL) < 2 or database.exists():
        return False
    try:
        with os.scandir(folder) as entries:
            count = sum(1 for e in entries if e.name.endswith(".toml"))
    except OSError:
        return False
    if count < PARALLEL:
        return False
    from multiprocessing import resource_tracker

    try:
        resource_tracker.ensure_running()
    except (OSError, ValueError):
        return False
    return True
