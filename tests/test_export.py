"""Exports: CSV, Markdown, BG Stats and JSON of the samples, and names that try to break each format."""

from __future__ import annotations

import csv
import io
import json
import os
from datetime import date, datetime
from fractions import Fraction
from pathlib import Path
from urllib.parse import unquote

import pytest

from scorekeeper import files, games, store
from scorekeeper.after.export import (
    BGSTATS_URL,
    bgstats_link,
    bgstats_play,
    export,
    to_csv,
    to_markdown,
)
from scorekeeper.cli import main
from scorekeeper.model.session import Session

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
THREE = SAMPLES / "ticket-booth-3p.toml"
HOSTILE = ('Ana, "the" 🎲', "[bold]Bo[/bold] <b>|x|</b>", "=HYPERLINK(\"x\")", "Cy\nDee")


def sheet_of(path: Path):
    session, problems = files.load(path)
    return games.score(session, problems)


def hostile_sheet():
    """A Ticket to Mars round with hostile names (the newline one can only come from code, never a file)."""
    session = Session(game="ticket-to-mars", players=HOSTILE, title="Night | *one* \"two\"",
                      started=datetime(2026, 11, 27, 19, 30))
    for i, name in enumerate(HOSTILE):
        session = session.with_value(1, name, "pairs", {"count": i + 1, "each": 3})
    return games.score(session, [])


def test_csv_of_a_sample_by_hand():
    text = to_csv([(sheet_of(THREE), "ticket-booth-3p.toml")])
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["file", "game", "title", "date", "player", "round", "category", "points", "why", "board"]
    body = rows[1:]
    assert {r[9] for r in body} == {""}  # The Ticket Booth has no board
    # #1 has one card: Cy holds it in round 1 (all the cards: 2 x 1 = 2 points).
    assert ["ticket-booth-3p.toml", "ticket-booth", "Friday at Mia's", "2026-11-27 19:30:00", "Cy", "1",
            "attraction:1", "2"] == body[[r[4:7] for r in body].index(["Cy", "1", "attraction:1"])][:8]
    # Every player's rows add up to the totals: Ana 76, Bo 95.5, Cy 60.
    totals: dict[str, Fraction] = {}
    for r in body:
        totals[r[4]] = totals.get(r[4], Fraction(0)) + Fraction(r[7])
    assert totals == {"Ana": 76, "Bo": Fraction(191, 2), "Cy": 60}
    # One row per player, round and category.
    assert len({tuple(r[4:7]) for r in body}) == len(body)


def test_hostile_names_survive_csv():
    text = to_csv([(hostile_sheet(), "x.toml")], bom=True)
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text[1:])))
    names = [r[4] for r in rows[1:]]
    # A cell starting like a formula gets a leading apostrophe, so a spreadsheet shows it as text.
    assert names == [HOSTILE[0], HOSTILE[1], "'" + HOSTILE[2], HOSTILE[3]]
    assert rows[1][2] == 'Night | *one* "two"'
    assert [r[7] for r in rows[1:]] == ["3", "6", "9", "12"]


def md_cells(line: str) -> list[str]:
    """The cells of a Markdown table row, splitting on pipes that are not escaped."""
    cells, cur, escaped = [], "", False
    for ch in line.strip()[1:-1]:
        if ch == "|" and not escaped:
            cells.append(cur)
            cur = ""
        else:
            cur += ch
        escaped = ch == "\\" and not escaped
    return [*cells, cur]


def test_markdown_sheet_of_a_sample():
    text = to_markdown(sheet_of(THREE), "ticket-booth-3p.toml")
    assert text.startswith("## Friday at Mia's — The Ticket Booth\n")
    # Bo won 43 + 32 + 20.5 = 95.5 (the rounds of the score sheet).
    assert "| 1 | Bo | 43 | 32 | 20.5 | **95.5** |" in text
    assert "**Winner: Bo**" in text


def test_hostile_names_survive_markdown():
    text = to_markdown(hostile_sheet(), "x.toml")
    table = [line for line in text.splitlines() if line.startswith("| ")]
    widths = {len(md_cells(line)) for line in table[:5]}  # the header and a row per player
    assert widths == {4}  # place, player, R1, total: no name adds or removes a cell
    assert "<b>" not in text and "&lt;b&gt;" in text
    assert "\\[bold\\]Bo\\[/bold\\]" in text and "Cy Dee" in text  # a newline becomes a space
    assert "Night \\| \\*one\\* \"two\"" in text


def test_bgstats_play_and_link():
    sheet = sheet_of(THREE)
    play = bgstats_play(sheet, "ticket-booth-3p.toml")
    assert play["sourceName"] == "scorekeeper" and play["playDate"] == "2026-11-27 19:30:00"
    assert play["game"] == {"name": "The Ticket Booth", "highestWins": True}
    # Ana starts round 1 (the oldest, first in seating order); Bo wins with 95.5, Ana 76 second, Cy 60 third.
    # Only what BG Stats needs: `winner` and `startPlayer` when true.
    assert play["players"] == [
        {"name": "Ana", "score": 76, "rank": 2, "startPlayer": True},
        {"name": "Bo", "score": 95.5, "rank": 1, "winner": True},
        {"name": "Cy", "score": 60, "rank": 3},
    ]
    link = bgstats_link(sheet, "ticket-booth-3p.toml")
    assert link.startswith(BGSTATS_URL) and " " not in link and "&" not in link[len(BGSTATS_URL):]
    assert json.loads(unquote(link[len(BGSTATS_URL):])) == play
    # JSON's delimiters stay as they are (a phone's browser encodes them): `{"sourceName":"scorekeeper",`.
    assert link[len(BGSTATS_URL):].startswith('{"sourceName":"scorekeeper","sourcePlayId":"')
    ride = bgstats_play(sheet_of(SAMPLES / "ticket-to-ride-4p.toml"), "r.toml")
    assert ride["game"]["bggId"] == 9209


def test_bgstats_date_without_started_is_the_files(tmp_path):
    path = tmp_path / "undated.toml"
    session = Session(game="ticket-to-mars", players=("Ana", "Bo"))
    for name, count in (("Ana", 2), ("Bo", 1)):
        session = session.with_value(1, name, "pairs", {"count": count, "each": 3})
    store.save(path, session)
    when = datetime(2026, 3, 1, 20, 15)
    os.utime(path, (when.timestamp(), when.timestamp()))
    assert bgstats_play(sheet_of(path), str(path))["playDate"] == "2026-03-01 20:15:00"


def test_bgstats_id_is_stable_per_session():
    sheet = sheet_of(THREE)
    first = bgstats_play(sheet, "a/ticket-booth-3p.toml")["sourcePlayId"]
    # The same session, renamed and with a round changed, is the same play; another session is another.
    changed = games.score(sheet.session.with_value(3, "Ana", "tickets", 3), [])
    assert bgstats_play(changed, "b/renamed.toml")["sourcePlayId"] == first
    assert bgstats_play(sheet_of(SAMPLES / "ticket-booth-shared.toml"), "x")["sourcePlayId"] != first


def test_hostile_names_survive_bgstats_and_json():
    sheet = hostile_sheet()
    link = bgstats_link(sheet, "x.toml")
    assert "\n" not in link and "|" not in link and "&" not in link and "#" not in link and " " not in link
    play = json.loads(unquote(link[len(BGSTATS_URL):]))
    assert [p["name"] for p in play["players"]] == list(HOSTILE)
    data = json.loads(export([(sheet, "x.toml")], "json"))
    assert data["players"] == list(HOSTILE) and data["totals"][HOSTILE[3]] == 12


def test_export_command(tmp_path, capsys):
    out = tmp_path / "plays.csv"
    assert main(["export", str(THREE), str(SAMPLES / "ticket-to-ride-4p.toml"), "--to", "csv", "-o", str(out)]) == 0
    rows = list(csv.reader(io.StringIO(out.read_text("utf-8-sig"))))
    assert {r[1] for r in rows[1:]} == {"ticket-booth", "ticket-to-ride"}
    assert main(["export", str(THREE), "--to", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["totals"]["Bo"] == 95.5
    assert main(["export", str(THREE), "--to", "bgstats"]) == 0
    assert capsys.readouterr().out.startswith(BGSTATS_URL)
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 1\n")
    assert main(["export", str(bad), "--to", "md"]) == 2
    assert "bad.toml" in capsys.readouterr().err


@pytest.mark.parametrize("fmt", ["xml", ""])
def test_export_unknown_format_is_a_usage_error(fmt, capsys):
    assert main(["export", str(THREE), "--to", fmt]) == 1
    assert "Traceback" not in capsys.readouterr().err


def test_bgstats_ids_one_per_session_and_per_player(tmp_path):
    # Two plays on the same day (no time of day) with the same players: two plays, not one.
    paths = []
    for name in ("first.toml", "second.toml"):
        session = Session(game="ticket-to-mars", players=("Ana", "Bo"), started=date(2026, 3, 1))
        session = session.with_value(1, "Ana", "pairs", {"count": 2, "each": 3})
        store.save(tmp_path / name, session)
        paths.append(tmp_path / name)
    a, b = (bgstats_play(sheet_of(p), str(p)) for p in paths)
    assert a["playDate"] == b["playDate"] == "2026-03-01 00:00:00"
    assert a["sourcePlayId"] != b["sourcePlayId"]
    assert len(a["sourcePlayId"]) == 16 and a["game"] == {"name": "Ticket to Mars", "highestWins": True}


def test_exports_name_the_ticket_to_ride_board():
    """CSV's last column and the Markdown heading name the board: Europe, Nordic Countries, the USA map, none."""
    for name, key, label in (("ticket-to-ride-europe-4p.toml", "europe", "Europe"),
                             ("ticket-to-ride-nordic-2p.toml", "nordic", "Nordic Countries"),
                             ("ticket-to-ride-usa-4p.toml", "usa", "USA map"),
                             ("ticket-to-ride-4p.toml", "none", "no board")):
        sheet = sheet_of(SAMPLES / name)
        rows = list(csv.reader(io.StringIO(to_csv([(sheet, name)]))))
        assert rows[0][9] == "board" and {r[9] for r in rows[1:]} == {key}, name
        head = to_markdown(sheet, name).splitlines()[0]
        assert head.endswith(f"— Ticket to Ride · {label}"), head
