"""`scorekeeper score FILE`: the CPU time (user + system) of the whole process, next to
`python -c "import dataclasses, tomllib, fractions"` (the floor any reader of a session file pays; budget: 3x).

Each case a fresh process, the cases alternating, RUNS times; medians. CPU time stays steadier than wall time
when other work shares the machine; both are printed, with the load average before and after.

    python bench/score_cpu.py [RUNS]
"""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ("ticket-booth-3p.toml", "ticket-to-ride-4p.toml", "ticket-to-ride-usa-4p.toml")
BUDGET = 3.0


def run(cmd: list[str]) -> tuple[float, float]:
    """Wall and CPU seconds of one process (which must exit 0)."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    _, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return wall, usage.ru_utime + usage.ru_stime


def main() -> None:
    runs = int(sys.argv[1]) if len(sys.argv) > 1 else 15
    py = sys.executable
    subprocess.run([py, "-m", "compileall", "-q", str(ROOT / "scorekeeper")], check=True, stdout=subprocess.DEVNULL)
    cases = {"floor": [py, "-c", "import dataclasses, tomllib, fractions"]}
    for name in SAMPLES:
        cases[name] = [py, "-m", "scorekeeper", "score", str(ROOT / "sample_sessions" / name)]
    for cmd in cases.values():  # bytecode written, files in the page cache
        run(cmd)
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    got: dict[str, list[tuple[float, float]]] = {k: [] for k in cases}
    for _ in range(runs):
        for key, cmd in cases.items():
            got[key].append(run(cmd))
    wall = {k: statistics.median(w for w, _ in v) for k, v in got.items()}
    cpu = {k: statistics.median(c for _, c in v) for k, v in got.items()}
    print(f"{runs} runs each, alternating, medians (load {load} before, "
          f"{' '.join(f'{x:.2f}' for x in os.getloadavg())} after)")
    floor = 'python -c "import dataclasses, tomllib, fractions"'
    print(f"  {floor:52} {wall['floor'] * 1000:6.0f} ms wall {cpu['floor'] * 1000:6.0f} ms CPU")
    for name in SAMPLES:
        print(f"  {'scorekeeper score ' + name:52} {wall[name] * 1000:6.0f} ms wall {cpu[name] * 1000:6.0f} ms CPU"
              f"  {cpu[name] / cpu['floor']:4.2f}x the floor's CPU (budget {BUDGET}x)")


if __name__ == "__main__":
    main()
