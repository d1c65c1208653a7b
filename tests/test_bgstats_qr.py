"""The BG Stats QR code decoded back to its link with zbar (zbarimg), from the SVG and from the terminal's drawing.

The SVG is rasterised here from its path (segno draws each dark run as `h` strokes one module tall), the
terminal drawing from its half-block or quadrant characters, both into a PNG written with the standard library.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import zlib
from datetime import datetime
from pathlib import Path

import pytest

from scorekeeper import games
from scorekeeper.after.export import bgstats_link
from scorekeeper.games.base import Sheet
from scorekeeper.model.session import Session
from scorekeeper.tui.widgets.qr import half_blocks, matrix, quadrants, svg

pytestmark = pytest.mark.skipif(shutil.which("zbarimg") is None, reason="zbarimg (zbar-tools) not installed")

SAMPLES = Path(__file__).resolve().parent.parent / "sample_sessions"
HALF = {" ": (0, 0), "▀": (1, 0), "▄": (0, 1), "█": (1, 1)}
QUADRANTS = " ▗▖▄▝▐▞▟▘▚▌▙▀▜▛█"
SCALE = 6


def png(modules: list[list[bool]], path: Path, border: int = 4) -> Path:
    """Dark modules black on white, SCALE pixels a module, with a white quiet zone of `border` modules."""
    wide = len(modules[0]) + 2 * border
    blank = [False] * wide
    rows = [blank] * border + [[False] * border + r + [False] * border for r in modules] + [blank] * border
    raw = b"".join(b"\0" + bytes(0 if dark else 255 for dark in row for _ in range(SCALE))
                   for row in rows for _ in range(SCALE))

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    head = struct.pack(">IIBBBBB", wide * SCALE, len(rows) * SCALE, 8, 0, 0, 0, 0)
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) + chunk(b"IDAT", zlib.compress(raw))
                     + chunk(b"IEND", b""))
    return path


def decoded(path: Path) -> str:
    out = subprocess.run(["zbarimg", "--quiet", "--raw", "-Sbinary", str(path)], capture_output=True, check=True)
    return out.stdout.decode("utf-8").removesuffix("\n")


def svg_modules(text: str) -> list[list[bool]]:
    """The modules of segno's SVG: the size from the white square, the dark runs from the `qrline` path."""
    size = int(re.search(r'd="M0 0h(\d+)v', text).group(1))  # type: ignore[union-attr]
    grid = [[False] * size for _ in range(size)]
    d = re.search(r'class="qrline"[^>]* d="([^"]+)"', text).group(1)  # type: ignore[union-attr]
    x = y = 0.0
    for op, args in re.findall(r"([MmHh])([-\d. ]+)", d):
        nums = [float(n) for n in args.split()]
        if op == "M":
            x, y = nums
        elif op == "m":
            x, y = x + nums[0], y + nums[1]
        else:
            run = nums[0] if op == "h" else nums[0] - x
            for i in range(int(x), int(x + run)):
                grid[int(y)][i] = True
            x += run
    return grid


def drawing_modules(lines: list[str]) -> list[list[bool]]:
    """The modules back from the terminal's characters (two down per line; one or two across per character)."""
    if all(ch in HALF for line in lines for ch in line):
        return [row for line in lines for row in ([bool(HALF[c][0]) for c in line], [bool(HALF[c][1]) for c in line])]
    out = []
    for line in lines:
        top: list[bool] = []
        bottom: list[bool] = []
        for c in line:
            bits = QUADRANTS.index(c)
            top += [bool(bits & 8), bool(bits & 4)]
            bottom += [bool(bits & 2), bool(bits & 1)]
        out += [top, bottom]
    return out


def sheet_with(names: tuple[str, ...], game: str = "ticket-to-ride") -> Sheet:
    return games.score(Session(game=game, players=names, started=datetime(2026, 11, 27, 19, 30)), [])


def sample_sheets() -> list[tuple[str, Sheet]]:
    from scorekeeper import files

    out = []
    for path in sorted(SAMPLES.glob("*.toml")):
        session, warnings = files.load(path)
        out.append((path.name, games.score(session, warnings)))
    return out


AWKWARD = [
    ("Zoë", "ZOË", "Ana & Bo", "50% #1"),
    ("Ana, \"the\" 🎲", "[bold]Bo[/bold] <b>", "=HYPERLINK(\"x\")", "Cy\\Dee"),
    ("👩‍👩‍👧‍👦 family", "田中 太郎", "O'Brien + co?", "a/b=c;d"),
    ("Ålesund Øystein", "Nguyễn Văn A", "ש. כהן", "Ελένη"),
]


@pytest.mark.parametrize("which", ["samples", "awkward"])
def test_the_code_decodes_back_to_its_link(which: str, tmp_path: Path) -> None:
    cases = sample_sheets() if which == "samples" else [(str(i), sheet_with(n)) for i, n in enumerate(AWKWARD)]
    for name, sheet in cases:
        link = bgstats_link(sheet, name)
        picture = svg(link)
        assert decoded(png(svg_modules(picture), tmp_path / "svg.png", border=0)) == link, name
        rows = matrix(link)
        for drawing in (half_blocks(rows), quadrants(rows)):
            assert decoded(png(drawing_modules(drawing), tmp_path / "drawn.png")) == link, name


def test_a_broken_drawing_does_not_decode(tmp_path: Path) -> None:
    """The check can fail: the drawing with its top half of lines blanked decodes to nothing."""
    link = bgstats_link(sheet_with(("Ana", "Bo")), "x.toml")
    drawing = half_blocks(matrix(link))
    cut = [" " * len(line) if i < len(drawing) // 2 else line for i, line in enumerate(drawing)]
    with pytest.raises(subprocess.CalledProcessError):
        decoded(png(drawing_modules(cut), tmp_path / "cut.png"))


def renamed(sample: str, names: tuple[str, ...]) -> Sheet:
    """A sample session scored with its players renamed, in order."""
    from scorekeeper import files

    session, warnings = files.load(SAMPLES / sample)
    for old, new in zip(session.players, names, strict=True):
        session = session.with_player_renamed(old, new)
    return games.score(session, warnings)


TWELVE = ("Alexandrinas", "Bartholomews", "Christophers", "Dominiquette")


@pytest.mark.parametrize("sample", ["ticket-to-ride-4p.toml", "ticket-to-ride-europe-4p.toml",
                                    "ticket-to-ride-usa-4p.toml"])
def test_a_four_player_code_with_twelve_letter_names_fits_forty_rows(sample: str, tmp_path: Path) -> None:
    """SPEC §6: 4 players named with 12 characters, scores of 3 digits: the code alone (half blocks, the white
    screen as quiet zone) is at most 40 lines, and it decodes back to the link."""
    import dataclasses

    sheet = renamed(sample, TWELVE)
    sheet = dataclasses.replace(sheet, totals={name: 100 + 11 * i for i, name in enumerate(TWELVE)})
    link = bgstats_link(sheet, sample)
    drawing = half_blocks(matrix(link, 0))
    assert len(drawing) <= 40, (len(drawing), len(link))
    assert decoded(png(drawing_modules(drawing), tmp_path / "code.png")) == link
