"""A derived SQLite index of a sessions folder: one summary per session file, rebuilt from the files at will.

The TOML files stay the only truth. The index lives in the user cache folder (one database per sessions
folder, named after its resolved path), keys each file by name, size, modification time and inode, and
notices files changed, added or removed on the next `refresh()`. A missing, corrupt or older-format
database is rebuilt without a word; deleting it loses nothing. Several processes may refresh and read it at
once (WAL, a busy timeout, short transactions, and a row is written only while the file on disk still
matches what was read).

    index = Index(folder)
    index.refresh(progress=lambda done, total: ...)   # reads only what changed
    for s in index.summaries():                        # cheap: from the database, no TOML read
        print(s.file, s.state, s.totals)
"""

from __future__ import annotations

import os
import sqlite3
import stat
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date, datetime
from pathlib import Path
from typing import Any

from scorekeeper.paths import leads_out
from scorekeeper.summary import (
    INVALID,
    UNREADABLE,
    Changes,
    Key,
    Result,
    Summary,
    _db_name,
    _key,
    _name,
    _plain_texts,
    is_session_name,
    summarize_session,
    summarize_text,
    unreadable,
)

__all__ = [  # the pure summary's names stay importable from here
    "Index", "open_index", "db_path", "cache_dir", "summarize", "read_file", "scan", "serve_worker", "SCHEMA",
    "INVALID", "UNREADABLE", "Changes", "Key", "Result", "Summary", "is_session_name", "summarize_session",
    "summarize_text", "unreadable", "_plain_texts",
]

SCHEMA = 3
"""The index's format; a database of another format is rebuilt."""

RACY_NS = 3_000_000_000
"""A file modified this recently before it was read is read again on the next look (mtime ticks are coarse)."""

BATCH = 400
"""Rows written per transaction while refreshing (short transactions let other processes in)."""

PARALLEL = 400
"""From this many files to read, a refresh reads them in worker processes, one per core."""

CHUNK = 100
"""Files a worker process reads per task."""

AHEAD = 3
"""Chunks given to a worker process at a time (it reads one, the others wait in its pipe)."""

Progress = Callable[[int, int], None]
"""progress(done, total): called while changed files are read."""

_COLUMNS = ("name", "size", "mtime_ns", "ino", "racy", "game", "title", "started", "sort_when", "players",
            "state", "complete", "winners", "error", "detail")

_CREATE = """
CREATE TABLE IF NOT EXISTS sessions (
    name TEXT PRIMARY KEY,
    size INTEGER NOT NULL,
    mtime_ns INTEGER NOT NULL,
    ino INTEGER NOT NULL,
    racy INTEGER NOT NULL,
    game TEXT,
    title TEXT,
    started TEXT,
    sort_when TEXT NOT NULL,
    players TEXT NOT NULL,
    state TEXT NOT NULL,
    complete INTEGER NOT NULL,
    winners TEXT NOT NULL,
    error TEXT NOT NULL,
    detail TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS sessions_when ON sessions (sort_when);
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""
_INSERT = f"INSERT OR REPLACE INTO sessions ({', '.join(_COLUMNS)}) VALUES ({', '.join('?' * len(_COLUMNS))})"


@contextmanager
def _immediate(con: sqlite3.Connection) -> Iterator[sqlite3.Connection]:
    """One write transaction, taken at once (BEGIN IMMEDIATE): committed, or rolled back on any error."""
    con.execute("BEGIN IMMEDIATE")
    try:
        yield con
        con.execute("COMMIT")
    except BaseException:
        if con.in_transaction:
            con.execute("ROLLBACK")
        raise


# -- where ----------------------------------------------------------------------------------
def cache_dir() -> Path:
    """The folder of the index databases: $SCOREKEEPER_CACHE, else the user cache folder's `index/`."""
    env = os.environ.get("SCOREKEEPER_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("scorekeeper", appauthor=False)) / "index"


def db_path(folder: Path | str) -> Path:
    """The index database of a sessions folder (named after a digest of its resolved path)."""
    from hashlib import sha256

    where = str(Path(folder).expanduser().resolve()).encode("utf-8", "surrogatepass")
    return cache_dir() / (sha256(where).hexdigest()[:24] + ".sqlite3")


# -- reading a file -------------------------------------------------------------------------
def read_file(path: Path) -> tuple[Key, dict[str, Any]] | None:
    """A file's key and summary columns, the key taken from the very file read; None when it is gone."""
    from scorekeeper.store import MAX_FILE_BYTES

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
        from scorekeeper.session import SessionError
        from scorekeeper.store import decode

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
    return Summary(path.parent, _row(path.name, key, cols, time.time_ns()))


def read_chunk(folder: str, names: list[str]) -> tuple[list[tuple[Any, ...]], list[str]]:
    """Index rows of some files of a folder, and the names of those gone (runs in a worker process too)."""
    rows: list[tuple[Any, ...]] = []
    gone: list[str] = []
    for name in names:
        got = read_file(Path(folder) / name)
        if got is None:
            gone.append(name)
        else:
            rows.append(_row(name, got[0], got[1], time.time_ns()))
    return rows, gone


def _row(name: str, key: Key, cols: dict[str, Any], now_ns: int) -> tuple[Any, ...]:
    when = cols["started"]
    if when is None:
        when = datetime.fromtimestamp(key.mtime_ns / 1e9).isoformat(timespec="seconds") if key.mtime_ns else ""
    racy = int(now_ns - key.mtime_ns < RACY_NS)
    return (name, key.size, key.mtime_ns, key.ino, racy, cols["game"], cols["title"], cols["started"], when,
            cols["players"], cols["state"], cols["complete"], cols["winners"], cols["error"], cols["detail"])


def scan(folder: Path) -> dict[str, Key]:
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


# -- worker processes -----------------------------------------------------------------------
_WORKER = """
import sys
sys.path.insert(0, {root!r})
from scorekeeper.index import serve_worker
serve_worker()
"""


def serve_worker() -> None:
    """A worker process's loop: (folder, names) in on stdin, `read_chunk`'s answer out on stdout, until EOF.

    Its stdin and stdout carry only the messages; anything printed goes nowhere.
    """
    from multiprocessing.connection import Connection

    inbox, outbox = Connection(os.dup(0), writable=False), Connection(os.dup(1), readable=False)
    quiet = os.open(os.devnull, os.O_RDWR)
    os.dup2(quiet, 0)
    os.dup2(quiet, 1)
    from scorekeeper import games, validation, walk  # noqa: F401  (imported before the first chunk is timed)

    while True:
        try:
            task = inbox.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        outbox.send(read_chunk(*task))


class _Worker:
    """One worker process and the chunks it was given and has not answered yet."""

    def __init__(self) -> None:
        import subprocess
        from multiprocessing.connection import Connection

        root = str(Path(__file__).resolve().parent.parent)
        # A new program (no fork of this process and its threads); its own pipes for stdin and stdout (never
        # the terminal's, which a full-screen app owns); its own session (Ctrl+C goes to this process only).
        self.proc = subprocess.Popen([sys.executable, "-c", _WORKER.format(root=root)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, start_new_session=True,
                                     close_fds=True)
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self.send = Connection(os.dup(self.proc.stdin.fileno()), readable=False)
        self.recv = Connection(os.dup(self.proc.stdout.fileno()), writable=False)
        self.proc.stdin.close()
        self.proc.stdout.close()
        self.given: list[list[str]] = []

    def give(self, folder: str, chunk: list[str]) -> None:
        self.send.send((folder, chunk))
        self.given.append(chunk)

    def close(self) -> None:
        """End the process: EOF on its stdin, then a short wait, then kill."""
        import subprocess

        for conn in (self.send, self.recv):
            try:
                conn.close()
            except OSError:
                pass
        try:
            self.proc.wait(timeout=2)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()


def read_in_workers(folder: str, chunks: list[list[str]], workers: int, stop: Callable[[], bool] | None = None,
                    ) -> Iterator[tuple[list[tuple[Any, ...]], list[str]]]:
    """`read_chunk` of every chunk, in `workers` processes, answers as they come (any order).

    A chunk whose worker cannot start or dies is read here instead. `stop()` is asked between answers.
    """
    from multiprocessing.connection import wait

    todo = list(reversed(chunks))
    pool: list[_Worker] = []
    try:
        for _ in range(min(workers, len(chunks))):
            try:
                pool.append(_Worker())
            except (OSError, ValueError, TypeError):  # no program to start (sys.executable empty), no pipes left
                break
        for worker in pool:
            for _ in range(AHEAD):  # chunks waiting: the worker never idles while this process is busy
                if todo:
                    _give(worker, folder, todo)
        while any(w.given for w in pool):
            if stop and stop():
                return
            for ready in wait([w.recv for w in pool if w.given]):
                worker = next(w for w in pool if w.recv is ready)
                try:
                    answer: tuple[list[tuple[Any, ...]], list[str]] = worker.recv.recv()
                except (EOFError, OSError):  # the worker died: its chunks are read here
                    todo.extend(worker.given)
                    worker.given = []
                    pool.remove(worker)
                    worker.close()
                    continue
                worker.given.pop(0)
                if todo:
                    _give(worker, folder, todo)
                yield answer
        while todo:  # no worker could start, or every one died
            if stop and stop():
                return
            yield read_chunk(folder, todo.pop())
    finally:
        for worker in pool:
            worker.close()


def _give(worker: _Worker, folder: str, todo: list[list[str]]) -> None:
    chunk = todo.pop()
    try:
        worker.give(folder, chunk)
    except OSError:  # the worker is gone: the chunk goes back (its death shows on the answer side)
        todo.append(chunk)


# -- the index ------------------------------------------------------------------------------
class Index:
    """The index of one sessions folder. Safe to share between threads (one connection, a lock)."""

    def __init__(self, folder: Path | str, *, path: Path | str | None = None) -> None:
        self.folder = Path(folder).expanduser()
        self.path = Path(path) if path is not None else db_path(self.folder)
        self._lock = threading.RLock()
        self._moves = 0
        self._con = self._open()

    # -- the database ---------------------------------------------------------------------
    def _connect(self, where: str) -> sqlite3.Connection:
        con = sqlite3.connect(where, timeout=30, isolation_level=None, check_same_thread=False)
        con.execute("PRAGMA busy_timeout = 30000")
        if where != ":memory:":
            con.execute("PRAGMA journal_mode = WAL")
            con.execute("PRAGMA synchronous = NORMAL")
        if con.execute("PRAGMA user_version").fetchone()[0] != SCHEMA or not self._has_table(con):
            with _immediate(con):
                if con.execute("PRAGMA user_version").fetchone()[0] != SCHEMA or not self._has_table(con):
                    con.execute("DROP TABLE IF EXISTS sessions")
                    con.execute("DROP TABLE IF EXISTS meta")
                    for statement in _CREATE.split(";"):
                        if statement.strip():
                            con.execute(statement)
                    con.execute(f"PRAGMA user_version = {SCHEMA}")
                    con.execute("INSERT OR REPLACE INTO meta VALUES ('folder', ?)", (str(self.folder.resolve()),))
        con.execute("SELECT count(*) FROM sessions").fetchone()
        return con

    @staticmethod
    def _has_table(con: sqlite3.Connection) -> bool:
        row = con.execute("SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name IN ('sessions', 'meta')")
        return bool(row.fetchone()[0] == 2)

    def _open(self) -> sqlite3.Connection:
        """Connect; a corrupt database is deleted and built anew; an unwritable cache falls back to memory."""
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError:
            return self._connect(":memory:")
        self._only_regular_files()
        for attempt in range(2):
            try:
                return self._connect(str(self.path))
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise
                if attempt:
                    return self._connect(":memory:")
                self._delete_files()
            except sqlite3.DatabaseError:
                if attempt:
                    return self._connect(":memory:")
                self._delete_files()
        return self._connect(":memory:")

    def _only_regular_files(self) -> None:
        """Remove a FIFO, symlink, device or folder found where the database or its journals go (the cache is
        opened only as regular files: sqlite would block on a FIFO or write through a symlink)."""
        for suffix in ("", "-wal", "-shm", "-journal"):
            where = f"{self.path}{suffix}"
            try:
                if stat.S_ISREG(os.lstat(where).st_mode):
                    continue
                if os.path.isdir(where) and not os.path.islink(where):
                    os.rmdir(where)  # an empty one only: a folder is never emptied here
                else:
                    os.unlink(where)
            except OSError:
                continue

    def _delete_files(self) -> None:
        for suffix in ("", "-wal", "-shm", "-journal"):
            try:
                os.unlink(f"{self.path}{suffix}")
            except OSError:
                pass

    def _reset(self) -> None:
        """Throw the database away and start an empty one (it is only a cache)."""
        try:
            self._con.close()
        except sqlite3.Error:
            pass
        self._delete_files()
        self._con = self._open()

    def _guard(self, work: Callable[[], Any]) -> Any:
        """Run work on the database; a corrupt database is rebuilt and the work run again; a database that
        cannot be written (read-only, disk full) is left alone for one in memory, for this process only."""
        with self._lock:
            try:
                return work()
            except sqlite3.OperationalError as exc:
                if "locked" in str(exc) or "busy" in str(exc):
                    raise
                self._to_memory(full="full" in str(exc))
                return work()
            except sqlite3.DatabaseError:
                self._reset()
                return work()

    def _to_memory(self, *, full: bool = False) -> None:
        """Go on with an empty database in memory (the next refresh reads every file). The one left is
        checkpointed and closed; on a full disk its files are removed too (a WAL file left behind would go on
        holding the space; the index is only a cache, rebuilt once there is room)."""
        try:
            self._con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        except sqlite3.Error:
            pass
        try:
            self._con.close()
        except sqlite3.Error:
            pass
        if full:
            self._delete_files()
        self._con = self._connect(":memory:")
        self._moves += 1

    def close(self) -> None:
        """Close the database."""
        with self._lock:
            self._con.close()

    def __enter__(self) -> Index:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- reading --------------------------------------------------------------------------
    def keys(self) -> dict[str, tuple[Key, bool]]:
        """Each indexed file name with its key and whether it must be read again (racy)."""
        def work() -> dict[str, tuple[Key, bool]]:
            rows = self._con.execute("SELECT name, size, mtime_ns, ino, racy FROM sessions").fetchall()
            found: dict[str, tuple[Key, bool]] = {}
            for r in rows:  # a row of a tampered database counts as changed: its file is read again
                ok = all(isinstance(v, int) and not isinstance(v, bool) for v in r[1:])
                found[_name(r[0])] = (Key(r[1], r[2], r[3]) if ok else Key(-1, -1, -1), bool(r[4]) if ok else True)
            return found

        found: dict[str, tuple[Key, bool]] = self._guard(work)
        bad = [n for n in found if not is_session_name(n)]  # never a session of the folder: forgotten now
        self._drop([_db_name(n) if isinstance(n, str) else n for n in bad])
        return {n: k for n, k in found.items() if n not in bad}

    def summaries(self, *, game: str | None = None, since: date | str | None = None,
                  complete: bool | None = None, newest_first: bool = True, limit: int | None = None) -> list[Summary]:
        """The indexed sessions (no TOML read), newest first (by `started`, else the file's date); `limit` first."""
        return list(self.iter_summaries(game=game, since=since, complete=complete, newest_first=newest_first,
                                        limit=limit))

    def iter_summaries(self, *, game: str | None = None, since: date | str | None = None,
                       complete: bool | None = None, newest_first: bool = False,
                       limit: int | None = None) -> Iterator[Summary]:
        """The indexed sessions one at a time, oldest first unless asked (for statistics over big folders)."""
        where: list[str] = []
        args: list[Any] = []
        if game is not None:
            where.append("game = ?")
            args.append(game)
        if since is not None:
            where.append("sort_when >= ?")
            args.append(since.isoformat() if isinstance(since, date) else str(since))
        if complete is not None:
            where.append("complete = ? AND error = ''")
            args.append(int(complete))
        sql = f"SELECT {', '.join(_COLUMNS)} FROM sessions"
        if where:
            sql += " WHERE " + " AND ".join(where)
        order = "DESC" if newest_first else "ASC"
        sql += f" ORDER BY sort_when {order}, name {order}"
        if limit is not None:
            sql += f" LIMIT {int(limit)}"

        def work() -> list[tuple[Any, ...]]:
            return self._con.execute(sql, args).fetchall()

        bad: list[Any] = []
        for row in self._guard(work):
            summary = self._trusted(row)
            if summary is None:
                bad.append(row[0])
            else:
                yield summary
        self._drop(bad)

    def _trusted(self, row: tuple[Any, ...]) -> Summary | None:
        """The summary of a row, or None for a row the index did not write (bad types, bad JSON, a name that is
        not a session file of the folder: `..`, a path, a hidden file)."""
        try:
            summary = Summary(self.folder, row)
            summary.check()
        except (ValueError, TypeError, KeyError, AttributeError, RecursionError):
            return None
        return summary

    def _drop(self, names: list[Any]) -> None:
        """Forget untrusted rows (as stored): the next refresh reads their files again, if they are sessions."""
        if not names:
            return

        def work(con: sqlite3.Connection) -> None:
            con.executemany("DELETE FROM sessions WHERE name IS ?", [(n,) for n in names])

        try:
            self._transaction(work)
        except sqlite3.Error:  # busy: dropped on a later look
            pass

    def get(self, name: str) -> Summary | None:
        """The indexed summary of one file name, or None."""
        def work() -> tuple[Any, ...] | None:
            row: tuple[Any, ...] | None = self._con.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM sessions WHERE name = ?", (_db_name(name),)).fetchone()
            return row

        row = self._guard(work)
        if not row:
            return None
        summary = self._trusted(row)
        if summary is None:
            self._drop([row[0]])
        return summary

    # -- refreshing -----------------------------------------------------------------------
    def refresh(self, progress: Progress | None = None, *, names: Iterable[str] | None = None,
                workers: int | None = 1, stop: Callable[[], bool] | None = None) -> Changes:
        """Bring the index up to date with the folder: read only files added or changed, drop removed ones.

        `names` limits the look to those file names (e.g. the file just saved). `progress(done, total)` is
        called while files are read. `workers`: processes reading files (default 1: this one; None: as
        $SCOREKEEPER_WORKERS says, else one per core when there are PARALLEL files or more to read). `stop()`
        is asked between chunks of files: True ends the refresh early (what was read is kept; the next look
        goes on). Safe to run in a worker thread and in several processes at once.
        """
        moves = self._moves
        changes = self._refresh(progress, names, workers, stop)
        if self._moves != moves:  # the database moved to memory meanwhile: fill it with the rest of the folder
            self._refresh(progress, names, workers, stop)
        return changes

    def _refresh(self, progress: Progress | None, names: Iterable[str] | None, workers: int | None,
                 stop: Callable[[], bool] | None) -> Changes:
        on_disk = scan(self.folder)
        known = self.keys()
        if names is not None:
            wanted = set(names)
            on_disk = {n: k for n, k in on_disk.items() if n in wanted}
            known = {n: k for n, k in known.items() if n in wanted}
        changes = Changes()
        todo: list[str] = []
        for name, key in on_disk.items():
            old = known.get(name)
            if old is None:
                changes.added.append(name)
                todo.append(name)
            elif old[0] != key or old[1]:
                todo.append(name)
                if old[0] != key:
                    changes.changed.append(name)
        changes.removed = [n for n in known if n not in on_disk]
        total = len(todo)
        if progress and total:
            progress(0, total)
        if workers is None:
            env = os.environ.get("SCOREKEEPER_WORKERS", "")
            workers = int(env) if env.isdigit() else min(os.cpu_count() or 1, 8)
            workers = workers if total >= PARALLEL else 1
        batch: list[tuple[Any, ...]] = []
        done = 0
        last = time.monotonic()
        for rows, gone in self._read(sorted(todo), workers, stop):
            for name in gone:
                if name in known and name not in changes.removed:
                    changes.removed.append(name)
            batch.extend(rows)
            done += len(rows) + len(gone)
            if len(batch) >= BATCH:
                self._write(batch)
                batch = []
            if progress and (done == total or time.monotonic() - last > 0.1):
                last = time.monotonic()
                progress(done, total)
        if batch:
            self._write(batch)
        if progress and total and done != total:
            progress(total, total)
        if changes.removed:
            self._remove(changes.removed)
        return changes

    def _read(self, names: list[str], workers: int,
              stop: Callable[[], bool] | None) -> Iterator[tuple[list[tuple[Any, ...]], list[str]]]:
        """Summaries of the named files, a chunk at a time: (rows, names of files gone)."""
        chunks = [names[i:i + CHUNK] for i in range(0, len(names), CHUNK)]
        if workers > 1 and len(chunks) > 1:
            yield from read_in_workers(str(self.folder), chunks, workers, stop)
            return
        for chunk in chunks:
            if stop and stop():
                return
            yield read_chunk(str(self.folder), chunk)

    def _write(self, rows: list[tuple[Any, ...]]) -> None:
        """Store rows whose file on disk is still the version read (another process may have saved since)."""
        def work(con: sqlite3.Connection) -> None:
            keep = []
            for row in rows:
                try:
                    st = os.stat(self.folder / row[0])
                except OSError:
                    continue
                if _key(st) == (row[1], row[2], row[3]):
                    keep.append((_db_name(row[0]), *row[1:]))
            con.executemany(_INSERT, keep)

        self._transaction(work)

    def _remove(self, names: list[str]) -> None:
        """Forget files that are gone (one still on disk stays: it came back meanwhile; a link out of the folder
        is gone)."""
        def here(name: str) -> bool:
            path = self.folder / name
            return path.exists() and not (path.is_symlink() and leads_out(os.path.realpath(self.folder), str(path)))

        def work(con: sqlite3.Connection) -> None:
            con.executemany("DELETE FROM sessions WHERE name = ?", [(_db_name(n),) for n in names if not here(n)])

        self._transaction(work)

    def _transaction(self, work: Callable[[sqlite3.Connection], None]) -> None:
        """Run work in one write transaction (taken at once: a check made in it still holds at the commit)."""
        def run() -> None:
            with _immediate(self._con) as con:
                work(con)

        self._guard(run)

    def forget(self) -> None:
        """Empty the index (the files are untouched); the next refresh reads every file."""
        def work() -> None:
            self._con.execute("DELETE FROM sessions")

        self._guard(work)


def open_index(folder: Path | str, progress: Progress | None = None) -> tuple[Index, Changes]:
    """An index of the folder, refreshed."""
    index = Index(folder)
    return index, index.refresh(progress)
