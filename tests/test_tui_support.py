"""Helpers for the app's Pilot tests: session files on tmp folders, typing values, reading back what was saved."""

from __future__ import annotations

import asyncio
import functools
import os
from collections.abc import AsyncIterator, Callable, Coroutine
from contextlib import asynccontextmanager
from datetime import datetime
from pathlib import Path
from typing import Any

from textual import events
from textual.pilot import Pilot
from textual.worker import WorkerCancelled

from scorekeeper import files, games, store
from scorekeeper.games import Sheet
from scorekeeper.model.session import Round, Session
from scorekeeper.tui import compat
from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.saving import ASKING

STARTED = datetime(2026, 11, 27, 19, 30)
SIZE = (120, 40)
AT_ONCE = 3600.0
"""A watch of the open file so slow that a change on disk meets the next save first (changed "at once")."""


def pilot_test(fn: Callable[..., Coroutine[Any, Any, None]]) -> Callable[..., None]:
    """Run an async Pilot test in its own event loop (no async plugin needed), with the task factory `App.run`
    gives the loop on Python 3.12+ (a task's first step runs at once, eagerly), which `run_test` leaves alone: the
    tests meet the app's code in the order a user's app runs it."""

    async def as_the_app_runs(*args: Any, **kwargs: Any) -> None:
        factory = getattr(asyncio, "eager_task_factory", None)
        if factory is not None:
            asyncio.get_running_loop().set_task_factory(factory)
        await fn(*args, **kwargs)

    @functools.wraps(fn)
    def run(*args: Any, **kwargs: Any) -> None:
        asyncio.run(as_the_app_runs(*args, **kwargs))

    return run


def fixed_now() -> datetime:
    """A clock that never moves (new sessions get a known date and file name)."""
    return STARTED


def write_session(folder: Path, game: str, players: list[str], *, name: str = "session.toml",
                  rules: dict[str, Any] | None = None, title: str | None = None,
                  rounds: tuple[Round, ...] = (Round(),), aged: int | None = None) -> Path:
    """A session file on disk, as `scorekeeper new` leaves it; `aged`: written that many minutes before a day in
    2023 (long ago: the index trusts it)."""
    folder.mkdir(parents=True, exist_ok=True)
    session = Session(game=game, players=tuple(players), title=title, started=STARTED, rules=rules or {},
                      rounds=rounds)
    path = folder / name
    store.save(path, session)
    if aged is not None:
        os.utime(path, (1_700_000_000 - aged * 60,) * 2)
    return path


def app_for(folder: Path, file: Path | None = None) -> ScorekeeperApp:
    """The app, as the command line makes it, with a frozen clock."""
    return ScorekeeperApp(folder=folder, file=file, now=fixed_now)


@asynccontextmanager
async def running(folder: Path, file: Path | None = None, size: tuple[int, int] = SIZE, *,
                  watch: float | None = None) -> AsyncIterator[tuple[ScorekeeperApp, Pilot]]:
    """The app on the folder (or one file of it) in a headless terminal of that size, settled: it and its pilot.
    `watch`: seconds between the app's looks at the open file (AT_ONCE: a change on disk is not seen before the
    next save, as when two places change the file at the same moment)."""
    app = app_for(folder, file)
    if watch is not None:  # the test says when the file is looked at: no file events
        app.watch_every = watch
        app.watch_events = False
    async with app.run_test(size=size) as pilot:
        await settle(pilot)
        yield app, pilot


async def settle(pilot: Pilot) -> None:
    """Wait until the app has done everything a key asked for (steps are built by workers, and a worker's result
    may start another: the index read, then the statistics); while it asks a question (about a file changed on
    disk), what waits for the answer waits for the test: do not wait for it."""
    app = pilot.app
    for _ in range(50):
        await pilot.pause()
        if not any(w.group == ASKING for w in app.workers):
            try:
                await app.workers.wait_for_complete()
            except WorkerCancelled:  # an exclusive worker replaced by a newer one: wait for that one next
                pass
        await pilot.pause()
        if not any(w.is_running and w.group != ASKING for w in app.workers):
            return


async def type_text(pilot: Pilot, text: str) -> None:
    """Type text as a burst (every character at once, as a fast typist's terminal delivers them), then wait."""
    await burst(pilot, text)


async def enter(pilot: Pilot, *typed: str) -> None:
    """For each value: type it (nothing for an empty value) and press Enter as one burst, then wait (a burst of
    several values is saved once: one undo step)."""
    for value in typed:
        await burst(pilot, *values(value))


def saved(path: Path) -> tuple[Session, Sheet]:
    """The session as saved on disk and its score sheet."""
    session, warnings = files.load(path)
    return session, games.score(session, warnings)


def key_events(*tokens: str) -> list[events.Key]:
    """Key events for tokens: a key name (`enter`, `ctrl+t`, `tab`, `up` …) is one key; other text is typed,
    where `⏎` is Enter, `⇥` Tab, `⇤` Shift+Tab, `↓` `↑` the arrows, `⇑` Shift+Up, `⌫` Backspace, `⎋` Escape."""
    out = []
    for token in tokens:
        if token in NAMED_KEYS or "+" in token and len(token) > 1:
            out.append(events.Key(token, None))
            continue
        for char in token:
            key = SYMBOLS.get(char)
            out.append(events.Key(key, None) if key else events.Key(compat.character_key(char), char))
    return out


NAMED_KEYS = {"enter", "tab", "shift+tab", "up", "down", "left", "right", "home", "end", "backspace", "delete",
              "escape", "pageup", "pagedown", "space", *(f"f{n}" for n in range(1, 13))}
SYMBOLS = {"⏎": "enter", "⇥": "tab", "⇤": "shift+tab", "↓": "down", "↑": "up", "⇑": "shift+up", "⌫": "backspace",
           "⎋": "escape"}


def values(*typed: str) -> list[str]:
    """Tokens for values each typed then confirmed with Enter (an empty value: Enter alone)."""
    out: list[str] = []
    for value in typed:
        if value:
            out.append(value)
        out.append("enter")
    return out


async def burst(pilot: Pilot, *tokens: str) -> None:
    """Post every key at once, as fast typing or a paste does, then wait once for the app to be done."""
    for event in key_events(*tokens):
        pilot.app.post_message(event)
    await settle(pilot)
