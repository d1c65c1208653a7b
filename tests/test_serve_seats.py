"""`serve` and the table's seats: "join as" signs a seat link that opens that seat only (no table token in it, a
tampered one is 403), `--host 0.0.0.0` still needs the token, five phones and the host fit the caps."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import selectors
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import aiohttp
import pytest

from scorekeeper import seats
from tests.test_serve import FORBIDDEN, Served, start
from tests.test_tui_support import write_session

PLAYERS = ["Ana", "Bo", "Cy", "Dee", "Eli"]
ANY_URL = re.compile(r"http://([^/\s]+):(\d+)/([A-Za-z0-9_-]+)/")


def get(port: int, path: str) -> tuple[int, dict[str, str], bytes]:
    """A GET of a raw path on the loopback port: status, headers, body."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        conn.request("GET", path)
        response = conn.getresponse()
        return response.status, dict(response.getheaders()), response.read()
    finally:
        conn.close()


def join(server: Served, file: str, player: str) -> str:
    """The seat link "join as" gives (the 303's Location)."""
    status, headers, _ = get(server.port, f"/{server.token}/join?file={quote(file)}&seat={quote(player)}")
    assert status == 303, status
    return headers["Location"]


def test_join_gives_a_seat_link_that_opens_that_seat_only(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    write_session(folder, "ticket-to-ride", PLAYERS, name="ttr.toml")
    write_session(folder, "ticket-to-ride", PLAYERS, name="other.toml")
    server = start(folder)
    try:
        link = join(server, "ttr.toml", "Ana")
        assert re.fullmatch(r"/seat\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+/", link), link
        assert server.token not in link
        status, _, body = get(server.port, link)
        assert status == 200 and f"{link}ws".encode() in body and server.token.encode() not in body
        assert get(server.port, f"{link}static/js/textual.js")[0] == 200
        kind, file, player, mac = link.strip("/").split(".")
        bo = join(server, "ttr.toml", "Bo").strip("/").split(".")[2]
        other = join(server, "other.toml", "Ana").strip("/").split(".")[1]
        for path in (f"/{kind}.{file}.{bo}.{mac}/", f"/{kind}.{other}.{player}.{mac}/", f"/{kind}.{file}.{player}.x/",
                     f"/{kind}.{file}.{player}.{mac[::-1]}/ws", f"{link}join?file=ttr.toml&seat=Bo",  # nothing else
                     f"{link}static/../../serve.py", f"/{kind}.{file}.{player}/", "/seat/"):
            status, _, body = get(server.port, path)
            assert status in (403, 404) and b"textual" not in body, (path, status)
        for path in (f"/{kind}.{file}.{bo}.{mac}/", f"{link}join?file=ttr.toml&seat=Bo", f"{link}nothing"):
            status, _, body = get(server.port, path)
            assert (status, body) == (403, FORBIDDEN), path  # only the seat's own page, files and websocket
        for bad in ("../ttr.toml", ".seats", "missing.toml", "ttr.toml/x"):
            assert get(server.port, f"/{server.token}/join?file={quote(bad)}&seat=Ana")[0] == 404, bad
        assert get(server.port, f"/{server.token}/join?file=ttr.toml&seat=Zed")[0] == 404  # not a player
    finally:
        assert "Traceback" not in server.stop()


def start_anywhere(folder: Path) -> tuple[subprocess.Popen[str], int, str, str]:
    """`serve --host 0.0.0.0` on a free port: the process, its port, its token (from the printed URL) and what it
    printed up to the URL."""
    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--dir", str(folder), "--port", "0",
                             "--host", "0.0.0.0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    fd, seen, deadline = proc.stdout.fileno(), b"", time.monotonic() + 30
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while time.monotonic() < deadline and sel.select(timeout=deadline - time.monotonic()):
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            seen += chunk
            if match := ANY_URL.search(seen.decode(errors="replace")):
                return proc, int(match.group(2)), match.group(3), seen.decode(errors="replace")
    proc.kill()
    pytest.fail("serve printed no URL:\n" + seen.decode(errors="replace"))


def test_open_to_the_network_it_still_needs_the_token(tmp_path: Path) -> None:
    folder = tmp_path / "sessions"
    write_session(folder, "ticket-to-ride", PLAYERS, name="ttr.toml")
    proc, port, token, printed = start_anywhere(folder)
    try:
        for path in ("/", "/ws", "/join?file=ttr.toml&seat=Ana", f"/{token[:-1]}/", "/static/js/textual.js",
                     f"/{token[::-1]}/join?file=ttr.toml&seat=Ana"):
            assert get(port, path)[::2] == (403, FORBIDDEN), path
        assert get(port, f"/{token}/")[0] == 200
        assert get(port, f"/{token}/join?file=ttr.toml&seat=Ana")[0] == 303
    finally:
        proc.send_signal(2)
        out, _ = proc.communicate(timeout=30)
    assert proc.returncode == 0 and "Traceback" not in out and "OPEN TO THE NETWORK" in printed


@pytest.mark.slow
def test_five_phones_and_the_host_fit_the_caps(tmp_path: Path) -> None:
    """The host's page and five seats: six app processes, each seat its own player's; past the cap (six here)
    a seventh browser gets 503; each seat's app holds its own player's seat while its phone is there."""
    folder = tmp_path / "sessions"
    path = write_session(folder, "ticket-to-ride", PLAYERS, name="ttr.toml")
    server = start(folder, env={"SCOREKEEPER_SERVE_MAX_APPS": "6"})
    links = [join(server, "ttr.toml", p) for p in PLAYERS]
    base = f"ws://127.0.0.1:{server.port}"

    async def table() -> tuple[list[int], dict[str, bytes]]:
        statuses: list[int] = []
        screens: dict[str, bytes] = {}
        async with aiohttp.ClientSession() as client:
            held = []
            for url in [f"{base}/{server.token}/ws", *(f"{base}{link}ws?width=40&height=40" for link in links),
                        f"{base}/{server.token}/ws"]:
                try:
                    held.append(await client.ws_connect(url))
                    statuses.append(101)
                except aiohttp.WSServerHandshakeError as exc:
                    statuses.append(exc.status)
            deadline = time.monotonic() + 90  # six apps starting at once on a loaded machine
            while len(seats.load(path)) < 5 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            screens["registry"] = ",".join(sorted(seats.load(path))).encode()
            for ws in held:
                await ws.close()
        return statuses, screens

    try:
        statuses, screens = asyncio.run(table())
        assert statuses == [101] * 6 + [503]
        assert screens["registry"] == b"Ana,Bo,Cy,Dee,Eli"
    finally:
        output = server.stop()
    assert "Traceback" not in output
    deadline = time.monotonic() + 10
    while seats.load(path) and time.monotonic() < deadline:  # each phone's app freed its seat as it quit
        time.sleep(0.1)
    assert seats.load(path) == {}
