"""Statistics over finished sessions, from index summaries: one function for the app and `scorekeeper stats`.

Points are exact: the index holds whole numbers and halves (SPEC: exact halves), counted here in half
points (ints), so every sum, best and worst is exact and fast; averages are Fractions, rounded only for
the output.
"""

from __future__ import annotations

import dataclasses
import math
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from scorekeeper.after.stats_model import (
    Count,
    Filters,
    Finish,
    GameStats,
    HeadToHead,
    Highest,
    Nemesis,
    PageGame,
    PlayerPage,
    PlayerRow,
    Rival,
    StartPlayer,
    Statistics,
    Tickets,
    json_data,
)
from scorekeeper.games import GAMES
from scorekeeper.games.records import rate
from scorekeeper.index.detail import PlayerDetail
from scorekeeper.model.text import name_key

if TYPE_CHECKING:
    from scorekeeper.index.summary import Summary

MIN_PLAYS = 3
"""Rankings put players with fewer plays than this after the others (a 1-play, 1-win player does not top a table)."""

def _halves(value: int | float) -> int:
    """Points from the index in half points: 23.5 -> 47 (ValueError for anything finer than a half)."""
    if type(value) is int:
        return value * 2
    h = value * 2
    if h != int(h):
        raise ValueError(f"{value} is not a whole number or a half")
    return int(h)


def round2(value: Fraction) -> Fraction:
    """Exactly to 2 decimal places, halves away from zero, as people round: 1.125 -> 1.13, 1.875 -> 1.88."""
    hundredths = abs(value) * 100
    whole = math.floor(hundredths + Fraction(1, 2))
    return Fraction(whole if value >= 0 else -whole, 100)


def _num(value: Fraction | int | float) -> int | float:
    """A figure for JSON: an int when whole, else a float (rounded to 2 places, see `round2`, when not a half)."""
    f = Fraction(value)
    if f.denominator == 1:
        return int(f)
    if (f * 2).denominator == 1:
        return float(f)
    return float(round2(f))


_rate = rate


@dataclass
class _Player:
    name: str
    plays: int = 0
    wins: int = 0
    total: int = 0  # half points, like best, worst and the sums by player count
    best: int | None = None
    worst: int | None = None
    by_count: dict[int, list[int]] = field(default_factory=dict)  # player count -> [plays, sum]
    streak: int = 0
    longest_streak: int = 0
    tickets: list[int] = field(default_factory=lambda: [0, 0])
    wins_by_count: dict[int, int] = field(default_factory=dict)
    start: list[int] = field(default_factory=lambda: [0, 0])  # plays as start player, wins among them

    def add(self, score: int, won: bool, count: int, start: bool) -> None:
        self.plays += 1
        self.wins += won
        self.total += score
        if self.best is None or score > self.best:
            self.best = score
        if self.worst is None or score < self.worst:
            self.worst = score
        slot = self.by_count.get(count)
        if slot is None:
            slot = self.by_count[count] = [0, 0]
        slot[0] += 1
        slot[1] += score
        self.wins_by_count[count] = self.wins_by_count.get(count, 0) + won
        if start:
            self.start[0] += 1
            self.start[1] += won
        if won:
            self.streak += 1
            if self.streak > self.longest_streak:
                self.longest_streak = self.streak
        else:
            self.streak = 0

    def start_player(self) -> StartPlayer:
        """Plays as start player, wins among them, and that win rate."""
        return StartPlayer(self.start[0], self.start[1], _rate(self.start[1], self.start[0]))

    def row(self, with_scores: bool = True) -> PlayerRow:
        """The player's row: with the scores (average, best, worst, by player count, tickets) on a game's table."""
        plain = PlayerRow(self.name, self.plays, self.wins, _rate(self.wins, self.plays), self.longest_streak,
                          self.start_player())
        if not with_scores:
            return plain
        tickets = self.tickets != [0, 0]
        return dataclasses.replace(
            plain, average=_num(Fraction(self.total, 2 * self.plays)),
            best=_num(Fraction(self.best, 2)) if self.best is not None else None,
            worst=_num(Fraction(self.worst, 2)) if self.worst is not None else None,
            average_by_player_count={str(n): _num(Fraction(s, 2 * p)) for n, (p, s) in sorted(self.by_count.items())},
            tickets_completed=self.tickets[0] if tickets else None, tickets_failed=self.tickets[1] if tickets else None)


@dataclass
class _Game:
    game: str
    plays: int = 0
    players: dict[str, _Player] = field(default_factory=dict)
    biggest: Finish | None = None
    closest: Finish | None = None
    biggest_h: int = 0
    closest_h: int = 0
    categories: dict[str, int] = field(default_factory=dict)  # half points
    tickets: list[int] = field(default_factory=lambda: [0, 0])
    counts: dict[str, list[int]] = field(default_factory=dict)  # the game's own counts (`Game.tally`)
    tie_broken: int = 0  # games won on a tie-break (first place level on points)
    shared: int = 0  # games with a shared victory
    high: tuple[int, Highest] | None = None  # the highest score (half points) and its record


@dataclass
class _Play:
    when: str
    file: str
    game: str
    results: list[tuple[str, int, int, bool, PlayerDetail]]  # name, total (half points), place, winner, detail
    start: str = ""  # the start player (the first player of round 1)
    board: str | None = None  # the game's board (a key of its `boards`), None for a game without boards


def statistics(summaries: Iterable[Summary], *, game: str | None = None, player: str | None = None,
               since: date | str | None = None, until: date | str | None = None,
               board: str | None = None) -> Statistics:
    """Statistics of the finished, valid sessions among `summaries` (`to_json` writes them as JSON).

    Filters: `game` (an id), `player` (a name: only sessions they played, only their rows, and only their
    points by category, tickets and each game's own figures), `since` (a date: sessions played that day or
    later), `until` (a date: sessions played that day or earlier), `board` (a board, a key of a game's `boards`:
    only sessions on it). Players are matched as `name_key` compares them (NFC,
    case folded). With `player`, the biggest margin and closest finish come from all the player's sessions,
    those they lost too. Rankings put players with fewer than MIN_PLAYS plays last; averages are rounded by
    `round2`. The start player is the first player of round 1; a player's `start_player` counts the sessions
    they started, the wins among them (a shared victory is a win) and that rate.
    Each file counts once (`once`): a link in the folder to a session of it is listed apart, in "links".
    Returns {"filters", "sessions", "unfinished", "invalid", "links", "games": [...], "players": [...],
    "head_to_head": [...], "plays_by_month", "plays_by_year"}, with `player` a "player_page" too; a game with
    boards has "boards" (the same figures per board, and each board's own, `Game.figures`);
    every figure is a number, text or tuple (points exact: ints, or .5 floats).
    """
    who = name_key(player) if player else None
    since_text = since.isoformat() if isinstance(since, date) else since
    until_text = until.isoformat() if isinstance(until, date) else until
    plays: list[_Play] = []
    unfinished = 0
    invalid: list[str] = []
    kept, links = once(summaries)
    for s in kept:
        if game is not None and s.game != game:
            continue
        if since_text and s.when < since_text:
            continue
        if until_text and s.when[:10] > until_text:
            continue
        if who is not None and who not in (name_key(p) for p in s.players):
            continue
        if s.error:
            if board is None:
                invalid.append(s.file)
            continue
        if board is not None and s.board != board:
            continue
        if not s.complete:
            unfinished += 1
            continue
        detail = s.detail
        winners = set(s.winners)
        results = [(r.name, _halves(r.total), r.place, r.name in winners, r) for r in detail.players]
        if results:
            plays.append(_Play(s.when, s.file, s.game or "", results, s.start_player or results[0][0], s.board))
    plays.sort(key=lambda p: (p.when, p.file))

    per_game: dict[str, _Game] = {}
    per_board: dict[tuple[str, str], _Game] = {}
    overall: dict[str, _Player] = {}
    h2h: dict[tuple[str, str], list[int]] = {}
    names: dict[str, str] = {}
    months: dict[str, int] = {}
    just_ahead: dict[str, int] = {}
    for play in plays:
        if play.when[:7]:
            months[play.when[:7]] = months.get(play.when[:7], 0) + 1
        for name, *_rest in play.results:
            names.setdefault(name_key(name), unicodedata.normalize("NFC", name))
        _tally(per_game.setdefault(play.game, _Game(play.game)), play, who, names)
        if play.board is not None:
            _tally(per_board.setdefault((play.game, play.board), _Game(play.game)), play, who, names)
        if who is not None:
            mine = next(r[2] for r in play.results if name_key(r[0]) == who)
            ahead = [r[2] for r in play.results if r[2] < mine]
            for r in play.results:
                if ahead and r[2] == max(ahead):
                    k = name_key(r[0])
                    just_ahead[k] = just_ahead.get(k, 0) + 1
        count = len(play.results)
        start = name_key(play.start)
        for name, total, _place, won, _raw in play.results:
            key = name_key(name)
            overall.setdefault(key, _Player(names[key])).add(total, won, count, key == start)
        for i, (a, _ta, pa, _wa, _ra) in enumerate(play.results):
            for b, _tb, pb, _wb, _rb in play.results[i + 1:]:
                ka, kb = name_key(a), name_key(b)
                first, second, pf, ps = (ka, kb, pa, pb) if ka <= kb else (kb, ka, pb, pa)
                row = h2h.setdefault((first, second), [0, 0, 0, 0])  # games, first above, second above, level
                row[0] += 1
                row[1 if pf < ps else 2 if ps < pf else 3] += 1

    games_out = []
    order = {gid: i for i, gid in enumerate(GAMES)}
    for gid in sorted(per_game, key=lambda k: (order.get(k, len(order)), k)):
        known = GAMES.get(gid)
        out = _game_out(per_game[gid], who, known.name if known else gid)
        on = [b for b in known.boards if (gid, b) in per_board] if known else []
        if known and on:
            out = dataclasses.replace(out, boards=tuple(_game_out(per_board[gid, b], who, known.boards[b], b)
                                                        for b in on))
        games_out.append(out)

    players_out = [p.row(with_scores=False) for k, p in overall.items() if who is None or k == who]
    players_out.sort(key=lambda r: (r.plays < MIN_PLAYS, -r.win_rate, -r.wins, r.player.casefold()))
    h2h_out = []
    for (ka, kb), (met, a_above, b_above, level) in sorted(h2h.items()):
        for k1, k2, above, below in ((ka, kb, a_above, b_above), (kb, ka, b_above, a_above)):
            if who is None and k1 != ka:
                continue
            if who is not None and k1 != who:
                continue
            h2h_out.append(HeadToHead(names[k1], names[k2], met, above, below, level))
    years: dict[str, int] = {}
    for month, n in months.items():
        years[month[:4]] = years.get(month[:4], 0) + n
    page = _page(overall[who], games_out, h2h_out, just_ahead, names) if who is not None and who in overall else None
    return Statistics(Filters(game, player, since_text, until_text, board), MIN_PLAYS, len(plays), unfinished,
                      tuple(sorted(invalid)), tuple(links), tuple(games_out), tuple(players_out), tuple(h2h_out),
                      dict(sorted(months.items())), dict(sorted(years.items())), page)


def once(summaries: Iterable[Summary]) -> tuple[list[Summary], list[str]]:
    """Each session file once, and apart the names left out: a second name of a file (a link in the folder to a
    session of it), found by the index's key (inode, size, modification time) and confirmed on disk as the same
    device and inode (`os.path.samefile`). Of the names of one file, one that is not a link is kept."""
    import os

    out: list[Summary] = []
    first: dict[tuple[int, int, int], int] = {}
    links: list[str] = []
    for s in summaries:
        ident = (s.ino, s.size, s.mtime_ns)
        at = first.get(ident) if s.ino else None
        if at is None or not _same_file(out[at], s):
            first.setdefault(ident, len(out))
            out.append(s)
        elif os.path.islink(out[at].path) and not os.path.islink(s.path):
            links.append(out[at].file)
            out[at] = s
        else:
            links.append(s.file)
    return out, sorted(links)


def _same_file(a: Summary, b: Summary) -> bool:
    """Whether two names of the folder are one file now (the same device and inode)."""
    import os

    try:
        return os.path.samefile(a.path, b.path)
    except OSError:
        return False


def _tally(g: _Game, play: _Play, who: str | None, names: dict[str, str]) -> None:
    """Count one play into a game's (or a board's) figures; with a player `who`, only their points by category,
    tickets and the game's own counts (`Game.tally`)."""
    g.plays += 1
    count = len(play.results)
    start = name_key(play.start)
    for name, total, _place, won, raw in play.results:
        key = name_key(name)
        g.players.setdefault(key, _Player(names[key])).add(total, won, count, key == start)
        done, failed = raw.tickets
        g.players[key].tickets[0] += done
        g.players[key].tickets[1] += failed
        if who is not None and key != who:
            continue
        if g.high is None or total > g.high[0]:
            g.high = (total, Highest(names[key], _num(Fraction(total, 2)), play.when[:10], play.file,
                                     () if won else tuple(r[0] for r in play.results if r[3])))
        cats = g.categories
        for cat, pts in raw.categories.items():
            cats[cat] = cats.get(cat, 0) + _halves(pts)
        g.tickets[0] += done
        g.tickets[1] += failed
    game = GAMES.get(play.game)
    if game is not None:
        game.tally(g.counts, [(won, raw.marks) for name, _t, _p, won, raw in play.results
                              if who is None or name_key(name) == who])
    _margins(g, play)


def _game_out(g: _Game, who: str | None, name: str, board: str | None = None) -> GameStats:
    """A game's (or, with `board`, one of its boards') figures."""
    gid = g.game
    rows = [p for k, p in g.players.items() if who is None or k == who]
    rows.sort(key=lambda p: (p.plays < MIN_PLAYS, -Fraction(p.wins, p.plays), -p.wins,
                             -Fraction(p.total, p.plays), p.name.casefold()))
    tickets = (Tickets(g.tickets[0], g.tickets[1], _rate(g.tickets[0], sum(g.tickets)))
               if g.tickets != [0, 0] else None)
    game = GAMES.get(gid)
    own = _plain(game.figures(g.counts, g.categories, board)) if game is not None else {}
    return GameStats(board, gid, name, g.plays, tuple(p.row() for p in rows), g.biggest, g.closest, g.tie_broken,
                     g.shared, g.high[1] if g.high is not None else None, tickets, own)


def _page(me: _Player, games_out: list[GameStats], h2h: list[HeadToHead], just_ahead: dict[str, int],
          names: dict[str, str]) -> PlayerPage:
    """One player across games: plays, wins and win rate by game and by player count, their best and worst game
    (by win rate), current and longest winning streak, their win rate as start player, rival (the player most
    often placed just above them) and nemesis (the opponent who finished above them most often)."""
    by_game = [PageGame(g.game, g.name, r.plays, r.wins, r.win_rate, r.start_player)
               for g in games_out for r in g.players[:1]]
    ranked = sorted(by_game, key=lambda r: (-r.win_rate, -r.plays, r.name))
    rival = max(just_ahead.items(), key=lambda kv: (kv[1], [-ord(c) for c in kv[0]]), default=None)
    nemesis = max((h for h in h2h if h.below), key=lambda h: (h.below, -h.above), default=None)
    return PlayerPage(
        me.name, me.plays, me.wins, _rate(me.wins, me.plays), me.start_player(), tuple(by_game),
        {str(n): Count(p, me.wins_by_count[n], _rate(me.wins_by_count[n], p))
         for n, (p, _sum) in sorted(me.by_count.items())},
        ranked[0].game if ranked else None, ranked[-1].game if ranked else None, me.streak, me.longest_streak,
        Rival(names[rival[0]], rival[1]) if rival else None,
        Nemesis(nemesis.opponent, nemesis.below, nemesis.games) if nemesis else None)


def _margins(g: _Game, play: _Play) -> None:
    """Keep the game's biggest winning margin and closest finish (first place total minus the next one).

    A tie on points at the top is the closest finish there is (0, `level`: settled by the tie-break, or a shared
    victory); the biggest margin is of a decided game. Ties are also counted in `shared` and `tie_broken`."""
    ordered = sorted(play.results, key=lambda r: (r[2], -r[1]))
    if len(ordered) < 2:
        return
    margin = max(0, ordered[0][1] - max(r[1] for r in ordered[1:]))
    winners = sum(r[3] for r in play.results)
    if winners > 1:
        g.shared += 1
    elif margin == 0:
        g.tie_broken += winners == 1
    biggest = margin > 0 and (g.biggest is None or margin > g.biggest_h)
    closest = g.closest is None or margin < g.closest_h
    if not (biggest or closest):
        return
    second = ordered[1]
    record = Finish(_num(Fraction(margin, 2)), play.file, play.when[:10], tuple(r[0] for r in play.results if r[3]),
                    None if second[3] else second[0], {r[0]: _num(Fraction(r[1], 2)) for r in ordered}, margin == 0)
    if biggest:
        g.biggest, g.biggest_h = record, margin
    if closest:
        g.closest, g.closest_h = record, margin


def _plain(value: Any) -> Any:
    """A game's figures as JSON data: points (Fractions) as `_num` writes them, the rest as it is."""
    if isinstance(value, Fraction):
        return _num(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_plain(v) for v in value]
    return value


def to_json(result: Statistics, folder: str) -> str:
    """The statistics of `statistics` as the JSON `scorekeeper stats --json` prints (the folder first)."""
    import json

    return json.dumps({"folder": folder, **json_data(result)}, ensure_ascii=False, indent=2)


CSV_HEADER = ("game", "board", "player", "plays", "wins", "win_rate", "average", "best", "worst", "longest_streak",
              "start_plays", "start_wins", "start_win_rate")


def to_csv(result: Statistics) -> str:
    """The players' table of every game of `statistics` as CSV (RFC 4180, CRLF), one row per game and player, then
    per Ticket to Ride board and player (`board` empty on a game's own rows); a text cell that starts like a
    formula gets a leading `'`, as in the session exports."""
    import csv
    import io

    def cell(text: str) -> str:
        return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for g in result.games:
        for block in (g, *(g.boards or ())):
            for p in block.players:
                start = p.start_player
                writer.writerow([g.game, block.board or "", cell(p.player), p.plays, p.wins, p.win_rate,
                                 *("" if v is None else v for v in (p.average, p.best, p.worst)),
                                 p.longest_streak, start.plays, start.wins, start.win_rate])
    return out.getvalue()
