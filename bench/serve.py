"""Serve bench: from opening the page to a drawn screen, scorekeeper's home against a bare Textual app.

Both are served by `scorekeeper serve`'s own server (the bare app by swapping the command it launches) and
opened in headless Chromium at a phone's size, alternately; the figure is the median time from `page.goto`
to the screen showing the app's first text. Then the time from Ctrl+C (SIGINT) to the server's exit with
two browsers open. Needs /usr/bin/chromium; connects to 127.0.0.1 only.

    python bench/serve.py [--runs N]
"""

from __future__ import annotations

import argparse
import asyncio
import re
import signal
import statistics
import subprocess
import sys
import tempfile
import textwrap
import threading
import time
from pathlib import Path

BARE = textwrap.dedent("""
    from textual.app import App
    from textual.widgets import Footer, Header, Static

    class Bare(App):
        def compose(self):
            yield Header()
            yield Static("bare app ready")
            yield Footer()

    Bare().run()
""")
ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
HOOK = """Object.defineProperty(Object.prototype, "terminal", {configurable: true, set(value) {
    window.__term = value;
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
}});"""
SCREEN = """(() => { const t = window.__term; if (!t) return ""; const b = t.buffer.active, out = [];
    for (let y = 0; y < t.rows; y++) out.push(b.getLine(b.viewportY + y).translateToString(true));
    return out.join("\\n"); })()"""


def bare_server(folder: Path, script: Path) -> tuple[str, asyncio.AbstractEventLoop]:
    """`scorekeeper serve`'s server launching the bare app, in a thread of this process; its URL."""
    from scorekeeper.web.serve import TokenServer

    server = TokenServer(folder, "benchbenchbenchbenchbenchbenchbenchbenchben", "127.0.0.1", 0, open("/dev/null", "w"))
    server.argv = [sys.executable, str(script)]
    loop = asyncio.new_event_loop()
    ready = threading.Event()

    async def main() -> None:
        from aiohttp import web

        runner = web.AppRunner(await server.make_app(), handle_signals=False, access_log=None)
        await runner.setup()
        await web.TCPSite(runner, "127.0.0.1", 0).start()
        server.addresses = [(str(a[0]), int(a[1])) for a in runner.addresses]
        ready.set()
        await asyncio.Event().wait()

    threading.Thread(target=loop.run_until_complete, args=(main(),), daemon=True).start()
    ready.wait(10)
    return server.urls()[0], loop


def open_time(browser: object, url: str, text: str) -> float:
    """Seconds from opening the page to the text on the screen."""
    page = browser.new_page()  # type: ignore[attr-defined]
    page.add_init_script(HOOK)
    start = time.perf_counter()
    page.goto(url)
    while text not in page.evaluate(SCREEN):
        time.sleep(0.01)
    elapsed = time.perf_counter() - start
    page.close()
    return elapsed


def main() -> None:
    """Print the medians and the ratio, then the stop time."""
    from playwright.sync_api import sync_playwright

    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    runs = parser.parse_args().runs
    tmp = Path(tempfile.mkdtemp())
    script = tmp / "bare.py"
    script.write_text(BARE)
    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--dir", str(tmp / "sessions"),
                             "--port", "0"], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    url = next(m.group(0) for line in proc.stdout if (m := re.search(r"http://127\.0\.0\.1:\d+/\S+/", line)))
    bare_url, _ = bare_server(tmp, script)
    ours: list[float] = []
    bare: list[float] = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch_persistent_context(
            str(tmp / "profile"), executable_path="/usr/bin/chromium", args=ARGS, headless=True,
            viewport={"width": 390, "height": 844})
        open_time(browser, url, "New session")
        for _ in range(runs):
            ours.append(open_time(browser, url, "New session"))
            bare.append(open_time(browser, bare_url, "bare app ready"))
        pages = [browser.new_page(), browser.new_page()]
        for page in pages:
            page.goto(url)
            page.wait_for_selector("body.-first-byte")
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        proc.wait(30)
        stop = time.perf_counter() - start
        browser.close()
    o, b = statistics.median(ours), statistics.median(bare)
    print(f"page opened to home drawn, scorekeeper: {o * 1000:.0f} ms (median of {runs})")
    print(f"page opened to screen drawn, bare Textual app: {b * 1000:.0f} ms")
    print(f"ratio: {o / b:.2f}x")
    print(f"Ctrl+C to exit with 2 browsers open: {stop * 1000:.0f} ms (exit code {proc.returncode})")


if __name__ == "__main__":
    main()
