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


def leads_out(folder: str, path: str) -> bool:
    """True when `path` (a symbolic link in the sessions folder) points outside `folder`, the folder's resolved
    path (`os.path.realpath`): such a link is no session of the folder, so it is never listed, indexed or opened
    from the folder (a link that cannot be resolved counts as outside)."""
    try:
        target = os.path.realpath(path)
        return os.path.commonpath([folder, target]) != folder
    except (OSError, ValueError):
        return True
