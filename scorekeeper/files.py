"""Session files read and checked: the store's reading composed with the validation's rules."""

from __future__ import annotations

from pathlib import Path

from scorekeeper import store, validation
from scorekeeper.session import Problem, Session, SessionError


def parse(text: str) -> tuple[Session | None, list[Problem]]:
    """A session from TOML text, with every problem found (lines attached where known)."""
    toml = store.read_toml(text)
    if toml.raw is None:
        return None, toml.problems
    session, problems = validation.from_dict(toml.raw)
    return session, toml.locate(problems)


def load(path: Path | str) -> tuple[Session, list[Problem]]:
    """A valid session and its warnings; SessionError with every problem when it has errors."""
    session, problems = parse(store.read_text(path))
    if session is None:
        raise SessionError(problems, str(Path(path)))
    return session, problems
