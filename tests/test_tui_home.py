"""Pilot tests of the home screen, the new-session form and the evening's corrections (issue 10)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static, TextArea

from scorekeeper import games, store
from scorekeeper.games.base import Game, Rule
from scorekeeper.model.session import Round
from scorekeeper.tui.screens.dialogs import ConfirmScreen, DetailsScreen, RenameScreen, SeatingScreen
from scorekeeper.tui.screens.help import HelpScreen
from scorekeeper.tui.screens.home import HomeScreen
from scorekeeper.tui.screens.listing import SessionList
from scorekeeper.tui.screens.new_session import MAX_PLAYERS, NewSessionScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.trash import TrashScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.bars import KeyBar, keys_text
from tests.test_tui_games import booth_expected
from tests.test_tui_support import (
    AT_ONCE,
    SIZE,
    app_for,
    burst,
    pilot_test,
    running,
    saved,
    type_text,
    values,
    write_session,
)

MARS_DONE = Round(players={"Ana": {"pairs": {"count": 1, "each": 3}, "character": {"count": 1, "each": 1}},
                           "Bo": {"pairs": {"count": 1, "each": 2}, "occupancy": {"count": 1, "each": 1}}})


def folder_state(folder: Path) -> dict[str, bytes]:
    """Every file under the folder with its bytes (trash included)."""
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def three_sessions(folder: Path) -> None:
    """A folder with sessions whose players are the names typed in the tests."""
    write_session(folder, "ticket-booth", ["Dylan", "Rosa"], name="a.toml", title="Friday", aged=0)
    write_session(folder, "ticket-to-mars", ["Quinn", "Sam"], name="b.toml", title="Mars night", aged=1)
    write_session(folder, "ticket-to-finland", ["Nora", "Ana"], name="c.toml", aged=2)


# -- 1. home: printable keys are the filter's ------------------------------------------
@pilot_test
async def test_names_typed_in_a_burst_reach_the_filter_and_destroy_nothing(tmp_path: Path) -> None:
    """"dylan", "quinn", "sam", "nora" as bursts: each lands whole in the filter; no file moves; the app runs."""
    three_sessions(tmp_path)
    before = folder_state(tmp_path)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        box = home.query_one("#filter", Input)
        for name, match in (("dylan", "a.toml"), ("quinn", "b.toml"), ("sam", "b.toml"), ("nora", "c.toml")):
            await burst(pilot, name)
            assert app.screen is home and app.is_running
            assert box.value == name
            assert [e.path.name for e in home.shown] == [match]
            await burst(pilot, "⎋")
            assert box.value == "" and len(home.shown) == 3
        await burst(pilot, "sam⎋nora")  # Esc in the middle of a burst clears what came before it only
        assert box.value == "nora"
        await burst(pilot, "⎋dylan quinn sam nora ?yq")  # every letter, the space, a question mark and q
        assert box.value == "dylan quinn sam nora ?yq" and app.is_running and app.screen is home
        await burst(pilot, "⌫" * 13 + "xy⌫⌫")  # backspaces typed fast act in their place
        assert box.value == "dylan quinn" and [e.path.name for e in home.shown] == []
        await burst(pilot, "⌫" * 11 + "nora")
        assert box.value == "nora" and [e.path.name for e in home.shown] == ["c.toml"]
    assert folder_state(tmp_path) == before


@pilot_test
async def test_home_commands_are_on_keys_no_name_holds(tmp_path: Path) -> None:
    """ctrl+n new, Delete and ctrl+d delete, F1 help; the footer and the palette list them."""
    three_sessions(tmp_path)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        shown = keys_text(home.query_one(KeyBar))
        for key in ("^n New session", "del Delete", "^t Trash", "^o Open a sample", "^q Quit", "f1 Help"):
            assert key in shown
        assert not any(len(b.key) == 1 for b in HomeScreen.BINDINGS if not isinstance(b, tuple))
        titles = [c.title for c in app.get_system_commands(home)] + [t for t, _, _ in home.palette()]
        for title in ("New session", "Delete", "Trash", "Open a sample", "Quit", "Help", "Open: Friday"):
            assert title in titles
        await burst(pilot, "f1")
        assert isinstance(app.screen, HelpScreen)
        assert "ctrl+n" in app.screen.query_one("#help-keys").plain()
        await burst(pilot, "escape", "ctrl+d")
        assert isinstance(app.screen, ConfirmScreen)
        await burst(pilot, "escape", "delete")
        assert isinstance(app.screen, ConfirmScreen)
        await burst(pilot, "escape", "ctrl+n")
        assert isinstance(app.screen, NewSessionScreen)
    assert len(list(tmp_path.glob("*.toml"))) == 3


@pilot_test
async def test_delete_asks_with_no_as_the_default_and_ctrl_z_brings_it_back(tmp_path: Path) -> None:
    """Enter on the question keeps the file; y moves it to trash/; ctrl+z right after restores it."""
    three_sessions(tmp_path)
    before = folder_state(tmp_path)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        await burst(pilot, "mars")
        await burst(pilot, "ctrl+d", "enter")  # the default answer is No
        assert app.screen is home and folder_state(tmp_path) == before
        await burst(pilot, "ctrl+d", "y")
        assert not (tmp_path / "b.toml").exists() and (tmp_path / "trash" / "b.toml").exists()
        assert "Undo delete" in keys_text(home.query_one(KeyBar))
        await burst(pilot, "ctrl+z")
        assert (tmp_path / "b.toml").read_bytes() == before["b.toml"]
        assert not (tmp_path / "trash" / "b.toml").exists()
        assert home.current() is not None and home.current().path.name == "b.toml"
        assert not home.check_action("undo_delete", ())


@pilot_test
async def test_the_trash_restores_any_file(tmp_path: Path) -> None:
    """Two deletes, then the Trash view: Enter brings back the highlighted one (newest first)."""
    three_sessions(tmp_path)
    before = folder_state(tmp_path)
    store.to_trash(tmp_path / "a.toml")
    store.to_trash(tmp_path / "c.toml")
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+t")
        trash = app.screen
        assert isinstance(trash, TrashScreen)
        assert sorted(e.path.name for e in trash.entries) == ["a.toml", "c.toml"]
        name = trash.entries[1].path.name
        await burst(pilot, "down", "enter")
        assert (tmp_path / name).read_bytes() == before[name]
        assert [e.path.name for e in trash.entries] == [n for n in ("a.toml", "c.toml") if n != name]
        await burst(pilot, "enter", "escape")
        assert isinstance(app.screen, HomeScreen) and len(app.screen.entries) == 3
    assert folder_state(tmp_path) == before


@pilot_test
async def test_the_folder_is_read_once_and_then_only_what_changed(tmp_path: Path, monkeypatch) -> None:
    """The first look reads each file once (in the background, into the index); back from a session, only the
    file that changed is read again; the list paints from the index."""
    from scorekeeper.index import indexing as index_module

    three_sessions(tmp_path)
    reads: list[str] = []
    real = index_module.read_file

    def counting(path: Path) -> object:
        reads.append(Path(path).name)
        return real(path)

    monkeypatch.setattr(index_module, "read_file", counting)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        assert sorted(reads) == ["a.toml", "b.toml", "c.toml"]
        assert sorted(e.path.name for e in home.entries) == ["a.toml", "b.toml", "c.toml"]
        reads.clear()
        await burst(pilot, "mars")
        assert home.query_one("#sessions", SessionList).plain().endswith("— not started")
        await burst(pilot, "enter")  # Mars night: its walkthrough
        await type_text(pilot, "2")
        await burst(pilot, "escape", "escape")
        assert app.screen is home and reads == ["b.toml"]
        assert home.query_one("#sessions", SessionList).plain().endswith("— round 1")  # was "not started"


@pilot_test
async def test_up_down_and_enter_open_the_highlighted_session(tmp_path: Path) -> None:
    """The filter keeps the keyboard: arrows move the highlight, Enter opens it; back home it is read again."""
    three_sessions(tmp_path)
    async with running(tmp_path) as (app, pilot):
        home = app.screen
        assert isinstance(home, HomeScreen)
        names = [e.path.name for e in home.shown]
        await burst(pilot, "↓↓↑⏎")  # in one burst: the arrows move before Enter opens
        assert isinstance(app.screen, WalkthroughScreen) and app.doc.path.name == names[1]
        await burst(pilot, "escape", "escape")
        assert app.screen is home and app.focused is home.query_one("#filter", Input)


# -- 2. every game and every rule choice from the New session screen ----------------------
def choice_cases() -> list[tuple[Game, Rule | None, str | None]]:
    """Each game with its defaults, then each choice of each choice rule (the blank one too)."""
    cases: list[tuple[Game, Rule | None, str | None]] = [(g, None, None) for g in games.GAMES.values()]
    for game in games.GAMES.values():
        for rule in game.rules:
            if rule.kind == "choice":
                cases += [(game, rule, c) for c in rule.choices]
    return cases


def create_keys(game: Game, rule: Rule | None, choice: str | None, title: str) -> list[str]:
    """From the home screen, as one burst: ctrl+n, the game, its fewest players, a title, the rule's choice,
    ctrl+s. Enter in a name box moves to the next box; each rule row holds one input, in the game's order."""
    names = ["Ana", "Bo", "Cy", "Di", "Ed"][:game.min_players]
    keys = ["ctrl+n", *["down"] * list(games.GAMES).index(game.id), "enter", *values(*names),
            *["tab"] * (MAX_PLAYERS - len(names)), title]
    if rule is not None:
        options = ([None] if rule.default is None else []) + list(rule.choices)
        step = options.index(choice) - options.index(rule.default)
        keys += [*["tab"] * (1 + game.rules.index(rule)), "enter", *["down" if step > 0 else "up"] * abs(step),
                 "enter"]
    return [*keys, "ctrl+s"]


CASES = choice_cases()


@pytest.mark.parametrize("n", [  # each game's defaults and one choice in the quick run; CI runs every choice
    pytest.param(n, id=f"{g.id}-{r.key if r else 'defaults'}-{c}",
                 marks=[pytest.mark.slow] if r is not None and (r.key, c) != ("map", "usa") else [])
    for n, (g, r, c) in enumerate(CASES)])
@pilot_test
async def test_every_game_and_every_rule_choice_starts_from_the_new_session_screen(tmp_path: Path, n: int) -> None:
    """Defaults of every game, then each choice of each choice rule: the file holds it, round 1 starts
    (one case a test, so that they run side by side)."""
    game, rule, choice = CASES[n]
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, *create_keys(game, rule, choice, f"case {n}"))
        assert isinstance(app.screen, WalkthroughScreen), (game.id, rule and rule.key, choice,
                                                          app.screen.query_one("#rules-problem", Static).render())
        [path] = tmp_path.glob("*.toml")
        session, _ = saved(path)
        assert session.game == game.id and session.title == f"case {n}"
        assert session.players == tuple(["Ana", "Bo", "Cy", "Di", "Ed"][:game.min_players])
        expected = {} if rule is None or choice == rule.default else {rule.key: choice}
        assert session.rules == expected and len(session.rounds) == 1
        await burst(pilot, "escape", "escape")
        assert isinstance(app.screen, HomeScreen)


@pilot_test
async def test_the_new_session_form_keeps_up_with_a_burst(tmp_path: Path) -> None:
    """`↓⏎Ana⏎Bo⏎Cy⇥⇥Friday` typed in one burst: Ticket to Ride, three players in their boxes, the title."""
    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+n")
        screen = app.screen
        assert isinstance(screen, NewSessionScreen)
        await burst(pilot, "↓⏎Ana⏎Bo⏎Cy⇥⇥⇥Friday")
        assert screen.game.id == "ticket-to-ride"
        assert [screen.query_one(f"#player-{i}", Input).value for i in range(1, 6)] == ["Ana", "Bo", "Cy", "", ""]
        assert screen.query_one("#title", Input).value == "Friday"
        await burst(pilot, "ctrl+s")
        assert isinstance(app.screen, WalkthroughScreen)
    [path] = tmp_path.glob("*.toml")
    session, _ = saved(path)
    assert session.players == ("Ana", "Bo", "Cy") and session.title == "Friday"


def test_textual_is_pinned_exactly() -> None:
    """pyproject pins the Textual the snapshots were made with, and that is the one installed."""
    import tomllib
    from importlib.metadata import version

    project = tomllib.loads((Path(__file__).parent.parent / "pyproject.toml").read_text())
    pins = [d for d in project["project"]["dependencies"] if re.split(r"[=<>!~ \[]", d)[0] == "textual"]
    assert pins == [f"textual=={version('textual')}"]


# -- 3. corrections from the standings ------------------------------------------------------
@pilot_test
async def test_every_round_is_listed_and_enter_edits_it(tmp_path: Path) -> None:
    """Three rounds: each has a line; Enter on round 1 walks it; the footer and help say how."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"],
                         rounds=(Round(players=booth_expected()), Round(players=booth_expected()),
                                 Round(players=booth_expected())))
    async with running(tmp_path, path) as (app, pilot):
        standings = app.screen
        assert isinstance(standings, StandingsScreen)
        listing = standings.query_one("#rounds", OptionList)
        prompts = [str(listing.get_option_at_index(i).prompt) for i in range(listing.option_count)]
        assert [p.split(" · ")[0] for p in prompts] == ["✎ Round 1", "✎ Round 2", "✎ Round 3"]
        assert "Enter Edit round" in " ".join(f"{k} {d}" for _, k, d, _ in
                                                        standings.query_one(KeyBar).keys()).replace("⏎", "Enter")
        await burst(pilot, "f1")
        assert "Enter edits it" in app.screen.query_one("#help-keys").plain()
        await burst(pilot, "escape", "up", "up", "enter")
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.number == 1


@pilot_test
async def test_enter_still_continues_and_any_round_can_be_edited(tmp_path: Path) -> None:
    """After round 1 the first line continues; down then Enter edits round 1."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"], rounds=(Round(players=booth_expected()),))
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "down", "enter")
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.number == 1
        await burst(pilot, "escape")
        await burst(pilot, "enter")
        assert isinstance(app.screen, WalkthroughScreen) and app.screen.number == 2
    assert len(saved(path)[0].rounds) == 2


@pilot_test
async def test_rename_a_player_everywhere_in_one_save_and_undo_it(tmp_path: Path) -> None:
    """r, pick Bo, type a new name: the seating and every round hold it; the score is the same; ctrl+z undoes."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    before = path.read_text()
    _, sheet = saved(path)
    async with running(tmp_path, path) as (app, pilot):
        standings = app.screen
        assert isinstance(standings, StandingsScreen)
        await burst(pilot, "r")
        assert isinstance(app.screen, RenameScreen)
        await burst(pilot, "⇤↓⇥")  # in one burst: from the name box to the list, Bo, back to the box
        assert app.screen.query_one("#new-name", Input).value == "Bo"
        await burst(pilot, "ctrl+a", "ctrl+k")
        await type_text(pilot, "ana")
        assert "listed twice" in str(app.screen.query_one("#rename-problem", Static).render())
        await burst(pilot, "enter")  # refused
        assert isinstance(app.screen, RenameScreen)
        await burst(pilot, "⌫⌫⌫Zoë 🚀⏎")  # in one burst, as tmux sends it
        assert app.screen is standings
        session, renamed = saved(path)
        assert session.players == ("Ana", "Zoë 🚀") and set(session.rounds[0].players) == {"Ana", "Zoë 🚀"}
        assert renamed.totals == {"Ana": sheet.totals["Ana"], "Zoë 🚀": sheet.totals["Bo"]}
        assert "Zoë 🚀" in str(standings.query_one("#table", Static).render())
        assert len(app.doc.undo_stack) == 1
        await burst(pilot, "ctrl+z")
        assert path.read_text() == before
        assert "Zoë" not in str(standings.query_one("#table", Static).render())


@pilot_test
async def test_seating_changes_only_while_no_round_is_scored(tmp_path: Path) -> None:
    """s moves Cy to the first seat before scoring; once a value is saved the seating is locked."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"], rounds=())
    app = app_for(tmp_path, path)
    async with app.run_test(size=SIZE) as pilot:
        await burst(pilot, "escape")  # from round 1's first step up to the standings
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "s")
        assert isinstance(app.screen, SeatingScreen)
        await burst(pilot, "↓↓⇑⇑⏎")  # in one burst
        assert saved(path)[0].players == ("Cy", "Ana", "Bo")
        await burst(pilot, "enter")  # round 1
        await type_text(pilot, "1")
        await burst(pilot, "escape")
        standings = app.screen
        assert isinstance(standings, StandingsScreen) and not standings.check_action("seating", ())
        await burst(pilot, "s")
        assert app.screen is standings
    assert saved(path)[0].players == ("Cy", "Ana", "Bo")


@pilot_test
async def test_title_and_notes_are_edited_in_the_app(tmp_path: Path) -> None:
    """t: a title and two lines of notes saved; the title bar and the standings show them."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,))
    async with running(tmp_path, path) as (app, pilot):
        standings = app.screen
        await burst(pilot, "t")
        assert isinstance(app.screen, DetailsScreen)
        await type_text(pilot, "Mars at Mia's")  # the title, the first box, has the keyboard
        await burst(pilot, "enter")
        await type_text(pilot, "Bo brought pie")
        await burst(pilot, "enter")
        await type_text(pilot, "[red]rematch[/]")
        await burst(pilot, "ctrl+s")
        assert app.screen is standings
        assert standings.title == "Mars at Mia's" and standings.sub_title == "Ticket to Mars"
        assert "[red]rematch[/]" in str(standings.query_one("#notes", Static).render())
        await burst(pilot, "t")
        assert app.screen.query_one("#notes-input", TextArea).text.startswith("Bo brought pie")
        await burst(pilot, "escape")
    session, _ = saved(path)
    assert session.title == "Mars at Mia's" and session.notes == "Bo brought pie\n[red]rematch[/]"


# -- 4. a reload shows the reloaded session everywhere -------------------------------------
@pilot_test
async def test_a_reload_shows_the_new_title_and_names(tmp_path: Path) -> None:
    """The file's players are renamed on disk (another document now) while a rename is typed here: nothing is asked
    and nothing of ours is written into it; the title bar and table follow the file."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(MARS_DONE,), title="Old title")
    async with running(tmp_path, path, watch=AT_ONCE) as (app, pilot):  # renamed there and here at once
        standings = app.screen
        assert isinstance(standings, StandingsScreen) and standings.title == "Old title"
        theirs = saved(path)[0].with_player_renamed("Bo", "Bea")
        from dataclasses import replace

        store.save(path, replace(theirs, title="New title", notes="fixed by hand"))
        await burst(pilot, "r")
        await burst(pilot, "ctrl+a", "ctrl+k")
        await type_text(pilot, "Anna")
        await burst(pilot, "enter")  # not written into another document: the app says so and walks the file anew
        standings = app.screen
        assert isinstance(standings, StandingsScreen)
        assert standings.title == "New title"
        assert "Bea" in str(standings.query_one("#table", Static).render())
        assert "fixed by hand" in str(standings.query_one("#notes", Static).render())
    assert saved(path)[0].players == ("Ana", "Bea")


@pilot_test
async def test_a_title_changed_elsewhere_reaches_the_walkthrough_title_bar(tmp_path: Path) -> None:
    """The walkthrough's title bar follows the file when another place changes the title (live, no question)."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], title="Old title")
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.title == "Old title"
        from dataclasses import replace

        store.save(path, replace(saved(path)[0], title="New title"))
        for _ in range(20):
            await pilot.pause(0.1)
            if screen.title == "New title":
                break
        assert app.screen is screen and screen.title == "New title"
