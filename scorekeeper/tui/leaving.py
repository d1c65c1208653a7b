"""Leaving the app: ctrl+q (with a last try at what a full disk refused), SIGTERM and SIGHUP at any moment, and a
grace after which the process ends whatever Textual's shutdown does."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING, Any

from scorekeeper.tui.saving import SavingApp
from scorekeeper.tui.terminal import end_now

if TYPE_CHECKING:
    import threading

QUIT_GRACE = 5.0
"""Seconds the app has, once it is leaving, to restore the terminal before the process leaves anyway."""


class LeavingApp(SavingApp):
    """The app's ways out (`ScorekeeperApp` is built on it)."""

    grace: threading.Timer | None
    """The timer that ends the process once the grace is over (None until the app is leaving)."""
    mounted: bool
    """Whether the app is mounted (a signal before that quits it once it is)."""
    stop_asked: bool
    """Whether SIGTERM or SIGHUP came."""
    terminal: list[Any] | None
    """The terminal's settings as the app found them (`terminal_state`)."""

    async def action_quit(self) -> None:
        """Quit (ctrl+q): everything is saved already, but for a value a full disk refused: that is tried once
        more, and if it still cannot be written the app says so and asks (quit anyway, or stay)."""
        self.flush()
        doc = self.doc
        if doc is None or not doc.unsaved or doc.read_only:
            self.exit(0)
            return
        from textual.content import Content

        from scorekeeper.tui.screens.dialogs import ConfirmScreen

        question = Content.from_markup(
            "The last change to [b]$file[/b] is not saved: the disk refused it (full?).\n\nQuit anyway and lose "
            "it, or stay (free some space: the next change, or ctrl+q again, saves it)?", file=doc.path.name)

        def answer(yes: bool | None) -> None:
            if yes:
                self.exit(0)

        self.push_screen(ConfirmScreen(question, yes="Quit anyway", no="Stay"), answer)

    def on_unmount(self) -> None:
        """Leaving, for whatever reason: save what is left, and see that the process ends.

        Textual's shutdown can block for good once the terminal is gone (its output thread died writing to the
        closed terminal, and stopping it waits on that thread's full queue): everything is saved by then, so a
        timer ends the process after a few seconds' grace unless `run` has returned and cancelled it.
        """
        self.flush()
        if not self.is_headless:
            self.end_within_grace()

    def end_within_grace(self) -> None:
        """See that the process ends within QUIT_GRACE seconds from now, whatever Textual's shutdown does: then the
        terminal is put back as it was when the app started and the process exits (0: everything is saved)."""
        if self.grace is None:
            import threading

            self.grace = threading.Timer(QUIT_GRACE, end_now, (self.terminal,))
            self.grace.daemon = True
            self.grace.start()

    def action_quit_now(self) -> None:
        """SIGTERM or SIGHUP: as ctrl+q — save, restore the terminal, exit 0."""
        self.flush()
        self.exit(0)

    def on_signal(self, signum: int, frame: object) -> None:
        """SIGTERM or SIGHUP at any moment (a plain handler, so it runs even while the main thread waits on a
        lock in Textual's shutdown): the process ends within the grace; a running app quits as on ctrl+q, one
        still starting quits as soon as it is mounted."""
        self.stop_asked = True
        self.end_within_grace()
        if self.mounted:
            try:
                loop = asyncio.get_running_loop()
            except RuntimeError:
                return
            loop.call_soon_threadsafe(self.action_quit_now)
