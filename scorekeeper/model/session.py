"""The session model: frozen dataclasses for a game night (its located problems: scorekeeper.model.problems). No I/O."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import date, datetime, time
from typing import Any

from scorekeeper.model.problems import Problem as Problem
from scorekeeper.model.problems import SessionError as SessionError
from scorekeeper.model.problems import Severity as Severity
from scorekeeper.model.problems import below as below
from scorekeeper.model.problems import location as location
from scorekeeper.model.problems import quote as quote

FORMAT = 1
"""The newest session file format this program reads and writes."""

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
