"""Snapshots at a fixed terminal size: home, a walkthrough step, standings, help, the file-changed dialog, map mode."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Input

from scorekeeper import store
from scorekeeper.model.session import Round
from tests.test_tui_games import BOOTH, booth_expected
from tests.test_tui_map import PLAYERS, ROUTES, TICKETS, USA
from tests.test_tui_support import (
    AT_ONCE,
    SIZE,
    app_for,
    enter,
    pilot_test,
    running,
    saved,
    settle,
    type_text,
    write_session,
)


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A sessions folder named the same in every run (`sessions`, relative to a tmp working folder)."""
    monkeypatch.chdir(tmp_path)
    return Path("sessions")


def touch(path: Path, when: int) -> None:
    """Give a file a fixed modification time (the home screen lists the newest first)."""
    os.utime(path, (when, when))


def test_home_snapshot(folder: Path, snap_compare) -> None:
    """Three sessions, one of them unreadable, newest first."""
    booth = write_session(folder, "ticket-booth", ["Ana", "Bo", "Cy"], name="2026-11-27-1930-ticket-booth.toml",
                          title="Friday at Mia's", rounds=(Round(players=booth_expected()), Round()))
    mars = write_session(folder, "ticket-to-mars", ["Kim", "[bold]Lou[/]"], name="2026-11-20-2000-mars.toml",
                         rounds=(Round(players={"Kim": {"pairs": {"count": 2, "each": 3}},
                                                "[bold]Lou[/]": {"pairs": {"count": 1, "each": 3}}}),))
    bad = folder / "2026-11-01-1800-broken.toml"
    bad.write_text('format = 1\ngame = "ticket-booth"\nplayers = ["Ana"]\n')
    touch(booth, 1_800_000_300)
    touch(mars, 1_800_000_200)
    touch(bad, 1_800_000_100)
    assert snap_compare(app_for(folder), terminal_size=SIZE, run_before=settle)  # the index filled in


def test_walkthrough_step_snapshot(folder: Path, snap_compare) -> None:
    """Step #8 of a round: values typed, the reasons beside them, an error at a field."""
    players = {p: {"attractions": {str(n): BOOTH[n][i] for n in range(1, 8)}}
               for i, p in enumerate(["Ana", "Bo", "Cy"])}
    path = write_session(folder, "ticket-booth", ["Ana", "Bo", "Cy"], title="Friday at Mia's",
                         rounds=(Round(players=players),))

    async def run_before(pilot) -> None:
        await settle(pilot)
        await type_text(pilot, "4")
        await pilot.press("enter")
        await settle(pilot)
        await type_text(pilot, "4")
        await pilot.press("enter")
        await settle(pilot)
        await type_text(pilot, "9")
        await settle(pilot)

    assert snap_compare(app_for(folder, path), terminal_size=SIZE, run_before=run_before)


def test_standings_snapshot(folder: Path, snap_compare) -> None:
    """After round 1: the table, each player's breakdown, and what comes next."""
    path = write_session(folder, "ticket-booth", ["Ana", "Bo", "Cy"], title="Friday at Mia's",
                         rounds=(Round(players=booth_expected()),))
    assert snap_compare(app_for(folder, path), terminal_size=SIZE)


def test_help_snapshot(folder: Path, snap_compare) -> None:
    """F1 on a walkthrough step: the step's keys and the game's rules in brief."""
    path = write_session(folder, "ticket-booth", ["Ana", "Bo"], title="Friday at Mia's")

    async def run_before(pilot) -> None:
        await settle(pilot)
        await pilot.press("f1")
        await settle(pilot)

    assert snap_compare(app_for(folder, path), terminal_size=SIZE, run_before=run_before)


def test_file_changed_dialog_snapshot(folder: Path, snap_compare) -> None:
    """The file changed on disk after it was read: the next save asks first."""
    path = write_session(folder, "ticket-booth", ["Ana", "Bo"], title="Friday at Mia's")

    async def run_before(pilot) -> None:
        await settle(pilot)
        await enter(pilot, "0")
        store.save(path, saved(path)[0].with_value(1, "Bo", "attractions", {"1": 1}))
        await type_text(pilot, "0")  # Bo's #1: 1 there, 0 here, at once
        await settle(pilot)

    app = app_for(folder, path)
    app.watch_every, app.watch_events = AT_ONCE, False  # the change on disk meets the save first
    assert snap_compare(app, terminal_size=SIZE, run_before=run_before)


def test_map_mode_snapshot(folder: Path, snap_compare) -> None:
    """Ticket to Ride on the USA map at the tickets: routes claimed, Ana's tickets checked against her network."""
    players = {p: {"claimed": ROUTES[p][1]} for p in PLAYERS}
    players["Ana"]["tickets"] = [{"name": n} for n in TICKETS["Ana"][1]]
    path = write_session(folder, "ticket-to-ride", PLAYERS, rules=USA, title="The USA map",
                         rounds=(Round(players=players),))
    assert snap_compare(app_for(folder, path), terminal_size=SIZE)


@pilot_test
async def test_cursors_are_steady_in_tests(folder: Path) -> None:
    """With animation off (conftest), a focused input never blinks: a snapshot cannot catch it hidden."""
    async with running(folder) as (app, pilot):
        box = app.screen.query(Input).first()
        box.focus()
        await settle(pilot)
        assert app.focused is box and box.cursor_blink is False
