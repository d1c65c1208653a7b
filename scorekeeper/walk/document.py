"""The open session of the app: its file, this place's edits as operations on fields, their undo and redo.

An edit is written as the operations that make it ("this field, from the value I saw, to the new one", merge.Op),
applied to the file as it is at that moment under the folder's lock: fields other places changed are kept, a field
changed both here and there is a conflict (the app asks). Undo and redo apply the inverse operations the same way:
they never touch a field another place changed since (they step over it and say so). A file whose identity changed
(another game, other players, another format, or one that was deleted or replaced) is a new document: this place's
history of the old one is dropped, and the app says so.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from scorekeeper import files, store
from scorekeeper.games import validation
from scorekeeper.model.session import Problem, Session, SessionError
from scorekeeper.store import reading
from scorekeeper.walk.merge import TABLE, Applied, Key, Step, apply, combine, diff, inverse, rebase

if TYPE_CHECKING:
    from typing import TypeAlias

    from scorekeeper.games import Sheet

    Edit: TypeAlias = tuple[Session, object, bool]
    """A change of the session: the session after it, its undo key (edits with the same key make one step), and
    whether it ends its run (the next edit is a new step)."""


IDENTITY = ("format", "game", "players", "started")
"""What makes a file the same document: another of these is a new one (its history does not apply to it)."""


VALUES = frozenset({"field", "sub", "title", "notes", "rules", "started"})
"""The kinds of field that hold a value someone gave (the others are the structure: rounds and tables)."""


def without(step: Step, keys: set[Key]) -> Step:
    """A step of the history without its operations on some fields (a table's own marker stays)."""
    return tuple(op for op in step if op.key not in keys or TABLE in (op.before, op.after))


def identity(session: Session) -> tuple[object, ...]:
    """The identity of a session's document."""
    return tuple(getattr(session, name) for name in IDENTITY)


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
    """A session file open in the app: what it held when this place last read or wrote it, and the history of this
    place's edits as operations on its fields."""

    def __init__(self, path: Path, session: Session, fingerprint: str | None, warnings: list[Problem],
                 *, read: str | None = None) -> None:
        """`read`: the text the session was read from, whose fingerprint is worked out when first needed (at the
        first save: opening a session shows it without hashing it) instead of `fingerprint`."""
        self.path = path = Path(path)
        self._session = session
        self._fingerprint = fingerprint
        self._read = read
        self.warnings = warnings
        self.kept: Path | None = None
        """Where a copy of a file with `#` comments went (a save drops them: `store.update` keeps the file as it was
        in trash/), until the app has said so."""
        self.read_only = store.is_read_only(path) or not os.access(path.parent, os.W_OK)
        """The file (or its folder) cannot be written: the app shows it and never writes."""
        self.unsaved = False
        """Edits in memory could not be written (disk full): the next save writes them (`pending`)."""
        self.pending: Step = ()
        """The operations of edits taken in memory but not written yet (the disk refused them)."""
        self.undo_stack: list[Step] = []
        """This place's edits, oldest first, each as its operations."""
        self.redo_stack: list[Step] = []
        """The edits undone, the last undone last."""
        self._last_key: object = None
        self._problems: list[Problem] | None = warnings
        self._checked: tuple[Session | None, list[Problem]] = (None, [])
        """The last session written and its problems (found by the save's check: not found again)."""
        self._sheet: Sheet | None = None
        self._scored: Session | None = None
        self.stamp = store.stamp(path)
        """The file's size, time and inode when last looked at (`poll`)."""
        self.gone = False
        """The file was found deleted: when it is back it is a new document."""
        self.conflicts: tuple[Key, ...] = ()
        """The fields changed both here and elsewhere, when the last save could not merge (empty: the file could
        not be read, was deleted, or is another document now)."""
        self.prefer_ours = False
        """Set while a save runs that the table answered "keep mine": such fields take this place's values."""
        self.renewed = False
        """The file became a new document (replaced, deleted, another game or players): the history went. The app
        says so once and clears it."""
        self.stepped_over: tuple[Key, ...] = ()
        """The fields the last undo or redo left as they were (changed elsewhere since), until the app said so."""
        self.waited = 0.0
        """Seconds the last save waited for another place's save (the folder's lock)."""
        self.typed: list[Edit] = []
        """The values typed and accepted, not handed to a save yet (`stage`, `take`)."""
        self.waiting: Batch | None = None
        """A batch whose save met a conflict (the app asks what to do): the next batch saved is written with it,
        after its edits, so that none of its undo steps is lost."""
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
        """The session as it is now: the file as last read or written here, with any edits not written yet."""
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
        return cls(path, session, None, problems, read=text)

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

    # -- writing: operations applied to the file as it is, under its folder's lock ----------------
    def _apply(self, edits: list[Step], *, undoing: bool = False) -> tuple[Session, list[Step]]:
        """Write edits (each a step of operations) into the file as it is now; the session written and each edit as
        it was applied. ChangedOnDisk when a field was changed both here and elsewhere (`conflicts`), or the file
        cannot be read, was deleted or is another document now (`conflicts` empty) — nothing is written then, unless
        the table answered "keep mine" (`prefer_ours`). `undoing`: a field changed elsewhere since is stepped over
        (`stepped_over`), never a question."""
        self.keep_sample()
        outcome: list[Step] = []
        stepped: list[Key] = []
        force = self.prefer_ours and not undoing

        def decide(text: str | None, gone: bool) -> Session:
            outcome.clear()
            stepped.clear()
            now = self._known(text, gone, force)
            for ops in (self.pending, *edits):
                done: Applied = apply(now, ops, force=force)
                if done.conflicts and not undoing:
                    self.conflicts = done.conflicts
                    raise store.ChangedOnDisk(str(self.path))
                stepped.extend(done.conflicts)
                now = done.session
                outcome.append(done.applied)
            found = validation.validate(now)
            errors = [p for p in found if p.is_error]
            if errors:  # a session the reader would refuse is never written (`check` would fail it)
                raise Refused(self.path, errors)
            self._checked = (now, found)
            return now

        written, saved = store.update(self.path, decide)
        self.conflicts = ()
        self.pending, self.unsaved = (), False
        self.stepped_over = tuple(dict.fromkeys(stepped))
        self.fingerprint, self.waited = saved.fingerprint, saved.waited
        self.stamp = store.stamp(self.path)
        self.gone = False
        if saved.kept is not None:
            self.kept = saved.kept
        self.session = written
        return written, outcome[1:]

    def _known(self, text: str | None, gone: bool, force: bool) -> Session:
        """The file's session as it is now (read under the lock): this document's when it is what was last read or
        written here; another place's changes are taken in; a new document drops the history. ChangedOnDisk when it
        cannot be read, or is gone or another document (`force`: then this place's session is written anew)."""
        if self._sync(text, gone)[0]:
            return self._disk()
        if not force:
            self.conflicts = ()
            raise store.ChangedOnDisk(str(self.path))
        return self._disk()

    def _sync(self, text: str | None, gone: bool) -> tuple[bool, list[Problem] | None]:
        """The file as read now (its text, whether it is gone): whether it is still this document (what was last
        read or written here, or that with another place's changes, taken in), and the problems of what was taken
        in (None: nothing new was read). Not this document: it cannot be read, or is another one (deleted,
        replaced: the history goes, `renewed`). The text is parsed only when it is not what this place knows."""
        if text is not None and store.digest(text.encode("utf-8")) == self.fingerprint and not self.gone:
            return True, None
        theirs, problems = files.parse(text) if text is not None else (None, [])
        if theirs is not None and not self.gone and identity(theirs) == identity(self._disk()):
            self._take(theirs, text)
            return True, problems
        if theirs is not None or (gone and not self.gone):
            self._renew(theirs, text)
            return False, problems if theirs is not None else None
        return False, None

    def _disk(self) -> Session:
        """The file's session as this place last read or wrote it (the session without the edits not written)."""
        if not self.pending:
            return self.session
        undone = apply(self.session, inverse(self.pending), force=True)
        return undone.session

    def _take(self, theirs: Session, text: str | None) -> None:
        """Another place's version of the file is what this document last read (its own edits not written yet
        stay on top of it). A field changed there leaves this place's history: its undo and redo never touch that
        field again, even should it come back to the value they knew."""
        if self.undo_stack or self.redo_stack:
            moved = {op.key for op in diff(self._disk(), theirs) if op.key[0] in VALUES}
            if moved:  # each step keeps its place (an undo under way pops its own)
                self.undo_stack[:] = [without(step, moved) for step in self.undo_stack]
                self.redo_stack[:] = [without(step, moved) for step in self.redo_stack]
        self.session = apply(theirs, self.pending, force=True).session if self.pending else theirs
        self.fingerprint = store.digest(text.encode("utf-8")) if text is not None else None

    def _renew(self, theirs: Session | None, text: str | None) -> None:
        """The file is a new document (replaced, deleted, another game or players): this place's history of the old
        one does not apply to it and goes; the edits not written go too."""
        self.undo_stack.clear()
        self.redo_stack.clear()
        self.pending, self.unsaved = (), False
        self._last_key = None
        self.renewed = True
        if theirs is None:  # deleted: whatever comes back at this name is another document
            self.gone = True
            self.fingerprint = None
            return
        self.gone = False
        self._take(theirs, text)

    def write(self, session: Session) -> Session:
        """Write the session as this place has it now (its edits not written yet, `pending`; or, with `prefer_ours`
        after the file was deleted or replaced, the whole session); the session written."""
        ops = diff(self._disk(), session) if session != self.session else ()
        written, _ = self._apply([ops])
        return written

    def poll(self) -> tuple[Session, Session] | None:
        """Look at the file (cheaply: its size, time and inode first): when another place changed it, take its
        session in; (before, after) then, else None. A file deleted, or become another document, drops the
        history (`renewed`); one that cannot be read now is left for the next save to ask about."""
        stamp = store.stamp(self.path)
        if stamp == self.stamp or self.sample is not None:  # a sample not copied yet has no file to look at
            return None
        self.stamp = stamp
        old = self.session
        try:
            text: str | None = reading.read_text(self.path)
        except SessionError:
            text = None
        _, problems = self._sync(text, stamp is None)
        if problems is None or self.session == old:
            return None
        self._problems = problems if not self.pending else None
        self.warnings = problems
        return old, self.session

    def commit(self, session: Session, key: object = None, passed: tuple[Edit, ...] = (),
               base: Session | None = None) -> None:
        """Save a new value of the session; consecutive edits with the same key make one undo step. `passed`: the
        edits made on the way to it, not written on their own (keys typed together): they become undo steps as if
        each had been saved. `base`: the session the edits were made from (by default the document's): what each
        changed is written as operations from the value seen there, into the file as it is now.

        When the disk refuses the write (full, gone), the edits are still taken in memory (so they stay on screen
        and the next save writes them) and the OSError is raised for the app to tell.
        """
        before = base if base is not None else self.session
        edits: list[tuple[Step, object, bool]] = []
        for step, step_key, last in (*passed, (session, key, False)):
            edits.append((diff(before, step), step_key, last))
            before = step
        if not any(ops for ops, _, _ in edits) and not self.unsaved:
            return
        try:
            _, applied = self._apply([ops for ops, _, _ in edits])
        except (store.ChangedOnDisk, store.ReadOnlyError, store.TooBig, Refused):
            raise
        except OSError:
            taken = apply(self.session, tuple(op for ops, _, _ in edits for op in ops), force=True)
            self.pending += taken.applied
            self.session = taken.session
            self.unsaved = True
            self._advance_through([(taken.applied, key, False)])
            raise
        if self.session == session:  # the very value the screen holds (it compares by identity)
            self.session = session
        self._advance_through([(ops, k, last) for ops, (_, k, last) in zip(applied, edits, strict=True)])

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
        """A batch to write with the next `save`: after the one waiting, if any (its save met a conflict, the app
        asks what to do), which keeps its undo steps."""
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

    def _advance_through(self, edits: list[tuple[Step, object, bool]]) -> None:
        for ops, key, last in edits:
            self._advance(ops, key)
            if last:
                self.boundary()

    def _advance(self, ops: Step, key: object) -> None:
        if not ops:
            return
        if key is None or key != self._last_key or not self.undo_stack:
            self.undo_stack.append(ops)
        else:
            self.undo_stack[-1] = combine(self.undo_stack[-1], ops)
            if not self.undo_stack[-1]:
                self.undo_stack.pop()
        self.redo_stack.clear()
        self._last_key = key

    def boundary(self) -> None:
        """End the current run of coalesced edits: the next edit is a new undo step."""
        self._last_key = None

    def undo(self) -> Session | None:
        """Undo this place's last edit (saved): its inverse operations applied to the file as it is, a field changed
        elsewhere since left as it is (`stepped_over`); the session now, or None when there is nothing to undo."""
        return self._step(self.undo_stack, self.redo_stack)

    def redo(self) -> Session | None:
        """Redo the last undone edit, the same way; the session now, or None when there is nothing to redo."""
        return self._step(self.redo_stack, self.undo_stack)

    def _step(self, source: list[Step], target: list[Step]) -> Session | None:
        source[:] = [step for step in source if step]  # steps whose every field was changed elsewhere are gone
        if not source:
            return None
        self.waiting = None  # an undo takes the place of a batch waiting to be written (it undoes what was saved)
        written, applied = self._apply([inverse(source[-1])], undoing=True)
        source.pop()
        if applied[0]:
            target.append(applied[0])  # the operations done, whose inverse goes back
        self._last_key = None
        return written

    def reload(self) -> Session:
        """Take the file as it is on disk now, dropping what is staged or waiting; SessionError when it cannot be
        read. The history of this place's edits stays (it undoes them where the file still holds them)."""
        text = reading.read_text(self.path)
        session, problems = files.parse(text)
        if session is None:
            raise SessionError(problems, str(self.path))
        if self.gone or identity(session) != identity(self._disk()):
            self._renew(session, text)
        self.pending, self.unsaved = (), False
        self.fingerprint = store.digest(text.encode("utf-8"))
        self.stamp = store.stamp(self.path)
        self.warnings = problems
        self.discard()
        self.session = session
        self._problems = problems
        self._last_key = None
        return session


def read(path: Path) -> tuple[Session, list[Problem], str]:
    """A valid session, its warnings and the fingerprint of the very bytes that were read."""
    text = reading.read_text(path)
    session, problems = files.parse(text)
    if session is None:
        raise SessionError(problems, str(path))
    return session, problems, store.digest(text.encode("utf-8"))
