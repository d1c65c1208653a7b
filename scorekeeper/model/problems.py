"""Problems found in a session, and where they are: the core's shared vocabulary (no model, no I/O).

Here and not in `scorekeeper.model.session`, so that what only describes the games (`scorekeeper games`) or checks a
field loads no session model.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Literal

Severity = Literal["error", "warning"]


def quote(name: str) -> str:
    """A player name as it stands in a location: `"Bo"`, with quotes and backslashes escaped."""
    return '"' + name.replace("\\", "\\\\").replace('"', '\\"') + '"'


def location(
    round_no: int | None = None,
    player: str | None = None,
    fld: str | None = None,
    *rest: str | int,
) -> str:
    """A place in a session file: `rounds[2].players."Bo".tickets` (rounds counted from 1)."""
    parts: list[str] = []
    if round_no is not None:
        parts.append(f"rounds[{round_no}]")
    if player is not None:
        parts.append(f"players.{quote(player)}")
    if fld is not None:
        parts.append(fld)
    text = ".".join(parts)
    for part in rest:
        text += f"[{part}]" if isinstance(part, int) else f".{quote(part)}"
    return text


_BELOW = r'\[(\d+)\]|\."((?:[^"\\]|\\.)*)"|\.([A-Za-z0-9_-]+)'
"""A key or index under a field's location: compiled when a problem is made, never to read a sound file."""


def below(path: str, prefix: str) -> tuple[str | None, int | None]:
    """The key or list index (from 1) a location names under a field's: `."8"` -> ("8", None), `[2]` -> (None, 2)."""
    if not path.startswith(prefix):
        return None, None
    m = re.compile(_BELOW).match(path, len(prefix))
    if m is None:
        return None, None
    if m.group(1) is not None:
        return None, int(m.group(1))
    return (m.group(2) if m.group(2) is not None else m.group(3)), None


@dataclass(frozen=True)
class Problem:
    """An error or a warning about a session, with where it is and what is allowed."""

    message: str
    severity: Severity = "error"
    path: str = ""
    line: int | None = None
    round: int | None = None
    player: str | None = None
    field: str | None = None
    key: str | None = None
    index: int | None = None
    column: int | None = None
    """The column in the line, from 1, counted in characters (as tomllib counts); for errors of the file's text."""
    said: str = ""
    """The message in the table's words, for the app (`Ben's 2nd station`, not `station_cities[2]`); empty: the
    message says it so already. `check` and `score` keep the message, with the file's places."""

    def __post_init__(self) -> None:
        if self.field is not None and self.player is not None and self.key is None and self.index is None:
            key, index = below(self.path, location(self.round, self.player, self.field))
            object.__setattr__(self, "key", key)
            object.__setattr__(self, "index", index)

    @property
    def shown(self) -> str:
        """The message as the app shows it: in the table's words."""
        return self.said or self.message

    @property
    def is_error(self) -> bool:
        """True for an error (the session cannot be scored), False for a warning."""
        return self.severity == "error"

    def where(self) -> str:
        """The place, with the TOML line (and column) when known: `rounds[1].players."Bo".tickets (line 12)`,
        `the file (line 2, column 13)`; lines and columns count from 1."""
        place = self.path or "the file"
        if not self.line:
            return place
        return f"{place} (line {self.line}, column {self.column})" if self.column else f"{place} (line {self.line})"

    def describe(self) -> str:
        """One line for people: `error: rounds[1]…: message`."""
        return f"{self.severity}: {self.where()}: {self.message}"

    def warning_text(self) -> str:
        """A warning as `score --json` lists it: `round 1: …`."""
        return f"round {self.round}: {self.message}" if self.round else self.message


class SessionError(Exception):
    """A session that cannot be read or breaks the contract; carries every problem found."""

    def __init__(self, problems: list[Problem], file: str = "") -> None:
        self.problems = problems
        self.file = file
        first = problems[0].describe() if problems else "invalid session"
        super().__init__(f"{file}: {first}" if file else first)

    @property
    def errors(self) -> list[Problem]:
        """The errors among the problems."""
        return [p for p in self.problems if p.is_error]
