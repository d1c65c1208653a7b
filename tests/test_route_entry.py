"""Issue 25 item 5: Ticket to Ride's routes are entered one way per session — the score track (one box, the
default) or counts by length (nine boxes) — chosen on New session or with ctrl+e, and kept on reopening."""

from __future__ import annotations

from pathlib import Path

from scorekeeper import games, walk
from scorekeeper.model.session import Round, Session
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from tests.test_tui_support import STARTED, burst, pilot_test, running, saved, values, write_session

TTR = games.get("ticket-to-ride")


def ttr(rounds: tuple[Round, ...] = (Round(),), rules: dict[str, str] | None = None) -> Session:
    return Session(game="ticket-to-ride", players=("Ana", "Bo"), started=STARTED, rules=rules or {}, rounds=rounds)


def routes_keys(screen: WalkthroughScreen) -> set[str]:
    assert screen.step.id == "routes"
    return {slot.key for slot in screen.slots}


# -- the core -------------------------------------------------------------------------------
def test_the_mode_is_chosen_else_what_the_file_holds_else_the_score_track() -> None:
    assert walk.entry_mode(TTR, ttr()) == "route_points"
    assert walk.entry_mode(TTR, ttr(), "routes") == "routes"
    counted = ttr((Round(players={"Ana": {"routes": {"3": 1}}}),))
    assert walk.entry_mode(TTR, counted) == "routes"
    assert walk.entry_mode(TTR, counted, "route_points") == "route_points"
    tracked = ttr((Round(players={"Ana": {"route_points": 12}}),))
    assert walk.entry_mode(TTR, tracked) == "route_points"
    both = ttr((Round(players={"Ana": {"route_points": 12, "routes": {"3": 1}}}),))
    assert walk.entry_mode(TTR, both) == "routes"  # the one that scores
    assert walk.other_entry(TTR, ttr(), "route_points") == "routes"
    assert walk.other_entry(TTR, ttr(), "routes") == "route_points"


def test_only_the_chosen_boxes_are_shown_and_none_on_a_map() -> None:
    session = ttr()
    step = TTR.steps(session)[0]
    assert [s.key for s in walk.shown_slots(TTR, session, step)] == ["route_points"]
    counts = walk.shown_slots(TTR, session, step, "routes")
    assert [s.key for s in counts] == ["routes"]
    assert not walk.offers_either(step, counts)
    on_map = ttr(rules={"map": "usa"})
    assert walk.entries(TTR, on_map) == () and walk.entry_mode(TTR, on_map) is None
    assert [s.key for s in walk.shown_slots(TTR, on_map, TTR.steps(on_map)[0])] == ["claimed"]


# -- the app ---------------------------------------------------------------------------------
@pilot_test
async def test_the_score_track_takes_one_enter_per_player(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert routes_keys(screen) == {"route_points"}
        await burst(pilot, *values("41", "37"))
        assert screen.step.id == "tickets"
    players = saved(path)[0].rounds[0].players
    assert players == {"Ana": {"route_points": 41}, "Bo": {"route_points": 37}}


@pilot_test
async def test_ctrl_e_switches_to_counts_and_the_choice_survives_reopening(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert "route-entry" in {b.binding.id for b in screen.active_bindings.values()}  # in the footer
        await burst(pilot, "ctrl+e")
        assert routes_keys(screen) == {"routes"}
        head = " ".join(str(c) for c in screen.rows.head([40], False, 120))
        assert "Route points" not in head and "ctrl+e: the score track" in head, head
    assert saved(path)[0].rounds[0].players == {}  # nothing typed: the file has no place for the choice
    async with running(tmp_path, path) as (app, pilot):  # reopened: the app kept it
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert routes_keys(screen) == {"routes"}
        await burst(pilot, *values("", "", "3"), "pagedown")  # Ana: three 3-train routes
        await burst(pilot, "ctrl+e")  # only at the routes: nothing happens at the tickets
        assert screen.step.id == "tickets"
    assert saved(path)[0].rounds[0].players["Ana"]["routes"] == {"3": 3}
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, "pageup", "ctrl+e")  # back to the score track
        assert routes_keys(screen) == {"route_points"}
        await burst(pilot, *values("40"))
    assert saved(path)[0].rounds[0].players["Ana"]["route_points"] == 40


@pilot_test
async def test_a_file_with_counts_shows_counts(tmp_path: Path) -> None:
    """No choice remembered (another machine, or a hand-written file): the counts typed say it."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"],
                         rounds=(Round(players={"Ana": {"routes": {"4": 2}}}),))
    async with running(tmp_path, path) as (app, _pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert routes_keys(screen) == {"routes"}


@pilot_test
async def test_no_route_entry_on_a_map(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rules={"map": "usa"})
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, "ctrl+e")
        assert routes_keys(screen) == {"claimed"}
        assert "route-entry" not in {b.binding.id for b in screen.active_bindings.values()}


@pilot_test
async def test_new_session_chooses_counts_by_length(tmp_path: Path) -> None:
    """On New session, Ticket to Ride: the routes' entry is a choice below the house rules (the score track
    first); counts chosen: the walkthrough opens on the counts; a map chosen: the choice goes away."""
    from textual.widgets import Select

    from scorekeeper.tui.screens.new_session import MAX_PLAYERS, NewSessionScreen

    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+n", *["down"] * list(games.GAMES).index("ticket-to-ride"), "enter",
                    *values("Ana", "Bo"), *["tab"] * (MAX_PLAYERS - 2))
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        chain = form.focus_chain
        choice = form.query_one("#route-entry", Select)
        assert choice.value == "route_points" and form.query_one("#route-entry-part").display
        assert form.focused is not None
        tabs = chain.index(choice) - chain.index(form.focused)  # the choice is under the game, above the players
        await burst(pilot, *(["tab"] * tabs if tabs > 0 else ["shift+tab"] * -tabs), "enter", "down", "enter")
        assert choice.value == "routes"
        await burst(pilot, "ctrl+s")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert routes_keys(screen) == {"routes"}
        assert saved(screen.doc.path)[0].rules == {}  # no house rule: the app keeps the choice


@pilot_test
async def test_new_session_on_a_map_offers_no_route_entry(tmp_path: Path) -> None:
    from textual.widgets import Select

    from scorekeeper.tui.screens.new_session import NewSessionScreen, RuleRow

    async with running(tmp_path) as (app, pilot):
        await burst(pilot, "ctrl+n", *["down"] * list(games.GAMES).index("ticket-to-ride"))
        form = app.screen
        assert isinstance(form, NewSessionScreen)
        assert form.query_one("#route-entry-part").display
        board = next(row for row in form.query(RuleRow) if row.rule.key == "map").query_one(Select)
        board.value = "usa"
        await burst(pilot)
        assert not form.query_one("#route-entry-part").display
        await burst(pilot, "down")  # Ticket to Finland: routes by length or the score track too
        assert form.query_one("#route-entry-part").display
        await burst(pilot, "down")  # Ticket to Mars: no routes at all
        assert not form.query_one("#route-entry-part").display
