"""How the table chose to enter Ticket to Ride's routes (the score track or counts by length), per session file.

The file has no place for the choice, so the app keeps it in a small cache beside the sessions index: at most 200
files, written atomically, read as untrusted (a value that is not one of the ways is no choice)."""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from pathlib import Path

ENTRIES = "route-entry.json"
KEPT = 200


def ways() -> tuple[str, ...]:
    """The ways to enter routes the app remembers (field keys)."""
    from scorekeeper.walk import ENTRY_NAMES

    return tuple(ENTRY_NAMES)


def where() -> Path:
    """The cache file."""
    from scorekeeper.index import cache_dir

    return cache_dir() / ENTRIES


def chosen(path: Path) -> str | None:
    """How the table chose to enter routes in this file (New session, or ctrl+e), None when it did not."""
    try:
        choice = json.loads(where().read_text("utf-8")).get(str(path.resolve()))
    except (OSError, ValueError, AttributeError):
        return None
    return choice if choice in ways() else None


def choose(path: Path, key: str) -> None:
    """Remember the choice for the file (the oldest choices go past KEPT files; written atomically)."""
    target = where()
    try:
        kept = json.loads(target.read_text("utf-8"))
        kept = kept if isinstance(kept, dict) else {}
    except (OSError, ValueError):
        kept = {}
    kept.pop(str(path.resolve()), None)
    kept[str(path.resolve())] = key
    kept = dict(list(kept.items())[-KEPT:])
    temp = None
    try:
        target.parent.mkdir(parents=True, exist_ok=True)
        fd, temp = tempfile.mkstemp(dir=target.parent, prefix=".route-entry-")
        with os.fdopen(fd, "w", encoding="utf-8") as out:
            json.dump(kept, out)
        os.replace(temp, target)
    except OSError:  # a cache: without it the file's own values say how routes are entered
        if temp is not None:
            with contextlib.suppress(OSError):
                os.unlink(temp)
