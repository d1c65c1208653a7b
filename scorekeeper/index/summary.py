"""What the index keeps about one session file, computed from its text alone: the pure summary (no database).

`summarize_text` turns a session's TOML text into the summary columns (valid or not, never raising);
`Summary` is one row read back, trusted only once `check` has passed (the index is derived data: a row of a
tampered or damaged database is dropped and its file read again).
"""

from __future__ import annotations

import json
import os
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime
from fractions import Fraction
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from scorekeeper.index.detail import Detail, PlayerDetail

COLUMNS = ("name", "size", "mtime_ns", "ino", "racy", "game", "title", "started", "sort_when", "players",
           "state", "complete", "winners", "error", "detail")
"""The index's columns of a session file, in their order."""



class Row(Protocol):
    """A row of the index read by column name (a `sqlite3.Row`, or a mapping of COLUMNS)."""

    def __getitem__(self, key: str, /) -> Any: ...

UNREADABLE = "cannot be read"
"""The state of a file that is not UTF-8, not TOML, or past the limits."""

INVALID = "has problems"
"""The state of a file read as TOML that the core refuses (its first problem is the summary's `error`)."""


def is_session_name(name: object) -> bool:
    """Whether a name can be a session file of the folder itself: `*.toml`, not hidden, no folder part."""
    return (isinstance(name, str) and name.endswith(".toml") and not name.startswith(".")
            and "/" not in name and "\0" not in name and os.sep not in name and (os.altsep or "/") not in name)


def _db_name(name: str) -> str | bytes:
    """A file name as the database keeps it: text, or its bytes when it is not UTF-8 (sqlite keeps only UTF-8)."""
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:
        return os.fsencode(name)
    return name


def _name(value: Any) -> Any:
    """A file name as read from the database (bytes back to the file system's text); anything else as it is."""
    return os.fsdecode(value) if isinstance(value, bytes) else value


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
    """Points per item category over the whole session (the games' categories)."""
    tickets_completed: int
    tickets_failed: int
    marks: dict[str, bool | int]
    """What the game keeps of the player besides points and tickets (`Game.marks`: a bonus received, the stations
    built…)."""


@dataclass(frozen=True, slots=True, eq=False, repr=False)
class Summary:
    """What the index keeps about one session file: enough for the home screen, history and statistics.

    `error` is "" for a valid session; for a file that cannot be scored it holds the first problem, and
    `game`, `title` and `players` hold what could be read (possibly nothing).
    """

    folder: Path
    file: str
    size: int
    mtime_ns: int
    ino: int
    game: str | None
    """The game id (None when the file does not say, or says it wrongly)."""
    title: str | None
    started: str | None
    """`started` as ISO text, as in the file (None when not given)."""
    when: str
    """When it was played, ISO text: `started`, else the file's modification time (sorts by date)."""
    players: tuple[str, ...]
    state: str
    """`round 2 of 3 — Bo leads`, `finished — Ana won`; `cannot be read` (not UTF-8, not TOML, too big) or
    `has problems` (read, but the core finds errors: `error` holds the first)."""
    complete: bool
    winners: tuple[str, ...]
    """Everyone on place 1 (the leaders of a game not finished)."""
    error: str
    detail: Detail
    """The stored detail, read through `Detail` (points are ints, or floats for halves): see `results`."""

    @classmethod
    def of(cls, folder: Path, row: Row) -> Summary:
        """A row of the index read into a summary (ValueError when its detail is not what the index writes; see
        `check` for the rest)."""
        return cls(folder, _name(row["name"]), row["size"], row["mtime_ns"], row["ino"], row["game"], row["title"],
                   row["started"], row["sort_when"], tuple(json.loads(row["players"])), row["state"],
                   bool(row["complete"]), tuple(json.loads(row["winners"])), row["error"], Detail.read(row["detail"]))

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

    def check(self) -> None:
        """Raise ValueError unless every column has the type and shape the index writes (a row of a tampered
        or damaged database is not trusted: it is dropped and its file read again)."""
        if not is_session_name(self.file):
            raise ValueError("not a session file of the folder")
        texts = (self.game, self.title, self.started)
        if not all(t is None or isinstance(t, str) for t in texts) or not all(
                isinstance(t, str) for t in (self.when, self.state, self.error)):
            raise ValueError("a text column is not text")
        if not all(isinstance(v, int) for v in (self.size, self.mtime_ns, self.ino)):
            raise ValueError("a number column is not a number")
        if not all(isinstance(p, str) for p in (*self.players, *self.winners)):
            raise ValueError("a name is not text")
        if self.detail.board is not None and self.detail.board not in _boards(self.game):
            raise ValueError("board is not a board")

    @property
    def rounds(self) -> int:
        """How many rounds the file holds."""
        return self.detail.rounds

    @property
    def tiebreak(self) -> str | None:
        """The sentence settling a tie for first, or None."""
        return self.detail.tiebreak

    @property
    def next(self) -> str | None:
        """What the table must do now, or None when the game is decided."""
        return self.detail.next

    @property
    def start_player(self) -> str | None:
        """The start player: the first player of round 1 (None for an invalid file)."""
        return self.detail.start

    @property
    def board(self) -> str | None:
        """The board played on (a key of its game's `boards`); None for a game without boards."""
        return self.detail.board

    @property
    def board_name(self) -> str:
        """The board's name (`Game.boards`); "" for a game without boards."""
        return _boards(self.game).get(self.board or "", "")

    @property
    def warnings(self) -> int:
        """How many warnings the file has."""
        return self.detail.warnings

    @property
    def totals(self) -> dict[str, Fraction]:
        """Each player's total points (empty for an invalid file)."""
        return {r.name: _points(r.total) for r in self.detail.players}

    @property
    def results(self) -> list[Result]:
        """Each player's result, in seating order (empty for an invalid file)."""
        return [
            Result(r.name, _points(r.total), r.place, r.name in self.winners, tuple(map(_points, r.rounds)),
                   {k: _points(v) for k, v in r.categories.items()}, r.tickets[0], r.tickets[1], dict(r.marks))
            for r in self.detail.players
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

        parts = [self.file, self.game or "", NAMES.get(self.game or "", ""), self.board_name, self.title or "",
                 *self.players, self.state, self.error]
        return " ".join(parts).casefold()


@dataclass
class Changes:
    """What a refresh found: file names added, changed and removed since the last look."""

    added: list[str] = field(default_factory=list)
    changed: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return bool(self.added or self.changed or self.removed)


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


@dataclass(frozen=True, slots=True)
class Columns:
    """The summary columns of a file (no key columns), as the index stores them: names and details as JSON."""

    game: str | None = None
    title: str | None = None
    started: str | None = None
    players: str = "[]"
    state: str = UNREADABLE
    complete: int = 0
    winners: str = "[]"
    error: str = ""
    detail: str = "{}"


def unreadable(error: str) -> Columns:
    """The summary columns of a file that cannot be read, and why."""
    return Columns(error=error)


def summarize_text(text: str) -> Columns:
    """The summary columns of a session's TOML text (no key columns): valid or not, never raises."""
    from scorekeeper import files
    from scorekeeper.games import validation
    from scorekeeper.model.session import SessionError
    from scorekeeper.store import reading

    row = unreadable("")
    refused = len(text) > reading.MAX_FILE_BYTES or reading.scan(text).problem is not None
    if refused:  # refused before parsing: too big, deep or long
        _session, problems = files.parse(text)
        row = replace(row, error=problems[0].describe() if problems else "invalid session")
        return row
    try:
        raw = tomllib.loads(text)
    except (RecursionError, MemoryError, ValueError):  # TOMLDecodeError is a ValueError
        _session, problems = files.parse(text)
        row = replace(row, error=problems[0].describe() if problems else "not valid TOML")
        return row
    if isinstance(raw.get("game"), str):
        row = replace(row, game=raw["game"])
    if isinstance(raw.get("title"), str):
        row = replace(row, title=raw["title"])
    row = replace(row, started=_iso(raw.get("started")))
    players = raw.get("players")
    if isinstance(players, list) and all(isinstance(p, str) for p in players):
        row = replace(row, players=_list_json(players))
    try:
        row = replace(row, state=INVALID)
        session, problems = validation.from_dict(raw, plain=_plain_texts(text))
        if session is None:
            errors = [p for p in problems if p.is_error] or problems
            first = reading.LineIndex(text).attach(errors[0]) if errors else None
            row = replace(row, error=first.describe() if first else "invalid session")
            return row
        row = summarize_session(session, problems)
    except SessionError as exc:
        row = replace(row, error=exc.problems[0].describe() if exc.problems else str(exc))
    except RecursionError:
        row = replace(row, state=UNREADABLE)
        row = replace(row, error="error: the file nests too deeply")
    return row


def _plain_texts(text: str) -> bool:
    """Whether every text of the TOML text (keys too) is shown to be short and free of control characters:
    no escapes, no multi-line strings, no control character but line breaks, no run of more than MAX_TEXT
    characters on a line between quotes."""
    from scorekeeper.games.fields import MAX_TEXT
    from scorekeeper.model.text import has_control

    if "\\" in text or '"""' in text or "'''" in text or has_control(text.replace("\n", "")):
        return False
    for line in text.split("\n"):
        if len(line) > MAX_TEXT:
            if max(map(len, line.split('"'))) > MAX_TEXT:
                return False
            if "'" in line and max(map(len, line.split("'"))) > MAX_TEXT:
                return False
    return True


def summarize_session(session: Any, problems: list[Any]) -> Columns:
    """The summary columns of a valid session (scored here)."""
    from scorekeeper import games
    from scorekeeper.walk import state_text  # pure: no Textual behind it

    game = games.get(session.game)
    sheet = games.score(session, problems)
    places = {p: pl.place for pl in sheet.ranking for p in pl.players}
    whys = {p: pl.why for pl in sheet.ranking for p in pl.players}
    cats: dict[str, dict[str, int | Fraction]] = {p: {} for p in session.players}
    tickets = {p: [0, 0] for p in session.players}
    for rnd in sheet.rounds:
        for item in rnd.items:
            if not item.points:  # a card that scored nothing, with its reason: nothing to count
                continue
            c = cats[item.player]
            value = item.points
            points: int | Fraction = value.numerator if value.denominator == 1 else value
            c[item.category] = c.get(item.category, 0) + points
            if item.category == "ticket":
                tickets[item.player][0 if points > 0 else 1] += 1
    marks = game.marks(session, sheet)
    detail = Detail(len(sheet.rounds), sheet.tiebreak, sheet.next, len(sheet.warnings), _start(session, sheet),
                    game.board_key(session.rules), tuple(
                        PlayerDetail(p, _json_points(sheet.totals[p]), places[p], whys[p],
                                     tuple(_json_points(r.points[p]) for r in sheet.rounds),
                                     {k: _json_points(v) for k, v in cats[p].items()}, (tickets[p][0], tickets[p][1]),
                                     marks[p])
                        for p in session.players))
    return Columns(session.game, session.title, _iso(session.started), _list_json(list(session.players)),
                   state_text(game, session, sheet), int(sheet.complete), _list_json(sheet.winners), "", detail.json())


def _start(session: Any, sheet: Any) -> str:
    """The start player: the first player of round 1 as the score sheet says (the first seated, else)."""
    first = sheet.rounds[0].first_player if sheet.rounds else None
    return str(first if first in session.players else session.players[0])


def _boards(game: str | None) -> Mapping[str, str]:
    """The boards of a game (by its id), key -> name; none for a game without boards or an unknown one."""
    from scorekeeper.games import GAMES

    known = GAMES.get(game or "")
    return known.boards if known is not None else {}
