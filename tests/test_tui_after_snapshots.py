"""Snapshots at fixed terminal sizes: history, statistics, the charts in the standings, the BG Stats QR code."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.test_tui_support import app_for, settle

SAMPLES = Path(__file__).parent.parent / "sample_sessions"


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every sample session in a folder named the same in every run (`sessions`, relative to a tmp folder)."""
    monkeypatch.chdir(tmp_path)
    target = Path("sessions")
    target.mkdir()
    for path in SAMPLES.glob("*.toml"):
        shutil.copy(path, target / path.name)
    return target


def test_history_snapshot(folder: Path, snap_compare) -> None:
    """F2 from home: the finished sessions, newest first, with scores and winners."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("f2")
        await settle(pilot)

    assert snap_compare(app_for(folder), terminal_size=(100, 30), run_before=run_before)


def test_statistics_snapshot(folder: Path, snap_compare) -> None:
    """F3 from home, Ticket to Ride picked: players' table, averages by player count, margins, tickets, path."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("g")
        await pilot.press("t", "o", " ", "r", "enter")
        await settle(pilot)

    assert snap_compare(app_for(folder), terminal_size=(100, 40), run_before=run_before)


def test_charts_snapshot(folder: Path, snap_compare) -> None:
    """The standings of a finished Ticket Booth game at 80 columns, scrolled to its charts (c)."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("c")
        await settle(pilot)

    assert snap_compare(app_for(folder, folder / "ticket-booth-3p.toml"), terminal_size=(80, 24),
                        run_before=run_before)


def test_bgstats_qr_snapshot(folder: Path, snap_compare) -> None:
    """x then b on the standings of a Ticket to Mars game: the QR code of the BG Stats play, and its link."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("x")
        await settle(pilot)
        await pilot.press("b")
        await settle(pilot)

    assert snap_compare(app_for(folder, folder / "ticket-to-mars-one-round.toml"), terminal_size=(120, 50),
                        run_before=run_before)


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
def test_player_page_snapshot(folder: Path, snap_compare, size: tuple[int, int]) -> None:
    """F3, Ana picked (p), scrolled to the end: her page across games (rival, nemesis), then head to head."""

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("f3")
        await settle(pilot)
        await pilot.press("p")
        await pilot.press("a", "n", "a", "enter")
        await settle(pilot)
        await pilot.press("end")
        await settle(pilot)

    assert snap_compare(app_for(folder), terminal_size=size, run_before=run_before)
