"""A progress bar on the terminal (stderr) for a command's long read: shown only to a person, only when it lasts."""

from __future__ import annotations

import sys
import time
from typing import TextIO

AFTER = 1.0
"""Seconds a read runs before its bar appears (a read shorter than this shows nothing)."""

CELLS = 30
"""The bar's width in columns (the line stays under 80 with the counts)."""


class TerminalProgress:
    """`progress(done, total)` for `Index.refresh`: a bar on stderr, redrawn in place, once the read has taken
    AFTER seconds, and only when stderr is a terminal (nothing in a pipe, a file or a log); `close()` wipes it."""

    def __init__(self, what: str = "Reading the sessions", stream: TextIO | None = None) -> None:
        self.what = what
        self.stream = stream if stream is not None else sys.stderr
        try:
            self.on = self.stream.isatty()
        except (AttributeError, ValueError, OSError):
            self.on = False
        self.start = time.monotonic()
        self.shown = False

    def __call__(self, done: int, total: int) -> None:
        """Draw how far the read is (from AFTER seconds on)."""
        if not self.on or total <= 0 or (not self.shown and time.monotonic() - self.start < AFTER):
            return
        filled = min(CELLS, round(done / total * CELLS))
        self._write(f"\r{self.what} {'█' * filled}{'░' * (CELLS - filled)} {done:,} of {total:,}\x1b[K")
        self.shown = True

    def close(self) -> None:
        """Wipe the bar (the line is left empty for what the command prints next)."""
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # the terminal went away: the read goes on without a bar
            self.on = False
