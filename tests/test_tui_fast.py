"""Typing at full speed: a whole round's keys posted at once (as fast typing or a paste delivers them), one wait,
then the saved file must hold exactly what was typed; and what the cursor needs is on screen at 80×24."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events

from scorekeeper.model.session import Round
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from scorekeeper.tui.widgets.hanging import Hanging
from scorekeeper.tui.widgets.steps import StepList
from tests.test_tui_support import burst, pilot_test, running, saved, settle, values, write_session

SMALL = (80, 24)
FIVE = ["Ana", "Bo", "Cy", "Dee", "Eve"]
COUNTS = {  # attraction n: (Ana, Bo, Cy, Dee, Eve)
    1: (1, 0, 0, 0, 0), 2: (0, 2, 0, 0, 0), 3: (1, 1, 1, 0, 0), 4: (2, 1, 1, 0, 0), 5: (0, 3, 2, 0, 0),
    6: (3, 2, 1, 0, 0), 7: (2, 2, 3, 0, 0), 8: (4, 2, 2, 0, 0), 9: (3, 3, 3, 0, 0), 10: (4, 3, 3, 0, 0),
    11: (2, 4, 5, 0, 0),
}
OUTHOUSES = (1, 0, 2, 0, 0)
TICKETS = (7, 5, 3, 0, 0)


def booth_tokens() -> list[str]:
    """A whole Ticket Booth round for five players: a count per player (nothing for 0), each with Enter; the
    specials by seat number (Ticket Booth: Ana, Demolition Derby: Cy, Piglet Race: Bo)."""
    tokens = [t for n in range(1, 12) for t in values(*(str(c) if c else "" for c in COUNTS[n]))]
    tokens += values(*(str(c) if c else "" for c in OUTHOUSES))
    tokens += ["1", "3"]
    tokens += [*values(*(str(c) if c else "" for c in TICKETS)), "2"]
    return tokens


def booth_expected() -> dict[str, dict]:
    """The round the file must hold."""
    out = {}
    for i, p in enumerate(FIVE):
        out[p] = {"attractions": {str(n): COUNTS[n][i] for n in COUNTS}, "outhouses": OUTHOUSES[i],
                  "ticket_booth": p == "Ana", "demolition_derby": p == "Cy", "tickets": TICKETS[i],
                  "piglet_race": p == "Bo"}
    return out


@pilot_test
async def test_a_booth_round_in_one_burst(tmp_path: Path) -> None:
    """Every key of a 5-player round at once, at 80×24: each value lands where the cursor was."""
    path = write_session(tmp_path, "ticket-booth", FIVE)
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, *booth_tokens())
        assert app.screen.step.title == "Summary"
    assert saved(path)[0].rounds[0].players == booth_expected()


@pilot_test
async def test_a_booth_round_pasted(tmp_path: Path) -> None:
    """The same round pasted as text, a line break for each Enter."""
    path = write_session(tmp_path, "ticket-booth", FIVE)
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        text = "".join("\n" if t == "enter" else t for t in booth_tokens())
        app.screen.query_one(StepGrid).post_message(events.Paste(text))
        await settle(pilot)
    assert saved(path)[0].rounds[0].players == booth_expected()


@pilot_test
async def test_ttr_tickets_added_flipped_removed_in_one_burst(tmp_path: Path) -> None:
    """Routes by length, tickets typed, one flipped to failed, one removed, the longest path: one burst."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot,
                    "ctrl+e", *values("", "", "3"), "pagedown",  # counts; Ana: three 3-train routes; tickets
                    *values("8 Denver - El Paso", "9"), "6", "ctrl+t", "enter",  # 8 done, 9 done, 6 failed
                    "up", "up", "ctrl+r",  # the 9 goes
                    "down", "down", "enter",  # the empty last line: on to Bo
                    "-4", "ctrl+t", "enter", "enter",  # Bo: a 4, flipped back to done
                    *values("7", "3"))  # the longest path
        assert app.screen.step.title == "Summary"
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["routes"] == {"3": 3}
    assert players["Ana"]["tickets"] == [{"points": 8, "completed": True, "name": "Denver - El Paso"},
                                         {"points": 6, "completed": False}]
    assert players["Bo"]["tickets"] == [{"points": 4, "completed": True}]
    assert (players["Ana"]["longest_path"], players["Bo"]["longest_path"]) == (7, 3)


@pilot_test
async def test_usa_routes_and_tickets_with_tab_in_one_burst(tmp_path: Path) -> None:
    """Routes typed as prefixes and completed with Tab, tickets by name: one burst for the whole round."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rules={"map": "usa"})
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot,
                    "sea", "tab", "p", "tab", "enter", "por - sal", "enter", "enter",  # Ana
                    *values("den - kan", "kan - sai", ""),  # Bo
                    "sea", "tab", "tab", "enter", "enter",  # Ana: Seattle – (Tab again: the first ticket partner)
                    *values("den - el", ""),  # Bo's ticket
                    "enter")  # Longest path: nothing to type
        assert app.screen.step.title == "Summary"
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["claimed"] == ["Portland – Seattle", "Portland – Salt Lake City"]
    assert players["Bo"]["claimed"] == ["Denver – Kansas City", "Kansas City – Saint Louis"]
    assert players["Ana"]["tickets"][0]["name"].startswith("Seattle – ") or \
        players["Ana"]["tickets"][0]["name"].endswith(" – Seattle")
    assert players["Bo"]["tickets"] == [{"name": "Denver – El Paso"}]


@pilot_test
async def test_finland_tickets_and_tourist_cards_in_one_burst(tmp_path: Path) -> None:
    """Tickets and tourist cards as lines, the bonus measures and the routes: one burst."""
    path = write_session(tmp_path, "ticket-to-finland", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot,
                    *values("10", "-6", "", "6 Pori", "-3", ""),  # Pori is a 6 (issue 12)
                    *values("7", "", ""),
                    *values("6", "2", "1", "9", "14", "2", "10"),
                    *values("4", "3", "1", "7", "14", "0", "0"),
                    "enter",
                    "ctrl+e", *values("1", "", "", "", "", "", "", "", "2"),  # counts by length
                    *values("1", "1", "1", "1", "1", "", "", "", ""))
        assert app.screen.step.title == "Summary"
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["tickets"] == [{"points": 10, "completed": True}, {"points": 6, "completed": False}]
    assert players["Ana"]["tourists"] == [{"points": 6, "completed": True, "name": "Pori"},
                                          {"points": 3, "completed": False}]
    assert players["Bo"]["tickets"] == [{"points": 7, "completed": True}] and players["Bo"]["tourists"] == []
    assert players["Bo"]["routes"] == {"1": 1, "2": 1, "3": 1, "4": 1, "5": 1}


MARS_TYPED = ("2", "3", "3", "2", "1", "4", "2", "2", "", "5", "1", "5")
"""Count and points of each objective card, player by player (a blank: 0)."""


@pytest.mark.parametrize("separator", ["enter", "tab"])
@pilot_test
async def test_mars_objectives_in_one_burst(tmp_path: Path, separator: str) -> None:
    """Count and points for each of the three objective cards, two players, one burst; Enter: the standings. Tab
    moves box to box as Enter does (as in any form): each number lands in its own box, never `23` in one."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert "Enter, Tab" in dict(screen.step_help(screen.step, screen.slots, moves=True))
        await burst(pilot, *[t for value in MARS_TYPED for t in (value, separator) if t], "enter")
        assert isinstance(app.screen, StandingsScreen)
    assert saved(path)[0].rounds[0].players == {
        "Ana": {"pairs": {"count": 2, "each": 3}, "occupancy": {"count": 1, "each": 4},
                "character": {"count": 0, "each": 5}},
        "Bo": {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 2, "each": 2},
               "character": {"count": 1, "each": 5}},
    }


@pilot_test
async def test_a_session_opened_from_home_shows_its_heading_at_80x24(tmp_path: Path) -> None:
    """The cursor resumes at the second player: the page stays at its top, the step's heading in view (focusing
    the grid before the first layout once scrolled it away)."""
    write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo", "Cy"],
                  rounds=(Round(players={"Ana": {"routes": {"2": 2, "3": 1}}}),))
    async with running(tmp_path, size=SMALL) as (app, pilot):
        await burst(pilot, "enter")
        assert isinstance(app.screen, WalkthroughScreen)
        assert app.screen.query_one("#step").scroll_y == 0


@pilot_test
async def test_typing_replaces_a_filled_box_and_f2_edits_it(tmp_path: Path) -> None:
    """Landing on a filled box and typing replaces it, as a spreadsheet cell; F2 or Backspace edits it."""
    players = {"Ana": {"attractions": {"8": 3}}}
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], rounds=(Round(players=players),))
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        screen.go(7, ("Ana", "attractions", "8"))
        await burst(pilot, "5", "down", "2", "up", "f2", "1")  # Ana 3 -> 5; Bo 2; F2 on Ana's 5, then 1: 51
        entries = saved(path)[0].rounds[0].players
        assert entries["Ana"]["attractions"] == {"8": 5} and entries["Bo"]["attractions"] == {"8": 2}
        assert "not saved: 51 is out of range" in " ".join(screen.row_text("Ana").split())
        await burst(pilot, "backspace", "backspace", "6", "down", "backspace", "1")  # 6 + 1 of the 8 (issue 12)
    entries = saved(path)[0].rounds[0].players
    assert entries["Ana"]["attractions"] == {"8": 6} and entries["Bo"]["attractions"] == {"8": 1}


@pilot_test
async def test_the_message_at_the_cursor_is_on_screen_at_80x24(tmp_path: Path) -> None:
    """Five players, the last one's refused value: its reason is on screen; the step list folds away."""
    path = write_session(tmp_path, "ticket-booth", FIVE)
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert not screen.query_one("#steps", StepList).display
        screen.go(7)
        await burst(pilot, *values("1", "1", "1", "1"), "9")
        grid = screen.query_one(StepGrid)
        lines = grid.plain().splitlines()
        line = next(i for i, text in enumerate(lines) if "not saved" in text)
        scroller = screen.query_one("#step")
        y = grid.virtual_region.y + line - scroller.scroll_y
        assert 0 <= y < scroller.scrollable_content_region.height, (y, scroller.scroll_y)
        first = next(i for i, text in enumerate(lines) if text.startswith("Eve"))
        assert 0 <= grid.virtual_region.y + first - scroller.scroll_y
    assert "Eve" not in saved(path)[0].rounds[0].players


@pilot_test
async def test_standings_mid_round_leave_out_steps_not_reached(tmp_path: Path) -> None:
    """Half a round typed: the walkthrough's warnings are about what was typed, not the steps still to come."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, *values("1", ""))
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "#2"
        assert not screen.step_warnings(screen.steps[0])
        await burst(pilot, "escape")
        assert isinstance(app.screen, StandingsScreen)
        shown = app.screen.query_one("#warnings", Hanging).plain()
        assert "#5" not in shown and "Outhouses" not in shown and "tickets add up" not in shown


@pilot_test
async def test_tourist_cards_by_name_and_tab(tmp_path: Path) -> None:
    """A tourist card typed by its name gets its printed value; Tab completes the name (any case or accent)."""
    path = write_session(tmp_path, "ticket-to-finland", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, *values("8", ""),  # Ana's ticket
                    *values("kokkola", "-TROMSO"), "sein", "tab", "enter", "enter",  # Ana's tourist cards
                    *values("", ""))  # Bo: nothing
        assert app.screen.step.title == "B. Bonuses"
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["tourists"] == [{"points": 3, "completed": True, "name": "Kokkola"},
                                          {"points": 7, "completed": False, "name": "Tromsø"},
                                          {"points": 5, "completed": True, "name": "Seinäjoki"}]
