"""Issue 25 item 6: numbers that mislead — rounds played, the Total while an earlier round is edited."""

from __future__ import annotations

from pathlib import Path

from textual.widgets import Static

from scorekeeper.model.session import Round
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from tests.test_tui_support import burst, pilot_test, running, settle, write_session


@pilot_test
async def test_a_session_with_nothing_scored_has_played_no_round(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        await burst(pilot, "escape")
        await settle(pilot)
        assert isinstance(app.screen, StandingsScreen)
        shown = str(app.screen.query_one("#result", Static).render())
        assert "3 rounds" in shown and "played" not in shown and "Not started" in shown


@pilot_test
async def test_editing_round_1_after_round_2_keeps_the_games_total(tmp_path: Path) -> None:
    """Ana scores 10 tickets-worth over two rounds (4 then 6): round 1's walkthrough shows R1 4, after 6, Total 10."""
    rounds = (Round(players={"Ana": {"tickets": 4}, "Bo": {"tickets": 1}}),
              Round(players={"Ana": {"tickets": 6}, "Bo": {"tickets": 2}}))
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], rounds=rounds)
    async with running(tmp_path, path) as (app, pilot):
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "down", "enter")  # the list: "score round 3", then Round 1, Round 2
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.number == 1
        table = str(screen.query_one("#round-table", Static).render()).splitlines()
        assert table[1].split() == ["R1", "after", "Total"]
        assert table[2].split() == ["Ana", "4", "6", "10"] and table[3].split() == ["Bo", "1", "2", "3"]


def test_one_destination_ticket_held_by_two_players_is_a_warning() -> None:
    """The base deck has one card of each ticket: Denver – El Paso at Ana and (cities the other way) at Bo."""
    from tests.helpers import session, warnings

    ana = {"route_points": 10, "tickets": [{"points": 4, "completed": True, "name": "Denver – El Paso"},
                                           {"points": 8, "completed": True}]}
    bo = {"route_points": 10, "tickets": [{"points": 4, "completed": False, "name": "el paso-denver"},
                                          {"points": 8, "completed": True}]}
    found = warnings(session("ticket-to-ride", ["Ana", "Bo"], {"Ana": ana, "Bo": bo}))
    said = [w for w in found if "held by Ana and Bo" in w]
    assert len(said) == 2 and "one card of each ticket" in said[0]
    other = {**bo, "tickets": bo["tickets"][1:] * 2}
    alone = warnings(session("ticket-to-ride", ["Ana", "Bo"], {"Ana": ana, "Bo": other}))
    assert not any("held by" in w for w in alone)


@pilot_test
async def test_the_longest_path_bonus_is_provisional_until_every_players_routes_are_in(tmp_path: Path) -> None:
    """Ana's routes and path are in, Bo's path only: Ana's Total carries the bonus, marked; Bo's route points typed
    in the Routes step, the mark goes."""
    rounds = (Round(players={"Ana": {"route_points": 20, "longest_path": 9}, "Bo": {"longest_path": 5}}),)
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rounds=rounds)
    async with running(tmp_path, path) as (app, pilot):
        if isinstance(app.screen, StandingsScreen):
            await burst(pilot, "enter")
            await settle(pilot)
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        table = str(screen.query_one("#round-table", Static).render())
        assert "30*" in table and "provisional until every player's routes are in" in table
        while screen.step.id != "routes":
            await burst(pilot, "pageup")
            await settle(pilot)
        screen.query_one(StepGrid)  # the Routes step's boxes: Bo's route points
        await burst(pilot, *"15", "enter")
        await settle(pilot)
        table = str(screen.query_one("#round-table", Static).render())
        assert "provisional" not in table, table
