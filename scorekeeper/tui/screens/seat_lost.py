"""What a seat's phone shows when its seat cannot be shown (SPEC §5: a seat never reaches a screen but its own): why,
and the seat again as soon as its session opens (tried every second); q ends. Nothing else of the folder opens."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from scorekeeper.model.session import Problem
from scorekeeper.model.text import inert

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase

RETRY = 1.0
"""Seconds between two tries to open the seat's session again."""


class SeatLostScreen(Screen[None]):
    """The seat's session cannot be opened now (a file being replaced, removed, damaged): why, and a retry."""

    app: AppBase
    BINDINGS = [Binding("q,escape", "end", "End")]
    DEFAULT_CSS = """
    SeatLostScreen Vertical { width: 1fr; max-width: 42; height: auto; padding: 1 1; }
    """

    def __init__(self, path: Path, player: str, why: str, problems: list[Problem] | None = None) -> None:
        super().__init__()
        self.path = path
        self.player = player
        self.why = why
        self.problems = problems or []

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Content.assemble((inert(self.player), "bold $text-accent"), " · ",
                                          inert(self.path.name)), id="seat-lost-title")
            yield Static(Content.styled(inert(self.why), "$text-warning"), id="seat-lost-why")
            for problem in self.problems[:3]:
                yield Static(Content(inert(problem.describe())))
            yield Static(Content.styled("This phone shows this seat only: it opens again by itself as soon as "
                                        "the session can be read. q ends.", "dim"))

    def on_mount(self) -> None:
        """Try again every second."""
        self.set_interval(RETRY, self.retry, name="the seat's session opened again")

    def retry(self) -> None:
        """The seat's session again, if it opens now."""
        from scorekeeper.model.session import SessionError

        opened = self.app.session_screen(self.path)
        if not isinstance(opened, SessionError):
            self.app.switch_screen(opened)

    def action_end(self) -> None:
        """The phone leaves the table: the app ends."""
        self.app.exit()
