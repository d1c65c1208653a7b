"""A smoke test of an installed scorekeeper (the built wheel, not the source tree): the commands, the app's first
screen in a real pseudo-terminal, a packaged sample, and `serve`'s page.

Run it with the Python of the venv the wheel is installed in, from a folder outside the source tree:
    /tmp/wheel-venv/bin/python .ci/smoke.py
It prints one line per check and exits 1 at the first that fails.
"""

from __future__ import annotations

import os
import pty
import re
import select
import signal
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

BIN = Path(sys.executable).parent
SCOREKEEPER = str(BIN / "scorekeeper")
HOME = Path(tempfile.mkdtemp(prefix="scorekeeper-smoke-"))
ENV = {**os.environ, "SCOREKEEPER_HOME": str(HOME), "XDG_CACHE_HOME": str(HOME / "cache"), "TERM": "xterm-256color",
       "PYTHONPATH": ""}


def ok(what: str) -> None:
    print(f"smoke: ok   {what}", flush=True)


def fail(what: str, detail: str) -> None:
    print(f"smoke: FAIL {what}\n{detail}", flush=True)
    raise SystemExit(1)


def run(*args: str, expect: int = 0) -> str:
    done = subprocess.run([SCOREKEEPER, *args], capture_output=True, text=True, env=ENV, cwd=HOME, timeout=60)
    if done.returncode != expect:
        fail(" ".join(args), f"exit {done.returncode}\n{done.stdout}\n{done.stderr}")
    return done.stdout


def installed_not_source() -> None:
    import scorekeeper

    where = Path(scorekeeper.__file__).resolve()
    if "site-packages" not in where.parts:
        fail("the package comes from the installed wheel", str(where))
    ok(f"the package comes from the installed wheel ({where.parent})")


def commands() -> None:
    version = run("--version")
    if not re.fullmatch(r"scorekeeper \d+\.\d+\.\d+\n", version):
        fail("--version", version)
    ok(f"--version: {version.strip()}")
    games = run("games")
    for game in ("ticket-booth", "ticket-to-ride", "ticket-to-finland", "ticket-to-mars"):
        if game not in games:
            fail("games", games)
    ok("games lists the four games")
    path = run("new", "ticket-to-mars", "-p", "Ana", "-p", "Bo", "--no-open").strip()
    if not Path(path).is_file() or Path(path).parent != HOME:
        fail("new --no-open", path)
    ok(f"new --no-open made {Path(path).name} in the sessions folder")
    run("check", path)
    ok("check on the new session")


def sample() -> None:
    from importlib.resources import files

    samples = sorted(p.name for p in files("scorekeeper.samples").iterdir() if p.name.endswith(".toml"))
    if not samples:
        fail("the packaged samples", "none")
    for name in samples:
        with tempfile.TemporaryDirectory() as tmp:
            copy = Path(tmp) / name
            copy.write_bytes(files("scorekeeper.samples").joinpath(name).read_bytes())
            out = run("score", str(copy), "--json")
            if '"totals"' not in out:
                fail(f"score --json {name}", out)
    ok(f"score --json on the packaged samples: {', '.join(samples)}")


def screen_of(fd: int, until: str | tuple[str, ...], seconds: float) -> str:
    """What the app wrote within `seconds`, until every text of `until` is in it (a frame may paint in parts)."""
    wanted = [t.encode() for t in ((until,) if isinstance(until, str) else until)]
    seen = b""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                chunk = os.read(fd, 65536)
            except OSError:
                break
            if not chunk:
                break
            seen += chunk
            if all(t in seen for t in wanted):
                break
    return seen.decode("utf-8", "replace")


def first_screen() -> None:
    pid, fd = pty.fork()
    if pid == 0:  # the child: the app in the pseudo-terminal
        os.execve(SCOREKEEPER, [SCOREKEEPER], {**ENV, "COLUMNS": "100", "LINES": "30"})
    try:
        seen = screen_of(fd, ("Scorekeeper", "Open a sample"), 30)
        if "Scorekeeper" not in seen or "Open a sample" not in seen:
            fail("the app's first screen", seen[-2000:])
        ok("the app paints its home screen in a pseudo-terminal")
        os.write(fd, b"\x11")  # ctrl+q
        end = time.monotonic() + 15
        while time.monotonic() < end:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                if os.waitstatus_to_exitcode(status) != 0:
                    fail("ctrl+q", f"exit status {status}")
                ok("ctrl+q quits with exit code 0")
                return
            screen_of(fd, "\0", 0.2)
        fail("ctrl+q", "the app did not exit within 15 s")
    finally:
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except (ProcessLookupError, ChildProcessError):
            pass
        os.close(fd)


def serve_page() -> None:
    server = subprocess.Popen([SCOREKEEPER, "serve", "--port", "0"], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                              env=ENV, cwd=HOME)
    assert server.stdout is not None
    try:
        out = b""
        url = None
        end = time.monotonic() + 30
        while url is None and time.monotonic() < end:
            ready, _, _ = select.select([server.stdout], [], [], 0.5)
            if ready:
                chunk = os.read(server.stdout.fileno(), 65536)
                if not chunk:
                    break
                out += chunk
                found = re.search(rb"http://127\.0\.0\.1:\d+/[A-Za-z0-9_-]{20,}", out)
                url = found.group().decode() if found else None
        if url is None:
            fail("serve prints its URL", out.decode("utf-8", "replace"))
        with urllib.request.urlopen(url, timeout=20) as answer:
            page = answer.read().decode("utf-8", "replace")
        if answer.status != 200 or "<html" not in page.lower():
            fail("serve's page with the token", page[:500])
        ok("serve's page answers 200 with the token")
        bare = url.rsplit("/", 1)[0] + "/"
        try:
            urllib.request.urlopen(bare, timeout=20)
            fail("serve without the token", "answered")
        except urllib.error.HTTPError as exc:
            if exc.code != 403:
                fail("serve without the token", f"HTTP {exc.code}")
        ok("serve answers 403 without the token")
    finally:
        server.terminate()
        try:
            server.wait(10)
        except subprocess.TimeoutExpired:
            server.kill()


def main() -> None:
    print(f"smoke: Python {sys.version.split()[0]}, {SCOREKEEPER}", flush=True)
    installed_not_source()
    commands()
    sample()
    first_screen()
    serve_page()
    print("smoke: the installed wheel works", flush=True)


if __name__ == "__main__":
    main()
