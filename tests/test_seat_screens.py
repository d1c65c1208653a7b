"""A seat's phone at the table (SPEC §5, "Live sessions"): it never reaches a screen but its own — a file that cannot
be read is a message and a retry, never the home screen — and the seat is usable on a phone: "Join as a seat" where
a phone lands, boxes big enough for a finger, and the Summary says who leads or won once the round is revealed."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual.command import CommandPalette

from scorekeeper.model.session import Round
from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.dialogs import ConflictScreen
from scorekeeper.tui.screens.seat import SeatCard, SeatScreen
from scorekeeper.tui.screens.seat_lost import SeatLostScreen
from tests.test_tui_support import burst, fixed_now, pilot_test, settle, write_session

MARS = {k: {"count": 1, "each": 2} for k in ("pairs", "occupancy", "character")}


def screens(app: ScorekeeperApp) -> list[str]:
    """The screens on the stack, by class (Textual's empty first one left out)."""
    return [type(s).__name__ for s in app.screen_stack[1:]]


@pilot_test
async def test_a_seat_whose_file_cannot_be_read_says_so_retries_and_never_shows_the_folder(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    good = path.read_bytes()
    path.write_text("format = 1\ngame = ", encoding="utf-8")  # caught halfway through a replace
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        assert screens(app) == ["SeatLostScreen"]
        path.write_bytes(good)
        screen = app.screen
        assert isinstance(screen, SeatLostScreen)
        screen.retry()
        await settle(pilot)
        assert screens(app) == ["SeatScreen"]
        ended: list[bool] = []
        app.exit = lambda *args, **kwargs: ended.append(True)  # type: ignore[method-assign]
        path.write_text("garbage", encoding="utf-8")
        app.open_file(path)
        await settle(pilot)
        assert screens(app) == ["SeatScreen", "SeatLostScreen"]
        await burst(pilot, "escape")
        assert ended == [True]


@pilot_test
async def test_a_seat_reaches_no_other_screen(tmp_path: Path) -> None:
    """Home, statistics, history, the standings, a walkthrough, the command palette: each asked for, none shown."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    write_session(tmp_path, "ticket-booth", ["Cy", "Di"], name="other.toml")
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        assert screens(app) == ["SeatScreen"]
        for ask in (app.go_home, app.show_statistics, app.show_history, app.show_standings,
                    lambda: app.walkthrough(1), app.action_command_palette):
            ask()
            await settle(pilot)
            shown = screens(app)
            assert set(shown) <= {"SeatScreen", "SeatLostScreen"}, shown
            assert not any(isinstance(s, CommandPalette) for s in app.screen_stack)
            while isinstance(app.screen, SeatLostScreen):
                app.screen.retry()
                await settle(pilot)
            if not isinstance(app.screen, SeatScreen):
                app.pop_screen()
                await settle(pilot)
            assert isinstance(app.screen, SeatScreen)
        await burst(pilot, "ctrl+p")
        assert not any(isinstance(s, CommandPalette) for s in app.screen_stack)
        assert "other.toml" not in app.screen.query_one(SeatCard).plain()
        app.push_screen(ConflictScreen(path, ("Ana's pairs: 3 here, 4 there",)))  # a question about its session
        await settle(pilot)
        assert isinstance(app.screen, ConflictScreen)


@pilot_test
async def test_a_seats_box_is_a_fingers_target_at_40_columns(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        box = app.screen.query("SeatPiece.-box").first()
        assert box.region.height >= 3 and box.region.width >= 12, box.region
        assert box.region.right <= 40 and box.region.bottom <= 30


@pilot_test
async def test_the_seats_summary_says_who_leads_once_revealed(tmp_path: Path) -> None:
    """Ana has filled round 1, Bo not his last objective: her Summary waits for him; once his value comes in, it
    stays on the Summary and says who leads; Enter goes on to round 2."""
    from scorekeeper import files, store

    half = {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 1, "each": 2}}
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 2}, rounds=(Round(players={
        "Ana": MARS, "Bo": half}),))
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SeatScreen) and screen.walk.number == 1
        text = screen.query_one(SeatCard).plain()
        assert "Summary" in text and "Waiting for: Bo" in text and "leads" not in text, text
        session, _ = files.load(path)
        rounds = (Round(players={"Ana": MARS, "Bo": {**half, "character": {"count": 1, "each": 2}}}),)
        store.save(path, replace(session, rounds=rounds))
        app.watch_file()
        await settle(pilot)
        text = screen.query_one(SeatCard).plain()
        assert "Bo leads with 10 after round 1" in text and "Round 1 of 2" in text, text
        await burst(pilot, "enter")
        assert "Round 2 of 2" in screen.query_one(SeatCard).plain()


class WebApp(ScorekeeperApp):
    """The app as `serve` runs it for a phone's browser."""

    opened: list[str]

    @property
    def is_web(self) -> bool:
        return True

    def open_url(self, url: str, *, new_tab: bool = True) -> None:
        self.opened.append(url)


@pilot_test
async def test_join_as_a_seat_is_offered_where_a_phone_lands(tmp_path: Path) -> None:
    """The home list and the session's first screen, at 40 columns: a line "Join as a seat" a finger taps, which
    asks for the player and opens the seat's link."""
    from scorekeeper.tui.screens.seat import JoinScreen
    from scorekeeper.tui.widgets.bars import KeyBar

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], name="booth.toml")
    for file in (None, path):
        app = WebApp(tmp_path, file, now=fixed_now)
        app.opened = []
        async with app.run_test(size=(40, 30)) as pilot:
            await settle(pilot)
            bar = app.screen.query_one(KeyBar)
            lines = bar.render().plain.splitlines()
            row = next(i for i, line in enumerate(lines) if "Join as a seat" in line)
            assert bar.region.y + row < 30 and bar.region.height - row >= 2, (bar.region, lines)
            await pilot.click(KeyBar, offset=(3, row + 1))
            await settle(pilot)
            assert isinstance(app.screen, JoinScreen) and app.screen.players == ("Ana", "Bo")
            await burst(pilot, "down", "enter")
            await settle(pilot)
        assert app.opened == ["join?file=booth.toml&seat=Bo"], (file, app.opened)


@pilot_test
async def test_a_terminal_offers_no_seat(tmp_path: Path) -> None:
    from scorekeeper.tui.widgets.bars import KeyBar

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    app = ScorekeeperApp(tmp_path, path, now=fixed_now)
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        bar = app.screen.query_one(KeyBar)
        assert bar.region.height == 2 and "Join" not in bar.render().plain


@pilot_test
async def test_a_seat_stays_in_its_round_through_its_burst(tmp_path: Path) -> None:
    """Ana's values of round 1 are all in; Bo's phone types his first objective, a change comes in from another
    place, he types the rest: every value lands in round 1 (his table is not finished while he types)."""
    from scorekeeper import files, store

    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 3},
                         rounds=(Round(players={"Ana": MARS}),))
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Bo")
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        await burst(pilot, "3", "enter", "2", "enter")  # pairs: 3 × 2
        await settle(pilot)
        session, _ = files.load(path)
        ana = {**MARS, "character": {"count": 2, "each": 2}}  # Ana's character corrected at the host
        store.save(path, replace(session, rounds=(Round(players={**session.rounds[0].players, "Ana": ana}),)))
        app.watch_file()
        await settle(pilot)
        await burst(pilot, "1", "enter", "4", "enter", "0", "enter", "5", "enter")
        await settle(pilot)
    session, _ = files.load(path)
    assert len(session.rounds) == 1, session.rounds
    assert session.rounds[0].players["Bo"] == {"pairs": {"count": 3, "each": 2}, "occupancy": {"count": 1, "each": 4},
                                               "character": {"count": 0, "each": 5}}
    assert session.rounds[0].players["Ana"]["character"] == {"count": 2, "each": 2}


@pilot_test
async def test_a_seat_fills_its_steps_in_turn(tmp_path: Path) -> None:
    """PgDn goes no further than the seat's first step not filled (a table with a step skipped would read as one
    written by hand, finished); PgUp goes back to any step filled."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rules={"rounds": 2})
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 30)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        await burst(pilot, "pagedown", "pagedown", "pagedown")
        assert screen.walk.index == 0
        await burst(pilot, "2", "enter", "3", "enter", "pagedown", "pagedown")
        assert screen.walk.index == 1
        await burst(pilot, "pageup")
        assert screen.walk.index == 0
