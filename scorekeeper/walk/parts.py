"""What a player's row says at a step of the walkthrough (`WalkState.live`), each thing a small typed value."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from scorekeeper.games.base import Item
    from scorekeeper.model.problems import Problem


@dataclass(frozen=True)
class Scored:
    """An item the player scores at the step."""

    item: Item


@dataclass(frozen=True)
class Path:
    """The cities of the path an item above is for (a Longest Path, an Express)."""

    cities: tuple[str, ...]


@dataclass(frozen=True)
class Trail:
    """The player's own longest path, which scores nothing: its trains, its cities, and why (`no bonus`, `it
    settles a tie`)."""

    trains: int
    cities: tuple[str, ...]
    why: str


@dataclass(frozen=True)
class Total:
    """The player's points this round (on the summary)."""

    points: Fraction


@dataclass(frozen=True)
class Found:
    """A problem the core found at the player's inputs."""

    problem: Problem


@dataclass(frozen=True)
class Refused:
    """A value typed and not saved, with the core's reason."""

    problem: Problem


Part: TypeAlias = "Scored | Path | Trail | Total | Found | Refused"
"""One thing a player's row says."""
