"""A session's first frame: the screen it opens on is styled by the app's stylesheet and its own (its CSS_PATH),
on every Python (eager tasks on 3.12+ compose its widgets before Textual reads that file); the other screens'
stylesheets are read when those screens are first shown."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from textual.css.stylesheet import Stylesheet
from textual.geometry import Spacing

from scorekeeper.model.session import Round
from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.standings import StandingsScreen
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from tests.test_tui_games import booth_expected
from tests.test_tui_support import app_for, pilot_test, settle, write_session


def watch(monkeypatch, screen_class: type) -> tuple[dict[str, object], Counter[str]]:
    """What the screen looked like when mounted, and how often each node was styled until then."""
    seen: dict[str, object] = {}
    styled: Counter[str] = Counter()
    apply, mounted = Stylesheet.apply, screen_class.on_mount

    def counting(self, node, *args, **kwargs):  # type: ignore[no-untyped-def]
        styled[f"{type(node).__name__}#{node.id}"] += 1
        return apply(self, node, *args, **kwargs)

    def on_mount(self):  # type: ignore[no-untyped-def]
        app = self.app
        seen["sources"] = {Path(p).name for p, _ in app.stylesheet.source if p.endswith(".tcss")}
        seen["styled"] = Counter(styled)
        seen["screen"] = self
        return mounted(self)

    monkeypatch.setattr(Stylesheet, "apply", counting)
    monkeypatch.setattr(screen_class, "on_mount", on_mount)
    return seen, styled


@pilot_test
async def test_a_walkthrough_opens_by_its_rules_each_widget_styled_twice_at_most(tmp_path: Path, monkeypatch) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"])
    seen, styled = watch(monkeypatch, WalkthroughScreen)
    app = app_for(tmp_path, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        sources = {Path(p).name for p, _ in app.stylesheet.source if p.endswith(".tcss")}
        assert sources == {"scorekeeper.tcss", "session.tcss"}  # the app's and its own, no other screen's
        screen = seen["screen"]
        assert isinstance(screen, WalkthroughScreen)
        assert screen.query_one("#steps").styles.width.value == 26  # session.tcss's rule
        assert screen.query_one("#step").region.x == 26  # the screen itself too (layout: horizontal)
        widgets = {f"{type(w).__name__}#{w.id}" for w in screen.walk_children()}
        # On its mount, and again on its first resume (Textual reads a pushed screen's CSS_PATH once the screen is
        # registered, its widgets composed too on 3.12+: the resume styles them by it); not again when the first
        # resize adds the width class (given before the mount).
        focused = "StepGrid#grid"  # styled again for :focus
        assert focused in widgets and styled[focused] <= 3, styled
        assert all(styled[w] <= 2 for w in widgets - {focused}), styled
        await pilot.press("escape")  # up to the standings: their stylesheet is read as they are shown
        await settle(pilot)
        assert isinstance(app.screen, StandingsScreen)
        assert app.screen.query_one("#standings").styles.padding == Spacing(1, 2, 1, 2)


@pilot_test
async def test_finished_standings_open_styled_by_their_rules(tmp_path: Path, monkeypatch) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo", "Cy"], rounds=(Round(players=booth_expected()),))
    seen, _ = watch(monkeypatch, StandingsScreen)
    app = app_for(tmp_path, path)
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(pilot)
        assert {Path(p).name for p, _ in app.stylesheet.source if p.endswith(".tcss")} == {"scorekeeper.tcss",
                                                                                           "standings.tcss"}
        screen = seen["screen"]
        assert isinstance(screen, StandingsScreen)
        assert screen.query_one("#standings").styles.padding == Spacing(1, 2, 1, 2)


@pilot_test
async def test_a_session_that_cannot_be_opened_shows_the_home_and_the_error_styled(tmp_path: Path) -> None:
    bad = tmp_path / "bad.toml"
    bad.write_text('format = 1\ngame = "ticket-booth"\nplayers = ["Ana"]\n')
    app = app_for(tmp_path, bad)
    assert isinstance(app, ScorekeeperApp)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        from scorekeeper.tui.screens.dialogs import ErrorScreen
        from scorekeeper.tui.screens.home import HomeScreen

        assert [type(s) for s in app.screen_stack[1:]] == [HomeScreen, ErrorScreen]
        sources = {Path(p).name for p, _ in app.stylesheet.source if p.endswith(".tcss")}
        assert {"scorekeeper.tcss", "home.tcss"} <= sources
        assert app.screen.query_one(".dialog").styles.width.value == 100  # scorekeeper.tcss: .dialog.wide
