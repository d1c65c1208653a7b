"""The open session of the app: its file, the undo/redo history of Session values, and guarded saves."""

from __future__ import annotations

import os
from pathlib import Path
from typing import TYPE_CHECKING

from scorekeeper import files, store, validation
from scorekeeper.session import Problem, Session, SessionError

if TYPE_CHECKING:
    from typing import TypeAlias

    from scorekeeper.games import Sheet

    Edit: TypeAlias = tuple[Session, object, bool]
    """A change of the session: the session after it, its undo key (edits with the same key make one step), and
    whether it ends its run (the next edit is a new step)."""


class Refused(OSError):
    """A save that would write a session its own reader refuses (`check` would fail it): nothing is written."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        first = problems[0].describe() if problems else "the session is not valid"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(22, f"the session would not read back: {first}{more}; the file is kept as it was",
                         str(path))
        self.problems = problems


class Document:
    """A session file open in the app: what it holds now, what was last read or written, and the history."""

    def __init__(self, path: Path, session: Session, fingerprint: str | None, warnings: list[Problem],
                 *, comments: bool = False, read: str | None = None) -> None:
        """`read`: the text the session was read from, whose fingerprint is worked out when first needed (at the
        first save: opening a session shows it without hashing it) instead of `fingerprint`."""
        self.path = path = Path(path)
        self._session = session
        self._fingerprint = fingerprint
        self._read = read
        self.warnings = warnings
        self.comments = comments
        """The file holds `#` comments, which a save drops: the first save keeps a copy in trash/."""
        self.kept: Path | None = None
        """Where that copy went, until the app has said so."""
        self.read_only = store.is_read_only(path) or not os.access(path.parent, os.W_OK)
        """The file (or its folder) cannot be written: the app shows it and never writes."""
        self.unsaved = False
        """The session in memory could not be written (disk full): the next save writes it."""
        self.undo_stack: list[Session] = []
        self.redo_stack: list[Session] = []
        self._last_key: object = None
        self._problems: list[Problem] | None = warnings
        self._checked: tuple[Session | None, list[Problem]] = (None, [])
        """The last session written and its problems (found by the save's check: not found again)."""
        self._sheet: Sheet | None = None
        self._scored: Session | None = None

    @property
    def fingerprint(self) -> str | None:
        """The fingerprint of what this document last read or wrote (None: the file was gone)."""
        if self._read is not None:
            self._fingerprint, self._read = store.digest(self._read.encode("utf-8")), None
        return self._fingerprint

    @fingerprint.setter
    def fingerprint(self, value: str | None) -> None:
        self._fingerprint, self._read = value, None

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
            checked, found = self._checked
            self._problems = found if checked is self._session else validation.validate(self._session)
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
        text = store.read_text(path)
        session, problems = files.parse(text)
        if session is None:
            raise SessionError(problems, str(path))
        return cls(path, session, None, problems, comments=store.has_comments(text), read=text)

    def changed_on_disk(self) -> bool:
        """True when the file is not what this document last read or wrote (edited, replaced or gone)."""
        return store.fingerprint(self.path) != self.fingerprint

    def write(self, session: Session) -> None:
        """Write a session to the file, unless someone else changed the file since (ChangedOnDisk)
        or it is read-only (ReadOnlyError); the first write over hand-written comments keeps a copy. A session the
        reader would refuse is never written (Refused): the file stays as it was."""
        found = validation.validate(session)
        errors = [p for p in found if p.is_error]
        if errors:
            raise Refused(self.path, errors)
        self._checked = (session, found)
        saved = store.save_checked(self.path, session, expected=self.fingerprint, keep_comments=self.comments)
        self.fingerprint = saved.fingerprint
        self.unsaved = False
        if saved.kept is not None:
            self.kept, self.comments = saved.kept, False

    def commit(self, session: Session, key: object = None,
               passed: tuple[Edit, ...] = ()) -> None:
        """Save a new value of the session; consecutive edits with the same key make one undo step. `passed`: the
        edits made on the way to it, not written on their own (keys typed together): they become undo steps as if
        each had been saved.

        When the disk refuses the write (full, gone), the value is still taken in memory (so it stays
        on screen and the next save writes it) and the OSError is raised for the app to tell.
        """
        if session == self.session and not self.unsaved:
            return
        try:
            self.write(session)
        except (store.ChangedOnDisk, store.ReadOnlyError, store.TooBig, Refused):
            raise
        except OSError:
            self._advance_through(passed, session, key)
            self.unsaved = True
            raise
        self._advance_through(passed, session, key)

    def _advance_through(self, passed: tuple[Edit, ...], session: Session,
                         key: object) -> None:
        for step, step_key, last in passed:
            self._advance(step, step_key)
            if last:
                self.boundary()
        self._advance(session, key)

    def _advance(self, session: Session, key: object) -> None:
        if session == self.session:
            return
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
        self.write(previous)
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
        self.write(following)
        self.redo_stack.pop()
        self.undo_stack.append(self.session)
        self.session = following
        self._last_key = None
        return following

    def reload(self) -> Session:
        """Take the file as it is on disk now (undoable); SessionError when it cannot be read."""
        text = store.read_text(self.path)
        session, problems = files.parse(text)
        if session is None:
            raise SessionError(problems, str(self.path))
        self.fingerprint = store.digest(text.encode("utf-8"))
        self.comments = store.has_comments(text)
        self.unsaved = False
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
    session, problems = files.parse(text)
    if session is None:
        raise SessionError(problems, str(path))
    return session, problems, store.digest(text.encode("utf-8"))
