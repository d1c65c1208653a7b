"""Pilot tests: a whole round of each game typed through the keyboard, then the saved file and the totals."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest
from textual.widgets import Static

from scorekeeper.model.session import Round
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
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

# -- The Ticket Booth ------------------------------------------------------------------------
BOOTH = {  # attraction n: (Ana, Bo, Cy)
    1: (1, 0, 0), 2: (0, 2, 0), 3: (1, 1, 1), 4: (2, 1, 1), 5: (0, 3, 2), 6: (3, 2, 1),
    7: (2, 2, 3), 8: (4, 2, 2), 9: (3, 3, 3), 10: (4, 3, 3), 11: (2, 4, 5),
}


def booth_expected() -> dict[str, dict]:
    """The round as the file must hold it: every value written, zeros and false included."""
    players = ("Ana", "Bo", "Cy")
    out = {p: {"attractions": {str(n): BOOTH[n][i] for n in BOOTH}} for i, p in enumerate(players)}
    for p, outhouses, booth, derby, tickets, piglet in (
        ("Ana", 1, True, False, 7, False), ("Bo", 0, False, False, 5, True), ("Cy", 2, False, True, 3, False),
    ):
        out[p].update(outhouses=outhouses, ticket_booth=booth, demolition_derby=derby, tickets=tickets,
                      piglet_race=piglet)
    return out


@pytest.mark.slow
@pilot_test
async def test_booth_round_through_the_keyboard(tmp_path: Path) -> None:
    """Every step of a Ticket Booth round, typed; the file holds every value and the totals are the core's."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "#1"
        tokens = [t for n in range(1, 12) for t in values(*(str(c) for c in BOOTH[n]))]
        tokens += values("1", "", "2")  # Outhouse
        tokens += ["1", "3"]  # the Ticket Booth: seat 1 (Ana); the Demolition Derby: seat 3 (Cy)
        tokens += [*values("7", "5", "3"), "2"]  # Tickets, then the Piglet Race: seat 2 (Bo)
        await burst(pilot, *tokens)
        assert screen.step.title == "Summary"
        assert not screen.spots
        await burst(pilot, "enter")
        assert isinstance(app.screen, StandingsScreen)
        text = str(app.screen.query_one("#next", Static).render())
        assert "score round 2 (first player: Bo)" in text
    session, sheet = saved(path)
    assert session.rounds[0].players == booth_expected()
    assert sheet.totals == {"Ana": Fraction(45), "Bo": Fraction(20), "Cy": Fraction(24)}
    assert [i.why for i in sheet.rounds[0].items if i.category == "attraction:3"] == [
        "tied with Bo and Cy for most #3 (1 card each): half of 3",
        "tied with Ana and Cy for most #3 (1 card each): half of 3",
        "tied with Ana and Bo for most #3 (1 card each): half of 3",
    ]


@pilot_test
async def test_booth_next_round_is_one_key(tmp_path: Path) -> None:
    """From the standings, Enter starts round 2 (an empty round is saved) with its first player."""
    round1 = Round(players=booth_expected())
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"], rounds=(round1,))
    async with running(tmp_path, path) as (app, pilot):
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert screen.number == 2 and screen.step.title == "#1"
        assert "Bo starts" in str(screen.query_one("#step-title", Static).render())
        session, _ = saved(path)
        assert len(session.rounds) == 2 and session.rounds[1].players == {}
        await enter(pilot, "1")
    session, _ = saved(path)
    assert session.rounds[1].players == {"Ana": {"attractions": {"1": 1}}}


# -- Ticket to Ride --------------------------------------------------------------------------
@pytest.mark.slow
@pilot_test
async def test_ticket_to_ride_round(tmp_path: Path) -> None:
    """Routes by length (ctrl+e), tickets as lines (-8 failed), the longest path; then the totals."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo", "Cy"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Routes"
        await burst(pilot, "ctrl+e",  # the routes counted by length
                    *values("2", "", "", "3", "", "1", "", "", ""),  # Ana: two 1s, three 4s, one 6
                    *values("", "", "", "", "4", "", "", "", ""),  # Bo: four 5s, 40
                    *values("", "", "", "", "3", "", "", "", ""),  # Cy: three 5s
                    *values("8 Denver - El Paso", "-12", ""),  # Ana: one done, one failed
                    *values("5", ""),  # Bo
                    *values(""),  # Cy: none
                    *values("12", "9", "12"))  # Longest path
        assert screen.step.title == "Summary"
    session, sheet = saved(path)
    assert session.rounds[0].players == {
        "Ana": {"routes": {"1": 2, "4": 3, "6": 1},
                "tickets": [{"points": 8, "completed": True, "name": "Denver - El Paso"},
                            {"points": 12, "completed": False}],
                "longest_path": 12},
        "Bo": {"routes": {"5": 4}, "tickets": [{"points": 5, "completed": True}], "longest_path": 9},
        "Cy": {"routes": {"5": 3}, "tickets": [], "longest_path": 12},
    }
    # Ana 2 + 21 + 15 = 38, +8 -12, +10; Bo 40 + 5; Cy 30 + 10
    assert sheet.totals == {"Ana": 44, "Bo": 45, "Cy": 40}
    assert sheet.complete and sheet.winners == ["Bo"]


# -- Ticket to Finland -----------------------------------------------------------------------
@pytest.mark.slow
@pilot_test
async def test_ticket_to_finland_round(tmp_path: Path) -> None:
    """Deductions (tickets and tourist cards as lines), the bonus measures, completed cards, routes."""
    path = write_session(tmp_path, "ticket-to-finland", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "A. Deductions"
        await burst(pilot,
                    *values("10", "-6", "", "6 Pori", "-3", ""),  # Ana: tickets, then tourist cards (Pori is a 6)
                    *values("7", "", ""),  # Bo: one ticket, no tourist card
                    *values("6", "2", "1", "9", "14", "2", "10"),  # Ana's seven measures
                    *values("4", "3", "1", "7", "14", "0", "0"),  # Bo's
                    "enter",  # C. Completed cards: nothing to type
                    "ctrl+e",  # the routes counted by length
                    *values("1", "", "", "", "", "", "", "", "2"),  # Ana: one 1 and two 9s, 55
                    *values("1", "1", "1", "1", "1", "", "", "", ""))  # Bo: one route of each length 1..5
        assert screen.step.title == "Summary"
    session, sheet = saved(path)
    ana = session.rounds[0].players["Ana"]
    assert ana["tickets"] == [{"points": 10, "completed": True}, {"points": 6, "completed": False}]
    assert ana["tourists"] == [{"points": 6, "completed": True, "name": "Pori"}, {"points": 3, "completed": False}]
    assert session.rounds[0].players["Bo"]["tourists"] == []
    assert session.rounds[0].players["Bo"]["routes"] == {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1}
    assert "route_points" not in session.rounds[0].players["Bo"]
    # Ana: -6 -3; bonuses longest route 5, ferries 15 (tied), journey 20, cities 10 (tied), valid tickets 10
    # (tied, 1 each), foreign countries 25, perimeter 25; completed 10 + 6; routes 55 -> 172.
    # Bo: tunnels 15, ferries 15, cities 10, valid tickets 10; completed 7; routes 1+2+4+7+10 -> 81.
    assert sheet.totals == {"Ana": 172, "Bo": 81}
    assert sheet.winners == ["Ana"]


# -- Ticket to Mars --------------------------------------------------------------------------
@pytest.mark.slow
@pilot_test
async def test_ticket_to_mars_with_an_extra_round(tmp_path: Path) -> None:
    """A tie after round 1: the standings offer an extra round (one key), it is walked, the game ends."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Pairs"
        await burst(pilot,
                    *values("2", "3", "3", "2"),  # Pairs: Ana 2×3, Bo 3×2
                    *values("1", "4", "2", "2"),  # Occupancy: Ana 1×4, Bo 2×2
                    *values("0", "5", "", "5"))  # Character: nothing either
        assert screen.step.title == "Summary"
        await burst(pilot, "enter")
        standings = app.screen
        assert isinstance(standings, StandingsScreen)
        assert "extra round" in str(standings.query_one("#next", Static).render())
        await burst(pilot, "enter")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.number == 2
        assert "Extra round 2" in str(screen.query_one("#step-title", Static).render())
        await burst(pilot, *values("1", "2", "0", "2", "", "", "", "", "", "", "", ""), "enter")
        await settle(pilot)
        assert isinstance(app.screen, StandingsScreen)
        assert "Finished — Ana won" in str(app.screen.query_one("#result", Static).render())
    session, sheet = saved(path)
    assert session.rounds[0].players == {
        "Ana": {"pairs": {"count": 2, "each": 3}, "occupancy": {"count": 1, "each": 4},
                "character": {"count": 0, "each": 5}},
        "Bo": {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 2, "each": 2},
               "character": {"count": 0, "each": 5}},
    }
    assert sheet.totals == {"Ana": 12, "Bo": 10}
    assert sheet.complete and sheet.winners == ["Ana"]


@pilot_test
async def test_card_lines_keys(tmp_path: Path) -> None:
    """ctrl+t marks a card failed, ctrl+r removes a line, backspace on an empty line removes it."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "pagedown")
        assert app.screen.step.title == "Destination tickets"
        await burst(pilot, *values("8", "9"), "4", "ctrl+t")
        session, _ = saved(path)
        assert session.rounds[0].players["Ana"]["tickets"][-1] == {"points": 4, "completed": False}
        await burst(pilot, "up", "ctrl+r")
        session, _ = saved(path)
        assert [c["points"] for c in session.rounds[0].players["Ana"]["tickets"]] == [8, 4]
        await burst(pilot, "enter")
        await burst(pilot, "backspace")
        session, _ = saved(path)
        assert [c["points"] for c in session.rounds[0].players["Ana"]["tickets"]] == [8, 4]
