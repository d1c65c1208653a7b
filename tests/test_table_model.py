"""The table as a model: three places (Documents) and a hand editor on one session file, in any interleaving.

A hypothesis state machine drives edits, undo, redo, looks at the file (polls), answers to the conflict question,
hand edits, and the file replaced, deleted and re-created. The invariant, after every step: every value in the file
is the last value some user deliberately gave that field (an edit written, "keep mine", an undo or redo of the
place's own edit, a hand edit), and no value a user wrote disappears unless that user was asked. An undo or a redo
never changes a field another user gave a new value since.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from scorekeeper import files, store
from scorekeeper.model.session import Session
from scorekeeper.walk.document import Document, Refused
from scorekeeper.walk.merge import MISSING, TABLE, Key, fields

PLAYERS = ("Ana", "Bo", "Cy")
CARDS = ("pairs", "occupancy")
SUBS = ("count", "each")
PLACES = 3
NOBODY = "nobody"
"""Who gave a value to a field no user has given one in this document (a file written back whole after it was
deleted holds only what its place wrote)."""
RESTORED = "an undo"
"""Who gave a value an undo or redo put back: an earlier value, no one's new one (any place's history may go
from it again)."""


def session(players: tuple[str, ...] = PLAYERS, title: str | None = None) -> Session:
    return Session(game="ticket-to-mars", players=players, title=title, started=datetime(2026, 12, 3, 20, 0),
                   rules={"rounds": 2})


def values(s: Session | None) -> dict[Key, Any]:
    """The values in a session: every field but the structure (rounds, tables, tables of counts)."""
    if s is None:
        return {}
    return {k: v for k, v in fields(s).items()
            if k[0] in ("sub", "field", "title", "notes") and v is not TABLE and v is not None}


def with_sub(s: Session, number: int, player: str, card: str, sub: str, value: int | None) -> Session:
    """A copy with one count of one card set (None: cleared)."""
    table = dict(s.round(number).entry(player).get(card, {}))
    if value is None:
        table.pop(sub, None)
    else:
        table[sub] = value
    return s.with_value(number, player, card, table or None)


FIELD = st.tuples(st.integers(1, 2), st.sampled_from(PLAYERS), st.sampled_from(CARDS), st.sampled_from(SUBS))


class Table(RuleBasedStateMachine):
    """Three places and a hand editor on one file."""

    def __init__(self) -> None:
        super().__init__()
        self.folder: Path | None = None
        self.path = Path()
        self.docs: list[Document] = []
        self.last: dict[Key, tuple[str, Any]] = {}
        """Each value field: who gave it its value last, and the value (MISSING: cleared)."""
        self.identity = 0
        self.given = 0

    @initialize(folder=st.builds(lambda: None))
    def start(self, folder: None) -> None:
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="table-model-"))
        self.path = self.folder / "night.toml"
        store.save(self.path, session())
        self.docs = [Document.open(self.path) for _ in range(PLACES)]
        self.last = {k: ("hand", v) for k, v in values(session()).items()}

    def teardown(self) -> None:
        import shutil

        if self.folder is not None:
            shutil.rmtree(self.folder, ignore_errors=True)

    def on_disk(self) -> Session | None:
        try:
            return files.load(self.path)[0]
        except Exception:
            return None

    def gave(self, who: str, before: Session | None, after: Session | None) -> None:
        """`who` changed the file from `before` to `after`: each field that changed is now theirs."""
        b, a = values(before), values(after)
        for key in b.keys() | a.keys():
            if b.get(key, MISSING) != a.get(key, MISSING):
                self.last[key] = (who, a.get(key, MISSING))

    def renewed(self, who: str) -> None:
        """The file is a new document: every value in it is `who`'s."""
        self.last = {k: (who, v) for k, v in values(self.on_disk()).items()}

    # -- what a place does ------------------------------------------------------------------------
    def fresh(self) -> int:
        """A value never given before: a value that comes back (A, B, A) is one no place can tell from no change
        unless it saw the B (then its history leaves the field), so the model gives each value once."""
        self.given += 1
        return self.given

    @rule(place=st.integers(0, PLACES - 1), field=FIELD, clear=st.booleans(),
          answer=st.sampled_from(["mine", "reload", "cancel"]))
    def edit(self, place: int, field: tuple[int, str, str, str], clear: bool, answer: str) -> None:
        """A place types a value into a box it sees (its session as last looked at), or clears it; a conflict asks
        its user."""
        doc = self.docs[place]
        seen = doc.session
        value = None if clear else self.fresh()
        new = with_sub(seen, *field, value)
        if new == seen:
            return
        before = self.on_disk()
        who = f"place{place}"
        try:
            doc.commit(new, key=None, base=seen)
        except Refused:
            assert self.on_disk() == before
            return
        except store.ChangedOnDisk:
            assert self.on_disk() == before  # nothing written before the user answers
            if doc.renewed and not doc.gone:  # another document now: the app says so, nothing is asked or kept
                doc.renewed = False
                return
            if answer == "mine":  # the user was asked and chose their own value
                doc.prefer_ours = True
                try:
                    doc.commit(new, key=None, base=seen)
                except Refused:
                    return
                finally:
                    doc.prefer_ours = False
                after = self.on_disk()
                if before is None:
                    self.renewed(who)
                else:
                    self.gave(who, before, after)
            elif answer == "reload":
                try:
                    doc.reload()
                except Exception:
                    pass
            return
        self.gave(who, before, self.on_disk())

    @rule(place=st.integers(0, PLACES - 1), redo=st.booleans())
    def history(self, place: int, redo: bool) -> None:
        """Undo (or redo) at a place: only that place's own values change, the others' are stepped over."""
        doc = self.docs[place]
        before = self.on_disk()
        who = f"place{place}"
        try:
            (doc.redo if redo else doc.undo)()
        except (store.ChangedOnDisk, Refused):
            assert self.on_disk() == before
            doc.renewed = False
            return
        after = self.on_disk()
        b, a = values(before), values(after)
        for key in b.keys() | a.keys():
            if b.get(key, MISSING) != a.get(key, MISSING):
                owner = self.last.get(key, (NOBODY, MISSING))[0]
                assert owner in (who, RESTORED, NOBODY), f"{who}'s undo changed {key}, last given by {owner}"
        self.gave(RESTORED, before, after)

    @rule(place=st.integers(0, PLACES - 1))
    def look(self, place: int) -> None:
        """A place looks at the file (the watch): it takes the others' changes in, writing nothing."""
        before = self.on_disk()
        self.docs[place].poll()
        self.docs[place].renewed = False
        assert self.on_disk() == before

    # -- what happens to the file outside the places -----------------------------------------------
    @rule(field=FIELD)
    def hand_edit(self, field: tuple[int, str, str, str]) -> None:
        """Someone edits the file by hand (a text editor): one value."""
        before = self.on_disk()
        if before is None:
            return
        store.save(self.path, with_sub(before, *field, self.fresh()))
        self.gave("hand", before, self.on_disk())

    @rule(title=st.sampled_from(["another night", "again"]), players=st.sampled_from([PLAYERS, ("Dee", "Eli")]))
    def replace_file(self, title: str, players: tuple[str, ...]) -> None:
        """The file is replaced by another session (another game night saved over it)."""
        self.identity += 1
        other = replace(session(players, title), started=datetime(2026, 12, 3, 21, self.identity % 60))
        store.save(self.path, other)
        self.renewed("hand")

    @precondition(lambda self: self.path.exists())
    @rule()
    def delete_file(self) -> None:
        self.path.unlink()
        self.last = {}

    @precondition(lambda self: not self.path.exists())
    @rule()
    def recreate_file(self) -> None:
        self.identity += 1
        store.save(self.path, replace(session(), started=datetime(2026, 12, 4, 20, self.identity % 60)))
        self.renewed("hand")

    @invariant()
    def every_value_is_the_last_one_given(self) -> None:
        if self.folder is None:
            return
        expected = {k: v for k, (_, v) in self.last.items() if v is not MISSING}
        assert values(self.on_disk()) == expected


Table.TestCase.settings = settings(max_examples=150, stateful_step_count=30, deadline=None,
                                   suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
test_the_table_loses_nothing = Table.TestCase


@pytest.mark.slow
def test_the_table_loses_nothing_over_many_interleavings() -> None:
    """The same machine, longer: more examples and steps (CI's whole suite)."""
    from hypothesis.stateful import run_state_machine_as_test

    run_state_machine_as_test(Table, settings=settings(max_examples=400, stateful_step_count=40, deadline=None,
                                                       suppress_health_check=list(HealthCheck)))


FIVE = """
import sys
from pathlib import Path
from scorekeeper.walk.document import Document
path, player, saves = Path(sys.argv[1]), sys.argv[2], int(sys.argv[3])
doc = Document.open(path)
for n in range(1, saves + 1):
    doc.poll()
    number, card = 1 + (n - 1) // 20, ("pairs", "occupancy")[n % 2]
    doc.commit(doc.session.with_value(number, player, card, {"count": n % 5, "each": 1 + n % 4}), key=None)
print("done", flush=True)
"""


@pytest.mark.slow
def test_five_places_writing_their_own_fields_at_once_lose_nothing(tmp_path: Path) -> None:
    """Five processes (five seats), each writing its own player's values 40 times as fast as it can: no save gives
    up or asks, and the file holds every player's last values."""
    import subprocess
    import sys

    players = ("Ana", "Bo", "Cy", "Dee", "Eli")
    path = tmp_path / "five.toml"
    store.save(path, session(players))
    procs = [subprocess.Popen([sys.executable, "-c", FIVE, str(path), p, "40"], stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True) for p in players]
    outs = [p.communicate(timeout=120) for p in procs]
    assert all(p.returncode == 0 for p in procs), [err[-400:] for _, err in outs]
    final = files.load(path)[0]
    for player in players:
        for n in (39, 40):
            number, card = 1 + (n - 1) // 20, ("pairs", "occupancy")[n % 2]
            assert final.round(number).entry(player)[card] == {"count": n % 5, "each": 1 + n % 4}
