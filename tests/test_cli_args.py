"""The command line's one grammar, `scorekeeper [--dir DIR] [FILE | COMMAND ...]`, as a user types it: what each
line runs, the help, and mistakes said in one inert line (never a raw line feed or escape sequence of the user's)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import cli, cli_parser
from scorekeeper.model.text import is_control

ROOT = Path(__file__).resolve().parent.parent
THREE = ROOT / "sample_sessions" / "ticket-booth-3p.toml"


@pytest.fixture
def here(tmp_path, monkeypatch):
    """A folder with a session file `s.toml`, one named `-s.toml`, a file named like a command, a folder `d`."""
    monkeypatch.chdir(tmp_path)
    for name in ("s.toml", "-s.toml", "games"):
        (tmp_path / name).write_text("")
    (tmp_path / "d").mkdir()
    return tmp_path


OPENS = [
    ([], None, None),
    (["--dir", "d"], "d", None),
    (["--dir=d"], "d", None),
    (["s.toml"], None, "s.toml"),
    (["--dir", "d", "s.toml"], "d", "s.toml"),
    (["s.toml", "--dir", "d"], "d", "s.toml"),
    (["--di", "d", "s.toml"], "d", "s.toml"),  # argparse's abbreviations
    (["d"], None, "d"),  # a folder: open_app says to give it to --dir
    (["missing.toml"], None, "missing.toml"),  # open_app says there is no such file
    (["--", "-s.toml"], None, "-s.toml"),
    (["--dir", "d", "--", "games"], "d", None),  # a command's name after `--` is still the command
]


@pytest.mark.parametrize(("argv", "folder", "file"), OPENS, ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_file_or_nothing_opens_the_app(here, argv, folder, file):
    args = cli.parse(argv)
    if argv[-1:] == ["games"]:
        assert args.func is cli.cmd_games and args.dir == folder
        return
    assert args.func is cli.cmd_open and (args.dir, args.file) == (folder, file)


@pytest.mark.parametrize(("argv", "files", "as_json"), [
    (["score", "a.toml"], ["a.toml"], False),
    (["score", "a.toml", "b c.toml"], ["a.toml", "b c.toml"], False),
    (["score", "--json", "a.toml"], ["a.toml"], True),
    (["score", "a", "b", "--json"], ["a", "b"], True),
    (["score", "--", "-s.toml"], ["-s.toml"], False),
    (["--dir", "d", "score", "a"], ["a"], False),
], ids=lambda v: " ".join(v) if isinstance(v, list) and v[0] in ("score", "--dir") else "")
def test_score_reads_its_files_and_json(here, argv, files, as_json):
    args = cli.parse(argv)
    assert args.func is cli.cmd_score and (args.files, args.json) == (files, as_json)


def test_dir_before_or_after_a_command_holds_for_it(here):
    assert cli.parse(["--dir", "d", "new", "g", "-p", "A"]).dir == "d"
    assert cli.parse(["new", "g", "-p", "A", "--dir", "d"]).dir == "d"
    assert cli.parse(["--dir", "d", "new", "g", "--dir", "e"]).dir == "e"  # the command's own, given last, wins


@pytest.mark.parametrize(("argv", "said"), [
    (["score"], "scorekeeper score: the following arguments are required: FILE"),
    (["score", "--json"], "the following arguments are required: FILE"),
    (["score", "a", "--js0n"], "scorekeeper score: unrecognized arguments: --js0n"),
    (["s.toml", "s.toml"], "scorekeeper: unrecognized arguments: s.toml"),
    (["s.toml", "--json"], "scorekeeper: unrecognized arguments: --json"),
    (["--dir"], "argument --dir: expected one argument"),
    (["-x"], "unrecognized arguments: -x"),
    (["scor"], "no such file or command: 'scor' (did you mean 'score'?)"),
    (["chek", "a.toml"], "no such file or command: 'chek' (did you mean 'check'?)"),
    (["new", "ticket-booth", "-p"], "argument -p/--player: expected one argument"),
], ids=lambda v: " ".join(v) if isinstance(v, list) else "")
def test_a_mistake_is_one_line_and_the_usage(here, argv, said):
    with pytest.raises(cli.UsageError) as error:
        cli.parse(argv)
    first, usage = str(error.value).split("\n", 1)
    assert said in first and usage.startswith("usage: scorekeeper")


def test_a_file_named_like_a_command_is_the_command_unless_it_exists_only_as_a_file(here):
    assert cli.parse(["games"]).func is cli.cmd_games  # `games` is a file here too: the command wins
    assert cli.parse(["./games"]).file == "./games"


def test_only_the_invoked_commands_parser_is_built(monkeypatch):
    built: list[str] = []
    spied = {name: (line, lambda parser, name=name, setup=setup: built.append(name) or setup(parser))
             for name, (line, setup) in cli.COMMANDS.items()}
    monkeypatch.setattr(cli, "COMMANDS", spied)
    args = cli.parse(["score", "a.toml", "--json"])
    assert args.func is cli.cmd_score and built == ["score"]


@pytest.mark.parametrize("argv", [["a\nb"], ["\x1b[31m"], ["score", "x", "--a\nb\x1b[1m"], ["\x1b]0;owned\x07"],
                                  ["--dir", "d", "new", "ticket-booth", "--title\n"], ["-\u202ex"]],
                         ids=["line feed", "colour", "option", "title bar", "new", "bidi"])
def test_the_users_words_in_a_mistake_are_escaped(tmp_path, argv):
    """Through the real entry point: the message is one line (then the usage, if any); no byte of the words drives the
    terminal (a line feed would forge a line, an escape sequence recolour it or set its title)."""
    env = {**os.environ, "SCOREKEEPER_HOME": str(tmp_path)}
    result = subprocess.run([sys.executable, "-m", "scorekeeper", *argv], capture_output=True, text=True,
                            cwd=tmp_path, env=env, timeout=30)
    assert result.returncode == 1 and result.stdout == ""
    lines = result.stderr.splitlines()
    assert lines[0].startswith("scorekeeper") and all(line.startswith(("usage: ", " ")) for line in lines[1:])
    assert not any(is_control(ch) for ch in result.stderr.replace("\n", "")), result.stderr
    assert "Traceback" not in result.stderr


def test_every_command_is_listed_and_has_its_own_complete_help(capsys):
    with pytest.raises(SystemExit):
        cli.main(["--help"])
    listing = capsys.readouterr().out
    assert listing.startswith("usage: scorekeeper [--dir DIR] [FILE | COMMAND ...]")
    for name, (line, _setup) in cli.COMMANDS.items():
        assert f"    {name} " in listing and " ".join(line.split()[:3]) in listing
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
        for argv in (["--help"], ["new", "--help"]):
            with pytest.raises(SystemExit):
                cli.main(argv)
            assert max(len(line) for line in capsys.readouterr().out.splitlines()) <= int(columns) - 2
    assert cli_parser.terminal_columns() == 140


def test_printed_text_escapes_exactly_the_control_characters(capsys):
    every = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c <= 0xDFFF)
    cli.print(every, end="")
    expected = "".join(ch if ch == "\n" or not is_control(ch) else f"\\u{ord(ch):04x}" for ch in every)
    assert capsys.readouterr().out == expected


def test_scoring_goes_through_the_one_parser(monkeypatch, capsys):
    """`score FILE` is read by the parser like every other line (there is no second way in front of it)."""
    read: list[list[str]] = []
    parse = cli.parse
    monkeypatch.setattr(cli, "parse", lambda argv: read.append(argv) or parse(argv))
    assert cli.main(["score", str(THREE)]) == 0
    assert read == [["score", str(THREE)]] and "Winner: Bo" in capsys.readouterr().out
