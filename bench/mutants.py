"""Mutation score of the core's edit and undo paths: a hand list of small faults, each put into a copy of the tree,
and the tests that guard those paths run against it. A mutant the tests do not fail is "survived".

    python bench/mutants.py            # every mutant
    python bench/mutants.py --list     # the mutants, not run

Prints one line per mutant and the score (killed / all). Each mutant runs the unit tests of the document, the walk
and the walkthrough's state (one Pilot test of the save path among them), so the whole list takes a few minutes on
two cores.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/test_document_undo.py", "tests/test_tui_walk.py", "tests/test_store.py", "tests/test_walk_state.py",
         "tests/test_merge.py", "tests/test_table_model.py", "tests/test_table_examples.py"]

MUTANTS: list[tuple[str, str, str, str]] = [
    # (name, file, the text, what it becomes)
    ("boundary is a no-op", "scorekeeper/walk/document.py",
     "        self._last_key = None\n\n    def undo(", "        pass\n\n    def undo("),
    ("every key coalesces", "scorekeeper/walk/document.py",
     "if key is None or key != self._last_key or not self.undo_stack:", "if not self.undo_stack:"),
    ("no key coalesces too", "scorekeeper/walk/document.py",
     "if key is None or key != self._last_key or not self.undo_stack:",
     "if key != self._last_key or not self.undo_stack:"),
    ("redo not cleared by an edit", "scorekeeper/walk/document.py",
     "        self.redo_stack.clear()\n        self._last_key = key\n", "        self._last_key = key\n"),
    ("passed edits ignored", "scorekeeper/walk/document.py",
     "        for step, step_key, last in (*passed, (session, key, False)):",
     "        for step, step_key, last in ((session, key, False),):"),
    ("passed edits never end their run", "scorekeeper/walk/document.py",
     "            if last:\n                self.boundary()", "            if False:\n                self.boundary()"),
    ("undo does not write", "scorekeeper/walk/document.py",
     "([inverse(source[-1])], undoing=True)", "([()], undoing=True)"),
    ("undo keeps the run open", "scorekeeper/walk/document.py",
     "whose inverse goes back\n        self._last_key = None\n", "whose inverse goes back\n"),
    ("undo overwrites what others changed since", "scorekeeper/walk/document.py",
     "        force = self.prefer_ours and not undoing", "        force = self.prefer_ours or undoing"),
    ("undo forgets what it undid", "scorekeeper/walk/document.py",
     "        if applied[0]:\n            target.append(applied[0])",
     "        if False:\n            target.append(applied[0])"),
    ("a same-session commit is written anyway", "scorekeeper/walk/document.py",
     "        if not any(ops for ops, _, _ in edits) and not self.unsaved:\n            return\n", ""),
    ("a field changed elsewhere is overwritten", "scorekeeper/walk/merge.py",
     "        if now != op.before and not force:\n            conflicts.append(op.key)\n            continue\n"
     "        if op.after is MISSING:", "        if op.after is MISSING:"),
    ("a round another place filled is removed", "scorekeeper/walk/merge.py",
     "        if now is MISSING or _in_use(flat, op.key):", "        if now is MISSING:"),
    ("a replaced file keeps its history", "scorekeeper/walk/document.py",
     "        self.undo_stack.clear()\n        self.redo_stack.clear()\n"
     "        self.pending, self.unsaved = (), False\n",
     "        self.pending, self.unsaved = (), False\n"),
    ("steps not reached are problems", "scorekeeper/walk/__init__.py",
     "    where = resume(game, session)\n    if where is None or where[0] != number:\n        return problems\n",
     "    return problems\n"),
    ("a done step's warning dropped", "scorekeeper/walk/__init__.py",
     "and not any(concerns(p, s) for s in steps[:where[1]])", ""),
    ("errors dropped while walking", "scorekeeper/walk/__init__.py",
     "if not p.is_error and p.round == number", "if p.round == number"),
    # the save policy of the Document
    ("the digits of one box are separate edits", "scorekeeper/walk/document.py",
     "if typed and not typed[-1][2] and typed[-1][1] == key:", "if False:"),
    ("Enter does not end the staged run", "scorekeeper/walk/document.py",
     "self.typed[-1] = (session, key, True)", "self.typed[-1] = (session, key, False)"),
    ("a batch waiting is dropped by the next", "scorekeeper/walk/document.py",
     "self.waiting = batch if self.waiting is None else self.waiting.then(batch)", "self.waiting = batch"),
    # the walkthrough's state
    ("a refused value is taken anyway", "scorekeeper/walk/state.py",
     "        if errors:\n            if where is not None:\n",
     "        if False:\n            if where is not None:\n"),
    ("values refused before are never retried", "scorekeeper/walk/state.py",
     "        self.retry()\n        self.doc.stage(", "        self.doc.stage("),
    ("an accepted value is not staged", "scorekeeper/walk/state.py",
     "        self.doc.stage(self.model, key, boundary)\n", ""),
    ("Enter on an unchanged value keeps the run open", "scorekeeper/walk/state.py",
     "            if boundary:\n                self.doc.end_run()\n", ""),
    ("text that is no value yet keeps the old reason", "scorekeeper/walk/state.py",
     "            self.rejected.pop(where, None)\n            return False\n", "            return False\n"),
    ("the cursor starts on a box already filled", "scorekeeper/walk/state.py",
     "if walk.either(step) or not walk.has(rnd.entry(player), slot):", "if True:"),
    ("a warning stops the cursor every time", "scorekeeper/walk/state.py",
     "if warnings and self.index not in self.warned:", "if warnings:"),
    ("up does not reach the first player", "scorekeeper/walk/cursor.py",
     "if 0 <= index < len(same) else None", "if 0 < index < len(same) else None"),
    ("others' changes do not reach what is staged", "scorekeeper/walk/state.py",
     "        self.doc.rebase_staged(base, now)\n", ""),
    ("a refused value is not marked in the step list", "scorekeeper/walk/state.py",
     "            if i == self.index and refused:", "            if False:"),
    ("the table forgets the rounds before", "scorekeeper/walk/state.py",
     "rows = tuple((p, self.before[p],", "rows = tuple((p, Fraction(0),"),
]


def run(name: str, file: str, old: str, new: str) -> bool:
    """True when the tests fail with the mutant in place (killed)."""
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "tree"
        shutil.copytree(ROOT, copy, ignore=shutil.ignore_patterns(".git", ".venv*", "__pycache__", "*.egg-info",
                                                                  ".hypothesis", ".pytest_cache", ".mypy_cache"))
        target = copy / file
        text = target.read_text()
        if text.count(old) != 1:
            raise SystemExit(f"mutant {name!r}: its text is not found once in {file} (the code moved: update it)")
        target.write_text(text.replace(old, new))
        done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-n", "2", "-p", "no:cacheprovider",
                               *TESTS], cwd=copy, capture_output=True, text=True, timeout=600)
        return done.returncode != 0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="list the mutants, do not run them")
    args = parser.parse_args()
    if args.list:
        for name, file, _, _ in MUTANTS:
            print(f"{file}: {name}")
        return
    killed = 0
    for name, file, old, new in MUTANTS:
        dead = run(name, file, old, new)
        killed += dead
        print(f"{'killed  ' if dead else 'SURVIVED'} {file}: {name}", flush=True)
    print(f"mutation score: {killed}/{len(MUTANTS)} killed")


if __name__ == "__main__":
    main()
