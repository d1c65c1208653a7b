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

import json
import os
import sqlite3
import stat
import sys
import threading
import time
import tomllib
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple

from scorekeeper.first_screen import stem

SCHEMA = 2
"""The index's format; a database of another format is rebuilt."""

UNREADABLE = "cannot be read"
"""The state of a file that is not UTF-8, not TOML, or past the limits."""

INVALID = "has problems"
"""The state of a file read as TOML that the core refuses (its first problem is the summary's `error`)."""

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


def _points(value: int | float) -> Fraction:
    """Points read back from the index (ints, or floats that are exact halves)."""
    return Fraction(value)


class Result(NamedTuple):
    """One player's result in one session, as the statistics need it."""

    name: str
    total: Fraction
    place: int
    winner: bool
    rounds: tuple[Fraction, ...]
    """Points per round, in play order (running totals are their sums)."""
    categories: dict[str, Fraction]
    """Points per item category over the whole session (`attraction:8`, `outhouse`, `routes`, `ticket`…)."""
    tickets_completed: int
    tickets_failed: int
    longest_path: bool
    """Received the Longest (Continuous) Path bonus."""


class Summary:
    """What the index keeps about one session file: enough for the home screen, history and statistics.

    `error` is "" for a valid session; for a file that cannot be scored it holds the first problem, and
    `game`, `title` and `players` hold what could be read (possibly nothing).
    """

    __slots__ = ("folder", "file", "size", "mtime_ns", "game", "title", "started", "when", "players", "state",
                 "complete", "winners", "error", "_detail", "_raw")

    def __init__(self, folder: Path, row: tuple[Any, ...]) -> None:
        self.folder = folder
        self.file: str = row[0]
        self.size: int = row[1]
        self.mtime_ns: int = row[2]
        self.game: str | None = row[5]
        """The game id (None when the file does not say, or says it wrongly)."""
        self.title: str | None = row[6]
        self.started: str | None = row[7]
        """`started` as ISO text, as in the file (None when not given)."""
        self.when: str = row[8]
        """When it was played, ISO text: `started`, else the file's modification time (sorts by date)."""
        self.players: tuple[str, ...] = tuple(json.loads(row[9]))
        self.state: str = row[10]
        """`round 2 of 3 — Bo leads`, `finished — Ana won`; `cannot be read` (not UTF-8, not TOML, too big) or
        `has problems` (read, but the core finds errors: `error` holds the first)."""
        self.complete: bool = bool(row[11])
        self.winners: tuple[str, ...] = tuple(json.loads(row[12]))
        """Everyone on place 1 (the leaders of a game not finished)."""
        self.error: str = row[13]
        self._raw: str = row[14]
        self._detail: dict[str, Any] | None = None

    def __repr__(self) -> str:
        return f"Summary({self.file!r}, {self.game!r}, {self.state!r})"

    @property
    def path(self) -> Path:
        """The session file."""
        return self.folder / self.file

    @property
    def game_name(self) -> str:
        """The game's name (`The Ticket Booth`), or its id as written when unknown, or ""."""
        from scorekeeper.games import NAMES

        return NAMES.get(self.game or "", self.game or "")

    @property
    def valid(self) -> bool:
        """Whether the file is a valid session (it has a score)."""
        return not self.error

    @property
    def detail(self) -> dict[str, Any]:
        """The stored detail as JSON data (points are ints, or floats for halves): see `results`."""
        if self._detail is None:
            self._detail = json.loads(self._raw)
        return self._detail

    @property
    def rounds(self) -> int:
        """How many rounds the file holds."""
        return int(self.detail.get("rounds", 0))

    @property
    def tiebreak(self) -> str | None:
        """The sentence settling a tie for first, or None."""
        return self.detail.get("tiebreak")

    @property
    def next(self) -> str | None:
        """What the table must do now, or None when the game is decided."""
        return self.detail.get("next")

    @property
    def warnings(self) -> int:
        """How many warnings the file has."""
        return int(self.detail.get("warnings", 0))

    @property
    def totals(self) -> dict[str, Fraction]:
        """Each player's total points (empty for an invalid file)."""
        return {r["name"]: _points(r["total"]) for r in self.detail.get("players", ())}

    @property
    def results(self) -> list[Result]:
        """Each player's result, in seating order (empty for an invalid file)."""
        return [
            Result(r["name"], _points(r["total"]), r["place"], r["name"] in self.winners,
                   tuple(_points(v) for v in r["rounds"]), {k: _points(v) for k, v in r["categories"].items()},
                   r["tickets"][0], r["tickets"][1], bool(r["longest_path"]))
            for r in self.detail.get("players", ())
        ]

    def date(self) -> date | None:
        """The day the session was played (`started`, else the file's modification day)."""
        try:
            return date.fromisoformat(self.when[:10])
        except ValueError:
            return None

    def search_text(self) -> str:
        """What a filter looks in, casefolded: file name, game id and name, title, players, state, error."""
        from scorekeeper.games import NAMES

        parts = [self.file, self.game or "", NAMES.get(self.game or "", ""), self.title or "", *self.players,
                 self.state, self.error]
        return " ".join(parts).casefold()


@dataclass
class Changes:
    """What a refresh found: file names added, changed and removed since the last look."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


# -- where ----------------------------------------------------------------------------------
def db_path(folder: Path | str) -> Path:
    """The index database of a sessions folder (named after its resolved path)."""
    return stem(folder).with_suffix(".sqlite3")


# -- reading a file -------------------------------------------------------------------------
class Key(NamedTuple):
    """What identifies a version of a file: size, modification time (ns) and inode."""

    size: int
    mtime_ns: int
    ino: int


def _key(st: os.stat_result) -> Key:
    return Key(st.st_size, st.st_mtime_ns, st.st_ino)


def _iso(value: Any) -> str | None:
    if isinstance(value, (date, datetime)):
        return value.isoformat()
    return None


def _json_points(value: int | Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


_list_json = json.JSONEncoder(ensure_ascii=False).encode  # what json.dumps(…, ensure_ascii=False) gives
_detail_json = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def unreadable(error: str) -> dict[str, Any]:
    """The summary columns of a file that cannot be read, and why."""
    return {"game": None, "title": None, "started": None, "players": "[]", "state": UNREADABLE,
            "complete": 0, "winners": "[]", "error": error, "detail": "{}"}


def summarize_text(text: str) -> dict[str, Any]:
    """The summary columns of a session's TOML text (no key columns): valid or not, never raises."""
    from scorekeeper import files, store, validation
    from scorekeeper.session import SessionError

    row = unreadable("")
    refused = len(text) > store.MAX_FILE_BYTES or store.scan(text).problem is not None
    if refused:  # refused before parsing: too big, deep or long
        _session, problems = files.parse(text)
        row["error"] = problems[0].describe() if problems else "invalid session"
        return row
    try:
        raw = tomllib.loads(text)
    except (RecursionError, MemoryError, ValueError):  # TOMLDecodeError is a ValueError
        _session, problems = files.parse(text)
        row["error"] = problems[0].describe() if problems else "not valid TOML"
        return row
    if isinstance(raw.get("game"), str):
        row["game"] = raw["game"]
    if isinstance(raw.get("title"), str):
        row["title"] = raw["title"]
    row["started"] = _iso(raw.get("started"))
    players = raw.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        row["players"] = _list_json(players)
    try:
        row["state"] = INVALID
        session, problems = validation.from_dict(raw, plain=_plain_texts(text))
        if session is None:
            errors = [p for p in problems if p.is_error] or problems
            first = store.LineIndex(text).attach(errors[0]) if errors else None
            row["error"] = first.describe() if first else "invalid session"
            return row
        row.update(summarize_session(session, problems))
    except SessionError as exc:
        row["error"] = exc.problems[0].describe() if exc.problems else str(exc)
    except RecursionError:
        row["state"] = UNREADABLE
        row["error"] = "error: the file nests too deeply"
    return row


def _plain_texts(text: str) -> bool:
    """Whether every text of the TOML text (keys too) is shown to be short and free of control characters:
    no escapes, no multi-line strings, no control character but line breaks, no run of more than MAX_TEXT
    characters on a line between quotes."""
    from scorekeeper.fields import MAX_TEXT
    from scorekeeper.text import has_control

    if "\\" in text or '"""' in text or "'''" in text or has_control(text.replace("\n", "")):
        return False
    for line in text.split("\n"):
        if len(line) > MAX_TEXT:
            if max(map(len, line.split('"'))) > MAX_TEXT:
                return False
            if "'" in line and max(map(len, line.split("'"))) > MAX_TEXT:
                return False
    return True


def summarize_session(session: Any, problems: list[Any]) -> dict[str, Any]:
    """The summary columns of a valid session (scored here)."""
    from scorekeeper import games
    from scorekeeper.walk import state_text  # pure: no Textual behind it

    game = games.get(session.game)
    sheet = games.score(session, problems)
    places = {p: pl.place for pl in sheet.ranking for p in pl.players}
    cats: dict[str, dict[str, int | Fraction]] = {p: {} for p in session.players}
    tickets = {p: [0, 0] for p in session.players}
    longest = {p: False for p in session.players}
    for rnd in sheet.rounds:
        for item in rnd.items:
            c = cats[item.player]
            value = item.points
            points: int | Fraction = value.numerator if value.denominator == 1 else value
            c[item.category] = c.get(item.category, 0) + points
            if item.category == "ticket":
                tickets[item.player][0 if points > 0 else 1] += 1
            elif item.category == "longest-path" and points > 0:
                longest[item.player] = True
    detail = {
        "rounds": len(sheet.rounds),
        "tiebreak": sheet.tiebreak,
        "next": sheet.next,
        "warnings": len(sheet.warnings),
        "players": [
            {"name": p, "total": _json_points(sheet.totals[p]), "place": places[p],
             "rounds": [_json_points(r.points[p]) for r in sheet.rounds],
             "categories": {k: _json_points(v) for k, v in cats[p].items()},
             "tickets": tickets[p], "longest_path": longest[p]}
            for p in session.players
        ],
    }
    return {
        "game": session.game,
        "title": session.title,
        "started": _iso(session.started),
        "players": _list_json(list(session.players)),
        "state": state_text(game, session, sheet),
        "complete": int(sheet.complete),
        "winners": _list_json(sheet.winners),
        "error": "",
        "detail": _detail_json(detail),
    }


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
    """The session files of a folder (`*.toml`, not hidden, not in trash) and their keys."""
    found: dict[str, Key] = {}
    try:
        entries = os.scandir(folder)
    except OSError:
        return found
    with entries:
        for entry in entries:
            name = entry.name
            if not name.endswith(".toml") or name.startswith("."):
                continue
            try:
                if not entry.is_file():
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
                self._to_memory()
                return work()
            except sqlite3.DatabaseError:
                self._reset()
                return work()

    def _to_memory(self) -> None:
        """Go on with an empty database in memory (the next refresh reads every file)."""
        try:
            self._con.close()
        except sqlite3.Error:
            pass
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
            return {r[0]: (Key(r[1], r[2], r[3]), bool(r[4])) for r in rows}

        return dict(self._guard(work))

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

        folder = self.folder
        for row in self._guard(work):
            yield Summary(folder, row)

    def get(self, name: str) -> Summary | None:
        """The indexed summary of one file name, or None."""
        def work() -> tuple[Any, ...] | None:
            row: tuple[Any, ...] | None = self._con.execute(
                f"SELECT {', '.join(_COLUMNS)} FROM sessions WHERE name = ?", (name,)).fetchone()
            return row

        row = self._guard(work)
        return Summary(self.folder, row) if row else None

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
                    keep.append(row)
            con.executemany(_INSERT, keep)

        self._transaction(work)

    def _remove(self, names: list[str]) -> None:
        """Forget files that are gone (one still on disk stays: it came back meanwhile)."""
        def work(con: sqlite3.Connection) -> None:
            con.executemany("DELETE FROM sessions WHERE name = ?",
                            [(n,) for n in names if not (self.folder / n).exists()])

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
