"""The home screen's first screenful, kept beside the folder's index: painted before the index is even opened.

A small text file next to the index database (same name, `.first`) holds the rows the home list shows first,
newest first, exactly as the index last had them. It is only a faster first picture: the app opens the index
right after the first frame, refreshes it and shows its truth in place of these rows, then writes the file
again when they differ. A missing, unreadable or malformed file is simply not used (the index is opened before
the first frame instead); it is written atomically, and deleting it loses nothing.

Reading it imports neither sqlite3 nor json nor hashlib: one line per session, tab-separated fields, with the
backslash, tab, line feed and unit separator escaped (`\\\\`, `\\t`, `\\n`, `\\u`).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

MAGIC = "scorekeeper first screen 1"
"""The first field of the file's first line; a file that starts otherwise is not used."""

ROWS = 40
"""Sessions kept: a screenful, and more."""


class Row:
    """One session as the home list shows it; "" where the index has None (no title, no game). `when`: when it
    was played, ISO text (`started`, else the file's modification time), the list's sort key.

    (A plain class: a NamedTuple would cost its own compile before the first frame.)
    """

    __slots__ = ("file", "title", "game", "players", "state", "error", "when")

    def __init__(self, file: str, title: str, game: str, players: tuple[str, ...], state: str, error: str,
                 when: str) -> None:
        self.file = file
        self.title = title
        self.game = game
        self.players = players
        self.state = state
        self.error = error
        self.when = when

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Row) and all(getattr(self, k) == getattr(other, k) for k in self.__slots__)

    def __repr__(self) -> str:
        return f"Row({self.file!r}, {self.state!r})"


def cache_dir() -> Path:
    """The folder of the index databases: $SCOREKEEPER_CACHE, else the user cache folder's `index/`."""
    env = os.environ.get("SCOREKEEPER_CACHE")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_cache_dir("scorekeeper", appauthor=False)) / "index"


def resolved(folder: Path | str) -> str:
    """The sessions folder's resolved path, as the index is named after it."""
    return str(Path(folder).expanduser().resolve())


def stem(folder: Path | str, where: str | None = None) -> Path:
    """The index's path without suffix: the cache folder and a digest of the folder's resolved path (`where`, when
    known already)."""
    try:
        from _sha256 import sha256  # type: ignore[import-not-found]  # hashlib's C module, without its imports
    except ImportError:
        from hashlib import sha256
    data = (where or resolved(folder)).encode("utf-8", "surrogatepass")
    digest: str = sha256(data).hexdigest()
    return cache_dir() / digest[:24]


def path(folder: Path | str, where: str | None = None) -> Path:
    """The first-screen file of a sessions folder (`where`: its resolved path, when known already)."""
    return stem(folder, where).with_suffix(".first")


_ESCAPES = {"\\": "\\\\", "\t": "\\t", "\n": "\\n", "\x1f": "\\u"}
_UNESCAPES = {"\\": "\\", "t": "\t", "n": "\n", "u": "\x1f"}


def _escape(text: str) -> str:
    if "\\" in text or "\t" in text or "\n" in text or "\x1f" in text:
        return "".join(_ESCAPES.get(ch, ch) for ch in text)
    return text


def _unescape(text: str) -> str:
    if "\\" not in text:
        return text
    out: list[str] = []
    chars = iter(text)
    for ch in chars:
        if ch == "\\":
            ch = _UNESCAPES[next(chars)]  # KeyError, StopIteration: a malformed file
        out.append(ch)
    return "".join(out)


def text(folder: Path | str, rows: list[Row], where: str | None = None) -> str:
    """The file's text for these rows (`where`: the folder's resolved path, when known already)."""
    lines = [f"{MAGIC}\t{_escape(where or resolved(folder))}"]
    for r in rows:
        players = "\x1f".join(_escape(p) for p in r.players)
        lines.append("\t".join([_escape(r.file), _escape(r.title), _escape(r.game), players, _escape(r.state),
                                _escape(r.error), _escape(r.when)]))
    return "\n".join(lines) + "\n"


def parse(folder: Path | str, content: str, where: str | None = None) -> list[Row] | None:
    """The rows of a file's text; None when it is not one, or of another folder (`where`: the folder's resolved
    path, when known already)."""
    lines = content.split("\n")
    if lines[0] != f"{MAGIC}\t{_escape(where or resolved(folder))}" or lines[-1] != "":
        return None
    rows = []
    try:
        for line in lines[1:-1]:
            file, title, game, players, state, error, when = line.split("\t")
            rows.append(Row(_unescape(file), _unescape(title), _unescape(game),
                            tuple(_unescape(p) for p in players.split("\x1f")) if players else (),
                            _unescape(state), _unescape(error), _unescape(when)))
    except (ValueError, KeyError, StopIteration):
        return None
    return rows


def read(folder: Path | str) -> tuple[list[Row], str] | None:
    """The rows kept for a sessions folder and the file's text; None when there is no usable file."""
    where = resolved(folder)
    try:
        with open(path(folder, where), encoding="utf-8", errors="surrogateescape") as f:
            content = f.read(1 << 20)
    except (OSError, ValueError):
        return None
    rows = parse(folder, content, where)
    return (rows, content) if rows is not None else None


def row(summary: Any) -> Row:
    """The row of an index summary (`scorekeeper.index.Summary`)."""
    return Row(summary.file, summary.title or "", summary.game or "", tuple(summary.players), summary.state,
               summary.error, summary.when)


def write(folder: Path | str, content: str) -> bool:
    """Replace the file with this text, atomically; False (and nothing changed) when it cannot be written."""
    from scorekeeper.store import write_atomic  # after the first frame: the store is not needed to paint it

    try:
        write_atomic(path(folder), content, errors="surrogateescape")
    except (OSError, ValueError):
        return False
    return True
