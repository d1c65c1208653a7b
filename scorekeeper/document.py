"""The open session of the app: its file, the undo/redo history of Session values, and guarded saves."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scorekeeper import files, reading, store, validation
from scorekeeper.merge import Key, merge, rebase
from scorekeeper.session import Problem, Session, SessionError

if TYPE_CHECKING:
    from typing import TypeAlias

    from scorekeeper.games import Sheet

    Edit: TypeAlias = tuple[Session, object, bool]
    """A change of the session: the session after it, its undo key (edits with the same key make one step), and
    whether it ends its run (the next edit is a new step)."""


MERGE_TRIES = 5
"""How many times a save merges with a file that keeps changing under it before it asks."""


class Refused(OSError):
    """A save that would write a session its own reader refuses (`check` would fail it): nothing is written."""

    def __init__(self, path: Path, problems: list[Problem]) -> None:
        first = problems[0].describe() if problems else "the session is not valid"
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(22, f"the session would not read back: {first}{more}; the file is kept as it was",
                         str(path))
        self.problems = problems


@dataclass(frozen=True)
class Batch:
    """Edits made together (keys typed in a burst) and written in one save: each is an undo step as if saved alone,
    the last one's session is what is written. `base`: the session they were made from, when it may be older than
    the Document's (others' changes came in meanwhile): they are merged into the newest, field by field."""

    edits: tuple[Edit, ...]
    base: Session | None = None

    @property
    def session(self) -> Session:
        """The session written: the last edit's."""
        return self.edits[-1][0]

    def then(self, newer: Batch) -> Batch:
        """This batch followed by a newer one made on top of it: one batch with the undo steps of both."""
        return Batch(self.edits + newer.edits, self.base if self.base is not None else newer.base)


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
        self.stamp = store.stamp(path)
        """The file's size, time and inode when last looked at (`poll`)."""
        self.conflicts: tuple[Key, ...] = ()
        """The fields changed both here and elsewhere, when the last save could not merge."""
        self.prefer_ours = False
        """Set while a save runs that the table answered "keep mine": such fields take this place's values."""
        self.typed: list[Edit] = []
        """The values typed and accepted, not handed to a save yet (`stage`, `take`)."""
        self.waiting: Batch | None = None
        """A batch whose save met the file changed on disk (the app asks what to do): the next batch saved is
        written with it, after its edits, so that none of its undo steps is lost."""
        self.sample: str | None = None
        """A packaged sample not copied into the folder yet: its text (`path` is the name the copy takes); the
        first write makes the copy, so looking at a sample leaves nothing behind and nothing typed is lost."""
        self.copied: Path | None = None
        """Where that copy went, until the app has said so."""
        self.entry: str | None = None
        """How the table chose to enter routes (a field key: `route_points`, `routes`), None when it did not: the
        file then says it (`walk.entry_mode`). The file has no place for the choice: the app keeps it."""

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
        text = reading.read_text(path)
        session, problems = files.parse(text)
        if session is None:
            raise SessionError(problems, str(path))
        return cls(path, session, None, problems, comments=reading.has_comments(text), read=text)

    @classmethod
    def of_sample(cls, path: Path, text: str) -> Document:
        """A packaged sample, shown without writing it anywhere; `path`: the file in the sessions folder its copy
        is written to at the first change (another free name if it is taken then)."""
        session, problems = files.parse(text)
        if session is None:
            raise SessionError(problems, str(path))
        doc = cls(path, session, None, problems, read=text)
        doc.sample = text
        doc.read_only = not os.access(path.parent, os.W_OK)  # the copy's name may be taken (a link): another one
        return doc

    def keep_sample(self) -> None:
        """Copy the sample into the folder (created exclusively, never over a file: `sample-x-2.toml` when
        `sample-x.toml` is taken), and go on with the copy."""
        if self.sample is None:
            return
        n = 1
        while True:
            target = self.path if n == 1 else self.path.with_name(f"{self.path.stem}-{n}.toml")
            try:
                store.write_atomic(target, self.sample, exclusive=True)
                break
            except FileExistsError:
                n += 1
        self.path, self.sample, self.copied = target, None, target
        self.stamp = store.stamp(target)

    def changed_on_disk(self) -> bool:
        """True when the file is not what this document last read or wrote (edited, replaced or gone)."""
        if self.sample is not None:
            return False
        return store.fingerprint(self.path) != self.fingerprint

    def write(self, session: Session) -> Session:
        """Write a session to the file; the session written. When someone else changed the file since it was
        last read or written, their changes and ours are merged field by field (SPEC §5: live sessions) and the
        merge is written; ChangedOnDisk only when both changed the same field, or the file cannot be read (gone,
        broken); ReadOnlyError when it is read-only; Refused, nothing written, for a session its own reader would
        refuse. The first write over hand-written comments keeps a copy."""
        self.keep_sample()
        for _ in range(MERGE_TRIES):
            found = validation.validate(session)
            errors = [p for p in found if p.is_error]
            if errors:  # a session the reader would refuse is never written (`check` would fail it)
                raise Refused(self.path, errors)
            self._checked = (session, found)
            try:
                saved = store.save_checked(self.path, session, expected=self.fingerprint,
                                           keep_comments=self.comments)
            except store.ChangedOnDisk:
                base = self.session
                theirs = self.on_disk()
                if theirs is None:
                    if not self.prefer_ours:
                        self.conflicts = ()
                        raise
                    self.fingerprint = store.fingerprint(self.path)  # gone or broken: "keep mine" writes ours
                    continue
                merged = merge(base, session, theirs, prefer_ours=self.prefer_ours)
                if merged.session is None:
                    self.conflicts = merged.conflicts
                    raise
                session = merged.session
                continue
            self.fingerprint = saved.fingerprint
            self.unsaved = False
            if saved.kept is not None:
                self.kept, self.comments = saved.kept, False
            return session
        raise store.ChangedOnDisk(str(self.path))

    def on_disk(self) -> Session | None:
        """The session on disk now, taken in as the base of the next merge (its changes are applied to the undo
        history); None when it cannot be read (gone, not a session)."""
        try:
            text = reading.read_text(self.path)
        except SessionError:
            return None
        theirs, problems = files.parse(text)
        if theirs is None:
            return None
        self.absorb(theirs, store.digest(text.encode("utf-8")), problems)
        self.comments = reading.has_comments(text)
        return theirs

    def absorb(self, theirs: Session, fingerprint: str, problems: list[Problem]) -> None:
        """Take the session another place wrote as what this document last read: the undo and redo steps get
        its changes too (undo undoes this place's own edits, never the others')."""
        old = self._session
        self.undo_stack = [rebase(s, old, theirs) for s in self.undo_stack]
        self.redo_stack = [rebase(s, old, theirs) for s in self.redo_stack]
        self._session = theirs
        self._problems = problems
        self.fingerprint = fingerprint
        self.stamp = store.stamp(self.path)

    def poll(self) -> tuple[Session, Session] | None:
        """Look at the file (cheaply: its size, time and inode first): when another place changed it, take its
        session in; (before, after) then, else None. A file that cannot be read now is left for the next save
        to ask about."""
        stamp = store.stamp(self.path)
        if stamp == self.stamp or self.sample is not None:  # a sample not copied yet has no file to look at
            return None
        self.stamp = stamp
        if store.fingerprint(self.path) == self.fingerprint or self.unsaved:
            return None
        old = self._session
        new = self.on_disk()
        if new is None or new == old:
            return None
        return old, new

    def commit(self, session: Session, key: object = None, passed: tuple[Edit, ...] = (),
               base: Session | None = None) -> None:
        """Save a new value of the session; consecutive edits with the same key make one undo step. `passed`: the
        edits made on the way to it, not written on their own (keys typed together): they become undo steps as if
        each had been saved. `base`: the session the edit was made from, when it may be older than this
        document's (a screen that kept typing while others' changes came in): the edit is merged field by field
        into the session as it is now (ChangedOnDisk where both changed one field).

        When the disk refuses the write (full, gone), the value is still taken in memory (so it stays
        on screen and the next save writes it) and the OSError is raised for the app to tell.
        """
        if base is not None and base != self.session:
            merged = merge(base, session, self.session, prefer_ours=self.prefer_ours)
            if merged.session is None:
                self.conflicts = merged.conflicts
                raise store.ChangedOnDisk(str(self.path))
            passed = tuple((rebase(step, base, self.session), k, last) for step, k, last in passed)
            session = merged.session
        if session == self.session and not self.unsaved:
            return
        before = self.session
        try:
            written = self.write(session)
        except (store.ChangedOnDisk, store.ReadOnlyError, store.TooBig, Refused):
            raise
        except OSError:
            self._advance_through(passed, session, key)
            self.unsaved = True
            raise
        if written != session:  # others' changes merged in: the steps on the way get them too
            passed = tuple((rebase(step, before, self.session), k, last) for step, k, last in passed)
        self._advance_through(passed, written, key)

    # -- the save policy: what is typed is staged, taken in batches, each edit an undo step ------------
    @property
    def staged(self) -> bool:
        """Whether values typed wait for a save (`take`)."""
        return bool(self.typed)

    def stage(self, session: Session, key: object = None, last: bool = False) -> None:
        """A value typed, written with the next batch: it takes the place of the value staged before when that has
        the same key and did not end its run (the digits of one box), else follows it (an undo step of its own).
        `last`: it ends its run (Enter, a line of a list confirmed)."""
        typed = self.typed
        if typed and not typed[-1][2] and typed[-1][1] == key:
            typed[-1] = (session, key, last)
        else:
            typed.append((session, key, last))

    def end_run(self) -> None:
        """Enter on a value that did not change: the run ends there — the value staged last, else the history's
        last step — and the next edit is a new undo step."""
        if self.typed:
            session, key, _ = self.typed[-1]
            self.typed[-1] = (session, key, True)
        else:
            self.boundary()

    def take(self, base: Session | None = None) -> Batch | None:
        """The values staged, as one batch to save (None: nothing staged); `base`: the session they were made from."""
        if not self.typed:
            return None
        batch, self.typed = Batch(tuple(self.typed), base), []
        return batch

    def discard(self) -> None:
        """Forget what is staged or waiting (the session was replaced: undo, a reload, a change not saved)."""
        self.typed, self.waiting = [], None

    def rebase_staged(self, base: Session, now: Session) -> None:
        """Others' changes came in (`base` → `now`): the values staged get them too."""
        self.typed = [(rebase(session, base, now), key, last) for session, key, last in self.typed]

    def queue(self, batch: Batch) -> None:
        """A batch to write with the next `save`: after the one waiting, if any (its save met a file changed on
        disk, the app asks what to do), which keeps its undo steps — the newer batch holds its session whole."""
        self.waiting = batch if self.waiting is None else self.waiting.then(batch)

    def save(self, batch: Batch | None = None) -> Session:
        """Write the batches queued (and `batch`) in one write, each edit an undo step (`commit`); the session now.
        On ChangedOnDisk they stay queued for the next try, once the table has answered."""
        if batch is not None:
            self.queue(batch)
        queued, self.waiting = self.waiting, None
        if queued is None:
            return self.session
        *passed, (session, key, last) = queued.edits
        try:
            self.commit(session, key, tuple(passed), base=queued.base)
        except store.ChangedOnDisk:
            self.waiting = queued
            raise
        if last:
            self.boundary()
        return self.session

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
        self.waiting = None  # an undo takes the place of a batch waiting to be written (it undoes what was saved)
        previous = self.write(self.undo_stack[-1])
        self.undo_stack.pop()
        self.redo_stack.append(self.session)
        self.session = previous
        self._last_key = None
        return previous

    def redo(self) -> Session | None:
        """Go forward one undone step (saved); the session now, or None when there is nothing to redo."""
        if not self.redo_stack:
            return None
        self.waiting = None
        following = self.write(self.redo_stack[-1])
        self.redo_stack.pop()
        self.undo_stack.append(self.session)
        self.session = following
        self._last_key = None
        return following

    def reload(self) -> Session:
        """Take the file as it is on disk now (undoable); SessionError when it cannot be read."""
        text = reading.read_text(self.path)
        session, problems = files.parse(text)
        if session is None:
            raise SessionError(problems, str(self.path))
        self.fingerprint = store.digest(text.encode("utf-8"))
        self.comments = reading.has_comments(text)
        self.unsaved = False
        self.warnings = problems
        self.discard()
        if session != self.session:
            self.undo_stack.append(self.session)
            self.redo_stack.clear()
            self.session = session
        self._last_key = None
        return session


def read(path: Path) -> tuple[Session, list[Problem], str]:
    """A valid session, its warnings and the fingerprint of the very bytes that were read."""
    text = reading.read_text(path)
    session, problems = files.parse(text)
    if session is None:
        raise SessionError(problems, str(path))
    return session, problems, store.digest(text.encode("utf-8"))
