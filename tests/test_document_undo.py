"""Undo granularity of the open session (scorekeeper.walk.document), without the app: which edits make one undo step,
which make several, and that undo and redo write the file."""

from __future__ import annotations

from pathlib import Path

import pytest

from scorekeeper import files, store
from scorekeeper.model.session import Session
from scorekeeper.walk.document import Document
from tests.test_tui_support import AT_ONCE, pilot_test, running, settle, write_session


def opened(tmp_path: Path) -> Document:
    return Document.open(write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"]))


def pairs(doc: Document, player: str, count: int) -> Session:
    return doc.session.with_value(1, player, "pairs", {"count": count, "each": 3})


def on_disk(doc: Document) -> Session:
    return files.load(doc.path)[0]


def test_edits_with_the_same_key_are_one_step_until_a_boundary(tmp_path: Path) -> None:
    doc = opened(tmp_path)
    start = doc.session
    for count in (1, 12, 123):  # one box typed digit by digit
        doc.commit(pairs(doc, "Ana", count), key=("Ana", "pairs"))
    assert len(doc.undo_stack) == 1
    doc.boundary()
    doc.commit(pairs(doc, "Ana", 4), key=("Ana", "pairs"))  # the same box again, after Enter: a new step
    assert len(doc.undo_stack) == 2
    assert doc.undo() is not None and on_disk(doc).rounds[0].players["Ana"]["pairs"]["count"] == 123
    assert doc.undo() == start and on_disk(doc) == start
    assert doc.undo() is None


def test_a_new_key_is_a_new_step_and_no_key_is_always_one(tmp_path: Path) -> None:
    doc = opened(tmp_path)
    doc.commit(pairs(doc, "Ana", 1), key=("Ana", "pairs"))
    doc.commit(pairs(doc, "Bo", 2), key=("Bo", "pairs"))
    assert len(doc.undo_stack) == 2
    doc.commit(doc.session.with_value(1, "Ana", "pairs", {"count": 5, "each": 3}))
    doc.commit(doc.session.with_value(1, "Ana", "pairs", {"count": 6, "each": 3}))
    assert len(doc.undo_stack) == 4  # key None: every edit is its own step


def test_edits_passed_in_one_write_are_undone_one_by_one(tmp_path: Path) -> None:
    """Keys typed together are written once; each value they made is an undo step of its own, as if typed slowly."""
    doc = opened(tmp_path)
    start = doc.session
    one = pairs(doc, "Ana", 2)
    two = one.with_value(1, "Bo", "pairs", {"count": 3, "each": 3})
    three = two.with_value(1, "Bo", "pairs", {"count": 4, "each": 3})
    doc.commit(three, key=("Bo", "pairs"), passed=((one, ("Ana", "pairs"), True), (two, ("Bo", "pairs"), True)))
    assert on_disk(doc) == three
    assert len(doc.undo_stack) == 3
    assert doc.undo() == two and doc.undo() == one and doc.undo() == start


def test_a_passed_edit_that_does_not_end_its_run_merges_with_the_next(tmp_path: Path) -> None:
    doc = opened(tmp_path)
    start = doc.session
    one = pairs(doc, "Ana", 1)
    two = pairs(doc, "Ana", 12)
    doc.commit(two, key=("Ana", "pairs"), passed=((one, ("Ana", "pairs"), False),))
    assert len(doc.undo_stack) == 1 and doc.undo() == start


def test_redo_is_cleared_by_a_new_edit_and_writes_the_file(tmp_path: Path) -> None:
    doc = opened(tmp_path)
    doc.commit(pairs(doc, "Ana", 1), key="a")
    doc.boundary()
    doc.commit(pairs(doc, "Ana", 2), key="a")
    doc.undo()
    assert doc.redo_stack and doc.redo() is not None
    assert on_disk(doc).rounds[0].players["Ana"]["pairs"]["count"] == 2
    doc.undo()
    doc.commit(pairs(doc, "Bo", 7), key="b")
    assert doc.redo_stack == [] and doc.redo() is None


def test_undo_after_undo_is_not_merged_with_the_next_edit(tmp_path: Path) -> None:
    """An undo ends the run: typing in the same box afterwards is a new step (undoing it goes back to the undone
    state, not further)."""
    doc = opened(tmp_path)
    doc.commit(pairs(doc, "Ana", 1), key="a")
    doc.boundary()
    doc.commit(pairs(doc, "Ana", 2), key="a")
    doc.undo()
    middle = doc.session
    doc.commit(pairs(doc, "Ana", 9), key="a")
    assert doc.undo() == middle


def test_a_reload_is_not_an_undo_step_and_ends_the_run(tmp_path: Path) -> None:
    """A reload takes the file as it is; undo then undoes this place's own edits only, keeping the others'."""
    doc = opened(tmp_path)
    doc.commit(pairs(doc, "Ana", 1), key="a")
    ours = doc.session
    theirs = ours.with_value(1, "Bo", "pairs", {"count": 8, "each": 3})
    from scorekeeper import store

    store.save(doc.path, theirs)
    assert doc.reload() == theirs
    doc.commit(pairs(doc, "Ana", 2), key="a")
    assert doc.undo() == theirs
    first = doc.undo()
    assert first is not None and first.rounds[0].players == {"Bo": {"pairs": {"count": 8, "each": 3}}}
    assert doc.undo() is None


def test_committing_the_session_as_it_is_writes_nothing(tmp_path: Path) -> None:
    """Enter on a box whose value did not change: no write (the file keeps its inode) and no undo step."""
    doc = opened(tmp_path)
    before = doc.path.stat()
    doc.commit(doc.session, key="a")
    after = doc.path.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns) and doc.undo_stack == []


@pilot_test
async def test_a_change_that_replaces_one_still_waiting_keeps_its_undo_steps(tmp_path: Path) -> None:
    """Keys typed while the app asks about a file changed on disk: the newer change takes the waiting one's place
    (it holds the whole session), and the waiting one's edits stay undo steps of their own."""
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"])
    async with running(tmp_path, path, watch=AT_ONCE) as (app, pilot):
        doc = app.doc
        assert doc is not None
        start = doc.session
        store.save(path, start.with_value(1, "Ana", "pairs", {"count": 8, "each": 3}))  # elsewhere, the same box
        one = start.with_value(1, "Ana", "pairs", {"count": 1, "each": 3})
        two = one.with_value(1, "Bo", "pairs", {"count": 2, "each": 3})
        three = two.with_value(1, "Bo", "pairs", {"count": 5, "each": 3})
        first = app.save(two, ("Bo", "pairs"), last=True, passed=((one, ("Ana", "pairs"), True),))
        await settle(pilot)
        assert not first.done()  # the question is open
        second = app.save(three, ("Bo", "again"), last=True)
        await pilot.press("o")  # overwrite: keep mine
        await settle(pilot)
        assert second.result() and on_disk(doc) == three
        assert len(doc.undo_stack) == 3
        assert doc.undo() == two and doc.undo() == one


def test_a_batch_waiting_is_written_with_the_next_and_once(tmp_path: Path) -> None:
    """The Document's side of it: a batch that met a conflict waits; a batch queued meanwhile is written after its
    edits; trying again (the answer) writes them once."""
    from scorekeeper.walk.document import Batch

    doc = opened(tmp_path)
    start = doc.session
    store.save(doc.path, pairs(doc, "Ana", 8))
    one = pairs(doc, "Ana", 1)
    two = one.with_value(1, "Bo", "pairs", {"count": 2, "each": 3})
    three = two.with_value(1, "Bo", "pairs", {"count": 5, "each": 3})
    with pytest.raises(store.ChangedOnDisk):
        doc.save(Batch(((one, "a", True), (two, "b", True))))
    assert doc.waiting is not None and len(doc.undo_stack) == 0
    doc.queue(Batch(((three, "c", True),)))  # typed while the question is open
    store.save(doc.path, pairs(doc, "Ana", 9))  # and another change elsewhere, before the answer
    with pytest.raises(store.ChangedOnDisk):
        doc.save()
    doc.prefer_ours = True  # the answer: keep mine
    assert doc.save() == three and on_disk(doc) == three
    assert len(doc.undo_stack) == 3 and doc.waiting is None
    assert doc.undo() == two and doc.undo() == one
    undone = doc.undo()
    assert undone is not None and undone.rounds[0].players["Ana"]["pairs"]["count"] == 9 and undone != start
    assert doc.save() == undone  # nothing queued: nothing written


def test_staged_values_of_one_box_are_one_edit_until_the_run_ends(tmp_path: Path) -> None:
    """What is typed is staged: digits of one box replace each other; Enter (`end_run`) ends the run, even on a
    value that did not change; another box follows as an edit of its own."""
    doc = opened(tmp_path)
    for count in (1, 12):
        doc.stage(pairs(doc, "Ana", count), ("Ana", "pairs"))
    doc.end_run()
    doc.stage(pairs(doc, "Ana", 4), ("Ana", "pairs"))
    doc.stage(pairs(doc, "Bo", 3), ("Bo", "pairs"))
    batch = doc.take()
    assert batch is not None and [e[1:] for e in batch.edits] == [(("Ana", "pairs"), True),
                                                                 (("Ana", "pairs"), False), (("Bo", "pairs"), False)]
    assert doc.take() is None and not doc.staged
    doc.save(batch)
    assert len(doc.undo_stack) == 3
    doc.end_run()  # nothing staged: the history's run ends
    doc.stage(pairs(doc, "Bo", 4), ("Bo", "pairs"))
    doc.save(doc.take())  # type: ignore[arg-type]
    assert len(doc.undo_stack) == 4


def test_an_undo_takes_the_place_of_a_batch_waiting(tmp_path: Path) -> None:
    """Typed values that met a conflict, then ctrl+z: the undo is what is done; the batch is not written later."""
    from scorekeeper.walk.document import Batch

    doc = opened(tmp_path)
    doc.commit(pairs(doc, "Bo", 1), key="b")
    saved = doc.session
    store.save(doc.path, pairs(doc, "Ana", 8))
    with pytest.raises(store.ChangedOnDisk):
        doc.save(Batch(((pairs(doc, "Ana", 1), "a", True),)))
    doc.prefer_ours = True
    assert doc.undo() is not None and doc.waiting is None
    assert doc.save() == doc.session and doc.session != saved
