"""The score sheet as text and as the JSON of `score --json`; statistics as text."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from scorekeeper.after.stats_model import Finish, GameStats, Highest, Statistics, Tickets
from scorekeeper.games import GAMES, Sheet
from scorekeeper.model.points import fmt, to_json
from scorekeeper.model.text import inert, ljust, width


def json_name(file: str) -> str:
    """A file name for JSON: exact (JSON escapes its control characters itself), but a byte that is not UTF-8 (a
    lone surrogate, which JSON cannot carry as text) written `\\x9b`, as every other output shows it."""
    return "".join(inert(c) if "\udc80" <= c <= "\udcff" else c for c in file)


def sheet_json(sheet: Sheet, file: str) -> dict[str, Any]:
    """The JSON object of SPEC 2.1 for one scored session."""
    s = sheet.session
    return {
        "file": json_name(file),
        "game": s.game,
        "title": s.title,
        "players": list(s.players),
        "rounds": [
            {
                "number": r.number,
                "complete": r.complete,
                "first_player": r.first_player,
                "points": {p: to_json(v) for p, v in r.points.items()},
                "items": [
                    {"player": i.player, "category": i.category, "points": to_json(i.points), "why": i.why}
                    | i.detail_json()
                    for i in r.items
                ],
            }
            | GAMES[sheet.session.game].round_json(sheet.session, r.number)
            for r in sheet.rounds
        ],
        "totals": {p: to_json(v) for p, v in sheet.totals.items()},
        "ranking": [
            {"place": pl.place, "players": list(pl.players), "total": to_json(pl.total), "why": pl.why}
            for pl in sheet.ranking
        ],
        "winners": sheet.winners,
        "tiebreak": sheet.tiebreak,
        "complete": sheet.complete,
        "next": sheet.next,
        "warnings": [w.warning_text() for w in sheet.warnings],
    }


def sheet_text(sheet: Sheet, file: str) -> str:
    """The score sheet for people: per round the itemised points, then totals, ranking, winner."""
    s = sheet.session
    game = GAMES[s.game]
    names = {p: inert(p) for p in s.players}
    column = max(width(n) for n in names.values())
    out: list[str] = []
    head = f"{inert(s.title)} — {game.name}" if s.title else game.name
    out.append(head)
    out.append(f"{inert(file)} · players: {', '.join(inert(p) for p in s.players)}")
    for r in sheet.rounds:
        state = "" if r.complete else "  (not finished)"
        out.append("")
        out.append(f"Round {r.number} — first player: {r.first_player}{state}")
        for p in s.players:
            out.append(f"  {ljust(names[p], column)}  {fmt(r.points[p]):>6}")
            for item in (i for i in r.items if i.player == p):
                why = inert(item.why)
                out.append(f"  {'':<{column}}  {fmt(item.points, signed=True):>6}  {item.category:<18} {why}")
    out.append("")
    out.append("Totals")
    for k, pl in enumerate(sheet.ranking):
        for p in pl.players:
            shared = " (shared)" if len(pl.players) > 1 else ""
            out.append(f"  {pl.place}. {ljust(names[p], column)}  {fmt(pl.total):>6}{shared}")
        after = sheet.ranking[k + 1].why if k + 1 < len(sheet.ranking) else None
        said = (sheet.tiebreak or "").startswith(pl.why or "\0")  # the tie for first: on the Tie-break line
        if pl.why and pl.why != after and not said and s.scored:  # once, under the places it settled
            out.append(f"     ({inert(pl.why)})")
    out.append("")
    if sheet.complete:
        if len(sheet.winners) > 1:
            out.append(f"Shared victory: {', '.join(sheet.winners)}")
        else:
            out.append(f"Winner: {sheet.winners[0]}")
    else:
        out.append(f"Leading: {', '.join(sheet.winners)} (the game is not finished)")
    if sheet.tiebreak:
        out.append(f"Tie-break: {sheet.tiebreak}")
    if sheet.next:
        out.append(f"Next: {sheet.next}")
    if sheet.warnings:
        out.append("Warnings:")
        out.extend(f"  {inert(w.warning_text())}" for w in sheet.warnings)
    return "\n".join(out)


def shown_boards(game: GameStats) -> tuple[GameStats, ...]:
    """The boards of a game's statistics worth showing to people (`Game.shown_boards`)."""
    known = GAMES.get(game.game)
    boards = game.boards or ()
    return boards if known is None or known.shown_boards([b.board or "" for b in boards]) else ()


def own_figures(block: GameStats, fig: Callable[[Any], str], pct: Callable[[float], str]) -> list[tuple[str, str]]:
    """A game's or a board's own figures (`Game.figure_lines`) as (label, text), for each surface to write."""
    known = GAMES.get(block.game)
    return known.figure_lines(block.own, block.board, fig, pct) if known is not None else []


def _pct(value: float) -> str:
    return f"{value:.0%}"


def tickets_sentence(tickets: Tickets) -> str:
    """The tickets of a game or a board: `Tickets: 12 completed, 3 failed (80% completed)`."""
    return (f"Tickets: {tickets.completed} completed, {tickets.failed} failed "
            f"({tickets.completed_rate:.0%} completed)")


def finish_phrase(record: Finish, fig: Callable[[Any], str]) -> str:
    """A biggest margin or closest finish as the table says it: `19.5 — Bo over Ana`; a tie on points, the
    closest finish there is: `0 — level on 71, Bo over Ana on the tie-break` or `… a shared victory of Ivy and
    Jo` (names inert)."""
    from scorekeeper.games.base import names

    winners = names([inert(w) for w in record.winners])
    over = f"{winners} over {inert(record.runner_up)}" if record.runner_up else f"shared by {winners}"
    if not record.level:
        return f"{fig(record.margin)} — {over}"
    level = fig(record.totals.get(record.winners[0])) if record.totals else ""
    how = f"{over} on the tie-break" if record.runner_up else f"a shared victory of {winners}"
    return f"{fig(record.margin)} — level on {level}, {how}"


def highest_phrase(top: Highest, fig: Callable[[Any], str]) -> str:
    """`73 — Ana`; a highest score that lost its game's tie-break says so: `73 — Ana, who lost the tie-break to
    Bo`."""
    from scorekeeper.games.base import names

    lost = top.lost_tie_break_to
    tail = f", who lost the tie-break to {names([inert(w) for w in lost])}" if lost else ""
    return f"{fig(top.points)} — {inert(top.player)}{tail}"


def board_lines(board: GameStats) -> list[str]:
    """One board's figures (of `stats.statistics`' `boards`) as sentences: tickets, its own, the highest score."""
    from scorekeeper.model.text import inert

    out = []
    if board.tickets:
        out.append(tickets_sentence(board.tickets))
    out += [f"{label}: {text}" for label, text in own_figures(board, _fig, _pct)]
    top = board.highest_score
    if top:
        out.append(f"Highest score: {highest_phrase(top, _fig)} ({top.date}, {inert(top.file)})")
    return out


def _fig(value: Any) -> str:
    """A statistics figure as text: `60.5`, `71`, `—` for none."""
    if value is None:
        return "—"
    if isinstance(value, float):  # exact: 300000.5, never cut to 6 significant digits
        from decimal import Decimal

        return format(Decimal(repr(value)), "f")
    return str(value)


def _table(head: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Rows in columns (the first left-aligned, the rest right-aligned), names made inert."""
    from scorekeeper.model.text import inert, ljust, rjust, width

    cells = [[inert(c) for c in row] for row in [head, *rows]]
    widths = [max(width(r[i]) for r in cells) for i in range(len(head))]
    lines = []
    for r in cells:
        parts = [ljust(c, w) if i == 0 else rjust(c, w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append((indent + "  ".join(parts)).rstrip())
    return lines


def stats_text(result: Statistics, folder: str) -> str:
    """The statistics of `stats.statistics` for people: per game a table of players and the records."""
    from scorekeeper.model.text import inert

    out: list[str] = []
    f = result.filters
    filters = ", ".join(f"{k} {v}" for k, v in (("game", f.game), ("player", f.player), ("since", f.since),
                                                 ("until", f.until), ("board", f.board)) if v)
    out.append(f"Statistics of {inert(folder)}" + (f" ({inert(filters)})" if filters else "")
               + f": {result.sessions} finished session{'s' * (result.sessions != 1)}")
    if result.links:
        out.append("Counted once (links to a session of the folder): " + ", ".join(inert(n) for n in result.links))
    if not result.games:
        out.append("")
        out.append("No finished sessions" + (" match." if filters else " yet."))
    for g in result.games:
        out += ["", f"{g.name} — {g.plays} play{'s' * (g.plays != 1)}"]
        rows = [[p.player, str(p.plays), str(p.wins), f"{p.win_rate:.0%}", _fig(p.average), _fig(p.best),
                 _fig(p.worst), str(p.longest_streak),
                 " ".join(f"{n}p:{_fig(v)}" for n, v in (p.average_by_player_count or {}).items())]
                for p in g.players]
        out += _table(["player", "plays", "wins", "win rate", "average", "best", "worst", "streak",
                       "average by players"], rows)
        for rec, label in ((g.biggest_margin, "Biggest winning margin"), (g.closest_finish, "Closest finish")):
            if rec:
                out.append(f"  {label}: {finish_phrase(rec, _fig)} ({rec.date}, {inert(rec.file)})")
        tied, shared = g.tie_broken_wins, g.shared_victories
        apart = ([f"{tied} win{'s' * (tied != 1)} on a tie-break"] if tied else []) + (
            [f"{shared} shared victor{'ies' if shared != 1 else 'y'}"] if shared else [])
        if apart:
            out.append(f"  Level on points at the top: {', '.join(apart)}")
        if g.tickets:
            out.append("  " + tickets_sentence(g.tickets))
        top = g.highest_score
        if top:
            out.append(f"  Highest score: {highest_phrase(top, _fig)} ({top.date}, {inert(top.file)})")
        out += [f"  {label}: {text}" for label, text in own_figures(g, _fig, _pct)]
        for b in shown_boards(g):
            out += [f"  By board: {b.name} — {b.plays} play{'s' * (b.plays != 1)}"]
            out += _table(["player", "plays", "wins", "win rate", "average", "best", "worst"],
                          [[p.player, str(p.plays), str(p.wins), f"{p.win_rate:.0%}", _fig(p.average),
                            _fig(p.best), _fig(p.worst)] for p in b.players], "    ")
            out += [f"    {line}" for line in board_lines(b)]
    page = result.player_page
    if page:
        out += ["", f"{inert(page.player)}: {page.plays} play{'s' * (page.plays != 1)}, {page.wins} "
                f"win{'s' * (page.wins != 1)} ({page.win_rate:.0%}); winning streak {page.current_streak} "
                f"now, {page.longest_streak} at the longest"]
        start = page.start_player
        out.append(f"  As start player (first in round 1): {start.plays} play{'s' * (start.plays != 1)}, "
                   f"{start.wins} win{'s' * (start.wins != 1)} ({start.win_rate:.0%})")
        out += _table(["game", "plays", "wins", "win rate", "as start player"],
                      [[pg.name, str(pg.plays), str(pg.wins), f"{pg.win_rate:.0%}",
                        f"{pg.start_player.wins}/{pg.start_player.plays} ({pg.start_player.win_rate:.0%})"]
                       for pg in page.by_game])
        out.append("  By players at the table: " + ", ".join(
            f"{n}p {c.wins}/{c.plays} ({c.win_rate:.0%})" for n, c in page.by_player_count.items()))
        rival, nemesis = page.rival, page.nemesis
        if rival:
            out.append(f"  Rival (most often just ahead): {inert(rival.player)}, {rival.just_ahead} "
                       f"time{'s' * (rival.just_ahead != 1)}")
        if nemesis:
            out.append(f"  Nemesis (finished above most often): {inert(nemesis.player)}, {nemesis.above} of "
                       f"{nemesis.games} game{'s' * (nemesis.games != 1)}")
    if result.head_to_head:
        out += ["", "Head to head (how often the player finished above the opponent)"]
        rows = [[h.player, h.opponent, str(h.games), str(h.above), str(h.below), str(h.level)]
                for h in result.head_to_head]
        out += _table(["player", "opponent", "games", "above", "below", "level"], rows)
    if result.players and len(result.games) > 1:
        out += ["", "All games"]
        out += _table(["player", "plays", "wins", "win rate", "streak"],
                      [[p.player, str(p.plays), str(p.wins), f"{p.win_rate:.0%}", str(p.longest_streak)]
                       for p in result.players])
    if result.plays_by_year and result.sessions:
        out += ["", "Plays by year: " + ", ".join(f"{y} {n}" for y, n in result.plays_by_year.items()),
                "Plays by month: " + ", ".join(f"{m} {n}" for m, n in result.plays_by_month.items())]
    notes = []
    low = result.min_plays_for_ranking
    if low and any(p.plays < low for g in result.games for p in g.players):
        notes.append(f"(players with fewer than {low} plays are ranked after the others)")
    if result.unfinished:
        n = result.unfinished
        notes.append(f"({n} unfinished session{'s' * (n != 1)} not counted)")
    for name in result.invalid:
        notes.append(f"(skipped, invalid: {inert(name)} — scorekeeper check shows why)")
    if notes:
        out += ["", *notes]
    return "\n".join(out)
