"""Where the sessions live, found without importing the code that reads them (the app's first paint needs none)."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pathlib import Path


def sessions_dir(given: str | os.PathLike[str] | None = None) -> Path:
    """The sessions folder: --dir, else $SCOREKEEPER_HOME, else the user data folder's sessions/."""
    from pathlib import Path

    if given:
        return Path(given).expanduser()
    env = os.environ.get("SCOREKEEPER_HOME")
    if env:
        return Path(env).expanduser()
    import platformdirs

    return Path(platformdirs.user_data_dir("scorekeeper", appauthor=False)) / "sessions"
