"""What the first-paint benches share: the bare Textual app they compare with, and the two ways to time an app.

`time_in_tmux` starts a command in a real terminal (a tmux server of its own) and polls the screen until a
marker shows; `time_to_ready` starts a headless app that reports its first screen by printing READY.
"""

from __future__ import annotations

import itertools
import os
import select
import shlex
import subprocess
import sys
import time
from pathlib import Path

BARE_HEADLESS = """
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
"""The bare app, headless: it prints READY once its first screen is drawn."""

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
"""The bare app in a terminal: its first screen shows BARE_MARKER."""

BARE_MARKER = "Bare app"

_RUNS = itertools.count()


def time_in_tmux(cmd: list[str], marker: str, env: dict[str, str], *, size: tuple[int, int] = (120, 40),
                 timeout: float = 60) -> float:
    """Seconds from starting cmd in a new tmux terminal until its screen shows marker (tmux's start included)."""
    name = f"scorekeeper-bench-{os.getpid()}-{next(_RUNS)}"
    tmux = ["tmux", "-L", name]
    start = time.perf_counter()
    subprocess.run([*tmux, "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]),
                    shlex.join(cmd)], env=env, check=True)
    try:
        while time.perf_counter() - start < timeout:
            screen = subprocess.run([*tmux, "capture-pane", "-p", "-t", name], capture_output=True, text=True).stdout
            if marker in screen:
                return time.perf_counter() - start
            time.sleep(0.005)
        raise SystemExit(f"{shlex.join(cmd)}: no first screen ({marker!r}) within {timeout:.0f} s")
    finally:
        subprocess.run([*tmux, "kill-server"], stderr=subprocess.DEVNULL)


def time_to_ready(code: str, *args: str, env: dict[str, str], cwd: Path | None = None,
                  timeout: float = 60) -> tuple[float, str]:
    """Seconds from starting a Python process running `code` until it prints READY, and the line it printed."""
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-c", code, *args], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=cwd)
    assert proc.stdout is not None
    if not select.select([proc.stdout], [], [], timeout)[0]:
        proc.kill()
        raise SystemExit(f"the app did not report its first screen within {timeout:.0f} s")
    line = proc.stdout.readline().decode()
    elapsed = time.perf_counter() - start
    proc.wait()
    if "READY" not in line:
        raise SystemExit(f"the app did not report its first screen (exit {proc.returncode})")
    return elapsed, line


FIRST_FRAME = """
import os, sys
from scorekeeper.tui import compat


def displayed(app, renderable):
    if renderable is not None and not compat.held_for_batch(app):  # else Textual draws nothing (held for a batch)
        os._exit(0)  # the first frame is out: stop counting


compat.after_each_display(displayed)
if sys.argv[1] == "bare":
    exec(sys.argv[2])
else:
    from scorekeeper.cli import main

    main(sys.argv[2:])
"""
"""Runs the bare app (`bare CODE`) or scorekeeper (`scorekeeper ARGS…`) and ends the process once its first frame is
written to the terminal (a frame Textual holds back for a batch update does not count)."""


def instructions_in_tmux(args: list[str], env: dict[str, str], *, size: tuple[int, int] = (120, 40)) -> int:
    """Instructions executed by `python -c FIRST_FRAME *args` in a tmux terminal up to its first frame (callgrind)."""
    name = f"scorekeeper-bench-{os.getpid()}-{next(_RUNS)}"
    tmux = ["tmux", "-L", name]
    out = Path(env.get("TMPDIR", "/tmp")) / f"{name}.callgrind"
    cmd = ["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, "-c", FIRST_FRAME, *args]
    done = f"{shlex.join(cmd)} 2>/dev/null; tmux -L {name} wait-for -S {name}"
    subprocess.run([*tmux, "new-session", "-d", "-s", name, "-x", str(size[0]), "-y", str(size[1]), done], env=env,
                   check=True)
    try:
        subprocess.run([*tmux, "wait-for", name], check=True, timeout=600)
        for line in out.read_text().splitlines():
            if line.startswith(("summary:", "totals:")):
                return int(line.split()[1])
        raise SystemExit(f"callgrind wrote no total for {args[:1]}")
    finally:
        subprocess.run([*tmux, "kill-server"], stderr=subprocess.DEVNULL)
        out.unlink(missing_ok=True)
