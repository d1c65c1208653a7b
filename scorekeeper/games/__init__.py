"""The registry of games (id -> Game, a plain mapping) and the scoring of a whole session."""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING

from scorekeeper.games.base import Game, Item, Place, RoundScore, Sheet, Step, add_items, names
from scorekeeper.games.ticket_booth import TicketBooth
from scorekeeper.games.ticket_to_finland import TicketToFinland
from scorekeeper.games.ticket_to_mars import TicketToMars
from scorekeeper.games.ticket_to_ride import TicketToRide
from scorekeeper.model.points import ZERO, whole
from scorekeeper.model.problems import Problem, SessionError

if TYPE_CHECKING:
    from scorekeeper.model.session import Session

GAMES: dict[str, Game] = {g.id: g for g in (TicketBooth(), TicketToRide(), TicketToFinland(), TicketToMars())}
"""Every game, by id, in the order `games` lists them: a new game is its module and one entry here."""

NAMES = {gid: g.name for gid, g in GAMES.items()}
"""Each game's name by id."""

GROUPS = {head: group for g in GAMES.values() for head, group in g.groups.items()}
"""The chart's shares by category head, of every game."""

LOSSES = {head: group for g in GAMES.values() for head, group in g.losses.items()}
"""The category heads whose losses are a share of their own, of every game."""

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
