"""SIGTERM/SIGHUP and a closed terminal at any moment of the app's life: it ends within seconds, the terminal
restored (issue 22, item 7); real processes on a pseudo-terminal."""

from __future__ import annotations

import os
import signal
import sys
import time
from pathlib import Path

import pytest

from scorekeeper import files
from tests.faults_support import exit_code_within, run_in_pty, scorekeeper_argv
from tests.test_tui_support import write_session


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.05, 0.1, 0.2])
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGHUP], ids=["SIGTERM", "SIGHUP"])
def test_an_early_signal_ends_the_app_with_the_terminal_restored(tmp_path: Path, sig: int, delay: float) -> None:
    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    started = time.monotonic()
    run = run_in_pty(scorekeeper_argv(str(path)), send_signal=(delay, sig), ready=b"\x1b[?1049h", timeout=30)
    assert run.status == 0, run.status
    assert time.monotonic() - started < 20
    tail = run.output[run.output.rfind(b"\x1b[?1049h"):]  # the app had taken the terminal: it gave it back
    assert b"\x1b[?1049l" in tail and b"\x1b[?1000l" in tail
    files.load(path)


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.0, 0.05, 0.2])
def test_a_terminal_closed_while_starting_ends_the_app(tmp_path: Path, delay: float) -> None:
    """The terminal goes away before the first frame (the home screen): the app ends within seconds."""
    import pty

    write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.environ["TERM"] = "xterm-256color"
        os.execv(sys.executable, [sys.executable, "-m", "scorekeeper", "--dir", str(tmp_path)])
    import select

    seen, end = b"", time.monotonic() + 30
    while time.monotonic() < end and b"\x1b[?1049h" not in seen:  # the app takes the terminal
        if select.select([fd], [], [], 0.02)[0]:
            try:
                seen += os.read(fd, 65536)
            except OSError:
                break
    time.sleep(delay)
    os.close(fd)
    code = exit_code_within(pid, 15)
    assert code is not None, "the app hung after its terminal went away"
    assert code == 0
