"""The sessions as the home screen and the trash list them: an entry per file, and a virtual list of them."""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len, set_cell_size
from rich.segment import Segment
from rich.style import Style as RichStyle
from textual import events
from textual.cache import LRUCache
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.style import Style

from scorekeeper.games import NAMES
from scorekeeper.model.text import inert
from scorekeeper.tui.inert import escape_controls

if TYPE_CHECKING:
    from scorekeeper.index.summary import Summary


class Entry:
    """A session file as the home screen lists it: two lines, and the text the filter looks in."""

    __slots__ = ("path", "title", "game", "players", "state", "error", "when", "search", "order")

    def __init__(self, path: Path, *, title: str | None = None, game: str | None = None,
                 players: tuple[str, ...] = (), state: str = "", error: str = "", when: str = "",
                 order: tuple[str, str] = ("", "")) -> None:
        self.path = path
        self.order = order
        self.title = title
        self.game = game
        self.players = players
        self.state = state
        self.error = error
        self.when = when
        self.search = " ".join([path.name, game or "", NAMES.get(game or "", ""), title or "", *players,
                                state, error]).casefold()

    @classmethod
    def from_summary(cls, summary: Summary) -> Entry:
        """The entry of an indexed session."""
        return cls(summary.path, title=summary.title, game=summary.game, players=summary.players,
                   state=summary.state, error=summary.error, when=summary.when[:16].replace("T", " "),
                   order=(summary.when, summary.file))

    @property
    def name(self) -> str:
        """The title, else the file name."""
        return self.title or inert(self.path.name)

    def parts(self) -> tuple[Line, Line]:
        """Title, game and date; players and state (or why the file cannot be read): each line as (text, style)
        pieces, the text shown as it is (control characters escaped), the style "" for none."""
        if self.error:
            first: Line = [("⚠ ", "$text-error"), (inert(self.path.name), "bold"), (f"  {self.state}", "$text-error")]
            second: Line = [("  ", ""), (self.error, "$text-error")]
        else:
            first = [(self.title, "bold"), ("  ", "")] if self.title else []
            first += [(NAMES.get(self.game or "") or self.game or "", "bold $text-accent"), ("  ", ""),
                      (self.when, "dim")]
            second = [("  ", ""), (", ".join(self.players), ""), ("  ", ""), ("— " + self.state, "italic")]
        return ([(escape_controls(text), style) for text, style in first],
                [(escape_controls(text), style) for text, style in second])

    def flowed(self, width: int) -> list[Line]:
        """The row for a phone: the same pieces flowed into lines of `width` cells, a piece too long for a line
        wrapped at its spaces, so that nothing is cut (`— finished — Finn won 71–71 (built fewer stations)`)."""
        first, second = self.parts()
        pieces = [piece for piece in (*first, *second) if piece[0].strip()]
        return flow([(text.strip(), style) for text, style in pieces], width)

    def lines(self) -> tuple[Content, Content]:
        """Title, game and date; players and state (or why the file cannot be read)."""
        first, second = self.parts()
        return Content.assemble(*first), Content.assemble(*second)

    def prompt(self) -> Content:
        """Both lines as one text."""
        first, second = self.lines()
        return first + "\n" + second


Line = list[tuple[str, str]]
"""A line of a row: (text, style) pieces."""

NARROW = 60
"""Under this many columns (a phone held upright) a row's pieces wrap instead of being cut."""


def flow(pieces: Line, width: int, indent: int = 2, gap: int = 2) -> list[Line]:
    """Pieces laid out in lines of `width` cells: each on the current line when it fits (`gap` spaces apart),
    else on a new one indented; one longer than a line wrapped at its spaces (a word longer than the line is cut
    when drawn)."""
    lines: list[Line] = [[]]
    used = 0
    for text, style in pieces:
        size = cells(text)
        if lines[-1] and used + gap + size <= width:
            lines[-1] += [(" " * gap, ""), (text, style)]
            used += gap + size
            continue
        start = 0 if len(lines) == 1 and not lines[-1] else indent
        chunks = [(text, size)] if start + size <= width else words_in_lines(text, max(1, width - indent))
        for chunk, size in chunks:
            if lines[-1]:
                lines.append([])
            start = indent if len(lines) > 1 else 0
            lines[-1] = [(" " * start, ""), (chunk, style)] if start else [(chunk, style)]
            used = start + size
    return lines


def cells(text: str) -> int:
    """The cells a text takes, at most (its length when no character of it can be wide: the common case — Latin,
    Greek, Cyrillic, dashes — counted fast; a combining mark counted as a cell only wraps a line sooner)."""
    return len(text) if _ONE_CELL.fullmatch(text) else cell_len(text)


_ONE_CELL = re.compile("[\u0000-\u10ff\u2000-\u2bff]*")
"""Text of characters never wider than one cell."""


def words_in_lines(text: str, width: int) -> list[tuple[str, int]]:
    """A text wrapped at its spaces into lines of at most `width` cells (a longer word alone on its line), each
    with its cells."""
    out: list[tuple[str, int]] = []
    line, used = "", 0
    for word in text.split(" "):
        size = cells(word)
        if line and used + 1 + size > width:
            out.append((line, used))
            line, used = "", 0
        line, used = (f"{line} {word}", used + 1 + size) if line else (word, size)
    if line or not out:
        out.append((line, used))
    return out


def strip_of(line: Line, width: int, base: Style, styles: dict[str, RichStyle]) -> Strip:
    """One line of a row drawn `width` cells wide on `base`, as Textual draws the Content of the same pieces (one
    longer is cut with an ellipsis, styled as the text it replaces); `styles` caches each piece's Rich style."""
    text = "".join(t for t, _ in line)
    cells = cell_len(text)
    if cells > width:
        cells = width
        cut = set_cell_size(text, width - 1) + "…" if width else ""
        pieces: Line = []
        start = 0
        for t, style in line:
            if start >= len(cut):
                break
            pieces.append((cut[start:start + len(t)], style))
            start += len(t)
        line = pieces
    segments = []
    for t, style in line:
        if t:
            rich = styles.get(style)
            if rich is None:
                on = Style.combine([base, Style.parse(style)]) if style else base
                rich = styles[style] = (base + on).rich_style
            segments.append(Segment(t, rich))
    if cells < width:
        segments.append(Segment(" " * (width - cells), base.rich_style))
    return Strip(segments, width)


def entry_for(path: Path) -> Entry | None:
    """Read one file for a list (an unreadable one with the core's first message); None when it is gone."""
    from scorekeeper.index.indexing import summarize

    summary = summarize(path)
    return Entry.from_summary(summary) if summary is not None else None


class SessionList(ScrollView, can_focus=False):
    """A virtual list of sessions: two lines each and a gap; only the rows on screen are drawn."""

    COMPONENT_CLASSES = {"session-list--row", "session-list--highlighted"}
    DEFAULT_CSS = """
    SessionList {
        overflow-x: hidden;
        & > .session-list--row { }
        & > .session-list--highlighted { background: $block-cursor-background; }
    }
    """
    ROW = 3
    """Lines a row takes, the gap included (on a phone, as many as its pieces need, and the gap)."""

    class Chosen(Message):
        """A row was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: Sequence[Entry] = ()
        self.highlighted: int | None = None
        self.scrolled = False
        """Whether the user scrolled the list (the mouse wheel)."""
        self._cache: LRUCache[tuple[Entry, bool, int], list[Strip]] = LRUCache(2048)
        self._tops: list[int] | None = None
        """On a phone: where each row starts (rows of different heights); None: every row ROW lines."""
        self._heights: dict[tuple[Entry, int], int] = {}
        self._styles: dict[Style, dict[str, RichStyle]] = {}

    def lay_out(self) -> int:
        """The rows' tops for this width (on a phone: each as tall as its pieces need); the lines they take."""
        width = self.app.size.width
        if width >= NARROW:
            self._tops = None
            return len(self.rows) * self.ROW
        room = max(1, self.scrollable_content_region.width or width - 4)
        if len(self._heights) > 4 * len(self.rows) + 1000:  # entries gone from the list are forgotten
            self._heights.clear()
        tops, top = [], 0
        for entry in self.rows:
            tops.append(top)
            key = (entry, room)
            height = self._heights.get(key)
            if height is None:
                height = self._heights[key] = len(entry.flowed(room)) + 1
            top += height
        self._tops = tops + [top]
        return top

    def span(self, index: int) -> tuple[int, int]:
        """The first line of a row and the first line after it (its gap included)."""
        if self._tops is None:
            return index * self.ROW, (index + 1) * self.ROW
        return self._tops[index], self._tops[index + 1]

    def at(self, y: int) -> tuple[int, int]:
        """The row at line `y` of the list and the line within it."""
        if self._tops is None:
            return divmod(y, self.ROW)
        from bisect import bisect_right

        index = bisect_right(self._tops, y) - 1
        if index >= len(self.rows):
            return len(self.rows), 0
        return index, y - self._tops[index]

    def on_resize(self) -> None:
        """A new width on a phone flows the rows again (their heights change with it)."""
        if self._tops is not None or self.app.size.width < NARROW:
            self.virtual_size = Size(0, max(0, self.lay_out() - 1))
            self.highlight(self.highlighted)

    def set_rows(self, rows: Sequence[Entry], highlighted: int | None) -> None:
        """Show these entries, one of them highlighted (rows already drawn are reused).

        A new number of rows lays the screen out again only when the scroll bar comes or goes: otherwise the
        list keeps its place and size, and only its scroll bar and lines are drawn again.
        """
        self.rows = rows
        size = Size(0, max(0, self.lay_out() - 1))
        if size != self.virtual_size:
            height = self.container_size.height
            if self.is_mounted and height and (size.height > height) == (self.virtual_size.height > height):
                self.set_reactive(SessionList.virtual_size, size)
                if self.show_vertical_scrollbar:
                    self.vertical_scrollbar.window_virtual_size = size.height
                    self.vertical_scrollbar.refresh()
                self.scroll_y = self.validate_scroll_y(self.scroll_y)
            else:
                self.virtual_size = size
                if not height and size.height > self.app.size.height:  # not laid out yet, surely too long: the
                    self.show_vertical_scrollbar = True  # first frame has the scroll bar (not one more layout)
        self.highlight(highlighted)
        self.refresh()

    def highlight(self, index: int | None) -> None:
        """Highlight a row (clamped to the list) and scroll it into view."""
        if index is not None:
            index = min(max(index, 0), len(self.rows) - 1) if self.rows else None
        self.highlighted = index
        self.refresh()
        if index is not None and self.is_mounted:
            top, bottom = self.span(index)
            self.scroll_to_region(Region(0, top, 1, bottom - top - 1), animate=False, force=True, immediate=True)

    def move(self, delta: int) -> None:
        """Move the highlight by `delta` rows."""
        if self.rows:
            self.highlight((self.highlighted or 0) + delta if self.highlighted is not None else 0)

    def page(self) -> int:
        """How many rows one screenful holds."""
        return max(1, (self.scrollable_content_region.height + 1) // self.ROW)

    def render_line(self, y: int) -> Strip:
        """One line of the list: a row's first or second line, or the gap."""
        width = self.scrollable_content_region.width
        index, part = self.at(self.scroll_offset.y + y)
        strips = self._strips(index, width) if index < len(self.rows) else []
        if part >= len(strips):
            return Strip.blank(width, self.get_visual_style("session-list--row").rich_style)
        return strips[part]

    def _strips(self, index: int, width: int) -> list[Strip]:
        lit = index == self.highlighted
        key = (self.rows[index], lit, width)
        strips = self._cache.get(key)
        if strips is None:
            style = self.get_visual_style("session-list--row", *(["session-list--highlighted"] if lit else []))
            styles = self._styles.setdefault(style, {})
            entry = self.rows[index]
            lines = entry.flowed(width) if self._tops is not None else entry.parts()
            strips = [strip_of(line, width, style, styles) for line in lines]
            self._cache.set(key, strips)
        return strips

    def on_mouse_scroll_down(self) -> None:
        """The user scrolls the list (its view is theirs from now on)."""
        self.scrolled = True

    def on_mouse_scroll_up(self) -> None:
        """The user scrolls the list (its view is theirs from now on)."""
        self.scrolled = True

    def on_click(self, event: events.Click) -> None:
        """A click on a row chooses it."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index, part = self.at(self.scroll_offset.y + offset.y)
        if 0 <= index < len(self.rows) and part < self.span(index)[1] - self.span(index)[0] - 1:
            self.highlight(index)
            self.post_message(self.Chosen(index))

    def plain(self) -> str:
        """Every row as plain text (for tests)."""
        return "\n".join(first.plain + "\n" + second.plain for first, second in (e.lines() for e in self.rows))
