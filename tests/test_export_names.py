"""Issue 22: an export (CSV, Markdown, JSON, BG Stats; the app's and the command's) shows a session file name that is
not UTF-8 escaped as the home list does (`\\x9b`), never as the lone surrogate `\\udc9b` that stands for the byte in
Python's text, and never crashes on it."""

from __future__ import annotations

import csv
import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from textual.widgets import Static

from scorekeeper import files, games
from scorekeeper.after import export
from scorekeeper.tui.screens.export import ExportScreen
from scorekeeper.tui.screens.standings import StandingsScreen
from tests.test_tui_support import burst, pilot_test, running

SAMPLE = Path(__file__).resolve().parent.parent / "sample_sessions" / "ticket-booth-3p.toml"
RAW = b"bad\x9bname.toml"
BAD = os.fsdecode(RAW)  # "bad\udc9bname.toml"
SHOWN = "bad\\x9bname.toml"


def bad_file(folder: Path) -> Path:
    """The sample under a name that is not UTF-8."""
    folder.mkdir(parents=True, exist_ok=True)
    shutil.copy(SAMPLE, os.path.join(os.fsencode(folder), RAW))
    return folder / BAD


def sheet_of(path: Path) -> games.Sheet:
    session, problems = files.load(path)
    return games.score(session, problems)


def test_shown_file_escapes_the_bytes_and_controls_of_a_name():
    assert export.shown_file(BAD) == SHOWN
    assert export.shown_file("tab\tline\nfeed.toml") == "tab\\x09line\\x0afeed.toml"
    assert export.shown_file("Zoë 日本.toml") == "Zoë 日本.toml"


@pytest.mark.parametrize("to", ["csv", "md", "json", "bgstats"])
def test_every_export_shows_the_name_escaped(tmp_path: Path, to: str):
    path = bad_file(tmp_path)
    text = export.export([(sheet_of(path), str(path))], to, bom=to == "csv")
    assert "\udc9b" not in text and "\\udc9b" not in text
    text.encode("utf-8")  # writable as it is: no lone surrogate left
    if to == "csv":
        rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff"))))
        assert {r[0] for r in rows[1:]} == {str(tmp_path / SHOWN)}
    if to == "json":
        assert json.loads(text)["file"] == str(tmp_path / SHOWN)


def test_the_bgstats_id_of_a_name_that_is_not_utf8_is_its_bytes(tmp_path: Path):
    """A session dated by a day only puts its file name into the play's id: hashed as its bytes, no crash."""
    path = bad_file(tmp_path)
    text = path.read_text(encoding="utf-8").replace("started = 2026-11-27 19:30:00", "started = 2026-11-27")
    assert "started = 2026-11-27\n" in text
    path.write_text(text, encoding="utf-8")
    play = export.bgstats_play(sheet_of(path), str(path))
    assert len(play["sourcePlayId"]) == 16


@pytest.mark.parametrize("to", ["csv", "md", "json"])
def test_the_export_command_to_stdout_and_to_a_file(tmp_path: Path, to: str):
    path = bad_file(tmp_path / "s")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("PYTHONUTF8",)}
    out = tmp_path / f"out.{to}"
    for args in (["export", "--to", to, path.name], ["export", "--to", to, "-o", str(out), path.name]):
        done = subprocess.run([sys.executable, "-m", "scorekeeper", *args], cwd=path.parent, capture_output=True,
                              timeout=60, env={**env, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
        printed = done.stdout + done.stderr
        assert done.returncode == 0 and b"Traceback" not in printed, printed[-2000:]
        assert b"udc9b" not in printed and b"\x9b" not in printed
        if to == "csv" and "-o" not in args:
            assert SHOWN.encode() in printed
        if to == "json" and "-o" not in args:
            assert json.loads(done.stdout)["file"] == SHOWN
    written = out.read_bytes()
    assert b"udc9b" not in written and b"\x9b" not in written
    if to == "csv":
        assert SHOWN.encode() in written
    if to == "json":
        assert json.loads(written)["file"] == SHOWN


@pilot_test
async def test_the_apps_export_writes_and_shows_the_name_escaped(tmp_path: Path) -> None:
    path = bad_file(tmp_path)
    async with running(tmp_path, path) as (app, pilot):
        assert isinstance(app.screen, StandingsScreen)
        await burst(pilot, "x")
        screen = app.screen
        assert isinstance(screen, ExportScreen)
        for key, ext in (("c", "csv"), ("m", "md"), ("j", "json")):
            await burst(pilot, key)
            shown = str(screen.query_one("#written", Static).render())
            assert "✓" in shown and SHOWN.removesuffix(".toml") in shown and "\udc9b" not in shown, shown
            written = (tmp_path / "exports" / f"{BAD.removesuffix('.toml')}.{ext}").read_bytes()
            assert b"udc9b" not in written and b"\x9b" not in written
            if ext == "csv":
                assert SHOWN.encode() in written
            if ext == "json":
                assert json.loads(written)["file"] == SHOWN


def test_score_json_names_the_file_as_the_exports_do(tmp_path: Path):
    """`score --json` and `export --to json` give one name for a file that is not UTF-8: `\\x9b`, never `\\udc9b`."""
    path = bad_file(tmp_path / "s")
    env = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k not in ("PYTHONUTF8",)}
    done = subprocess.run([sys.executable, "-m", "scorekeeper", "score", "--json", path.name], cwd=path.parent,
                          capture_output=True, timeout=60, env={**env, "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"})
    assert done.returncode == 0 and b"udc9b" not in done.stdout, done.stdout[-2000:]
    assert json.loads(done.stdout)["file"] == SHOWN
