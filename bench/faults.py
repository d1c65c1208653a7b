"""Fault campaign: kill -9 at random moments (CLI `new`, save loops, the app typing in a terminal),
two writers racing on one session, and every class of hostile file.

Run: python bench/faults.py [--edits N] [--edits-only] [--screens N] [--screens-only]
[--only names|caches|registry|stats] [--only-shapes]
[--cli N] [--saves N] [--app N] [--mutations N] [--seed S] [--serve-idle N].
Prints, per part, the kills,
the sessions lost or corrupted, the temporary files left (and after a start-up clean), the race's
silent overwrites with and without the folder lock, `serve` with idle connections held (a real request's
time, the server's fds and memory), the seats' registry in every hostile shape (a claim's time and answer, another
session's slowest save meanwhile), mutated samples (tracebacks, slow, refusals
without a line), and per hostile file the exit code and time.
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from scorekeeper import files, store  # noqa: E402
from scorekeeper.model.session import Round, Session, SessionError  # noqa: E402
from tests.faults_support import HOSTILE, fuzz, race, run_in_pty, scorekeeper_argv  # noqa: E402

SAVE_LOOP = r'''
import sys
from dataclasses import replace
from scorekeeper.walk.document import Document
doc = Document.open(sys.argv[1])
i = int(doc.session.title or 0)
while True:
    i += 1
    doc.commit(replace(doc.session, title=str(i), notes="x" * (i % 5000)))
    print(i, flush=True)
'''


def temps(folder: Path) -> list[Path]:
    """Our temporary files in a folder."""
    return [p for p in folder.iterdir() if store._TEMP.fullmatch(p.name)]


def broken(folder: Path) -> list[str]:
    """The session files of a folder that do not load."""
    bad = []
    for p in store.session_files(folder):
        try:
            files.load(p)
        except SessionError as exc:
            bad.append(f"{p.name}: {exc}")
    return bad


NAMES = [b"bad\x9bname", b"latin1-\xe9t\xe9", b"\xff\xfe", b"half-\xc3(", b"surrogate-\xed\xa0\x80", b"lf\nname",
         b"tab\tname", b"esc\x1b[31mred", b"cr\rname", "bidi\u202eeman".encode(), b"-dash", b" spaces ",
         "nfd-e\u0301".encode(), b"x" * 240]
"""File names tried (each gets `.toml`): not UTF-8, controls, bidi, a leading dash, a long one."""


def _raw_bytes(out: bytes) -> int:
    """Bytes in an output that a terminal would take as a control: C0 but LF (and CR LF), DEL, C1, and bytes of
    no UTF-8."""
    text = out.decode("utf-8", "surrogateescape").replace("\r\n", "\n")  # CSV's line ends are not controls
    return sum(1 for ch in text if (ord(ch) < 0x20 and ch != "\n") or ch == "\x7f" or 0xDC80 <= ord(ch) <= 0xDCFF
               or 0x80 <= ord(ch) <= 0x9F)


def file_names() -> dict[str, int]:
    """Every name of NAMES in one folder with the samples: indexed, and through check, score, export and stats
    under LANG=C, C.UTF-8 and en_US.UTF-8 (tracebacks, non-zero exits, raw control bytes printed).

    Reproduce: python bench/faults.py --only names
    """
    from scorekeeper.index import Index

    folder = Path(tempfile.mkdtemp(prefix="faults-names-"))
    cache = Path(tempfile.mkdtemp(prefix="faults-names-cache-"))
    sample = (ROOT / "sample_sessions" / "ticket-booth-3p.toml").read_bytes()
    for p in (ROOT / "sample_sessions").glob("*.toml"):
        (folder / p.name).write_bytes(p.read_bytes())
    for raw in NAMES:
        with open(os.path.join(os.fsencode(folder), raw + b".toml"), "wb") as fh:
            fh.write(sample)
    names = ["./" + n for n in sorted(os.listdir(folder))]  # `./-dash.toml`: a file, not an option
    os.environ["SCOREKEEPER_CACHE"] = str(cache)
    with Index(folder) as index:
        index.refresh()
        indexed = len(index.summaries())
    figures = {"names": len(NAMES), "files": len(names), "indexed": indexed, "runs": 0, "tracebacks": 0,
               "bad exits": 0, "raw control bytes": 0}
    base = {k: v for k, v in os.environ.items() if not k.startswith("LC_") and k != "PYTHONUTF8"}
    for locale in ("C", "C.UTF-8", "en_US.UTF-8"):
        env = {**base, "LANG": locale, "LC_ALL": locale}
        runs = [["stats", "."], ["stats", "--json", "."], ["check", *names], ["score", *names],
                *(["export", "--to", to, *names] for to in ("csv", "md", "json"))]
        for args in runs:
            res = subprocess.run([sys.executable, "-m", "scorekeeper", *args], cwd=folder, env=env,
                                 capture_output=True, timeout=120)
            out = res.stdout + res.stderr
            figures["runs"] += 1
            figures["tracebacks"] += b"Traceback" in out
            figures["bad exits"] += res.returncode != 0
            figures["raw control bytes"] += _raw_bytes(out)
    return figures


def tampered_caches() -> dict[str, int]:
    """Index rows tampered in every way tests/test_caches.py lists (names outside the folder, `..`, absolute,
    bad JSON and wrong types in every column), and a FIFO or symlink as the database: `stats --json` after each
    (tracebacks, fake results shown, hangs) and the rows left after a refresh that name no file of the folder.

    Reproduce: python bench/faults.py --only caches
    """
    import json as jsonlib
    import shutil
    import sqlite3

    from scorekeeper.index import Index, db_path
    from tests.test_caches import BAD_COLUMNS, OUTSIDE_NAMES, mallory, tampered

    variants: list[dict[str, object]] = [
        {"name": n, "players": '["Mallory"]', "winners": '["Mallory"]', "detail": mallory()} for n in OUTSIDE_NAMES]
    variants += BAD_COLUMNS
    variants += [{"detail": mallory()}, {"players": jsonlib.dumps(["Mallory"] * 3)}]
    figures = {"variants": len(variants) + 2, "tracebacks": 0, "fake results shown": 0, "hangs": 0,
               "rows left naming no file": 0}
    for columns in [*variants, "fifo", "symlink"]:
        root = Path(tempfile.mkdtemp(prefix="faults-caches-"))
        folder = root / "sessions"
        folder.mkdir()
        os.environ["SCOREKEEPER_CACHE"] = str(root / "cache")
        for p in (ROOT / "sample_sessions").glob("ticket-booth*.toml"):
            shutil.copy(p, folder / p.name)
        if columns == "fifo" or columns == "symlink":
            db_path(folder).parent.mkdir(parents=True)
            if columns == "fifo":
                os.mkfifo(db_path(folder))
            else:
                db_path(folder).symlink_to(root / "elsewhere")
        else:
            with Index(folder) as index:
                index.refresh()
            assert isinstance(columns, dict)
            tampered(folder, **columns)
        try:
            res = subprocess.run([sys.executable, "-m", "scorekeeper", "stats", "--json", str(folder)],
                                 capture_output=True, timeout=30)
        except subprocess.TimeoutExpired:
            figures["hangs"] += 1
            continue
        figures["tracebacks"] += b"Traceback" in res.stderr
        figures["fake results shown"] += b"Mallory" in res.stdout
        left = {r[0] for r in sqlite3.connect(db_path(folder)).execute("SELECT name FROM sessions")}
        figures["rows left naming no file"] += len(left - {p.name for p in folder.glob("*.toml")})
    return figures


EXPORTER = "import sys; from pathlib import Path; from scorekeeper import store\n" \
    "for i in range(int(sys.argv[3])): store.write_new(Path(sys.argv[1]), 'statistics-20261127-1649', '.csv', " \
    "f'{sys.argv[2]} {i}' * 100)"


def statistics_faults(writers: int = 4, each: int = 25) -> dict[str, int]:
    """Exports in the same minute (`writers` processes, `each` statistics exports under one name at once),
    `export -o` onto a file, a symbolic and a hard link to a session of the folder, Zoë written composed and
    decomposed in one file: exports lost, files replaced, games counted twice, names let in twice.

    Reproduce: python bench/faults.py --only stats
    """
    import json as jsonlib
    import shutil
    import unicodedata

    root = Path(tempfile.mkdtemp(prefix="faults-stats-"))
    os.environ["SCOREKEEPER_CACHE"] = str(root / "cache")
    out = root / "exports"
    out.mkdir()
    procs = [subprocess.Popen([sys.executable, "-c", EXPORTER, str(out), str(w), str(each)]) for w in range(writers)]
    failed = sum(p.wait() != 0 for p in procs)
    texts = {p.read_text() for p in out.iterdir()}
    kept = sum(f"{w} {i}" * 100 in texts for w in range(writers) for i in range(each))
    figures = {"exports": writers * each, "exports lost": writers * each - kept, "writers failed": failed}
    (root / "out.csv").write_text("mine")
    sample = str(ROOT / "sample_sessions" / "ticket-booth-3p.toml")
    subprocess.run(scorekeeper_argv("export", sample, "--to", "csv", "-o", str(root / "out.csv")), capture_output=True)
    figures["export -o files replaced"] = (root / "out.csv").read_text() != "mine"
    folder = root / "sessions"
    folder.mkdir()
    for p in (ROOT / "sample_sessions").glob("*.toml"):
        shutil.copy(p, folder / p.name)

    def sessions() -> int:
        res = subprocess.run(scorekeeper_argv("stats", "--json", str(folder)), capture_output=True)
        figures["tracebacks"] = figures.get("tracebacks", 0) + (b"Traceback" in res.stderr)
        return int(jsonlib.loads(res.stdout)["sessions"])

    alone = sessions()
    (folder / "a-link.toml").symlink_to("ticket-booth-3p.toml")
    os.link(folder / "ticket-to-mars-two-rounds.toml", folder / "z-hard.toml")
    figures["games counted twice (2 links)"] = sessions() - alone
    zoe = folder / "zoe.toml"
    text = Path(sample).read_text()
    for old, form in (("Ana", "NFC"), ("Bo", "NFD")):
        name = unicodedata.normalize(form, "Zoë")
        text = text.replace(f'"{old}"', f'"{name}"').replace(f"players.{old}]", f'players."{name}"]')
    zoe.write_text(text, encoding="utf-8")
    res = subprocess.run(scorekeeper_argv("check", str(zoe)), capture_output=True)
    figures["Zoë twice let in by check"] = res.returncode == 0
    shutil.rmtree(root, ignore_errors=True)
    return figures


EDIT_TEXTS = ["a\tb", "\x1b[31mred", "bell\x07", "cr\rlf", "nul\x00", "c1\x9b", "bidi\u202e", "[bold]x[/bold]",
              "[red]", "Zoë ✓ 日本", "  spaced  ", "", "x" * 201, "n" * 10_001]
EDITORS = ("title", "notes", "rename", "seating", "ticket name", "new session title")


def editor_edits(n: int, rng: random.Random) -> dict[str, int]:
    """Issue 22.1: edits through every editor (title, notes, rename, seating, a ticket's name, the New session
    title) with hostile text, each handed to the Document as the app does; every saved file read back with the
    reader `check` uses. A refused edit must leave the file byte for byte as it was."""
    from dataclasses import replace

    from scorekeeper.walk.document import Document, Refused

    folder = Path(tempfile.mkdtemp(prefix="faults-edits-"))
    path = folder / "s.toml"
    store.save(path, Session(game="ticket-to-ride", players=("Ana", "Bo"), rounds=(Round(),)))
    doc = Document.open(path)
    out = {"edits": 0, "saved": 0, "refused": 0, "unreadable_saved": 0, "changed_on_refusal": 0, "tracebacks": 0}
    alphabet = "ab \t\n\x1b\x07\x9b\u202e[]/é日"
    for _ in range(n):
        editor = rng.choice(EDITORS)
        text = rng.choice(EDIT_TEXTS) if rng.random() < 0.5 else "".join(
            rng.choice(alphabet) for _ in range(rng.choice((3, 30, 199, 201, 250))))
        s = doc.session
        try:
            if editor in ("title", "new session title"):
                new = replace(s, title=text.strip() or None)
            elif editor == "notes":
                new = replace(s, notes=text.rstrip() or None)
            elif editor == "rename":
                new = s.with_player_renamed(s.players[0], text.strip() or "Ana")
            elif editor == "seating":
                new = replace(s, players=(text.strip() or "Ana", *s.players[1:]))
            else:
                new = s.with_value(1, s.players[0], "tickets", [{"points": 8, "completed": True, "name": text}])
        except ValueError:
            continue
        out["edits"] += 1
        before = path.read_bytes()
        try:
            doc.commit(new)
        except Refused:
            out["refused"] += 1
            out["changed_on_refusal"] += path.read_bytes() != before
            continue
        except Exception:  # noqa: BLE001 - counted: the figure is how many there are (must be 0)
            out["tracebacks"] += 1
            continue
        out["saved"] += 1
        read, _ = files.parse(path.read_text(encoding="utf-8"))
        out["unreadable_saved"] += read is None
    return out


def screen_edits(n: int, seed: int) -> dict[str, int]:
    """Issue 22.1 through the screens: n hostile edits typed (key by key) or pasted into the app as a person does —
    the title-and-notes dialog, rename, seating, the New session form, the walkthrough's boxes (numbers, cards,
    the USA map's routes and tickets) — in a headless app (Textual's test driver), every session file read back
    as `check` reads it after each. A refusal must be at its box (never by the save behind it) and leave the
    files as they were; an exception out of the app is a traceback.

    Reproduce: python bench/faults.py --screens-only --screens 200
    """
    import asyncio
    import traceback

    from tests.test_validate_screens import Figures, ScreenEdits

    figures = Figures()
    edits = ScreenEdits(random.Random(seed), figures)
    root = Path(tempfile.mkdtemp(prefix="faults-screens-"))
    tracebacks = 0
    parts = ((edits.dialogs, root / "dialogs", max(1, n * 4 // 10), None),
             (edits.new_sessions, root / "new", max(1, n // 10), None),
             (edits.grid, root / "grid", max(1, n * 25 // 100), None),
             (edits.grid, root / "map", max(1, n * 25 // 100), {"map": "usa"}))
    for part, folder, count, rules in parts:
        folder.mkdir()
        try:
            asyncio.run(part(folder, count, rules) if rules else part(folder, count))
        except Exception:  # noqa: BLE001 - counted: the figure is how many there are (must be 0)
            tracebacks += 1
            traceback.print_exc(limit=4)
    for fault in figures.faults[:5]:
        print("  fault:", fault)
    return {"edits": figures.tried, "saved": figures.saved, "refused": figures.refused,
            "unreadable saved": figures.unreadable_saved, "changed on refusal": figures.changed_on_refusal,
            "refused by the save, not the box": sum("not at the box" in f for f in figures.faults),
            "tracebacks": tracebacks}


def cli_new(n: int, rng: random.Random) -> dict[str, int]:
    """`scorekeeper new` killed at random moments: every file left whole, every printed path present."""
    folder = Path(tempfile.mkdtemp(prefix="faults-cli-"))
    printed: list[str] = []
    kills = 0
    for _ in range(n):
        proc = subprocess.Popen(scorekeeper_argv("new", "ticket-booth", "-p", "Ana", "-p", "Bo", "--title", "kill",
                                                 "--no-open", "--dir", str(folder)),
                                stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
        time.sleep(rng.uniform(0.02, 0.2))
        if proc.poll() is None:
            proc.kill()
            kills += 1
        out, _ = proc.communicate()
        printed += [line for line in out.splitlines() if line.strip()]
    lost = sum(not Path(p).exists() for p in printed)
    return {"runs": n, "kills": kills, "files": len(store.session_files(folder)), "printed": len(printed),
            "lost": lost, "corrupted": len(broken(folder)), "temps_left": len(temps(folder)),
            "temps_after_clean": _after_clean(folder)}


def _after_clean(folder: Path) -> int:
    store.remove_stale_temps(folder, age=0.0)
    return len(temps(folder))


def save_loop(n: int, rng: random.Random) -> dict[str, int]:
    """The app's Document saving as fast as it can, killed: the file is whole and holds every acknowledged save."""
    folder = Path(tempfile.mkdtemp(prefix="faults-save-"))
    path = folder / "session.toml"
    store.save(path, Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(),)))
    lost = corrupted = kills = 0
    for _ in range(n):
        proc = subprocess.Popen([sys.executable, "-c", SAVE_LOOP, str(path)], stdout=subprocess.PIPE, text=True,
                                cwd=ROOT)
        time.sleep(rng.uniform(0.25, 0.7))
        proc.kill()
        kills += 1
        out, _ = proc.communicate()
        acked = [int(x) for x in out.split()]
        try:
            on_disk = int(files.load(path)[0].title or 0)
        except SessionError:
            corrupted += 1
            continue
        if acked and on_disk < acked[-1]:
            lost += 1
    return {"kills": kills, "lost": lost, "corrupted": corrupted, "temps_left": len(temps(folder)),
            "temps_after_clean": _after_clean(folder)}


def app_typing(n: int, rng: random.Random) -> dict[str, int]:
    """The real app in a pseudo-terminal, typing values, killed with SIGKILL: the file is always whole."""
    import signal

    folder = Path(tempfile.mkdtemp(prefix="faults-app-"))
    path = folder / "session.toml"
    store.save(path, Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(),)))
    corrupted = kills = 0
    for _ in range(n):
        when = rng.uniform(1.0, 4.5)
        keys = [(1.8 + 0.05 * i, k) for i, k in enumerate([b"1", b"\r", b"0", b"\r", b"\x7f", b"1"] * 12)]
        run = run_in_pty(scorekeeper_argv(str(path)), keys=keys, send_signal=(when, signal.SIGKILL), timeout=10)
        kills += run.status == -signal.SIGKILL
        try:
            files.load(path)
        except SessionError:
            corrupted += 1
    return {"kills": kills, "corrupted": corrupted, "temps_left": len(temps(folder)),
            "temps_after_clean": _after_clean(folder)}


def racing(seconds: float) -> dict[str, tuple[int, int, int]]:
    """Two writer processes on one session, with and without the folder lock: (saves, conflicts, silent)."""
    out = {}
    for lock in (True, False):
        folder = Path(tempfile.mkdtemp(prefix="faults-race-"))
        path = folder / "session.toml"
        store.save(path, Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(),)))
        out["with the lock" if lock else "without it"] = race(path, 2, seconds, lock=lock)
    return out


def rss_mb(pid: int) -> float:
    """A process's resident memory in MB, from /proc (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS"):
            return int(line.split()[1]) / 1024
    return float("nan")


def serve_held(idle: int) -> dict[str, float]:
    """`scorekeeper serve` with `idle` connections that send nothing: a real request with the token answered
    meanwhile (its seconds), the connections still open on the server's side, and the server's memory."""
    import re
    import resource
    import selectors
    import socket
    import urllib.request

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, idle + 256)), hard))
    folder = Path(tempfile.mkdtemp(prefix="faults-serve-"))
    proc = subprocess.Popen(scorekeeper_argv("serve", "--dir", str(folder), "--port", "0"), stdout=subprocess.PIPE,
                            stderr=subprocess.STDOUT, cwd=ROOT)
    assert proc.stdout is not None
    fd, text, url = proc.stdout.fileno(), b"", None
    with selectors.DefaultSelector() as sel:
        sel.register(fd, selectors.EVENT_READ)
        while url is None and sel.select(timeout=30) and (chunk := os.read(fd, 65536)):
            text += chunk
            url = re.search(rb"http://127\.0\.0\.1:(\d+)/[A-Za-z0-9_-]+/", text)
    if url is None:
        proc.kill()
        raise SystemExit("serve printed no URL:\n" + text.decode(errors="replace"))
    port = int(url.group(1))
    before = rss_mb(proc.pid)
    socks = []
    try:
        for _ in range(idle):
            try:
                socks.append(socket.create_connection(("127.0.0.1", port), timeout=5))
            except OSError:
                break
        start = time.perf_counter()
        with urllib.request.urlopen(url.group(0).decode(), timeout=30) as answer:
            status = answer.status
        took = time.perf_counter() - start
        open_fds = sum(1 for _ in Path(f"/proc/{proc.pid}/fd").iterdir())
        during = rss_mb(proc.pid)
    finally:
        for sock in socks:
            sock.close()
        proc.send_signal(2)
        proc.wait(30)
    return {"idle opened": len(socks), "status": status, "answered s": took, "server fds": open_fds,
            "rss before MB": before, "rss during MB": during, "exit": proc.returncode}


CLAIM = r"""
import sys, time
from pathlib import Path
from scorekeeper.web import seats
start = time.perf_counter()
try:
    said = seats.update(Path(sys.argv[1]), lambda s: seats.claim(s, "Ana", "a" * 16, time.time()))[1]
except OSError as exc:
    said = f"refused: {exc.strerror}"
print(f"{time.perf_counter() - start:.3f} {said}", flush=True)
"""
SAVES = r"""
import sys, time
from pathlib import Path
from scorekeeper import files, store
path = Path(sys.argv[1])
session = files.load(path)[0]
worst = 0.0
for _ in range(int(sys.argv[2])):
    start = time.perf_counter()
    store.save(path, session)
    worst = max(worst, time.perf_counter() - start)
print(f"{worst:.3f}", flush=True)
"""
REGISTRY_SHAPES = ("a FIFO at the entry", "a link out at the entry", "a folder at the entry", "an entry of 1 MB",
                   ".seats a file", ".seats a link out", ".seats a dangling link")


def registry(timeout: float = 10.0) -> list[tuple[str, str, str, str]]:
    """Issue 32.4: per hostile shape of `.seats`, a seat's claim in its own process (its seconds and what it gave,
    or "blocked" when killed after `timeout`) while another process saves another session of the folder 20 times
    (its slowest save, or "stalled"); what the claim left outside the folder."""
    from scorekeeper.web import seats

    rows = []
    for shape in REGISTRY_SHAPES:
        top = Path(tempfile.mkdtemp(prefix="faults-seats-"))
        folder, outside = top / "sessions", top / "outside"
        folder.mkdir()
        outside.mkdir()
        path, other = folder / "table.toml", folder / "other.toml"
        for p in (path, other):
            store.save(p, Session(game="ticket-booth", players=("Ana", "Bo"), rounds=(Round(),)))
        entry = seats.registry_path(path)
        if shape.startswith("."):
            target = folder / seats.FOLDER
            if shape.endswith("a file"):
                target.write_text("x")
            else:
                target.symlink_to(outside if shape.endswith("out") else top / "nowhere")
        else:
            entry.parent.mkdir()
            if "FIFO" in shape:
                os.mkfifo(entry)
            elif "link" in shape:
                (outside / "seats.json").write_text(seats.dump({}))
                entry.symlink_to(outside / "seats.json")
            elif "folder" in shape:
                (entry / "x").mkdir(parents=True)
            else:
                entry.write_text(" " * 1_000_000)
        claim = subprocess.Popen([sys.executable, "-c", CLAIM, str(path)], stdout=subprocess.PIPE, text=True, cwd=ROOT)
        time.sleep(0.5)  # the claim holds the folder's lock if it blocks
        saves = subprocess.Popen([sys.executable, "-c", SAVES, str(other), "20"], stdout=subprocess.PIPE, text=True,
                                 cwd=ROOT)
        said = worst = ""
        for proc, name in ((claim, "claim"), (saves, "saves")):
            try:
                out = proc.communicate(timeout=timeout)[0].strip()
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.communicate()
                out = "blocked" if name == "claim" else "stalled"
            if name == "claim":
                said = out
            else:
                worst = out if out == "stalled" else f"{float(out):.3f} s"
        left = sorted(p.name for p in outside.iterdir() if p.name != "seats.json")
        touched = "outside written" if left or (outside / "seats.json").exists() and \
            (outside / "seats.json").read_text() != seats.dump({}) else "outside untouched"
        rows.append((shape, said, worst, touched))
    return rows


PEAK = ("import sys\nfrom scorekeeper.cli import main\ncode = main(sys.argv[1:])\n"
        "hwm = [l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')]\n"
        "sys.stderr.write(f'VmHWM {hwm[0] if hwm else 0}\\n')\nsys.exit(code)\n")


def check_once(path: Path) -> tuple[int, float, float, str]:
    """`scorekeeper check FILE` in its own process: exit code, seconds, peak resident memory in MB, output."""
    start = time.perf_counter()
    res = subprocess.run([sys.executable, "-c", PEAK, "check", str(path)], capture_output=True, text=True,
                         timeout=60, cwd=ROOT)
    took = time.perf_counter() - start
    peak = [int(line.split()[1]) for line in res.stderr.splitlines() if line.startswith("VmHWM")]
    return res.returncode, took, (peak[0] / 1024 if peak else float("nan")), res.stdout


def slow_shapes() -> list[tuple[str, int, float, float, int, str]]:
    """Files shaped to be slow to read (issue 22.4), each through `scorekeeper check` in its own process:
    (shape, exit, seconds, peak MB, size, verdict). Reproduce the slowest: python bench/faults.py --only-shapes."""
    sample = (ROOT / "sample_sessions" / "ticket-to-ride-usa-4p.toml").read_text()
    head = sample.split("[[rounds]]")[0]
    players = ["Grace", "Omar", "Priya", "Lukas"]

    def session(claims: list[str], everyone: bool = False) -> str:
        names = ", ".join(f'"{c}"' for c in claims)
        return head + "[[rounds]]\n" + "".join(f"[rounds.players.{p}]\nclaimed = [{names}]\n"
                                                for p in (players if everyone else players[:1]))

    shapes = {
        "six route names of 20,000 characters, dash after dash": session(["Denver - " * 2200] * 6),
        "six route names of 20,000 characters, one word": session(["Denver" + "x" * 19_990] * 6),
        "200 routes per player, names of 200 characters": session([("Den - " * 34)[:200]] * 200, everyone=True),
        "200 routes per player, real names": session(["Denver – Kansas City"] * 200, everyone=True),
        "a dotted key of 60,000 parts": head + "x" + ".x" * 60_000 + " = 1\n",
        "a dotted key of 2,000 parts of 50 characters": head + ".".join(["k" * 50] * 2_000) + " = 1\n",
    }
    folder = Path(tempfile.mkdtemp(prefix="faults-shapes-"))
    rows = []
    for i, (name, text) in enumerate(shapes.items()):
        path = folder / f"shape-{i}.toml"
        path.write_text(text, encoding="utf-8")
        code, took, peak, out = check_once(path)
        rows.append((name, code, took, peak, len(text.encode()), (out.splitlines() or [""])[-1][-40:]))
    return rows


def hostile() -> list[tuple[str, int, float, float, int, str]]:
    """Every hostile file class through `scorekeeper check`: (name, exit, seconds, peak MB, size, first line);
    the first row is a valid sample, for the baseline."""
    folder = Path(tempfile.mkdtemp(prefix="faults-hostile-"))
    rows = []
    baseline = ROOT / "sample_sessions" / "ticket-to-ride-usa-4p.toml"
    for name, data in [("(valid sample, baseline)", baseline.read_bytes())] + [(h[0], h[1]) for h in HOSTILE]:
        path = folder / f"{name}.toml"
        path.write_bytes(data)
        code, took, peak, out = check_once(path)
        first = out.splitlines()[0].replace(str(folder) + os.sep, "")
        rows.append((name, code, took, peak, len(data), first[:90]))
    return rows


def print_shapes() -> None:
    """Print slow_shapes() and the slowest one."""
    print("files shaped to be slow to read (scorekeeper check, whole process)")
    rows = slow_shapes()
    for name, code, took, peak, size, verdict in rows:
        print(f"  {name:<52} {size / 1024:5.0f} kB  exit {code}  {took:5.2f} s  peak {peak:5.1f} MB  {verdict}")
    name, _, took, peak, _, _ = max(rows, key=lambda row: row[2])
    print(f"  slowest: {name}, {took:.2f} s, peak {peak:.1f} MB")


def print_registry() -> None:
    """Print registry()."""
    print("the seats' registry, hostile shapes (a claim; another session saved 20 times meanwhile)")
    for shape, said, worst, touched in registry():
        said = said.replace("the seats cannot be kept: ", "")
        print(f"  {shape:<24} claim {said:<58.58}  slowest save {worst:<8} {touched}")


def main() -> None:
    """Run every part and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--cli", type=int, default=120, help="`scorekeeper new` runs killed at random")
    ap.add_argument("--saves", type=int, default=80, help="save loops killed")
    ap.add_argument("--app", type=int, default=40, help="app runs killed while typing")
    ap.add_argument("--race", type=float, default=5.0, help="seconds of each race")
    ap.add_argument("--mutations", type=int, default=3216, help="mutated sample files read in-process")
    ap.add_argument("--seed", type=int, default=11)
    ap.add_argument("--serve-idle", type=int, default=1100, help="idle connections held on `serve`")
    ap.add_argument("--only", choices=("names", "caches", "registry", "stats"),
                    help="only the file names, the tampered caches, the seats' registry, or the statistics' exports, "
                         "links and names")
    ap.add_argument("--edits", type=int, default=2000, help="edits through every editor, files read back")
    ap.add_argument("--edits-only", action="store_true", help="only the editors' edits (issue 22.1)")
    ap.add_argument("--only-shapes", action="store_true", help="only the files shaped to be slow to read")
    ap.add_argument("--screens", type=int, default=60, help="edits typed and pasted through the app's screens")
    ap.add_argument("--screens-only", action="store_true", help="only the edits through the screens (issue 22.1)")
    args = ap.parse_args()
    if args.only_shapes:
        print_shapes()
        return
    if args.only == "registry":
        print_registry()
        return
    if args.only:
        part = {"names": file_names, "caches": tampered_caches, "stats": statistics_faults}[args.only]
        print(f"{part.__name__}: " + ", ".join(f"{k} {v:d}" for k, v in part().items()))
        return
    rng = random.Random(args.seed)
    start = time.perf_counter()
    if args.screens:
        shown = ", ".join(f"{k} {v}" for k, v in screen_edits(args.screens, args.seed).items())
        print(f"edits through the screens, saved files read back: {shown}  ({time.perf_counter() - start:.1f} s)")
        if args.screens_only:
            return
        start = time.perf_counter()
    shown = ", ".join(f"{k} {v}" for k, v in editor_edits(args.edits, rng).items())
    print(f"edits through every editor, saved files read back: {shown}  ({time.perf_counter() - start:.1f} s)")
    if args.edits_only:
        return
    total = 0
    print("kill -9 campaign")
    for name, part, n in (("CLI new", cli_new, args.cli), ("save loop (Document)", save_loop, args.saves),
                          ("app in a terminal, typing", app_typing, args.app)):
        start = time.perf_counter()
        figures = part(n, rng)
        total += figures["kills"]
        shown = ", ".join(f"{k} {v}" for k, v in figures.items())
        print(f"  {name:<27} {shown}  ({time.perf_counter() - start:.0f} s)")
    print(f"  total kills: {total}")
    print("two writers on one session")
    for name, (saves, conflicts, silent) in racing(args.race).items():
        print(f"  {name:<14} {saves} saves, {conflicts} changed-on-disk refusals, {silent} silent overwrites")
    print("file names (index, check, score, export, stats in three locales): " + ", ".join(
        f"{k} {v}" for k, v in file_names().items()))
    print("tampered caches (stats after each): " + ", ".join(f"{k} {v}" for k, v in tampered_caches().items()))
    print_registry()
    print("statistics (exports, links, names): " + ", ".join(f"{k} {v:d}" for k, v in statistics_faults().items()))
    held = serve_held(args.serve_idle)
    print("serve with idle connections held: " + ", ".join(
        f"{k} {v:.2f}" if isinstance(v, float) else f"{k} {v}" for k, v in held.items()))
    samples = [p.read_text() for p in sorted((ROOT / "sample_sessions").glob("*.toml"))]
    found = fuzz(samples, args.mutations, seed=args.seed)
    print(f"mutated sample files (read and scored in-process): {found['files']} files, {found['read']} read, "
          f"{found['refused']} refused, {found['crashed']} tracebacks, {found['over 1 s']} over 1 s "
          f"(slowest {found['slowest s']:.2f} s), {found['no line']} refused without a line")
    for tb in found["tracebacks"][:3]:
        print(tb)
    print_shapes()
    print("hostile files (scorekeeper check, whole process)")
    for name, code, took, peak, size, first in hostile():
        print(f"  {name:<34} {size / 1024:8.0f} kB  exit {code}  {took:5.2f} s  peak {peak:5.1f} MB  {first}")


if __name__ == "__main__":
    main()
