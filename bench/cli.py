"""Whole-process time of `scorekeeper score` on a sample, next to `python -c "import dataclasses, tomllib, fractions"`.

Run: .venv/bin/python bench/cli.py [RUNS] [--install editable|regular|both]. Prints medians and the ratio; compare
ratios, not times. `editable` measures this interpreter (the project's `pip install -e` venv: its finder adds imports to
every start, the baseline's too); `regular` first makes a throwaway venv beside nothing else and installs the
project into it as a user would (`pip install --no-deps .`, a wheel: package data and bytecode as installed), then
runs that venv's Python from a temporary folder (so the checkout is not on the path); `both` (the default)
interleaves the two. Every table says which it measured. The bytecode is compiled first (compileall, then one run
of each case that may write it), so the figures are the same whether PYTHONDONTWRITEBYTECODE is set or not: each
case is run both ways and both columns printed. The runs are interleaved (every case in turn, RUNS times). Each
figure is the median wall time and, beside it, the median CPU time (user + system), which stays steadier when
other work shares the machine; the load average is printed before and after. Budget (issue 23): `score` at most
3x the baseline's CPU time, in both install modes (the last lines say it; exit 1 when over).
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "sample_sessions" / "ticket-booth-3p.toml"
RIDE_SAMPLE = ROOT / "sample_sessions" / "ticket-to-ride-4p.toml"
MAP_SAMPLE = ROOT / "sample_sessions" / "ticket-to-ride-usa-4p.toml"

CASES = {
    "python -c 'import dataclasses, tomllib, fractions'": ["python", "-c", "import dataclasses, tomllib, fractions"],
    "scorekeeper --help": ["scorekeeper", "--help"],
    "scorekeeper games": ["scorekeeper", "games"],
    "scorekeeper serve --help": ["scorekeeper", "serve", "--help"],
    "scorekeeper score (Ticket Booth, 3 rounds)": ["scorekeeper", "score", str(SAMPLE)],
    "python -m scorekeeper score (the same)": ["python", "-m", "scorekeeper", "score", str(SAMPLE)],
    "scorekeeper score (Ticket to Ride, 4 players)": ["scorekeeper", "score", str(RIDE_SAMPLE)],
    "scorekeeper score --json (USA map, 4 players)": ["scorekeeper", "score", "--json", str(MAP_SAMPLE)],
    "scorekeeper check (all samples)": ["scorekeeper", "check",
                                        *map(str, sorted((ROOT / "sample_sessions").glob("*.toml")))],
}
"""Each case's command: `python` is the install's interpreter, `scorekeeper` the script pip installed beside it (what
a user runs; `python -m` adds runpy's imports, shown once for comparison)."""

BUDGET = 3.0
"""`scorekeeper score FILE` at most this many times the baseline's CPU (user + system)."""

SCORE = "scorekeeper score (Ticket Booth, 3 rounds)"

ENVS = {
    "bytecode written": {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"},
    "PYTHONDONTWRITEBYTECODE=1": {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
}


def regular_install(where: Path) -> Path:
    """A fresh venv in `where` with the project installed from a wheel (not editable); its Python."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    source, wheels = where / "source", where / "wheels"
    shutil.copytree(ROOT / "scorekeeper", source / "scorekeeper", ignore=shutil.ignore_patterns("__pycache__"))
    for name in ("pyproject.toml", "README.md"):
        shutil.copy2(ROOT / name, source / name)
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "-w", str(wheels), str(source)],
                   check=True, stdout=subprocess.DEVNULL, cwd=where)
    subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-deps",
                    *map(str, wheels.glob("*.whl"))], check=True, stdout=subprocess.DEVNULL)
    return python


def command(case: list[str], python: str) -> list[str]:
    """The case's command line for the install whose interpreter is `python`."""
    program = python if case[0] == "python" else str(Path(python).parent / case[0])
    return [program, *case[1:]]


def once(cmd: list[str], env: dict[str, str], cwd: Path) -> tuple[float, float]:
    """Wall and CPU seconds for one run of cmd, which must succeed."""
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, cwd=cwd, env=env)
    _pid, status, usage = os.wait4(proc.pid, 0)
    if os.waitstatus_to_exitcode(status):
        raise SystemExit(f"failed: {' '.join(cmd)}")
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def main() -> int:
    """Alternate the cases, RUNS times each in both environments and each install, print medians and ratios; 1 when
    `score` is over the budget."""
    options = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    options.add_argument("runs", nargs="?", type=int, default=15)
    options.add_argument("--install", choices=("editable", "regular", "both"), default="both")
    args = options.parse_args()
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="bench-cli-") as tmp:
        installs: dict[str, tuple[str, Path]] = {}
        if args.install in ("editable", "both"):
            subprocess.run([sys.executable, "-m", "compileall", "-q", "--invalidation-mode", "timestamp",
                            str(ROOT / "scorekeeper")], check=True, stdout=subprocess.DEVNULL)
            installs["editable"] = (sys.executable, ROOT)
        if args.install in ("regular", "both"):
            installs["regular"] = (str(regular_install(Path(tmp) / "venv")), Path(tmp))
        keys = [(i, n, e) for i in installs for n in CASES for e in ENVS]
        times: dict[tuple[str, str, str], list[tuple[float, float]]] = {k: [] for k in keys}
        for python, cwd in installs.values():
            for case in CASES.values():
                once(command(case, python), ENVS["bytecode written"], cwd)
        for _ in range(args.runs):
            for install, name, env_name in keys:
                python, cwd = installs[install]
                times[install, name, env_name].append(once(command(CASES[name], python), ENVS[env_name], cwd))

    def med(key: tuple[str, str, str], which: int) -> float:
        return statistics.median(t[which] for t in times[key])

    first = next(iter(CASES))
    for install, (python, _cwd) in installs.items():
        how = ("editable install (pip install -e, this interpreter)" if install == "editable"
               else "regular install (pip install . into a fresh venv, run outside the checkout)")
        print(f"\n{how}: {python}")
        heads = "".join(f" | {e[:25]:<25} {'wall':>6} {'×':>5} {'cpu':>6} {'×':>5}" for e in ENVS)
        print(f"{'case':<52}{heads}   (median ms, {args.runs} runs each)")
        for name in CASES:
            cells = ""
            for e in ENVS:
                wall, cpu = med((install, name, e), 0), med((install, name, e), 1)
                base_wall, base_cpu = med((install, first, e), 0), med((install, first, e), 1)
                cells += f" | {'':<25} {wall * 1000:>6.0f} {wall / base_wall:>5.2f} {cpu * 1000:>6.0f} " \
                         f"{cpu / base_cpu:>5.2f}"
            print(f"{name:<52}{cells}")
    print("\nload average (1, 5, 15 min): before " + " ".join(f"{x:.2f}" for x in load_before)
          + ", after " + " ".join(f"{x:.2f}" for x in os.getloadavg()))
    over = False
    for install in installs:
        for e in ENVS:
            ratio = med((install, SCORE, e), 1) / med((install, first, e), 1)
            over |= ratio > BUDGET
            print(f"budget: {SCORE}, {install}, {e}: CPU {ratio:.2f}x the baseline "
                  f"({'within' if ratio <= BUDGET else 'OVER'} {BUDGET}x)")
    return 1 if over else 0


if __name__ == "__main__":
    raise SystemExit(main())
