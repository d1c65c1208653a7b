"""Shared fixtures: no test touches the user's real folders, no app animates (nothing for a snapshot to catch), and
a sessions folder of every sample session."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest
import textual.constants

# The suite starts Python about 150 times (xdist workers, `scorekeeper` commands, the app in a terminal) and each
# worker imports every test module: with PYTHONDONTWRITEBYTECODE set, each one compiles scorekeeper and the tests
# from source again (about 3.5 s a worker, 0.07 s a command). Compiled files go to the ignored __pycache__ folders.
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
sys.dont_write_bytecode = False


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


SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    """A sessions folder holding every sample session (all finished but one); a test module may define its own."""
    target = tmp_path / "sessions"
    target.mkdir()
    for path in SAMPLES.glob("*.toml"):
        shutil.copy(path, target / path.name)
    return target


def pytest_xdist_auto_num_workers(config: pytest.Config) -> int | None:
    """`-n auto`: two workers a core, since a Pilot test spends about half its time waiting for the app to be idle
    (on 2 cores `pytest -m "not slow"` took 132 s with 2 workers, 67 s with 4). PYTEST_XDIST_AUTO_NUM_WORKERS wins."""
    if os.environ.get("PYTEST_XDIST_AUTO_NUM_WORKERS"):
        return None
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    return 2 * cores


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The browser test (the longest, about 20 s) first, so that it does not run alone at the end."""
    items.sort(key=lambda item: item.get_closest_marker("browser") is None)
