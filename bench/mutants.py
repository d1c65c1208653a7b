"""Mutation score of the core's edit and undo paths: a hand list of small faults, each put into a copy of the tree,
and the tests that guard those paths run against it. A mutant the tests do not fail is "survived".

    python bench/mutants.py            # every mutant
    python bench/mutants.py --list     # the mutants, not run

Prints one line per mutant and the score (killed / all). Each mutant runs the unit tests of the document and the
walk (no Pilot), so the whole list takes about a minute on two cores.
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TESTS = ["tests/test_document_undo.py", "tests/test_tui_walk.py", "tests/test_store.py"]

MUTANTS: list[tuple[str, str, str, str]] = [
    # (name, file, the text, what it becomes)
    ("boundary is a no-op", "scorekeeper/document.py",
     "        self._last_key = None\n\n    def undo(", "        pass\n\n    def undo("),
    ("every key coalesces", "scorekeeper/document.py",
     "if key is None or key != self._last_key or not self.undo_stack:", "if not self.undo_stack:"),
    ("no key coalesces too", "scorekeeper/document.py",
     "if key is None or key != self._last_key or not self.undo_stack:",
     "if key != self._last_key or not self.undo_stack:"),
    ("redo not cleared by an edit", "scorekeeper/document.py",
     "            self.undo_stack.append(self.session)\n        self.redo_stack.clear()\n",
     "            self.undo_stack.append(self.session)\n"),
    ("passed edits ignored", "scorekeeper/document.py",
     "        for step, step_key, last in passed:\n            self._advance(step, step_key)",
     "        for step, step_key, last in ():\n            self._advance(step, step_key)"),
    ("passed edits never end their run", "scorekeeper/document.py",
     "            if last:\n                self.boundary()", "            if False:\n                self.boundary()"),
    ("undo does not write", "scorekeeper/document.py",
     "        previous = self.undo_stack[-1]\n        self.write(previous)\n",
     "        previous = self.undo_stack[-1]\n"),
    ("undo keeps the run open", "scorekeeper/document.py",
     "        self.session = previous\n        self._last_key = None\n", "        self.session = previous\n"),
    ("redo does not write", "scorekeeper/document.py",
     "        following = self.redo_stack[-1]\n        self.write(following)\n",
     "        following = self.redo_stack[-1]\n"),
    ("undo forgets what it undid", "scorekeeper/document.py",
     "        self.undo_stack.pop()\n        self.redo_stack.append(self.session)\n",
     "        self.undo_stack.pop()\n"),
    ("a reload is not undoable", "scorekeeper/document.py",
     "        if session != self.session:\n            self.undo_stack.append(self.session)\n",
     "        if session != self.session:\n"),
    ("a same-session commit is written anyway", "scorekeeper/document.py",
     "        if session == self.session and not self.unsaved:\n            return\n", ""),
    ("steps not reached are problems", "scorekeeper/walk.py",
     "    where = resume(game, session)\n    if where is None or where[0] != number:\n        return problems\n",
     "    return problems\n"),
    ("a done step's warning dropped", "scorekeeper/walk.py",
     "and not any(concerns(p, s) for s in steps[:where[1]])", ""),
    ("errors dropped while walking", "scorekeeper/walk.py",
     "if not p.is_error and p.round == number", "if p.round == number"),
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
