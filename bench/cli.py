"""Whole-process time of `scorekeeper score` on a sample, next to `python -c "import tomllib"`.

Run: python bench/cli.py [RUNS]. Prints medians and the ratio; compare ratios, not times. The bytecode is
compiled first (compileall, then one run of each case that may write it), so the figures are the same whether
PYTHONDONTWRITEBYTECODE is set or not: each case is run both ways and both columns printed. The runs are
interleaved (every case in turn, RUNS times). Each figure is the median wall time and, beside it, the median CPU
time (user + system), which stays steadier when other work shares the machine; the load average is printed
before and after. Target: `score` at most 1.6x the baseline.
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_sessions" / "ticket-booth-3p.toml"
RIDE_SAMPLE = ROOT / "sample_sessions" / "ticket-to-ride-4p.toml"
MAP_SAMPLE = ROOT / "sample_sessions" / "ticket-to-ride-usa-4p.toml"

CASES = {
    "python -c 'import tomllib'": [sys.executable, "-c", "import tomllib"],
    "scorekeeper --help": [sys.executable, "-m", "scorekeeper", "--help"],
    "scorekeeper games": [sys.executable, "-m", "scorekeeper", "games"],
    "scorekeeper serve --help": [sys.executable, "-m", "scorekeeper", "serve", "--help"],
    "scorekeeper score (Ticket Booth, 3 rounds)": [sys.executable, "-m", "scorekeeper", "score", str(SAMPLE)],
    "scorekeeper score (Ticket to Ride, 4 players)": [sys.executable, "-m", "scorekeeper", "score", str(RIDE_SAMPLE)],
    "scorekeeper score --json (USA map, 4 players)": [sys.executable, "-m", "scorekeeper", "score", "--json",
                                                      str(MAP_SAMPLE)],
    "scorekeeper check (all samples)": [sys.executable, "-m", "scorekeeper", "check",
                                        *map(str, sorted((ROOT / "sample_sessions").glob("*.toml")))],
}


ENVS = {
    "bytecode written": {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONDONTWRITEBYTECODE=1": {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
}


def once(cmd: list[str], env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds for one run of cmd, which must succeed."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, cwd=ROOT, env=env)
    _pid, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> None:
    """Alternate the cases, RUNS times each in both environments, and print medians and ratios to the baseline."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    load_before = os.getloadavg()
    subprocess.run([sys.executable, "-m", "compileall", "-q", "--invalidation-mode", "timestamp",
                    str(ROOT / "scorekeeper")], check=True, stdout=subprocess.DEVNULL)
    times: dict[tuple[str, str], list[tuple[float, float]]] = {(n, e): [] for n in CASES for e in ENVS}
    for cmd in CASES.values():
        once(cmd, ENVS["bytecode written"])
    for _ in range(runs):
        for name, cmd in CASES.items():
            for env_name, env in ENVS.items():
                times[name, env_name].append(once(cmd, env))

    def med(name: str, env: str, which: int) -> float:
        return statistics.median(t[which] for t in times[name, env])

    first = next(iter(CASES))
    heads = "".join(f" | {e[:25]:<25} {'wall':>6} {'×':>5} {'cpu':>6} {'×':>5}" for e in ENVS)
    print(f"{'case':<46}{heads}   (median ms, {runs} runs each)")
    for name in CASES:
        cells = ""
        for e in ENVS:
            wall, cpu = med(name, e, 0), med(name, e, 1)
            cells += f" | {'':<25} {wall * 1000:>6.0f} {wall / med(first, e, 0):>5.2f} {cpu * 1000:>6.0f} " \
                     f"{cpu / med(first, e, 1):>5.2f}"
        print(f"{name:<46}{cells}")
    print("load average (1, 5, 15 min): before " + " ".join(f"{x:.2f}" for x in load_before)
          + ", after " + " ".join(f"{x:.2f}" for x in os.getloadavg()))


if __name__ == "__main__":
    main()
