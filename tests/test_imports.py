"""Import hygiene, in one place: what each command loads in a fresh interpreter.

The core and the commands never load Textual or Rich; help and `games` read no session file; scoring a session loads
only its own game (and a map only when it plays on one); the slow modules (`sqlite3`, `importlib.metadata`,
`shutil`, `pathlib` …) are loaded by the commands that use them, and only then. And no module is longer than
MODULE_LINES: a module is of one concern.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

from scorekeeper import cli

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_sessions"

RUN = """
import contextlib, io, sys
from scorekeeper.cli import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        code = main(sys.argv[1:])
    except SystemExit as exit:
        code = exit.code
print(code, " ".join(sorted(sys.modules)))
"""

READING = {"scorekeeper.store.reading", "scorekeeper.store", "scorekeeper.files", "scorekeeper.games.validation",
           "scorekeeper.walk.document", "scorekeeper.index", "scorekeeper.index.indexing", "scorekeeper.after.stats",
           "scorekeeper.walk", "scorekeeper.after.export", "tomli_w"}
"""The code that reads, validates, indexes or writes session files."""

HEAVY = {"textual", "rich", "sqlite3", "aiohttp", "jinja2", "importlib.metadata", "shutil"}
"""Modules a command that does not need them must not pay for (`shutil`: argparse's way to the terminal width)."""

GAME_MODULES = {"ticket_booth", "ticket_to_ride", "ticket_to_finland", "ticket_to_mars"}

MODULE_LINES = 600
"""The most lines a module of the package may have (issue #23: modules of one concern, none over about 600)."""


def imported(*args: str, site: bool = True) -> set[str]:
    """The modules loaded after `scorekeeper ARGS` in a fresh interpreter (which must exit 0); without `site`, as in
    a regular install (no editable finder importing pathlib and more at start-up; the checkout is the path)."""
    python = [sys.executable] if site else [sys.executable, "-S"]
    result = subprocess.run([*python, "-c", RUN, *args], capture_output=True, text=True, cwd=ROOT)
    code, _, modules = result.stdout.partition(" ")
    assert code == "0", result.stdout + result.stderr
    return set(modules.split())


def top(modules: set[str]) -> set[str]:
    """Each module's top-level package."""
    return {m.split(".")[0] for m in modules} | modules


def test_the_core_and_the_commands_never_load_textual_or_rich():
    """Every module outside the app (`scorekeeper.tui`, and the two shells that start it) imports, and scores,
    checks and lists the games, without Textual or Rich."""
    code = (
        "import pkgutil, importlib, sys, scorekeeper\n"
        "for m in pkgutil.walk_packages(scorekeeper.__path__, 'scorekeeper.'):\n"
        "    shells = ('scorekeeper.__main__', 'scorekeeper.web.serve')\n"
        "    if not m.name.startswith('scorekeeper.tui') and m.name not in shells:\n"
        "        importlib.import_module(m.name)\n"
        "from scorekeeper.cli import main\n"
        f"sample = {str(SAMPLES / 'ticket-to-ride-usa-4p.toml')!r}\n"
        "main(['score', sample]); main(['check', sample]); main(['games'])\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('textual', 'rich'))\n"
        "assert not bad, bad\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


@pytest.mark.parametrize("args", [["--help"], ["-h"], *([name, "--help"] for name in cli.COMMANDS)],
                         ids=lambda args: " ".join(args))
def test_help_imports_nothing_but_the_command_line(args):
    modules = imported(*args)
    assert {m for m in modules if m.startswith("scorekeeper")} == {"scorekeeper", "scorekeeper.cli",
                                                                   "scorekeeper.cli_parser"}
    assert not top(modules) & HEAVY


def test_games_reads_no_session_file_and_loads_no_session_model():
    modules = imported("games")
    assert {f"scorekeeper.games.{g}" for g in GAME_MODULES} <= modules  # it describes every game
    assert not modules & READING and not top(modules) & HEAVY
    assert "scorekeeper.model.session" not in modules  # the steps are read from the house rules alone
    assert "scorekeeper.maps.game_map" not in modules and "scorekeeper.maps.graph" not in modules  # MAPS, TRAINS


def test_the_version_is_read_only_when_asked():
    assert "importlib.metadata" in imported("--version")


@pytest.mark.parametrize("sample", ["ticket-booth-3p.toml", "ticket-to-mars-one-round.toml", "ticket-to-ride-4p.toml",
                                    "ticket-to-finland-3p.toml"])
def test_scoring_a_session_loads_no_map_it_does_not_play_on(sample):
    """The registry is a plain mapping (every game's module), but a map is read only when a session plays on one."""
    modules = imported("score", str(SAMPLES / sample))
    assert {f"scorekeeper.games.{g}" for g in GAME_MODULES} <= modules
    assert "scorekeeper.maps.game_map" not in modules
    assert not top(modules) & HEAVY and "tomli_w" not in modules


def test_scoring_loads_no_pathlib_and_no_module_of_another_command():
    """As installed (no editable finder): `score` on plain names makes no Path, suggests nothing, writes nothing."""
    for args in (["score", str(SAMPLES / "ticket-booth-3p.toml")],
                 ["score", "--json", str(SAMPLES / "ticket-to-ride-usa-4p.toml")]):
        modules = imported(*args, site=False)
        assert not modules & {"pathlib", "difflib", "textwrap", "importlib.resources", "tempfile"}, args
        assert not top(modules) & HEAVY, args


def test_no_module_is_over_the_line_limit():
    lines = {path.relative_to(ROOT).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
             for path in sorted((ROOT / "scorekeeper").rglob("*.py"))}
    assert lines, "no module found"
    assert {name: n for name, n in lines.items() if n > MODULE_LINES} == {}


def test_every_third_party_module_the_package_imports_is_a_declared_dependency():
    """What `scorekeeper` imports (at any depth, `TYPE_CHECKING` aside) comes from a distribution that
    pyproject.toml names in its dependencies, not from one that another dependency happens to bring."""
    declared = {re.split(r"[\s<>=!~;\[(]", spec, maxsplit=1)[0].lower().replace("_", "-")
                for spec in tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["dependencies"]}
    names: dict[str, str] = {}
    for path in sorted((ROOT / "scorekeeper").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        typing_only = {id(node) for block in ast.walk(tree)
                       if isinstance(block, ast.If) and "TYPE_CHECKING" in ast.unparse(block.test)
                       for node in ast.walk(block)}
        for node in ast.walk(tree):
            if id(node) in typing_only:
                continue
            if isinstance(node, ast.Import):
                tops = [alias.name.split(".")[0] for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
                tops = [node.module.split(".")[0]]
            else:
                continue
            for name in tops:
                if name not in sys.stdlib_module_names and name not in ("__future__", "scorekeeper"):
                    names.setdefault(name, path.relative_to(ROOT).as_posix())
    assert names, "no third-party import found"
    distributions = packages_distributions()
    undeclared = {name: (where, distributions.get(name)) for name, where in names.items()
                  if not {d.lower().replace("_", "-") for d in distributions.get(name, [])} & declared}
    assert undeclared == {}


def test_no_module_tunes_the_garbage_collector():
    """Start-up and typing speed come from what the code does, not from freezing or pausing the collector."""
    calls = re.compile(r"\bgc\.(freeze|disable|set_threshold)\(|^\s*import gc\b|^\s*from gc import", re.MULTILINE)
    offenders = sorted(path.relative_to(ROOT).as_posix() for path in (ROOT / "scorekeeper").rglob("*.py")
                       if calls.search(path.read_text(encoding="utf-8")))
    assert offenders == []
