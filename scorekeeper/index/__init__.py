"""A derived SQLite index of a sessions folder: one summary per session file, rebuilt from the files at will.

The TOML files stay the only truth. The index lives in the user cache folder (one database per sessions
folder, named after its resolved path), keys each file by name, size, modification time and inode, and
notices files changed, added or removed on the next `refresh()`. A missing, corrupt or older-format
database is rebuilt without a word; deleting it loses nothing. Several processes may refresh and read it at
once (WAL, a busy timeout, short transactions, and a row is written only while the file on disk still
matches what was read). Reading the folder's files into rows is `scorekeeper.index.indexing`; the summary of one
file, `scorekeeper.index.summary`.

    index = Index(folder)
    index.refresh(progress=lambda done, total: ...)   # reads only what changed
    for s in index.summaries():                        # cheap: from the database, no TOML read
        print(s.file, s.state, s.totals)
"""

from __future__ import annotations

import os
import sqlite3
import stat
import threading
import time
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from datetime import date
from pathlib import Path
from typing import Any

from scorekeeper.index import indexing
from scorekeeper.index.summary import COLUMNS, Changes, Key, Summary, _db_name, _key, _name, is_session_name
from scorekeeper.store.paths import leads_out

SCHEMA = 6
"""The index's format; a database of another format is rebuilt (4: a finished session's state has the winner's
score, `finished — Ana won 77–70`; 5: the start player, the board and its figures; 6: a round is over once every
player has filled every step of it)."""

BATCH = 400
"""Rows written per transaction while refreshing (short transactions let other processes in)."""

Progress = Callable[[int, int], None]
"""progress(done, total): called while changed files are read."""

_COLUMNS = COLUMNS

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

        def work() -> list[sqlite3.Row]:
            cursor = self._con.cursor()
            cursor.row_factory = sqlite3.Row
            return cursor.execute(sql, args).fetchall()

        bad: list[Any] = []
        for row in self._guard(work):
            summary = self._trusted(row)
            if summary is None:
                bad.append(row[0])
            else:
                yield summary
        self._drop(bad)

    def _trusted(self, row: sqlite3.Row) -> Summary | None:
        """The summary of a row, or None for a row the index did not write (bad types, bad JSON, a name that is
        not a session file of the folder: `..`, a path, a hidden file)."""
        try:
            summary = Summary.of(self.folder, row)
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
        def work() -> sqlite3.Row | None:
            cursor = self._con.cursor()
            cursor.row_factory = sqlite3.Row
            row: sqlite3.Row | None = cursor.execute(
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
        $SCOREKEEPER_WORKERS says, else one per core when there are `indexing.PARALLEL` files or more to read). `stop()`
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
        on_disk = indexing.session_keys(self.folder)
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
            workers = indexing.workers_for(total)
        batch: list[tuple[Any, ...]] = []
        done = 0
        last = time.monotonic()
        for rows, gone in indexing.read_chunks(str(self.folder), sorted(todo), workers, stop):
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
