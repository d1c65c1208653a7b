"""The score sheet as text and as the JSON of `score --json`; statistics as text."""

from __future__ import annotations

from typing import Any

from scorekeeper.games import GAMES, Sheet
from scorekeeper.points import fmt, to_json
from scorekeeper.text import inert, ljust, width


def sheet_json(sheet: Sheet, file: str) -> dict[str, Any]:
    """The JSON object of SPEC 2.1 for one scored session."""
    s = sheet.session
    return {
        "file": file,
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
                    | ({"detail": {"station": i.uses[0], "route": i.uses[1] or None, "owner": i.uses[2] or None}}
                       if i.uses is not None else {})
                    for i in r.items
                ],
            }
            | board_json(sheet, r.number)
            for r in sheet.rounds
        ],
        "totals": {p: to_json(v) for p, v in sheet.totals.items()},
        "ranking": [
            {"place": pl.place, "players": list(pl.players), "total": to_json(pl.total)} for pl in sheet.ranking
        ],
        "winners": sheet.winners,
        "tiebreak": sheet.tiebreak,
        "complete": sheet.complete,
        "next": sheet.next,
        "warnings": [w.warning_text() for w in sheet.warnings],
    }


def board_json(sheet: Sheet, number: int) -> dict[str, Any]:
    """On a Ticket to Ride board (map mode): per player the computed longest path (trains and cities), the
    completed tickets and the stations' uses (SPEC 4.2.1); else nothing."""
    s = sheet.session
    game = GAMES[s.game]
    on_map = getattr(game, "on_map", None)
    played = on_map(s, number) if on_map is not None else None
    if played is None:
        return {}
    out: dict[str, Any] = {}
    for p in s.players:
        length, cities = played.trails.get(p, (0, []))
        out[p] = {
            "longest_path": length,
            "path": list(cities),
            "completed_tickets": [c.name for c in played.tickets.get(p, []) if c.completed and c.name],
        }
        if p in played.stations:
            out[p]["stations"] = [
                {"station": city, "route": use.name if use else None, "owner": use.owner if use else None,
                 "completes": helped}
                for city, use, helped in played.stations[p]
            ]
    return {"board": out}


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
    for pl in sheet.ranking:
        for p in pl.players:
            shared = " (shared)" if len(pl.players) > 1 else ""
            out.append(f"  {pl.place}. {ljust(names[p], column)}  {fmt(pl.total):>6}{shared}")
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


def _fig(value: Any) -> str:
    """A statistics figure as text: `60.5`, `71`, `—` for none."""
    if value is None:
        return "—"
    if isinstance(value, float):
        return f"{value:g}"
    return str(value)


def _table(head: list[str], rows: list[list[str]], indent: str = "  ") -> list[str]:
    """Rows in columns (the first left-aligned, the rest right-aligned), names made inert."""
    from scorekeeper.text import inert, ljust, rjust, width

    cells = [[inert(c) for c in row] for row in [head, *rows]]
    widths = [max(width(r[i]) for r in cells) for i in range(len(head))]
    lines = []
    for r in cells:
        parts = [ljust(c, w) if i == 0 else rjust(c, w) for i, (c, w) in enumerate(zip(r, widths, strict=True))]
        lines.append((indent + "  ".join(parts)).rstrip())
    return lines


def stats_text(result: dict[str, Any], folder: str) -> str:
    """The statistics of `stats.statistics` for people: per game a table of players and the records."""
    from scorekeeper.text import inert

    out: list[str] = []
    filters = ", ".join(f"{k} {v}" for k, v in result["filters"].items() if v)
    out.append(f"Statistics of {inert(folder)}" + (f" ({inert(filters)})" if filters else "")
               + f": {result['sessions']} finished session{'s' * (result['sessions'] != 1)}")
    if not result["games"]:
        out.append("")
        out.append("No finished sessions" + (" match." if filters else " yet."))
    for g in result["games"]:
        out += ["", f"{g['name']} — {g['plays']} play{'s' * (g['plays'] != 1)}"]
        rows = [[p["player"], str(p["plays"]), str(p["wins"]), f"{p['win_rate']:.0%}", _fig(p["average"]),
                 _fig(p["best"]), _fig(p["worst"]), str(p["longest_streak"]),
                 " ".join(f"{n}p:{_fig(v)}" for n, v in p["average_by_player_count"].items())]
                for p in g["players"]]
        out += _table(["player", "plays", "wins", "win rate", "average", "best", "worst", "streak",
                       "average by players"], rows)
        for key, label in (("biggest_margin", "Biggest winning margin"), ("closest_finish", "Closest finish")):
            rec = g.get(key)
            if rec:
                who = inert(", ".join(rec["winners"]))
                how = f"{who} over {inert(rec['runner_up'])}" if rec["runner_up"] else f"shared by {who}"
                out.append(f"  {label}: {_fig(rec['margin'])} — {how} ({rec['date']}, {inert(rec['file'])})")
        booth = g.get("ticket_booth")
        if booth:
            top = ", ".join(f"{a['label']} {_fig(a['points'])}" for a in booth["attractions"])
            out.append(f"  Points by attraction: {top}")
            out.append("  Points by special: " + ", ".join(f"{a['label']} {_fig(a['points'])}"
                                                          for a in booth["specials"]))
        tickets = g.get("tickets")
        if tickets:
            out.append(f"  Tickets: {tickets['completed']} completed, {tickets['failed']} failed "
                       f"({tickets['completed_rate']:.0%} completed)")
        lp = g.get("longest_path")
        if lp and lp["games"]:
            out.append(f"  Longest Path: its holder won {lp['holder_won']} of {lp['games']} "
                       f"game{'s' * (lp['games'] != 1)} ({lp['rate']:.0%})")
    if result["head_to_head"]:
        out += ["", "Head to head (how often the player finished above the opponent)"]
        rows = [[h["player"], h["opponent"], str(h["games"]), str(h["above"]), str(h["below"]), str(h["level"])]
                for h in result["head_to_head"]]
        out += _table(["player", "opponent", "games", "above", "below", "level"], rows)
    if result["players"] and len(result["games"]) > 1:
        out += ["", "All games"]
        out += _table(["player", "plays", "wins", "win rate", "streak"],
                      [[p["player"], str(p["plays"]), str(p["wins"]), f"{p['win_rate']:.0%}",
                        str(p["longest_streak"])] for p in result["players"]])
    notes = []
    if result["unfinished"]:
        n = result["unfinished"]
        notes.append(f"({n} unfinished session{'s' * (n != 1)} not counted)")
    for name in result["invalid"]:
        notes.append(f"(skipped, invalid: {inert(name)} — scorekeeper check shows why)")
    if notes:
        out += ["", *notes]
    return "\n".join(out)
