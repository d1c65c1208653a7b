"""Helpers for the app's Pilot tests: session files on tmp folders, typing values, reading back what was saved."""

from __future__ import annotations

import asyncio
import functools
from collections.abc import Callable, Coroutine
from datetime import datetime
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from scorekeeper import games, store
from scorekeeper.games import Sheet
from scorekeeper.session import Round, Session
from scorekeeper.tui.app import ScorekeeperApp

STARTED = datetime(2026, 11, 27, 19, 30)
SIZE = (120, 40)


def pilot_test(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test in its own event loop (no async plugin needed)."""

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(fn(*args, **kwargs))

    return run


def fixed_now() -> datetime:
    """A clock that never moves (new sessions get a known date and file name)."""
    return STARTED


def write_session(folder: Path, game: str, players: list[str], *, name: str = "session.toml",
                  rules: dict[str, Any] | None = None, title: str | None = None,
                  rounds: tuple[Round, ...] = (Round(),)) -> Path:
    """A session file on disk, as `scorekeeper new` leaves it."""
    folder.mkdir(parents=True, exist_ok=True)
    session = Session(game=game, players=tuple(players), title=title, started=STARTED, rules=rules or {},
                      rounds=rounds)
    path = folder / name
    store.save(path, session)
    return path


def app_for(folder: Path, file: Path | None = None) -> ScorekeeperApp:
    """The app, as the command line makes it, with a frozen clock."""
    return ScorekeeperApp(folder=folder, file=file, now=fixed_now)


async def settle(pilot: Pilot) -> None:
    """Wait until the app has done everything a key asked for (steps are built by workers)."""
    await pilot.pause()
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()


async def type_text(pilot: Pilot, text: str) -> None:
    """Type text character by character."""
    for ch in text:
        await pilot.press(ch)


async def enter(pilot: Pilot, *values: str) -> None:
    """For each value: type it (nothing for an empty value) and press Enter."""
    for value in values:
        await type_text(pilot, value)
        await pilot.press("enter")
        await settle(pilot)


def saved(path: Path) -> tuple[Session, Sheet]:
    """The session as saved on disk and its score sheet."""
    session, warnings = store.load(path)
    return session, games.score(session, warnings)
