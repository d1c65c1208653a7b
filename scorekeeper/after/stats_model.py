"""The statistics as values (frozen dataclasses), and the one place they are written as JSON data."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

Num = int | float
"""A figure as the JSON has it: points exact (ints, or .5 floats), averages rounded to 2 places."""

OMIT = {"omit": True}
"""A field left out of the JSON when it is None."""

FLAT = {"flat": True}
"""A mapping field whose keys are written beside the others (a game's own figures)."""


@dataclass(frozen=True, slots=True)
class StartPlayer:
    """Plays as start player (the first player of round 1), wins among them, and that win rate."""

    plays: int
    wins: int
    win_rate: float


@dataclass(frozen=True, slots=True)
class PlayerRow:
    """One player's row of a game's (or every game's) table; the scores only on a game's own table."""

    player: str
    plays: int
    wins: int
    win_rate: float
    longest_streak: int
    start_player: StartPlayer
    average: Num | None = field(default=None, metadata=OMIT)
    best: Num | None = field(default=None, metadata=OMIT)
    worst: Num | None = field(default=None, metadata=OMIT)
    average_by_player_count: Mapping[str, Num] | None = field(default=None, metadata=OMIT)
    tickets_completed: int | None = field(default=None, metadata=OMIT)
    tickets_failed: int | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class Finish:
    """A biggest winning margin or closest finish: first place's total minus the next one's, and the game."""

    margin: Num
    file: str
    date: str
    winners: tuple[str, ...]
    runner_up: str | None
    totals: Mapping[str, Num]
    level: bool


@dataclass(frozen=True, slots=True)
class Highest:
    """A game's highest score: who, how many points, when, and whom they lost the tie-break to."""

    player: str
    points: Num
    date: str
    file: str
    lost_tie_break_to: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Tickets:
    """Tickets completed and failed, and the completed share."""

    completed: int
    failed: int
    completed_rate: float


@dataclass(frozen=True, slots=True)
class GameStats:
    """One game's figures (or, with `board`, one of its boards')."""

    board: str | None = field(metadata=OMIT)
    game: str
    name: str
    plays: int
    players: tuple[PlayerRow, ...]
    biggest_margin: Finish | None
    closest_finish: Finish | None
    tie_broken_wins: int
    shared_victories: int
    highest_score: Highest | None = field(default=None, metadata=OMIT)
    tickets: Tickets | None = field(default=None, metadata=OMIT)
    own: Mapping[str, Any] = field(default_factory=dict, metadata=FLAT)
    """The game's own figures (`Game.figures`), read by `Game.figure_lines`."""
    boards: tuple[GameStats, ...] | None = field(default=None, metadata=OMIT)


@dataclass(frozen=True, slots=True)
class HeadToHead:
    """How often `player` finished above, below or level with `opponent`."""

    player: str
    opponent: str
    games: int
    above: int
    below: int
    level: int


@dataclass(frozen=True, slots=True)
class PageGame:
    """A player's plays, wins and win rate in one game."""

    game: str
    name: str
    plays: int
    wins: int
    win_rate: float
    start_player: StartPlayer


@dataclass(frozen=True, slots=True)
class Count:
    """Plays, wins and win rate at one player count."""

    plays: int
    wins: int
    win_rate: float


@dataclass(frozen=True, slots=True)
class Rival:
    """The player most often placed just above."""

    player: str
    just_ahead: int


@dataclass(frozen=True, slots=True)
class Nemesis:
    """The opponent who finished above most often."""

    player: str
    above: int
    games: int


@dataclass(frozen=True, slots=True)
class PlayerPage:
    """One player across games."""

    player: str
    plays: int
    wins: int
    win_rate: float
    start_player: StartPlayer
    by_game: tuple[PageGame, ...]
    by_player_count: Mapping[str, Count]
    best_game: str | None
    worst_game: str | None
    current_streak: int
    longest_streak: int
    rival: Rival | None
    nemesis: Nemesis | None


@dataclass(frozen=True, slots=True)
class Filters:
    """What the statistics were asked for."""

    game: str | None
    player: str | None
    since: str | None
    until: str | None
    board: str | None


@dataclass(frozen=True, slots=True)
class Statistics:
    """Statistics of the finished, valid sessions of a folder (`stats.statistics`)."""

    filters: Filters
    min_plays_for_ranking: int
    sessions: int
    unfinished: int
    invalid: tuple[str, ...]
    links: tuple[str, ...]
    games: tuple[GameStats, ...]
    players: tuple[PlayerRow, ...]
    head_to_head: tuple[HeadToHead, ...]
    plays_by_month: Mapping[str, int]
    plays_by_year: Mapping[str, int]
    player_page: PlayerPage | None = field(default=None, metadata=OMIT)


def json_data(value: Any) -> Any:
    """A value of this module as JSON data (the one writer): dataclasses as objects in field order, a field of
    OMIT left out when None, a FLAT mapping's keys beside the others; tuples as lists."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for f in dataclasses.fields(value):
            item = getattr(value, f.name)
            if f.metadata.get("omit") and item is None:
                continue
            if f.metadata.get("flat"):
                out.update({k: json_data(v) for k, v in item.items()})
            else:
                out[f.name] = json_data(item)
        return out
    if isinstance(value, Mapping):
        return {k: json_data(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [json_data(v) for v in value]
    return value
