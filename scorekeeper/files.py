"""Session files read and checked: the reading composed with the validation's rules."""

from __future__ import annotations

from typing import TYPE_CHECKING

from scorekeeper.games import validation
from scorekeeper.model.session import Problem, Session, SessionError
from scorekeeper.store import reading

if TYPE_CHECKING:
    from pathlib import Path


def parse(text: str) -> tuple[Session | None, list[Problem]]:
    """A session from TOML text, with every problem found (lines attached where known)."""
    toml = reading.read_toml(text)
    if toml.raw is None:
        return None, toml.problems
    session, problems = validation.from_dict(toml.raw)
    return session, toml.locate(problems)


def load(path: Path | str) -> tuple[Session, list[Problem]]:
    """A valid session and its warnings; SessionError with every problem when it has errors."""
    session, problems = parse(reading.read_text(path))
    if session is None:
        from pathlib import Path  # here: a sound file needs no pathlib (~3 ms of start-up)

        raise SessionError(problems, str(Path(path)))
    return session, problems
