"""The session model: frozen dataclasses for a game night, and located problems. No I/O."""

from __future__ import annotations

import re
from datetime import date, datetime, time
from typing import Any, Literal

from scorekeeper.record import field, replace
from scorekeeper.record import record as dataclass

FORMAT = 1
"""The newest session file format this program reads and writes."""

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

    def __post_init__(self) -> None:
        if self.field is not None and self.player is not None and self.key is None and self.index is None:
            key, index = below(self.path, location(self.round, self.player, self.field))
            object.__setattr__(self, "key", key)
            object.__setattr__(self, "index", index)

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


Entry = dict[str, Any]
"""One player's fields in one round, as in the file (validated, missing fields mean zero)."""


@dataclass(frozen=True)
class Round:
    """One round: a table of fields per player; a player missing means the round is not done."""

    players: dict[str, Entry] = field(default_factory=dict)

    def entry(self, player: str) -> Entry:
        """The player's fields (empty when the player has not been scored yet)."""
        return self.players.get(player, {})

    def is_complete(self, players: tuple[str, ...]) -> bool:
        """Every player has a table in this round."""
        return all(p in self.players for p in players)


@dataclass(frozen=True)
class Session:
    """A game night: the game, its players in seating order, house rules and the rounds."""

    game: str
    players: tuple[str, ...]
    title: str | None = None
    started: date | datetime | time | None = None
    notes: str | None = None
    rules: dict[str, Any] = field(default_factory=dict)
    rounds: tuple[Round, ...] = ()
    format: int = FORMAT

    def as_document(self, rounds: list[Any]) -> dict[str, Any]:
        """The top-level values under the file's keys, in the file's order; `rounds` stands for the rounds."""
        doc: dict[str, Any] = {"format": self.format, "game": self.game}
        if self.title is not None:
            doc["title"] = self.title
        if self.started is not None:
            doc["started"] = self.started
        doc["players"] = list(self.players)
        if self.notes is not None:
            doc["notes"] = self.notes
        if self.rules:
            doc["rules"] = self.rules
        if self.rounds:
            doc["rounds"] = rounds
        return doc

    def round(self, number: int) -> Round:
        """Round `number`, counted from 1 (an empty round past the last one)."""
        if 1 <= number <= len(self.rounds):
            return self.rounds[number - 1]
        return Round()

    def with_value(self, number: int, player: str, key: str, value: Any) -> Session:
        """A copy with one field of one player in round `number` set (None removes it).

        Rounds up to `number` are created as needed; the player's table is created too.
        """
        import copy  # here, not at the top: only edits need it, and it costs every command ~1 ms

        rounds = list(self.rounds)
        while len(rounds) < number:
            rounds.append(Round())
        players = copy.deepcopy(rounds[number - 1].players)
        entry = players.setdefault(player, {})
        if value is None:
            entry.pop(key, None)
        else:
            entry[key] = copy.deepcopy(value)
        rounds[number - 1] = Round(players=players)
        return replace(self, rounds=tuple(rounds))

    def with_player_entered(self, number: int, player: str) -> Session:
        """A copy where the player has a (possibly empty) table in round `number`."""
        rnd = self.round(number)
        if player in rnd.players:
            return self
        return self.with_entry(number, player, {})

    def with_entry(self, number: int, player: str, entry: Entry) -> Session:
        """A copy with the player's whole table in round `number` replaced."""
        import copy  # here, not at the top: only edits need it, and it costs every command ~1 ms

        rounds = list(self.rounds)
        while len(rounds) < number:
            rounds.append(Round())
        players = copy.deepcopy(rounds[number - 1].players)
        players[player] = copy.deepcopy(entry)
        rounds[number - 1] = Round(players=players)
        return replace(self, rounds=tuple(rounds))

    def with_round_added(self) -> Session:
        """A copy with one more, empty round."""
        return replace(self, rounds=(*self.rounds, Round()))

    def without_last_round(self) -> Session:
        """A copy without the last round."""
        return replace(self, rounds=self.rounds[:-1])

    @property
    def scored(self) -> bool:
        """True once any player has a table in any round (the seating can no longer change)."""
        return any(r.players for r in self.rounds)

    def with_player_renamed(self, old: str, new: str) -> Session:
        """A copy where player `old` is called `new` everywhere: the seating and every round's table.

        ValueError when `old` is not a player or `new` is already one (the store checks the name itself).
        """
        if old not in self.players:
            raise ValueError(f"{old!r} is not one of the players ({', '.join(self.players)})")
        if new == old:
            return self
        if new in self.players:
            raise ValueError(f"{new!r} is already a player")
        import copy

        players = tuple(new if p == old else p for p in self.players)
        rounds = tuple(Round(players={new if k == old else k: copy.deepcopy(v) for k, v in r.players.items()})
                       for r in self.rounds)
        return replace(self, players=players, rounds=rounds)

    def with_seating(self, order: tuple[str, ...] | list[str]) -> Session:
        """A copy with the players reseated; ValueError once a round is scored, or for other players."""
        order = tuple(order)
        if sorted(order) != sorted(self.players):
            raise ValueError(f"the seating must list the same players ({', '.join(self.players)})")
        if order != self.players and self.scored:
            raise ValueError("the seating order cannot change once a round is scored")
        return replace(self, players=order)
