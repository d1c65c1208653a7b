"""Session files: broken files are refused with their place named; saves are atomic; bytes round-trip."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

import pytest

from scorekeeper import files, store
from scorekeeper.cli import main
from scorekeeper.model.session import Session

GOOD = '''format = 1
game = "ticket-booth"
players = ["Ana", "Bo", "Cy"]

[rules]
rounds = 3

[[rounds]]
[rounds.players.Ana]
attractions = { "1" = 1, "8" = 5 }
tickets = 4
[rounds.players.Bo]
tickets = 3
'''

# (name, text, the place the message must name, a word the message must contain)
BROKEN = [
    ("not-toml", "format = 1\ngame = \"ticket-booth\nplayers = []\n", "line 2", "not valid TOML"),
    ("float-for-int", GOOD.replace("tickets = 4", "tickets = 4.5"), 'rounds[1].players."Ana".tickets (line 11)',
     "decimal number"),
    ("bool-for-int", GOOD.replace("tickets = 4", "tickets = true"), 'rounds[1].players."Ana".tickets', "true/false"),
    ("negative", GOOD.replace("tickets = 3", "tickets = -1"), 'rounds[1].players."Bo".tickets (line 13)',
     "0 or more"),
    ("count-above-card-count", GOOD.replace('"8" = 5', '"8" = 9'), 'rounds[1].players."Ana".attractions."8"',
     "from 0 to 8"),
    ("attraction-out-of-range", GOOD.replace('"8" = 5', '"12" = 1'), 'rounds[1].players."Ana".attractions."12"',
     "1 to 11"),
    ("special-held-twice", GOOD.replace("tickets = 4", "tickets = 4\nticket_booth = true").replace(
        "tickets = 3", "tickets = 3\nticket_booth = true"), 'rounds[1].players."Bo".ticket_booth', "at most one"),
    ("player-not-listed", GOOD.replace("[rounds.players.Bo]", "[rounds.players.Bob]"), 'rounds[1].players."Bob"',
     "did you mean 'Bo'"),
    ("duplicate-names", GOOD.replace('["Ana", "Bo", "Cy"]', '["Ana", "Bo", "ana"]'), "players[3]", "twice"),
    ("empty-name", GOOD.replace('["Ana", "Bo", "Cy"]', '["Ana", "Bo", " "]'), "players[3]", "empty"),
    ("unknown-key", GOOD.replace("tickets = 3", "tikets = 3"), 'rounds[1].players."Bo".tikets',
     "did you mean 'tickets'"),
    ("unknown-top-key", GOOD.replace("format = 1", "format = 1\ntitel = \"x\""), "titel", "did you mean 'title'"),
    ("unknown-game", GOOD.replace("ticket-booth", "ticket-both"), "game", "did you mean 'ticket-booth'"),
    ("future-format", GOOD.replace("format = 1", "format = 2"), "format", "newer"),
    ("no-format", GOOD.replace("format = 1\n", ""), "format", "no format"),
    ("one-player", GOOD.replace('["Ana", "Bo", "Cy"]', '["Ana"]').split("[[rounds]]")[0], "players", "2 to 5"),
    ("six-players", GOOD.replace('"Cy"]', '"Cy", "Di", "Ed", "Flo"]'), "players", "2 to 5"),
    ("too-many-outhouses", GOOD.replace("tickets = 4", "tickets = 4\nouthouses = 4"),
     'rounds[1].players."Ana".outhouses', "from 0 to 3"),
    ("outhouses-over-three-in-all", GOOD.replace("tickets = 4", "tickets = 4\nouthouses = 2").replace(
        "tickets = 3", "tickets = 3\nouthouses = 2"), "rounds[1]", "3 Outhouse cards"),
    ("too-many-tickets", GOOD.replace("tickets = 4", "tickets = 16"), "rounds[1]", "15 tickets"),
    ("bad-rule", GOOD.replace("rounds = 3", "rounds = 3\nbooth_tie = \"halve\""), "rules.booth_tie",
     "did you mean 'half'"),
    ("rounds-not-tables", "rounds = 3\n" + GOOD.split("[[rounds]]")[0], "rounds", "[[rounds]]"),
    ("name-too-long", GOOD.replace('"Cy"', '"' + "C" * 41 + '"'), "players[3]", "at most 40"),
    ("control-character", GOOD.replace('"Cy"', '"C\\u0007y"'), "players[3]", "control character"),
    ("string-for-bool", GOOD.replace("tickets = 3", "tickets = 3\npiglet_race = \"yes\""),
     'rounds[1].players."Bo".piglet_race', "true or false"),
    ("not-utf8", None, "the file", "UTF-8"),
]


@pytest.mark.parametrize(("name", "text", "place", "word"), BROKEN, ids=[b[0] for b in BROKEN])
def test_broken_file_exits_2_names_the_place_and_is_untouched(tmp_path, capsys, name, text, place, word):
    """`check` and `score` read a file the same way (`cli.load_file`): both refuse it, each saying where and why."""
    path = tmp_path / f"{name}.toml"
    data = b"format = 1\ngame = \"\xff\"\n" if text is None else text.encode()
    path.write_bytes(data)
    before = path.stat().st_mtime_ns
    for command in ("check", "score"):
        assert main([command, str(path)]) == 2, command
        out = capsys.readouterr()
        said = out.out if command == "check" else out.err  # check reports on stdout; score's errors go to stderr
        assert f"{path}: error: " in said and place in said and word in said, (command, said)
        assert "Traceback" not in out.out + out.err
    assert path.read_bytes() == data and path.stat().st_mtime_ns == before


def test_a_good_file_checks_clean(tmp_path, capsys):
    path = tmp_path / "good.toml"
    path.write_text(GOOD)
    assert main(["check", str(path)]) == 0
    assert "ok — 0 errors" in capsys.readouterr().out


def test_missing_file_is_invalid_with_a_message(tmp_path, capsys):
    assert main(["score", str(tmp_path / "nope.toml")]) == 2
    assert "cannot read the file" in capsys.readouterr().err


def test_load_then_save_unchanged_gives_the_same_bytes(tmp_path):
    session, _ = files.load(_write(tmp_path, GOOD))
    first = tmp_path / "a.toml"
    store.save(first, session)
    again, _ = files.load(first)
    second = tmp_path / "b.toml"
    store.save(second, again)
    assert first.read_bytes() == second.read_bytes()


def test_names_with_markup_and_quotes_round_trip(tmp_path):
    session = Session(game="ticket-booth", players=('[bold]x[/]', 'Zoë "Z"', "a.b"))
    session = session.with_value(1, '[bold]x[/]', "tickets", 2)
    path = tmp_path / "m.toml"
    store.save(path, session)
    back, _ = files.load(path)
    assert back == session


def test_save_is_atomic_and_leaves_no_temporary_file_on_failure(tmp_path, monkeypatch):
    path = tmp_path / "s.toml"
    session, _ = files.load(_write(tmp_path, GOOD))
    store.save(path, session)
    original = path.read_bytes()

    def boom(fd):
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "fsync", boom)
    with pytest.raises(OSError):
        store.save(path, session.with_value(1, "Cy", "tickets", 1))
    assert path.read_bytes() == original
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


def test_future_format_is_refused_and_never_rewritten(tmp_path, capsys):
    path = _write(tmp_path, GOOD.replace("format = 1", "format = 7"))
    assert main(["score", "--json", str(path)]) == 2
    assert "format 7 is newer" in capsys.readouterr().err


def test_every_problem_is_reported_not_just_the_first(tmp_path, capsys):
    text = GOOD.replace("tickets = 4", "tickets = 4.5").replace("tickets = 3", "tickets = -3")
    assert main(["check", str(_write(tmp_path, text))]) == 2
    out = capsys.readouterr().out
    assert out.count("error:") == 2


def test_line_numbers_are_found_for_sub_tables():
    text = '''format = 1
game = "ticket-booth"
players = ["Ana", "Bo"]

[[rounds]]

[rounds.players.Ana]
tickets = 2

[rounds.players.Ana.attractions]
1 = 1
8 = 9
'''
    _, found = files.parse(text)
    err = [p for p in found if p.is_error][0]
    assert err.path == 'rounds[1].players."Ana".attractions."8"' and err.line == 12


def _write(folder: Path, text: str) -> Path:
    path = folder / "session.toml"
    path.write_text(text)
    return path


# -- the guard before parsing: the first limit broken in the text, at its line ---------------------------------
LONG_NUMBER = "n = " + "9" * 40 + "\n"
LONG_KEY = "a" + ".a" * 20 + " = 1\n"
LONG_TEXT = 'notes = "' + "x" * 20_001 + '"\n'
DEEP = "x = " + "[" * 20 + "]" * 20 + "\n"
LIMITS = {"number": (LONG_NUMBER, "a number of 40 digits"), "key": (LONG_KEY, "a dotted key of more than 16"),
          "text": (LONG_TEXT, "a text of 20,002 characters"), "nesting": (DEEP, "nested more than 16 deep")}


@pytest.mark.parametrize(("first", "second"), list(itertools.permutations(LIMITS, 2)))
def test_the_guard_names_the_first_limit_broken_at_its_line(first, second):
    """Strings and comments set aside (a comment's digits, brackets in a multi-line string are no limit broken),
    the first of two limits broken in the text is named at its line (and of two on one line, the one first)."""
    from scorekeeper.store import reading

    text = 'format = 1\nnotes = """\n[[[[[[[[[[[[[[[[[[[[\n"""\n# a comment ' + "9" * 40 + "\n"
    text += LIMITS[first][0] + "\n" + LIMITS[second][0]
    problem = reading.scan(text).problem
    assert problem is not None and LIMITS[first][1] in problem.message and problem.line == 6
    one_line = LIMITS[second][0].rstrip("\n") + " " + LIMITS[first][0]  # both on line 1: the one written first
    problem = reading.scan(one_line).problem
    assert problem is not None and LIMITS[second][1] in problem.message and problem.line == 1
