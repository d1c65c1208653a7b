"""Small builders shared by the core tests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from scorekeeper import files, games, store
from scorekeeper.games import Sheet, validation
from scorekeeper.model.session import Problem, Round, Session


def session(game: str, players: list[str], *rounds: dict[str, dict[str, Any]], rules: dict | None = None) -> Session:
    """A session of `game` with these rounds (each a table of player -> fields)."""
    return Session(game=game, players=tuple(players), rules=rules or {},
                   rounds=tuple(Round(players=dict(r)) for r in rounds))


def problems(sess: Session) -> list[Problem]:
    """Every problem of the session, as the core's one validation entry point finds them."""
    return validation.validate(sess)


def errors(sess: Session) -> list[Problem]:
    """The errors among them."""
    return [p for p in problems(sess) if p.is_error]


def warnings(sess: Session) -> list[str]:
    """The warnings, as `score --json` words them."""
    return [p.warning_text() for p in problems(sess) if not p.is_error]


def sheet(sess: Session) -> Sheet:
    """The score sheet (after a round trip through TOML, so the file format is exercised too)."""
    parsed, found = files.parse(store.dumps(sess))
    assert parsed is not None, [p.describe() for p in found]
    return games.score(parsed, found)


def points_of(sh: Sheet, player: str, category: str | None = None, round_no: int = 1) -> Fraction:
    """A player's points in a round, optionally only one category."""
    items = sh.rounds[round_no - 1].items
    return sum((i.points for i in items if i.player == player and (category is None or i.category == category)),
               Fraction(0))
