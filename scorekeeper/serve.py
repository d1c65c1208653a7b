"""`scorekeeper serve`: the app in a web browser through textual-serve, behind a fresh secret token."""

from __future__ import annotations

import asyncio
import hmac
import io
import ipaddress
import logging
import secrets
import signal
import socket
import sys
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, TextIO
from urllib.parse import urlsplit

import aiohttp_jinja2
import jinja2
from aiohttp import WSCloseCode, web
from textual_serve.app_service import AppService
from textual_serve.server import Server, to_int

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000
FORBIDDEN = "403: Forbidden\n"
MAX_BROWSERS = 12
WEB = Path(__file__).parent / "web"
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

log = logging.getLogger("scorekeeper.serve")
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


class ServeError(Exception):
    """The server cannot start (a port in use, an address not here): a message for the user."""


class AppProcess(AppService):
    """One app process per browser: started without a shell, in a session of its own."""

    def __init__(self, argv: list[str], **kwargs: Any) -> None:
        super().__init__(" ".join(argv), **kwargs)
        self.argv = argv

    async def _open_app_process(self, width: int = 80, height: int = 24) -> asyncio.subprocess.Process:
        """Start the app: its own session, so the terminal's Ctrl+C reaches the server only."""
        self._process = process = await asyncio.create_subprocess_exec(
            *self.argv,
            stdin=asyncio.subprocess.PIPE,
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
            env=self._build_environment(width=width, height=height),
            start_new_session=True,
        )
        assert process.stdin is not None
        self._stdin = process.stdin
        return process

    async def stop(self) -> None:
        """Ask the app to quit (it has saved every change already); a process that does not end is killed."""
        try:
            await asyncio.wait_for(super().stop(), timeout=5)
        except TimeoutError:
            log.warning("an app did not quit within 5 seconds: ended")
        process = self._process
        if process is not None and process.returncode is None:
            try:
                await asyncio.wait_for(process.wait(), timeout=5)
            except TimeoutError:
                process.kill()
                await process.wait()


class TokenServer(Server):
    """textual-serve's server with every route under a secret token; anything else is 403."""

    def __init__(self, folder: Path, token: str, host: str, port: int, out: TextIO) -> None:
        self.folder = folder
        self.token = token
        self.out = out
        self.argv = [sys.executable, "-m", "scorekeeper", "--dir", str(folder)]
        self.sockets: set[web.WebSocketResponse] = set()
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

    @web.middleware
    async def guard(self, request: web.Request, handler: Handler) -> web.StreamResponse:
        """403 and nothing else for a request without the token; safe headers on every answer."""
        if not self.token_in(request) or not same_origin(request):
            response: web.StreamResponse = web.Response(status=403, text=FORBIDDEN)
        else:
            try:
                response = await handler(request)
            except web.HTTPException as exc:
                response = web.Response(status=exc.status, text=f"{exc.status}: {exc.reason}\n")
        if not response.prepared:
            response.headers.update(HEADERS)
        return response

    async def _make_app(self) -> web.Application:
        """The web application: the page, the websocket and textual-serve's static files, under the token."""
        app = web.Application(middlewares=[self.guard])
        aiohttp_jinja2.setup(app, loader=jinja2.FileSystemLoader(self.templates_path))
        app.add_routes([
            web.get(self.prefix, self.serve_page),
            web.get(f"{self.prefix}/", self.serve_page),
            web.get(f"{self.prefix}/ws", self.serve_socket),
            web.static(f"{self.prefix}/static", self.statics_path, show_index=False, follow_symlinks=False),
        ])
        app.on_shutdown.append(self.on_shutdown)
        return app

    async def serve_page(self, request: web.Request) -> web.StreamResponse:
        """The page, with the websocket's address on the host the browser used."""
        scheme = "wss" if request.secure else "ws"
        context = {
            "font_size": min(max(to_int(request.query.get("fontsize", "16"), 16), 6), 48),
            "static_url": f"{self.prefix}/static/",
            "websocket_url": f"{scheme}://{request.host}{self.prefix}/ws",
        }
        return aiohttp_jinja2.render_template("index.html", request, context)

    async def serve_socket(self, request: web.Request) -> web.StreamResponse:
        """One browser: an app process on the sessions folder, its screen and keys over the websocket."""
        if len(self.sockets) >= MAX_BROWSERS:
            return web.Response(status=503, text=f"503: already {MAX_BROWSERS} browsers open\n")
        websocket = web.WebSocketResponse(heartbeat=15, max_msg_size=1 << 20)
        width = min(max(to_int(request.query.get("width", "80"), 80), 10), 500)
        height = min(max(to_int(request.query.get("height", "24"), 24), 5), 300)
        await websocket.prepare(request)
        self.sockets.add(websocket)
        service = AppProcess(self.argv, write_bytes=websocket.send_bytes, write_str=websocket.send_str,
                             close=websocket.close, download_manager=self.download_manager)
        try:
            await service.start(width, height)
            await self._process_messages(websocket, service)
        except (ValueError, AssertionError, KeyError, TypeError, OSError) as exc:
            log.warning("a browser sent something unexpected: %s", type(exc).__name__)
        finally:
            self.sockets.discard(websocket)
            await service.stop()
            await websocket.close()
        return websocket

    async def on_shutdown(self, app: web.Application) -> None:
        """Close every browser's websocket: each app quits, having saved everything."""
        await asyncio.gather(*(ws.close(code=WSCloseCode.GOING_AWAY, message=b"server stopped")
                               for ws in list(self.sockets)), return_exceptions=True)

    async def run(self) -> int:
        """Listen, say where, and serve until Ctrl+C (or SIGTERM); then stop cleanly."""
        runner = web.AppRunner(await self._make_app(), handle_signals=False, access_log=None, shutdown_timeout=10)
        await runner.setup()
        try:
            await web.TCPSite(runner, self.host, self.port).start()
        except OSError as exc:
            await runner.cleanup()
            raise ServeError(f"cannot listen on {self.host} port {self.port}: {exc.strerror or exc}") from exc
        self.addresses = [(str(a[0]), int(a[1])) for a in runner.addresses]
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
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
            await runner.cleanup()
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
        print(f"scorekeeper serve: the sessions in {self.folder}", file=out)
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
