"""Start-up bench: scorekeeper's home screen (20 sessions) and opening a session vs a bare Textual app with a
header and a footer.

Each app runs in its own process, repeatedly and alternately, in a real terminal: a tmux session of its
own (120x40), whose screen is polled until the app's first screen shows (the bare app's title; a session
line of the home screen; the walkthrough's "first player"). scorekeeper runs as `scorekeeper --dir DIR`
(the home screen, 20 sessions) and `scorekeeper --dir DIR FILE` (a session in progress). The figures are
medians from starting the terminal to that moment (tmux's own start-up is in both). Without tmux, or with
`--headless`, each app runs headless and reports the moment its first screen is mounted and drawn. The
budget (issue "Fast at every size"): each at most 1.1 times the bare app; the exit code is 1 when a figure is
over it.

    python bench/startup.py [--runs N] [--headless]
"""

from __future__ import annotations

import argparse
import itertools
import os
import select
import shlex
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


BARE_TUI = """
from textual.app import App
from textual.widgets import Footer, Header


class Bare(App):
    TITLE = "Bare app"

    def compose(self):
        yield Header()
        yield Footer()


Bare().run()
"""


_RUNS = itertools.count()


def time_in_tmux(cmd: list[str], marker: str, env: dict[str, str]) -> float:
    """Seconds from starting cmd in a new tmux terminal until its screen shows marker."""
    name = f"scorekeeper-bench-{os.getpid()}-{next(_RUNS)}"
    tmux = ["tmux", "-L", name]
    start = time.perf_counter()
    subprocess.run([*tmux, "new-session", "-d", "-s", name, "-x", "120", "-y", "40", shlex.join(cmd)], env=env,
                   check=True)
    try:
        while time.perf_counter() - start < 60:
            screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout
            if marker in screen:
                return time.perf_counter() - start
            time.sleep(0.005)
        raise SystemExit(f"{shlex.join(cmd)}: no first screen ({marker!r}) within 60 s")
    finally:
        subprocess.run([*tmux, "kill-server"], stderr=subprocess.DEVNULL)


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
    parser.add_argument("--headless", action="store_true", help="headless apps instead of a tmux terminal")
    args = parser.parse_args()
    use_tmux = not args.headless and shutil.which("tmux") is not None
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
        py = sys.executable
        if use_tmux:
            env["TERM"] = "xterm-256color"

            def bare_once() -> float:
                return time_in_tmux([py, "-c", BARE_TUI], "Bare app", env)

            cases = {
                "home screen, 20 sessions": lambda: time_in_tmux([py, "-m", "scorekeeper", "--dir", str(folder)],
                                                                 "finished — ", env),
                "opening a session": lambda: time_in_tmux([py, "-m", "scorekeeper", "--dir", str(folder),
                                                           str(sample)], "first player", env),
            }
        else:

            def bare_once() -> float:
                return time_to_ready(BARE, env=env)

            cases = {
                "home screen, 20 sessions": lambda: time_to_ready(SCOREKEEPER, str(folder), "", env=env),
                "opening a session": lambda: time_to_ready(SCOREKEEPER, str(folder), str(sample), env=env),
            }
        bare_once()
        for case in cases.values():
            case()
        bare: list[float] = []
        ours: dict[str, list[float]] = {name: [] for name in cases}
        for _ in range(args.runs):
            bare.append(bare_once())
            for name, case in cases.items():
                ours[name].append(case())
        assert sample.read_bytes() == original, "opening a session must not change it"
    b = statistics.median(bare)
    where = "in a tmux terminal, polled" if use_tmux else "headless"
    print(f"runs: {args.runs} each, alternating, {where}; time from start to the first screen drawn")
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
