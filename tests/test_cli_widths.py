"""CLI tables align by display width: emoji and East Asian wide characters take two columns (issue 10)."""

from __future__ import annotations

import re
from pathlib import Path

from scorekeeper import cli
from scorekeeper.model.session import Round
from scorekeeper.model.text import width
from tests.test_tui_support import write_session

WIDE = ["Zoë 🚀", "李雷", "Bo"]
DONE = Round(players={"Zoë 🚀": {"pairs": {"count": 1, "each": 3}}, "李雷": {"pairs": {"count": 2, "each": 3}},
                      "Bo": {"pairs": {"count": 1, "each": 2}}})


def ends_of(lines: list[str], pattern: str) -> set[int]:
    """The display column where each matching line's points column ends."""
    return {width(m.group(1)) for line in lines if (m := re.match(pattern, line))}


def test_score_text_aligns_wide_names(tmp_path: Path, capsys) -> None:
    """Round rows and totals: the points column ends in the same terminal column for every name."""
    path = write_session(tmp_path, "ticket-to-mars", WIDE, rounds=(DONE,))
    assert cli.main(["score", str(path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    rows = [line for line in lines if any(line.startswith(f"  {n}") for n in WIDE)]
    assert len(rows) == 3 and len(ends_of(rows, r"^(  .*?\s+-?\d+(?:\.\d+)?)$")) == 1
    totals = [line for line in lines if re.match(r"^  \d\. ", line)]
    assert len(totals) == 3 and len(ends_of(totals, r"^(  \d\. .*?\s+\d+)")) == 1


def test_stats_aligns_wide_names(tmp_path: Path, capsys) -> None:
    """The stats table's plays column lines up under wide names."""
    write_session(tmp_path, "ticket-to-mars", WIDE, rounds=(DONE,))
    assert cli.main(["stats", str(tmp_path)]) == 0
    lines = capsys.readouterr().out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  player  plays"))
    table = lines[start:start + 4]
    assert sorted(line.split()[0] for line in table) == sorted(["player", "Zoë", "李雷", "Bo"])
    assert len(ends_of(table, r"^(  .*?\s+(?:plays|\d+))\s")) == 1
