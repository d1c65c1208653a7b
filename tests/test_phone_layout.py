"""A phone held upright (issue 27, SPEC §5 `serve`): at 40 columns, and 43 (a 390-px phone), every step of every
game's walkthrough shows every input and every message about it whole, with no sideways scrolling and no cut; the
standings' breakdown is one column and no word is broken."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from textual.containers import ScrollableContainer
from textual.widget import Widget

from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.grid import StepGrid
from scorekeeper.tui.widgets.hanging import Hanging, wrap
from tests.test_tui_support import burst, pilot_test, running, settle, write_session

SAMPLES = Path(__file__).parent.parent / "sample_sessions"
PHONES = [(40, 30), (43, 40)]
WALKS = [  # one session of each game and way of entering routes: (sample file, or a new session's game and rules)
    "ticket-booth-3p.toml",  # #1 … #11, specials, Tickets, Summary
    "ticket-to-ride-4p.toml",  # routes counted by length (nine boxes), tickets
    ("ticket-to-ride", {}),  # route points from the score track, a value refused
    "ticket-to-ride-usa-4p.toml",  # the USA map: routes by name, tickets on the map
    "ticket-to-ride-europe-4p.toml",  # stations
    "ticket-to-finland-3p.toml",  # lists side by side, eight bonus inputs
    "ticket-to-mars-two-rounds.toml",  # pairs: count and each
]


def session_file(folder: Path, walk: str | tuple[str, dict[str, str]]) -> Path:
    """A copy of a sample, or a new session with long names."""
    if isinstance(walk, str):
        return Path(shutil.copy(SAMPLES / walk, folder / walk))
    game, rules = walk
    return write_session(folder, game, ["Alexandra", "Bartholomew", "Cy"], rules=rules)


def outside(screen: Widget, width: int) -> list[str]:
    """What the screen shows beyond its width, or scrolls sideways: each widget's region, each scroller's content."""
    out = []
    for widget in screen.query(Widget):
        if not widget.display or not widget.region.width:
            continue
        if widget.region.right > width:
            out.append(f"{widget!r} ends at column {widget.region.right}")
        if isinstance(widget, ScrollableContainer) and \
                widget.virtual_size.width > widget.scrollable_content_region.width:
            out.append(f"{widget!r} scrolls sideways: {widget.virtual_size.width} > "
                       f"{widget.scrollable_content_region.width}")
    return out


def step_cut(screen: WalkthroughScreen) -> list[str]:
    """The grid's lines wider than the grid (the end of a box, a reason or a message cut off)."""
    grid = screen.query_one(StepGrid)
    width = grid.content_region.width
    assert width > 30
    lines = grid.plain().splitlines()
    return [f"{screen.step.title}: {line!r}" for line in lines if len(line.rstrip()) > width]


def words(text: str) -> list[str]:
    return re.findall(r"\S+", text)


@pytest.mark.parametrize("size", PHONES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("walk", WALKS, ids=lambda w: w if isinstance(w, str) else f"new-{w[0]}")
@pilot_test
async def test_every_step_fits_a_phone(tmp_path: Path, walk: str | tuple[str, dict[str, str]],
                                       size: tuple[int, int]) -> None:
    """Step by step (PageDown, as a person goes on): no widget beyond the screen's width, nothing scrolls sideways,
    no line of the players' rows is wider than the screen; a value refused at the first step keeps its whole
    message, read in order."""
    path = session_file(tmp_path, walk)
    async with running(tmp_path, path, size=size) as (app, pilot):
        if not isinstance(app.screen, WalkthroughScreen):  # a finished sample opens on its standings
            await burst(pilot, "1")
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.state.index == 0
        if isinstance(walk, tuple):
            await burst(pilot, "12x")  # a value no box takes: refused, its reason at the input
            shown = " ".join(words(screen.query_one(StepGrid).plain()))
            assert "not saved:" in shown and "expected a whole number" in shown, shown
            await burst(pilot, "backspace", "backspace", "backspace")
        seen = []
        for _ in screen.steps:
            seen.append(screen.step.title)
            assert outside(screen, size[0]) == []
            assert step_cut(screen) == []
            await burst(pilot, "pagedown")
        assert len(set(seen)) == len(screen.steps)


@pilot_test
async def test_the_holders_question_and_the_list_notes_wrap_whole(tmp_path: Path) -> None:
    """The Ticket Booth's step-wide question names every player and `nobody` on the screen; a list's note (a
    route's problem) is read whole, its words in order."""
    path = write_session(tmp_path, "ticket-booth", ["Alexandra", "Bartholomew", "Cy"])
    async with running(tmp_path, path, size=(40, 30)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        screen.go([s.title for s in screen.steps].index("Ticket Booth"))
        await settle(pilot)
        await burst(pilot, "down", "down", "down")  # to the question under the rows
        shown = " ".join(words(screen.query_one(StepGrid).plain()))
        assert "1 Alexandra 2 Bartholomew 3 Cy 0 nobody" in shown
        assert step_cut(screen) == []
    path = write_session(tmp_path / "usa", "ticket-to-ride", ["Alexandra", "Bo"], rules={"map": "usa"})
    async with running(tmp_path / "usa", path, size=(40, 30)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await burst(pilot, "Seattle - Miami", "enter")
        shown = " ".join(words(screen.query_one(StepGrid).plain()))
        assert "Seattle - Miami" in shown and step_cut(screen) == []


@pytest.mark.parametrize("sample", ["ticket-to-ride-4p.toml", "ticket-booth-3p.toml",
                                    "ticket-to-mars-two-rounds.toml"])
@pilot_test
async def test_standings_breakdown_is_one_column_of_whole_words(tmp_path: Path, sample: str) -> None:
    """At 40 columns the players' breakdowns are one under the other, the width of the page, every line wrapped at
    a space (each word drawn is a word of the text: `complete`, not `comple` / `te`); the table of points fits."""
    path = Path(shutil.copy(SAMPLES / sample, tmp_path / sample))
    async with running(tmp_path, path, size=(40, 40)) as (app, pilot):
        cards = list(app.screen.query(".player-card").results(Hanging))
        assert len(cards) >= 2
        assert len({card.region.x for card in cards}) == 1, "one column"
        assert all(card.region.width >= 34 for card in cards)
        for card in cards:
            text = set(words(card.plain()))
            drawn = wrap(card.lines, card.content_region.width)
            assert all(line.cell_length <= card.content_region.width for line in drawn)
            broken = [w for line in drawn for w in words(line.plain) if w not in text]
            assert broken == [], broken
        assert outside(app.screen, 40) == []
        table = app.screen.query_one("#table")
        assert table.region.right <= 40
        assert max(len(line) for line in str(table.render()).splitlines()) <= table.content_region.width


def test_phone_step_snapshot(tmp_path: Path, snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ticket to Ride's routes counted by length at 40 columns: the nine boxes under each name, the reasons below."""
    monkeypatch.chdir(tmp_path)
    folder = Path("sessions")
    folder.mkdir()
    path = Path(shutil.copy(SAMPLES / "ticket-to-ride-4p.toml", folder / "ttr.toml"))
    from tests.test_tui_support import app_for

    async def run_before(pilot) -> None:  # type: ignore[no-untyped-def]
        await settle(pilot)
        await burst(pilot, "1")

    assert snap_compare(app_for(folder, path), terminal_size=(40, 30), run_before=run_before)


def test_phone_standings_snapshot(tmp_path: Path, snap_compare, monkeypatch: pytest.MonkeyPatch) -> None:
    """The Ticket Booth's standings at 40 columns: the table in narrow columns, one breakdown under the other."""
    monkeypatch.chdir(tmp_path)
    folder = Path("sessions")
    folder.mkdir()
    path = Path(shutil.copy(SAMPLES / "ticket-booth-3p.toml", folder / "booth.toml"))
    from tests.test_tui_support import app_for

    assert snap_compare(app_for(folder, path), terminal_size=(40, 50), run_before=settle)


@pilot_test
async def test_tap_targets_are_two_rows_on_a_phone(tmp_path: Path) -> None:
    """At 40 columns a step of the step list is two rows high: a tap on its second row goes there; each line of
    the standings' list of rounds is two rows at least."""
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, size=(40, 40)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        await pilot.click("#step-title")
        await settle(pilot)
        steps = screen.query_one("#steps")
        assert steps.region.height >= 2 * len(screen.steps)
        await pilot.click("#steps", offset=(5, 1 + 2 * 3 + 1))  # the second row of the 4th step, inside the border
        await settle(pilot)
        assert screen.step.title == "#4"
        await burst(pilot, "escape")
        rounds = app.screen.query_one("#rounds")
        options = rounds.option_count  # type: ignore[attr-defined]
        assert rounds.region.height - 2 >= 2 * options


PHONE_SHOTS = [("ticket-booth-3p.toml", "Friday at Mia", "booth"), ("ticket-to-ride-4p.toml", "Okafors", "ride"),
               ("ticket-to-ride-usa-4p.toml", "USA map night", "ride-usa"),
               ("ticket-to-finland-3p.toml", "Midsummer", "finland"),
               ("ticket-to-mars-two-rounds.toml", "Sunday league", "mars")]


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not Path("/usr/bin/chromium").exists() and not __import__("os").environ.get("CI"),
                    reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it; under CI it must run)")
def test_each_games_walkthrough_and_standings_on_a_phone(tmp_path: Path) -> None:
    """390x844 at device scale 3 through `scorekeeper serve`: each game's standings (a tap on its row at home) and
    round 1's first step (`1`) show the breakdown and the step, no line of the terminal past its columns;
    screenshots `phone-<game>-standings.png` / `-walk.png` (into $SCOREKEEPER_SCREENSHOTS, e.g. docs)."""
    import os

    from playwright.sync_api import sync_playwright

    from tests.test_serve import CHROMIUM, HOOK, LAUNCH_ARGS, Phone, loopback_only, start

    shots = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS", tmp_path))
    folder = tmp_path / "sessions"
    folder.mkdir()
    for name, _, _ in PHONE_SHOTS:
        shutil.copy(SAMPLES / name, folder / name)
    server = start(folder)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
            for _, title, short in PHONE_SHOTS:
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                              is_mobile=True, has_touch=True)
                loopback_only(context)
                page = context.new_page()
                page.add_init_script(HOOK)
                phone = Phone(page, shots)
                page.goto(server.url)
                phone.wait_for(title)
                phone.tap(title)
                phone.wait_for("Breakdown")
                cols = page.evaluate("window.__term.cols")
                assert 40 <= cols <= 43 and all(len(line.rstrip()) <= cols for line in phone.still())
                phone.shot(f"phone-{short}-standings.png")
                page.keyboard.press("1")
                phone.wait_for("Round 1 ")
                assert "starts" in "\n".join(phone.still())
                phone.shot(f"phone-{short}-walk.png")
                context.close()
            browser.close()
    finally:
        server.stop()


@pilot_test
async def test_the_key_bar_is_a_fingers_height_on_a_phone(tmp_path: Path) -> None:
    """At 40 columns the key bar is two rows high, and a tap on its second row presses the key above it."""
    from scorekeeper.tui.screens.standings import StandingsScreen
    from scorekeeper.tui.widgets.bars import KeyBar

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, size=(40, 30)) as (app, pilot):
        bar = app.screen.query_one(KeyBar)
        assert bar.region.height == 2 and bar.region.bottom == 30
        await pilot.click(KeyBar, offset=(3, 1))  # `esc Standings`, on the bar's second row
        await settle(pilot)
        assert isinstance(app.screen, StandingsScreen)
