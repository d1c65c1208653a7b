"""Start-up bench: scorekeeper's home screen (20 sessions) and opening a session vs a bare Textual app with a
header and a footer.

Each app runs in its own process, repeatedly and alternately, in a real terminal: a tmux session of its
own (120x40), whose screen is polled until the app's first screen shows (the bare app's title; a session
line of the home screen; the walkthrough's score table). scorekeeper runs as `scorekeeper --dir DIR`
(the home screen, 20 sessions) and `scorekeeper --dir DIR FILE` (a session in progress). The figures are
medians from starting the terminal to that moment (tmux's own start-up is in both). Without tmux, or with
`--headless`, each app runs headless and reports the moment its first screen is mounted and drawn. The
budget (issue 23): each at most 1.5 times the bare app; the exit code is 1 when a figure is over it.

With `--instructions` (valgrind), each app runs once more under callgrind in the terminal, ending once its first
frame is written to the terminal (not at a frame Textual holds back for a batch update), and the instructions it
executed are compared: a figure the load of the machine does not move.

    python bench/startup.py [--runs N] [--headless] [--instructions]
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
import tempfile
from importlib import resources
from pathlib import Path

from firstpaint import BARE_HEADLESS, BARE_MARKER, BARE_TUI, instructions_in_tmux, time_in_tmux, time_to_ready

BUDGET = 1.5

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


def main() -> int:
    """Run both apps alternately, print the medians and the ratio; exit 1 over budget."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=15)
    parser.add_argument("--headless", action="store_true", help="headless apps instead of a tmux terminal")
    parser.add_argument("--instructions", action="store_true",
                        help="also count the instructions to the first frame (valgrind's callgrind, in tmux)")
    args = parser.parse_args()
    use_tmux = not args.headless and shutil.which("tmux") is not None
    load = os.getloadavg()[0]
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
                return time_in_tmux([py, "-c", BARE_TUI], BARE_MARKER, env)

            cases = {
                "home screen, 20 sessions": lambda: time_in_tmux([py, "-m", "scorekeeper", "--dir", str(folder)],
                                                                 "finished — ", env),
                "opening a session": lambda: time_in_tmux([py, "-m", "scorekeeper", "--dir", str(folder),
                                                           str(sample)], "Scores (this round is", env),
            }
        else:

            def bare_once() -> float:
                return time_to_ready(BARE_HEADLESS, env=env)[0]

            cases = {
                "home screen, 20 sessions": lambda: time_to_ready(SCOREKEEPER, str(folder), "", env=env)[0],
                "opening a session": lambda: time_to_ready(SCOREKEEPER, str(folder), str(sample), env=env)[0],
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
        counts: dict[str, int] = {}
        if args.instructions and use_tmux and shutil.which("valgrind"):
            counts["bare"] = instructions_in_tmux(["bare", BARE_TUI], env)
            counts["home screen, 20 sessions"] = instructions_in_tmux(["scorekeeper", "--dir", str(folder)], env)
            counts["opening a session"] = instructions_in_tmux(["scorekeeper", "--dir", str(folder), str(sample)], env)
        assert sample.read_bytes() == original, "opening a session must not change it"
    b = statistics.median(bare)
    where = "in a tmux terminal, polled" if use_tmux else "headless"
    print(f"runs: {args.runs} each, alternating, {where}; time from start to the first screen drawn; "
          f"load average {load:.2f} before, {os.getloadavg()[0]:.2f} after")
    print(f"bare Textual app (Header + Footer): median {b * 1000:.0f} ms  (min {min(bare) * 1000:.0f})")
    over = False
    for name, times in ours.items():
        o = statistics.median(times)
        print(f"scorekeeper, {name + ':':<27} median {o * 1000:.0f} ms  (min {min(times) * 1000:.0f})  "
              f"ratio: {o / b:.2f} (budget {BUDGET})")
        over |= o / b > BUDGET
    if counts:
        bare_count = counts.pop("bare")
        print(f"instructions to the first frame (callgrind, one run each): bare app {bare_count / 1e6:,.0f} M")
        for name, count in counts.items():
            print(f"scorekeeper, {name + ':':<27} {count / 1e6:,.0f} M  ratio: {count / bare_count:.2f}")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
