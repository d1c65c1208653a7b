"""The step grid: one widget that owns the keyboard of a walkthrough step and draws its players' rows.

Keys are handed, in the order they come, to the walkthrough (`Walk.key`), which applies each to the cell under
its cursor and moves the cursor itself: no key is ever queued for a widget that is about to lose the focus. What
the rows show is the grid's reactive `view` (a value the walkthrough sets after each change): a new value paints
the lines that changed and keeps the cursor's rows in view.
"""

from __future__ import annotations

from typing import Any, Protocol

from textual import events
from textual.cache import LRUCache
from textual.containers import ScrollableContainer
from textual.content import Content
from textual.geometry import Region
from textual.reactive import reactive
from textual.strip import Strip
from textual.visual import Visual
from textual.widget import Widget


def line_key(line: Content) -> tuple[object, ...]:
    """What a line shows, text and styles (Content compares its text only)."""
    return line.plain, tuple(line.spans)


class Walk(Protocol):
    """What the grid asks of its owner."""

    def key(self, key: str, char: str | None) -> bool:
        """Apply a key at the cursor; False when the key is not the grid's (it goes on to the bindings)."""

    def grid_lines(self, view: Any, width: int) -> tuple[list[Content], int, int]:
        """A view of the rows drawn at a width, and the first and last line of the cursor's block."""

    def click(self, y: int) -> None:
        """A click on line y of the grid."""


class StepGrid(Widget, can_focus=True):
    """The players' rows of a step: names, inputs and what each scores, drawn as one block of lines."""

    TAKES_BURSTS = True
    """The app's key queue may hand it several keys at once (it hands back those after one that left it)."""

    DEFAULT_CSS = """
    StepGrid {
        height: auto;
    }
    """

    view: reactive[Any] = reactive(None, init=False, repaint=False)
    """What the rows show (the walkthrough's `RowsView`); None: nothing yet."""

    def __init__(self, walk: Walk, view: Any = None, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.walk = walk
        self.set_reactive(StepGrid.view, view)
        self._lines: list[Content] = []
        self._width = -1
        self._block = (0, 0)
        self._strips: LRUCache[tuple[object, int], Strip] = LRUCache(4096)

    def watch_view(self) -> None:
        """Drawn again: only the lines that changed are painted (all of them laid out again when their number
        changed); when the cursor's block moved, or the lines were laid out again, it is scrolled into view once
        laid out."""
        width = self.content_region.width or self.size.width
        if width <= 0:
            self._width = 0
            self.refresh(layout=True)
            self.call_after_refresh(self.show_cursor)
            return
        block = self._block
        before = [line_key(line) for line in self._lines]
        self._draw(width)
        after = [line_key(line) for line in self._lines]
        if len(after) != len(before):
            self.refresh(layout=True)
        else:
            changed = [Region(0, y, width, 1) for y, (a, b) in enumerate(zip(before, after, strict=True)) if a != b]
            if changed:
                self.refresh(*changed)
        if len(after) != len(before) or block != self._block:
            self.call_after_refresh(self.show_cursor)

    def show_cursor(self) -> None:
        """The cursor's rows scrolled into view in the page that holds the grid (the first player's from the top
        of the page: the step's heading above the rows stays in sight)."""
        scroller = self.parent
        if not isinstance(scroller, ScrollableContainer):
            return
        top, bottom = self._block
        y = self.virtual_region.y
        if top == 0:
            y = 0
            bottom += self.virtual_region.y
        height = max(1, min(bottom - top + 1, scroller.scrollable_content_region.height))
        scroller.scroll_to_region(Region(0, y + top, 1, height), animate=False, immediate=True)

    @property
    def block(self) -> tuple[int, int]:
        """The first and last line of the cursor's block."""
        return self._block

    def _draw(self, width: int) -> None:
        if self.view is None:
            self._lines, self._width, self._block = [], width, (0, 0)
            return
        lines, top, bottom = self.walk.grid_lines(self.view, width)
        self._lines, self._width, self._block = lines, width, (top, bottom)

    def plain(self) -> str:
        """The text drawn, without styles (for tests)."""
        return "\n".join(line.plain for line in self._lines)

    def render_line(self, y: int) -> Strip:
        """A line of the grid (each line drawn once for as long as it does not change)."""
        width = self.content_region.width or self.size.width
        if width != self._width:
            self._draw(width)
        line = self._lines[y] if 0 <= y < len(self._lines) else Content("")
        key = (line_key(line), width)
        strip = self._strips.get(key)
        if strip is None:
            strip = Visual.to_strips(self, line, width, 1, self.visual_style)[0]
            self._strips.set(key, strip)
        return strip

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        """As many lines as the rows take at this width."""
        if width != self._width:
            self._draw(width)
        return len(self._lines)

    async def on_key(self, event: events.Key) -> None:
        typed = getattr(self.app, "typed", None)
        if typed is not None and typed.taken(self, event):
            return
        if self.walk.key(event.key, event.character):
            event.stop()
            event.prevent_default()
        elif typed is not None:
            typed.left(event)

    def on_click(self, event: events.Click) -> None:
        """A click on a player's row moves the cursor there."""
        self.focus()
        self.walk.click(event.y)

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text is typed, a line break as Enter."""
        event.stop()
        for char in event.text.replace("\r\n", "\n"):
            if char == "\n":
                self.walk.key("enter", None)
            elif char == "\t":
                self.walk.key("tab", None)
            elif char.isprintable():
                self.walk.key(char if char != " " else "space", char)
