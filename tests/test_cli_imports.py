"""What each command imports and builds at start-up (issue 14): help and `games` read no session file and load no
session model, a session loads only its game, and only the invoked command's parser is built."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import cli, cli_parser
from scorekeeper.text import is_control

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

READING = {"scorekeeper.reading", "scorekeeper.store", "scorekeeper.files", "scorekeeper.validation",
           "scorekeeper.document", "scorekeeper.index", "scorekeeper.indexing", "scorekeeper.stats", "scorekeeper.walk",
           "scorekeeper.export", "tomli_w"}
"""The code that reads, validates, indexes or writes session files."""

HEAVY = {"textual", "rich", "sqlite3", "aiohttp", "jinja2", "importlib.metadata", "shutil"}
"""Modules a command that does not need them must not pay for (`shutil`: argparse's way to the terminal width)."""

GAME_MODULES = {"ticket_booth", "ticket_to_ride", "ticket_to_finland", "ticket_to_mars"}


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
    assert "scorekeeper.session" not in modules  # the steps are read from the house rules alone


def test_the_version_is_read_only_when_asked():
    assert "importlib.metadata" in imported("--version")


@pytest.mark.parametrize(("sample", "game", "support"), [
    ("ticket-booth-3p.toml", "ticket_booth", set()),
    ("ticket-to-mars-one-round.toml", "ticket_to_mars", set()),
    ("ticket-to-ride-4p.toml", "ticket_to_ride", {"trains", "boards"}),
    ("ticket-to-finland-3p.toml", "ticket_to_finland", {"trains"}),
])
def test_scoring_a_session_imports_only_its_game(sample, game, support):
    modules = imported("score", str(SAMPLES / sample))
    games = {m.removeprefix("scorekeeper.games.") for m in modules if m.startswith("scorekeeper.games.")}
    assert games == {"base", game, *support}
    assert "scorekeeper.maps.game_map" not in modules  # a map is read only when the session plays on one
    assert not top(modules) & HEAVY and "tomli_w" not in modules


def test_only_the_invoked_commands_parser_is_built():
    parser = cli.build_parser()
    commands = next(a for a in parser._actions if isinstance(a, cli_parser.CommandOrFile))
    args = parser.parse_args(["score", "a.toml", "--json"])
    assert args.func is cli.cmd_score and args.files == ["a.toml"] and args.json
    assert list(commands._name_parser_map) == ["score"]
    assert commands.commands() == list(cli.COMMANDS)


def test_every_command_is_listed_and_has_its_own_complete_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listing = capsys.readouterr().out
    for name, (help, _setup) in cli.COMMANDS.items():
        assert f"    {name} " in listing and " ".join(help.split()[:3]) in listing
        with pytest.raises(SystemExit) as exit:
            cli.main([name, "--help"])
        own = capsys.readouterr().out
        assert exit.value.code == 0 and own.startswith(f"usage: scorekeeper {name}") and "-h, --help" in own
    with pytest.raises(SystemExit):
        cli.main(["score", "--help"])
    assert "FILE" in (out := capsys.readouterr().out) and "--json" in out


def test_help_takes_the_width_of_columns(monkeypatch, capsys):
    for columns in ("60", "140"):
        monkeypatch.setenv("COLUMNS", columns)
        with pytest.raises(SystemExit):
            cli.main(["--help"])
        assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= int(columns) - 2
    assert cli_parser.terminal_columns() == 140


def test_printed_text_escapes_exactly_the_control_characters(capsys):
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    cli.print(every, end="")
    expected = "".join(ch if ch == "\n" or not is_control(ch) else f"\\u{ord(ch):04x}" for ch in every)
    assert capsys.readouterr().out == expected


def test_scoring_plain_files_imports_no_parser_pathlib_or_locale():
    for args in (["score", str(SAMPLES / "ticket-booth-3p.toml")],
                 ["score", "--json", str(SAMPLES / "ticket-to-ride-usa-4p.toml")]):
        modules = imported(*args, site=False)
        assert not modules & {"argparse", "gettext", "locale", "pathlib", "scorekeeper.cli_parser", "difflib",
                              "importlib.resources", "tempfile"}, args


@pytest.mark.parametrize("argv", [
    ["score", "a.toml"], ["score", "a.toml", "b c.toml"], ["score", "--json", "a.toml"], ["score", "a", "b", "--json"],
    ["score", "a", "--json", "b"], ["score", "--json", "a", "--json"], ["score"], ["score", "--json"], ["score", "--"],
    ["score", "-", "a"], ["score", "a", "--js"], ["score", ""], ["score", "a", "-h"], ["scores", "a"], ["--dir", "d"],
], ids=" ".join)
def test_plain_score_reads_what_the_parser_reads(argv):
    plain = cli.plain_score(argv)
    try:
        parsed = cli.parse(argv)
    except (cli.UsageError, SystemExit):
        assert plain is None
        return
    assert plain is None or (parsed.func is cli.cmd_score and plain == (parsed.files, parsed.json))


@pytest.mark.parametrize("argv", [
    [], ["--dir", "d"], ["s.toml"], ["--dir", "d", "s.toml"], ["s.toml", "--dir", "d"], ["d"], ["--dir", "s.toml"],
    ["missing.toml"], ["scor"], ["games"], ["score"], ["--dir"], ["s.toml", "--dir"], ["--dir", "-x", "s.toml"],
    ["--dir=d", "s.toml"], ["--di", "d", "s.toml"], ["--dir", "d", "--dir", "e"], ["--dir", "", "s.toml"],
    ["s.toml", "s.toml"], ["-h"], ["--version"], ["--", "s.toml"], ["s.toml", "-h"], ["--dir", "d", "s.toml", "x"],
    ["--dir", "d", "games"], ["-s.toml"],
], ids=lambda argv: " ".join(argv) or "(none)")
def test_plain_open_reads_what_the_parser_reads(argv, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    (tmp_path / "s.toml").write_text("")
    (tmp_path / "-s.toml").write_text("")
    (tmp_path / "games").write_text("")
    (tmp_path / "d").mkdir()
    plain = cli.plain_open(argv)
    if argv in ([], ["--dir", "d"], ["s.toml"], ["--dir", "d", "s.toml"], ["s.toml", "--dir", "d"], ["d"]):
        assert plain is not None  # the common ways to open the app take the short way
    try:
        parsed = cli.parse(argv)
    except (cli.UsageError, SystemExit):
        assert plain is None
        return
    assert plain is None or (parsed.func is cli.cmd_open and plain == (parsed.dir, parsed.file))


def test_opening_the_app_reads_its_arguments_without_argparse():
    code = ("import sys; from scorekeeper import cli; assert cli.plain_open(['--dir', '.', 'pyproject.toml']); "
            "print(' '.join(sys.modules))")
    modules = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, check=True)
    assert not set(modules.stdout.split()) & {"argparse", "gettext", "scorekeeper.cli_parser"}
