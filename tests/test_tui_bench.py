"""The start-up bench runs (its ratio is machine-dependent: it is checked by running the bench, not here)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parents[1] / "bench" / "startup.py"


def test_bench_runs_and_reports_the_ratio() -> None:
    """One run of each app: both reach their first screen and the ratio is printed."""
    done = subprocess.run([sys.executable, str(BENCH), "--runs", "1"], capture_output=True, text=True, timeout=120)
    assert done.returncode in (0, 1), done.stderr
    assert re.search(r"ratio: \d+\.\d\d \(budget 1\.3\)", done.stdout), done.stdout
