"""Keystroke bench: from a digit typed to the live explanation painted, in the walkthrough of a 5-player Ticket
Booth, against a bare Textual `Input` whose `Changed` updates a `Static`.

Under Pilot (headless, in this process) a frame counts as painted when the compositor has rendered it with the
new text; keys are timed one at a time, each once the one before is done (its save too); the CPU time per
digit includes everything the digit causes (the check, the score, the save). The
walkthrough is timed in round 1 and in round 30 of a 30-round session: a digit must cost the same in both.
In a real terminal (tmux, unless --no-tmux) each app runs in a pane; a digit is sent with `tmux send-keys` and
the time is until `capture-pane` shows the new text. The budget: at most 1.3 times the bare pair.

    python bench/keys.py [--digits N] [--no-tmux]
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

BUDGET = 1.3
PLAYERS = ("Ana", "Bo", "Cy", "Dee", "Eve")
BARE = """
from textual.app import App
from textual.widgets import Input, Static


class Bare(App):
    def compose(self):
        yield Input(id="box")
        yield Static("typed: ", id="out")

    def on_input_changed(self, event):
        self.query_one("#out", Static).update(f"typed: {event.value}")


if __name__ == "__main__":
    Bare().run()
"""


def session_file(folder: Path, rounds: int) -> Path:
    """A 5-player Ticket Booth of `rounds` rounds, every round done but the last, whose #1 to #7 are typed."""
    from scorekeeper import store
    from scorekeeper.model.session import Round, Session

    counts = {1: (1, 0, 0, 0, 0), 2: (0, 2, 0, 0, 0), 3: (1, 1, 1, 0, 0), 4: (2, 1, 1, 0, 0), 5: (0, 3, 2, 0, 0),
              6: (3, 2, 1, 0, 0), 7: (2, 2, 3, 0, 0), 8: (4, 2, 2, 0, 0), 9: (3, 3, 3, 0, 0), 10: (4, 3, 3, 0, 0),
              11: (2, 4, 5, 0, 0)}
    whole = {p: {"attractions": {str(n): c[i] for n, c in counts.items()}, "outhouses": (1, 0, 2, 0, 0)[i],
                 "ticket_booth": i == 0, "demolition_derby": i == 2, "tickets": (7, 5, 3, 0, 0)[i],
                 "piglet_race": i == 1} for i, p in enumerate(PLAYERS)}
    last = {p: {"attractions": {str(n): counts[n][i] for n in range(1, 8)}} for i, p in enumerate(PLAYERS)}
    session = Session(game="ticket-booth", players=PLAYERS, rules={"rounds": rounds},
                      rounds=(*(Round(players=whole) for _ in range(rounds - 1)), Round(players=last)))
    path = folder / f"booth-{rounds}.toml"
    store.save(path, session)
    return path


# -- Pilot ------------------------------------------------------------------------------------
async def settled(pilot: Any) -> None:
    """Everything a key caused is done (the save too): keys are timed one at a time, as typed at a table."""
    await pilot.pause()
    await pilot.pause()
    await asyncio.sleep(0.06)
    await pilot.pause()


async def time_digits(app: Any, digits: int, shown: Callable[[str], bool], setup: Callable[[], Any],
                      size: tuple[int, int] = (120, 40)) -> tuple[list[float], float]:
    """Per digit: seconds from the key to the first frame rendered that shows it; and CPU seconds per digit."""
    from textual import events

    from scorekeeper.tui import compat

    latencies: list[float] = []
    cpu = 0.0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        setup()
        frame = asyncio.Event()
        expected = [""]

        painted = [0.0]

        def refreshed() -> None:
            if not frame.is_set() and shown(expected[0]):
                painted[0] = time.perf_counter()
                frame.set()

        compat.after_each_refresh(app.screen, refreshed)
        for i in range(digits):
            digit = str(1 + i % 7)
            app.post_message(events.Key("backspace", None))
            await settled(pilot)
            frame.clear()
            expected[0] = digit
            c0, t0 = time.process_time(), time.perf_counter()
            app.post_message(events.Key(digit, digit))
            await frame.wait()
            latencies.append(painted[0] - t0)
            await settled(pilot)
            cpu += time.process_time() - c0
    return latencies, cpu / digits


def bare_app() -> Any:
    """The bare pair: an Input whose Changed updates a Static."""
    namespace: dict[str, Any] = {}
    exec(compile(BARE, "bare", "exec"), namespace)
    return namespace["Bare"]()


async def pilot_figures(folder: Path, digits: int) -> dict[str, tuple[float, float]]:
    """Median latency and CPU per digit: the bare pair, the walkthrough in round 1 and in round 30."""
    from textual.widgets import Static

    from scorekeeper.tui.app import ScorekeeperApp
    from scorekeeper.tui.widgets.grid import StepGrid

    out: dict[str, tuple[float, float]] = {}
    bare = bare_app()
    lat, cpu = await time_digits(bare, digits, lambda d: str(bare.query_one("#out", Static).render()).endswith(d),
                                 lambda: None)
    out["bare Input + Static"] = (statistics.median(lat), cpu)
    for rounds in (3, 30):
        path = session_file(folder, rounds)
        app = ScorekeeperApp(folder=folder, file=path)

        def shown(d: str, app: Any = app) -> bool:
            return f"most #8 ({d} card" in app.screen.query_one(StepGrid).plain()

        lat, cpu = await time_digits(app, digits, shown, lambda: None)
        out[f"walkthrough, round {rounds} of {rounds}" if rounds > 3 else "walkthrough, round 3 of 3"] = \
            (statistics.median(lat), cpu)
    return out


# -- tmux -------------------------------------------------------------------------------------
def tmux(*args: str) -> str:
    """Run tmux; its output."""
    return subprocess.run(["tmux", *args], capture_output=True, text=True, check=False).stdout


def tmux_latency(command: str, digits: int, shown: Callable[[str, str], bool], ready: str) -> float:
    """Median seconds from `send-keys` of a digit to `capture-pane` showing it, the app running in a pane."""
    name = "keys-bench"
    tmux("kill-session", "-t", name)
    tmux("new-session", "-d", "-s", name, "-x", "120", "-y", "40", command)
    try:
        deadline = time.perf_counter() + 30
        while ready not in tmux("capture-pane", "-p", "-t", name):
            if time.perf_counter() > deadline:
                raise RuntimeError(f"the app did not start: {command}")
            time.sleep(0.05)
        time.sleep(0.5)
        out = []
        for i in range(digits):
            digit = str(1 + i % 7)
            tmux("send-keys", "-t", name, "BSpace")
            time.sleep(0.15)
            t0 = time.perf_counter()
            tmux("send-keys", "-t", name, "-l", digit)
            while not shown(digit, tmux("capture-pane", "-p", "-t", name)):
                if time.perf_counter() - t0 > 5:
                    raise RuntimeError("the digit never showed")
            out.append(time.perf_counter() - t0)
        return statistics.median(out)
    finally:
        tmux("kill-session", "-t", name)


def tmux_figures(folder: Path, digits: int) -> dict[str, float]:
    """The same digits typed in a real terminal."""
    bare = folder / "bare.py"
    bare.write_text(BARE)
    path = session_file(folder, 30)
    python = sys.executable
    scorekeeper = str(Path(python).with_name("scorekeeper"))
    return {
        "bare Input + Static": tmux_latency(f"{python} {bare}", digits,
                                           lambda d, text: f"typed: {d}" in text, "typed:"),
        "walkthrough, round 30 of 30": tmux_latency(f"{scorekeeper} --dir {folder} {path}", digits,
                                                    lambda d, text: f"most #8 ({d} card" in text, "#8"),
    }


def main() -> int:
    """Print the figures and the ratios; exit 1 when over the budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--digits", type=int, default=60)
    parser.add_argument("--no-tmux", action="store_true")
    args = parser.parse_args()
    folder = Path(tempfile.mkdtemp(prefix="keys-bench-"))
    try:
        figures = asyncio.run(pilot_figures(folder, args.digits))
        base_lat, base_cpu = figures["bare Input + Static"]
        print(f"Pilot, {args.digits} digits, median from key to frame painted; CPU per digit:")
        worst = 0.0
        for name, (lat, cpu) in figures.items():
            ratio = lat / base_lat
            if name != "bare Input + Static":
                worst = max(worst, ratio)
            print(f"  {name:32} {lat * 1000:7.2f} ms  ({ratio:4.2f}×)   CPU {cpu * 1000:6.2f} ms "
                  f"({cpu / base_cpu:4.2f}×)")
        r1 = figures["walkthrough, round 3 of 3"][1]
        r30 = figures["walkthrough, round 30 of 30"][1]
        print(f"  CPU per digit, round 30 of 30 against round 3 of 3: {r30 / r1:4.2f}×")
        if not args.no_tmux and shutil.which("tmux"):
            terminal = tmux_figures(folder, max(10, args.digits // 3))
            base = terminal["bare Input + Static"]
            print("tmux, median from send-keys to capture-pane showing the digit:")
            for name, lat in terminal.items():
                if name != "bare Input + Static":
                    worst = max(worst, lat / base)
                print(f"  {name:32} {lat * 1000:7.2f} ms  ({lat / base:4.2f}×)")
        print(f"budget {BUDGET}×: {'met' if worst <= BUDGET else 'NOT met'} (worst {worst:4.2f}×)")
        return 0 if worst <= BUDGET else 1
    finally:
        shutil.rmtree(folder, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
