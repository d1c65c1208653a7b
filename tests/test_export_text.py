"""Issue 25 item 8: a result to paste in a group chat — plain text (no Markdown table), the category names the
table says (`#4 Pie`, `Longest path`), never an id (`attraction:4`, `demolition-derby`); from the CLI
(`export --to text`) and the app's export screen (`t`: written, shown, copied)."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest

from scorekeeper import files, games
from scorekeeper.after.export import category_name, export
from scorekeeper.cli import main
from scorekeeper.tui.screens.export import ExportScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.widgets.bars import KeyBar, keys_text
from tests.test_tui_support import burst, pilot_test, running

SAMPLES = Path(__file__).parent.parent / "sample_sessions"
IDS = re.compile(r"attraction:|objective:|bonus:|demolition-derby|ticket-booth|longest-path|\|")


def text_of(name: str) -> str:
    session, warnings = files.load(SAMPLES / name)
    return export([(games.score(session, warnings), name)], "text")


@pytest.mark.parametrize("name", sorted(p.name for p in SAMPLES.glob("*.toml")))
def test_no_id_and_no_table_in_any_sample(name: str) -> None:
    text = text_of(name)
    assert not IDS.search(text), IDS.search(text)
    assert "Where the points came from:" in text or "nothing scored" in text or "won" in text


def test_the_booth_reads_as_the_table_says_it() -> None:
    text = text_of("ticket-booth-in-progress.toml")  # attraction_names: 4 = Pie, 6 = Produce
    assert "#4 Pie +4" in text and "#6 Produce +6" in text and "Outhouse -4" in text
    assert "Not finished: Kim leads; next: score round 2 (first player: Lou)" in text
    lines = text_of("ticket-booth-3p.toml").splitlines()
    assert lines[:6] == ["Friday at Mia's — The Ticket Booth", "Played 2026-11-27 19:30 · Ana, Bo, Cy", "",
                         "Bo won with 95½", "", "1. Bo 95½"]
    assert "Round 3: Ana 42, Bo 20½, Cy 16" in lines
    assert any(line.startswith("Ana: #2 +1, #3 +13½, #4 +4") and "Demolition Derby +4, Tickets +10" in line
               for line in lines)


def test_ticket_to_ride_and_finland_names() -> None:
    text = text_of("ticket-to-ride-tie-tickets.toml")
    assert "Hana: Routes +70, Destination tickets -4, Longest path +10" in text
    assert "Tie-break: Hana and Jun tied on 76; Jun completed more tickets (3 to 2)" in text
    text = text_of("ticket-to-finland-3p.toml")
    assert "Longest route bonus +5" in text and "Valid tickets bonus +10" in text and "Tourist cards" in text
    session, warnings = files.load(SAMPLES / "ticket-to-ride-europe-4p.toml")
    sheet = games.score(session, warnings)
    assert category_name(sheet, "longest-path") == "European Express" and category_name(sheet, "station") == \
        "Stations"


def test_the_command_line_exports_text_and_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert main(["export", str(SAMPLES / "ticket-booth-3p.toml"), "--to", "text"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Friday at Mia's — The Ticket Booth") and "Bo won with 95½" in out
    target = tmp_path / "result.txt"
    assert main(["export", str(SAMPLES / "ticket-to-mars-extra-round.toml"), "--to", "text", "-o",
                 str(target)]) == 0
    assert target.read_text("utf-8").startswith("Mars club final — Ticket to Mars")
    with pytest.raises(SystemExit):
        main(["export", "--help"])
    assert "text (plain text to paste in a group chat" in " ".join(capsys.readouterr().out.split())


@pilot_test
async def test_t_on_the_export_screen_writes_shows_and_copies_the_text(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    folder.mkdir()
    path = folder / "ticket-booth-3p.toml"
    shutil.copy(SAMPLES / path.name, path)
    async with running(folder, path, size=(120, 50)) as (app, pilot):
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "x")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        assert "t Text" in keys_text(screen.query_one(KeyBar))
        await burst(pilot, "t")
        written = (folder / "exports" / "ticket-booth-3p.txt").read_text("utf-8")
        assert written == text_of("ticket-booth-3p.toml")
        assert app.clipboard == written
        shown = str(screen.query_one("#written").render())
        assert "Text written" in shown and "Bo won with 95½" in shown
