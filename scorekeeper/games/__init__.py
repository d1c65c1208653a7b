"""The registry of games (id -> Game, each game's module imported when first asked for) and the scoring of a
whole session."""

from __future__ import annotations

import importlib
from collections.abc import Iterator, Mapping
from fractions import Fraction
from typing import TYPE_CHECKING

from scorekeeper.gamenames import NAMES
from scorekeeper.games.base import Game, Item, Place, RoundScore, Sheet, Step, add_items, names
from scorekeeper.points import ZERO, whole
from scorekeeper.problems import Problem, SessionError

if TYPE_CHECKING:
    from scorekeeper.session import Session

_WHERE = {
    "ticket-booth": ("ticket_booth", "TicketBooth"),
    "ticket-to-ride": ("ticket_to_ride", "TicketToRide"),
    "ticket-to-finland": ("ticket_to_finland", "TicketToFinland"),
    "ticket-to-mars": ("ticket_to_mars", "TicketToMars"),
}


class Registry(Mapping[str, Game]):
    """The games by id, in the order `games` lists them; a game's module is imported on first use."""

    def __init__(self) -> None:
        self._loaded: dict[str, Game] = {}

    def __getitem__(self, game_id: str) -> Game:
        game = self._loaded.get(game_id)
        if game is None:
            module, cls = _WHERE[game_id]
            game = getattr(importlib.import_module(f"scorekeeper.games.{module}"), cls)()
            self._loaded[game_id] = game
        return game

    def __contains__(self, game_id: object) -> bool:
        return game_id in _WHERE

    def __iter__(self) -> Iterator[str]:
        return iter(_WHERE)

    def __len__(self) -> int:
        return len(_WHERE)


GAMES: Mapping[str, Game] = Registry()
"""Every game, by id, in the order `games` lists them."""

__all__ = ["GAMES", "NAMES", "Game", "Item", "Place", "RoundScore", "Sheet", "Step", "get", "score", "check"]


def get(game_id: str) -> Game:
    """The game with this id (KeyError when there is none)."""
    return GAMES[game_id]


def check(session: Session) -> list[Problem]:
    """Every error and warning of a well-formed session (rules and cross-field checks)."""
    game = get(session.game)
    return game.check_rules(session.rules) + game.check_session(session)


def score(session: Session, problems: list[Problem] | None = None) -> Sheet:
    """The full score sheet of a session; raises SessionError when the session has errors."""
    game = get(session.game)
    if problems is None:
        problems = check(session)
    errors = [p for p in problems if p.is_error]
    if errors:
        raise SessionError(errors)
    rounds: list[RoundScore] = []
    totals: dict[str, Fraction] = {p: ZERO for p in session.players}
    for number, rnd in enumerate(session.rounds, start=1):
        first = game.first_player(session, number, dict(totals))
        items = game.scored_round(session, number)
        points = add_items(session.players, items)
        for p in session.players:
            before, more = totals[p], points[p]
            whole_ = before.denominator == 1 and more.denominator == 1
            totals[p] = whole(before.numerator + more.numerator) if whole_ else before + more
        rounds.append(RoundScore(number, rnd.is_complete(session.players), first, points, items))
    ranking, tiebreak = game.ranking(session, rounds, totals)
    if not session.scored:
        tiebreak = None  # nothing played yet: no tie to settle, and no victory to share
        ranking = [Place(pl.place, pl.players, pl.total, f"{names(pl.players)} tied on 0: nothing scored yet"
                         if len(pl.players) > 1 else pl.why) for pl in ranking]
    elif tiebreak and ranking[0].why:
        top = ranking[0]  # the tie for first: the game's own sentence (its rule, its extra rounds)
        ranking[0] = Place(top.place, top.players, top.total, tiebreak)
    winners = list(ranking[0].players)
    complete, nxt = game.progress(session, rounds, totals, ranking)
    return Sheet(session, rounds, totals, ranking, winners, tiebreak, complete, nxt, problems)
