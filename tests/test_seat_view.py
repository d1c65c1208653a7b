"""What a seat at the table shows of a round, without a screen (scorekeeper.walk.seat_view, over a `WalkState`
filtered to the seat's player), and what its phone is after claiming the seat (`seats.status`). No Pilot, no Textual."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from scorekeeper.model.session import Round
from scorekeeper.walk import seat_view
from scorekeeper.walk.document import Document
from scorekeeper.walk.state import WalkState
from scorekeeper.web import seats
from tests.test_tui_support import write_session

TICKET = {"points": 8, "completed": True, "name": "Denver – El Paso"}


def ride(tmp_path: Path, ana: dict[str, Any], bo: dict[str, Any]) -> WalkState:
    """A Ticket to Ride round of Ana and Bo with these values, walked from Ana's seat."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rounds=(Round(players={"Ana": ana, "Bo": bo}),))
    doc = Document.open(path)
    return WalkState(doc, seat_view.table_round(doc), player="Ana")


def view(state: WalkState) -> seat_view.SeatView:
    """What Ana's seat is shown at the step her walk is on."""
    return seat_view.seat_view(state.model, "Ana", state.number, state.index)


def test_a_seat_sees_the_others_progress_not_their_values_until_the_round_is_full(tmp_path: Path) -> None:
    state = ride(tmp_path, {"route_points": 20}, {"route_points": 30})
    assert state.number == 1 and seat_view.first_step(state) == 1  # her routes given: the tickets
    assert view(state).others == (("Bo", True),) and not seat_view.revealed(state)
    state.go(1)
    assert view(state).others == (("Bo", False),) and view(state).waiting == ("Ana", "Bo")
    full = {"route_points": 30, "tickets": [], "longest_path": 5}
    done = ride(tmp_path / "full", {"route_points": 20, "tickets": [TICKET], "longest_path": 7}, full)
    assert seat_view.revealed(done) and view(done).waiting == ()
    assert seat_view.first_step(done) == len(done.steps) - 1  # nothing of hers left: the Summary
    done.go(seat_view.first_step(done))
    assert [(player, total) for player, total, _ in view(done).points] == [("Ana", 38), ("Bo", 30)]
    assert view(done).standing == "Ana won 38–30"


def test_own_points_that_tell_the_others_values_wait_for_the_summary(tmp_path: Path) -> None:
    """Ana's longest path is compared with Bo's: at the Summary only; her route points tell nothing of his and show
    at once."""
    state = ride(tmp_path, {"route_points": 20, "longest_path": 7}, {"route_points": 30})
    assert view(state).own == ((20, "route points from the score track"),)
    assert not view(state).compared
    state.go(2)
    assert state.step.id == "longest-path" and view(state).own == () and view(state).compared
    assert seat_view.name_in("Bo", "ahead of Bo's 5") and not seat_view.name_in("Bo", "Bob's")


def test_the_seat_walks_the_round_the_table_walks(tmp_path: Path) -> None:
    whole = {"attractions": {str(n): 0 for n in range(1, 12)}, "outhouses": 0, "ticket_booth": False,
             "demolition_derby": False, "tickets": 0, "piglet_race": False}
    one = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], rounds=(Round(players={"Ana": whole}),))
    assert seat_view.table_round(Document.open(one)) == 1
    both = write_session(tmp_path / "next", "ticket-booth", ["Ana", "Bo"],
                         rounds=(Round(players={"Ana": whole, "Bo": {**whole, "ticket_booth": True,
                                                                     "demolition_derby": True, "piglet_race": True}}),))
    assert seat_view.table_round(Document.open(both)) == 2


def test_a_phone_is_what_its_claims_say() -> None:
    """Held while the seat is its own; lost when the host gave it away; refused when the host said no; else it
    asks. A phone refused or gone does not take the seat back by itself."""
    assert seats.status("asking", seats.HELD) == "held" and seats.status("held", seats.HELD) == "held"
    assert seats.status("held", seats.TAKEN) == "lost" and seats.status("held", seats.REFUSED) == "lost"
    assert seats.status("asking", seats.REFUSED) == "refused" and seats.status("asking", seats.TAKEN) == "asking"
    assert seats.status("gone", seats.HELD) == "gone"
