"""Pilot tests of map mode (Ticket to Ride on the USA map): routes and tickets typed by their cities."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static

from scorekeeper import games
from scorekeeper.tui.screens.new_session import NewSessionScreen, RuleRow
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from scorekeeper.tui.widgets.map_editors import RouteLines, TicketLines
from tests.test_tui_support import (
    burst,
    enter,
    pilot_test,
    running,
    saved,
    settle,
    values,
    write_session,
)

USA = {"map": "usa"}
PLAYERS = ["Ana", "Bo", "Cy"]
ROUTES = {  # typed as prefixes; what the file must hold
    "Ana": (["den - kan", "kan - sai", "sai - chi", "chi - pit", "pit - new"],
            ["Denver – Kansas City", "Kansas City – Saint Louis", "Chicago – Saint Louis", "Chicago – Pittsburgh",
             "New York – Pittsburgh"]),
    "Bo": (["sea - por", "por - sal", "sal - den", "den - santa", "san - el"],
           ["Portland – Seattle", "Portland – Salt Lake City", "Denver – Salt Lake City", "Denver – Santa Fe",
            "El Paso – Santa Fe"]),
    "Cy": (["mia - atl", "atl - nas", "nas - sai", "sai - lit", "lit - dal", "dal - okl"],
           ["Atlanta – Miami", "Atlanta – Nashville", "Nashville – Saint Louis", "Little Rock – Saint Louis",
            "Dallas – Little Rock", "Dallas – Oklahoma City"]),
}
TICKETS = {
    "Ana": (["pit - den", "den - el"], ["Denver – Pittsburgh", "Denver – El Paso"]),
    "Bo": (["por - pho"], ["Portland – Phoenix"]),
    "Cy": (["dal - new y"], ["Dallas – New York"]),
}


def live(screen: WalkthroughScreen) -> str:
    """Everything the step shows: the inputs and, beside or below them, the reasons (lines joined, unwrapped)."""
    return " ".join(screen.query_one(StepGrid).plain().split())


def drawn(cities: list[str], shown: str) -> bool:
    """Whether a path is drawn city by city (either way round)."""
    return " ━ ".join(cities) in shown or " ━ ".join(reversed(cities)) in shown


def editor(screen: WalkthroughScreen, player: int, slot: int = 0) -> Any:
    """A player's editor of a slot of the step shown."""
    return screen.editors[(player, slot)]


def notes(lines: Any) -> list[str]:
    """The note beside each line of a map editor."""
    out = []
    number = 0
    for row in lines.rows:
        if row.text.strip():
            number += 1
        out.append(lines.note(number, row, False).plain if row.text.strip() else "")
    return out


@pytest.mark.slow
@pilot_test
async def test_usa_round_through_the_keyboard(tmp_path: Path) -> None:
    """Claimed routes typed as prefixes, tickets by name, the longest path shown; file and totals are the core's."""
    path = write_session(tmp_path, "ticket-to-ride", PLAYERS, rules=USA)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Routes"
        assert isinstance(editor(screen, 0), RouteLines)
        await burst(pilot, *(t for player in PLAYERS for t in values(*ROUTES[player][0], "")))
        assert screen.step.title == "Destination tickets"
        assert isinstance(editor(screen, 0), TicketLines)
        await burst(pilot, *values(*TICKETS["Ana"][0]))
        ana = editor(screen, 0)
        assert notes(ana)[:2] == ["✓ connected +11", "✗ not connected -4"]
        await burst(pilot, *values(""), *(t for player in PLAYERS[1:] for t in values(*TICKETS[player][0], "")))
        assert screen.step.title == "Longest path"
        shown = live(screen)
        # Bo and Cy tie with 14 trains: both paths city by city; Ana's own path (13 trains) without the bonus
        assert drawn(["Seattle", "Portland", "Salt Lake City", "Denver", "Santa Fe", "El Paso"], shown)
        assert drawn(["Miami", "Atlanta", "Nashville", "Saint Louis", "Little Rock", "Dallas", "Oklahoma City"], shown)
        assert shown.count("tied with") == 2 and "(14 trains each): +10" in shown
        assert "longest continuous path: 13, but Bo and Cy have more (14 trains): no bonus" in shown
        assert drawn(["Denver", "Kansas City", "Saint Louis", "Chicago", "Pittsburgh", "New York"], shown)
        await burst(pilot, "enter")
        assert screen.step.title == "Summary"
        table = str(screen.query_one("#round-table", Static).render())
    session, sheet = saved(path)
    rnd = session.rounds[0].players
    for player in PLAYERS:
        assert rnd[player]["claimed"] == ROUTES[player][1]
        assert rnd[player]["tickets"] == [{"name": n} for n in TICKETS[player][1]]
    # Ana 4+2+2+3+2 trains = 7+2+2+4+2 = 17, tickets +11 -4; Bo 1+6+3+2+2 = 24, -11, +10 (path 14, tied);
    # Cy 10+1+2+2+2+2 = 19, -11, +10 (path 14, tied)
    assert sheet.totals == {"Ana": 24, "Bo": 23, "Cy": 18}
    assert sheet.totals == games.score(session).totals
    for player, total in sheet.totals.items():
        line = next(x for x in table.splitlines() if x.strip().startswith(player))
        assert line.split()[-1] == str(total)
    assert sheet.winners == ["Ana"]


@pilot_test
async def test_mistyped_route_is_shown_at_its_line_and_not_saved(tmp_path: Path) -> None:
    """An unknown city and a route another player holds: the core's message at the line, the file unchanged."""
    path = write_session(tmp_path, "ticket-to-ride", PLAYERS, rules=USA)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, *values("den - kan", "den - kam"))
        ana = editor(screen, 0)
        assert isinstance(ana, RouteLines)
        assert "unknown city 'kam'" in notes(ana)[1]
        assert "not saved: unknown city 'kam'" in live(screen)
        session, _ = saved(path)
        assert session.rounds[0].players["Ana"]["claimed"] == ["Denver – Kansas City"]
        # Enter stays on the line; ctrl+r removes it and the list is saved again
        assert screen.spots[screen.at].player == 0 and ana.at == 1
        await burst(pilot, "ctrl+r", *values(""))  # on to Bo
        assert screen.spots[screen.at].player == 1
        # a double route Ana holds already (3 players: only one of its routes is used)
        await burst(pilot, *values("kan - den"))
        bo = editor(screen, 1)
        assert "Ana claimed Denver – Kansas City already" in notes(bo)[0]
        session, _ = saved(path)
        assert "claimed" not in session.rounds[0].players.get("Bo", {})
        assert "trains: 4 used · 41 left of 45" in live(screen)
        footer = bo.footer()
        assert footer is not None and "0 used · 45 left" in footer.plain  # the refused route uses no trains


@pilot_test
async def test_tab_completes_cities(tmp_path: Path) -> None:
    """Tab completes the city at the cursor, again for the next candidate; the second city fits the first."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rules=USA)
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        lines = editor(screen, 0)
        await burst(pilot, "sea", "tab")
        assert lines.rows[0].text == "Seattle – "
        await burst(pilot, "p", "tab")
        assert lines.rows[0].text == "Seattle – Portland"
        await burst(pilot, "enter", "sa", "tab", "tab")
        assert lines.rows[1].text == "Salt Lake City – "
        session, _ = saved(path)
        assert session.rounds[0].players["Ana"]["claimed"] == ["Portland – Seattle"]


@pilot_test
async def test_new_session_on_the_usa_map(tmp_path: Path) -> None:
    """The New session screen offers the map rule; picking usa opens the walkthrough with the map editors."""
    async with running(tmp_path) as (app, pilot):
        app.push_screen(NewSessionScreen("ticket-to-ride"))
        await settle(pilot)
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        for i, name in enumerate(["Ana", "Bo"], start=1):
            form.query_one(f"#player-{i}").value = name  # type: ignore[attr-defined]
        from textual.widgets import Select

        select = next(row for row in form.query(RuleRow) if "usa" in row.rule.choices).query_one(Select)
        select.value = "usa"
        await settle(pilot)
        await burst(pilot, "ctrl+s")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert screen.session.rules == {"map": "usa"}
        assert isinstance(editor(screen, 0), RouteLines)


@pilot_test
async def test_undo_takes_back_one_line(tmp_path: Path) -> None:
    """Each confirmed line is one undo step."""
    path = write_session(tmp_path, "ticket-to-ride", PLAYERS, rules=USA)
    async with running(tmp_path, path) as (app, pilot):
        await enter(pilot, "den - kan", "kan - sai")
        await burst(pilot, "ctrl+z")
        session, _ = saved(path)
        assert session.rounds[0].players["Ana"]["claimed"] == ["Denver – Kansas City"]
