"""The home screen on a big folder: first paint (index warm and cold) next to a bare Textual app, and filtering.

First paint: each app in its own Python process (headless), alternately; a process reports the moment its
first screen is drawn; figures are medians from process start to that moment. The bare app has a Header and a
Footer. Cold means an empty cache folder (the list fills in behind a progress line); the time until the list
is complete is given too. Filtering: in one process, on the warm index, each key of several names typed into
the filter, timed from the key to the list painted again (Pilot: key event, filter, repaint, idle); then the
same while a cold index fills (worker processes reading the folder), with the time until the list is full.

    python bench/home.py [--size 10000] [--runs 5] [--keep DIR] [--only paint|filter|cold]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from firstpaint import BARE_HEADLESS
from firstpaint import time_to_ready as report_time

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

WARM_BUDGET, COLD_BUDGET, FILTER_BUDGET_MS = 1.3, 1.5, 50

HOME = """
import os, sys
from pathlib import Path
from scorekeeper.tui import app
from scorekeeper.tui.screens import home

wait_for_fill = sys.argv[2] == "fill"
mounted = home.HomeScreen.on_mount
loaded = home.HomeScreen.on_home_screen_loaded


def on_mount(self):
    mounted(self)
    if not wait_for_fill:
        self.call_after_refresh(ready, self)


def on_loaded(self, message):
    loaded(self, message)
    if wait_for_fill and message.final:
        self.call_after_refresh(ready, self)


def ready(screen):
    os.write(1, f"READY {len(screen.entries)}\\n".encode())
    screen.app.exit()


class Headless(app.ScorekeeperApp):
    def run(self, **kwargs):
        return super().run(headless=True, **kwargs)


home.HomeScreen.on_mount = on_mount
home.HomeScreen.on_home_screen_loaded = on_loaded
app.ScorekeeperApp = Headless
app.run(Path(sys.argv[1]))
"""


def time_to_ready(code: str, *args: str, env: dict[str, str]) -> tuple[float, str]:
    """Seconds from starting a Python process running `code` until it prints READY, and the count it printed."""
    seconds, line = report_time(code, *args, env=env, cwd=ROOT, timeout=600)
    return seconds, line.split()[-1]


BARE = BARE_HEADLESS


def first_paint(folder: Path, cache: Path, runs: int) -> None:
    """Warm and cold first paint against the bare app, and cold until the list is full."""
    env = {**os.environ, "XDG_CACHE_HOME": str(cache)}
    from scorekeeper.index import Index

    shutil.rmtree(cache, ignore_errors=True)
    os.environ["XDG_CACHE_HOME"] = str(cache)
    with Index(folder) as index:
        index.refresh()
    bare, warm, warm_full, cold, full = [], [], [], [], []
    rows = total = ""
    for _ in range(runs):
        bare.append(time_to_ready(BARE, env=env)[0])
        seconds, rows = time_to_ready(HOME, str(folder), "paint", env=env)
        warm.append(seconds)
        seconds, total = time_to_ready(HOME, str(folder), "fill", env=env)
        warm_full.append(seconds)
        empty = Path(tempfile.mkdtemp(prefix="scorekeeper-cold-"))
        cold.append(time_to_ready(HOME, str(folder), "paint", env={**env, "XDG_CACHE_HOME": str(empty)})[0])
        shutil.rmtree(empty)
    empty = Path(tempfile.mkdtemp(prefix="scorekeeper-cold-"))
    seconds, filled = time_to_ready(HOME, str(folder), "fill", env={**env, "XDG_CACHE_HOME": str(empty)})
    full.append(seconds)
    shutil.rmtree(empty)
    b, w, c = statistics.median(bare), statistics.median(warm), statistics.median(cold)
    wf = statistics.median(warm_full)
    print(f"first paint ({runs} runs, medians):")
    print(f"  bare Textual app (Header + Footer)  {b * 1000:7.0f} ms")
    print(f"  home, index warm (first {rows} rows)   {w * 1000:7.0f} ms  {w / b:5.2f}× bare  (budget {WARM_BUDGET}×)")
    print(f"  home, index warm, all {total} listed  {wf * 1000:7.0f} ms  {wf / b:5.2f}× bare")
    print(f"  home, index cold (first screen)     {c * 1000:7.0f} ms  {c / b:5.2f}× bare  (budget {COLD_BUDGET}×)")
    print(f"  home, index cold, list complete     {full[0] * 1000:7.0f} ms  ({filled} sessions, one run)")


async def time_keys(app: Any, pilot: Any, words: tuple[str, ...], go_on: Any = None) -> list[float]:
    """Per key, from the key event to the frame that shows the filtered list (each word typed, then Esc).

    The key is posted as the terminal driver posts it; the time stops when the app hands the next frame to
    the driver (`compat.after_each_display`) with the filter's new text in it. Pilot's own waits are not counted.
    `go_on()` is asked before each word: False stops.
    """
    from textual import events
    from textual.widgets import Input

    from scorekeeper.tui import compat

    box = app.screen.query_one("#filter", Input)
    painted = asyncio.Event()
    expected = [""]
    driver = compat.driver(app)
    assert driver is not None

    def timed_display(*_args: object) -> None:
        if box.value == expected[0]:
            painted.set()

    undo = compat.after_each_display(timed_display)
    times: list[float] = []
    try:
        for word in words:
            if go_on is not None and not go_on():
                break
            for ch in word:
                expected[0] = box.value + ch
                painted.clear()
                event = events.Key("space" if ch == " " else ch, ch)
                event.set_sender(app)
                start = time.perf_counter()
                driver.send_message(event)
                await asyncio.wait_for(painted.wait(), 30)
                times.append(time.perf_counter() - start)
                await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
    finally:
        undo()
    return times


def key_figures(times: list[float]) -> str:
    """Median, 90th percentile and maximum of key-to-frame times, in ms."""
    times = sorted(times)
    return (f"median {statistics.median(times) * 1000:5.1f} ms   90th {times[int(len(times) * 0.9)] * 1000:5.1f} ms   "
            f"max {times[-1] * 1000:5.1f} ms")


WORDS = ("ana", "ticket booth", "zoë", "finished", "round 2", "mars kim", "xyzzy")


async def filtering(folder: Path, cache: Path) -> None:
    """Per key, from the key event to the frame that shows the filtered list, on the warm index."""
    os.environ["XDG_CACHE_HOME"] = str(cache)
    from scorekeeper.tui.app import ScorekeeperApp
    from scorekeeper.tui.screens.home import HomeScreen

    app = ScorekeeperApp(folder)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert isinstance(app.screen, HomeScreen)
        times = await time_keys(app, pilot, WORDS)
        total = len(app.screen.entries)
    print(f"filter as you type, {total} sessions, {len(times)} keys (key event to the frame showing the list):")
    print(f"  {key_figures(times)}   (budget {FILTER_BUDGET_MS} ms)")


async def filtering_cold(folder: Path) -> None:
    """Per key, the same, while a cold index fills (first run on the folder), and how long the fill takes."""
    os.environ["XDG_CACHE_HOME"] = tempfile.mkdtemp(prefix="scorekeeper-cold-")
    from scorekeeper.tui.app import ScorekeeperApp
    from scorekeeper.tui.screens.home import HomeScreen

    filled: list[float] = []
    loaded = HomeScreen.on_home_screen_loaded

    def on_loaded(screen: HomeScreen, message: HomeScreen.Loaded) -> None:
        loaded(screen, message)
        if message.final and not filled:
            filled.append(time.perf_counter() - start)

    HomeScreen.on_home_screen_loaded = on_loaded  # type: ignore[method-assign]  # handlers are found on the class
    app = ScorekeeperApp(folder)
    start = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        while screen.reading is None and not filled:
            await asyncio.sleep(0.05)
        times: list[float] = []
        while not filled:
            times += await time_keys(app, pilot, WORDS, go_on=lambda: not filled)
        await app.workers.wait_for_complete()
        total = len(screen.entries)
    HomeScreen.on_home_screen_loaded = loaded  # type: ignore[method-assign]
    shutil.rmtree(os.environ["XDG_CACHE_HOME"], ignore_errors=True)
    print(f"filter while a cold index fills: {total} sessions listed after {filled[0]:.1f} s; {len(times)} keys typed "
          "meanwhile:")
    print(f"  {key_figures(times) if times else 'none (the fill ended first)'}")


def main() -> None:
    """Generate the folder (or reuse a kept one), then print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", help="generate into (and keep) this folder (a later run with it reuses the folder)")
    ap.add_argument("--only", choices=("paint", "filter", "cold"), help="only first paint, filtering, or the cold fill")
    args = ap.parse_args()
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    folder = base / f"sessions-{args.size}"
    if not folder.is_dir() or len(list(folder.glob("*.toml"))) != args.size:
        sys.path.insert(0, str(ROOT / "bench"))
        from folder import generate  # type: ignore[import-not-found]

        shutil.rmtree(folder, ignore_errors=True)
        generate(folder, args.size)
    cache = base / "cache-home"
    subprocess.run([sys.executable, "-m", "compileall", "-q", str(ROOT / "scorekeeper")], check=True,
                   stdout=subprocess.DEVNULL)
    try:
        if args.only in (None, "paint"):
            first_paint(folder, cache, args.runs)
        if args.only in (None, "filter"):
            if args.only:  # the warm index first_paint leaves
                os.environ["XDG_CACHE_HOME"] = str(cache)
                from scorekeeper.index import Index

                with Index(folder) as index:
                    index.refresh()
            asyncio.run(filtering(folder, cache))
        if args.only in (None, "cold"):
            asyncio.run(filtering_cold(folder))
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
