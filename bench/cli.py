"""Whole-process time of `scorekeeper score` on a sample, next to `python -c "import tomllib"`.

Run: python bench/cli.py [RUNS]. Prints medians and the ratio; compare ratios, not times.
"""

from __future__ import annotations

import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_sessions" / "ticket-booth-3p.toml"
MAP_SAMPLE = ROOT / "sample_sessions" / "ticket-to-ride-usa-4p.toml"

CASES = {
    "python -c 'import tomllib'": [sys.executable, "-c", "import tomllib"],
    "scorekeeper score (Ticket Booth, 3 rounds)": [sys.executable, "-m", "scorekeeper", "score", str(SAMPLE)],
    "scorekeeper score --json (USA map, 4 players)": [sys.executable, "-m", "scorekeeper", "score", "--json",
                                                      str(MAP_SAMPLE)],
    "scorekeeper check (all samples)": [sys.executable, "-m", "scorekeeper", "check",
                                        *map(str, sorted((ROOT / "sample_sessions").glob("*.toml")))],
}


def once(cmd: list[str]) -> float:
    """Seconds for one run of cmd, which must succeed."""
    start = time.perf_counter()
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL, cwd=ROOT)
    return time.perf_counter() - start


def main() -> None:
    """Alternate the cases, RUNS times each, and print medians and ratios to the baseline."""
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    times: dict[str, list[float]] = {name: [] for name in CASES}
    for cmd in CASES.values():
        once(cmd)  # warm the bytecode cache
    for _ in range(runs):
        for name, cmd in CASES.items():
            times[name].append(once(cmd))
    base = statistics.median(times[next(iter(CASES))])
    print(f"{'case':<48} {'median ms':>10} {'ratio':>7}   ({runs} runs each)")
    for name, samples in times.items():
        med = statistics.median(samples)
        print(f"{name:<48} {med * 1000:>10.1f} {med / base:>7.2f}")


if __name__ == "__main__":
    main()
