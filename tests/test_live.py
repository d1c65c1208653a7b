"""Live sessions with real processes: two app instances on one file, each in its own terminal (tmux), typing
different players' fields in bursts; each screen shows the other's values within a second, and no question."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.test_tui_support import saved, write_session

pytestmark = [pytest.mark.slow, pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux")]


class Terminal:
    """One app in a tmux window of a server of its own."""

    def __init__(self, server: str, name: str, argv: list[str], env: dict[str, str]) -> None:
        self.server, self.name = server, name
        command = " ".join(f"'{a}'" for a in argv)
        exports = " ".join(f"{k}='{v}'" for k, v in env.items())
        self.tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30", f"env {exports} {command}")

    def tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.server, *args], capture_output=True, text=True, timeout=20).stdout

    def screen(self) -> str:
        return self.tmux("capture-pane", "-p", "-t", self.name)

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def wait_for(self, text: str, seconds: float = 20.0) -> str:
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            shown = self.screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} not on the screen of {self.name} within {seconds} s:\n{self.screen()}")


def test_two_terminals_typing_different_players_both_land_and_each_sees_the_other(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    server = f"sk-live-{os.getpid()}"
    env = {"SCOREKEEPER_HOME": str(tmp_path), "XDG_CACHE_HOME": str(tmp_path / "cache"), "TERM": "xterm-256color",
           "TEXTUAL_ANIMATIONS": "none", "PYTHONPATH": str(Path(__file__).resolve().parent.parent)}
    argv = [sys.executable, "-m", "scorekeeper", str(path)]
    try:
        one, two = Terminal(server, "one", argv, env), Terminal(server, "two", argv, env)
        for t in (one, two):
            t.wait_for("Ana")
        one.keys("2", "Tab", "3")            # Ana: 2 pairs of 3, as a burst
        two.keys("Down", "Down", "4", "Tab", "1")  # Bo's count then each, at the same time
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            players = saved(path)[0].rounds[0].players if saved(path)[0].rounds else {}
            if players.get("Ana", {}).get("pairs") == {"count": 2, "each": 3} and \
                    players.get("Bo", {}).get("pairs") == {"count": 4, "each": 1}:
                break
            time.sleep(0.1)
        players = saved(path)[0].rounds[0].players
        assert players["Ana"]["pairs"] == {"count": 2, "each": 3}
        assert players["Bo"]["pairs"] == {"count": 4, "each": 1}
        time.sleep(1.0)  # within a second each screen shows the other's values
        for t in (one, two):
            shown = t.screen()
            assert "changed on disk" not in shown, shown
            assert "2 pairs × 3 = 6" in shown and "4 pairs × 1 = 4" in shown, shown
    finally:
        subprocess.run(["tmux", "-L", server, "kill-server"], capture_output=True, timeout=20)
