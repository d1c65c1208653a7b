"""Five phones at the table (Chromium, 390×844 at device scale 3): each joins one Ticket to Ride round as its own
seat and they type their own tickets at once; the file holds all five; each page shows the others' progress but
not their values until the Summary."""

from __future__ import annotations

import os
import re
import time
import tomllib
from pathlib import Path
from typing import Any

import pytest

from tests.test_serve import CHROMIUM, HOOK, LAUNCH_ARGS, Phone, loopback_only, start
from tests.test_tui_support import write_session

TABLE = [  # player, ticket typed, longest path
    ("Ana", "8 Denver – El Paso", 5), ("Bo", "11 Portland – Phoenix", 6), ("Cy", "9 Chicago – Santa Fe", 7),
    ("Dee", "13 Duluth – Houston", 8), ("Eli", "-4 Calgary – Helena", 9),
]
CITY = {player: ticket.split()[1] for player, ticket, _ in TABLE}


def open_seat(page: Any, url: str, player: str) -> Phone:
    """A page that has joined as the player's seat (its link now the seat's own)."""
    page.add_init_script(HOOK)
    page.goto(url)
    page.wait_for_url(re.compile(r"/seat[.]"), timeout=20_000)
    page.wait_for_function("window.__term !== undefined", timeout=20_000)
    phone = Phone(page, Path("."))
    phone.wait_for(f"{player} · Round", timeout=60)
    return phone


def at_once(phones: list[Phone], keys: list[list[str]]) -> None:
    """Each phone its own keys, one key of each phone in turn (all typing at the same time)."""
    for i in range(max(map(len, keys))):
        for phone, mine in zip(phones, keys, strict=True):
            if i < len(mine):
                key = mine[i]
                if len(key) == 1:
                    phone.page.keyboard.type(key)  # a character (an en dash too) as the phone's keyboard sends it
                else:
                    phone.page.keyboard.press(key)


def chars(text: str) -> list[str]:
    return list(text)


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                    reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it; under CI it must run)")
def test_five_phones_each_a_seat_of_one_round(tmp_path: Path) -> None:
    from playwright.sync_api import sync_playwright

    folder = tmp_path / "sessions"
    path = write_session(folder, "ticket-to-ride", [p for p, _, _ in TABLE], name="ttr.toml")
    server = start(folder)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
            pages = []
            for _ in TABLE:
                context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=3,
                                              is_mobile=True, has_touch=True)
                loopback_only(context)
                pages.append(context.new_page())
            # the first phone joins as a person does: the table's page, the session, a tap on "Join as a seat"
            first = Phone(pages[0], tmp_path)
            pages[0].add_init_script(HOOK)
            pages[0].goto(server.url)
            first.wait_for("Ana, Bo")
            first.tap("Ana, Bo")
            first.wait_for("Routes")
            first.tap("Join as a seat")
            first.wait_for("Join as (this phone")
            first.tap_at(re.compile(r"▊ (Ana)\s"))  # the choice in the list, not the row behind it
            pages[0].wait_for_url(re.compile(r"/seat[.]"), timeout=20_000)
            assert server.token not in pages[0].url
            pages[0].wait_for_function("window.__term !== undefined", timeout=20_000)
            phones = [first]
            first.wait_for("Ana · Round", timeout=60)
            # the others open the link the app's "Join as" opens
            for page, (player, _, _) in zip(pages[1:], TABLE[1:], strict=True):
                phones.append(open_seat(page, f"{server.url}join?file=ttr.toml&seat={player}", player))
            for phone in phones:
                assert phone.page.evaluate("window.__term.cols") >= 40
                phone.tap("· Round")  # a finger on the page: its keyboard types into it

            # routes (9 on the score track, the default way), then the tickets, all typing at once
            at_once(phones, [["9", "Enter"] for _ in TABLE])
            for phone in phones:
                phone.wait_for("Destination tickets")
            at_once(phones, [[*chars(ticket), "Enter", "Enter"] for _, ticket, _ in TABLE])
            for phone in phones:
                phone.wait_for("Longest path")
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline and not all(
                    on_disk(path, player).get("tickets") for player, _, _ in TABLE):
                time.sleep(0.1)
            for player, ticket, _ in TABLE:
                (card,) = on_disk(path, player)["tickets"]
                assert card["name"] == ticket.split(" ", 1)[1] and abs(card["points"]) == abs(int(ticket.split()[0]))
            for phone, (player, _, _) in zip(phones, TABLE, strict=True):  # the others' progress, not their values
                phone.page.keyboard.press("PageUp")  # back to the tickets: everyone's done (✓), nothing of theirs
                phone.wait_for("Destination tickets")
                marks = " ".join(f"{other} ✓" for other, _, _ in TABLE if other != player)
                phone.wait_for(marks, timeout=10)
                text = phone.text()
                assert CITY[player] in text
                for other, _, _ in TABLE:
                    if other != player:
                        assert CITY[other] not in text, (player, other, text)
                phone.page.keyboard.press("PageDown")
                phone.wait_for("Longest path")

            at_once(phones, [[str(n), "Enter"] for _, _, n in TABLE])
            for phone in phones:
                phone.wait_for("Summary")
                deadline = time.monotonic() + 20  # every player's total, once the round is full
                while time.monotonic() < deadline and ("Waiting for" in phone.text() or "points" not in phone.text()):
                    time.sleep(0.1)
                text = phone.text()
                assert all(f"{other}  " in text for other, _, _ in TABLE), text
                assert "points" in text and "Waiting for" not in text
            phones[1].shot("serve-phone-seat-summary.png") if os.environ.get("SCOREKEEPER_SCREENSHOTS") else None
            browser.close()
        for player, _, n in TABLE:
            assert on_disk(path, player)["longest_path"] == n and on_disk(path, player)["route_points"] == 9
    finally:
        output = server.stop() if server.proc.poll() is None else "".join(server.output)
    assert "Traceback" not in output


def on_disk(path: Path, player: str) -> dict[str, Any]:
    """A player's table of round 1 in the file now."""
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, tomllib.TOMLDecodeError):
        return {}
    rounds = data.get("rounds") or [{}]
    return dict(rounds[0].get("players", {}).get(player, {}))
