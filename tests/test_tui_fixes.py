"""Fixes noticed in use: keys typed while a screen is pushed land on it, one truth for a round's state, help
from what the screen offers, invalid files told from unreadable ones, toasts that keep the grid in view."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual import events
from textual.widgets import Static

from scorekeeper.model.session import Round
from scorekeeper.tui import compat
from scorekeeper.tui.screens.dialogs import ErrorScreen
from scorekeeper.tui.screens.help import HelpScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.bars import KeyBar, keys_text
from scorekeeper.tui.widgets.hanging import Hanging
from tests.test_tui_support import app_for, burst, pilot_test, running, saved, settle, values, write_session

SMALL = (80, 24)


# -- 1. keys typed while a screen is being pushed land on it, in order ---------------------------------------
@pilot_test
async def test_ctrl_n_the_form_and_the_first_round_in_one_burst(tmp_path: Path) -> None:
    """From home: ctrl+n, Ticket to Mars, two names, a title, ctrl+s, then round 1, all in one burst."""
    async with running(tmp_path, size=SMALL) as (app, pilot):
        await burst(pilot, "ctrl+n", "down", "down", "down", "enter", *values("Ana", "Bo"), "tab", "tab", "tab",
                    "Mars night", "ctrl+s",
                    *values("2", "3", "3", "2", "1", "4", "2", "2", "", "5", "1", "5"))
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.step.title == "Summary"
    [path] = tmp_path.glob("*.toml")
    session, _ = saved(path)
    assert session.game == "ticket-to-mars" and session.players == ("Ana", "Bo")
    assert session.title == "Mars night"
    assert session.rounds[0].players == {
        "Ana": {"pairs": {"count": 2, "each": 3}, "occupancy": {"count": 1, "each": 4},
                "character": {"count": 0, "each": 5}},
        "Bo": {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 2, "each": 2},
               "character": {"count": 1, "each": 5}},
    }


MARS_R1 = values("2", "3", "3", "2", "1", "4", "2", "2", "", "5", "1", "5")
MARS_R2 = values("1", "1", "", "", "", "", "2", "2", "", "", "", "")


@pilot_test
async def test_two_rounds_and_the_standings_between_in_one_burst(tmp_path: Path) -> None:
    """Round 1, Enter to the standings, Enter to continue, round 2, Enter: one burst, both rounds saved."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 2})
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, *MARS_R1, "enter", "enter", *MARS_R2, "enter")
        assert isinstance(app.screen, StandingsScreen)
    rounds = saved(path)[0].rounds
    assert len(rounds) == 2
    assert rounds[1].players == {
        "Ana": {"pairs": {"count": 1, "each": 1}, "occupancy": {"count": 0, "each": 0},
                "character": {"count": 0, "each": 0}},
        "Bo": {"pairs": {"count": 0, "each": 0}, "occupancy": {"count": 2, "each": 2},
               "character": {"count": 0, "each": 0}},
    }


@pilot_test
async def test_edit_a_round_from_the_standings_and_type_at_once(tmp_path: Path) -> None:
    """On the standings, `1` (edit round 1) and new values at once: they land in round 1's first boxes."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, *MARS_R1)
        await burst(pilot, "enter")
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "1", "7", "enter", "9", "enter", "escape")
        assert isinstance(app.screen, StandingsScreen)
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["pairs"] == {"count": 7, "each": 9}
    assert players["Bo"] == {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 2, "each": 2},
                             "character": {"count": 1, "each": 5}}


@pilot_test
async def test_enter_on_a_round_of_the_list_then_values(tmp_path: Path) -> None:
    """On the standings, ↓ to round 1 and Enter (edit it) and a value in the same burst."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 2})
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, *MARS_R1, "enter")
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "down", "enter", "6", "enter")
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.number == 1
    assert saved(path)[0].rounds[0].players["Ana"]["pairs"] == {"count": 6, "each": 3}


@pilot_test
async def test_help_opened_and_closed_in_the_middle_of_a_burst(tmp_path: Path) -> None:
    """`2 ? Esc ⏎ 3 ⏎` on the walkthrough in one burst: ? opens the help (the keys after it go there), Esc closes
    it, and the rest lands in the boxes: Ana's pairs are 2 × 3."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, "2", "?", "escape", "enter", "3", "enter", "4")
        assert isinstance(app.screen, WalkthroughScreen)
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["pairs"] == {"count": 2, "each": 3} and players["Bo"]["pairs"]["count"] == 4


@pilot_test
async def test_should_the_key_queue_fail_keys_still_arrive(tmp_path: Path) -> None:
    """A fault in the key queue turns it off: the keys it held and later ones go straight to the app."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):

        async def broken() -> None:
            raise RuntimeError("a fault")

        app.typed.ready = broken  # type: ignore[method-assign]
        await burst(pilot, *values("2", "3"))
        await burst(pilot, *values("3", "2"))
        assert app.typed.off
    assert saved(path)[0].rounds[0].players["Ana"]["pairs"] == {"count": 2, "each": 3}
    assert saved(path)[0].rounds[0].players["Bo"]["pairs"] == {"count": 3, "each": 2}


# -- 2. one truth for a round's state: the round list and the breakdown agree ---------------------------------
@pilot_test
async def test_a_finland_round_stopped_before_the_routes_is_not_finished_everywhere(tmp_path: Path) -> None:
    """Steps A to C typed, Esc before Routes: the round list and the breakdown both say "not finished"."""
    path = write_session(tmp_path, "ticket-to-finland", ["Ana", "Bo"])
    async with running(tmp_path, path, size=(120, 40)) as (app, pilot):
        await burst(pilot,
                    *values("10", "-6", "", "6 Pori", "-3", ""),
                    *values("7", "", ""),
                    *values("6", "2", "1", "9", "14", "2", "10"),
                    *values("4", "3", "1", "7", "14", "0", "0"),
                    "enter")
        assert app.screen.step.title == "Routes"
        await burst(pilot, "escape")
        screen = app.screen
        assert isinstance(screen, StandingsScreen)
        listing = str(screen.query_one("#rounds").get_option_at_index(1).prompt)
        cards = [str(c.plain()) for c in screen.query(".player-card").results(Hanging)]
        assert "not finished" in listing and "complete" not in listing, listing
        assert all("Round 1: " in c and "(not finished)" in c for c in cards), cards


# -- 3. help from what the screen and its steps offer ----------------------------------------------------------
async def help_text(pilot) -> str:  # type: ignore[no-untyped-def]
    """F1, the keys listed, and back."""
    pilot.app.post_message(events.Key("f1", None))
    await settle(pilot)
    assert isinstance(pilot.app.screen, HelpScreen)
    text = pilot.app.screen.query_one("#help-keys", Hanging).plain()
    await burst(pilot, "escape")
    return " ".join(text.split())


@pilot_test
async def test_help_lists_the_keys_of_this_game_and_step(tmp_path: Path) -> None:
    """Ticket to Ride: no seat numbers (a Ticket Booth key); the routes step explains its row and its columns;
    The Ticket Booth: the seat numbers with the players; Mars: Enter moves from count to each."""
    ttr = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], name="ttr.toml")
    booth = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="booth.toml")
    mars = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], name="mars.toml")
    async with app_for(tmp_path, ttr).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = await help_text(pilot)
        assert "seat" not in text and "who holds" not in text
        assert "goes to the next player" in text and "card lists" in text
        assert "ctrl+e enter routes as counts by length instead" in text
        assert "Tab, shift+Tab" not in text  # Tab stays in the step
    async with app_for(tmp_path, booth).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = await help_text(pilot)
        assert "who holds the Ticket Booth / Demolition Derby / Piglet Race: the seat number (1 Ana, 2 Bo)" in text
        assert "card lists" not in text and "the same column" not in text
    async with app_for(tmp_path, mars).run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        text = await help_text(pilot)
        assert "moves along the player's row (count → each)" in text and "who holds" not in text


# -- 4. the footer says what Enter does on the standings' highlighted line -----------------------------------
@pilot_test
async def test_a_finished_games_footer_says_edit_round(tmp_path: Path) -> None:
    """Round 1 of Mars played, one round scheduled: the game is over, Enter edits a round; before it is played,
    Enter continues."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, "escape")
        assert "⏎ Continue" in keys_text(app.screen.query_one(KeyBar))
        await burst(pilot, "enter", *MARS_R1, "enter")
        assert isinstance(app.screen, StandingsScreen)
        shown = keys_text(app.screen.query_one(KeyBar))
        assert "⏎ Edit round" in shown and "Continue" not in shown
        text = await help_text(pilot)
        assert "pick a round; Enter edits it" in text and "continue" not in text


# -- 5. a file that cannot be read is told from one with problems ---------------------------------------------
@pilot_test
async def test_home_tells_unreadable_files_from_invalid_ones(tmp_path: Path) -> None:
    """Not TOML and not UTF-8: `cannot be read`; TOML the core refuses: `has problems`, its first problem below,
    and the same problem first when it is opened."""
    (tmp_path / "a-notoml.toml").write_text("format = = 1\n")
    (tmp_path / "b-latin1.toml").write_bytes(b'format = 1\ntitle = "caf\xe9"\n')
    (tmp_path / "c-invalid.toml").write_text('format = 1\ngame = "ticket-booth"\nplayers = ["Ana", "Bo"]\n\n'
                                             '[[rounds]]\n[rounds.players.Ana]\nattractions = { "8" = 9 }\n')
    async with running(tmp_path, size=(120, 40)) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        rows = {e.path.name: e.prompt().plain for e in home.entries}
        assert "cannot be read" in rows["a-notoml.toml"] and "not valid TOML" in rows["a-notoml.toml"]
        assert "cannot be read" in rows["b-latin1.toml"] and "UTF-8" in rows["b-latin1.toml"]
        assert "has problems" in rows["c-invalid.toml"] and "9 is out of range" in rows["c-invalid.toml"]
        assert "unreadable" not in " ".join(rows.values())
        home.open(next(e for e in home.entries if e.path.name == "c-invalid.toml"))
        await settle(pilot)
        assert isinstance(app.screen, ErrorScreen)
        first = str(app.screen.query_one(".problems Static", Static).render()).splitlines()[0]
        assert "9 is out of range" in first


# -- 6. one convention for positions: line and column from 1, in characters -------------------------------------
def test_positions_in_text_errors_are_line_and_column_from_one(tmp_path: Path) -> None:
    """Not UTF-8 after an accented letter, and TOML syntax errors: `(line L, column C)`, as tomllib counts."""
    from scorekeeper import files
    from scorekeeper.model.session import SessionError
    from scorekeeper.store import reading

    bad = tmp_path / "latin1.toml"
    bad.write_bytes('format = 1\ntitle = "é'.encode() + b'\xe9"\n')
    try:
        reading.read_text(bad)
    except SessionError as exc:
        said = exc.problems[0].describe()
    assert said == ("error: the file (line 2, column 11): the file is not UTF-8 text: the byte 0xE9 is not a "
                    "character of UTF-8")
    _, problems = files.parse("format = 1\ntitle = = 1\n")
    assert problems[0].describe() == "error: the file (line 2, column 9): not valid TOML: Invalid value"
    _, problems = files.parse('format = 1\nplayers = ["Ana"\n')
    assert problems[0].describe() == "error: the file (line 3, column 1): not valid TOML: Unclosed array at the end " \
                                     "of the file"


# -- 7. a step's warning is shown in the page, not in a toast over the grid --------------------------------------
@pilot_test
async def test_a_steps_warning_shows_under_the_next_heading_not_in_a_toast(tmp_path: Path) -> None:
    """Two Outhouses of three in a 2-player game (all are taken): on to the Ticket Booth, the warning stands under
    its heading at 80×24, no toast covers the grid; the step after drops it."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        screen.go(11)
        assert screen.step.title == "Outhouse"
        await burst(pilot, *values("1", "1"))
        assert screen.step.title == "Ticket Booth"
        assert not compat.notifications(app), compat.notifications(app)
        heading = str(screen.query_one("#step-title", Static).render())
        assert "⚠ Outhouse: " in heading and "3" in heading and "PageUp goes back" in heading
        await burst(pilot, "0")
        assert screen.step.title != "Ticket Booth"
        assert "Outhouse" not in str(screen.query_one("#step-title", Static).render())
    assert saved(path)[0].rounds[0].players["Ana"]["outhouses"] == 1


# -- 8. no tie-break sentence before any round is scored, in every game --------------------------------------
@pytest.mark.parametrize("game", ["ticket-booth", "ticket-to-ride", "ticket-to-finland", "ticket-to-mars"])
def test_no_tiebreak_before_any_round_is_scored(tmp_path: Path, game: str,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    """score --json says null, the text has no Tie-break line; once a round is played a tie is told."""
    from scorekeeper.cli import main

    path = write_session(tmp_path, game, ["Ana", "Bo"])
    assert main(["score", "--json", str(path)]) == 0
    result = json.loads(capsys.readouterr().out)
    assert result["tiebreak"] is None and result["winners"] == ["Ana", "Bo"] and not result["complete"]
    assert main(["score", str(path)]) == 0
    assert "Tie-break" not in capsys.readouterr().out
    played = write_session(tmp_path, game, ["Ana", "Bo"], name="played.toml",
                           rounds=(Round(players={"Ana": {}, "Bo": {}}),))
    assert main(["score", "--json", str(played)]) == 0
    assert json.loads(capsys.readouterr().out)["tiebreak"]


@pilot_test
async def test_the_standings_show_no_tiebreak_before_any_round(tmp_path: Path) -> None:
    """The standings of a session not begun: no tie-break sentence."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, size=SMALL) as (app, pilot):
        await burst(pilot, "escape")
        assert isinstance(app.screen, StandingsScreen)
        assert not app.screen.query_one("#tiebreak", Static).display


# -- 9. "nobody has 2 or fewer trains left" is a warning only -------------------------------------------------
def test_the_trains_left_warning_is_informational(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Every player gave routes, nobody used 43: a warning; check exits 0 and the points are the routes'."""
    from scorekeeper.cli import main

    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rounds=(Round(players={
        "Ana": {"routes": {"3": 2}}, "Bo": {"routes": {"4": 1}}}),))
    session, sheet = saved(path)
    found = [p for p in sheet.problems if "trains left" in p.message]
    assert len(found) == 1 and not found[0].is_error
    assert sheet.totals == {"Ana": 8, "Bo": 7}
    assert main(["check", str(path)]) == 0
    assert "warning" in capsys.readouterr().out
