"""Start-up bench: scorekeeper's home screen (20 sessions) and opening a session vs a bare Textual app with a
header and a footer.

Each app runs in its own Python process (headless), repeatedly and alternately; scorekeeper starts through
`scorekeeper.tui.app.run` (what `scorekeeper` and `scorekeeper FILE` call): on a folder of 20 sessions (the
home screen), and on a session in progress. A process reports the moment its first screen is mounted and
drawn, and the figures are the medians from process start to that moment. The budget (issue "Fast at every
size"): each at most 1.1 times the bare app; the exit code is 1 when a figure is over it.

    python bench/startup.py [--runs N]
"""

from __future__ import annotations

import argparse
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from importlib import resources
from pathlib import Path

BUDGET = 1.1

BARE = """
import os
from textual.app import App
from textual.widgets import Footer, Header


class Bare(App):
    def compose(self):
        yield Header()
        yield Footer()

    def on_mount(self):
        self.call_after_refresh(self.ready)

    def ready(self):
        os.write(1, b"READY\\n")
        self.exit()


Bare().run(headless=True)
"""

SCOREKEEPER = """
import inspect, os, sys
from pathlib import Path
from scorekeeper.tui import app
from scorekeeper.tui.screens import standings, walkthrough


def when_mounted(cls):
    mounted = cls.on_mount

    async def on_mount(self):
        done = mounted(self)
        if inspect.isawaitable(done):
            await done
        self.call_after_refresh(ready, self.app)

    cls.on_mount = on_mount


def ready(the_app):
    os.write(1, b"READY\\n")
    the_app.exit()


class Headless(app.ScorekeeperApp):
    def run(self, **kwargs):
        return super().run(headless=True, **kwargs)


from scorekeeper.tui.screens import home

when_mounted(walkthrough.WalkthroughScreen)
when_mounted(standings.StandingsScreen)
when_mounted(home.HomeScreen)
app.ScorekeeperApp = Headless
app.run(Path(sys.argv[1]), Path(sys.argv[2]) if sys.argv[2] else None)  # what `scorekeeper [FILE]` calls
"""


def time_to_ready(code: str, *args: str, env: dict[str, str]) -> float:
    """Seconds from starting a Python process running `code` until it prints READY."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env)
    assert proc.stdout is not None
    if not select.select([proc.stdout], [], [], 60)[0]:
        proc.kill()
        raise SystemExit("the app did not report its first screen within 60 s")
    line = proc.stdout.readline()
    elapsed = time.perf_counter() - start
    proc.wait()
    if b"READY" not in line:
        raise SystemExit(f"the app did not report its first screen (exit {proc.returncode})")
    return elapsed


def main() -> int:
    """Run both apps alternately, print the medians and the ratio; exit 1 over budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "sessions"
        folder.mkdir()
        sample = folder / "session.toml"
        with resources.as_file(resources.files("scorekeeper.samples") / "ticket-booth-in-progress.toml") as src:
            shutil.copyfile(src, sample)
        original = sample.read_bytes()
        samples = sorted((Path(__file__).resolve().parent.parent / "sample_sessions").glob("*.toml"))
        for i in range(19):  # the home screen lists 20 sessions
            shutil.copyfile(samples[i % len(samples)], folder / f"{i:02d}-{samples[i % len(samples)].name}")
        # Both apps run from compiled bytecode, as an installed package does: it is cached in a folder of
        # the bench's own (never in the source tree), written by a first, untimed run of each.
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "TEXTUAL")}
        env["PYTHONPYCACHEPREFIX"] = str(Path(tmp) / "pycache")
        env["SCOREKEEPER_CACHE"] = str(Path(tmp) / "cache")
        cases = {"home screen, 20 sessions": (str(folder), ""), "opening a session": (str(folder), str(sample))}
        time_to_ready(BARE, env=env)
        for argv in cases.values():
            time_to_ready(SCOREKEEPER, *argv, env=env)
        bare: list[float] = []
        ours: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            bare.append(time_to_ready(BARE, env=env))
            for name, argv in cases.items():
                ours[name].append(time_to_ready(SCOREKEEPER, *argv, env=env))
        assert sample.read_bytes() == original, "opening a session must not change it"
    b = statistics.median(bare)
    print(f"runs: {args.runs} each, alternating; time from process start to the first screen drawn")
    print(f"bare Textual app (Header + Footer): median {b * 1000:.0f} ms  (min {min(bare) * 1000:.0f})")
    over = False
    for name, times in ours.items():
        o = statistics.median(times)
        print(f"scorekeeper, {name + ':':<27} median {o * 1000:.0f} ms  (min {min(times) * 1000:.0f})  "
              f"ratio: {o / b:.2f} (budget {BUDGET})")
        over |= o / b > BUDGET
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
