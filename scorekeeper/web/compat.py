"""The one place that uses names textual-serve does not publish (issue 23): an upgrade that drops one fails
tests/test_serve.py's canaries with the name, not a browser session at the table.

textual-serve's AppService starts the app through a shell from one command string; scorekeeper starts it
without a shell (a folder name is never shell text) and in a session of its own (the terminal's Ctrl+C reaches
the server, which then asks each app to quit after saving). AppService has no public hook for that, so this
overrides its `_open_app_process` and fills the two attributes its public `run`, `stop` and `stdin` read.
"""

from __future__ import annotations

import asyncio
from typing import Any

from textual_serve.app_service import AppService

# Every name of textual-serve used here that is not public: tests/test_serve.py checks each is still there.
PRIVATE_NAMES = {
    "AppService._open_app_process": "the method AppService.start calls to start the app's process",
    "AppService._build_environment": "the environment (driver, size) the app's process needs",
    "AppService._process": "the process AppService.run reads and stop waits for",
    "AppService._stdin": "the pipe AppService.stdin (send_bytes, send_meta) writes to",
}


def missing_names() -> list[str]:
    """The private names above that this textual-serve lacks (an empty list when all is well)."""
    probe = object.__new__(AppService)
    AppService.__init__(probe, "", write_bytes=_nothing, write_str=_nothing, close=_nothing,
                        download_manager=None)  # type: ignore[arg-type]
    missing = []
    for dotted in PRIVATE_NAMES:
        name = dotted.split(".", 1)[1]
        if not hasattr(probe, name):
            missing.append(dotted)
    return missing


async def _nothing(*_args: Any) -> None:
    """A no-op for the probe's callbacks."""


class ShellFreeAppService(AppService):
    """textual-serve's AppService starting `argv` without a shell, in a session of its own."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = argv

    def process(self) -> asyncio.subprocess.Process | None:
        """The app's process, once started."""
        return self._process

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        """Start the app: no shell, its own session, so the terminal's Ctrl+C reaches the server only."""
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process
