"""What the index keeps of a scored session beside its columns, as values: written as JSON in one place
(`Detail.json`) and read back through them (`Detail.read`: the index is untrusted, a malformed detail raises
ValueError and its row is dropped)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Num = int | float
"""Points as the index writes them: an int, or a finite float (a half)."""

_write = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode


def _points(value: Any) -> Num:
    if (type(value) is int) or (type(value) is float and value == value and abs(value) != float("inf")):
        return value
    raise ValueError(f"{value!r} is not points")


def _int(value: Any) -> int:
    if type(value) is int:
        return value
    raise ValueError(f"{value!r} is not a whole number")


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise ValueError(f"{value!r} is not text")


def _maybe_text(value: Any) -> str | None:
    return None if value is None else _text(value)


def _object(value: Any) -> dict[str, Any]:
    if isinstance(value, dict):
        return value
    raise ValueError("not an object")


def _list(value: Any) -> list[Any]:
    if isinstance(value, list):
        return value
    raise ValueError("not a list")


_PLAYER_KEYS = frozenset({"name", "total", "place", "why", "rounds", "categories", "tickets"})
"""A player's keys every game has; the others are the game's marks (`Game.marks`)."""


@dataclass(frozen=True, slots=True)
class PlayerDetail:
    """One player's result in a session: total, place, points per round and per category, tickets completed and
    failed, and what the game keeps besides (`marks`: a bonus received, the stations built…)."""

    name: str
    total: Num
    place: int
    why: str | None
    rounds: tuple[Num, ...]
    categories: Mapping[str, Num]
    tickets: tuple[int, int]
    marks: Mapping[str, bool | int] = field(default_factory=dict)

    def data(self) -> dict[str, Any]:
        """As JSON data."""
        return {"name": self.name, "total": self.total, "place": self.place, "why": self.why,
                "rounds": list(self.rounds), "categories": dict(self.categories), "tickets": list(self.tickets),
                **self.marks}

    @classmethod
    def read(cls, value: Any) -> PlayerDetail:
        """From JSON data; ValueError unless it has the shape `data` writes."""
        obj = _object(value)
        categories = _object(obj.get("categories"))
        tickets = _list(obj.get("tickets"))
        if len(tickets) != 2:
            raise ValueError("tickets is not two numbers")
        marks = {k: v for k, v in obj.items() if k not in _PLAYER_KEYS}
        if not all(type(v) in (bool, int) for v in marks.values()):
            raise ValueError("a mark is not a flag or a count")
        return cls(_text(obj.get("name")), _points(obj.get("total")), _int(obj.get("place")),
                   _maybe_text(obj.get("why")), tuple(map(_points, _list(obj.get("rounds")))),
                   {_text(k): _points(v) for k, v in categories.items()}, (_int(tickets[0]), _int(tickets[1])), marks)


@dataclass(frozen=True, slots=True)
class Detail:
    """A session's rounds, tie-break sentence, what the table does next, warnings, start player, board and each
    player's result (all empty for a file that could not be scored)."""

    rounds: int = 0
    tiebreak: str | None = None
    next: str | None = None
    warnings: int = 0
    start: str | None = None
    board: str | None = None
    players: tuple[PlayerDetail, ...] = ()

    def json(self) -> str:
        """As the index stores it (compact JSON)."""
        return _write({"rounds": self.rounds, "tiebreak": self.tiebreak, "next": self.next,
                       "warnings": self.warnings, "start": self.start, "board": self.board,
                       "players": [p.data() for p in self.players]})

    @classmethod
    def read(cls, text: Any) -> Detail:
        """From the stored text; ValueError unless it is what `json` writes (a row of a tampered or damaged
        database is not trusted)."""
        obj = _object(json.loads(_text(text)))
        return cls(_int(obj.get("rounds", 0)), _maybe_text(obj.get("tiebreak")), _maybe_text(obj.get("next")),
                   _int(obj.get("warnings", 0)), _maybe_text(obj.get("start")), _maybe_text(obj.get("board")),
                   tuple(map(PlayerDetail.read, _list(obj.get("players", [])))))


EMPTY = Detail()
"""The detail of a file that could not be scored."""
