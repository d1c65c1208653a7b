"""The seats' registry and links under faults (issue 32, item 4): `.seats/` entries are read like session files
(regular files only, no links, bounded, never waiting on a FIFO), written 0600; a registry that cannot be kept is a
clear message to the phone; a 210-character session name has seats; a seat link has exactly one spelling."""

from __future__ import annotations

import errno
import json
import os
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.seat import SeatCard, SeatScreen
from scorekeeper.web import seats
from scorekeeper.web.seats import HELD, Seat
from tests.test_tui_support import fixed_now, pilot_test, settle, write_session

A, B = "a" * 16, "b" * 16
SECRET = b"k" * 32
ROOT = Path(__file__).resolve().parent.parent

CLAIM_AND_SAVE = r"""
import sys, time
from pathlib import Path
from scorekeeper import store, files
from scorekeeper.web import seats
path = Path(sys.argv[1])
print(seats.load(path), flush=True)
print(seats.update(path, lambda s: seats.claim(s, "Ana", "a" * 16, time.time()))[1], flush=True)
store.save(path, files.load(path)[0])
print("saved", flush=True)
"""


@pytest.mark.parametrize("kind", ["fifo", "link out"])
def test_a_registry_entry_that_is_no_regular_file_never_blocks_nor_is_read(tmp_path: Path, kind: str) -> None:
    """A FIFO at the entry blocked the seat's app under the folder's lock (every save of the folder stalled); a
    link was read (and its target trusted). Now: no seats read from it, the claim replaces it, the save goes on."""
    folder = tmp_path / "sessions"
    path = write_session(folder, "ticket-to-ride", ["Ana", "Bo"])
    entry = seats.registry_path(path)
    entry.parent.mkdir(mode=0o700)
    outside = tmp_path / "outside.json"
    outside.write_text(seats.dump({"Ana": Seat(B, time.time(), time.time())}))
    if kind == "fifo":
        os.mkfifo(entry)
    else:
        entry.symlink_to(outside)
    try:
        run = subprocess.run([sys.executable, "-c", CLAIM_AND_SAVE, str(path)], capture_output=True, text=True,
                             timeout=20, cwd=ROOT)
    except subprocess.TimeoutExpired:
        pytest.fail(f"a {kind} at the registry's entry blocked the app")
    assert run.stdout.split("\n")[:3] == ["{}", HELD, "saved"], run.stderr
    assert stat.S_ISREG(os.lstat(entry).st_mode) and list(seats.load(path)) == ["Ana"]
    assert seats.load(path)["Ana"].phone == A
    assert json.loads(outside.read_text())["seats"]["Ana"]["phone"] == B  # nothing written through the link


def test_an_oversized_registry_entry_is_not_read(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    entry = seats.registry_path(path)
    entry.parent.mkdir()
    text = seats.dump({"Ana": Seat(A, 1.0, 2.0)})
    entry.write_text(text + " " * (seats.MAX_BYTES + 1 - len(text)))
    assert seats.load(path) == {}


def test_the_registry_is_written_0600_even_over_a_0644_one(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    entry = seats.registry_path(path)
    entry.parent.mkdir()
    entry.write_text(seats.dump({}))
    entry.chmod(0o644)
    seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    assert stat.S_IMODE(os.stat(entry).st_mode) == 0o600
    assert [p.name for p in entry.parent.iterdir()] == [entry.name]


def test_a_fresh_seats_folder_is_private(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    old = os.umask(0)
    try:
        seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    finally:
        os.umask(old)
    entry = seats.registry_path(path)
    assert stat.S_IMODE(os.stat(entry.parent).st_mode) == 0o700 and stat.S_IMODE(os.stat(entry).st_mode) == 0o600


def make_unkeepable(folder: Path, how: str, outside: Path) -> None:
    """`.seats` where seats cannot be kept: a file in its place, a link to a folder outside, a link nowhere."""
    target = folder / seats.FOLDER
    if how == "a file":
        target.write_text("not a folder")
    elif how == "a link out":
        outside.mkdir()
        target.symlink_to(outside)
    else:
        target.symlink_to(folder / "nowhere")


@pytest.mark.parametrize("how", ["a file", "a link out", "a dangling link"])
def test_a_seats_folder_that_is_not_a_real_folder_is_a_clear_refusal(tmp_path: Path, how: str) -> None:
    folder = tmp_path / "sessions"
    path = write_session(folder, "ticket-to-ride", ["Ana", "Bo"])
    outside = tmp_path / "outside"
    make_unkeepable(folder, how, outside)
    with pytest.raises(seats.RegistryError) as refused:
        seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    assert refused.value.strerror is not None and ".seats" in refused.value.strerror
    assert "link or not a folder" in refused.value.strerror
    assert seats.problem(path) == refused.value.strerror
    assert not outside.exists() or list(outside.iterdir()) == []  # nothing written outside the folder
    assert not (folder / "nowhere").exists()
    assert seats.load(path) == {}


def test_a_read_only_folder_is_a_clear_refusal(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read-only (simulated: the tests may run as root, which writes anyway)."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    real_open, real_mkdir = os.open, os.mkdir

    def read_only_open(name: str, flags: int, *args: object, **kwargs: object) -> int:
        if flags & os.O_CREAT:
            raise OSError(errno.EROFS, "Read-only file system", name)
        return real_open(name, flags, *args, **kwargs)  # type: ignore[arg-type]

    def read_only_mkdir(name: str, *args: object, **kwargs: object) -> None:
        raise OSError(errno.EROFS, "Read-only file system", name)

    monkeypatch.setattr(os, "open", read_only_open)
    monkeypatch.setattr(os, "mkdir", read_only_mkdir)
    with pytest.raises(seats.RegistryError) as refused:
        seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    assert refused.value.strerror == "the seats cannot be kept: the sessions folder cannot be written (it is read-only)"
    assert seats.problem(path) == refused.value.strerror
    monkeypatch.setattr(os, "mkdir", real_mkdir)
    (tmp_path / seats.FOLDER).mkdir()
    assert seats.problem(path) == refused.value.strerror  # the folder is there, but a file cannot be made in it


def test_an_entry_that_is_a_folder_is_a_clear_refusal(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    entry = seats.registry_path(path)
    (entry / "x").mkdir(parents=True)
    with pytest.raises(seats.RegistryError, match="entry in .seats is a folder"):
        seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    assert seats.problem(path) is not None and "is a folder" in seats.problem(path)  # type: ignore[operator]
    assert seats.problem(write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], name="other.toml")) is None


@pilot_test
async def test_the_phone_is_told_why_it_has_no_seat_not_that_the_seat_is_taken(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    path = write_session(folder, "ticket-to-ride", ["Ana", "Bo"])
    make_unkeepable(folder, "a file", tmp_path / "outside")
    app = ScorekeeperApp(folder, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 40)) as pilot:
        await settle(pilot)
        screen = app.screen
        assert isinstance(screen, SeatScreen)
        text = screen.query_one(SeatCard).plain()
        assert "seat is taken" not in text and "cannot be kept" in text and ".seats" in text, text
        (folder / seats.FOLDER).unlink()  # the host removes it: the next beat takes the seat
        screen.hold()
        await settle(pilot)
        assert screen.state == "held"


def test_a_long_session_name_has_seats(tmp_path: Path) -> None:
    """A 210-character file name (some letters two bytes: 240 bytes of the 255 a name may have)."""
    name = "Soirée " * 29 + "x.toml"
    assert len(name) == 209 and len(name.encode()) == 238
    name = "é" + name
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], name=name)
    table, outcome = seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    assert outcome == HELD and seats.load(path) == table
    assert seats.plain_name(name) and seats.read_seat_token(SECRET, seats.seat_token(SECRET, name, "Ana")) == (
        name, "Ana")
    other = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], name=name[:-6] + "y.toml")
    assert seats.load(other) == {} and seats.registry_path(other) != seats.registry_path(path)
    assert all(len(p.name) <= 64 for p in (tmp_path / seats.FOLDER).iterdir())


@given(st.text(min_size=1, max_size=60).map(lambda s: s.replace("/", "_").replace("\0", "_").lstrip(".") + ".toml"),
       st.text(min_size=1, max_size=40), st.data())
@settings(max_examples=300, deadline=None)
def test_a_seat_link_has_exactly_one_spelling(file: str, player: str, data: st.DataObject) -> None:
    """Any change of one letter of a link opens nothing (base64's padding bits gave `Wm_Dqw` a twin, `Wm_Dqx`)."""
    token = seats.seat_token(SECRET, file, player)
    if seats.read_seat_token(SECRET, token) is None:  # a name no seat may open
        return
    at = data.draw(st.integers(0, len(token) - 1))
    letter = data.draw(st.sampled_from("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_=."))
    spelled = token[:at] + letter + token[at + 1:]
    if spelled != token:
        assert seats.read_seat_token(SECRET, spelled) is None, (token, spelled)
    assert seats.read_seat_token(SECRET, token + "=") is None


def test_the_twin_spelling_of_the_issue_opens_nothing() -> None:
    kind, file, player, mac = seats.seat_token(SECRET, "a.toml", "Zo").split(".")
    assert player == "Wm8"  # "Zo": its last letter carries two padding bits
    for twin in ("Wm9", "Wm-", "Wm_"):
        assert seats.read_seat_token(SECRET, f"{kind}.{file}.{twin}.{mac}") is None, twin
    assert seats.read_seat_token(SECRET, f"{kind}.{file}.{player}.{mac}") == ("a.toml", "Zo")
