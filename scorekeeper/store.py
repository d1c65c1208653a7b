"""Session files: TOML in and out, validation with located problems, atomic saves, folders."""

from __future__ import annotations

import functools
import os
import re
import tomllib
import unicodedata
from datetime import date, datetime, time
from pathlib import Path
from typing import Any

import tomli_w

from scorekeeper.fields import check_entry, suggest, type_name, unknown_key
from scorekeeper.record import record as dataclass
from scorekeeper.session import FORMAT, Problem, Round, Session, SessionError, location, quote

TOP_KEYS = ("format", "game", "title", "started", "players", "notes", "rules", "rounds")
MAX_NAME = 40


# -- names ------------------------------------------------------------------------------
def name_problem(name: Any) -> str | None:
    """None when name is a valid player name, else what is wrong and what is allowed."""
    if not isinstance(name, str):
        return f"{type_name(name)} is not a name; a name is text"
    if not name.strip():
        return "a name cannot be empty"
    if name != name.strip():
        return f"{name!r} has spaces at an end; write it trimmed: {name.strip()!r}"
    if len(name) > MAX_NAME:
        return f"{name[:20]!r}… is {len(name)} characters long; a name has at most {MAX_NAME}"
    if any(unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp") for ch in name):
        return f"{name!r} has a control character; a name is plain text"
    return None


def players_problems(players: Any, game: Any = None) -> list[Problem]:
    """Every problem with the `players` list (names, uniqueness ignoring case, how many)."""
    if not isinstance(players, list):
        return [Problem(f"{type_name(players)} is not allowed here; expected a list of 2 to 5 names "
                        "in seating order, like [\"Ana\", \"Bo\"]", path="players")]
    problems: list[Problem] = []
    seen: dict[str, str] = {}
    for i, name in enumerate(players, start=1):
        msg = name_problem(name)
        if msg:
            problems.append(Problem(msg, path=f"players[{i}]"))
            continue
        key = name.casefold()
        if key in seen:
            problems.append(Problem(f"{name!r} is listed twice (names are unique ignoring case: "
                                    f"{seen[key]!r} is already a player)", path=f"players[{i}]"))
        seen[key] = name
    lo, hi = (game.min_players, game.max_players) if game else (2, 5)
    if not lo <= len(players) <= hi:
        what = game.name if game else "a game"
        problems.append(Problem(f"{len(players)} players listed; {what} takes {lo} to {hi}", path="players"))
    return problems


# -- reading ----------------------------------------------------------------------------
def parse(text: str) -> tuple[Session | None, list[Problem]]:
    """A session from TOML text, with every problem found (lines attached where known)."""
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        msg = str(exc)
        m = re.search(r"\(at line (\d+), column (\d+)\)", msg)
        line = int(m.group(1)) if m else None
        return None, [Problem(f"not valid TOML: {msg}", line=line)]
    session, problems = from_dict(raw)
    lines = LineIndex(text)
    located = [lines.attach(p) for p in problems]
    return session, sorted(located, key=lambda p: p.line or 0)


def from_dict(raw: dict[str, Any]) -> tuple[Session | None, list[Problem]]:
    """A session from parsed TOML, with every problem; None when it cannot be built.

    The checks across fields and players run even when a field has an error: on the session without the fields
    in error, for the errors they can still find (at a player's field; a round-wide error only before the first
    round with an error, since it may come from the points left out).
    """
    from scorekeeper.games import GAMES, check

    problems: list[Problem] = []
    fmt = raw.get("format")
    if "format" not in raw:
        problems.append(Problem(f"the file has no format; add format = {FORMAT} at the top", path="format"))
    elif isinstance(fmt, bool) or not isinstance(fmt, int):
        problems.append(Problem(f"{type_name(fmt)} is not a format; expected format = {FORMAT}", path="format"))
    elif fmt > FORMAT:
        return None, [Problem(f"format {fmt} is newer than this scorekeeper knows (format {FORMAT}); "
                              "update scorekeeper to open it — the file is left as it is", path="format")]
    elif fmt < 1:
        problems.append(Problem(f"format {fmt} does not exist; expected format = {FORMAT}", path="format"))

    for key in raw:
        if key not in TOP_KEYS:
            problems.append(Problem(unknown_key(key, TOP_KEYS), path=key))

    game = None
    game_id = raw.get("game")
    if "game" not in raw:
        problems.append(Problem(f"the file has no game; expected one of {', '.join(GAMES)}", path="game"))
    elif not isinstance(game_id, str) or game_id not in GAMES:
        hint = suggest(game_id, list(GAMES)) if isinstance(game_id, str) else ""
        shown = repr(game_id) if isinstance(game_id, str) else type_name(game_id)
        problems.append(Problem(f"unknown game {shown}{hint}; expected one of {', '.join(GAMES)}", path="game"))
    else:
        game = GAMES[game_id]

    for key in ("title", "notes"):
        if key in raw and not isinstance(raw[key], str):
            problems.append(Problem(f"{type_name(raw[key])} is not allowed here; expected text", path=key))
    started = raw.get("started")
    if "started" in raw and (not isinstance(started, (date, datetime)) or isinstance(started, time)):
        problems.append(Problem(f"{type_name(started)} is not allowed here; expected a TOML date or date-time "
                                "like 2026-11-27T19:30:00", path="started"))

    players = raw.get("players")
    if "players" not in raw:
        problems.append(Problem("the file has no players; expected players = [\"Ana\", \"Bo\"] "
                                "(2 to 5 names in seating order)", path="players"))
    else:
        problems.extend(players_problems(players, game))
    names_ok = isinstance(players, list) and all(isinstance(p, str) for p in players)

    rules = raw.get("rules", {})
    if not isinstance(rules, dict):
        problems.append(Problem(f"{type_name(rules)} is not allowed here; expected a [rules] table", path="rules"))
        rules = {}
    elif game:
        problems.extend(game.check_rules(rules))

    rounds_raw = raw.get("rounds", [])
    rounds: list[Round] = []
    if not isinstance(rounds_raw, list):
        problems.append(Problem(f"{type_name(rounds_raw)} is not allowed here; expected [[rounds]] tables",
                                path="rounds"))
        rounds_raw = []
    for number, rnd in enumerate(rounds_raw, start=1):
        base = f"rounds[{number}]"
        if not isinstance(rnd, dict):
            problems.append(Problem(f"{type_name(rnd)} is not allowed here; expected a [[rounds]] table",
                                    path=base, round=number))
            rounds.append(Round())
            continue
        for key in rnd:
            if key != "players":
                problems.append(Problem(unknown_key(key, ["players"]), path=f"{base}.{key}", round=number))
        entries = rnd.get("players", {})
        if not isinstance(entries, dict):
            problems.append(Problem(f"{type_name(entries)} is not allowed here; expected a table per player "
                                    f"([rounds.players.NAME])", path=f"{base}.players", round=number))
            entries = {}
        for name, entry in entries.items():
            at = location(number, name)
            if names_ok and isinstance(players, list) and name not in players:
                problems.append(Problem(f"{name!r} is not one of the players ({', '.join(players)})"
                                        f"{suggest(name, players)}", path=at, round=number, player=name))
                continue
            if game:
                problems.extend(check_entry(game.fields_for(rules), entry, at, number, name))
        rounds.append(Round(players=dict(entries)))

    if (game is None or not names_ok or not isinstance(players, list)
            or any(p.is_error and p.path.startswith("players") for p in problems)):
        return None, problems
    broken = any(p.is_error for p in problems)
    if broken:
        rules, rounds = _without_errors(rules, rounds, problems)
    session = Session(
        game=game.id, players=tuple(players), title=raw.get("title"), started=started,
        notes=raw.get("notes"), rules=dict(rules), rounds=tuple(rounds), format=int(fmt or FORMAT),
    )
    found = check(session)
    if broken:
        first = min((p.round for p in problems if p.is_error and p.round is not None), default=len(rounds) + 1)
        found = [p for p in found if p.is_error and (p.player is not None or (p.round or 0) < first)]
    problems.extend(found)
    return (None if any(p.is_error for p in problems) else session), problems


def _without_errors(rules: dict[str, Any], rounds: list[Round], problems: list[Problem]
                    ) -> tuple[dict[str, Any], list[Round]]:
    """The rules and rounds less every rule, player table and field with an error (for the checks across them)."""
    bad_rules = {p.path.split(".", 1)[1].split(".")[0] for p in problems if p.is_error and p.path.startswith("rules.")}
    bad = {(p.round, p.player, p.field) for p in problems if p.is_error and p.player is not None}
    kept = []
    for number, rnd in enumerate(rounds, start=1):
        entries = {name: {k: v for k, v in entry.items() if (number, name, k) not in bad}
                   for name, entry in rnd.players.items()
                   if isinstance(entry, dict) and (number, name, None) not in bad}
        kept.append(Round(players=entries))
    return {k: v for k, v in rules.items() if k not in bad_rules}, kept


def read_text(path: Path) -> str:
    """A file's text; SessionError when it cannot be read or is not UTF-8."""
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise SessionError([Problem(f"cannot read the file: {exc.strerror or exc}")], str(path)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise SessionError([Problem(f"the file is not UTF-8 text (byte {exc.start})")], str(path)) from None


def load(path: Path | str) -> tuple[Session, list[Problem]]:
    """A valid session and its warnings; SessionError with every problem when it has errors."""
    path = Path(path)
    session, problems = parse(read_text(path))
    if session is None:
        raise SessionError(problems, str(path))
    return session, problems


# -- writing ----------------------------------------------------------------------------
def to_dict(session: Session) -> dict[str, Any]:
    """The TOML document of a session, keys in the contract's order."""
    doc: dict[str, Any] = {"format": session.format, "game": session.game}
    if session.title is not None:
        doc["title"] = session.title
    if session.started is not None:
        doc["started"] = session.started
    doc["players"] = list(session.players)
    if session.notes is not None:
        doc["notes"] = session.notes
    if session.rules:
        doc["rules"] = session.rules
    if session.rounds:
        doc["rounds"] = [{"players": r.players} if r.players else {} for r in session.rounds]
    return doc


def dumps(session: Session) -> str:
    """A session as TOML text, laid out for people: one `[[rounds]]` table per round and one
    `[rounds.players.NAME]` table per player, small tables inline (`attractions = { 1 = 1, 8 = 5 }`).

    Every key and value is written by tomli-w; only the layout is chosen here.
    """
    doc = to_dict(session)
    rounds = doc.pop("rounds", [])
    rules = doc.pop("rules", None)
    out = ["".join(_line(k, v) for k, v in doc.items())]
    if rules:
        out.append("\n[rules]\n" + "".join(_line(k, v) for k, v in rules.items()))
    for rnd in rounds:
        out.append("\n[[rounds]]\n")
        for name, entry in rnd.get("players", {}).items():
            out.append(f"\n[rounds.players.{_key(name)}]\n" + "".join(_line(k, v) for k, v in entry.items()))
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def _key(key: str) -> str:
    """A TOML key as tomli-w writes it (bare when it can be, else quoted)."""
    return tomli_w.dumps({key: 0}).rsplit(" = ", 1)[0]


def _inline(value: Any) -> str:
    """A value on one line: tables as inline tables, everything else as tomli-w writes it."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if type(value) is int or type(value) is bool:  # as tomli-w writes them, without its cost per value
        return str(value).lower() if type(value) is bool else str(value)
    return tomli_w.dumps({"v": value}, multiline_strings=False)[4:].rstrip("\n")


def _line(key: str, value: Any) -> str:
    """`key = value` on one line; a list of tables, or a long list, one item a line."""
    line = f"{_key(key)} = {_inline(value)}\n"
    if isinstance(value, list) and value and (all(isinstance(v, dict) for v in value) or len(line) > 80):
        body = "".join(f"    {_inline(v)},\n" for v in value)
        return f"{_key(key)} = [\n{body}]\n"
    return line


def write_atomic(path: Path, text: str) -> None:
    """Write text to path atomically: a temporary file in the same folder, fsync, rename."""
    import tempfile  # imported here: reading and scoring never write

    path = Path(path)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(text.encode("utf-8"))
            fh.flush()
            os.fsync(fh.fileno())
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    try:
        dir_fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(dir_fd)
    except OSError:
        pass
    finally:
        os.close(dir_fd)


def save(path: Path | str, session: Session) -> str:
    """Save a session atomically; returns the fingerprint of what was written."""
    text = dumps(session)
    write_atomic(Path(path), text)
    return digest(text.encode("utf-8"))


def digest(data: bytes) -> str:
    """A fingerprint of a file's bytes."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def fingerprint(path: Path | str) -> str | None:
    """The fingerprint of the file as it is on disk now (None when it is gone)."""
    try:
        return digest(Path(path).read_bytes())
    except OSError:
        return None


# -- folders ----------------------------------------------------------------------------
def sessions_dir(given: str | os.PathLike[str] | None = None) -> Path:
    """The sessions folder: --dir, else $SCOREKEEPER_HOME, else the user data folder's sessions/."""
    if given:
        return Path(given).expanduser()
    env = os.environ.get("SCOREKEEPER_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("scorekeeper", appauthor=False)) / "sessions"


def slug(text: str) -> str:
    """A file-name-safe slug: `Friday at Mia's` -> `friday-at-mia-s`."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def new_path(folder: Path, session: Session, when: datetime) -> Path:
    """A new, unused file name for a session: `2026-11-27-1930-ticket-booth-friday.toml`."""
    stem = f"{when:%Y-%m-%d-%H%M}-{session.game}"
    if session.title and slug(session.title):
        stem += f"-{slug(session.title)}"
    path = folder / f"{stem}.toml"
    n = 2
    while path.exists():
        path = folder / f"{stem}-{n}.toml"
        n += 1
    return path


def session_files(folder: Path) -> list[Path]:
    """The session files of a folder (not its trash), newest first."""
    if not folder.is_dir():
        return []
    files = [p for p in folder.glob("*.toml") if p.is_file() and not p.name.startswith(".")]

    def mtime(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(files, key=lambda p: (mtime(p), p.name), reverse=True)


def to_trash(path: Path) -> Path:
    """Move a session file into the `trash/` folder beside it; returns where it went."""
    trash = path.parent / "trash"
    trash.mkdir(exist_ok=True)
    target = trash / path.name
    n = 2
    while target.exists():
        target = trash / f"{path.stem}-{n}{path.suffix}"
        n += 1
    os.replace(path, target)
    return target


def from_trash(path: Path, target: Path | None = None) -> Path:
    """Move a file out of `trash/` back into the sessions folder (under a free name); returns where it went."""
    target = target or path.parent.parent / path.name
    n = 2
    free = target
    while free.exists():
        free = target.with_name(f"{target.stem}-{n}{target.suffix}")
        n += 1
    os.replace(path, free)
    return free


# -- lines ------------------------------------------------------------------------------
_KEY = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = re.compile(rf"\s*({_KEY}(?:\s*\.\s*{_KEY})*)")
_PART = re.compile(_KEY)


def _parts(dotted: str) -> list[str]:
    out = []
    for m in _PART.finditer(dotted):
        part = m.group(0)
        if part[0] in "\"'":
            part = part[1:-1]
            if m.group(0)[0] == '"':
                part = part.encode().decode("unicode_escape") if "\\" in part else part
        out.append(part)
    return out


def _canon(path: str) -> str:
    return path.replace('"', "")


@dataclass
class LineIndex:
    """Where each table and key of a TOML text stands, to put line numbers on problems."""

    text: str

    def __post_init__(self) -> None:
        self.lines: dict[str, int] = {}
        prefix: list[str] = []
        rounds = 0
        for number, line in enumerate(self.text.splitlines(), start=1):
            stripped = line.strip()
            if stripped.startswith("[["):
                parts = _parts(stripped[2:].split("]]")[0])
                if parts == ["rounds"]:
                    rounds += 1
                    prefix = [f"rounds[{rounds}]"]
                    self.lines.setdefault(_canon(prefix[0]), number)
                else:
                    prefix = parts
                continue
            if stripped.startswith("["):
                parts = _parts(stripped[1:].rsplit("]", 1)[0])
                if parts[:1] == ["rounds"] and rounds:
                    parts = [f"rounds[{rounds}]", *parts[1:]]
                prefix = parts
                self.lines.setdefault(_canon(".".join(prefix)), number)
                continue
            m = _DOTTED.match(line)
            if m and line[m.end():].lstrip().startswith("="):
                key = ".".join([*prefix, *_parts(m.group(1))])
                self.lines.setdefault(_canon(key), number)

    def find(self, path: str) -> int | None:
        """The line of a path, or of the nearest enclosing key or table that has one."""
        key = _canon(path)
        while key:
            if key in self.lines:
                return self.lines[key]
            cut = max(key.rfind("."), key.rfind("["))
            if cut <= 0:
                break
            key = key[:cut]
        return None

    def attach(self, problem: Problem) -> Problem:
        """The problem with its line filled in where it can be found."""
        if problem.line is not None or not problem.path:
            return problem
        line = self.find(problem.path)
        if line is None:
            return problem
        from scorekeeper.record import replace

        return replace(problem, line=line)


__all__ = ["parse", "load", "save", "dumps", "sessions_dir", "quote"]
