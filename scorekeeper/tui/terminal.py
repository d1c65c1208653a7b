"""The terminal as the app found it, and the way out when Textual's shutdown cannot run (a signal's grace over)."""

from __future__ import annotations

import os
import sys
from typing import Any


def terminal_state() -> list[Any] | None:
    """The terminal's settings as the app found them (None without a terminal), to put back if it must end
    without Textual's shutdown."""
    import termios

    try:
        return termios.tcgetattr(sys.__stdin__.fileno()) if sys.__stdin__ is not None else None
    except (OSError, ValueError, termios.error):
        return None


RESTORE = "\x1b[?1000l\x1b[?1002l\x1b[?1003l\x1b[?1006l\x1b[?1015l\x1b[?2004l\x1b[?1004l\x1b[?25h\x1b[?1049l"
"""Mouse reporting, bracketed paste and focus events off, the cursor shown, the alternate screen left."""


def end_now(terminal: list[Any] | None) -> None:
    """End the process at once (the grace is over): the terminal as it was found, then exit 0; a second timer
    exits even if the terminal blocks the writing."""
    import termios
    import threading

    backstop = threading.Timer(1.0, os._exit, (0,))
    backstop.daemon = True
    backstop.start()
    try:
        if sys.__stdout__ is not None and os.isatty(sys.__stdout__.fileno()):
            os.write(sys.__stdout__.fileno(), RESTORE.encode("ascii"))
        if terminal is not None and sys.__stdin__ is not None:
            termios.tcsetattr(sys.__stdin__.fileno(), termios.TCSANOW, terminal)
    except (OSError, ValueError, termios.error):
        pass
    os._exit(0)
