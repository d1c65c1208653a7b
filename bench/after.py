"""After the game in the app: history, statistics and a chart on big folders, next to the index read alone.

For each folder size the sessions are generated (bench/folder.py) and indexed once; then, in one app run under
Pilot, each figure is the median of RUNS: History painted / filled (pushed, to the first sessions listed), a
player picked, Statistics painted / filled (the core's statistics function, in a worker thread, included), and
the standings' charts drawn for one session. Two floors:
reading the finished sessions' summaries from the index, which these screens must do, and opening the help
screen (F1), the cost of any screen in this app.

    python bench/after.py [--sizes 300,10000] [--runs 5] [--keep DIR]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "bench"))

from folder import generate  # noqa: E402

from scorekeeper import games, store  # noqa: E402
from scorekeeper.index import Index  # noqa: E402


def median_ms(times: list[float]) -> float:
    """The median, in milliseconds."""
    return statistics.median(times) * 1000


async def measure(folder: Path, runs: int) -> dict[str, float]:
    """Median times of the screens on a folder already indexed."""
    from textual.screen import Screen
    from textual.widgets import Select

    from scorekeeper.tui.app import ScorekeeperApp

    class BenchApp(ScorekeeperApp):
        """The app on a blank first screen (the home screen's own reading of the folder is not measured here)."""

        def home_screen(self) -> Screen:
            return Screen()

    from scorekeeper.tui.screens.history import HistoryScreen, players_of
    from scorekeeper.tui.screens.statistics import StatisticsScreen
    from scorekeeper.tui.widgets.charts import chart_lines

    keys = ("floor", "help", "history paint", "history", "player", "statistics paint", "statistics", "chart")
    out: dict[str, list[float]] = {key: [] for key in keys}
    with Index(folder) as index:
        for _ in range(runs):
            start = time.perf_counter()
            summaries = index.summaries(complete=True)
            out["floor"].append(time.perf_counter() - start)
    player = players_of(summaries)[0]
    sample = next(s for s in summaries if s.rounds > 1)
    session, warnings = store.load(sample.path)
    sheet = games.score(session, warnings)
    app = BenchApp(folder=folder)

    async def until(done: Callable[[], bool]) -> None:
        while not done():
            await pilot.pause(0.005)

    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        for _ in range(runs):
            start = time.perf_counter()
            app.action_help()
            await pilot.pause()
            out["help"].append(time.perf_counter() - start)
            app.pop_screen()
            await pilot.pause()
            start = time.perf_counter()
            history = HistoryScreen()
            app.push_screen(history)
            await pilot.pause()
            out["history paint"].append(time.perf_counter() - start)
            await until(lambda h=history: h.loaded and bool(h.shown))
            out["history"].append(time.perf_counter() - start)
            await app.workers.wait_for_complete()
            picker = history.query_one("#player", Select)
            start = time.perf_counter()
            picker.value = player
            await pilot.pause()
            assert history.shown and all(player in s.players for s in history.shown)
            out["player"].append(time.perf_counter() - start)
            app.pop_screen()
            await pilot.pause()
            start = time.perf_counter()
            stats = StatisticsScreen()
            app.push_screen(stats)
            await pilot.pause()
            out["statistics paint"].append(time.perf_counter() - start)
            await until(lambda s=stats: bool(s.result) and s.result["sessions"] > 0)
            await pilot.pause()
            out["statistics"].append(time.perf_counter() - start)
            await app.workers.wait_for_complete()
            app.pop_screen()
            await pilot.pause()
            start = time.perf_counter()
            chart_lines(sheet, 76)
            out["chart"].append(time.perf_counter() - start)
    return {key: median_ms(times) for key, times in out.items()} | {"finished": float(len(summaries))}


def main() -> None:
    """Generate, index, measure, print."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="300,10000")
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--keep", help="generate the folders under DIR and keep them")
    args = parser.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="after-bench-"))
    os.environ.setdefault("XDG_CACHE_HOME", str(base / "cache"))
    print(f"{'sessions':>9} {'finished':>9} {'index':>8} {'Help':>7} {'History':>15} {'player':>7} "
          f"{'Statistics':>15} {'chart':>6}   History/Help, Statistics/Help (painted)")
    for size in (int(n) for n in args.sizes.split(",")):
        folder = base / f"s{size}"
        if not folder.exists():
            generate(folder, size)
        with Index(folder) as index:
            index.refresh()
        f = asyncio.run(measure(folder, args.runs))
        print(f"{size:>9} {int(f['finished']):>9} {f['floor']:>6.0f}ms {f['help']:>5.0f}ms "
              f"{f['history paint']:>5.0f}ms/{f['history']:>5.0f}ms {f['player']:>5.0f}ms "
              f"{f['statistics paint']:>5.0f}ms/{f['statistics']:>5.0f}ms {f['chart']:>4.1f}ms   "
              f"{f['history paint'] / f['help']:.1f}x, {f['statistics paint'] / f['help']:.1f}x")

if __name__ == "__main__":
    main()
