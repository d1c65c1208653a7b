"""`scorekeeper serve`: the app in a web browser through textual-serve, behind a fresh secret token."""

from __future__ import annotations

import asyncio
import hmac
import io
import ipaddress
import logging
import os
import secrets
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

from scorekeeper.model.text import inert
from scorekeeper.web import seats
from scorekeeper.web.compat import ShellFreeAppService

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
FORBIDDEN = "403: Forbidden\n"
MAX_APPS = 8
MAX_CONNECTIONS = 200
HEADER_TIMEOUT = 10.0
KEEPALIVE_TIMEOUT = 30.0
MAX_WIDTH, MAX_HEIGHT = 500, 300
WEB = Path(__file__).parent
SEAT_ROUTES = {"seat-page", "seat-page-slash", "seat-ws", "seat-static"}
"""The routes a seat link reaches (its page, its files, its websocket): nothing of the table's."""
HEADERS = {
    "Cache-Control": "no-store",
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Content-Security-Policy": (
        "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; "
        "img-src 'self' data:; font-src 'self'; connect-src 'self'; worker-src 'self' blob:; "
        "frame-ancestors 'none'; base-uri 'none'; form-action 'none'"
    ),
}

log = logging.getLogger("scorekeeper.web.serve")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ServeError(Exception):
    """The server cannot start (a port in use, an address not here): a message for the user."""


class AppProcess(ShellFreeAppService):
    """One app process per browser: started without a shell, in a session of its own."""

    async def stop(self) -> None:
        """Ask the app to quit (it has saved every change already); a process that does not end is killed."""
        try:
            await asyncio.wait_for(super().stop(), timeout=5)
        except TimeoutError:
            log.warning("an app did not quit within 5 seconds: ended")
        process = self.process()
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), timeout=5)
            except TimeoutError:
                process.kill()
                await process.wait()


class Connection(web.RequestHandler):
    """aiohttp's HTTP connection, with the limits a server open to a Wi-Fi needs.

    A connection that has not sent a whole request within the header timeout is closed; past the cap on
    connections a new one closes the oldest that has sent nothing yet (or itself, if every one is in use).
    Anything aiohttp cannot parse is answered 403, with no traceback.
    """

    def __init__(self, limits: Limits, manager: web.Server, **kwargs: Any) -> None:
        super().__init__(manager, **kwargs)
        self.limits = limits
        self.asked = False
        self.link: asyncio.BaseTransport | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        """Count it, close the oldest silent one past the cap, and start its header clock."""
        super().connection_made(transport)
        self.link = transport
        limits = self.limits
        limits.open[self] = None
        if len(limits.open) > limits.connections:
            silent = next((c for c in limits.open if not c.asked and c is not self), self)
            limits.drop(silent)
        asyncio.get_running_loop().call_later(limits.header_timeout, self.check_asked)

    def connection_lost(self, exc: BaseException | None) -> None:
        """No longer counted."""
        self.limits.open.pop(self, None)
        super().connection_lost(exc)

    def check_asked(self) -> None:
        """Close the connection if no whole request came within the header timeout."""
        if not self.asked and self in self.limits.open:
            self.limits.drop(self)

    def handle_error(self, request: web.BaseRequest, status: int = 500, exc: BaseException | None = None,
                     message: str | None = None) -> web.StreamResponse:
        """A request aiohttp could not parse (or a handler's crash): 403 (500) and one line, no traceback."""
        if status == 500:
            log.warning("a request failed: %s", type(exc).__name__ if exc else "unknown")
        response = web.Response(status=500 if status == 500 else 403,
                                text="500: Internal Server Error\n" if status == 500 else FORBIDDEN,
                                headers=HEADERS)
        response.force_close()
        return response


@dataclass
class Limits:
    """The server's caps (SCOREKEEPER_SERVE_* in the environment lowers or raises them, for a test)."""

    connections: int = MAX_CONNECTIONS
    apps: int = MAX_APPS
    header_timeout: float = HEADER_TIMEOUT
    open: dict[Connection, None] = field(default_factory=dict)

    @classmethod
    def from_environment(cls) -> Limits:
        """The caps, each from its environment variable if it holds a positive number."""
        def number(name: str, default: float) -> float:
            try:
                value = float(os.environ.get(name, ""))
            except ValueError:
                return default
            return value if 0 < value < 1e6 else default
        return cls(connections=int(number("SCOREKEEPER_SERVE_MAX_CONNECTIONS", MAX_CONNECTIONS)),
                   apps=int(number("SCOREKEEPER_SERVE_MAX_APPS", MAX_APPS)),
                   header_timeout=number("SCOREKEEPER_SERVE_HEADER_TIMEOUT", HEADER_TIMEOUT))

    def drop(self, connection: Connection) -> None:
        """Close a connection now."""
        self.open.pop(connection, None)
        if connection.link is not None:
            connection.link.close()


class TokenServer(Server):
    """textual-serve's server with every route under a secret token; anything else is 403."""

    def __init__(self, folder: Path, token: str, host: str, port: int, out: TextIO) -> None:
        self.folder = folder
        self.token = token
        self.secret = secrets.token_bytes(32)
        """The key seat links are signed with (new at every start, as the token)."""
        self.out = out
        self.argv = [sys.executable, "-m", "scorekeeper", "--dir", str(folder)]
        self.sockets: set[web.WebSocketResponse] = set()
        self.limits = Limits.from_environment()
        self.addresses: list[tuple[str, int]] = []
        super().__init__(" ".join(self.argv), host=host, port=port, title="scorekeeper", templates_path=WEB)

    @property
    def prefix(self) -> str:
        """The path every page, file and websocket lives under."""
        return f"/{self.token}"

    def token_in(self, request: web.Request) -> bool:
        """Whether the first segment of the request's path is the token (compared in constant time)."""
        first = request.path.lstrip("/").split("/", 1)[0]
        return hmac.compare_digest(first.encode("utf-8", "surrogateescape"), self.token.encode())

    def seat_in(self, request: web.Request) -> tuple[str, str] | None:
        """The (session file, player) of a seat link whose first segment this server signed, else None."""
        first = request.path.lstrip("/").split("/", 1)[0]
        return seats.read_seat_token(self.secret, first)

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """403 and nothing else for a request without the token (or a seat link this server signed); safe headers
        on every answer. A seat link reaches its own page, files and websocket only."""
        if isinstance(request.protocol, Connection):
            request.protocol.asked = True
        allowed = self.token_in(request) or (self.seat_in(request) is not None
                                             and request.match_info.route.name in SEAT_ROUTES)
        if not allowed or not same_origin(request):
            response: web.StreamResponse = web.Response(status=403, text=FORBIDDEN)
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                response = web.Response(status=exc.status, text=f"{exc.status}: {exc.reason}\n")
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    async def make_app(self) -> web.Application:
        """The web application: the page, the websocket and textual-serve's static files, under the token."""
        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get(self.prefix, self.serve_page),
            web.get(f"{self.prefix}/", self.serve_page),
            web.get(f"{self.prefix}/ws", self.serve_socket),
            web.static(f"{self.prefix}/static", self.statics_path, show_index=False, follow_symlinks=False),
            web.get(f"{self.prefix}/join", self.join),
            web.get("/{seat:seat[.][A-Za-z0-9_.=-]+}", self.serve_page, name="seat-page"),
            web.get("/{seat:seat[.][A-Za-z0-9_.=-]+}/", self.serve_page, name="seat-page-slash"),
            web.get("/{seat:seat[.][A-Za-z0-9_.=-]+}/ws", self.serve_socket, name="seat-ws"),
            web.get("/{seat:seat[.][A-Za-z0-9_.=-]+}/static/{file:.+}", self.serve_static, name="seat-static"),
        ])
        app.on_shutdown.append(self.on_shutdown)
        return app

    def prefix_of(self, request: web.Request) -> str:
        """The path the request's page lives under: the table's token, or its seat link."""
        seat = request.match_info.get("seat")
        return f"/{seat}" if seat is not None else self.prefix

    async def serve_page(self, request: web.Request) -> web.StreamResponse:
        """The page, with the websocket's address on the host the browser used."""
        scheme = "wss" if request.secure else "ws"
        prefix = self.prefix_of(request)
        context = {
            "font_size": min(max(to_int(request.query.get("fontsize", "16"), 16), 6), 48),
            "static_url": f"{prefix}/static/",
            "websocket_url": f"{scheme}://{request.host}{prefix}/ws",
        }
        return aiohttp_jinja2.render_template("index.html", request, context)

    async def serve_static(self, request: web.Request) -> web.StreamResponse:
        """textual-serve's static files for a seat's page (its own links carry no table token)."""
        root = Path(self.statics_path).resolve()
        name = request.match_info["file"]
        target = (root / name).resolve()
        if ".." in name.split("/") or not target.is_relative_to(root) or not target.is_file():
            return web.Response(status=404, text="404: Not Found\n")
        return web.FileResponse(target)

    def seat_file(self, name: str) -> tuple[Path | None, str]:
        """The session file a seat may open, by its name: a regular file directly in the sessions folder (not a
        link, not outside it); else None and why, for the page."""
        import stat

        path = self.folder / name
        if not seats.plain_name(name):
            return None, "no such session"
        try:
            st = os.lstat(path)
        except OSError:
            return None, "no such session"
        if stat.S_ISLNK(st.st_mode) or path.resolve().parent != self.folder.resolve():
            return None, ("the session file is a link; a seat opens only a session file kept in the sessions "
                          "folder itself (copy the file there)")
        if not stat.S_ISREG(st.st_mode):
            return None, "no such session"
        return path, ""

    def seat_argv(self, file: Path, player: str) -> list[str]:
        """The command of a seat's app: `--` before the file and the player, whatever they start with."""
        return [*self.argv, "seat", "--", str(file), player]

    async def join(self, request: web.Request) -> web.StreamResponse:
        """"Join as" from the table's page: 303 to the seat's own link (which opens that seat only); a page saying
        why when the session cannot have seats (a link, a folder where seats cannot be kept)."""
        name, player = request.query.get("file", ""), request.query.get("seat", "")
        path, why = self.seat_file(name)
        if path is None and why != "no such session":
            return self.cannot_join(name, player, why)
        if path is None or not player or len(player) > seats.MAX_NAME:
            return web.Response(status=404, text="404: no such session or seat\n")
        from scorekeeper import files
        from scorekeeper.model.session import SessionError

        try:
            session, _ = files.load(path)
        except (SessionError, OSError):
            return web.Response(status=404, text="404: no such session or seat\n")
        if player not in session.players:
            return web.Response(status=404, text="404: no such session or seat\n")
        problem = seats.problem(path)
        if problem is not None:
            return self.cannot_join(name, player, problem)
        return web.Response(status=303, headers={"Location": f"/{seats.seat_token(self.secret, name, player)}/"})

    def cannot_join(self, name: str, player: str, why: str) -> web.Response:
        """The phone's page and the host's line when a seat cannot be taken (the names inert)."""
        log.warning("a phone could not join %s as %s: %s", inert(name), inert(player), why)
        return web.Response(status=409, text=f"409: {inert(player)} cannot join {inert(name)} as a seat: {why}.\n")

    async def serve_socket(self, request: web.Request) -> web.StreamResponse:
        """One browser: an app process on the sessions folder, its screen and keys over the websocket (a seat's
        link: the app on that session as that player's seat)."""
        argv = self.argv
        seat = self.seat_in(request) if "seat" in request.match_info else None
        if seat is not None:
            file, why = self.seat_file(seat[0])
            if file is None:
                return web.Response(status=404, text=f"404: {why}\n")
            argv = self.seat_argv(file, seat[1])
        if len(self.sockets) >= self.limits.apps:
            return web.Response(status=503, text=f"503: already {self.limits.apps} browsers open\n")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 20)
        self.sockets.add(websocket)
        service: AppProcess | None = None
        try:
            await websocket.prepare(request)
            service = AppProcess(argv, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                                 close=websocket.close, download_manager=self.download_manager)
            await service.start(*size(request.query.get("width"), request.query.get("height")))
            await relay(websocket, service)
        except (ValueError, AssertionError, KeyError, TypeError, IndexError, OSError) as exc:
            log.warning("a browser sent something unexpected: %s", type(exc).__name__)
        finally:
            self.sockets.discard(websocket)
            if service is not None:
                await service.stop()
            await websocket.close()
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every browser's websocket: each app quits, having saved everything."""
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
                               for ws in list(self.sockets)), return_exceptions=True)

    async def run(self) -> int:
        """Listen, say where, and serve until Ctrl+C (or SIGTERM); then stop cleanly."""
        runner = web.AppRunner(await self.make_app(), handle_signals=False, access_log=None, shutdown_timeout=10)
        await runner.setup()
        loop = asyncio.get_running_loop()
        manager = runner.server
        assert manager is not None
        quiet = logging.getLogger("scorekeeper.web.serve.http")
        quiet.propagate = False
        quiet.addHandler(logging.NullHandler())

        def connection() -> Connection:
            return Connection(self.limits, manager, loop=loop, keepalive_timeout=KEEPALIVE_TIMEOUT, logger=quiet,
                              access_log=None)

        try:
            listener = await loop.create_server(connection, self.host, self.port, reuse_address=True)
        except OSError as exc:
            await runner.cleanup()
            raise ServeError(f"cannot listen on {self.host} port {self.port}: {exc.strerror or exc}") from exc
        self.addresses = [(str(s.getsockname()[0]), int(s.getsockname()[1])) for s in listener.sockets]
        stop = asyncio.Event()
        for sig in (signal.SIGINT, signal.SIGTERM):
            loop.add_signal_handler(sig, stop.set)
        self.announce()
        try:
            await stop.wait()
        finally:
            for sig in (signal.SIGINT, signal.SIGTERM):
                loop.remove_signal_handler(sig)
            print(f"\nStopping: closing {len(self.sockets)} browser session(s); every change is already saved.",
                  file=self.out, flush=True)
            listener.close()
            await runner.cleanup()
            await listener.wait_closed()
        print("Stopped.", file=self.out, flush=True)
        return 0

    def urls(self) -> list[str]:
        """The addresses to open, token included: one per address the server listens on."""
        urls: list[str] = []
        for host, port in self.addresses:
            shown = host
            if ipaddress.ip_address(host.split("%")[0]).is_unspecified:
                shown = network_address() or socket.gethostname()
            if ":" in shown:
                shown = f"[{shown}]"
            url = f"http://{shown}:{port}{self.prefix}/"
            if url not in urls:
                urls.append(url)
        return urls

    def announce(self) -> None:
        """Print where the server listens, who can reach it, the URL with the token and its QR code."""
        out = self.out
        listening = ", ".join(f"[{h}]:{p}" if ":" in h else f"{h}:{p}" for h, p in self.addresses)
        print(f"scorekeeper serve: the sessions in {inert(self.folder)}", file=out)
        print(f"Listening on {listening}", file=out)
        if all(is_loopback(h) for h, _ in self.addresses):
            print("Only this computer can connect. To play from a phone on the same Wi-Fi, "
                  "start with --host 0.0.0.0.", file=out)
        else:
            print("OPEN TO THE NETWORK: any device on this network that has the address below can use the app "
                  "and change the sessions in this folder. Show it only to the table; no encryption (plain HTTP), "
                  "so use a network you trust.", file=out)
        urls = self.urls()
        print("\nOpen this address (the secret token in it is new at every start; without it: 403):", file=out)
        for url in urls:
            print(f"  {url}", file=out)
        print(file=out)
        print(qr_text(urls[0]), file=out)
        print("Ctrl+C stops the server.", file=out, flush=True)


def size(width: object, height: object) -> tuple[int, int]:
    """A terminal size from a browser, clamped to 10..500 columns and 5..300 rows (never a huge screen)."""
    columns = to_int(width, 80) if isinstance(width, str) else width if isinstance(width, int) else 80
    rows = to_int(height, 24) if isinstance(height, str) else height if isinstance(height, int) else 24
    return min(max(columns, 10), MAX_WIDTH), min(max(rows, 5), MAX_HEIGHT)


async def relay(websocket: web.WebSocketResponse, service: AppService) -> None:
    """The browser's keys, sizes, focus and pings to the app (AppService's public methods); sizes clamped."""
    async for message in websocket:
        if message.type != WSMsgType.TEXT:
            continue
        envelope = message.json()
        if not isinstance(envelope, list) or not envelope:
            continue
        kind = envelope[0]
        if kind == "stdin" and len(envelope) > 1 and isinstance(envelope[1], str):
            await service.send_bytes(envelope[1].encode("utf-8", "surrogateescape"))
        elif kind == "resize" and len(envelope) > 1 and isinstance(envelope[1], dict):
            await service.set_terminal_size(*size(envelope[1].get("width"), envelope[1].get("height")))
        elif kind == "ping" and len(envelope) > 1:
            await websocket.send_json(["pong", envelope[1]])
        elif kind == "blur":
            await service.blur()
        elif kind == "focus":
            await service.focus()


def same_origin(request: web.Request) -> bool:
    """A websocket opened from a page of this server (a browser always sends its Origin for one)."""
    if request.headers.get("Upgrade", "").lower() != "websocket":
        return True
    origin = request.headers.get("Origin")
    return origin is None or urlsplit(origin).netloc == request.host


def is_loopback(host: str) -> bool:
    """Whether an address is this computer's own (127.0.0.0/8, ::1)."""
    try:
        return ipaddress.ip_address(host.split("%")[0]).is_loopback
    except ValueError:
        return False


def network_address() -> str | None:
    """This computer's address on the local network (a UDP socket is pointed, nothing is sent)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
            probe.connect(("192.0.2.1", 9))
            address = str(probe.getsockname()[0])
    except OSError:
        return None
    return None if ipaddress.ip_address(address).is_unspecified else address


def qr_text(url: str) -> str:
    """The URL as a QR code in half-block characters, for a phone's camera."""
    import segno

    buffer = io.StringIO()
    segno.make(url, error="l", micro=False).terminal(out=buffer, compact=True, border=2)
    return buffer.getvalue()


def serve(folder: Path, host: str = DEFAULT_HOST, port: int = DEFAULT_PORT, out: TextIO | None = None) -> int:
    """Serve the app on a sessions folder until Ctrl+C; the exit code."""
    folder = folder.expanduser().resolve()
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise ServeError(f"cannot use the sessions folder {folder}: {exc.strerror or exc}") from exc
    logging.basicConfig(level=logging.WARNING, format="%(message)s")
    server = TokenServer(folder, secrets.token_urlsafe(32), host, port, out or sys.stdout)
    return asyncio.run(server.run())
