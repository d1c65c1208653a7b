"""Saving the open session: each change written in order, the question when its file changed on disk (the
changes made meanwhile wait for the answer), a reload from the disk, and the screen told."""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING

from textual import work
from textual.screen import Screen

from scorekeeper.model.text import inert
from scorekeeper.tui.base import AppBase

if TYPE_CHECKING:  # the home screen paints without them: imported where a session is opened or saved
    from scorekeeper.model.session import Session
    from scorekeeper.walk.document import Batch, Document, Edit

Change = Callable[[], object]
"""A change of the open session that writes its file (commit, undo, redo)."""

WAIT_SHOWN = 1.0
"""Seconds of waiting for another place's save (the folder's lock) after which the app says it waited."""

ASKING = "asking"
"""The worker group of the question about a file changed on disk: it waits for a person, so tests do not wait for it."""


class Waiting:
    """The newest change waiting for the answer about a file changed on disk, and the future of its save."""

    def __init__(self, change: Change, saved: asyncio.Future[bool]) -> None:
        self.change = change
        self.saved = saved

    def replace(self, change: Change, saved: asyncio.Future[bool]) -> None:
        """A newer change takes the place of the one waiting (it holds the whole session): that one is not saved."""
        self.saved.set_result(False)
        self.change, self.saved = change, saved


class SavingApp(AppBase):
    """The app's saving of the open session (`ScorekeeperApp` is built on it)."""

    doc: Document | None
    """The open session, None on the home screen and the lists."""
    _waiting: Waiting | None
    """The change waiting for the answer about a file changed on disk, None when no question is open."""

    def save(self, session: Session, key: object = None, *, last: bool = False,
             passed: tuple[Edit, ...] = (), base: Session | None = None) -> asyncio.Future[bool]:
        """Save a new value of the open session (`last`: it ends its run of edits, the next is a new undo step;
        `passed`: the edits keys typed together made before it, each an undo step of its own, in one write;
        `base`: the session the edit was made from, when the screen may not have seen the latest one). Changes
        made meanwhile in another place are merged in, field by field; the screen is told."""
        from scorekeeper.walk.document import Batch

        doc = self.doc
        assert doc is not None
        return self.save_batch(Batch((*passed, (session, key, last)), base if base is not None else doc.session))

    def save_batch(self, batch: Batch) -> asyncio.Future[bool]:
        """Save a batch of edits (`Document.save`: one write, each edit an undo step); while the question about a
        file changed on disk is open, it joins the batches waiting for the answer, with their undo steps."""
        doc = self.doc
        assert doc is not None
        doc.queue(batch)

        def change() -> None:
            doc.save()
            if doc.session != batch.session:  # others' changes came in with ours
                self.replaced(batch.session, doc.session, remote=True)

        return self.write(change)

    def write(self, change: Change) -> asyncio.Future[bool]:
        """Run a change that writes the file, in order; the future (await it, or not) says whether it was saved.

        It is done at once, unless the file changed on disk since it was read: then a worker asks what to do,
        the changes made meanwhile wait, and the answer applies to the newest of them (each holds the whole
        session): the ones it replaced are not saved.
        """
        from scorekeeper import store

        saved: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        if self._waiting is not None:  # a question is open: this change replaces the one waiting for it
            self._waiting.replace(change, saved)
            return saved
        try:
            saved.set_result(self._now(change))
        except store.ChangedOnDisk:
            if self.renewed():  # another document now: nothing to ask, the screen walks the file as it is
                saved.set_result(False)
                return saved
            self._waiting = Waiting(change, saved)
            self._ask(self._waiting)  # the worker is handed what it answers for: nothing it must find set
        return saved

    def renewed(self) -> bool:
        """The open file became another document (replaced, another game or players; deleted and back): say that
        this place's history of it is gone and show the file as it is. False when it did not (or was deleted:
        a save then asks)."""
        doc = self.doc
        if doc is None or not doc.renewed:
            return False
        doc.renewed = False
        if doc.gone:
            self.notify(f"{inert(doc.path.name)} was deleted (or moved away) in another place. What you see stays "
                        "here; your next change asks whether to write it back. Undo starts afresh.",
                        title="The file is gone", severity="warning", markup=False, timeout=15)
            return False
        doc.discard()
        self.notify(f"{inert(doc.path.name)} was replaced by another session (or its game or players changed) in "
                    "another place. It is shown as it is now; what you typed last was not saved into it, and undo "
                    "starts afresh.", title="A new session in this file", severity="warning", markup=False,
                    timeout=15)
        self.walk_anew()
        return True

    def walk_anew(self) -> None:
        """The open file is another document now: its screens are built again from the file as it is (its game,
        its players, its steps), in place of the old document's."""
        from scorekeeper.tui.screens.base import SessionScreen

        stack = self.screen_stack
        first = next((i for i, s in enumerate(stack) if isinstance(s, SessionScreen)), None)
        if first is None:
            return
        for _ in range(len(stack) - 1 - first):
            self.pop_screen()
        self.switch_screen(self.session_anew())

    def session_anew(self) -> Screen[None]:
        """The screen the open session starts on (the app's own: `ScorekeeperApp.resume_screen`)."""
        raise NotImplementedError

    @work(group=ASKING)
    async def _ask(self, waiting: Waiting) -> None:
        """Ask whether to overwrite the file changed on disk, reload it or leave it; do it to the newest change."""
        from scorekeeper import store
        from scorekeeper.tui.screens.dialogs import ConflictScreen

        doc = self.doc
        try:
            while doc is not None:
                from scorekeeper.walk.merge import describe

                choice = await self.push_screen_wait(ConflictScreen(doc.path, tuple(map(describe, doc.conflicts)),
                                                                    gone=doc.gone))
                if choice == "overwrite":  # keep mine: ours where both changed a field, theirs elsewhere
                    doc.prefer_ours = True
                    try:
                        waiting.saved.set_result(self._now(waiting.change))
                    except store.ChangedOnDisk:
                        continue
                    finally:
                        doc.prefer_ours = False
                elif choice == "reload":
                    self.reload()
                    waiting.saved.set_result(False)
                else:
                    self.notify("Not saved: the file on disk was left as it is.", severity="warning")
                    doc.discard()
                    self.replaced(doc.session, doc.session)
                    waiting.saved.set_result(False)
                return
        finally:
            if not waiting.saved.done():  # the app left, or the session closed, before an answer
                waiting.saved.set_result(False)
            if self._waiting is waiting:
                self._waiting = None

    def _now(self, change: Change) -> bool:
        """Run a change now: whether it was saved (when not, says why); ChangedOnDisk when the file changed."""

        doc = self.doc
        if doc is None:
            return False
        if doc.read_only:
            self.notify(f"Not saved: {inert(doc.path.name)} is read-only.", title="Read-only", severity="warning",
                        markup=False)
            self.replaced(doc.session, doc.session)
            return False
        try:
            change()
        except OSError as exc:
            reason = exc.strerror or str(exc)
            if doc.unsaved:
                self.notify(f"Could not save {inert(doc.path.name)}: {inert(reason)}. The file keeps its last "
                            "saved state; what you typed stays here and is saved with your next change.",
                            title="Not saved", severity="error", markup=False, timeout=10)
            else:
                self.notify(f"Could not save: {inert(reason)}", title="Not saved", severity="error", markup=False)
                self.replaced(doc.session, doc.session)
            return False
        if doc.stepped_over:
            from scorekeeper.walk.merge import describe

            fields = ", ".join(describe(key) for key in doc.stepped_over[:3])
            more = f" and {len(doc.stepped_over) - 3} more" if len(doc.stepped_over) > 3 else ""
            self.notify(f"Left as it is, changed in another place since: {inert(fields)}{more}.",
                        title="Not all undone", severity="warning", markup=False, timeout=8)
            doc.stepped_over = ()
        if doc.waited >= WAIT_SHOWN:
            self.notify(f"Saved after waiting {doc.waited:.1f} s for another place's save.", timeout=4)
            doc.waited = 0.0
        if doc.copied is not None:
            self.notify(f"The sample is yours now: kept as {inert(doc.copied.name)} in the sessions folder, with what "
                        "you typed (delete it from the home list when done).", title="Sample kept", markup=False,
                        timeout=10)
            doc.copied = None
        if doc.kept is not None:
            self.notify(f"{inert(doc.path.name)} held # comments, which scorekeeper does not keep when it saves. "
                        f"The file as you wrote it is kept in {doc.kept.parent.name}/{inert(doc.kept.name)}.",
                        title="Comments", severity="warning", markup=False, timeout=15)
            doc.kept = None
        return True

    def flush(self) -> None:
        """Write what could not be saved before (a full disk), if anything; quietly."""
        from scorekeeper import store

        doc = self.doc
        if doc is not None and doc.unsaved and not doc.read_only:
            try:
                doc.write(doc.session)
            except (OSError, store.ChangedOnDisk):
                pass

    def reload(self) -> None:
        """Take the file as it is on disk (it may be unreadable: then keep ours and say why)."""
        from scorekeeper.model.session import SessionError

        doc = self.doc
        assert doc is not None
        old = doc.session
        try:
            new = doc.reload()
        except SessionError as exc:
            first = exc.problems[0].describe() if exc.problems else str(exc)
            self.notify(f"The file on disk cannot be read, so yours is kept: {inert(first)}", title="Not reloaded",
                        severity="error", markup=False, timeout=10)
            self.replaced(old, old)
            return
        self.replaced(old, new)

    def replaced(self, old: Session, new: Session, *, remote: bool = False) -> None:
        """Tell the topmost screen of the session that it changed under it (undo, redo, reload, not saved;
        `remote`: changes made in another place, merged in: the screen keeps its cursor)."""
        from scorekeeper.tui.screens.base import SessionReplaced, SessionScreen

        screen = next((s for s in reversed(self.screen_stack) if isinstance(s, SessionScreen)), None)
        if screen is not None:
            screen.post_message(SessionReplaced(old, new, remote=remote))
