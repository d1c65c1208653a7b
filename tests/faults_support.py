"""Hostile session files, a pseudo-terminal runner for the app, and the writer used in the save race."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import struct
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

HEAD = 'format = 1\ngame = "ticket-booth"\nplayers = ["Ana", "Bo"]\n'
TTR_HEAD = 'format = 1\ngame = "ticket-to-ride"\nplayers = ["Ana", "Bo"]\n'
FIN_HEAD = 'format = 1\ngame = "ticket-to-finland"\nplayers = ["Ana", "Bo"]\n'
ROUND = "\n[[rounds]]\n[rounds.players.Ana]\n"

# (name, file bytes, the line the refusal must name, a word the message must hold)
HOSTILE: list[tuple[str, bytes, int, str]] = [
    ("int-5000-digits", (HEAD + ROUND + "tickets = " + "9" * 5000 + "\n").encode(), 7, "digits"),
    ("int-5000-digits-in-array", (TTR_HEAD + ROUND + "tickets = [{ points = " + "7" * 5000 + " }]\n").encode(), 7,
     "digits"),
    ("arrays-500-deep", (HEAD + "x = " + "[" * 500 + "]" * 500 + "\n").encode(), 4, "nested"),
    ("tables-500-deep", (HEAD + "x = " + "{ a = " * 500 + "1" + " }" * 500 + "\n").encode(), 4, "nested"),
    ("dotted-key-100000-parts", (HEAD + "a" + ".a" * 100_000 + " = 1\n").encode(), 1, "at most"),
    ("dotted-key-60000-parts", (HEAD + "a" + ".a" * 60_000 + " = 1\n").encode(), 4, "dotted key"),
    ("dotted-header-60000-parts", (HEAD + "[" + "a." * 60_000 + "a]\n").encode(), 4, "dotted key"),
    ("backslash-x-in-multiline-string",
     (HEAD + "notes = '''\nsome notes\n\"\\x\" = 1\n[\"\\x\"]\n'''\ntitle = 3\n").encode(), 9, "expected text"),
    ("tickets-50000", (TTR_HEAD + ROUND + "tickets = [\n" + "{ points = 5, completed = true },\n" * 50_000
                       + "]\n").encode(), 1, "at most"),
    ("tickets-5000", (TTR_HEAD + ROUND + "tickets = [\n" + "{ points = 5 },\n" * 5_000 + "]\n").encode(), 7,
     "5,000 cards"),
    ("string-5mb", (HEAD + 'title = "' + "x" * 5_000_000 + '"\n').encode(), 1, "at most"),
    ("string-100k", (HEAD + 'notes = """' + "x\n" * 50_000 + '"""\n').encode(), 4, "characters"),
    ("title-300-chars", (HEAD + 'title = "' + "x" * 300 + '"\n').encode(), 4, "300 characters"),
    ("not-utf8", (HEAD + 'notes = """\nab\xff\n"""\n').encode("latin-1"), 5, "not UTF-8"),
    ("unterminated", (HEAD + 'title = "open\n').encode(), 4, "not valid TOML"),
    ("rounds-150", (HEAD + "\n[[rounds]]\n" * 150).encode(), 5, "150 rounds"),
    ("40000-tables-within-the-size-limit", (HEAD + "x = [" + "{}," * 40_000 + "]\n").encode(), 4, "unknown key"),
]

# (field, file text): an OSC 2 title change, a BEL, a C1 CSI, an OSC 8 link, a carriage return, a bidi override
PAYLOAD = "\x1b]2;PWNED\x07\x9b31m\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\\r\u202e"
TOML_PAYLOAD = PAYLOAD.encode("unicode_escape").decode("ascii").replace("\\x", "\\u00").replace('"', '\\"')
CONTROL_FIELDS: list[tuple[str, str, int]] = [
    ("title", HEAD + f'title = "{TOML_PAYLOAD}"\n', 4),
    ("notes", HEAD + f'notes = "{TOML_PAYLOAD}"\n', 4),
    ("ticket-name", TTR_HEAD + ROUND + f'tickets = [{{ name = "{TOML_PAYLOAD}", completed = true }}]\n', 7),
    ("tourist-name", FIN_HEAD + ROUND + f'tourists = [{{ points = 3, name = "{TOML_PAYLOAD}" }}]\n', 7),
    ("attraction-name", HEAD + f'[rules]\nattraction_names = {{ "4" = "{TOML_PAYLOAD}" }}\n', 5),
    ("route-name", TTR_HEAD + '[rules]\nmap = "usa"\n' + ROUND + f'claimed = ["{TOML_PAYLOAD}"]\n', 9),
    ("player-name", HEAD.replace('"Bo"', f'"{TOML_PAYLOAD}"'), 3),
    ("key", HEAD + f'"{TOML_PAYLOAD}" = 1\n', 4),
]


def data_leaks(output: bytes) -> list[str]:
    """The pieces of PAYLOAD that reached a terminal as they are (empty: none did)."""
    leaks = []
    for name, raw in (("OSC 2", b"\x1b]2;PWNED"), ("BEL after data", b"PWNED\x07"), ("C1 CSI", "\x9b".encode()),
                      ("OSC 8", b"\x1b]8;;http://x"), ("bidi override", "\u202e".encode())):
        if raw in output:
            leaks.append(name)
    return leaks


@dataclass
class PtyRun:
    """What an app run in a pseudo-terminal wrote and how it ended."""

    output: bytes
    status: int | None


def run_in_pty(argv: list[str], *, keys: list[tuple[float, bytes]] = (), send_signal: tuple[float, int] | None = None,
               timeout: float = 20.0, env: dict[str, str] | None = None, size: tuple[int, int] = (40, 120),
               ready: bytes | None = None) -> PtyRun:
    """Run a program on a pseudo-terminal: type keys at given times, maybe send a signal, collect every byte.

    With `ready`, the times count from when those bytes first appear in the output (the app is up).
    """
    import fcntl
    import pty
    import termios

    pid, fd = pty.fork()
    if pid == 0:  # pragma: no cover - the child
        os.environ.update(env or {})
        os.environ["TERM"] = "xterm-256color"
        os.execv(argv[0], argv)
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", size[0], size[1], 0, 0))
    start = time.monotonic()
    out = bytearray()
    pending = sorted(keys)
    sig = send_signal
    status: int | None = None
    began = None if ready else start
    while time.monotonic() - start < timeout:
        if began is None and ready is not None and ready in out:
            began = time.monotonic()
        now = time.monotonic() - began if began is not None else -1.0
        while pending and 0 <= pending[0][0] <= now:
            try:
                os.write(fd, pending.pop(0)[1])
            except OSError:
                pass
        if sig and 0 <= sig[0] <= now:
            os.kill(pid, sig[1])
            sig = None
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                data = b""
            out += data
        done, raw = os.waitpid(pid, os.WNOHANG)
        if done:
            status = os.waitstatus_to_exitcode(raw)
            try:
                while select.select([fd], [], [], 0.2)[0]:
                    data = os.read(fd, 65536)
                    if not data:
                        break
                    out += data
            except OSError:
                pass
            break
    else:
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
    os.close(fd)
    return PtyRun(bytes(out), status)


def scorekeeper_argv(*args: str) -> list[str]:
    """The command line of scorekeeper in this environment."""
    return [sys.executable, "-m", "scorekeeper", *args]


WRITER = r'''
import sys, time, json
from pathlib import Path
from typing import Any
from dataclasses import replace
from scorekeeper import files, store
from scorekeeper.walk.document import Document

path, who, seconds = Path(sys.argv[1]), sys.argv[2], float(sys.argv[3])
if sys.argv[4:] == ["--no-lock"]:  # to show what the lock prevents
    import contextlib
    store.folder_lock = lambda folder: contextlib.nullcontext()
doc = Document.open(path)
log = []
seq = 0
end = time.monotonic() + seconds
conflicts = 0
while time.monotonic() < end:
    seq += 1
    before = doc.fingerprint
    try:
        doc.commit(replace(doc.session, title=f"{who}-{seq}"))
    except store.ChangedOnDisk:
        conflicts += 1
        doc.reload()
        continue
    log.append([before, doc.fingerprint])
print(json.dumps({"writes": log, "conflicts": conflicts}))
'''


def race(path: Path, writers: int = 2, seconds: float = 3.0, *, lock: bool = True) -> tuple[int, int, int]:
    """Several processes saving one session through the app's Document at once.

    Returns (saves, conflicts seen, silent overwrites): a save that replaced a version another
    save had already replaced is one that overwrote a write without having seen it.
    """
    import json

    procs = [subprocess.Popen([sys.executable, "-c", WRITER, str(path), f"w{i}", str(seconds),
                               *([] if lock else ["--no-lock"])],
                              stdout=subprocess.PIPE, text=True) for i in range(writers)]
    results = [json.loads(p.communicate()[0]) for p in procs]
    replaced: dict[str, int] = {}
    saves = conflicts = 0
    for r in results:
        conflicts += r["conflicts"]
        for before, _after in r["writes"]:
            saves += 1
            replaced[before] = replaced.get(before, 0) + 1
    silent = sum(n - 1 for n in replaced.values() if n > 1)
    return saves, conflicts, silent


SNIPPETS = ["\\x", "\\u00", "[[", "]]", "{", "}", "[", "]", '"""', "'''", "#", "=", ".", ",", "\n", "\r", "\x00",
            "\x1b]2;x\x07", "9" * 5000, "[" * 300, "a." * 3000, "\ud800", "\xff", "inf", "nan", "1e999", "-0",
            "true", "1979-05-27T07:32:00Z", "07:32:00", '"', "'", "\\", "\t", "0x" + "f" * 5000, "\U0001d11e",
            "\u202e", "{ a = " * 40, "\x85", "\u2028"]


VALUES = ["0", "-1", "1" * 31, "-" + "9" * 31, "1.5", "inf", "nan", "true", '""', '"x"', '"\\u001b[2J"', "[]",
          "[1, 2]", "{}", "{ 1 = 1 }", "{ points = 99 }", "[{ points = 5 }]", "[{}]", "1979-05-27", "07:32:00",
          '"' + "y" * 300 + '"', "[" + ", ".join(["{ points = 1 }"] * 250) + "]", '"Ana"', "0x7fffffff"]


def mutate(text: str, rng: Any) -> bytes:
    """A sample session with one to four random edits: a value replaced by an odd one (half the time),
    else hostile snippets inserted, spans cut or repeated, characters replaced (a lone surrogate makes
    the bytes not UTF-8)."""
    if rng.random() < 0.5:
        spots = [i for i in range(len(text)) if text.startswith(" = ", i)]
        for _ in range(rng.randint(1, 2)):
            if spots:
                i = rng.choice(spots) + 3
                end = text.find("\n", i)
                text = text[:i] + rng.choice(VALUES) + text[end if end >= 0 else len(text):]
                spots = [j for j in range(len(text)) if text.startswith(" = ", j)]
        return text.encode()
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randint(0, len(text))
        if op < 0.4:
            text = text[:i] + rng.choice(SNIPPETS) + text[i:]
        elif op < 0.6:
            text = text[:i] + text[min(len(text), i + rng.randint(1, 20)):]
        elif op < 0.8:
            j = rng.randint(0, len(text))
            text = text[:i] + text[j:min(len(text), j + rng.randint(1, 60))] + text[i:]
        else:
            text = text[:i] + chr(rng.randint(0, 0x3000)) + text[i + 1:]
    return text.encode("utf-8", "surrogatepass")


def fuzz(samples: list[str], n: int, seed: int = 1) -> dict[str, Any]:
    """Read and score n mutated samples in-process: how many were fine, refused, crashed, slow, or refused
    without a line; with the first crashes' tracebacks."""
    import random
    import traceback

    from scorekeeper import files, games
    from scorekeeper.model.session import SessionError
    from scorekeeper.store import reading

    rng = random.Random(seed)
    out: dict[str, Any] = {"files": n, "read": 0, "refused": 0, "crashed": 0, "over 1 s": 0, "no line": 0,
                           "slowest s": 0.0, "tracebacks": [], "without line": []}
    for _ in range(n):
        data = mutate(rng.choice(samples), rng)
        start = time.perf_counter()
        try:
            try:
                session, problems = files.parse(reading.decode(data))
            except SessionError as exc:
                session, problems = None, exc.problems
            if session is not None:
                games.score(session, problems)
        except Exception:  # noqa: BLE001 - counting them is the point
            out["crashed"] += 1
            out["tracebacks"].append(traceback.format_exc()[-800:])
            continue
        took = time.perf_counter() - start
        out["slowest s"] = max(out["slowest s"], took)
        out["over 1 s"] += took > 1.0
        if session is None:
            out["refused"] += 1
            errors = [p for p in problems if p.is_error]
            if not errors or errors[0].line is None:
                out["no line"] += 1
                out["without line"].append(errors[0].describe() if errors else "no error")
        else:
            out["read"] += 1
    return out


@contextlib.contextmanager
def disk_full() -> Iterator[None]:
    """Every write of the store fails as on a full disk (ENOSPC) while inside."""
    import errno

    from scorekeeper import store

    real = store._write_all

    def full(fd: int, data: bytes) -> None:
        raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))

    store._write_all = full  # type: ignore[assignment]
    try:
        yield
    finally:
        store._write_all = real  # type: ignore[assignment]


def exit_code_within(pid: int, seconds: float) -> int | None:
    """The child's exit code once it exits within `seconds`; else it is killed and None."""
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        done, status = os.waitpid(pid, os.WNOHANG)
        if done:
            return os.waitstatus_to_exitcode(status)
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)
    os.waitpid(pid, 0)
    return None
