"""Session files read: bytes and text within limits, TOML parsed behind one linear guard, problems on their lines.

No game rules (the validation applies them) and nothing written (the store writes).
"""

from __future__ import annotations

import os
import re
import stat
import tomllib
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from scorekeeper.model.session import Problem, SessionError

if TYPE_CHECKING:  # pathlib is imported where a path is made: reading a file needs none (~3 ms of start-up)
    from pathlib import Path

MAX_FILE_BYTES = 131_072
"""A session file is at most 128 KiB (a long evening is a few kB)."""
MAX_DEPTH = 16
"""Arrays and tables nest at most 16 deep (a session needs 4)."""
MAX_KEY_PARTS = 16
"""A dotted key or table header has at most 16 parts."""
MAX_DIGITS = 32
"""A number is written with at most 32 digits."""
MAX_STRING = 20_000
"""A text in the file is at most 20,000 characters (notes are at most 10,000: fields.MAX_NOTES)."""
MAX_PROBLEMS = 200
"""At most this many problems are listed for one file (then how many more there are)."""


# -- the guard before parsing ---------------------------------------------------------------
@dataclass
class Scan:
    """What the guard found in a TOML text before it is parsed."""

    problem: Problem | None = None
    comments: bool = False
    in_strings: set[int] = field(default_factory=set)


_LEXEME = re.compile(r'''"""(?:[^"\\]+|\\[\s\S]?|"(?!""))*+(?:"{3,5}|\Z)|''\'[\s\S]*?(?:'{3,5}|\Z)'''
                     r'''|"(?:[^"\\\n]+|\\.)*+"?|'[^'\n]*'?|\#[^\n]*''')
"""A string (multi-line, basic or literal) or a comment: what the guard measures, or sets aside, first."""
_LONG_NUMBER = re.compile(rf"[0-9][0-9A-Za-z_]{{{MAX_DIGITS},}}")
_LONG_KEY = re.compile(rf"(?:(?<=[\n=,\[\]{{}}])|^)(?:[^\n=,\[\]{{}}.]*\.){{{MAX_KEY_PARTS}}}")
_INNERMOST = re.compile(r"[\[{][^\[\]{}]*[\]}]")
_BRACKET = re.compile(r"[\[\]{}]")


def scan(text: str) -> Scan:
    """Refuse, with its line, the first thing in a TOML text that would make the parser slow or deep; note
    comments and the lines inside multi-line strings.

    Linear, and the one pass before parsing: one regular expression finds the strings (measured as they are
    found) and the comments; the code left without them is searched for a long number, a long dotted key and
    deep nesting. Of the limits broken, the first in the text is named, at its line.
    """
    out = Scan()
    code: list[str] = []
    first: tuple[int, Problem] | None = None  # the first text too long: where it stands in the code, and why
    pos, line, at = 0, 1, 0  # in the text, its line, and the length of the code so far
    for m in _LEXEME.finditer(text):
        start, end = m.span()
        line += text.count("\n", pos, start)
        code.append(text[pos:start])
        at += start - pos
        lexeme = m.group()
        if lexeme[0] == "#":
            out.comments = True
            code.append(" ")
            at += 1
            pos = end
            continue
        size = len(lexeme) - (3 if lexeme[:3] in ('"""', "'''") else 1)  # without the opening quotes
        if first is None and size > MAX_STRING:
            first = at, Problem(f"a text of {size:,} characters; texts have at most {MAX_STRING:,}", line=line)
        newlines = lexeme.count("\n")
        if newlines:
            out.in_strings.update(range(line + 1, line + newlines + 1))
            line += newlines
        code.append('""' + "\n" * newlines)
        at += 2 + newlines
        pos = end
    code.append(text[pos:])
    bare = "".join(code)
    found = [f for f in (first, _long_number(bare), _long_key(bare), _too_deep(bare)) if f is not None]
    if found:
        out.problem = min(found, key=lambda f: f[0])[1]
    return out


def _line_at(bare: str, at: int) -> int:
    return bare.count("\n", 0, at) + 1


def _long_number(bare: str) -> tuple[int, Problem] | None:
    """The first number of more than MAX_DIGITS digits in TOML code without strings and comments."""
    m = _LONG_NUMBER.search(bare)
    if m is None:
        return None
    return m.start(), Problem(f"a number of {len(m.group()):,} digits; numbers have at most {MAX_DIGITS}",
                              line=_line_at(bare, m.start()))


def _long_key(bare: str) -> tuple[int, Problem] | None:
    """The first dotted key (or table header) of more than MAX_KEY_PARTS parts, at its last part allowed."""
    m = _LONG_KEY.search(bare)
    if m is None:
        return None
    return m.end() - 1, Problem(f"a dotted key of more than {MAX_KEY_PARTS} parts; a session file needs 4",
                                line=_line_at(bare, m.start()))


def _too_deep(bare: str) -> tuple[int, Problem] | None:
    """The first array or table opened deeper than MAX_DEPTH in TOML code without strings and comments.

    A few passes that take out the innermost pairs tell first (in C) whether the code may nest that deep;
    only then are the brackets counted one by one to find where.
    """
    depth = 0
    rest = bare
    while depth <= MAX_DEPTH:
        rest, removed = _INNERMOST.subn("", rest)
        if not removed:
            break
        depth += 1
    if depth + rest.count("[") + rest.count("{") <= MAX_DEPTH:
        return None
    depth = 0
    for m in _BRACKET.finditer(bare):
        if m.group() in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start(), Problem(f"arrays or tables nested more than {MAX_DEPTH} deep; a session file "
                                          "needs 4", line=_line_at(bare, m.start()))
        else:
            depth = max(0, depth - 1)
    return None


# -- reading -------------------------------------------------------------------------------
def has_comments(text: str) -> bool:
    """True when the TOML text holds a `#` comment (outside strings)."""
    return "#" in text and scan(text).comments


@dataclass
class Toml:
    """A TOML text read: its table (None when it could not be read, with why) and where its strings span lines."""

    text: str
    raw: dict[str, Any] | None = None
    problems: list[Problem] = field(default_factory=list)
    in_strings: set[int] = field(default_factory=set)

    def locate(self, problems: list[Problem]) -> list[Problem]:
        """The problems found in the table, at most MAX_PROBLEMS, with their lines, made inert, in line order."""
        from scorekeeper.model.text import has_control, inert

        if len(problems) > MAX_PROBLEMS:
            more = len(problems) - MAX_PROBLEMS
            rest = Problem(f"… and {more:,} more problems", path=problems[MAX_PROBLEMS].path)
            problems = [*problems[:MAX_PROBLEMS], rest]
        if not problems:
            return []
        lines = LineIndex(self.text, self.in_strings)
        located = []
        for p in problems:
            p = lines.attach(p)
            if has_control(p.path) or has_control(p.message):
                p = replace(p, path=inert(p.path), message=inert(p.message))
            located.append(p)
        return sorted(located, key=lambda p: p.line or 0)


def read_toml(text: str) -> Toml:
    """A session file's text as a TOML table, or the problem (with its line) that keeps it from being read."""
    from scorekeeper.model.text import inert

    if len(text) > MAX_FILE_BYTES:
        return Toml(text, problems=[Problem(f"{len(text):,} characters; a session file has at most "
                                            f"{MAX_FILE_BYTES:,} bytes", line=1)])
    found = scan(text)
    if found.problem is not None:
        return Toml(text, problems=[found.problem])
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        return Toml(text, problems=[toml_problem(text, exc)])
    except (RecursionError, MemoryError, ValueError) as exc:  # the scan keeps these out; never a traceback
        return Toml(text, problems=[Problem(f"cannot be read: {inert(exc)}", line=1)])
    return Toml(text, raw, in_strings=found.in_strings)


def toml_problem(text: str, exc: tomllib.TOMLDecodeError) -> Problem:
    """tomllib's error at its line and column (from 1, in characters, as tomllib counts); at the end of the text
    when tomllib says `end of document`."""
    from scorekeeper.model.text import inert

    msg = str(exc)
    line: int | None
    column: int | None
    m = re.search(r"\s*\(at line (\d+), column (\d+)\)$", msg)
    if m:
        line, column = int(m.group(1)), int(m.group(2))
        msg = msg[: m.start()]
    elif msg.endswith("(at end of document)"):
        line = text.count("\n") + 1
        column = len(text) - (text.rfind("\n") + 1) + 1
        msg = msg.removesuffix("(at end of document)").rstrip() + " at the end of the file"
    else:
        line = column = None
    return Problem(f"not valid TOML: {inert(msg)}", line=line, column=column)


def read_bytes(path: Path | str) -> bytes:
    """A session file's bytes: only a regular file of at most MAX_FILE_BYTES is read (never a FIFO or a device)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except OSError as exc:
        raise SessionError([Problem(f"cannot read the file: {exc.strerror or exc}")], _shown(path)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise SessionError([Problem("is a folder, not a session file")], _shown(path))
        if not stat.S_ISREG(st.st_mode):
            raise SessionError([Problem("is not a regular file (a pipe, socket or device); "
                                        "a session file is a plain file")], _shown(path))
        if st.st_size > MAX_FILE_BYTES:
            raise SessionError([Problem(f"the file is {st.st_size:,} bytes; a session file has at most "
                                        f"{MAX_FILE_BYTES:,}", line=1)], _shown(path))
        chunks: list[bytes] = []
        total = 0
        while total <= MAX_FILE_BYTES:
            chunk = os.read(fd, MAX_FILE_BYTES + 1 - total)
            if not chunk:
                break
            chunks.append(chunk)
            total += len(chunk)
        if total > MAX_FILE_BYTES:
            raise SessionError([Problem(f"the file is more than {MAX_FILE_BYTES:,} bytes; a session file has at "
                                        f"most {MAX_FILE_BYTES:,}", line=1)], _shown(path))
        return b"".join(chunks)
    except OSError as exc:
        raise SessionError([Problem(f"cannot read the file: {exc.strerror or exc}")], _shown(path)) from None
    finally:
        os.close(fd)


def _shown(path: Path | str) -> str:
    """A path as the messages name it: as pathlib writes it (`a/b.toml` for `a//b.toml`)."""
    from pathlib import Path

    return str(Path(path))


def decode(data: bytes, file: str = "") -> str:
    """A file's bytes as text; SessionError naming the line when they are not UTF-8."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        start = data.rfind(b"\n", 0, exc.start) + 1
        line = data.count(b"\n", 0, exc.start) + 1
        column = len(data[start:exc.start].decode("utf-8")) + 1
        raise SessionError([Problem(f"the file is not UTF-8 text: the byte 0x{data[exc.start]:02X} is not a "
                                    "character of UTF-8", line=line, column=column)], file) from None


def read_text(path: Path | str) -> str:
    """A file's text; SessionError when it cannot be read, is not a regular file, too big, or not UTF-8."""
    return decode(read_bytes(path), str(path))


# -- lines of problems -----------------------------------------------------------------------
_KEY = r'(?:[A-Za-z0-9_-]+|"(?:[^"\\]|\\.)*"|\'[^\']*\')'
_DOTTED = rf"\s*({_KEY}(?:\s*\.\s*{_KEY})*)"
"""A line's dotted key: the patterns of the lines are compiled when a file has problems to place."""


def _parts(dotted: str) -> list[str]:
    out = []
    for m in re.finditer(_KEY, dotted):
        part = m.group(0)
        if part[0] in "\"'":
            part = part[1:-1]
            if m.group(0)[0] == '"' and "\\" in part:
                try:
                    part = tomllib.loads(f"k = {m.group(0)}")["k"]
                except (tomllib.TOMLDecodeError, ValueError):
                    pass
        out.append(part)
    return out


def _canon(path: str) -> str:
    return path.replace('"', "")


@dataclass
class LineIndex:
    """Where each table and key of a TOML text stands, to put line numbers on problems."""

    text: str
    in_strings: set[int] = field(default_factory=set)

    def __post_init__(self) -> None:
        self.lines: dict[str, int] = {}
        prefix: list[str] = []
        rounds = 0
        dotted = re.compile(_DOTTED).match
        for number, line in enumerate(self.text.split("\n"), start=1):
            if number in self.in_strings:
                continue
            stripped = line.strip()
            if stripped.startswith("[["):
                parts = _parts(stripped[2:].split("]]")[0])
                if parts == ["rounds"]:
                    rounds += 1
                    prefix = [f"rounds[{rounds}]"]
                    self.lines.setdefault(_canon(prefix[0]), number)
                else:  # an array of tables other than the rounds (`[[x]]`): its header's line, for a problem
                    if parts[:1] == ["rounds"] and rounds:
                        parts = [f"rounds[{rounds}]", *parts[1:]]
                    prefix = parts
                    self.lines.setdefault(_canon(".".join(prefix)), number)
                continue
            if stripped.startswith("["):
                parts = _parts(stripped[1:].rsplit("]", 1)[0])
                if parts[:1] == ["rounds"] and rounds:
                    parts = [f"rounds[{rounds}]", *parts[1:]]
                prefix = parts
                self.lines.setdefault(_canon(".".join(prefix)), number)
                continue
            m = dotted(line)
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
        top = _canon(path)
        below = [line for k, line in self.lines.items() if k.startswith((f"{top}.", f"{top}["))]
        return min(below) if below else None

    def attach(self, problem: Problem) -> Problem:
        """The problem with its line filled in where it can be found."""
        if problem.line is not None or not problem.path:
            return problem
        line = self.find(problem.path)
        if line is None:
            return problem
        return replace(problem, line=line)

