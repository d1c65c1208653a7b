"""The home screen on a big folder: first paint (index warm and cold) next to a bare Textual app, and filtering.

First paint: each app in its own Python process (headless), alternately; a process reports the moment its
first screen is drawn; figures are medians from process start to that moment. The bare app has a Header and a
Footer. Cold means an empty cache folder (the list fills in behind a progress line); the time until the list
is complete is given too. Filtering: in one process, on the warm index, each key of several names typed into
the filter, timed from the key to the list painted again (Pilot: key event, filter, repaint, idle).

    python bench/home.py [--size 10000] [--runs 5] [--keep DIR]
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


async def filtering(folder: Path, cache: Path) -> None:
    """Per key, from the key event to the frame that shows the filtered list, on the warm index.

    The key is posted as the terminal driver posts it; the time stops when the app hands the next frame to
    the driver (`App._display`) with the filter's new text in it. Pilot's own waits are not counted.
    """
    os.environ["XDG_CACHE_HOME"] = str(cache)
    from textual import events
    from textual.widgets import Input

    from scorekeeper.tui.app import ScorekeeperApp
    from scorekeeper.tui.screens.home import HomeScreen

    app = ScorekeeperApp(folder)
    times: list[float] = []
    cpu: list[float] = []
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, HomeScreen)
        box = screen.query_one("#filter", Input)
        painted = asyncio.Event()
        expected = [""]
        display = app._display

        def timed_display(*args: object) -> None:
            display(*args)  # type: ignore[arg-type]
            if box.value == expected[0]:
                painted.set()

        app._display = timed_display  # type: ignore[method-assign]
        assert app._driver is not None
        for word in ("ana", "ticket booth", "zoë", "finished", "round 2", "mars kim", "xyzzy"):
            for ch in word:
                expected[0] = box.value + ch
                painted.clear()
                event = events.Key("space" if ch == " " else ch, ch)
                event.set_sender(app)
                start, start_cpu = time.perf_counter(), time.process_time()
                app._driver.send_message(event)
                await asyncio.wait_for(painted.wait(), 10)
                times.append(time.perf_counter() - start)
                cpu.append(time.process_time() - start_cpu)
                await pilot.pause()
            await pilot.press("escape")
            await pilot.pause()
        total = len(screen.entries)
    times.sort()
    cpu.sort()
    print(f"filter as you type, {total} sessions, {len(times)} keys (key event to the frame showing the list), "
          f"load average {os.getloadavg()[0]:.2f}:")
    print(f"  median {statistics.median(times) * 1000:5.1f} ms   90th {times[int(len(times) * 0.9)] * 1000:5.1f} ms   "
          f"max {times[-1] * 1000:5.1f} ms   (budget {FILTER_BUDGET_MS} ms)")
    print(f"  CPU time of the process per key (what the wall time is without other processes): median "
          f"{statistics.median(cpu) * 1000:5.1f} ms   90th {cpu[int(len(cpu) * 0.9)] * 1000:5.1f} ms   "
          f"max {cpu[-1] * 1000:5.1f} ms")


def main() -> None:
    """Generate the folder (or reuse a kept one), then print the figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--size", type=int, default=10000)
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--keep", help="generate into (and keep) this folder")
    ap.add_argument("--filter-only", action="store_true", help="only the filter figures (the index built if cold)")
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
        if not args.filter_only:
            first_paint(folder, cache, args.runs)
        asyncio.run(filtering(folder, cache))
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
