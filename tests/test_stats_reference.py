"""The statistics of generated folders against an independent recomputation from each session's `score --json`.

Folders of 5 to 30 sessions of every game and Ticket to Ride board (names written in NFC, NFD and other cases,
ties, unfinished games, dates over three years; Europe and Nordic games on the map); every figure recounted here
from the score sheets, by other means than stats.py (Decimal rounding, plain lists), and compared: the start
player's plays and wins too (the first player of round 1 in the sheet), and Ticket to Ride per board (plays,
players, Europe's stations built from the sheet's station uses, Nordic's Globetrotter from its items).
"""

from __future__ import annotations

import random
import unicodedata
from datetime import date, datetime, timedelta
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

import tomli_w
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper import files, games
from scorekeeper.after.report import sheet_json
from scorekeeper.after.stats import statistics as typed_statistics
from scorekeeper.after.stats_model import json_data
from scorekeeper.index.indexing import summarize
from tests.reference_boards import random_game
from tests.reference_model import GENS


def statistics(*args: Any, **kwargs: Any) -> Any:
    """The statistics as the JSON data `stats --json` prints (what these tests read)."""
    return json_data(typed_statistics(*args, **kwargs))

VARIANTS = {
    "Ana": ["Ana", "ANA", "ana"],
    "Bo": [unicodedata.normalize("NFC", "Zoë"), unicodedata.normalize("NFD", "Zoë"), "ZOË"],
    "Cy": ["Cy", "CY"],
    "Dee": ["Dee"],
    "Eli": ["Éli", unicodedata.normalize("NFD", "Éli"), "éLI"],
}


def key(name: str) -> str:
    return unicodedata.normalize("NFC", name).casefold()


def renamed(value: Any, names: dict[str, str]) -> Any:
    """The document with every player name (as a value or a key) written as `names` says."""
    if isinstance(value, dict):
        return {names.get(k, k): renamed(v, names) for k, v in value.items()}
    if isinstance(value, list):
        return [renamed(v, names) for v in value]
    return names.get(value, value) if isinstance(value, str) else value


def folder_of(rng: random.Random, where: Path) -> list[Path]:
    paths = []
    for i in range(rng.randint(5, 30)):
        kind = rng.choice([*sorted(GENS), "europe", "nordic"])
        if kind in GENS:
            doc = GENS[kind](rng)
        else:
            players, entries = random_game(kind, rng)
            if rng.random() < 0.2:  # a game left unfinished: one player's entry missing
                entries.pop(players[-1])
            doc = {"format": 1, "game": "ticket-to-ride", "players": players, "rules": {"map": kind},
                   "rounds": [{"players": entries}]}
        names = {n: rng.choice(VARIANTS[n]) for n in doc["players"] if n in VARIANTS}
        doc = renamed(doc, names)
        day = date(2024, 1, 1) + timedelta(days=rng.randint(0, 3 * 365))
        doc["started"] = day if rng.random() < 0.3 else datetime(day.year, day.month, day.day, rng.randint(0, 23),
                                                                   rng.choice((0, 30)))
        path = where / f"s{i:02d}.toml"
        path.write_text(tomli_w.dumps(doc), encoding="utf-8")
        paths.append(path)
    return paths


def two_places(value: Fraction) -> float:
    """Halves away from zero, to 2 places, through Decimal (not stats.round2)."""
    exact = Decimal(value.numerator) / Decimal(value.denominator)
    return float(exact.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))


def recount(paths: list[Path]) -> dict[str, Any]:
    """Every figure compared, from the score sheets."""
    plays = []
    unfinished = 0
    for path in paths:
        session, found = files.load(path)
        sheet = sheet_json(games.score(session, found), path.name)
        if not sheet["complete"]:
            unfinished += 1
            continue
        when = session.started.isoformat() if session.started else ""
        plays.append((when, path.name, sheet, dict(session.rules)))
    plays.sort(key=lambda p: (p[0], p[1]))
    per: dict[tuple[str, str], dict[str, Any]] = {}
    margins: dict[str, list[Fraction]] = {}
    level: dict[str, list[int]] = {}
    h2h: dict[tuple[str, str], list[int]] = {}
    months: dict[str, int] = {}
    starts: dict[tuple[str, str], list[int]] = {}  # (game or "", player) -> [plays as start player, wins]
    boards: dict[str, dict[str, Any]] = {}
    for when, _file, sheet, rules in plays:
        months[when[:7]] = months.get(when[:7], 0) + 1
        game = sheet["game"]
        start = key(sheet["rounds"][0]["first_player"])
        for scope in (game, ""):
            cell = starts.setdefault((scope, start), [0, 0])
            cell[0] += 1
            cell[1] += any(key(w) == start for w in sheet["winners"])
        if game == "ticket-to-ride":
            board = rules.get("map") or rules.get("edition") or "none"
            b = boards.setdefault(board, {"plays": 0, "players": {}, "stations": [0, 0, 0], "trotter": [0, 0]})
            b["plays"] += 1
            for p in sheet["players"]:
                row = b["players"].setdefault(key(p), [0, 0])
                row[0] += 1
                row[1] += p in sheet["winners"]
            items = [i for r in sheet["rounds"] for i in r["items"]]
            if board == "europe":
                for p in sheet["players"]:
                    built = len(sheet["rounds"][0]["board"][p].get("stations", []))
                    b["stations"][0] += 1
                    b["stations"][1] += built
                    b["stations"][2] += built < 3
            holders = {i["player"] for i in items if i["category"] == "globetrotter" and i["points"] > 0}
            if holders:
                b["trotter"][0] += 1
                b["trotter"][1] += bool(holders & set(sheet["winners"]))
        totals = {p: Fraction(str(t)) for p, t in sheet["totals"].items()}
        place = {p: pl["place"] for pl in sheet["ranking"] for p in pl["players"]}
        for p in sheet["players"]:
            row = per.setdefault((game, key(p)), {"scores": [], "wins": [], "counts": {}})
            row["scores"].append(totals[p])
            row["wins"].append(p in sheet["winners"])
            row["counts"].setdefault(len(sheet["players"]), []).append(totals[p])
        first = [p for p in sheet["players"] if place[p] == 1]
        best_other = max(totals[p] for p in sheet["players"] if p != first[0])
        shared_tied = level.setdefault(game, [0, 0])
        if len(sheet["winners"]) > 1:
            shared_tied[0] += 1
        elif totals[first[0]] == best_other:
            shared_tied[1] += 1
        # a tie on points (shared or tie-broken) is a closest finish of 0; the biggest margin is of a decided game
        margins.setdefault(game, []).append(totals[first[0]] - best_other)
        for a in sheet["players"]:
            for b in sheet["players"]:
                if key(a) < key(b):
                    cell = h2h.setdefault((key(a), key(b)), [0, 0, 0, 0])
                    cell[0] += 1
                    cell[1 if place[a] < place[b] else 2 if place[b] < place[a] else 3] += 1
    out: dict[str, Any] = {"sessions": len(plays), "unfinished": unfinished, "months": months, "players": {},
                           "margins": {}, "level": level, "h2h": h2h, "starts": starts, "boards": boards}
    for (game, who), row in per.items():
        streak = longest = 0
        for won in row["wins"]:
            streak = streak + 1 if won else 0
            longest = max(longest, streak)
        avg = Fraction(sum(row["scores"]), len(row["scores"]))
        out["players"][game, who] = {
            "plays": len(row["scores"]), "wins": sum(row["wins"]), "best": max(row["scores"]),
            "worst": min(row["scores"]), "average": avg if (avg * 2).denominator == 1 else two_places(avg),
            "longest_streak": longest,
            "by_count": {str(n): (lambda a: a if (a * 2).denominator == 1 else two_places(a))(
                Fraction(sum(v), len(v))) for n, v in row["counts"].items()}}
    for game, values in margins.items():
        out["margins"][game] = (max(values) if max(values) > 0 else None, min(values))
    return out


def as_exact(value: Any) -> Any:
    return Fraction(str(value)) if isinstance(value, float) and (Fraction(str(value)) * 2).denominator == 1 else value


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow,
                                                                 HealthCheck.function_scoped_fixture])
@given(seed=st.integers(0, 2**32))
def test_statistics_agree_with_a_recount(seed: int, tmp_path_factory) -> None:
    where = tmp_path_factory.mktemp("folder")
    paths = folder_of(random.Random(seed), where)
    result = statistics([summarize(p) for p in paths])
    want = recount(paths)
    assert (result["sessions"], result["unfinished"]) == (want["sessions"], want["unfinished"])
    assert result["plays_by_month"] == dict(sorted(want["months"].items()))
    got_players = {}
    for block in result["games"]:
        g = block["game"]
        for r in block["players"]:
            got_players[g, key(r["player"])] = {
                "plays": r["plays"], "wins": r["wins"], "best": as_exact(r["best"]), "worst": as_exact(r["worst"]),
                "average": as_exact(r["average"]), "longest_streak": r["longest_streak"],
                "by_count": {n: as_exact(v) for n, v in r["average_by_player_count"].items()}}
        shared, tied = want["level"].get(g, [0, 0])
        assert (block["shared_victories"], block["tie_broken_wins"]) == (shared, tied), g
        if g in want["margins"]:
            big, close = want["margins"][g]
            biggest = block["biggest_margin"]
            assert (Fraction(str(biggest["margin"])) if biggest else None) == big, g
            assert Fraction(str(block["closest_finish"]["margin"])) == close, g
        else:
            assert block["biggest_margin"] is None and block["closest_finish"] is None, g
    assert got_players == want["players"]
    got_h2h = {(key(h["player"]), key(h["opponent"])): [h["games"], h["above"], h["below"], h["level"]]
               for h in result["head_to_head"]}
    assert got_h2h == want["h2h"]
    # The start player's plays and wins, per game and over every game ("").
    got_starts = {(block["game"], key(r["player"])): [r["start_player"]["plays"], r["start_player"]["wins"]]
                  for block in result["games"] for r in block["players"] if r["start_player"]["plays"]}
    got_starts |= {("", key(r["player"])): [r["start_player"]["plays"], r["start_player"]["wins"]]
                   for r in result["players"] if r["start_player"]["plays"]}
    assert got_starts == want["starts"]
    # Ticket to Ride per board.
    ttr = next((b for b in result["games"] if b["game"] == "ticket-to-ride"), {"boards": []})
    got_boards = {b["board"]: b for b in ttr["boards"]}
    assert set(got_boards) == set(want["boards"])
    for name, b in want["boards"].items():
        got = got_boards[name]
        assert got["plays"] == b["plays"], name
        assert {key(r["player"]): [r["plays"], r["wins"]] for r in got["players"]} == b["players"], name
        if name == "europe":
            results, built, unused = b["stations"]
            assert (got["stations"]["results"], got["stations"]["built"], got["stations"]["unused"]) == (
                results, built, unused)
            assert Fraction(str(got["stations"]["average_built"])) == Fraction(two_places(Fraction(built, results))
                                                                               ).limit_denominator(100)
        if name == "nordic":
            assert [got["globetrotter"]["games"], got["globetrotter"]["holder_won"]] == b["trotter"]
    # One row per person, whichever way the name was written.
    for block in result["games"]:
        assert len({key(r["player"]) for r in block["players"]}) == len(block["players"])
