"""Pilot tests of what must hold: saving, undo/redo, resuming, the external-change guard, names, bad files."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.widgets import Input, Static

from scorekeeper import store
from scorekeeper.model.session import Round
from scorekeeper.tui import compat
from scorekeeper.tui.screens.dialogs import ConflictScreen, ErrorScreen
from scorekeeper.tui.screens.help import HelpScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.listing import SessionList
from scorekeeper.tui.screens.new_session import NewSessionScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from scorekeeper.tui.widgets.hanging import Hanging
from scorekeeper.tui.widgets.steps import StepList
from tests.test_tui_support import (
    AT_ONCE,
    burst,
    enter,
    pilot_test,
    running,
    saved,
    settle,
    type_text,
    values,
    write_session,
)


def live_text(screen: WalkthroughScreen, player: str) -> str:
    """What a player's row says beside the inputs."""
    return " ".join(screen.row_text(player).split())


@pilot_test
async def test_every_value_is_saved_as_typed(tmp_path: Path) -> None:
    """A number is saved as it is typed (before Enter), and the reason shows live."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "pagedown", "pagedown", "pagedown", "pagedown", "pagedown", "pagedown", "pagedown")
        screen = app.screen
        assert screen.step.title == "#8"
        await type_text(pilot, "5")
        assert saved(path)[0].rounds[0].players == {"Ana": {"attractions": {"8": 5}}}
        assert "+8" in live_text(screen, "Ana") and "most #8 (5 cards; next best 0): 8" in live_text(screen, "Ana")


@pilot_test
async def test_a_value_the_checks_refuse_is_shown_and_not_saved(tmp_path: Path) -> None:
    """9 for #8, text, a negative: the core's message at the field; the file keeps the last good value."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        screen.go(7)
        await settle(pilot)
        await type_text(pilot, "4")
        await type_text(pilot, "4")  # 44
        assert "✗ not saved: 44 is out of range; expected a whole number from 0 to 8" in live_text(screen, "Ana")
        assert saved(path)[0].rounds[0].players["Ana"]["attractions"] == {"8": 4}
        await burst(pilot, "enter")  # refused: stays on the field
        assert screen.spots[screen.at].player == 0
        assert screen.query_one("#steps", StepList).titles[7].plain.startswith("✗")
        await burst(pilot, "backspace", "backspace", "a", "b", "c")
        assert "text ('abc') is not allowed here" in live_text(screen, "Ana")
        await burst(pilot, "backspace", "backspace", "backspace", "-1")
        assert "-1 is out of range" in live_text(screen, "Ana")
        assert saved(path)[0].rounds[0].players["Ana"].get("attractions", {}) == {}
        await burst(pilot, "backspace", "backspace", "8", "enter")
        assert "not saved" not in live_text(screen, "Ana")
        assert screen.spots[screen.at].player == 1
    assert saved(path)[0].rounds[0].players["Ana"]["attractions"] == {"8": 8}


@pilot_test
async def test_cross_field_errors_refuse_and_warnings_save(tmp_path: Path) -> None:
    """A special card held twice is refused (and accepted once the other holder lets go); a warning is saved."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        screen.go(11)
        await settle(pilot)
        assert screen.step.title == "Outhouse"
        await burst(pilot, *values("3", "1"))
        assert "not saved: 4 Outhouses are held (Ana 3, Bo 1); there are 3 Outhouse cards" in live_text(screen, "Bo")
        assert "outhouses" not in saved(path)[0].rounds[0].players.get("Bo", {})
        await burst(pilot, "up", "2")  # Ana gives one back: Bo's refused 1 now fits and is saved too
        players = saved(path)[0].rounds[0].players
        assert players["Ana"]["outhouses"] == 2 and players["Bo"]["outhouses"] == 1
        screen.go(0)
        await settle(pilot)
        await enter(pilot, "1", "1")  # #1 cards add up to 2 of 1: impossible, refused (issue 12)
        assert screen.step.title == "#1"
        assert "not saved: the #1 cards add up to 2" in live_text(screen, "Bo")
        await burst(pilot, "up", "backspace", "0")  # Ana lets go: Bo's pending 1 now fits and is saved
        assert saved(path)[0].rounds[0].players["Bo"]["attractions"] == {"1": 1}
        await burst(pilot, "enter", "backspace", "0", "enter")  # nobody holds the #1: a warning, saved, told
        assert screen.step.title == "#2"
        assert "⚠ #1: nobody holds the #1 card, but every card is taken" in str(
            screen.query_one("#step-title", Static).render())
        assert not compat.notifications(app)  # told under the heading, not in a toast over the grid
        assert screen.query_one("#steps", StepList).titles[0].plain.startswith("⚠")
        await burst(pilot, "pageup")
        assert "⚠ nobody holds the #1 card" in screen.query_one("#step-notes", Hanging).plain()
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["attractions"]["1"] == 0 and players["Bo"]["attractions"]["1"] == 0


@pilot_test
async def test_undo_and_redo_reach_back_through_the_session(tmp_path: Path) -> None:
    """ctrl+z undoes field by field (a field typed digit by digit is one step), across steps; ctrl+y redoes."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        await enter(pilot, "1", "0")  # #1: Ana 1, Bo 0
        await enter(pilot, "1", "1")  # #2: Ana 1, Bo 1
        assert screen.step.title == "#3"
        await burst(pilot, "1", "0")  # #3: Ana 10? refused (0..3) — only "1" was saved
        assert saved(path)[0].rounds[0].players["Ana"]["attractions"] == {"1": 1, "2": 1, "3": 1}
        await burst(pilot, "ctrl+z")
        assert saved(path)[0].rounds[0].players["Ana"]["attractions"] == {"1": 1, "2": 1}
        await burst(pilot, "ctrl+z", "ctrl+z")
        session = saved(path)[0]
        assert session.rounds[0].players["Ana"]["attractions"] == {"1": 1}
        assert session.rounds[0].players["Bo"]["attractions"] == {"1": 0}
        assert screen.step.title == "#2"  # the walkthrough shows where the change was
        for _ in range(3):
            await burst(pilot, "ctrl+z")
        assert saved(path)[0].rounds[0].players == {}
        assert screen.step.title == "#1"
        await burst(pilot, "ctrl+y", "ctrl+y", "ctrl+y", "ctrl+y")
        session = saved(path)[0]
        assert session.rounds[0].players["Ana"]["attractions"] == {"1": 1, "2": 1}
        assert session.rounds[0].players["Bo"]["attractions"] == {"1": 0, "2": 1}
        assert screen.editors[(0, 0)].box.text == "1" and screen.step.title == "#2"


@pilot_test
async def test_values_typed_in_one_burst_are_undone_one_by_one(tmp_path: Path) -> None:
    """Keys typed together are saved in one write, yet each value is its own undo step, as if typed slowly."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, *values("1", "0", "1", "12"))  # #1: Ana 1, Bo 0; #2: Ana 1, Bo 12 (refused: 0..2)
        await burst(pilot, "backspace", "1", "enter")  # Bo 1
        assert saved(path)[0].rounds[0].players == {"Ana": {"attractions": {"1": 1, "2": 1}},
                                                   "Bo": {"attractions": {"1": 0, "2": 1}}}
        undone = []
        for _ in range(4):
            await burst(pilot, "ctrl+z")
            undone.append(saved(path)[0].rounds[0].players)
        assert undone == [{"Ana": {"attractions": {"1": 1, "2": 1}}, "Bo": {"attractions": {"1": 0}}},
                          {"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}},
                          {"Ana": {"attractions": {"1": 1}}}, {}]
        await burst(pilot, "ctrl+y", "ctrl+y")
        assert saved(path)[0].rounds[0].players == {"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}}


@pilot_test
async def test_undo_reaches_into_an_earlier_round(tmp_path: Path) -> None:
    """Starting the next round and the values of the round before are all undoable from the walkthrough."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 2})
    async with running(tmp_path, path) as (app, pilot):
        await enter(pilot, "1", "2", "1", "2", "", "", "", "", "", "", "", "")
        await burst(pilot, "enter")
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "enter")  # round 2
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.number == 2
        assert len(saved(path)[0].rounds) == 2
        await burst(pilot, "ctrl+z")  # the new round goes away: back to the standings
        assert len(saved(path)[0].rounds) == 1
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "ctrl+z")  # the last value of round 1
        assert saved(path)[0].rounds[0].players["Bo"]["character"] == {"count": 0}
        await burst(pilot, "ctrl+y", "ctrl+y")
        assert len(saved(path)[0].rounds) == 2


@pilot_test
async def test_resume_after_the_app_is_closed_mid_round(tmp_path: Path) -> None:
    """Close in the middle of a step: reopening shows the first step not yet scored, values kept."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"])
    async with running(tmp_path, path) as (app, pilot):
        await enter(pilot, "1", "0", "0", "0", "2", "0")  # #1 and #2
        await enter(pilot, "1")  # #3: Ana only
        await type_text(pilot, "2")  # #3 Bo typed, not confirmed
    session, _ = saved(path)
    assert session.rounds[0].players["Bo"]["attractions"] == {"1": 0, "2": 2, "3": 2}
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert screen.number == 1 and screen.step.title == "#3"
        assert screen.spots[screen.at].player == 2  # Cy has no #3 yet
        assert [screen.editors[(p, 0)].box.text for p in range(3)] == ["1", "2", ""]
        steps = screen.query_one("#steps", StepList)
        assert steps.titles[0].plain.startswith("✓") and steps.titles[1].plain.startswith("✓")
        assert not steps.titles[2].plain.startswith("✓") and steps.current == 2


@pilot_test
async def test_finished_session_opens_on_the_standings(tmp_path: Path) -> None:
    """A session whose game is over opens on the standings with the winner."""
    players = {"Ana": {"pairs": {"count": 1, "each": 3}, "character": {"count": 1, "each": 1}},
               "Bo": {"pairs": {"count": 1, "each": 2}, "occupancy": {"count": 1, "each": 1}}}
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(Round(players=players),))
    async with running(tmp_path, path) as (app, pilot):
        assert isinstance(app.screen, StandingsScreen)
        assert "Finished — Ana won" in str(app.screen.query_one("#result", Static).render())
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)


@pilot_test
async def test_the_same_field_changed_on_disk_at_once_asks(tmp_path: Path) -> None:
    """Someone sets Bo's #1 in the file while Bo's #1 is typed here: the save asks; cancel keeps theirs and shows
    it (typed over then, it is saved); a change elsewhere that touches no field (a comment) is merged without a
    question, the comment kept aside. (Reload: tests/test_tui_home.py.)"""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, watch=AT_ONCE) as (app, pilot):
        await enter(pilot, "0")
        theirs = saved(path)[0].with_value(1, "Bo", "attractions", {"1": 1})
        store.save(path, theirs)
        text = path.read_text()
        await pilot.press("0")  # Bo #1 here: 0, there: 1
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        await pilot.press("c")  # cancel: nothing written; the screen shows the file as it is
        await settle(pilot)
        assert path.read_text() == text
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and app.doc.session == theirs
        assert [screen.editors[(p, 0)].box.text for p in range(2)] == ["0", "1"]
        await pilot.press("tab", "0")  # Bo's box again, typed over their value, seen: saved, no question
        await settle(pilot)
        assert not isinstance(app.screen, ConflictScreen)
        assert saved(path)[0].rounds[0].players["Bo"]["attractions"]["1"] == 0
        path.write_text(path.read_text() + "\n# hand edit\n")
        await pilot.press("ctrl+z")  # undo: the file changed, no field of it did: merged, its comment kept aside
        await settle(pilot)
        assert not isinstance(app.screen, ConflictScreen)
    assert "# hand edit" not in path.read_text() and saved(path)[0] == theirs
    assert any("# hand edit" in kept.read_text() for kept in (tmp_path / "trash").glob("*"))


@pilot_test
async def test_a_title_edited_on_disk_between_two_values_is_merged_without_a_question(tmp_path: Path) -> None:
    """As a person meets it: a value typed, the title changed in another editor, a second value typed key by key:
    no question (they changed another field), the file holds their title and both values, the title bar shows
    theirs (on every Python: the save path hands its worker what it answers for)."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], title="Friday")
    async with running(tmp_path, path, watch=AT_ONCE) as (app, pilot):
        await pilot.press("1", "enter")  # Ana holds the one #1 card
        await settle(pilot)
        path.write_text(path.read_text().replace('"Friday"', '"Friday at Mia\'s"'))
        await pilot.press("0")
        await settle(pilot)
        assert not isinstance(app.screen, ConflictScreen) and app.return_code is None
        assert app.screen.title == "Friday at Mia's"
    session = saved(path)[0]
    assert session.title == "Friday at Mia's"
    assert session.rounds[0].players["Ana"]["attractions"]["1"] == 1
    assert session.rounds[0].players["Bo"]["attractions"]["1"] == 0


@pilot_test
async def test_a_change_made_elsewhere_shows_within_a_second_without_a_question(tmp_path: Path) -> None:
    """Live sessions: another place saves Bo's value while Ana's box has the keyboard here: it appears in Bo's box
    within a second, the cursor stays, and Ana's value typed next is saved beside it."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        store.save(path, saved(path)[0].with_value(1, "Bo", "pairs", {"count": 4}))
        for _ in range(20):
            await pilot.pause(0.1)
            if screen.editors[(1, 0)].box.text == "4":
                break
        assert screen.editors[(1, 0)].box.text == "4" and screen.at == 0
        await pilot.press("2", "enter")
        await settle(pilot)
        assert not isinstance(app.screen, ConflictScreen)
    players = saved(path)[0].rounds[0].players
    assert players["Ana"]["pairs"]["count"] == 2 and players["Bo"]["pairs"]["count"] == 4


@pilot_test
async def test_changes_made_while_the_question_is_open_wait_for_it(tmp_path: Path) -> None:
    """The file changed on disk: the saves made while the question is open wait; the answer applies to the newest
    (one write; the changes it replaced are not written alone but stay undo steps); cancel saves none of them."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, watch=AT_ONCE) as (app, pilot):
        assert app.doc is not None
        ours = app.doc.session
        store.save(path, replace(ours, title="theirs"))
        first = app.save(replace(ours, title="one"))
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen) and not first.done()
        second, third = app.save(replace(ours, title="two")), app.save(replace(ours, title="three"))
        await settle(pilot)
        assert first.done() and second.done() and not third.done()
        assert not first.result() and not second.result()
        await burst(pilot, "o")
        assert third.done() and third.result() and not isinstance(app.screen, ConflictScreen)
        assert saved(path)[0].title == "three"  # written once, and none of the changes lost as an undo step:
        assert len(app.doc.undo_stack) == 3
        text = path.read_text().replace('title = "three"', 'title = "by hand"')
        path.write_text(text)
        late = app.save(replace(ours, title="four"))
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        await burst(pilot, "c")
        assert late.done() and not late.result()
        assert path.read_text() == text and app.doc.session.title == "by hand"


@pilot_test
async def test_a_name_with_markup_is_shown_literally(tmp_path: Path) -> None:
    """A player named `[bold]x[/]` shows those characters on every screen."""
    name = "[bold]x[/]"
    path = write_session(tmp_path, "ticket-booth", [name, "Bo"], title="[red]Friday[/red]")
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert name in screen.row_text(name)
        await enter(pilot, "1")
        assert name in str(screen.query_one("#round-table", Static).render())
        await burst(pilot, "escape")
        assert isinstance(app.screen, StandingsScreen)
        assert name in str(app.screen.query_one("#table", Static).render())
        assert name in app.screen.query_one("#breakdown .player-card", Hanging).plain()
        await burst(pilot, "escape")
        home = app.screen
        assert isinstance(home, HomeScreen)
        prompt = home.query_one("#sessions", SessionList).plain()
        assert name in prompt and "[red]Friday[/red]" in prompt and f"{name} leads" in prompt


@pilot_test
async def test_a_broken_file_is_listed_and_opens_to_the_core_message(tmp_path: Path) -> None:
    """The home screen lists an invalid file with its first problem; opening it shows the message, no traceback."""
    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="good.toml")
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\ngame = "ticket-booth"\nplayers = ["Ana", "Bo"]\n\n[[rounds]]\n'
                   '[rounds.players.Ana]\nattractions = { "8" = 9 }\n')
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert [e.path.name for e in home.entries] == ["bad.toml", "good.toml"]
        prompt = home.query_one("#sessions", SessionList).plain().split("\n")
        assert "has problems" in prompt[0] and "9 is out of range" in prompt[1]
        await burst(pilot, "enter")
        assert isinstance(app.screen, ErrorScreen)
        text = str(app.screen.query_one(".problems Static", Static).render())
        assert 'rounds[1].players."Ana".attractions."8" (line 7)' in text
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)


@pilot_test
async def test_opening_a_broken_file_directly(tmp_path: Path) -> None:
    """`scorekeeper FILE` on a file that is not TOML: the core's message over the home screen."""
    bad = tmp_path / "bad.toml"
    bad.write_text("format = = 1\n")
    async with running(tmp_path, bad) as (app, pilot):
        assert isinstance(app.screen, ErrorScreen)
        assert "not valid TOML" in str(app.screen.query_one(".problems Static", Static).render())
        await burst(pilot, "escape")
        assert isinstance(app.screen, HomeScreen)


@pilot_test
async def test_new_session_through_the_keyboard(tmp_path: Path) -> None:
    """Pick the game, type the players and a title, change a rule; the file is written and round 1 starts."""
    async with running(tmp_path / "sessions") as (app, pilot):
        await burst(pilot, "ctrl+n")
        assert isinstance(app.screen, NewSessionScreen)
        await burst(pilot, "down", "down", "down", "enter")  # Ticket to Mars
        await type_text(pilot, "Ana")
        await burst(pilot, "enter")
        await type_text(pilot, "ana")
        assert "listed twice" in str(app.screen.query_one("#player-2-problem", Static).render())
        await burst(pilot, "ctrl+s")
        assert isinstance(app.screen, NewSessionScreen)  # refused
        await burst(pilot, "backspace", "backspace", "backspace")
        await type_text(pilot, "Bo")
        app.screen.query_one("#title", Input).value = "Mars night"
        rule = app.screen.query_one("#rules .rule-input", Input)
        rule.value = "2"
        await burst(pilot, "ctrl+s")
        assert isinstance(app.screen, WalkthroughScreen)
        assert app.screen.step.title == "Pairs"
    path = tmp_path / "sessions" / "2026-11-27-1930-ticket-to-mars-mars-night.toml"
    session, _ = saved(path)
    assert session.players == ("Ana", "Bo") and session.title == "Mars night"
    assert session.rules == {"rounds": 2} and len(session.rounds) == 1


@pilot_test
async def test_empty_folder_says_how_to_start(tmp_path: Path) -> None:
    """No sessions: the home screen says how to start and offers a sample."""
    async with running(tmp_path / "none-yet") as (app, pilot):
        text = str(app.screen.query_one("#empty", Static).render())
        assert "No sessions yet" in text and "Press ctrl+n" in text and "Press ctrl+o" in text


@pilot_test
async def test_help_and_command_palette(tmp_path: Path) -> None:
    """F1 lists the keys and the game's rules; the palette holds the screen's actions."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        keys = app.screen.query_one("#help-keys", Hanging).plain()
        rules = app.screen.query_one("#help-rules", Hanging).plain()
        assert "the standings" in keys and "undo" in keys and "who holds the Ticket Booth" in keys
        assert "card lists" not in keys  # The Ticket Booth has none
        assert "booth_tie (default \"full\")" in rules and "Three rounds" in rules
        await burst(pilot, "escape")
        await burst(pilot, "?")  # in a number box, ? is help too
        assert isinstance(app.screen, HelpScreen)
        await burst(pilot, "escape")
        titles = [c.title for c in app.get_system_commands(app.screen)]
        titles += [name for name, _, _ in app.screen.palette()]
        for title in ("Go to step: Tickets", "Standings", "Next step", "Prev step", "Undo", "Redo", "Help"):
            assert title in titles
        await burst(pilot, "ctrl+p")
        await type_text(pilot, "tickets")
        await burst(pilot, "enter")
        assert app.screen.step.title == "Tickets"


@pilot_test
async def test_steps_can_be_revisited_by_keyboard_and_mouse(tmp_path: Path) -> None:
    """ctrl+l focuses the side list, up/down/Enter picks a step; a click on a step goes there too."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        await burst(pilot, "ctrl+l", "down", "down", "down", "enter")
        assert screen.step.title == "#4"
        await pilot.click("#steps", offset=(3, 13))  # Ticket Booth: the list's 13th line, below its top border
        await settle(pilot)
        assert screen.step.title == "Ticket Booth"
        start, _ = screen.spans["Bo"]
        await pilot.click(StepGrid, offset=(2, start))  # a click on Bo's row: Bo holds it
        await settle(pilot)
        assert saved(path)[0].rounds[0].players["Bo"]["ticket_booth"] is True
        assert screen.step.title == "Demolition Derby"
        await burst(pilot, "escape")
        assert isinstance(app.screen, StandingsScreen)


@pilot_test
async def test_key_bar_lists_the_keys_and_clicks_them(tmp_path: Path) -> None:
    """The bottom bar shows the screen's keys; a click presses one."""
    from scorekeeper.tui.widgets.bars import KeyBar, keys_text

    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="a.toml")
    async with running(tmp_path) as (app, pilot):
        bar = app.screen.query_one(KeyBar)
        assert "^n New session" in keys_text(bar) and "f1 Help" in keys_text(bar)
        start = next(x for x, _, key in bar._spans if key == "ctrl+n")
        await pilot.click(KeyBar, offset=(start + 2, 0))  # " ^n New session "
        await settle(pilot)
        assert isinstance(app.screen, NewSessionScreen)


@pilot_test
async def test_the_command_palette_has_one_of_each_and_the_apps_own_first(tmp_path: Path) -> None:
    """The home screen's palette: the app's actions first, Textual's after them, and one Quit (ours, ctrl+q)."""
    async with running(tmp_path) as (app, pilot):
        titles = [c.title for c in app.get_system_commands(app.screen)]
        assert titles.count("Quit") == 1 and len(titles) == len(set(titles))
        assert titles.index("New session") < titles.index("Theme")
        (quit_,) = [c for c in app.get_system_commands(app.screen) if c.title == "Quit"]
        assert quit_.help == "key: ^q"
