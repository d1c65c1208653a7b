"""Big folders: `scorekeeper stats` (index cold and warm) next to a parse-only floor, at 100 / 1,000 / 10,000 files.

The folders are generated from the samples, names, dates and numbers varied (a few sessions unfinished, a
few invalid). Each figure is one whole process, run alternately, the median of RUNS runs; peak memory is the
process's maximum resident set, or the peak of its and its worker processes' resident sets added up (sampled
every 5 ms from /proc), whichever is larger. The floor is a bare Python loop that only `tomllib`-parses the same files
(keeping what it parsed, as any statistics over the files must keep at least that much). Per size, then, the
ratio of cold `stats` in worker processes to the floor, and where a cold read's time goes (`where`).

    python bench/folder.py [--sizes 100,1000,10000] [--runs 3] [--keep DIR]

--keep DIR generates the folders into DIR and keeps them: a later run with the same DIR reuses them (only the
cache folders are made anew).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "sample_sessions"
NAMES = ("Ana", "Bo", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal", "Ivy", "Jo", "Kim", "Lou", "Max", "Zoë", "O'Brien",
         "Renée", "Søren", "Aiko", "Nnamdi", "Priya", "Tomasz", "Lena", "Inès", "Rafael", "[bold]Sam", "Kai, Jr.")

FLOOR = """
import glob, os, sys, tomllib
docs = []
for name in sorted(os.listdir(sys.argv[1])):
    if name.endswith(".toml"):
        with open(os.path.join(sys.argv[1], name), "rb") as fh:
            docs.append(tomllib.load(fh))
print(len(docs))
"""


def vary(raw: dict, rng: random.Random, i: int) -> dict:
    """A sample with other players (names and seats), another date and title, entries moved and numbers changed."""
    old = list(raw["players"])
    new = rng.sample(NAMES, len(old))
    rename = dict(zip(old, new, strict=True))
    out = dict(raw)
    out["players"] = new
    out["title"] = f"{raw.get('title', 'Game night')} {i}"
    day = rng.randrange(0, 3 * 365)
    out["started"] = raw["started"].replace(year=2023) + __import__("datetime").timedelta(days=day,
                                                                                           minutes=rng.randrange(600))
    rounds = []
    for rnd in raw.get("rounds", []):
        entries = rnd.get("players", {})
        names = [p for p in old if p in entries]
        moved = rng.sample(names, len(names))  # whose entry each player gets: keeps every round's totals valid
        players = {}
        for p, src in zip(names, moved, strict=True):
            entry = dict(entries[src])
            for key in ("pairs", "occupancy", "character"):
                if key in entry:
                    entry[key] = {**entry[key], "count": rng.randrange(0, 5)}
            if "route_points" in entry and "routes" not in entry and "claimed" not in entry:
                entry["route_points"] = max(0, entry["route_points"] + rng.randrange(-6, 7))
            players[rename[p]] = entry
        rounds.append({"players": players})
    if rounds:
        out["rounds"] = rounds
    return out


WHERE = """
import multiprocessing, os, pickle, resource, sys, time, tomllib
from concurrent.futures import ProcessPoolExecutor
from scorekeeper.index import indexing

def main():
    folder = sys.argv[1]
    names = sorted(n for n in os.listdir(folder) if n.endswith(".toml"))
    c = time.process_time()
    for name in names:
        with open(os.path.join(folder, name), "rb") as fh:
            tomllib.load(fh)
    parse = time.process_time() - c
    starts = {}
    for method in ("spawn", "fork"):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        w = time.perf_counter()
        with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context(method),
                                 initializer=indexing.worker_start) as pool:
            list(pool.map(indexing.read_chunk, [folder] * 2, [names[:1], names[1:2]]))
            up = time.perf_counter() - w
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        starts[method] = (up, (after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime) / 2)
    c = time.process_time()
    rows, _gone = indexing.read_chunk(folder, names)
    read = time.process_time() - c
    w = time.perf_counter()
    data = pickle.dumps((rows, []))
    pickle.loads(data)
    pickled = time.perf_counter() - w
    print(parse, read, starts["spawn"][0], starts["spawn"][1], starts["fork"][0], starts["fork"][1], pickled,
          len(data) / 2**20)

if __name__ == "__main__":
    main()
"""
"""Where a cold read's time goes, in one process: the parse alone and the whole read (parse, check, score) of
every file in CPU seconds; a pool of 2 workers started with `spawn` and with `fork` up to its first answers
(wall, and CPU per worker: the interpreter and the imports); pickling every row there and back."""


def where(folder: Path, env: dict[str, str], cores: int) -> str:
    """One line: where a cold `stats` spends its time (see WHERE), and the least ratio to the floor it can reach
    on `cores` cores with the read's CPU as it is."""
    out = subprocess.run([sys.executable, "-c", WHERE, str(folder)], capture_output=True, text=True, env=env,
                         cwd=ROOT, check=True).stdout.split()
    parse, read, spawn, spawn_cpu, fork, fork_cpu, pickled, mib = map(float, out)
    return (f"  where: parse {parse:.2f} s CPU; read (parse, check, score) {read:.2f} s CPU = {read / parse:.2f}× "
            f"the parse; workers up: spawn {spawn:.2f} s ({spawn_cpu:.2f} s CPU each), fork {fork:.3f} s "
            f"({fork_cpu:.3f} s CPU each); pickling the rows {pickled:.3f} s ({mib:.1f} MiB); on {cores} cores "
            f"cold ‖ is at least {read / parse / cores:.2f}× the floor's CPU")


def generate(folder: Path, count: int, seed: int = 14) -> None:
    """`count` session files in folder: varied samples, about 5 % unfinished and 1 % invalid."""
    from scorekeeper import store
    from scorekeeper.games import validation
    from scorekeeper.model.session import Session

    rng = random.Random(seed)
    samples = [tomllib.loads(p.read_text("utf-8")) for p in sorted(SAMPLES.glob("*.toml"))]
    folder.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        raw = samples[i % len(samples)]
        doc = vary(raw, rng, i)
        session, problems = validation.from_dict(doc)
        if session is None:  # a variation that breaks a rule: the sample with new names only
            doc = vary({**raw, "rounds": raw.get("rounds", [])}, random.Random(i), i)
            session, _ = validation.from_dict(doc)
        path = folder / f"{i:05d}-{raw['game']}.toml"
        if session is None:
            path.write_text(store.dumps(Session(game=raw["game"], players=tuple(doc["players"]))), "utf-8")
            continue
        if rng.random() < 0.05 and session.rounds:
            session = session.without_last_round()
        text = store.dumps(session)
        if rng.random() < 0.01:
            text = text.replace("format = 1", "format = 1\nmystery = 3", 1)
        path.write_text(text, "utf-8")


def load() -> str:
    """The machine's load averages over 1, 5 and 15 minutes (as `uptime` gives them)."""
    return " ".join(f"{x:.2f}" for x in os.getloadavg())


def tree_rss(pid: int) -> int:
    """Resident memory (KiB) of a process and all its descendants now (0 once it is gone)."""
    total = 0
    todo = [pid]
    while todo:
        p = todo.pop()
        try:
            with open(f"/proc/{p}/statm") as fh:
                total += int(fh.read().split()[1]) * (os.sysconf("SC_PAGE_SIZE") // 1024)
            for task in os.listdir(f"/proc/{p}/task"):
                with open(f"/proc/{p}/task/{task}/children") as fh:
                    todo.extend(int(c) for c in fh.read().split())
        except (OSError, ValueError):
            continue
    return total


def run(cmd: list[str], env: dict[str, str]) -> tuple[float, float, int]:
    """Wall seconds, CPU seconds (user + system, its worker processes included) and peak resident memory (KiB)
    of one process: the larger of its own peak and the peak sum over it and its worker processes, sampled
    every 5 ms."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, env=env, cwd=ROOT)
    peak = 0
    while True:
        pid, status, usage = os.wait4(proc.pid, os.WNOHANG)
        if pid:
            break
        peak = max(peak, tree_rss(proc.pid))
        time.sleep(0.005)
    elapsed = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"failed ({proc.returncode}): {' '.join(cmd)}")
    return elapsed, usage.ru_utime + usage.ru_stime, max(peak, usage.ru_maxrss)


def main() -> None:
    """Generate the folders, then time the floor, stats cold and stats warm; print one table."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--sizes", default="100,1000,10000")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--keep", help="generate into (and keep) this folder")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="scorekeeper-bench-"))
    py = sys.executable
    # Compiled bytecode first: the figures are the same with or without PYTHONDONTWRITEBYTECODE.
    subprocess.run([py, "-m", "compileall", "-q", str(ROOT / "scorekeeper")], check=True, stdout=subprocess.DEVNULL)
    print("Per case: wall seconds and CPU seconds (user + system, worker processes included: steadier when other")
    print("work shares the machine), each with its ratio to the floor; peak memory in MiB (for cold ‖ the process")
    print("and its workers together). Cold: no index (a fresh cache folder), read in one process")
    print("(SCOREKEEPER_WORKERS=1); cold ‖: read in worker processes, one per core (the default).")
    print(f"{'files':>6}  {'floor wall/cpu':>14}  {'cold cpu':>8} {'×':>5}  {'cold ‖ wall':>11} {'×':>5}  "
          f"{'cold ‖ cpu':>10} {'×':>5}  {'warm wall':>9} {'×':>5}  {'warm cpu':>8} {'×':>5}  "
          f"{'MiB floor':>9} {'cold':>5} {'‖':>5} {'warm':>5}   ({args.runs} runs, medians; load {load()})")
    try:
        for size in sizes:
            folder = base / f"sessions-{size}"
            if not folder.is_dir() or len(list(folder.glob("*.toml"))) != size:
                shutil.rmtree(folder, ignore_errors=True)
                generate(folder, size)
            cache = base / f"cache-{size}"
            env = {**os.environ, "SCOREKEEPER_CACHE": str(cache)}
            serial = {**env, "SCOREKEEPER_WORKERS": "1"}
            stats = [py, "-m", "scorekeeper", "stats", str(folder)]
            floor_cmd = [py, "-c", FLOOR, str(folder)]
            run(floor_cmd, env)  # warm the page cache
            figures: dict[str, list[tuple[float, float, int]]] = {"floor": [], "cold": [], "par": [], "warm": []}
            for _ in range(args.runs):
                figures["floor"].append(run(floor_cmd, env))
                shutil.rmtree(cache, ignore_errors=True)
                figures["cold"].append(run(stats, serial))
                shutil.rmtree(cache, ignore_errors=True)
                figures["par"].append(run(stats, env))
                figures["warm"].append(run(stats, env))
            wall = {k: statistics.median(r[0] for r in v) for k, v in figures.items()}
            cpu = {k: statistics.median(r[1] for r in v) for k, v in figures.items()}
            mem = {k: max(r[2] for r in v) / 1024 for k, v in figures.items()}
            print(f"{size:>6}  {wall['floor']:>6.2f}/{cpu['floor']:<7.2f}  {cpu['cold']:>8.2f} "
                  f"{cpu['cold'] / cpu['floor']:>5.2f}  {wall['par']:>11.2f} {wall['par'] / wall['floor']:>5.2f}  "
                  f"{cpu['par']:>10.2f} {cpu['par'] / cpu['floor']:>5.2f}  "
                  f"{wall['warm']:>9.2f} {wall['warm'] / wall['floor']:>5.2f}  {cpu['warm']:>8.2f} "
                  f"{cpu['warm'] / cpu['floor']:>5.2f}  {mem['floor']:>9.1f} {mem['cold']:>5.1f} {mem['par']:>5.1f} "
                  f"{mem['warm']:>5.1f}   (load {load()})", flush=True)
            workers = os.environ.get("SCOREKEEPER_WORKERS") or "one per core"
            print(f"  cold ‖ against the floor: {wall['par'] / wall['floor']:.2f}× wall, "
                  f"{cpu['par'] / cpu['floor']:.2f}× CPU (workers: {workers})")
            print(where(folder, env, min(os.cpu_count() or 1, 8)), flush=True)
    finally:
        if not args.keep:
            shutil.rmtree(base, ignore_errors=True)
    print("targets: stats warm <= 0.2x the floor, cold <= 1.3x, peak memory <= the floor's")


if __name__ == "__main__":
    main()
