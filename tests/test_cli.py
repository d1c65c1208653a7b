"""The command line: score, check, games, new, stats, exit codes, and no Textual in the core."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from scorekeeper import files
from scorekeeper.cli import main

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
THREE = SAMPLES / "ticket-booth-3p.toml"


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_score_json_follows_the_contract(capsys):
    code, out, _ = run(capsys, "score", "--json", str(THREE))
    assert code == 0
    data = json.loads(out)
    assert list(data) == ["file", "game", "title", "players", "rounds", "totals", "ranking", "winners",
                          "tiebreak", "complete", "next", "warnings"]
    assert data["file"] == str(THREE) and data["game"] == "ticket-booth"
    assert data["totals"] == {"Ana": 76, "Bo": 95.5, "Cy": 60}
    assert data["ranking"][0] == {"place": 1, "players": ["Bo"], "total": 95.5, "why": None}
    assert data["winners"] == ["Bo"] and data["complete"] is True and data["next"] is None
    for rnd in data["rounds"]:
        assert set(rnd) == {"number", "complete", "first_player", "points", "items"}
        for player, points in rnd["points"].items():
            assert sum(i["points"] for i in rnd["items"] if i["player"] == player) == points
    assert [r["first_player"] for r in data["rounds"]] == ["Ana", "Bo", "Cy"]


def test_score_json_of_several_files_is_an_array(capsys):
    code, out, _ = run(capsys, "score", "--json", str(THREE), str(SAMPLES / "ticket-booth-5p.toml"))
    assert code == 0
    data = json.loads(out)
    assert isinstance(data, list) and len(data) == 2


def test_score_text_shows_items_totals_and_winner(capsys):
    code, out, _ = run(capsys, "score", str(SAMPLES / "ticket-booth-tiebreak.toml"))
    assert code == 0
    assert "Round 3 — first player: Cy" in out
    assert "Winner: Bo" in out
    assert "Tie-break: Ana and Bo tied on 71; Bo scored more in the last round (27 to 17.5)" in out


def test_score_with_one_bad_file_still_scores_the_others(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("nonsense")
    code, out, err = run(capsys, "score", "--json", str(THREE), str(bad))
    assert code == 2
    assert len(json.loads(out)) == 1 and str(bad) in err


def test_games_lists_every_game_with_steps_and_rules(capsys):
    code, out, _ = run(capsys, "games")
    assert code == 0
    assert "ticket-booth — The Ticket Booth" in out
    assert "booth_tie = \"full\"" in out and "Demolition Derby" in out


def test_new_creates_a_session_in_the_sessions_folder(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    code, out, _ = run(capsys, "new", "ticket-booth", "-p", "Ana", "-p", "Bo", "--title", "Test night",
                       "--rule", "rounds=2", "--rule", "booth_tie=half", "--no-open")
    assert code == 0
    path = Path(out.strip())
    assert path.parent == tmp_path / "home" and path.suffix == ".toml"
    session, _ = files.load(path)
    assert session.players == ("Ana", "Bo") and session.title == "Test night"
    assert session.rules == {"rounds": 2, "booth_tie": "half"}


def test_new_dir_wins_over_the_environment(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "home"))
    code, out, _ = run(capsys, "new", "ticket-booth", "-p", "A", "-p", "B", "--dir", str(tmp_path / "d"), "--no-open")
    assert code == 0 and Path(out.strip()).parent == tmp_path / "d"


@pytest.mark.parametrize("args, word", [
    (["new", "ticket-both", "-p", "A", "-p", "B", "--no-open"], "did you mean 'ticket-booth'"),
    (["new", "ticket-booth", "-p", "A", "--no-open"], "2 to 5"),
    (["new", "ticket-booth", "-p", "A", "-p", "a", "--no-open"], "twice"),
    (["new", "ticket-booth", "-p", "A", "-p", "B", "--rule", "rounds=0", "--no-open"], "1 or more"),
    (["new", "ticket-booth", "-p", "A", "-p", "B", "--rule", "colour=red", "--no-open"], "unknown key"),
    (["score"], "required"),
    (["score", "--bogus", "x.toml"], "unrecognized"),
    (["nosuchfile.toml"], "no such file"),
])
def test_bad_arguments_exit_1_with_a_message(tmp_path, monkeypatch, capsys, args, word):
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path))
    code, out, err = run(capsys, *args)
    assert code == 1
    assert word in err and "Traceback" not in err
    assert not list(tmp_path.glob("*.toml"))


def test_version_comes_from_the_installed_package(capsys):
    from importlib.metadata import version

    with pytest.raises(SystemExit) as exit:
        main(["--version"])
    assert exit.value.code == 0
    assert capsys.readouterr().out == f"scorekeeper {version('scorekeeper-tui')}\n"


def test_the_distribution_is_not_named_like_the_unrelated_pypi_project():
    """`scorekeeper` on PyPI is another program: this one is installed as `scorekeeper-tui` (command and import
    package stay `scorekeeper`), for the three CPythons it is tested on, on Linux and macOS."""
    import tomllib
    from importlib.metadata import entry_points

    from scorekeeper.cli_parser import DISTRIBUTION

    project = tomllib.loads((Path(__file__).resolve().parent.parent / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION == "scorekeeper-tui"
    assert {"Programming Language :: Python :: 3.11", "Programming Language :: Python :: 3.12",
            "Programming Language :: Python :: 3.13", "Operating System :: POSIX :: Linux",
            "Operating System :: MacOS"} <= set(project["classifiers"])
    assert project["requires-python"] == ">=3.11"
    (script,) = [e for e in entry_points(group="console_scripts") if e.name == "scorekeeper"]
    assert script.value == "scorekeeper.cli:main"


def test_on_windows_one_line_says_where_it_runs(monkeypatch, capsys):
    """The locks and signals are POSIX: on Windows the program says so in one line and exits 1, before anything."""
    import scorekeeper.cli as cli

    monkeypatch.setattr(cli.os, "name", "nt")
    assert main(["score", "whatever.toml"]) == 1
    out = capsys.readouterr()
    assert out.out == ""
    assert out.err.count("\n") == 1 and "Linux and macOS" in out.err and "WSL" in out.err


@pytest.mark.parametrize("args, folder, file", [
    ([], "env", None),
    (["--dir", "D"], "D", None),
    ([str(THREE)], "env", THREE),
    ([str(THREE), "--dir", "D"], "D", THREE),
    (["--dir", "D", str(THREE)], "D", THREE),
])
def test_a_file_or_nothing_opens_the_app(tmp_path, monkeypatch, args, folder, file):
    monkeypatch.setenv("SCOREKEEPER_HOME", str(tmp_path / "env"))
    opened = []
    monkeypatch.setattr("scorekeeper.cli.open_app", lambda folder, file: opened.append((folder, file)) or 0)
    args = [str(tmp_path / "D") if a == "D" else a for a in args]
    assert main(args) == 0
    assert opened == [(tmp_path / folder, file)]


def test_dir_before_a_command_holds_for_the_command(tmp_path, capsys):
    code, out, _ = run(capsys, "--dir", str(tmp_path / "d"), "new", "ticket-booth", "-p", "A", "-p", "B", "--no-open")
    assert code == 0 and Path(out.strip()).parent == tmp_path / "d"


def test_a_mistyped_command_is_named_with_the_close_one(capsys):
    code, _, err = run(capsys, "scroe", str(THREE))
    assert code == 1 and "no such file or command: 'scroe' (did you mean 'score'?)" in err


def test_help_lists_every_command(capsys):
    with pytest.raises(SystemExit) as exit:
        main(["--help"])
    out = capsys.readouterr().out
    assert exit.value.code == 0
    assert all(f"    {name} " in out for name in ("new", "score", "check", "stats", "games"))


def test_stats_counts_finished_sessions(tmp_path, capsys):
    for name in ("ticket-booth-3p.toml", "ticket-booth-shared.toml", "ticket-booth-in-progress.toml"):
        (tmp_path / name).write_bytes((SAMPLES / name).read_bytes())
    (tmp_path / "broken.toml").write_text("x = ")
    code, out, _ = run(capsys, "stats", str(tmp_path), "--json")
    assert code == 0
    data = json.loads(out)
    rows = {r["player"]: r for r in data["games"][0]["players"]}
    assert rows["Bo"] == {"player": "Bo", "plays": 1, "wins": 1, "win_rate": 1.0, "longest_streak": 1,
                          "average": 95.5, "best": 95.5, "worst": 95.5, "average_by_player_count": {"3": 95.5},
                          "start_player": {"plays": 0, "wins": 0, "win_rate": 0.0}}
    assert rows["Ivy"]["wins"] == 1 and rows["Jo"]["wins"] == 1  # a shared victory is a win for both
    assert data["unfinished"] == 1 and len(data["invalid"]) == 1
    code, out, _ = run(capsys, "stats", str(tmp_path))
    assert "The Ticket Booth" in out and "win rate" in out


def test_python_dash_m_runs_the_command_line():
    result = subprocess.run([sys.executable, "-m", "scorekeeper", "score", str(THREE)], capture_output=True, text=True)
    assert result.returncode == 0 and "Winner: Bo" in result.stdout


def test_broken_file_through_the_real_entry_point_shows_no_traceback(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text("format = 1\ngame = 3\n")
    result = subprocess.run([sys.executable, "-m", "scorekeeper", "score", str(bad)], capture_output=True, text=True)
    assert result.returncode == 2
    assert "Traceback" not in result.stderr and "unknown game" in result.stderr
