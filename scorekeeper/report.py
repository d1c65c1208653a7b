"""The score sheet as text and as the JSON of `score --json`; standings across sessions."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction
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
                    for i in r.items
                ],
            }
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


def sheet_text(sheet: Sheet, file: str) -> str:
    """The score sheet for people: per round the itemised points, then totals, ranking, winner."""
    s = sheet.session
    game = GAMES[s.game]
    names = {p: inert(p) for p in s.players}
    column = max(width(n) for n in names.values())
    out: list[str] = []
    head = f"{s.title} — {game.name}" if s.title else game.name
    out.append(head)
    out.append(f"{file} · players: {', '.join(s.players)}")
    for r in sheet.rounds:
        state = "" if r.complete else "  (not finished)"
        out.append("")
        out.append(f"Round {r.number} — first player: {r.first_player}{state}")
        for p in s.players:
            out.append(f"  {ljust(names[p], column)}  {fmt(r.points[p]):>6}")
            for item in (i for i in r.items if i.player == p):
                out.append(f"  {'':<{column}}  {fmt(item.points, signed=True):>6}  {item.category:<18} {item.why}")
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
        out.extend(f"  {w.warning_text()}" for w in sheet.warnings)
    return "\n".join(out)


@dataclass
class PlayerStats:
    """One player's record at one game."""

    name: str
    plays: int = 0
    wins: int = 0
    scores: list[Fraction] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        """The JSON of `stats --json` for this player."""
        mean = sum(self.scores, Fraction(0)) / len(self.scores) if self.scores else Fraction(0)
        return {
            "player": self.name,
            "plays": self.plays,
            "wins": self.wins,
            "win_rate": round(self.wins / self.plays, 4) if self.plays else 0.0,
            "mean": round(float(mean), 2),
            "best": to_json(max(self.scores)) if self.scores else None,
        }


def standings(sheets: list[Sheet]) -> dict[str, list[PlayerStats]]:
    """Per game and player, over finished sessions: plays, wins, scores (names match ignoring case)."""
    table: dict[str, dict[str, PlayerStats]] = defaultdict(dict)
    for sheet in sheets:
        if not sheet.complete:
            continue
        per_game = table[sheet.session.game]
        for p in sheet.session.players:
            st = per_game.setdefault(p.casefold(), PlayerStats(p))
            st.plays += 1
            st.wins += p in sheet.winners
            st.scores.append(sheet.totals[p])
    ordered: dict[str, list[PlayerStats]] = {}
    for game_id in GAMES:
        if game_id in table:
            ordered[game_id] = sorted(
                table[game_id].values(),
                key=lambda s: (-s.wins / s.plays, -s.wins, -float(sum(s.scores)) / len(s.scores), s.name.casefold()),
            )
    return ordered
