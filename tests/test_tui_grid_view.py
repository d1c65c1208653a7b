"""The step grid is driven by its reactive `view` (what the rows show, as values), and a key's echo comes first.

- A new view paints the lines that changed, an equal view paints nothing, and the cursor's rows are kept in view.
- A digit typed in the walkthrough: the grid (the box and the reason beside it) is drawn at once, in the frame the
  key causes; the heading, the notes, the round's table and the step list follow once that frame is painted. What it
  buys is a typed digit painted as fast as in a bare Input + Static, whatever the round (`bench/keys.py`: the
  budget 1.3×; drawing the table in the same frame measured 1.6–2.4×).
"""

from __future__ import annotations

from pathlib import Path

from textual.geometry import Region

from scorekeeper.model.session import Round
from scorekeeper.tui.player_rows import RowsView
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.walk_view import ScoreTable
from scorekeeper.tui.widgets.grid import StepGrid
from tests.test_tui_support import pilot_test, running, settle, write_session


def rounds_with_attractions() -> tuple[Round, ...]:
    return (Round(players={"Ana": {"attractions": {"1": 1}}, "Bo": {"attractions": {"1": 0}}}),)


@pilot_test
async def test_a_new_view_paints_the_lines_that_changed_and_an_equal_one_nothing(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"], rounds=rounds_with_attractions())
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        grid = screen.query_one(StepGrid)
        view = grid.view
        assert isinstance(view, RowsView) and view == screen.rows.view()
        painted: list[tuple[Region, ...]] = []
        refresh = grid.refresh

        def counted(*regions: Region, **kwargs: object) -> StepGrid:
            painted.append(regions)
            return refresh(*regions, **kwargs)  # type: ignore[arg-type]

        grid.refresh = counted  # type: ignore[method-assign]
        screen.draw_grid()  # nothing changed: an equal view
        assert painted == []
        editor = screen.editors[(0, 0)]
        assert editor.key("2", "2") is not None  # Ana's box (#2, the first step open) holds 2: only its lines change
        screen.draw_grid()
        assert grid.view != view
        assert len(painted) == 1 and 0 < len(painted[0]) < len(grid.plain().splitlines())
        assert "Ana starts  2" in grid.plain()
        await settle(pilot)


@pilot_test
async def test_the_cursor_rows_are_scrolled_into_view_when_the_cursor_moves(tmp_path: Path) -> None:
    players = ["Ana", "Bo", "Cy", "Dee", "Eve"]
    path = write_session(tmp_path, "ticket-booth", players)
    async with running(tmp_path, path, size=(100, 14)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        scroller = screen.query_one("#step")
        for _ in players[:-1]:
            await pilot.press("down")
        await settle(pilot)
        grid = screen.query_one(StepGrid)
        top, bottom = grid.block
        assert top > 0
        seen = scroller.scroll_offset.y
        assert seen > 0, "the last player's row is below the fold: the page scrolled to it"
        assert seen <= grid.virtual_region.y + top <= seen + scroller.scrollable_content_region.height
        for _ in players[:-1]:
            await pilot.press("up")
        await settle(pilot)
        assert scroller.scroll_offset.y == 0, "the first player's row: from the step's heading"


@pilot_test
async def test_a_digit_draws_the_grid_first_and_the_table_after_the_frame(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        table = screen.query_one(ScoreTable)
        before = table.scores
        assert screen.key("1", "1")  # as the grid hands it over: Ana has the #1
        assert "+2  the 1 #1 card" in screen.query_one(StepGrid).plain()
        assert table.scores == before, "the table is drawn after the frame that shows the digit"
        await pilot.pause()
        await settle(pilot)
        assert table.scores != before
        assert table.scores == screen.state.scores()
