"""A QR code drawn in the terminal: two modules per character cell with half blocks, four with quadrants.

Dark modules on a light ground whatever the theme (a phone's camera needs that contrast), with a quiet zone
drawn in the light colour so a dark terminal around it does not eat into it.
"""

from __future__ import annotations

import segno
from textual.content import Content
from textual.widget import Widget

BORDER = 2
STYLE = "#000000 on #ffffff"

Matrix = list[list[bool]]

_HALF = {(False, False): " ", (True, False): "▀", (False, True): "▄", (True, True): "█"}
# Quadrant characters by (top left, top right, bottom left, bottom right) as bits 8, 4, 2, 1.
_QUADRANTS = " ▗▖▄▝▐▞▟▘▚▌▙▀▜▛█"


def matrix(data: str, border: int = BORDER) -> Matrix:
    """The modules of the QR code of `data` (True is dark), the quiet zone included."""
    code = segno.make(data, error="l", micro=False, boost_error=True)
    return [[bool(m) for m in row] for row in code.matrix_iter(scale=1, border=border)]


def _padded(rows: Matrix, across: int, down: int) -> Matrix:
    """The columns made a multiple of `across` and the rows of `down`, with light modules."""
    wide = len(rows[0]) + (-len(rows[0]) % across)
    out = [row + [False] * (wide - len(row)) for row in rows]
    out += [[False] * wide for _ in range(-len(out) % down)]
    return out


def half_blocks(rows: Matrix) -> list[str]:
    """One character per module across and two down: `▀ ▄ █` and space (square modules in most fonts)."""
    rows = _padded(rows, 1, 2)
    return ["".join(_HALF[top, bottom] for top, bottom in zip(rows[y], rows[y + 1], strict=True))
            for y in range(0, len(rows), 2)]


def quadrants(rows: Matrix) -> list[str]:
    """Two modules across and two down per character (half as wide as half blocks; modules twice as tall)."""
    rows = _padded(rows, 2, 2)
    out = []
    for y in range(0, len(rows), 2):
        line = []
        for x in range(0, len(rows[0]), 2):
            bits = (rows[y][x] << 3) | (rows[y][x + 1] << 2) | (rows[y + 1][x] << 1) | rows[y + 1][x + 1]
            line.append(_QUADRANTS[bits])
        out.append("".join(line))
    return out


def picture(rows: Matrix, columns: int) -> list[str]:
    """Half blocks when they fit in the columns, else quadrants (as tall, half as wide)."""
    return half_blocks(rows) if len(rows[0]) <= columns else quadrants(rows)


def svg(data: str) -> str:
    """The QR code of `data` as an SVG picture (to open full size when the terminal is too small to scan)."""
    import io

    out = io.BytesIO()
    code = segno.make(data, error="l", micro=False, boost_error=True)
    code.save(out, kind="svg", scale=8, border=4, dark="#000", light="#fff")  # a light ground: no transparency
    return out.getvalue().decode("utf-8")


class QRCode(Widget):
    """The QR code of a text (a link), as large as fits the container's width and the screen's height."""

    DEFAULT_CSS = """
    QRCode {
        height: auto;
        width: auto;
    }
    """

    def __init__(self, data: str, *, border: int = BORDER, id: str | None = None, classes: str | None = None) -> None:
        """`border`: the quiet zone in modules (0 where the light ground around the widget is the quiet zone)."""
        super().__init__(id=id, classes=classes)
        self.data = data
        self.rows = matrix(data, border)
        self.columns = len(self.rows[0])

    @property
    def height(self) -> int:
        """The lines the picture takes (two modules a line, whichever characters draw it)."""
        return (len(self.rows) + 1) // 2

    def lines(self, columns: int) -> list[str]:
        """The picture's lines for this many columns."""
        return picture(self.rows, columns)

    def render(self) -> Content:
        """The code, dark on light."""
        return Content("\n").join(Content.styled(line, STYLE) for line in self.lines(self.columns))

    def get_content_width(self, container, viewport) -> int:  # type: ignore[no-untyped-def]
        """The picture's width: one column per module, or one per two when that does not fit the container."""
        self.columns = container.width or self.columns
        return len(self.lines(self.columns)[0])

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        """The picture's height in lines."""
        return len(self.lines(self.columns))
