"""The table's faults met by hand, replayed with two apps on one session file (each failed before edits became
operations on fields): a stale box and Enter, undo across places, a file replaced while open, a question answered
by keys typed ahead."""

from __future__ import annotations

from pathlib import Path

from textual import events

from scorekeeper import store
from scorekeeper.tui.screens.dialogs import ConflictScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from tests.test_tui_support import AT_ONCE, burst, pilot_test, running, saved, settle, write_session


def pairs(path: Path, player: str) -> dict[str, int] | None:
    session = saved(path)[0]
    if not session.rounds:
        return None
    value: dict[str, int] | None = session.rounds[0].players.get(player, {}).get("pairs")
    return value


@pilot_test
async def test_enter_on_a_box_filled_elsewhere_writes_nothing_over_it(tmp_path: Path) -> None:
    """A types Ana's pairs; B's cursor is on that very box, blank until B's app sees the file: then it shows A's
    value, and B's Enter moves on without writing 0 over it."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, watch=AT_ONCE) as (a, pa), running(tmp_path, path, watch=AT_ONCE) as (b, pb):
        assert isinstance(a.screen, WalkthroughScreen) and isinstance(b.screen, WalkthroughScreen)
        await burst(pa, "5", "tab", "7", "enter")
        await settle(pa)
        assert pairs(path, "Ana") == {"count": 5, "each": 7}
        b.watch_file()  # B looks at the file (its watch)
        await settle(pb)
        await burst(pb, "enter")
        await settle(pb)
        assert pairs(path, "Ana") == {"count": 5, "each": 7}
        assert not isinstance(b.screen, ConflictScreen)


@pilot_test
async def test_enter_on_a_stale_box_asks_instead_of_writing_over(tmp_path: Path) -> None:
    """The same before B's app has seen the file: B's Enter confirms the blank it saw, which is a change of a field
    A changed meanwhile — a question, and nothing written until it is answered."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, watch=AT_ONCE) as (a, pa), running(tmp_path, path, watch=AT_ONCE) as (b, pb):
        await burst(pa, "5", "tab", "7", "enter")
        await settle(pa)
        await burst(pb, "enter")
        await settle(pb)
        assert isinstance(b.screen, ConflictScreen)
        assert pairs(path, "Ana") == {"count": 5, "each": 7}
        await burst(pb, "c")
        await settle(pb)
        assert pairs(path, "Ana") == {"count": 5, "each": 7}


@pilot_test
async def test_undo_in_one_place_keeps_the_round_another_place_filled(tmp_path: Path) -> None:
    """A makes round 1 with Ana's pairs, B types Bo's; A's undo takes back A's values only: the round stays with
    Bo's values in the file and on B's screen."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=())
    async with running(tmp_path, path, watch=AT_ONCE) as (a, pa), running(tmp_path, path, watch=AT_ONCE) as (b, pb):
        await burst(pa, "2", "enter", "3", "enter")
        await settle(pa)
        b.watch_file()
        await settle(pb)
        await burst(pb, "down", "4", "enter", "5", "enter")
        await settle(pb)
        assert pairs(path, "Bo") == {"count": 4, "each": 5}
        await burst(pa, "ctrl+z")  # before A's app has looked at the file again
        await settle(pa)
        await burst(pa, "ctrl+z")
        await settle(pa)
        assert pairs(path, "Ana") is None
        assert pairs(path, "Bo") == {"count": 4, "each": 5}
        b.watch_file()
        await settle(pb)
        assert b.doc is not None and b.doc.session.rounds[0].players["Bo"]["pairs"] == {"count": 4, "each": 5}


@pilot_test
async def test_undo_after_the_file_was_replaced_does_not_write_the_old_session_back(tmp_path: Path) -> None:
    """The file is replaced by another session while open: the history of the old one is gone (the app says so),
    and ctrl+z writes nothing of the old session."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    other = write_session(tmp_path, "ticket-booth", ["Cy", "Dee"], name="other.toml")
    async with running(tmp_path, path, watch=AT_ONCE) as (a, pa):
        await burst(pa, "2", "enter", "3", "enter")
        await settle(pa)
        other.replace(path)
        replaced = path.read_bytes()
        a.watch_file()
        await settle(pa)
        await burst(pa, "ctrl+z")
        await settle(pa)
        assert path.read_bytes() == replaced
        assert a.doc is not None and a.doc.session.game == "ticket-booth"
        assert isinstance(a.screen, WalkthroughScreen) and a.screen.state.game.id == "ticket-booth"  # its steps


@pilot_test
async def test_keys_typed_ahead_never_answer_the_question(tmp_path: Path) -> None:
    """Keys typed before the question about a conflict was drawn (read by the terminal while the save ran) reach it
    after it is up, and are dropped: neither Enter (the focused Cancel) nor `o` answers; a key pressed once it is
    shown does."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, watch=AT_ONCE) as (app, pilot):
        session = saved(path)[0]
        store.save(path, session.with_value(1, "Ana", "pairs", {"count": 8, "each": 2}))
        ahead = [events.Key("enter", "\r"), events.Key("o", "o")]  # typed now, before the question
        await burst(pilot, "3", "pagedown")  # the step changes: the value is saved, and that asks
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        for key in ahead:
            app.post_message(key)
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)
        assert pairs(path, "Ana") == {"count": 8, "each": 2}
        await pilot.press("c")
        await settle(pilot)
        assert not isinstance(app.screen, ConflictScreen)
        assert pairs(path, "Ana") == {"count": 8, "each": 2}
