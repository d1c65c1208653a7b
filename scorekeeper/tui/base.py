"""What the screens may ask of the app, without importing it: the app is built on `AppBase`, screens are typed by it."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from textual.app import App

if TYPE_CHECKING:
    from textual.screen import Screen

    from scorekeeper.model.session import Session, SessionError
    from scorekeeper.walk.document import Batch, Edit


class AppBase(App[int]):
    """The sessions folder, the clock, saving, and the moves between screens; `ScorekeeperApp` does them."""

    folder: Path
    now: Callable[[], datetime]

    def open_file(self, path: Path) -> bool:
        """Open a session file where the table left off; False (and the reason shown) when it cannot be."""
        raise NotImplementedError

    def session_screen(self, path: Path) -> Screen[None] | SessionError:
        """The screen a session opens on, or the core's problems when it cannot be opened."""
        raise NotImplementedError

    def open_sample(self, name: str, text: str) -> bool:
        """Open a packaged sample without copying it into the folder (the first change copies it)."""
        raise NotImplementedError

    def choose_entry(self, path: Path, key: str) -> None:
        """Remember how the table enters routes in this session file (`walk.entry_mode`)."""
        raise NotImplementedError

    def walkthrough(self, number: int, index: int = 0) -> None:
        """Walk round `number` from step `index`."""
        raise NotImplementedError

    def show_standings(self) -> None:
        """Up from a walkthrough: the standings."""
        raise NotImplementedError

    def go_home(self) -> None:
        """Up from a session: the home screen."""
        raise NotImplementedError

    def show_history(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        """The finished sessions, filtered by game, player and period."""
        raise NotImplementedError

    def show_statistics(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        """The statistics of the finished sessions, filtered by game, player and period."""
        raise NotImplementedError

    def save(self, session: Session, key: object = None, *, last: bool = False,
             passed: tuple[Edit, ...] = (), base: Session | None = None) -> asyncio.Future[bool]:
        """Save a new value of the open session, in order; await the future (or not) to know whether it was saved."""
        raise NotImplementedError

    def save_batch(self, batch: Batch) -> asyncio.Future[bool]:
        """Save a batch of edits typed together (`Document.save`), in order, as `save`."""
        raise NotImplementedError

    def action_undo(self) -> None:
        """Undo the last change of the session."""
        raise NotImplementedError

    def action_redo(self) -> None:
        """Redo the last undone change."""
        raise NotImplementedError

    def replaced(self, old: Session, new: Session) -> None:
        """Tell the screen that the session changed under it (undo, redo, reload, or a change not saved)."""
        raise NotImplementedError
