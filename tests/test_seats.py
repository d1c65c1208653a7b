"""The table's seats (SPEC §5, "join as one seat"): the registry's rules and file, the signed seat links, the seat
screen (its player's inputs only, the others' values hidden until the Summary), two seats typing at once, and the
host's "let it?"."""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from scorekeeper.model.session import Round
from scorekeeper.tui.app import ScorekeeperApp
from scorekeeper.tui.screens.dialogs import ConfirmScreen
from scorekeeper.tui.screens.seat import SeatCard, SeatScreen
from scorekeeper.web import seats
from scorekeeper.web.seats import HELD, REFUSED, STALE, TAKEN, Seat
from tests.test_tui_support import burst, fixed_now, pilot_test, running, saved, settle, write_session

A, B = "a" * 16, "b" * 16
SECRET = b"k" * 32


# -- the registry's rules (pure) ---------------------------------------------------------------------------------
def test_a_free_seat_is_held_and_a_second_phone_is_told_it_is_taken() -> None:
    table, outcome = seats.claim({}, "Ana", A, 100.0)
    assert outcome == HELD and seats.holds(table, "Ana", A, 100.0)
    table, outcome = seats.claim(table, "Ana", A, 102.0)  # a beat
    assert outcome == HELD and table["Ana"].since == 100.0 and table["Ana"].beat == 102.0
    table, outcome = seats.claim(table, "Ana", B, 103.0)
    assert outcome == TAKEN and seats.holds(table, "Ana", A, 103.0) and table["Ana"].asker == B
    assert [player for player, _ in seats.asks(table, 103.0)] == ["Ana"]
    table, outcome = seats.claim(table, "Ana", A, 104.0)  # the holder's beat keeps the ask for the host
    assert outcome == HELD and table["Ana"].asker == B
    table, outcome = seats.claim(table, "Bo", B, 103.0)  # another seat is free
    assert outcome == HELD


def test_only_the_hosts_leave_hands_a_seat_over() -> None:
    table, _ = seats.claim({}, "Ana", A, 100.0)
    table, _ = seats.claim(table, "Ana", B, 101.0)
    kept = seats.answer(table, "Ana", False, 102.0)
    assert seats.holds(kept, "Ana", A, 102.0) and seats.asks(kept, 102.0) == []
    kept, outcome = seats.claim(kept, "Ana", B, 103.0)
    assert outcome == REFUSED  # told once
    kept, outcome = seats.claim(kept, "Ana", B, 104.0)
    assert outcome == TAKEN  # and may ask again
    given = seats.answer(table, "Ana", True, 102.0)
    assert seats.holds(given, "Ana", B, 102.0) and not seats.holds(given, "Ana", A, 102.0)
    given, outcome = seats.claim(given, "Ana", A, 103.0)
    assert outcome == TAKEN  # the first phone is now the one asking


def test_a_phone_that_vanished_frees_its_seat_and_one_leaves_only_its_own() -> None:
    table, _ = seats.claim({}, "Ana", A, 100.0)
    assert seats.claim(table, "Ana", B, 100.0 + STALE - 1)[1] == TAKEN
    table, outcome = seats.claim(table, "Ana", B, 100.0 + STALE + 1)
    assert outcome == HELD and table["Ana"].phone == B
    assert seats.release(table, "Ana", A) == table
    assert seats.release(table, "Ana", B) == {}


def test_the_registry_file_is_read_like_a_cache() -> None:
    table = {"Ana": Seat(A, 1.0, 2.0, B, 2.5), "Bo": Seat(B, 1.0, 2.0, refused=A)}
    assert seats.parse(seats.dump(table)) == table
    good = json.loads(seats.dump(table))
    for bad in ("", "not json", "[]", '{"format": 2, "seats": {}}', "x" * (seats.MAX_BYTES + 1)):
        assert seats.parse(bad) == {}
    for seat in ({"phone": "A" * 16, "since": 1, "beat": 2}, {"phone": A, "since": "1", "beat": 2},
                 {"phone": A, "since": 1, "beat": float("inf")}, {"phone": A, "since": 1, "beat": True},
                 {"phone": A, "since": 1, "beat": 2, "extra": 1}, "held", None):
        assert seats.parse(json.dumps({**good, "seats": {"Ana": seat}}, allow_nan=True)) == {}
    odd = seats.parse(json.dumps({**good, "seats": {"Ana": {"phone": A, "since": 1, "beat": 2, "asker": "x!"}}}))
    assert odd == {"Ana": Seat(A, 1.0, 2.0)}  # a garbled ask is dropped, the seat kept


def test_the_registry_is_written_atomically_beside_the_session(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    now = time.time()
    table, outcome = seats.update(path, lambda s: seats.claim(s, "Ana", A, now))
    assert outcome == HELD and seats.load(path) == table
    registry = seats.registry_path(path)
    assert registry.parent == tmp_path / ".seats"
    assert registry.is_file() and registry.stat().st_mode & 0o777 == 0o600
    assert [p.name for p in registry.parent.iterdir()] == [registry.name]  # no temporary file left
    registry.write_text("\x1b[31m{garbage", encoding="utf-8")
    assert seats.load(path) == {}
    assert seats.update(path, lambda s: seats.claim(s, "Ana", B, now))[1] == HELD


# -- seat links (pure) -------------------------------------------------------------------------------------------
def test_a_seat_link_opens_that_seat_of_that_session_only() -> None:
    token = seats.seat_token(SECRET, "game night.toml", "Zoë")
    assert seats.read_seat_token(SECRET, token) == ("game night.toml", "Zoë")
    assert seats.read_seat_token(b"j" * 32, token) is None  # another server's (another start's) secret
    kind, file, player, mac = token.split(".")
    other_player = seats.seat_token(SECRET, "game night.toml", "Bo").split(".")[2]
    other_file = seats.seat_token(SECRET, "other.toml", "Zoë").split(".")[1]
    for tampered in (f"{kind}.{file}.{other_player}.{mac}", f"{kind}.{other_file}.{player}.{mac}",
                     f"{kind}.{file}.{player}.{mac[:-1]}{'A' if mac[-1] != 'A' else 'B'}", f"{kind}.{file}.{player}",
                     f"table.{file}.{player}.{mac}", token + ".x", "seat...", ""):
        assert seats.read_seat_token(SECRET, tampered) is None, tampered
    for name in ("../x.toml", ".hidden.toml", "a/b.toml", "notes.txt"):  # signed or not, never outside the folder
        assert seats.read_seat_token(SECRET, seats.seat_token(SECRET, name, "Ana")) is None


# -- the seat screen ---------------------------------------------------------------------------------------------
BO = {"routes": {"4": 3, "5": 2}, "longest_path": 17,
      "tickets": [{"points": 13, "completed": True, "name": "Duluth – Houston"},
                  {"points": 11, "completed": False, "name": "Portland – Phoenix"}]}


def card_text(app: ScorekeeperApp) -> str:
    return app.screen.query_one(SeatCard).plain()


@pilot_test
async def test_a_seat_types_its_own_values_and_sees_the_others_only_at_the_summary(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rounds=(Round(players={"Bo": BO}),))
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 60)) as pilot:
        await settle(pilot)
        assert isinstance(app.screen, SeatScreen)
        seen = [card_text(app)]
        assert "Routes" in seen[0] and "Bo ✓" in seen[0]
        await burst(pilot, "2", "enter", "3", *["enter"] * 8)  # routes: 2 of length 1, 3 of length 2
        seen.append(card_text(app))
        assert "Destination tickets" in seen[-1] and "Bo ✓" in seen[-1]
        await burst(pilot, "-8 Denver – El Paso", "enter", "enter")  # a line, then the empty last line: on
        seen.append(card_text(app))
        assert "Longest path" in seen[-1] and "Bo ✓" in seen[-1]
        await burst(pilot, "7")
        seen.append(card_text(app))
        for text in seen:  # Bo's values never drawn before the Summary: not his tickets, routes or path
            assert "Duluth" not in text and "Portland" not in text and "17" not in text and "13" not in text
        await burst(pilot, "enter")  # on to the Summary
        summary = card_text(app)
        assert "Summary" in summary and "Bo" in summary and "Duluth" in summary, summary
    session, _sheet = saved(path)
    assert session.round(1).players["Ana"]["routes"] == {"1": 2, "2": 3}
    assert session.round(1).players["Ana"]["longest_path"] == 7
    assert session.round(1).players["Ana"]["tickets"] == [{"points": 8, "completed": False, "name": "Denver – El Paso"}]
    assert session.round(1).players["Bo"] == BO  # untouched
    assert seats.load(path) == {}  # the seat is free again once the phone left


@pilot_test
async def test_at_the_summary_nothing_of_the_others_shows_before_everyone_is_done(tmp_path: Path) -> None:
    """Ana has filled every step, Bo not his longest path yet: nothing of his shows, he is waited for."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rounds=(Round(players={"Bo": {
        "routes": {"4": 3, "5": 2}, "tickets": [{"points": 17, "completed": True}]},
        "Ana": {"routes": {"5": 1}, "tickets": [], "longest_path": 5}}),))
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 60)) as pilot:
        await settle(pilot)
        text = card_text(app)
        assert "Summary" in text and "Waiting for: Bo" in text and "17" not in text and "+21" not in text, text
        assert "(you)" not in text


@pilot_test
async def test_two_seats_typing_at_once_both_land_in_the_file(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    ana = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    bo = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Bo")
    async with ana.run_test(size=(40, 50)) as a, bo.run_test(size=(40, 50)) as b:
        await settle(a)
        await settle(b)
        for digit_a, digit_b in (("4", "3"), ("1", "7")):  # the score track (the default way of entering routes)
            await burst(a, digit_a)
            await burst(b, digit_b)
        await settle(a)
        await settle(b)
        ana.watch_file()
        bo.watch_file()
        await settle(a)
        await settle(b)
        assert "Ana ✓" in card_text(bo) and "Bo ✓" in card_text(ana)  # each sees the other's progress, live
    session, _ = saved(path)
    assert session.round(1).players["Ana"]["route_points"] == 41
    assert session.round(1).players["Bo"]["route_points"] == 37


@pilot_test
async def test_a_second_phone_waits_for_the_hosts_leave(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    now = time.time()
    seats.update(path, lambda s: seats.claim(s, "Ana", A, now))
    phone = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with phone.run_test(size=(40, 40)) as p:
        await settle(p)
        screen = phone.screen
        assert isinstance(screen, SeatScreen) and screen.state == "asking"
        assert "seat is taken" in card_text(phone) and "since" in card_text(phone)
        await burst(p, "5", "enter")  # typing does nothing without the seat
        assert "route_points" not in saved(path)[0].round(1).players.get("Ana", {})
        async with running(tmp_path, path, watch=0.05) as (host, h):
            seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))  # the first phone still beats
            host.watch_file()
            await settle(h)
            assert isinstance(host.screen, ConfirmScreen)
            assert "Ana's seat" in host.screen.question.plain
            await burst(h, "y")
        assert seats.holds(seats.load(path), "Ana", screen.phone, time.time())
        screen.hold()
        await settle(p)
        assert screen.state == "held"
        await burst(p, "5", "enter")
    assert saved(path)[0].round(1).players["Ana"]["route_points"] == 5


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes a read-only folder")
def test_a_read_only_folder_gives_no_seat(tmp_path: Path) -> None:
    """A read-only folder: the seat cannot be written, OSError (the screen says why: tests/test_seat_registry.py)."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"])
    tmp_path.chmod(0o500)
    try:
        with pytest.raises(OSError):
            seats.update(path, lambda s: seats.claim(s, "Ana", A, time.time()))
    finally:
        tmp_path.chmod(0o700)


@pilot_test
async def test_own_points_that_depend_on_the_others_wait_for_the_summary(tmp_path: Path) -> None:
    """Ana's longest path beats Bo's: the bonus's reason ("next best 5") would tell Bo's path: not shown."""
    path = write_session(tmp_path, "ticket-to-ride", ["Ana", "Bo"], rounds=(Round(players={"Bo": {
        "routes": {"5": 2}, "longest_path": 5}, "Ana": {"routes": {"5": 2}, "tickets": []}}),))
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Ana")
    async with app.run_test(size=(40, 60)) as pilot:
        await settle(pilot)
        assert "Longest path" in card_text(app)  # her first step not filled
        await burst(pilot, "7")
        text = card_text(app)
        assert "Compared with the others at the" in text and "next best" not in text, text
        assert "+10 the longest" not in text
    assert saved(path)[0].round(1).players["Ana"]["longest_path"] == 7


@pilot_test
async def test_once_a_round_is_full_the_seat_goes_on_to_the_next(tmp_path: Path) -> None:
    from dataclasses import replace

    from scorekeeper import files, store

    sample, _ = files.load(Path(__file__).parent.parent / "sample_sessions" / "ticket-booth-in-progress.toml")
    full = replace(sample, rounds=sample.rounds[:1])
    first = full.rounds[0]
    path = tmp_path / "booth.toml"
    store.save(path, replace(full, rounds=(replace(first, players={
        p: e for p, e in first.players.items() if p != "Max"}),)))
    app = ScorekeeperApp(tmp_path, path, now=fixed_now, seat="Kim")
    async with app.run_test(size=(40, 60)) as pilot:
        await settle(pilot)
        assert "Kim · Round 1 of 3" in card_text(app) and "Max …" in card_text(app)
        store.save(path, full)  # Max's values typed on the host's screen: the round is full
        app.watch_file()
        await settle(pilot)
        assert "Kim · Round 2 of 3" in card_text(app), card_text(app)
