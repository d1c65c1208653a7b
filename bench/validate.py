"""Bench: validating a 30-round, 5-player Ticket Booth session on the model against reading it back from TOML.

Run: .venv/bin/python bench/validate.py   (a few seconds)

Rows: `validation.validate(session)` (what the app pays after an accepted keystroke), the same rules on the
file's table (`validation.from_dict(store.to_dict(session))`, the round trip the app made before), and the
whole file path (`files.parse(store.dumps(session))`: TOML written, parsed, validated, lines attached). Each
figure is the best of 5 runs of 100, a valid session and one with an error in the last round; the ratio is
against `validate`.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path

try:
    from scorekeeper import files, store
    from scorekeeper.games import validation
except ModuleNotFoundError:  # run from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
    from scorekeeper import files, store
    from scorekeeper.games import validation
from scorekeeper.model.session import Round, Session

PLAYERS = ("Ana", "Bo", "Cy", "Di", "Ed")
COUNTS = {1: (1, 0, 0, 0, 0), 2: (0, 2, 0, 0, 0), 3: (1, 1, 1, 0, 0), 4: (2, 1, 1, 0, 0), 5: (0, 3, 2, 0, 0),
          6: (3, 2, 1, 0, 0), 7: (2, 2, 3, 0, 0), 8: (4, 2, 2, 0, 0), 9: (3, 3, 3, 0, 0), 10: (4, 3, 3, 0, 0),
          11: (2, 4, 5, 0, 0)}


def booth(rounds: int = 30) -> Session:
    """The session bench/keys.py types into: every round done but the last, whose attractions #1 to #7 are typed."""
    whole = {p: {"attractions": {str(n): c[i] for n, c in COUNTS.items()}, "outhouses": (1, 0, 2, 0, 0)[i],
                 "ticket_booth": i == 0, "demolition_derby": i == 2, "tickets": (7, 5, 3, 0, 0)[i],
                 "piglet_race": i == 1} for i, p in enumerate(PLAYERS)}
    last = {p: {"attractions": {str(n): COUNTS[n][i] for n in range(1, 8)}} for i, p in enumerate(PLAYERS)}
    return Session(game="ticket-booth", players=PLAYERS, rules={"rounds": rounds},
                   rounds=(*(Round(players=whole) for _ in range(rounds - 1)), Round(players=last)))


def best_ms(fn: Callable[[], object], n: int = 100, runs: int = 5) -> float:
    """The best of `runs` runs of `n` calls, in milliseconds per call."""
    fn()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        for _ in range(n):
            fn()
        times.append((time.perf_counter() - start) / n * 1000)
    return min(times)


def main() -> int:
    """Print the table."""
    valid = booth()
    broken = valid.with_value(30, "Ana", "attractions", {"8": 9})
    print("30 rounds, 5 players, Ticket Booth         valid     one error")
    for sess in (valid, broken):
        assert validation.validate(sess) == validation.from_dict(store.to_dict(sess))[1]
    rows: list[tuple[str, Callable[[Session], object]]] = [
        ("validation.validate(session)", validation.validate),
        ("validation.from_dict(store.to_dict(s))", lambda s: validation.from_dict(store.to_dict(s))),
        ("files.parse(store.dumps(s))", lambda s: files.parse(store.dumps(s))),
    ]
    figures = [[best_ms(partial(fn, s)) for s in (valid, broken)] for _label, fn in rows]
    for (label, _fn), row in zip(rows, figures, strict=True):
        cells = "  ".join(f"{ms:6.2f} ms {ms / b:4.1f}×" for ms, b in zip(row, figures[0], strict=True))
        print(f"{label:40} {cells}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
