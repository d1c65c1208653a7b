"""`scorekeeper serve`: the token guards every path, loopback by default, a clean stop; the app driven in Chromium."""

from __future__ import annotations

import asyncio
import http.client
import os
import re
import selectors
import signal
import socket
import subprocess
import sys
import time
import tomllib
from collections.abc import Iterator
from dataclasses import dataclass, field
from importlib.metadata import version
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from tests.conftest import private_env
from tests.test_tui_support import pilot_test, running, settle, write_session

CHROMIUM = Path("/usr/bin/chromium")
LAUNCH_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1",
]
FORBIDDEN = b"403: Forbidden\n"
URL = re.compile(r"http://(127\.0\.0\.1):(\d+)/([A-Za-z0-9_-]+)/")


@dataclass
class Served:
    """A running `scorekeeper serve` and what it printed."""

    proc: subprocess.Popen[str]
    url: str
    port: int
    token: str
    folder: Path
    output: list[str] = field(default_factory=list)

    def get(self, path: str, **headers: str) -> tuple[int, bytes]:
        """A GET of a raw path (sent as written, not normalised) on the server's loopback port."""
        conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=10)
        try:
            conn.request("GET", path, headers=headers)
            response = conn.getresponse()
            return response.status, response.read()
        finally:
            conn.close()

    def stop(self) -> str:
        """Ctrl+C (SIGINT) and the rest of what it printed; it must end by itself, with 0."""
        self.proc.send_signal(signal.SIGINT)
        out, _ = self.proc.communicate(timeout=30)
        self.output.append(out)
        assert self.proc.returncode == 0, "".join(self.output)
        return "".join(self.output)


def start(folder: Path, *args: str, env: dict[str, str] | None = None) -> Served:
    """Start `serve` on a free loopback port and wait for the URL it prints.

    The pipe is read with os.read on its raw fd and split into lines here: a buffered readline after a selector
    leaves lines that came in one chunk in Python's buffer, where the selector never sees them (issue 21)."""
    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--dir", str(folder), "--port", "0", *args],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                            env=None if env is None else {**os.environ, **env})
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    lines: list[str] = []
    pending = b""
    deadline = time.monotonic() + 30
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if not sel.select(timeout=deadline - time.monotonic()):
                break
            chunk = os.read(fd, 65536)
            if not chunk:
                break
            *done, pending = (pending + chunk).split(b"\n")
            for raw in done:
                line = raw.decode(errors="replace") + "\n"
                lines.append(line)
                if match := URL.search(line):
                    if pending:
                        lines.append(pending.decode(errors="replace"))
                    return Served(proc, match.group(0), int(match.group(2)), match.group(3), folder, lines)
    proc.kill()
    rest = proc.communicate(timeout=10)[0]
    pytest.fail("serve printed no URL:\n" + "".join(lines) + pending.decode(errors="replace") + rest)


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Served]:
    """A server on a fresh folder (its home private too), shared by the tests that only ask it; stopped (and
    checked to stop cleanly) after them."""
    home = tmp_path_factory.mktemp("served")
    with pytest.MonkeyPatch.context() as patch:
        for name, value in private_env(home).items():
            patch.setenv(name, value)
        server = start(home / "sessions")
    try:
        yield server
    finally:
        if server.proc.poll() is None:
            output = server.stop()
            assert "Traceback" not in output and "Stopped." in output, output


def listening(pid: int) -> list[tuple[str, int]]:
    """The addresses a process listens on, read from its sockets in /proc (Linux)."""
    inodes = set()
    for fd in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(fd)
        except OSError:
            continue
        if target.startswith("socket:["):
            inodes.add(target[8:-1])
    found = []
    for table, size in (("tcp", 4), ("tcp6", 16)):
        for line in Path(f"/proc/net/{table}").read_text().splitlines()[1:]:
            parts = line.split()
            local, state, inode = parts[1], parts[3], parts[9]
            if state != "0A" or inode not in inodes:
                continue
            hex_addr, hex_port = local.split(":")
            raw = bytes.fromhex(hex_addr)
            raw = b"".join(raw[i:i + 4][::-1] for i in range(0, size, 4))
            found.append((socket.inet_ntop(socket.AF_INET if size == 4 else socket.AF_INET6, raw), int(hex_port, 16)))
    return found


@pytest.mark.skipif(not Path("/proc/net/tcp").exists(), reason="reads the listening sockets from /proc (Linux)")
def test_listens_on_loopback_only_by_default(served: Served) -> None:
    """Without --host, the server's only listening socket is 127.0.0.1 on the printed port."""
    assert listening(served.proc.pid) == [("127.0.0.1", served.port)]
    text = "".join(served.output)
    assert f"Listening on 127.0.0.1:{served.port}" in text and "Only this computer can connect" in text


def test_every_request_without_the_token_is_403(served: Served) -> None:
    """The page, static files and anything else: 403 and nothing else without the token or with a wrong one."""
    wrong = served.token[:-1] + ("A" if served.token[-1] != "A" else "B")
    for path in ("/", "/ws", "/static/js/textual.js", "/static/", "/favicon.ico", "/download/x",
                 f"/{wrong}/", f"/{wrong}/static/js/textual.js", f"/{wrong}/ws", f"/x/{served.token}/",
                 f"/{served.token}x/", f"/{served.token[:10]}/", f"/static/../{served.token}/../",
                 "/%2e%2e/", "//", "/" + "a" * 5000):
        status, body = served.get(path)
        assert (status, body) == (403, FORBIDDEN), path


def test_the_token_opens_the_page_and_the_static_files_only(served: Served) -> None:
    """With the token: the page and textual-serve's files; no listing, nothing outside the static folder."""
    t = served.token
    status, body = served.get(f"/{t}/")
    assert status == 200 and b"textual-terminal" in body and f"/{t}/ws".encode() in body
    assert b"googleapis" not in body and b"http://" not in body.replace(f"ws://127.0.0.1:{served.port}".encode(), b"")
    status, body = served.get(f"/{t}/static/js/textual.js")
    assert status == 200 and len(body) > 100_000
    for path in (f"/{t}/static/", f"/{t}/static/js/", f"/{t}/static/../../serve.py", f"/{t}/static/..%2f..%2fserver.py",
                 f"/{t}/static/%2e%2e/%2e%2e/server.py", f"/{t}/static/js/../../../server.py", f"/{t}/nothing"):
        status, body = served.get(path)
        assert status in (403, 404) and b"textual" not in body and b"<a href" not in body, (path, status)


def test_the_websocket_needs_the_token_and_this_page(served: Served) -> None:
    """A websocket without the token, with a wrong one, or opened from another site's page: 403."""

    async def status(path: str, origin: str | None = None) -> int:
        headers = {"Origin": origin} if origin else {}
        async with aiohttp.ClientSession() as client:
            try:
                async with client.ws_connect(f"ws://127.0.0.1:{served.port}{path}", headers=headers) as ws:
                    await ws.close()
                    return 101
            except aiohttp.WSServerHandshakeError as exc:
                return exc.status

    async def checks() -> list[int]:
        return [
            await status("/ws"),
            await status(f"/{served.token[::-1]}/ws"),
            await status(f"/{served.token}/ws", origin="http://evil.example"),
            await status(f"/{served.token}/ws", origin=f"http://127.0.0.1:{served.port}"),
        ]

    assert asyncio.run(checks()) == [403, 403, 403, 101]


def test_a_fresh_token_at_every_start(tmp_path: Path) -> None:
    """Two starts, two different secrets (43 characters of secrets.token_urlsafe); the QR code is printed."""
    tokens = []
    for _ in range(2):
        server = start(tmp_path)
        text = server.stop()
        assert "▀" in text and "█" in text and "Stopped." in text and "Traceback" not in text
        tokens.append(server.token)
    assert tokens[0] != tokens[1] and all(len(t) == 43 for t in tokens)


def test_a_port_in_use_is_a_clear_error(tmp_path: Path) -> None:
    """A busy port: exit 1 with a sentence, no traceback; a port out of range likewise."""
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        argv = [sys.executable, "-m", "scorekeeper", "serve", "--dir", str(tmp_path), "--port", str(port)]
        run = subprocess.run(argv, capture_output=True, text=True, timeout=30)
    assert run.returncode == 1 and "scorekeeper serve: cannot listen on 127.0.0.1 port" in run.stderr
    assert "Traceback" not in run.stderr + run.stdout
    run = subprocess.run([sys.executable, "-m", "scorekeeper", "serve", "--port", "70000"],
                         capture_output=True, text=True, timeout=30)
    assert run.returncode == 1 and "--port takes 0 to 65535" in run.stderr


def idle(port: int, n: int) -> list[socket.socket]:
    """n connections to the server that send nothing."""
    socks = []
    for _ in range(n):
        sock = socket.create_connection(("127.0.0.1", port), timeout=5)
        socks.append(sock)
    return socks


def closed_by_server(sock: socket.socket, wait: float) -> bool:
    """Whether the server closed this connection (within `wait` seconds)."""
    sock.settimeout(wait)
    try:
        return sock.recv(1) == b""
    except TimeoutError:
        return False
    except OSError:
        return True


def test_idle_connections_do_not_lock_the_table_out(tmp_path: Path) -> None:
    """Past the cap on connections (20 here) the silent ones are closed to make room: with 70 idle sockets open
    a real request with the token is still answered; the idle ones left are closed after the header timeout."""
    server = start(tmp_path, env={"SCOREKEEPER_SERVE_MAX_CONNECTIONS": "20",
                                  "SCOREKEEPER_SERVE_HEADER_TIMEOUT": "3"})
    socks = idle(server.port, 70)
    try:
        began = time.monotonic()
        status, body = server.get(f"/{server.token}/")
        assert status == 200 and b"textual-terminal" in body and time.monotonic() - began < 2
        dropped = sum(closed_by_server(s, 0.05) for s in socks)
        assert dropped >= 50, dropped
        assert all(closed_by_server(s, 6) for s in socks)
    finally:
        for s in socks:
            s.close()
    output = server.stop()
    assert "Traceback" not in output


def test_malformed_http_is_403_and_no_traceback(tmp_path: Path) -> None:
    """Whatever aiohttp cannot parse, token or not: 403 and nothing else; the server prints no traceback."""
    server = start(tmp_path)
    for raw in (b"GARBAGE\r\n\r\n", b"GET / HTTP/9.9\r\n\r\n", b"GET /%s/ HTTP/1.1\r\nHost: \x00\r\n\r\n",
                b"GET / HTTP/1.1\r\nX: " + b"a" * 20000 + b"\r\n\r\n", b"\x16\x03\x01\x02\x00\x01\x00\x01\xfc\x03\x03"):
        with socket.create_connection(("127.0.0.1", server.port), timeout=5) as sock:
            sock.sendall(raw.replace(b"%s", server.token.encode()))
            answer = b""
            while chunk := sock.recv(65536):
                answer += chunk
        assert re.match(rb"HTTP/1\.[01] 403 ", answer) and answer.endswith(FORBIDDEN), (raw[:40], answer[:200])
    output = server.stop()
    assert "Traceback" not in output and "Error handling request" not in output, output


def test_a_cap_on_app_processes(tmp_path: Path) -> None:
    """No more apps than the cap (2 here): the next websocket gets 503 and no process."""
    server = start(tmp_path, env={"SCOREKEEPER_SERVE_MAX_APPS": "2"})
    url = f"ws://127.0.0.1:{server.port}/{server.token}/ws"

    async def three() -> list[int]:
        statuses = []
        async with aiohttp.ClientSession() as client:
            held = []
            for _ in range(3):
                try:
                    held.append(await client.ws_connect(url))
                    statuses.append(101)
                except aiohttp.WSServerHandshakeError as exc:
                    statuses.append(exc.status)
            for ws in held:
                await ws.close()
        return statuses

    assert asyncio.run(three()) == [101, 101, 503]
    assert "Traceback" not in server.stop()


def test_sizes_from_the_browser_are_clamped() -> None:
    """A width or height from the page or a resize message, however big or odd, stays within 500 x 300."""
    from scorekeeper.web.serve import relay, size

    assert size("100000", "99999") == (500, 300) and size(10**9, -5) == (500, 5)
    assert size("x", None) == (80, 24) and size(43.5, [1]) == (80, 24) and size("43", "80") == (43, 80)

    class Message:
        type = aiohttp.WSMsgType.TEXT

        def __init__(self, data: Any) -> None:
            self.data = data

        def json(self) -> Any:
            return self.data

    class Socket:
        def __init__(self, messages: list[Any]) -> None:
            self.messages = [Message(m) for m in messages]

        def __aiter__(self) -> Any:
            return self

        async def __anext__(self) -> Message:
            if not self.messages:
                raise StopAsyncIteration
            return self.messages.pop(0)

    class Service:
        sizes: list[tuple[int, int]] = []

        async def set_terminal_size(self, width: int, height: int) -> None:
            self.sizes.append((width, height))

    service = Service()
    messages = [["resize", {"width": 2**40, "height": 2**40}], ["resize", {}], ["resize", "x"], [], "x",
                ["resize", {"width": 40, "height": 70}]]
    asyncio.run(relay(Socket(messages), service))  # type: ignore[arg-type]
    assert service.sizes == [(500, 300), (80, 24), (40, 70)]


def test_a_folder_name_with_escapes_is_printed_inert(tmp_path: Path) -> None:
    """`serve --dir` on a folder named with ESC and OSC bytes prints them as escapes, never raw."""
    server = start(tmp_path / "evil\x1b]0;owned\x07\x1b[2J")
    output = server.stop()
    assert "\x1b" not in output and "\x07" not in output and "\\x1b]0;owned\\x07" in output, output


@pytest.mark.parametrize("name", sorted(__import__("scorekeeper.web.compat", fromlist=["PRIVATE_NAMES"]).PRIVATE_NAMES))
def test_textual_serve_still_has_the_private_names_we_use(name: str) -> None:
    """Canary: each name of textual-serve that scorekeeper.web.compat uses still exists in this version."""
    from scorekeeper.web.compat import PRIVATE_NAMES, missing_names

    assert name not in missing_names(), (
        f"textual-serve {version('textual-serve')} no longer has {name} ({PRIVATE_NAMES[name]}): "
        "scorekeeper.web.compat must be updated for this version")


@pilot_test
async def test_at_a_phones_width_a_tap_on_the_title_opens_the_steps(tmp_path: Path) -> None:
    """43 columns: the step list is folded away; a tap on the step's title opens it in the step's place, a tap on
    a step goes there and shows that step (drawn anew, not the one before); the new-session form fits."""
    from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
    from scorekeeper.tui.widgets.grid import StepGrid

    path = write_session(tmp_path, "ticket-booth", ["Ana", "Bo"])
    async with running(tmp_path, path, size=(43, 40)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen) and screen.has_class("-narrow")
        steps = screen.query_one("#steps")
        assert not steps.display or steps.region.width == 0
        await pilot.click("#step-title")
        await settle(pilot)
        assert steps.region.width > 30 and app.focused is steps and screen.query_one("#step").region.width == 0
        await pilot.click("#steps", offset=(5, 1 + 30))  # Summary: the 16th step, two lines each
        await settle(pilot)
        assert screen.step.title == "Summary" and steps.region.width == 0
        grid = screen.query_one(StepGrid)
        assert "Attractions" not in grid.plain() and grid.region.width > 30
        await pilot.press("escape", "escape")
        await settle(pilot)
        await pilot.press("ctrl+n")
        await settle(pilot)
        form = app.screen.query_one("#new-session")
        widest = max(w.region.right for w in form.query("#game, .player-name, #title, .rule-input, Button"))
        assert widest <= 43


# -- in a real browser ------------------------------------------------------------------------------------------------

HOOK = """Object.defineProperty(Object.prototype, "terminal", {configurable: true, set(value) {
    window.__term = value;
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
}});"""
SCREEN = """(() => { const t = window.__term, b = t.buffer.active, out = [];
    for (let y = 0; y < t.rows; y++) out.push(b.getLine(b.viewportY + y).translateToString(true));
    return out; })()"""
CELL = """(() => { const s = document.querySelector(".xterm-screen").getBoundingClientRect();
    return [s.x, s.y, s.width / window.__term.cols, s.height / window.__term.rows]; })()"""


class Phone:
    """A page at phone size, read through xterm's buffer, driven by taps and typing."""

    def __init__(self, page: Any, shots: Path) -> None:
        self.page = page
        self.shots = shots

    def lines(self) -> list[str]:
        """The terminal's lines as drawn now."""
        return list(self.page.evaluate(SCREEN))

    def text(self) -> str:
        """The screen as one text."""
        return "\n".join(self.lines())

    def wait_for(self, text: str, timeout: float = 20) -> None:
        """Until the screen shows the text."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if text in self.text():
                return
            time.sleep(0.05)
        raise AssertionError(f"{text!r} not on the screen:\n{self.text()}")

    def tap(self, text: str) -> None:
        """A finger on the middle of the text where it first shows."""
        self.tap_at(re.compile(re.escape(text)))

    def tap_input(self, player: str) -> None:
        """A finger on a player's row: on a phone the name has a line of its own, the inputs below it."""
        self.tap_at(re.compile(rf"^\s*({re.escape(player)})(?:\s+starts)?\s*$"))

    def tap_step(self, title: str) -> None:
        """A finger on a step in the step list (the box on the left, one title a line)."""
        self.tap_at(re.compile(rf"^\s*│[^│]*?(?<!\S)({re.escape(title)})\s*│"))

    def still(self, quiet: float = 0.3, timeout: float = 10) -> list[str]:
        """The screen once it has stopped changing (a tap lands where the text was seen)."""
        deadline = time.monotonic() + timeout
        lines = self.lines()
        while time.monotonic() < deadline:
            time.sleep(quiet)
            now = self.lines()
            if now == lines:
                return now
            lines = now
        return lines

    def tap_at(self, pattern: re.Pattern[str], right: float = 0) -> None:
        """A finger on the middle of the first match (or its first group) on the screen, or cells right of it."""
        for row, line in enumerate(self.still()):
            if match := pattern.search(line):
                group = 1 if match.groups() else 0
                x0, y0, w, h = self.page.evaluate(CELL)
                middle = (match.start(group) + match.end(group)) / 2 + right
                self.page.touchscreen.tap(x0 + middle * w, y0 + (row + 0.5) * h)
                return
        raise AssertionError(f"{pattern.pattern!r} not on the screen:\n{self.text()}")

    def swipe_up(self, rows: int) -> None:
        """A finger drawn up the middle of the screen (the page scrolls down)."""
        cdp = self.page.context.new_cdp_session(self.page)
        x0, y0, w, h = self.page.evaluate(CELL)
        x, y = x0 + 20 * w, y0 + 30 * h
        cdp.send("Input.dispatchTouchEvent", {"type": "touchStart", "touchPoints": [{"x": x, "y": y}]})
        for k in range(1, rows + 1):
            cdp.send("Input.dispatchTouchEvent", {"type": "touchMove", "touchPoints": [{"x": x, "y": y - k * h}]})
        cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
        cdp.detach()

    def type(self, text: str) -> None:
        """Keys from the phone's keyboard."""
        self.page.keyboard.type(text, delay=20)

    def shot(self, name: str) -> None:
        """A screenshot of the page."""
        self.page.screenshot(path=str(self.shots / name))


def saved(folder: Path) -> dict[str, Any]:
    """The one session file of the folder, as read back from disk."""
    (path,) = folder.glob("*.toml")
    return tomllib.loads(path.read_text(encoding="utf-8"))


ROUND = [  # (keys typed, then the player, field and value the file holds): all cards held, as the rulebook has it
    *((f"{v}\n", p, f"attractions.{n}", v) for n in range(1, 12)
      for p, v in (("Ana", n if n % 2 else 0), ("Bo", 0 if n % 2 else n))),
    ("3\n", "Ana", "outhouses", 3), ("0\n", "Bo", "outhouses", 0),
    ("1", "Ana", "ticket_booth", True),  # who holds it: one key, and on to the next step
    ("2", "Bo", "demolition_derby", True),
    ("6\n", "Ana", "tickets", 6), ("4\n", "Bo", "tickets", 4),
    ("2", "Bo", "piglet_race", True),
]


def on_disk(folder: Path, player: str, field: str) -> Any:
    """What the file holds for a player's field of round 1 (`attractions.4`: inside the table; None: nothing yet)."""
    try:
        rounds = saved(folder).get("rounds") or [{}]
    except (ValueError, tomllib.TOMLDecodeError):
        return None
    value: Any = rounds[0].get("players", {}).get(player, {})
    for key in field.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def until(folder: Path, player: str, field: str, value: Any, timeout: float = 10) -> None:
    """Until the file on disk holds the value typed."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if on_disk(folder, player, field) == value:
            return
        time.sleep(0.05)
    raise AssertionError(f"{player} {field}: the file holds {on_disk(folder, player, field)!r}, not {value!r}")


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                    reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it; under CI it must run)")
def test_a_round_scored_from_a_phone(tmp_path: Path) -> None:
    """At 390x844 by taps and typing: a new Ticket Booth session, a whole round scored and corrected, all on disk;
    a second browser sees it; no token or a wrong one is 403; Ctrl+C ends the server and the browsers cleanly."""
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS", tmp_path))
    folder = tmp_path / "sessions"
    server = start(folder)
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch_persistent_context(
                str(tmp_path / "profile"), executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True,
                viewport={"width": 390, "height": 844}, device_scale_factor=1, is_mobile=True, has_touch=True)
            loopback_only(browser)
            page = browser.pages[0] if browser.pages else browser.new_page()
            page.add_init_script(HOOK)
            phone = Phone(page, shots)

            for path in ("/", f"/{server.token[::-1]}/", "/static/js/textual.js"):
                response = page.goto(f"http://127.0.0.1:{server.port}{path}")
                assert response is not None and response.status == 403 and page.content().count("403: Forbidden") == 1

            page.goto(server.url)
            phone.wait_for("New session")
            assert page.evaluate("window.__term.cols") <= 45, "a phone in portrait gets about 40 columns"
            phone.shot("serve-phone-home.png")
            phone.tap("New session")
            phone.wait_for("1. name")
            phone.tap("The Ticket Booth")
            phone.tap("1. name")
            phone.type("Ana")
            phone.tap("2. name")
            phone.type("Bo")
            phone.wait_for("2. Bo")
            phone.shot("serve-phone-new.png")
            phone.swipe_up(10)
            phone.wait_for("Create and start scoring")
            phone.tap("Create and start scoring")
            phone.wait_for("Round 1 of 3")
            assert saved(folder)["players"] == ["Ana", "Bo"]

            for keys, player, field, value in ROUND:
                for key in keys:
                    page.keyboard.press("Enter" if key == "\n" else key)
                until(folder, player, field, value)
                if field == "outhouses" and player == "Ana":
                    phone.still()
                    phone.shot("serve-phone-walk.png")
            phone.tap("Round 1 of 3")  # the step's title opens the list of steps
            phone.tap_step("#4")
            phone.wait_for("How many #4")
            phone.tap_input("Bo")
            phone.still(quiet=0.15)
            page.keyboard.press("Backspace")
            phone.type("3")
            until(folder, "Bo", "attractions.4", 3)
            phone.tap("Round 1 of 3")
            phone.still()
            phone.shot("serve-phone-steps.png")
            phone.tap_step("Summary")
            phone.wait_for("· Summary")
            phone.still()
            phone.shot("serve-phone-summary.png")

            for _, player, field, value in ROUND:
                assert on_disk(folder, player, field) == (3 if (player, field) == ("Bo", "attractions.4") else value)

            other = browser.new_page()
            other.add_init_script(HOOK)
            other.goto(server.url)
            second = Phone(other, shots)
            second.wait_for("Ana, Bo")
            second.shot("serve-phone-home.png")
            second.tap("Ana, Bo")  # a row of the sessions list opens it
            second.wait_for("Total")
            assert "Filter" not in second.text()

            page.set_viewport_size({"width": 844, "height": 390})
            phone.still()
            assert page.evaluate("window.__term.cols") >= 80, "a phone in landscape gets about 90 columns"
            phone.shot("serve-phone-landscape.png")

            output = server.stop()
            assert "Traceback" not in output and "Stopping: closing 2 browser session(s)" in output, output
            page.wait_for_selector("body.-closed", timeout=10_000)
            browser.close()
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
    assert on_disk(folder, "Bo", "attractions.4") == 3 and on_disk(folder, "Bo", "piglet_race") is True


def loopback_only(browser: Any) -> None:
    """Abort any request the page would send anywhere but the server's loopback address."""

    def route(r: Any) -> None:
        if r.request.url.startswith("http://127.0.0.1:"):
            r.continue_()
        else:
            r.abort()

    browser.route("**/*", route)


SIZES = """() => { const t = window.__term, screen = document.querySelector(".xterm-screen");
    const canvases = [...screen.querySelectorAll("canvas")].map(c => [c.width, c.getBoundingClientRect().width]);
    return {cols: t.cols, screen: screen.getBoundingClientRect().width, page: window.innerWidth, canvases}; }"""


@pytest.mark.slow
@pytest.mark.browser
@pytest.mark.skipif(not CHROMIUM.exists() and not os.environ.get("CI"),
                    reason="needs Debian's chromium at /usr/bin/chromium (.ci/run installs it; under CI it must run)")
@pytest.mark.parametrize("scale", [1, 2, 3])
def test_a_phones_pixel_density_draws_the_whole_width(tmp_path: Path, scale: int) -> None:
    """390x844 at device scale 1, 2 and 3: 40 to 43 columns that cover the page, each canvas drawn at the device's
    pixels for its width (at 2 and 3 it was drawn at the CSS width, so the screen came out 2x or 3x and cut)."""
    from playwright.sync_api import sync_playwright

    shots = Path(os.environ.get("SCOREKEEPER_SCREENSHOTS", tmp_path))
    server = start(tmp_path / "sessions")
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=str(CHROMIUM), args=LAUNCH_ARGS, headless=True)
            context = browser.new_context(viewport={"width": 390, "height": 844}, device_scale_factor=scale,
                                          is_mobile=True, has_touch=True)
            loopback_only(context)
            page = context.new_page()
            page.add_init_script(HOOK)
            phone = Phone(page, shots)
            page.goto(server.url)
            phone.wait_for("New session")
            phone.still()
            sizes = page.evaluate(SIZES)
            phone.shot(f"serve-phone-scale{scale}.png")
            browser.close()
    finally:
        server.stop()
    assert 40 <= sizes["cols"] <= 43 and sizes["screen"] >= 0.97 * sizes["page"], sizes
    assert sizes["canvases"] and all(abs(pixels - css * scale) <= scale for pixels, css in sizes["canvases"]), sizes
