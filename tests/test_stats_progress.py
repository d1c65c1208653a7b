"""A cold `stats` on a big folder shows how far it has read, on stderr when that is a terminal (issue 33, item 6)."""

from __future__ import annotations

import io
import os
import pty
import shutil
from pathlib import Path

import pytest

from scorekeeper.after import progress
from scorekeeper.cli import main

SAMPLES = Path(__file__).parent.parent / "sample_sessions"


def folder_of(tmp_path: Path, copies: int) -> Path:
    """A folder of `copies` times every sample."""
    folder = tmp_path / "sessions"
    folder.mkdir()
    for n in range(copies):
        for path in SAMPLES.glob("*.toml"):
            shutil.copy(path, folder / f"{n:03}-{path.name}")
    return folder


def terminal_read(master: int) -> str:
    """What was written to the terminal so far."""
    os.set_blocking(master, False)
    out = b""
    while True:
        try:
            chunk = os.read(master, 65536)
        except (BlockingIOError, OSError):
            break
        if not chunk:
            break
        out += chunk
    return out.decode("utf-8", "replace")


def test_a_long_read_draws_a_bar_on_a_terminal_and_wipes_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            capsys: pytest.CaptureFixture[str]) -> None:
    """With stderr a terminal and a read longer than AFTER (here 0 s), the bar counts up to every file, then the
    line is wiped; the statistics on stdout are untouched."""
    folder = folder_of(tmp_path, 3)
    total = len(list(folder.glob("*.toml")))
    master, slave = pty.openpty()
    tty = open(slave, "w", encoding="utf-8", closefd=True)  # noqa: SIM115
    try:
        monkeypatch.setattr(progress, "AFTER", 0.0)
        monkeypatch.setattr("sys.stderr", tty)
        assert main(["stats", str(folder)]) == 0
        tty.flush()
        said = terminal_read(master)
    finally:
        tty.close()
        os.close(master)
    assert "Reading the sessions " in said and f"{total:,} of {total:,}" in said
    assert said.endswith("\r\x1b[K")
    out = capsys.readouterr().out
    assert out.startswith("Statistics of ") and "Reading" not in out


def test_no_bar_when_stderr_is_not_a_terminal_or_the_read_is_short(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                   capsys: pytest.CaptureFixture[str]) -> None:
    folder = folder_of(tmp_path, 1)
    monkeypatch.setattr(progress, "AFTER", 0.0)
    assert main(["stats", str(folder)]) == 0
    assert capsys.readouterr().err == ""  # a pipe (or a log) gets no bar
    monkeypatch.setattr(progress, "AFTER", 3600.0)
    stream = io.StringIO()
    stream.isatty = lambda: True  # type: ignore[method-assign]
    bar = progress.TerminalProgress(stream=stream)
    bar(1, 10)
    bar.close()
    assert stream.getvalue() == ""  # a read shorter than AFTER shows nothing
