"""Table bench: five phones joined as five seats of one Ticket to Ride round (headless Chromium, 390x844), and two
terminals (tmux) on one Ticket to Mars session.

Figures: the time from a key on one phone (Ana types her longest path, or deletes it) to the change drawn on
another (Bo's page shows `Ana ✓`, then `Ana …`), against the same round trip on a single page (the key to its
own echo in Ana's box), as a ratio of medians; the same between two terminals (a digit of Ana's pairs typed in
one, its explanation drawn in the other, against its own explanation in the first); and the memory of the
server's app processes per phone (VmRSS from /proc). Needs /usr/bin/chromium (Linux) and tmux; connects to
127.0.0.1 only.

    python bench/table.py [--runs N] [--terminals-only]
"""

from __future__ import annotations

import argparse
import os
import re
import selectors
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1"]
PLAYERS = ["Ana", "Bo", "Cy", "Dee", "Eli"]
URL = re.compile(r"http://127\.0\.0\.1:(\d+)/([A-Za-z0-9_-]+)/")
HOOK = """Object.defineProperty(Object.prototype, "terminal", {configurable: true, set(value) {
    window.__term = value;
    Object.defineProperty(this, "terminal", {value, writable: true, configurable: true, enumerable: true});
}});"""
HAS = """(text) => { const t = window.__term; if (!t) return false; const b = t.buffer.active, out = [];
    for (let y = 0; y < t.rows; y++) out.push(b.getLine(b.viewportY + y).translateToString(true));
    return out.join("\\n").includes(text); }"""
BOX = """(want) => { const t = window.__term; if (!t) return false; const b = t.buffer.active, out = [];
    for (let y = 0; y < t.rows; y++) out.push(b.getLine(b.viewportY + y).translateToString(true));
    const i = out.findIndex(l => l.trimStart().startsWith("Longest path (")); if (i < 0) return false;
    return out[i + 2].replace(/[\u258a\u258e]/g, "").trim() === want; }"""


def serve(folder: Path) -> tuple[subprocess.Popen[bytes], str]:
    """`scorekeeper serve` on a free loopback port; the process and its URL."""
    proc = subprocess.Popen([sys.executable, "-m", "scorekeeper", "serve", "--dir", str(folder), "--port", "0"],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, cwd=ROOT)
    assert proc.stdout is not None
    seen, deadline = b"", time.monotonic() + 30
    with selectors.DefaultSelector() as sel:
        sel.register(proc.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline and sel.select(timeout=deadline - time.monotonic()):
            chunk = os.read(proc.stdout.fileno(), 65536)
            if not chunk:
                break
            seen += chunk
            if match := URL.search(seen.decode(errors="replace")):
                return proc, match.group(0)
    proc.kill()
    raise SystemExit("serve printed no URL:\n" + seen.decode(errors="replace"))


def stop(proc: subprocess.Popen[bytes]) -> None:
    proc.send_signal(signal.SIGINT)
    try:
        proc.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        proc.kill()


def seat_page(browser: Any, url: str, player: str) -> Any:
    """A phone-sized page joined as the player's seat, walked to the Longest path step (routes and a ticket); its
    box is framed: the value is the line inside the frame, two below the label."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    context.route("**/*", lambda r: r.continue_() if r.request.url.startswith("http://127.0.0.1:") else r.abort())
    page = context.new_page()
    page.add_init_script(HOOK)
    page.goto(f"{url}join?file=ttr.toml&seat={player}")
    page.wait_for_function(HAS, arg=f"{player} · Round", timeout=60_000)
    page.mouse.click(100, 60)
    page.keyboard.type("9")  # the routes on the score track
    page.keyboard.press("Enter")
    page.wait_for_function(HAS, arg="Destination tickets", timeout=20_000)
    page.keyboard.type(f"8 {player}ville – {player}burg")
    page.keyboard.press("Enter")
    page.keyboard.press("Enter")
    page.wait_for_function(HAS, arg="Longest path  step", timeout=20_000)
    return page


def round_trips(typist: Any, watcher: Any, runs: int, same: bool) -> list[float]:
    """Seconds from a key on the typist's page to the change drawn on the watcher's (its own box when `same`)."""
    times = []
    for i in range(runs):
        key, shown = ("5", "Ana ✓") if i % 2 == 0 else ("Backspace", "Ana …")
        start = time.perf_counter()
        typist.keyboard.press(key)
        if same:
            watcher.wait_for_function(BOX, arg="5" if key == "5" else "", polling=5, timeout=20_000)
        else:
            watcher.wait_for_function(HAS, arg=shown, polling=5, timeout=20_000)
        times.append(time.perf_counter() - start)
        time.sleep(0.15)
    return times


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def children(pid: int) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1]) == pid:
                    found.append(int(entry.name))
            except (OSError, IndexError, ValueError):
                continue
    return found


def terminal_trips(folder: Path, runs: int) -> tuple[list[float], list[float]]:
    """Seconds from a key typed in one terminal to its explanation drawn there (own echo) and in another."""
    import shutil

    from scorekeeper.model.session import Round
    from tests.test_tui_support import write_session

    if shutil.which("tmux") is None:
        raise SystemExit("tmux is needed for the terminals")
    path = write_session(folder, "ticket-to-mars", ["Ana", "Bo"],
                         rounds=(Round(players={"Ana": {"pairs": {"each": 3}}}),))
    server = f"sk-table-{os.getpid()}"
    env = {"SCOREKEEPER_HOME": str(folder), "XDG_CACHE_HOME": str(folder / "cache"), "TERM": "xterm-256color",
           "TEXTUAL_ANIMATIONS": "none", "PYTHONPATH": str(ROOT)}
    exports = " ".join(f"{k}='{v}'" for k, v in env.items())

    def tmux(*args: str) -> str:
        return subprocess.run(["tmux", "-L", server, *args], capture_output=True, text=True, timeout=20).stdout

    def shows(name: str, text: str, present: bool) -> None:
        end = time.monotonic() + 20
        while (text in tmux("capture-pane", "-p", "-t", name)) != present:
            if time.monotonic() > end:
                raise SystemExit(f"{text!r} {'never' if present else 'always'} on {name}")
            time.sleep(0.002)

    own: list[float] = []
    other: list[float] = []
    try:
        for name in ("one", "two"):
            tmux("new-session", "-d", "-s", name, "-x", "100", "-y", "30",
                 f"env {exports} '{sys.executable}' -m scorekeeper '{path}'")
        for name in ("one", "two"):
            shows(name, "Ana", True)
        time.sleep(1.0)
        for i in range(runs * 2):
            key, present = ("5", True) if i % 2 == 0 else ("BSpace", False)
            watcher, times = ("one", own) if i < runs else ("two", other)
            start = time.perf_counter()
            tmux("send-keys", "-t", "one", key)
            shows(watcher, "5 pairs × 3", present)
            times.append(time.perf_counter() - start)
            shows("two", "5 pairs × 3", present)  # both settled before the next key
            time.sleep(0.15)
    finally:
        tmux("kill-server")
    return own, other


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20, help="round trips measured each way (default 20)")
    parser.add_argument("--terminals-only", action="store_true", help="only the two terminals, no browser")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        own, other = terminal_trips(Path(tmp), args.runs)
    print(f"key -> its own explanation, one terminal:   median {statistics.median(own) * 1000:6.0f} ms "
          f"(min {min(own) * 1000:.0f}, max {max(own) * 1000:.0f})")
    print(f"key -> drawn in the other terminal:         median {statistics.median(other) * 1000:6.0f} ms "
          f"(min {min(other) * 1000:.0f}, max {max(other) * 1000:.0f})")
    print(f"terminals ratio: {statistics.median(other) / statistics.median(own):.1f}x  ({args.runs} round trips each; "
          f"load {os.getloadavg()[0]:.1f})")
    if args.terminals_only:
        return 0
    from playwright.sync_api import sync_playwright

    from tests.test_tui_support import write_session

    results: dict[str, list[float]] = {}
    memory: list[int] = []
    with tempfile.TemporaryDirectory() as tmp, sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS, headless=True)
        for case in ("single", "five"):
            folder = Path(tmp) / case
            write_session(folder, "ticket-to-ride", PLAYERS, name="ttr.toml")
            proc, url = serve(folder)
            try:
                pages = [seat_page(browser, url, p) for p in (PLAYERS[:1] if case == "single" else PLAYERS)]
                if case == "five":
                    time.sleep(1)
                    apps = children(proc.pid)
                    memory = [rss_kib(pid) for pid in apps]
                    results[case] = round_trips(pages[0], pages[1], args.runs, same=False)
                else:
                    results[case] = round_trips(pages[0], pages[0], args.runs, same=True)
                for page in pages:
                    page.context.close()
            finally:
                stop(proc)
        browser.close()
    single, five = statistics.median(results["single"]), statistics.median(results["five"])
    print(f"key -> its own echo, one page:           median {single * 1000:6.0f} ms "
          f"(min {min(results['single']) * 1000:.0f}, max {max(results['single']) * 1000:.0f})")
    print(f"key -> drawn on another phone, five:     median {five * 1000:6.0f} ms "
          f"(min {min(results['five']) * 1000:.0f}, max {max(results['five']) * 1000:.0f})")
    print(f"ratio: {five / single:.1f}x  ({args.runs} round trips each; load {os.getloadavg()[0]:.1f})")
    if memory:
        print(f"memory: {len(memory)} app processes, {statistics.mean(memory) / 1024:.0f} MB each on average "
              f"(VmRSS; {sum(memory) / 1024:.0f} MB for the five phones)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
