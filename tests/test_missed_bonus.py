"""Issue 25 item 2: a card that scored nothing and a bonus that went elsewhere say why, in the step that decides
them (0-point items: `sum(items) == points` still holds)."""

from __future__ import annotations

from pathlib import Path

from scorekeeper.model.session import Round
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from tests.helpers import session, sheet
from tests.test_tui_support import app_for, burst, pilot_test, running, settle, write_session

HANDS = {"Jon": {"ticket_booth": True, "tickets": 5, "attractions": {"8": 3}},
         "Lea": {"demolition_derby": True, "tickets": 6, "attractions": {"8": 5}}, "Mo": {"tickets": 2}}


def test_the_booth_holder_with_fewer_tickets_and_the_derby_holders_tickets_say_why() -> None:
    sh = sheet(session("ticket-booth", ["Jon", "Lea", "Mo"], HANDS, rules={"rounds": 1}))
    said = [(i.player, i.category, i.points, i.why) for i in sh.rounds[0].items if not i.points]
    assert said == [
        ("Jon", "attraction:8", 0, "3 #8 cards, but Lea has more (5): 0"),
        ("Jon", "ticket-booth", 0, "holds the Ticket Booth with 5 tickets, but Lea holds more (6): 0"),
        ("Lea", "tickets", 0, "6 tickets score 0: they hold the Demolition Derby"),
    ]
    assert sh.rounds[0].points == {"Jon": 5, "Lea": 12, "Mo": 2}


def test_a_bonus_that_went_elsewhere() -> None:
    """Ticket to Ride: a shorter path; Ticket to Finland: a smaller measure, and a tie under bonus_tie = none."""
    ttr = sheet(session("ticket-to-ride", ["Ana", "Bo"], {"Ana": {"longest_path": 5}, "Bo": {"longest_path": 9}}))
    assert [(i.player, i.why) for i in ttr.rounds[0].items if not i.points] == [
        ("Ana", "longest continuous path: 5, but Bo has more (9 trains): no bonus")]
    fin = sheet(session("ticket-to-finland", ["Ana", "Bo", "Cy"],
                        {"Ana": {"tunnels": 2}, "Bo": {"tunnels": 2}, "Cy": {"tunnels": 1}},
                        rules={"bonus_tie": "none"}))
    assert [(i.player, i.why) for i in fin.rounds[0].items if not i.points and i.category == "bonus:tunnels"] == [
        ("Ana", 'tied with Bo for the most tunnels (2 each): no bonus (rule bonus_tie = "none")'),
        ("Bo", 'tied with Ana for the most tunnels (2 each): no bonus (rule bonus_tie = "none")'),
        ("Cy", "most tunnels: 1, but Ana and Bo have more (2): no bonus")]


def booth(folder: Path) -> Path:
    return write_session(folder, "ticket-booth", ["Jon", "Lea", "Mo"], rules={"rounds": 1},
                         rounds=(Round(players=HANDS),))


async def to_the_ticket_booth(pilot) -> None:
    """From the standings: Enter edits round 1, PgDn past #1 … #11 and the Outhouse."""
    await burst(pilot, "enter")
    await settle(pilot)
    await burst(pilot, *["pagedown"] * 12)
    await settle(pilot)


@pilot_test
async def test_the_ticket_booth_step_says_why_jon_scores_nothing(tmp_path: Path) -> None:
    async with running(tmp_path, booth(tmp_path)) as (app, pilot):
        await to_the_ticket_booth(pilot)
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.step.title == "Ticket Booth"
        shown = " ".join(screen.query_one(StepGrid).plain().split())
        assert "holds the Ticket Booth with 5 tickets, but Lea holds more (6): 0" in shown
        await burst(pilot, "pagedown", "pagedown")
        await settle(pilot)
        assert screen.step.title == "Tickets"
        shown = " ".join(screen.query_one(StepGrid).plain().split())
        assert "6 tickets score 0: they hold the Demolition Derby" in shown


def test_missed_bonus_snapshot_80x24(tmp_path: Path, monkeypatch, snap_compare) -> None:
    monkeypatch.chdir(tmp_path)
    path = booth(Path("sessions"))
    assert snap_compare(app_for(Path("sessions"), path), terminal_size=(80, 24), run_before=to_the_ticket_booth)


def test_missed_bonus_snapshot_120x40(tmp_path: Path, monkeypatch, snap_compare) -> None:
    monkeypatch.chdir(tmp_path)
    path = booth(Path("sessions"))
    assert snap_compare(app_for(Path("sessions"), path), terminal_size=(120, 40), run_before=to_the_ticket_booth)
