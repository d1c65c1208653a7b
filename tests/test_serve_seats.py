"""`serve` and the table's seats: "join as" signs a seat link that opens that seat only (no table token in it, a
tampered one is 403), `--host 0.0.0.0` still needs the token, five phones and the host fit the caps."""

from __future__ import annotations

import asyncio
import http.client
import io
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
from hypothesis import example, given, settings
from hypothesis import strategies as st

from scorekeeper.cli import build_parser, cmd_seat
from scorekeeper.web import seats
from scorekeeper.web.serve import TokenServer
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


def test_a_seat_is_refused_clearly_where_it_cannot_be_kept_or_would_open_a_file_outside(tmp_path: Path) -> None:
    """A `*.toml` link to a file outside the folder is no session to join (the seat opened the outside file); a
    `.seats` that is not a folder is said to the phone (409, why) and to the host (serve's output), not "the seat
    is taken" forever; a 210-character file name has seats."""
    folder = tmp_path / "sessions"
    write_session(folder, "ticket-to-ride", PLAYERS, name="ttr.toml")
    outside = write_session(tmp_path, "ticket-to-ride", PLAYERS, name="outside.toml")
    (folder / "link.toml").symlink_to(outside)
    (folder / "inner.toml").symlink_to(folder / "ttr.toml")
    long_name = "é" + "Soirée " * 29 + "x.toml"
    write_session(folder, "ticket-to-ride", PLAYERS, name=long_name)
    server = start(folder)
    try:
        for name in ("link.toml", "inner.toml"):
            status, _, body = get(server.port, f"/{server.token}/join?file={name}&seat=Ana")
            assert status == 409 and b"is a link" in body and b"sessions folder" in body, (name, status, body)
        link = seats.seat_token(b"x" * 32, "link.toml", "Ana")  # signed by another server: 403 anyway
        assert get(server.port, f"/{link}/")[0] == 403
        assert join(server, long_name, "Ana").startswith("/seat.")
        (folder / seats.FOLDER).rmdir()  # made by the join above, empty
        (folder / seats.FOLDER).write_text("not a folder")
        status, _, body = get(server.port, f"/{server.token}/join?file=ttr.toml&seat=Bo")
        assert status == 409 and b"Bo cannot join ttr.toml" in body and b".seats" in body, body
    finally:
        output = server.stop()
    assert "Traceback" not in output
    assert "a phone could not join ttr.toml as Bo: the seats cannot be kept: .seats" in output, output


def test_a_player_named_like_an_option_takes_a_seat(tmp_path: Path) -> None:
    """`serve` starts each seat's app with `--` before the file and the player: `-h`, `--dir=/` and `--` are names."""
    folder = tmp_path / "sessions"
    names = ["-h", "--dir=/", "--"]
    path = write_session(folder, "ticket-to-ride", names, name="ttr.toml")
    server = start(folder)
    links = [join(server, "ttr.toml", p) for p in names]

    async def phones() -> str:
        async with aiohttp.ClientSession() as client:
            held = [await client.ws_connect(f"ws://127.0.0.1:{server.port}{link}ws?width=40&height=40")
                    for link in links]
            deadline = time.monotonic() + 60
            while len(seats.load(path)) < 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.2)
            found = ",".join(sorted(seats.load(path)))
            for ws in held:
                await ws.close()
        return found

    try:
        assert asyncio.run(phones()) == "--,--dir=/,-h"
    finally:
        assert "Traceback" not in server.stop()


@given(st.text(min_size=1, max_size=40).filter(lambda s: "\0" not in s),
       st.text(min_size=1, max_size=60).filter(lambda s: "\0" not in s and "/" not in s))
@settings(max_examples=200, deadline=None)
@example("--", "--.toml")
@example("-h", "-x.toml")
@example("--dir=/", "x.toml")
def test_the_command_line_serve_gives_a_seat_reads_back_its_file_and_player(player: str, name: str) -> None:
    """Whatever the names (`-h`, `--dir=/`, `--`), the seat's app reads the file and the player serve meant."""
    server = TokenServer(Path("/srv/sessions"), "token", "127.0.0.1", 0, io.StringIO())
    argv = server.seat_argv(Path("/srv/sessions") / name, player)
    assert argv[:3] == [sys.executable, "-m", "scorekeeper"]
    args = build_parser().read(argv[3:])
    assert (args.dir, args.names, args.func) == ("/srv/sessions", [f"/srv/sessions/{name}", player], cmd_seat)
