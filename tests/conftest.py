"""Shared fixtures: no test touches the user's real folders, and no app animates (nothing for a snapshot to catch)."""

from __future__ import annotations

import pytest
import textual.constants


@pytest.fixture(autouse=True)
def no_animation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Apps made in a test start with animation off (steady cursors, no scrolling in flight); so do subprocesses."""
    monkeypatch.setattr(textual.constants, "TEXTUAL_ANIMATIONS", "none")
    monkeypatch.setenv("TEXTUAL_ANIMATIONS", "none")


@pytest.fixture(autouse=True)
def private_home(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    """SCOREKEEPER_HOME and HOME point into a temporary folder for every test."""
    home = tmp_path_factory.mktemp("home")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("SCOREKEEPER_HOME", str(home / "sessions"))
    monkeypatch.setenv("XDG_DATA_HOME", str(home / ".local" / "share"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(home / ".config"))
    monkeypatch.setenv("SCOREKEEPER_CACHE", str(home / ".cache" / "scorekeeper" / "index"))
