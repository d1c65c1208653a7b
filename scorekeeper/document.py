"""The open session of the app: its file, the undo/redo history of Session values, and guarded saves."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from scorekeeper import store
from scorekeeper.session import Problem, Session, SessionError

if TYPE_CHECKING:
    from scorekeeper.games import Sheet


class Document:
    """A session file open in the app: what it holds now, what was last read or written, and the history."""

    def __init__(self, path: Path, session: Session, fingerprint: str | None, warnings: list[Problem]) -> None:
        self.path = path
        self._session = session
        self.fingerprint = fingerprint
        self.warnings = warnings
        self.undo_stack: list[Session] = []
        self.redo_stack: list[Session] = []
        self._last_key: object = None
        self._problems: list[Problem] | None = warnings
        self._sheet: Sheet | None = None
        self._scored: Session | None = None

    @property
    def session(self) -> Session:
        """The session as it is now (saved)."""
        return self._session

    @session.setter
    def session(self, session: Session) -> None:
        self._session = session
        self._problems = None

    def problems(self) -> list[Problem]:
        """Every warning of the session now (it has no errors: only valid sessions are saved)."""
        if self._problems is None:
            self._problems = store.from_dict(store.to_dict(self._session))[1]
        return self._problems

    def sheet(self) -> Sheet:
        """The core's score sheet of the session now."""
        from scorekeeper import games

        if self._sheet is None or self._scored is not self._session:
            self._sheet = games.score(self._session, self.problems())
            self._scored = self._session
        return self._sheet

    @classmethod
    def open(cls, path: Path) -> Document:
        """Read a session file; SessionError (with the core's problems) when it cannot be opened."""
        session, problems, fingerprint = read(path)
        return cls(path, session, fingerprint, problems)

    def changed_on_disk(self) -> bool:
        """True when the file is not what this document last read or wrote (edited, replaced or gone)."""
        return store.fingerprint(self.path) != self.fingerprint

    def commit(self, session: Session, key: object = None) -> None:
        """Save a new value of the session; consecutive edits with the same key make one undo step."""
        if session == self.session:
            return
        self.fingerprint = store.save(self.path, session)
        if key is None or key != self._last_key or not self.undo_stack:
            self.undo_stack.append(self.session)
        self.redo_stack.clear()
        self.session = session
        self._last_key = key

    def boundary(self) -> None:
        """End the current run of coalesced edits: the next edit is a new undo step."""
        self._last_key = None

    def undo(self) -> Session | None:
        """Go back one step (saved); the session now, or None when there is nothing to undo."""
        if not self.undo_stack:
            return None
        previous = self.undo_stack[-1]
        self.fingerprint = store.save(self.path, previous)
        self.undo_stack.pop()
        self.redo_stack.append(self.session)
        self.session = previous
        self._last_key = None
        return previous

    def redo(self) -> Session | None:
        """Go forward one undone step (saved); the session now, or None when there is nothing to redo."""
        if not self.redo_stack:
            return None
        following = self.redo_stack[-1]
        self.fingerprint = store.save(self.path, following)
        self.redo_stack.pop()
        self.undo_stack.append(self.session)
        self.session = following
        self._last_key = None
        return following

    def reload(self) -> Session:
        """Take the file as it is on disk now (undoable); SessionError when it cannot be read."""
        session, problems, fingerprint = read(self.path)
        self.fingerprint = fingerprint
        self.warnings = problems
        if session != self.session:
            self.undo_stack.append(self.session)
            self.redo_stack.clear()
            self.session = session
        self._last_key = None
        return session


def read(path: Path) -> tuple[Session, list[Problem], str]:
    """A valid session, its warnings and the fingerprint of the very bytes that were read."""
    text = store.read_text(path)
    session, problems = store.parse(text)
    if session is None:
        raise SessionError(problems, str(path))
    return session, problems, store.digest(text.encode("utf-8"))
