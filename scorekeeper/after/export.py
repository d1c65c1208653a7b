"""A scored session in other formats: CSV, a Markdown score sheet, a BG Stats play (push-a-play link), JSON, and
plain text to paste in a group chat."""

from __future__ import annotations

import json
import os
from datetime import datetime
from typing import Any

from scorekeeper.games.base import Sheet
from scorekeeper.model.points import fmt, to_json
from scorekeeper.model.text import inert

FORMATS = ("csv", "md", "bgstats", "json", "text")
"""The formats of `scorekeeper export --to`."""

BGSTATS_URL = "https://app.bgstatsapp.com/createPlay.html?data="
SOURCE_NAME = "scorekeeper"

LINK_SAFE = '{}[]:,"'
"""JSON's own delimiters, left as they are in the link's query: a phone's browser encodes them as it opens the
link, and the QR code is some 4 versions smaller for it (everything else, non-ASCII too, is percent-encoded)."""

CSV_HEADER = ("file", "game", "title", "date", "player", "round", "category", "points", "why", "board")


def _date(sheet: Sheet) -> str:
    """The session's `started` as text (`2026-11-27 19:30:00`, `2026-11-27`), or ""."""
    started = sheet.session.started
    return started.isoformat(sep=" ") if isinstance(started, datetime) else started.isoformat() if started else ""


def _cell(text: str) -> str:
    """A text cell a spreadsheet shows as text: one starting like a formula gets a leading apostrophe."""
    return "'" + text if text[:1] in FORMULA_STARTS else text


FORMULA_STARTS = frozenset("=+-@\t\r|%\uff1d\uff0b\uff0d\uff20")
"""First characters a spreadsheet may take for a formula or a command: `= + - @`, tab, CR, `|` and `%` (DDE and
macros), and the fullwidth `＝ ＋ － ＠` that some spreadsheets read as their ASCII twins."""


def shown_file(file: str) -> str:
    """A session's file name as an export shows it: escaped as the home list shows it, so a byte of a name that is
    not UTF-8 is `\\x9b` (never the lone surrogate `\\udc9b` that stands for it, nor a raw byte), a control `\\x0a`."""
    return inert(file)


def csv_rows(sheet: Sheet, file: str) -> list[list[str]]:
    """One row per player, round and category: points (`2.5`) and the reasons, joined by `; `; last, the board
    (a key of the game's `boards`; empty for a game without boards)."""
    from scorekeeper.games import GAMES

    s = sheet.session
    board = GAMES[s.game].board_key(s.rules) or ""
    file = shown_file(file)
    rows: list[list[str]] = []
    for rnd in sheet.rounds:
        grouped: dict[tuple[str, str], list[Any]] = {}
        for item in rnd.items:
            slot = grouped.setdefault((item.player, item.category), [0, []])
            slot[0] += item.points
            slot[1].append(item.why)
        for player in s.players:
            for (who, category), (points, whys) in grouped.items():
                if who == player:
                    rows.append([_cell(file), s.game, _cell(s.title or ""), _date(sheet), _cell(player),
                                 str(rnd.number), category, fmt(points), _cell("; ".join(whys)), board])
    return rows


def to_csv(sheets: list[tuple[Sheet, str]], *, bom: bool = False) -> str:
    """CSV of one or more sessions (a header, then `csv_rows`), RFC 4180 quoting, CRLF line ends; with `bom`
    a byte-order mark first, so a spreadsheet opening the file reads it as UTF-8."""
    import csv
    import io

    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(CSV_HEADER)
    for sheet, file in sheets:
        writer.writerows(csv_rows(sheet, file))
    return ("\ufeff" if bom else "") + out.getvalue()


def md_text(text: str) -> str:
    """Text shown literally in Markdown (a table cell too): one line, the characters that make emphasis, code,
    links or cells backslash-escaped, `<`, `>` and `&` as entities."""
    text = " ".join(text.split())
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    out = []
    for ch in text:
        if ch in "\\`*_[]|~":
            out.append("\\" + ch)
        else:
            out.append(ch)
    return _no_autolink("".join(out))


def _no_autolink(text: str) -> str:
    """Break what a Markdown renderer would turn into a link (`http://…`, `www.…`, `ana@example.com`) with
    backslash escapes: `:\\/\\/`, `www\\.`, `\\@`; the text shows the same once rendered."""
    import re

    if "://" not in text and "@" not in text and "www." not in text.lower():
        return text
    text = text.replace("://", ":\\/\\/").replace("@", "\\@")
    return re.sub(r"(?i)(www)\.", r"\1\\.", text)


def to_markdown(sheet: Sheet, file: str) -> str:
    """The score sheet in Markdown: a table of rounds and totals by place, the result, points by category (headed
    by the category's words, `#1 Pie`, `Longest route bonus`; the CSV keeps the ids)."""
    from scorekeeper.games import GAMES

    s = sheet.session
    game = GAMES[s.game]
    board = game.board_name(s.rules)
    name = f"{game.name} · {board}" if board else game.name
    head = f"{md_text(s.title)} — {md_text(name)}" if s.title else md_text(name)
    lines = [f"## {head}", ""]
    meta = [f"Players: {', '.join(md_text(p) for p in s.players)}"]
    if s.started is not None:
        meta.insert(0, f"Played: {md_text(_date(sheet))}")
    lines += [" · ".join(meta), ""]
    rounds = [f"R{r.number}" for r in sheet.rounds]
    lines.append("| Place | Player | " + " | ".join(rounds) + (" | " if rounds else "") + "Total |")
    lines.append("|---:|---|" + "---:|" * len(rounds) + "---:|")
    for pl in sheet.ranking:
        for p in pl.players:
            cells = [fmt(r.points[p]) for r in sheet.rounds]
            lines.append(f"| {pl.place} | {md_text(p)} | " + " | ".join(cells) + (" | " if cells else "")
                         + f"**{fmt(pl.total)}** |")
    lines.append("")
    who = ", ".join(md_text(w) for w in sheet.winners)
    if sheet.complete:
        lines.append(f"**Winner: {who}**" if len(sheet.winners) == 1 else f"**Shared victory: {who}**")
    else:
        lines.append(f"Leading: {who} (not finished)")
    if sheet.tiebreak:
        lines.append(f"Tie-break: {md_text(sheet.tiebreak)}")
    if sheet.next:
        lines.append(f"Next: {md_text(sheet.next)}")
    categories: list[str] = []
    by: dict[tuple[str, str], Any] = {}
    for rnd in sheet.rounds:
        for item in rnd.items:
            if item.category not in categories:
                categories.append(item.category)
            by[item.player, item.category] = by.get((item.player, item.category), 0) + item.points
    if categories:
        lines += ["", "Where the points came from:", ""]
        lines.append("| Player | " + " | ".join(md_text(category_name(sheet, c)) for c in categories) + " |")
        lines.append("|---|" + "---:|" * len(categories))
        for p in s.players:
            cells = [fmt(by[p, c]) if (p, c) in by else "" for c in categories]
            lines.append(f"| {md_text(p)} | " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def category_name(sheet: Sheet, category: str) -> str:
    """A category as the table says it: the title of the walkthrough step that scores it (`#4 Pie`, `Longest
    path`, `Demolition Derby`), a bonus by its measure (`Longest route bonus`); never an id (`attraction:4`)."""
    from scorekeeper.games import GAMES

    return GAMES[sheet.session.game].category_name(sheet.session, category)


def to_text(sheet: Sheet, file: str) -> str:
    """The result as plain text to paste in a group chat: the game and title, the places with their points, who
    won and how a tie was settled, each round's points, and where each player's points came from — no Markdown
    (chat apps do not draw tables), the category names the table says."""
    from scorekeeper.games import GAMES

    s = sheet.session
    game = GAMES[s.game]
    def pts(value: Any, signed: bool = False) -> str:
        return fmt(value, signed=signed, half="½")

    lines = [f"{s.title} — {game.name}" if s.title else game.name]
    when = _date(sheet)
    lines.append(" · ".join(part for part in (f"Played {when[:16]}" if when else "", ", ".join(s.players)) if part))
    lines.append("")
    if sheet.complete:
        if len(sheet.winners) == 1:
            lines.append(f"{sheet.winners[0]} won with {pts(sheet.totals[sheet.winners[0]])}")
        else:
            lines.append(f"{', '.join(sheet.winners)} share the victory with {pts(sheet.totals[sheet.winners[0]])}")
    else:
        lead = sheet.winners
        lines.append(f"Not finished: {', '.join(lead)} {'leads' if len(lead) == 1 else 'lead'}"
                     + (f"; next: {sheet.next}" if sheet.next else ""))
    if sheet.tiebreak:
        lines.append(f"Tie-break: {sheet.tiebreak}")
    lines.append("")
    for place in sheet.ranking:
        for player in place.players:
            why = f" ({place.why})" if place.why and not (sheet.tiebreak or "").startswith(place.why) else ""
            lines.append(f"{place.place}. {player} {pts(place.total)}{why}")
    if len(sheet.rounds) > 1:
        lines.append("")
        for rnd in sheet.rounds:
            done = "" if rnd.complete else " (not finished)"
            lines.append(f"Round {rnd.number}{done}: " + ", ".join(f"{p} {pts(rnd.points[p])}" for p in s.players))
    order = {c: i for i, c in enumerate(c for step in game.steps(s) for c in step.categories)}
    shares: dict[str, dict[str, Any]] = {p: {} for p in s.players}
    for rnd in sheet.rounds:
        for item in rnd.items:
            if item.points:
                shares[item.player][item.category] = shares[item.player].get(item.category, 0) + item.points
    if any(shares.values()):
        lines += ["", "Where the points came from:"]
        for player in s.players:
            named: dict[str, Any] = {}
            for category in sorted(shares[player], key=lambda c: order.get(c, len(order))):
                name = category_name(sheet, category)
                named[name] = named.get(name, 0) + shares[player][category]
            parts = [f"{name} {pts(value, signed=True)}" for name, value in named.items()]
            lines.append(f"{player}: {', '.join(parts) if parts else 'nothing scored'}")
    return "\n".join(lines) + "\n"


def play_id(sheet: Sheet, file: str) -> str:
    """A stable id for the session's play, one per session: the game, the players and the start when it is a time
    of day (a session renamed is the same play); the file's name too when the start is only a day or missing, so
    two plays of one day with the same players are two plays. 64 bits, without a prefix (`sourceName` says whose
    id it is): the code stays small."""
    import hashlib

    s = sheet.session
    started = _date(sheet) if isinstance(s.started, datetime) else [_date(sheet), os.path.basename(file)]
    basis = json.dumps([s.game, started, list(s.players)], ensure_ascii=False)
    # surrogateescape: a file name that is not UTF-8 hashes as its bytes (every other name as before)
    return hashlib.sha256(basis.encode("utf-8", "surrogateescape")).hexdigest()[:16]


def bgstats_game(game_id: str, rules: dict[str, Any] | None = None) -> dict[str, Any]:
    """The `game` of a BG Stats play: name, `highestWins`, `bggId` where known (`Game.bgstats_game`: a board may
    be a game of its own on BoardGameGeek)."""
    from scorekeeper.games import GAMES

    bgg_id, name = GAMES[game_id].bgstats_game(rules or {})
    game: dict[str, Any] = {"name": name, "highestWins": True}
    if bgg_id is not None:
        game["bggId"] = bgg_id
    return game


def bgstats_play(sheet: Sheet, file: str) -> dict[str, Any]:
    """The play as BG Stats takes it: sourceName, sourcePlayId, playDate, game, players (`file`: the session's
    path, whose modification time dates a session without `started`).

    `playDate` is BG Stats' documented `YYYY-MM-DD HH:MM:SS`, the local time of the table as the session holds
    it (a session's `started` has no time zone to convert from). Only what BG Stats needs, so that the code of a
    4-player game fits a 40-row terminal: no `sourceGameId` nor `sourcePlayerId` (BG Stats matches the game by
    its name and BoardGameGeek id, the players by name), `winner` and `startPlayer` only when true, no `noPoints`."""
    s = sheet.session
    started = s.started
    if started is None:  # the file's modification time stands for the date of play
        try:
            started = datetime.fromtimestamp(os.stat(file).st_mtime).replace(microsecond=0)
        except OSError:
            started = None
    if started is None:
        play_date = ""
    elif isinstance(started, datetime):
        play_date = f"{started:%Y-%m-%d %H:%M:%S}"
    else:
        play_date = f"{started:%Y-%m-%d} 00:00:00"
    places = {p: pl.place for pl in sheet.ranking for p in pl.players}
    first = sheet.rounds[0].first_player if sheet.rounds else s.players[0]
    play: dict[str, Any] = {"sourceName": SOURCE_NAME, "sourcePlayId": play_id(sheet, file)}
    if play_date:
        play["playDate"] = play_date
    play["game"] = bgstats_game(s.game, s.rules)
    players = []
    for p in s.players:
        row: dict[str, Any] = {"name": p, "score": to_json(sheet.totals[p]), "rank": places[p]}
        if sheet.complete and p in sheet.winners:
            row["winner"] = True
        if p == first:
            row["startPlayer"] = True
        players.append(row)
    play["players"] = players
    return play


def bgstats_link(sheet: Sheet, file: str) -> str:
    """The BG Stats push-a-play link: the play's JSON, URL-encoded but for `LINK_SAFE`, after `?data=`."""
    from urllib.parse import quote

    data = json.dumps(bgstats_play(sheet, file), ensure_ascii=False, separators=(",", ":"))
    return BGSTATS_URL + quote(data, safe=LINK_SAFE)


def export(sheets: list[tuple[Sheet, str]], to: str, *, bom: bool = False) -> str:
    """Sessions in one format as text: csv (one table), md (sheets one after another), bgstats (a link per
    line), json (the `score --json` object, or an array for several), text (for a group chat, one after
    another). `bom`: see `to_csv`."""
    if to == "csv":
        return to_csv(sheets, bom=bom)
    if to == "md":
        return "\n---\n\n".join(to_markdown(sheet, file) for sheet, file in sheets)
    if to == "bgstats":
        return "".join(bgstats_link(sheet, file) + "\n" for sheet, file in sheets)
    if to == "text":
        return "\n\n".join(to_text(sheet, file) for sheet, file in sheets)
    if to == "json":
        from scorekeeper.after.report import sheet_json

        objects = [sheet_json(sheet, shown_file(file)) for sheet, file in sheets]
        payload: Any = objects[0] if len(objects) == 1 else objects
        return json.dumps(payload, ensure_ascii=False, indent=2) + "\n"
    raise ValueError(f"unknown format {to!r}; expected one of {', '.join(FORMATS)}")
