"""Shared fixtures: no test touches the user's real folders, and no app animates (nothing for a snapshot to catch)."""

from __future__ import annotations

from pathlib import Path

import pytest
import textual.constants


@pytest.fixture(autouse=True)
def no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps made in a test start with animation off (steady cursors, no scrolling in flight); so do subprocesses."""
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")


def private_env(home: Path) -> dict[str, str]:
    """The environment that keeps the app's folders, settings and cache inside `home`."""
    return {"HOME": str(home), "SCOREKEEPER_HOME": str(home / "sessions"),
            "XDG_DATA_HOME": str(home / ".local" / "share"), "XDG_CONFIG_HOME": str(home / ".config"),
            "SCOREKEEPER_CACHE": str(home / ".cache" / "scorekeeper" / "index")}


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """SCOREKEEPER_HOME and HOME point into a temporary folder for every test."""
    for name, value in private_env(tmp_path_factory.mktemp("home")).items():
        monkeypatch.setenv(name, value)
