"""Keys in typing order across screens (scorekeeper/tui/keys.py): what holding each key until the one before is
done costs, against the same app handing keys on as Textual does (the queue turned off), in one process.

Three cases, each run alternately with the queue on and off, timed from the first key posted to the last key's
work done (Pilot: every key posted at once, then the app settles): a 5-player Ticket Booth round in one burst
(all on one screen), 30 digits typed one at a time (each posted once the one before is done: the queue's own
cost on a key typed alone), and ctrl+n, the New session form, ctrl+s and a Mars round in one burst (across
screens: with the queue off its keys are lost, so only its time with the queue on is given). Figures are
medians; the ratio is on / off.

    python bench/typed_keys.py [--runs 5]
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("TEXTUAL_ANIMATIONS", "none")

from tests.test_tui_fast import FIVE, booth_tokens  # noqa: E402
from tests.test_tui_support import app_for, burst, settle, values, write_session  # noqa: E402

MARS = ["ctrl+n", "down", "down", "down", "enter", *values("Ana", "Bo"), "tab", "tab", "tab", "Mars", "ctrl+s",
        *values("2", "3", "3", "2", "1", "4", "2", "2", "", "5", "1", "5")]


async def timed(folder: Path, file: Path | None, on: bool, keys: Callable[..., Awaitable[None]]) -> float:
    """Seconds from the first key posted to the app settled after the last."""
    app = app_for(folder, file)
    async with app.run_test(size=(80, 24)) as pilot:
        await settle(pilot)
        app.typed.off = not on
        start = time.perf_counter()
        await keys(pilot)
        return time.perf_counter() - start


async def booth_round(pilot) -> None:  # type: ignore[no-untyped-def]
    """A 5-player round in one burst."""
    await burst(pilot, *booth_tokens())


async def one_by_one(pilot) -> None:  # type: ignore[no-untyped-def]
    """Thirty digits into one Ticket Booth box (each replaces the one before), each once the one before is done."""
    for i in range(30):
        await burst(pilot, str(i % 2))


async def across(pilot) -> None:  # type: ignore[no-untyped-def]
    """ctrl+n, the form, ctrl+s and a round: one burst."""
    await burst(pilot, *MARS)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    print(f"load average {os.getloadavg()[0]:.2f}; medians of {args.runs} runs, queue on / off alternately")
    with tempfile.TemporaryDirectory() as tmp:
        base = Path(tmp)
        for name, make, keys in (("5-player Booth round, one burst", "booth", booth_round),
                                 ("30 keys, each alone", "booth1", one_by_one)):
            times: dict[bool, list[float]] = {True: [], False: []}
            for run in range(args.runs):
                for on in (True, False):
                    folder = base / f"{make}-{run}-{on}"
                    path = write_session(folder, "ticket-booth", FIVE)
                    times[on].append(asyncio.run(timed(folder, path, on, keys)))
            a, b = statistics.median(times[True]), statistics.median(times[False])
            print(f"  {name:<34} on {a * 1000:8.1f} ms   off {b * 1000:8.1f} ms   {a / b:.2f}×")
        spans = []
        for run in range(args.runs):
            folder = base / f"across-{run}"
            folder.mkdir()
            spans.append(asyncio.run(timed(folder, None, True, across)))
            assert len(list(folder.glob("*.toml"))) == 1, "the session was not created"
        print(f"  {'ctrl+n, form, ctrl+s, round: burst':<34} on {statistics.median(spans) * 1000:8.1f} ms"
              "   (off: the keys after ctrl+n are lost)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
