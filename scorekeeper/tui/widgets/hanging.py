"""Lines with a hanging indent: what wraps stays under the text, not under the points or the mark."""

from __future__ import annotations

from collections.abc import Iterable

from textual.content import Content
from textual.widget import Widget

Line = tuple[Content, Content]
"""A line: its lead (points, a mark) and its text, which wraps under itself."""


def wrap(lines: Iterable[Line], width: int) -> list[Content]:
    """The lines wrapped to a width, continuation lines indented to the text."""
    out: list[Content] = []
    for lead, text in lines:
        indent = lead.cell_length
        if width - indent < 16 and lead.cell_length + text.cell_length > width:  # no room to hang: under the lead
            out.append(lead.rstrip())
            lead, indent = Content("  "), 2
        parts = text.wrap(max(8, width - indent)) if text.plain else [Content("")]
        out.append(lead + parts[0])
        out.extend(Content(" " * indent) + part for part in parts[1:])
    return out


class Hanging(Widget):
    """A block of lines with hanging indents (items and their reasons, problems)."""

    DEFAULT_CSS = """
    Hanging {
        height: auto;
    }
    """

    def __init__(self, lines: Iterable[Line] = (), *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self._lines: list[Line] = list(lines)

    @property
    def lines(self) -> list[Line]:
        """The lines shown."""
        return self._lines

    def set(self, lines: Iterable[Line]) -> None:
        """Show other lines."""
        self._lines = list(lines)
        self.display = bool(self._lines) or not self.has_class("hide-empty")
        self.refresh(layout=True)

    def plain(self) -> str:
        """The text shown, unwrapped (for tests and the clipboard)."""
        return "\n".join((lead + text).plain for lead, text in self._lines)

    def render(self) -> Content:
        """The lines at the widget's width."""
        return Content("\n").join(wrap(self._lines, self.content_region.width or self.size.width))

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        """As many lines as the wrapped text takes at this width."""
        return len(wrap(self._lines, width))
