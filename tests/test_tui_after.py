"""After the game in the app: history, statistics, the charts in the standings, exports and the BG Stats QR code."""

from __future__ import annotations

import csv
import io
import json
import shutil
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.screen import Screen
from textual.widgets import OptionList, Static

from scorekeeper.after import export
from scorekeeper.cli import main
from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.export import ExportScreen
from scorekeeper.tui.screens.history import Filters, HistoryScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.statistics import StatisticsScreen
from scorekeeper.tui.widgets.bars import KeyBar, keys_text
from scorekeeper.tui.widgets.charts import ScoreCharts
from scorekeeper.tui.widgets.qr import QRCode, half_blocks, matrix, quadrants
from tests.test_tui_support import burst, pilot_test, running, settle

SAMPLES = Path(__file__).parent.parent / "sample_sessions"
FINISHED = len(list(SAMPLES.glob("*.toml"))) - 1
"""Every sample but ticket-booth-in-progress.toml is a finished game."""


@asynccontextmanager
async def opened(folder: Path, *keys: str, file: Path | None = None,
                 size: tuple[int, int] = (100, 30)) -> AsyncIterator[tuple[ScorekeeperApp, Pilot, Screen[Any]]]:
    """The app on the folder (or on one file of it), settled, after each key: the app, its pilot, the screen on top."""
    async with running(folder, file, size) as (app, pilot):
        for key in keys:
            await burst(pilot, key)
        yield app, pilot, app.screen



def listed(screen: HistoryScreen) -> list[str]:
    """The file names the history shows, top to bottom."""
    return [s.file for s in screen.shown]


@pilot_test
async def test_history_from_home_filter_by_player_and_open(folder: Path) -> None:
    """F2 opens History, newest first; picking Bo leaves his two games; Enter opens the standings; Esc comes back."""
    async with opened(folder, "f2") as (app, pilot, screen):
        assert isinstance(screen, HistoryScreen)
        assert len(screen.shown) == FINISHED
        assert listed(screen)[:2] == ["ticket-booth-3p.toml", "ticket-booth-tiebreak.toml"]
        assert "ticket-booth-in-progress.toml" not in listed(screen)
        assert f"{FINISHED} finished sessions" in str(screen.query_one("#history-count", Static).render())
        await burst(pilot, "p", "bo", "enter")  # the picker opens and takes what follows at once
        assert listed(screen) == ["ticket-booth-3p.toml", "ticket-booth-tiebreak.toml"]
        assert f"2 of {FINISHED} finished sessions" in str(screen.query_one("#history-count", Static).render())
        assert app.focused is screen.query_one("#plays", OptionList)
        await burst(pilot, "down", "enter")
        assert isinstance(app.screen, StandingsScreen)
        assert app.screen.doc.path == folder / "ticket-booth-tiebreak.toml"
        await burst(pilot, "escape")
        assert app.screen is screen
        assert listed(screen) == ["ticket-booth-3p.toml", "ticket-booth-tiebreak.toml"]
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)


@pilot_test
async def test_history_filters_by_game_and_period(folder: Path) -> None:
    """Ticket to Mars: three games; this month (the clock says 2026-11-27): only 27 November."""
    async with opened(folder) as (app, pilot, screen):
        app.push_screen(HistoryScreen(game="ticket-to-mars"))
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, HistoryScreen)
        assert sorted(listed(screen)) == ["ticket-to-mars-extra-round.toml", "ticket-to-mars-one-round.toml",
                                          "ticket-to-mars-two-rounds.toml"]
        app.pop_screen()
        app.push_screen(HistoryScreen(period="month"))
        await settle(pilot)
        assert listed(app.screen) == ["ticket-booth-3p.toml"]  # type: ignore[attr-defined]


@pilot_test
async def test_history_names_are_shown_literally(tmp_path: Path) -> None:
    """A player called `[b]Bo[/b]` is listed as typed, not in bold."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    text = (SAMPLES / "ticket-to-mars-one-round.toml").read_text()
    first = text.split("players = [")[1].split(",")[0].strip().strip('"')
    (folder / "odd.toml").write_text(text.replace(f'"{first}"', '"[b]Bo[/b]"')
                                     .replace(f"players.{first}]", 'players."[b]Bo[/b]"]'))
    async with opened(folder, "f2") as (app, pilot, screen):
        assert isinstance(screen, HistoryScreen)
        assert len(screen.shown) == 1
        shown = screen.query_one("#plays", OptionList).get_option_at_index(0).prompt
        assert "[b]Bo[/b]" in str(shown)


@pilot_test
async def test_statistics_of_bo_worked_out_by_hand(folder: Path) -> None:
    """Bo played two Ticket Booth games and won both: 95½ (3 players) and 71 (4 players, won on the tie-break).

    Average (95½ + 71) / 2 = 83.25, best 95½, worst 71, streak 2; above Ana and Cy twice, above Dee once.
    """
    async with opened(folder, "f3", size=(100, 40)) as (app, pilot, screen):
        assert isinstance(screen, StatisticsScreen)
        assert screen.plain().splitlines()[0] == f"{FINISHED} finished sessions (1 unfinished not counted)"
        await burst(pilot, "p", "bo", "enter")  # the picker opens and takes what follows at once
        text = screen.plain()
        lines = text.splitlines()
        assert lines[0] == "2 finished sessions"
        assert "The Ticket Booth — 2 plays" in lines
        row = next(line for line in lines if line.startswith("Bo "))
        assert row.split() == ["Bo", "2", "2", "100%", "83.25", "95½", "71", "2"]
        by_count = lines[lines.index(row) + 3]
        assert by_count.split() == ["Bo", "95½", "71"]
        assert "Biggest winning margin: 19½ — Bo over Ana, 2026-11-27" in lines  # 95½ - 76
        # The closest finish: 71 to 71, settled by the last round (a tie on points is the closest there is).
        assert "Closest finish: 0 — level on 71, Bo over Ana on the tie-break, 2026-10-02" in lines
        assert "Level on points at the top: 1 win on a tie-break" in lines
        # The player's page: 2 plays, 2 wins, a streak of 2 still running; nobody ahead of Bo, so no rival.
        page = lines[lines.index("Bo across games"):lines.index("Head to head (places, every game)")]
        assert page[1] == "2 plays, 2 wins (100%); winning streak 2 now, 2 at the longest"
        # Ana is seated first (starts) in both of Bo's games: Bo never started one.
        assert page[2] == "As start player (first in round 1): 0 plays, 0 wins (0%)"
        assert page[4].split() == ["The", "Ticket", "Booth", "2", "2", "100%", "0", "of", "0"]
        assert page[5] == "By players at the table: 3 players 1/1 (100%) · 4 players 1/1 (100%)"
        assert not any(line.startswith(("Rival", "Nemesis")) for line in page)
        h2h = lines[lines.index("Head to head (places, every game)") + 1:-3]
        # Then plays by year and month: 2026-10-02 and 2026-11-27.
        assert lines[-3:] == ["", "Plays by year: 2026 2", "Plays by month: 2026-10 1 · 2026-11 1"]
        assert [line.split() for line in h2h] == [
            ["Player", "Opponent", "Games", "Above", "Below", "Level"],
            ["Bo", "Ana", "2", "2", "0", "0"], ["Bo", "Cy", "2", "2", "0", "0"], ["Bo", "Dee", "1", "1", "0", "0"]]


@pilot_test
async def test_charts_in_the_standings(folder: Path) -> None:
    """The standings of a finished Ticket Booth game hold both charts, with the figures as text; c scrolls to them."""
    async with opened(folder, file=folder / "ticket-booth-3p.toml", size=(80, 24)) as (app, pilot, screen):
        assert isinstance(screen, StandingsScreen)
        assert "c Charts" in keys_text(screen.query_one(KeyBar))
        await burst(pilot, "c")
        chart = screen.query_one("#charts", ScoreCharts)
        assert chart.region.y < 24 and chart.region.bottom > 0  # on screen
        text = chart.plain()
        assert "Running totals, round by round" in text and "Where the points came from" in text
        assert all(len(line) <= chart.content_region.width for line in text.splitlines())
        bo = [line for line in text.splitlines() if "Bo " in line]
        assert bo[2].split()[-3:] == ["95½", "+20½", "leads"]  # round 3: 75 + 20½


@pilot_test
async def test_export_writes_files_and_shows_the_bgstats_qr(folder: Path) -> None:
    """x on the standings; c, m, j write the files to exports/; b draws the QR code of the BG Stats link."""
    path = folder / "ticket-booth-3p.toml"
    async with opened(folder, "x", file=path, size=(120, 50)) as (app, pilot, screen):
        assert isinstance(screen, ExportScreen)
        await burst(pilot, "c", "m", "j")
        out = folder / "exports"
        assert sorted(p.name for p in out.iterdir()) == ["ticket-booth-3p.csv", "ticket-booth-3p.json",
                                                         "ticket-booth-3p.md"]
        # A byte-order mark, as `scorekeeper export -o` writes: the same file from the app and the command.
        assert (out / "ticket-booth-3p.csv").read_bytes().startswith(b"\xef\xbb\xbf")
        assert main(["export", str(path), "--to", "csv", "-o", str(folder / "cli.csv")]) == 0
        cli = (folder / "cli.csv").read_bytes().replace(str(path).encode(), path.name.encode())  # the file column
        assert cli == (out / "ticket-booth-3p.csv").read_bytes()
        rows = list(csv.reader(io.StringIO((out / "ticket-booth-3p.csv").read_text(encoding="utf-8-sig"))))
        assert rows[0] == list(export.CSV_HEADER)
        bo = [r for r in rows[1:] if r[rows[0].index("player")] == "Bo"]
        assert sum(float(r[rows[0].index("points")]) for r in bo) == 95.5
        data = json.loads((out / "ticket-booth-3p.json").read_text())
        assert data["totals"] == {"Ana": 76, "Bo": 95.5, "Cy": 60} and data["winners"] == ["Bo"]
        assert "Friday at Mia's" in (out / "ticket-booth-3p.md").read_text()
        assert "ticket-booth-3p.json" in str(screen.query_one("#written", Static).render())
        assert "Copy link" not in keys_text(screen.query_one(KeyBar))
        await burst(pilot, "b")
        link = screen.link
        assert link is not None and link.startswith("https://app.bgstatsapp.com/createPlay.html?data=")
        assert str(screen.query_one("#link", Static).render()) == link
        qr = screen.query_one("#qr", QRCode)
        drawn = [strip.text for strip in qr.render_lines(qr.region.reset_offset)]
        assert drawn in (half_blocks(matrix(link)), quadrants(matrix(link)))
        assert "Copy link" in keys_text(screen.query_one(KeyBar))
        picture = (out / "ticket-booth-3p-bgstats.svg").read_text()
        assert "<svg" in picture and picture.rstrip().endswith("</svg>")
        assert 'fill="#fff"' in picture  # dark on a light ground, whatever the viewer's background
        await burst(pilot, "escape")
        assert isinstance(app.screen, StandingsScreen)


@pilot_test
async def test_bgstats_code_whole_or_not_at_all(folder: Path) -> None:
    """At 120x40 the 39-line code of ticket-booth-5p does not fit the export screen (38 lines): it is not drawn,
    the screen says so; f shows it alone on the whole terminal (37 lines, the white screen as quiet zone)."""
    path = folder / "ticket-booth-5p.toml"
    async with opened(folder, "x", file=path, size=(120, 40)) as (app, pilot, screen):
        assert isinstance(screen, ExportScreen)
        assert "Code alone" not in keys_text(screen.query_one(KeyBar))
        await burst(pilot, "b")
        link = screen.link
        assert link is not None and not screen.query(QRCode)
        hints = " ".join(str(w.render()) for w in screen.query(".hint"))
        assert "The code is 39 lines tall and the screen shows 38" in hints and "f shows it alone" in hints
        assert str(screen.query_one("#link", Static).render()) == link
        assert (folder / "exports" / "ticket-booth-5p-bgstats.svg").is_file()
        await burst(pilot, "f")
        code = app.screen.query_one(QRCode)
        drawn = [strip.text for strip in code.render_lines(code.region.reset_offset)]
        assert drawn == half_blocks(matrix(link, 0)) and len(drawn) == 37
        assert code.region.y >= 0 and code.region.bottom <= 40
        await burst(pilot, "escape")
        assert app.screen is screen
    async with opened(folder, "x", file=path, size=(80, 24)) as (app, pilot, screen):
        await burst(pilot, "b", "f")  # too tall even alone: a message, the screen stays
        assert app.screen is screen and not screen.query(QRCode)


def mars(names: tuple[str, ...]) -> Any:
    """A finished one-round Ticket to Mars game of these players (player i scores 9 + 3i), without `started`."""
    from scorekeeper.model.session import Session

    session = Session(game="ticket-to-mars", players=names)
    for i, name in enumerate(names):
        for category, value in (("pairs", {"count": i, "each": 3}), ("occupancy", {"count": 1, "each": 5}),
                                ("character", {"count": 4, "each": 1})):
            session = session.with_value(1, name, category, value)
    return session


@pilot_test
async def test_bgstats_link_too_long_for_any_code(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A link of over 3,000 bytes, more than any QR code holds: a message, the link, no crash. (Five names of 40
    emoji make 2,800 bytes, which a code still holds: the link is made longer here.)"""
    from scorekeeper import store

    link_of = export.bgstats_link
    monkeypatch.setattr(export, "bgstats_link", lambda sheet, file: link_of(sheet, file) + "%F0%9F%8E%B2" * 40)
    names = tuple(e * 40 for e in "🎲🐉🚂🏰🎟")  # 40 characters, the most a name has, of 4 bytes each
    path = folder / "emoji.toml"
    store.save(path, mars(names))
    async with opened(folder, "x", file=path, size=(120, 40)) as (app, pilot, screen):
        assert isinstance(screen, ExportScreen)
        await burst(pilot, "b")
        link = screen.link
        assert link is not None and len(link.encode()) > 2953  # a version 40 code holds 2,953 bytes at most
        assert not screen.query(QRCode)
        hints = " ".join(str(w.render()) for w in screen.query(".hint"))
        assert f"its link is {len(link):,} characters" in hints
        assert str(screen.query_one("#link", Static).render()) == link
        assert "Copy link" in keys_text(screen.query_one(KeyBar)) and "Code alone" not in keys_text(
            screen.query_one(KeyBar))


@pilot_test
async def test_bgstats_play_date_of_an_undated_session_as_the_command(folder: Path, capsys) -> None:
    """A session without `started`: the app's link has the file's date as playDate, as the command's has."""
    import os
    from datetime import datetime

    from scorekeeper import store

    path = folder / "undated.toml"
    store.save(path, mars(("Ana", "Bo")))
    when = datetime(2026, 3, 1, 20, 15).timestamp()
    os.utime(path, (when, when))
    async with opened(folder, "x", file=path, size=(120, 50)) as (app, pilot, screen):
        await burst(pilot, "b")
        link = screen.link
    assert link is not None and "2026-03-01%2020:15:00" in link
    assert main(["export", str(path), "--to", "bgstats"]) == 0
    assert capsys.readouterr().out.strip() == link


@pilot_test
async def test_export_from_history(folder: Path) -> None:
    """x on a session of the history exports it without opening it."""
    async with opened(folder, "f2", "x") as (app, pilot, screen):
        assert isinstance(screen, ExportScreen) and screen.path == folder / "ticket-booth-3p.toml"
        await burst(pilot, "m")
        assert (folder / "exports" / "ticket-booth-3p.md").is_file()


@pilot_test
async def test_export_error_is_said_not_raised(folder: Path) -> None:
    """exports/ cannot be made (a file is in its way): the screen says so, nothing is half-written."""
    (folder / "exports").write_text("in the way")
    async with opened(folder, file=folder / "ticket-booth-3p.toml") as (app, pilot, screen):
        await burst(pilot, "x", "c")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert "Could not write the CSV file" in str(screen.query_one("#written", Static).render())
        assert (folder / "exports").read_text() == "in the way"


@pilot_test
async def test_history_and_statistics_from_the_command_palette(folder: Path) -> None:
    """ctrl+p on home, `statistics`, Enter: the statistics; Esc, then the palette again for the history."""
    async with opened(folder) as (app, pilot, screen):
        for word, screen_type in (("statistics", StatisticsScreen), ("history", HistoryScreen)):
            await burst(pilot, "ctrl+p")
            await burst(pilot, *word)
            await burst(pilot, "enter")
            assert isinstance(app.screen, screen_type), word
            await burst(pilot, "escape")
            assert isinstance(app.screen, HomeScreen)


@pilot_test
async def test_history_catches_up_with_a_game_finished_meanwhile(folder: Path) -> None:
    """A finished session copied into the folder while History is open shows once the screen comes back to it."""
    async with opened(folder, "f2") as (app, pilot, screen):
        assert isinstance(screen, HistoryScreen)
        before = len(screen.shown)
        shutil.copy(SAMPLES / "ticket-booth-3p.toml", folder / "zz-rematch.toml")
        await burst(pilot, "enter")  # a session's standings, then back
        await burst(pilot, "escape")
        assert app.screen is screen
        assert len(screen.shown) == before + 1 and "zz-rematch.toml" in listed(screen)


def test_head_to_head_of_a_club_waits_for_a_player() -> None:
    """Past 40 pairs, the head to head is shown per player once one is picked; with a player, every row."""
    from dataclasses import replace

    from scorekeeper.after.stats_model import Filters, GameStats, HeadToHead, Statistics
    from scorekeeper.tui.screens.statistics import sections

    rows = tuple(HeadToHead(f"P{i}", f"Q{i}", 1, 1, 0, 0) for i in range(41))
    game = GameStats(None, "ticket-to-mars", "Ticket to Mars", 41, (), None, None, 0, 0)
    result = Statistics(Filters(None, None, None, None, None), 3, 41, 0, (), (), (game,), (), rows, {}, {})
    text = "\n".join(line.plain for line in sections(result))
    assert "41 pairs of players: pick a player (p, or Enter on their row)" in text and "Q40" not in text
    result = replace(result, filters=Filters(None, "P1", None, None, None))
    text = "\n".join(line.plain for line in sections(result))
    assert "Q40" in text


@pilot_test
async def test_enter_on_a_player_row_opens_their_page(folder: Path) -> None:
    """F3, Tab into the first table (The Ticket Booth's players, ranked: Bo 2 wins of 2, then Ivy and Jo, who
    shared their only game, by name), ↓ to Ivy's row, Enter: the statistics of Ivy, her page in view (`p` still
    picks a player: test_statistics_of_bo_worked_out_by_hand). ↓ past a table's last row goes on into the next
    table, ↑ back."""
    from scorekeeper.tui.screens.statistics import PlayerTable

    async with opened(folder, "f3", size=(100, 30)) as (app, pilot, screen):
        assert isinstance(screen, StatisticsScreen)
        await burst(pilot, "tab")
        first = screen.query(PlayerTable).first()
        assert app.focused is first and first.cursor == 0 and first.rows.players[0] == "Bo"
        assert "Player page" in keys_text(screen.query_one(KeyBar))
        await burst(pilot, "down", "enter")
        assert screen.query_one(Filters).value("player") == "Ivy"
        lines = screen.plain().splitlines()
        assert lines[0] == "1 finished session" and "Ivy across games" in lines
        page = screen.page_block
        assert page is not None and 0 <= page.region.y < 30 - 1  # scrolled into view
    # Tab, then ↓ eleven times from Bo's row: past the Ticket Booth's 11 players into Ticket to Ride's table (Hana
    # first); ↑ goes back to the Ticket Booth's last row (Hal); ↓ and Enter pick Hana.
    async with opened(folder, "f3", size=(100, 30)) as (app, pilot, screen):
        await burst(pilot, "tab", *["down"] * 11)
        tables = list(screen.query(PlayerTable))
        assert app.focused is tables[1] and tables[1].cursor == 0 and tables[1].rows.players[0] == "Hana"
        await burst(pilot, "up")
        assert app.focused is tables[0] and tables[0].cursor == 10 and tables[0].rows.players[10] == "Hal"
        await burst(pilot, "down", "enter")
        assert screen.query_one(Filters).value("player") == "Hana"
        lines = screen.plain().splitlines()
        assert "Hana across games" in lines and lines.index("Hana across games") > 25  # below the first screenful
        page = screen.page_block
        assert page is not None and 0 <= page.region.y < 30 - 1


@pilot_test
async def test_statistics_written_to_exports_as_csv_and_json(folder: Path, capsys) -> None:
    """c and j on the Statistics screen write the figures shown into exports/: the CSV of `stats --csv` (with a
    byte-order mark) and the JSON of `stats --json`."""
    from scorekeeper.after.stats import to_csv

    async with opened(folder, "f3", size=(100, 30)) as (app, pilot, screen):
        assert isinstance(screen, StatisticsScreen)
        await burst(pilot, "c", "j")
        written = sorted((folder / "exports").glob("statistics-*"))
        assert [p.suffix for p in written] == [".csv", ".json"]
        text = written[0].read_bytes().decode("utf-8")
        assert text.startswith("\ufeffgame,board,player,") and text[1:] == to_csv(screen.result)
        data = json.loads(written[1].read_text(encoding="utf-8"))
    assert main(["stats", str(folder), "--json"]) == 0
    cli = json.loads(capsys.readouterr().out)
    assert {k: v for k, v in data.items() if k != "folder"} == {k: v for k, v in cli.items() if k != "folder"}
    assert data["folder"] == str(folder)


@pilot_test
async def test_statistics_and_history_by_board(folder: Path) -> None:
    """The game picker offers Ticket to Ride's boards: Europe's statistics (stations built 7 by 4 players, 1.75 on
    average; Finn's 2 and Gus's 3 unused stations: 2 of 4 players left some unbuilt, 20 points; the Express to Eva, who
    lost) and Nordic's history (the one game, labelled with its board)."""
    async with opened(folder, "f3", size=(100, 30)) as (app, pilot, screen):
        assert isinstance(screen, StatisticsScreen)
        await burst(pilot, "g", "ticket to ride: e", "enter")
        assert screen.query_one(Filters).value("game") == "ticket-to-ride@europe"
        lines = screen.plain().splitlines()
        assert lines[0] == "1 finished session"
        assert ("Stations: 1.75 built on average (7 by 4 players); 2 of 4 players left stations unbuilt (50%), "
                "for 20 points at 4 each") in lines
        assert "European Express: its holder won 0 of 1 game (0%)" in lines
        assert "Ticket to Ride — Europe — 1 play" in lines
    async with opened(folder, "f2", size=(100, 30)) as (app, pilot, screen):
        assert isinstance(screen, HistoryScreen)
        await burst(pilot, "g", "ticket to ride: n", "enter")
        assert listed(screen) == ["ticket-to-ride-nordic-2p.toml"]
        prompt = str(screen.query_one("#plays", OptionList).get_option_at_index(0).prompt)
        assert "Ticket to Ride · Nordic Countries" in prompt


@pilot_test
async def test_the_charts_name_the_board(folder: Path) -> None:
    """The standings of the Europe sample: the charts' heading names the game and its board."""
    async with opened(folder, file=folder / "ticket-to-ride-europe-4p.toml", size=(100, 30)) as (app, pilot, screen):
        assert isinstance(screen, StandingsScreen)
        head = screen.query_one("#charts-head", Static)
        assert str(head.render()) == "The game in pictures · Ticket to Ride · Europe"


@pilot_test
async def test_statistics_help_says_the_keys_and_the_start_player(folder: Path) -> None:
    """F1 on the Statistics screen: Enter on a player's row, c and j, and what the start player's figures are."""
    from scorekeeper.tui.widgets.hanging import Hanging

    async with opened(folder, "f3", "f1", size=(120, 40)) as (app, pilot, screen):
        text = " ".join(screen.query_one("#help-keys", Hanging).plain().split())
        assert "Enter on a player's row: that player's page" in text
        assert "start player the first player of round 1; on a player's page, the plays as start player" in text
        assert "c write the statistics shown to exports/ as CSV" in text
