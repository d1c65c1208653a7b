"""The sessions as the home screen and the trash list them: an entry per file, and a virtual list of them."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from textual import events
from textual.content import Content
from textual.geometry import Region, Size
from textual.message import Message
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.visual import Visual

from scorekeeper.gamenames import NAMES
from scorekeeper.index import Summary, summarize


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
        return self.title or self.path.name

    def lines(self) -> tuple[Content, Content]:
        """Title, game and date; players and state (or why the file cannot be read)."""
        if self.error:
            return (Content.assemble(("⚠ ", "$text-error"), (self.path.name, "bold"),
                                     (f"  {self.state}", "$text-error")),
                    Content.assemble("  ", (self.error, "$text-error")))
        title: list[str | tuple[str, str]] = [(self.title, "bold"), "  "] if self.title else []
        return (Content.assemble(*title, (NAMES.get(self.game or "") or self.game or "", "bold $text-accent"), "  ",
                                 (self.when, "dim")),
                Content.assemble("  ", ", ".join(self.players), "  ", ("— " + self.state, "italic")))

    def prompt(self) -> Content:
        """Both lines as one text."""
        first, second = self.lines()
        return first + "\n" + second


def entry_for(path: Path) -> Entry | None:
    """Read one file for a list (an unreadable one with the core's first message); None when it is gone."""
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

    class Chosen(Message):
        """A row was clicked."""

        def __init__(self, index: int) -> None:
            super().__init__()
            self.index = index

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.rows: Sequence[Entry] = ()
        self.highlighted: int | None = None
        self._cache: dict[tuple[Entry, bool, int], list[Strip]] = {}

    def set_rows(self, rows: Sequence[Entry], highlighted: int | None) -> None:
        """Show these entries, one of them highlighted (rows already drawn are reused).

        A new number of rows lays the screen out again only when the scroll bar comes or goes: otherwise the
        list keeps its place and size, and only its scroll bar and lines are drawn again.
        """
        self.rows = rows
        size = Size(0, max(0, len(rows) * self.ROW - 1))
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
        self.highlight(highlighted)
        self.refresh()

    def highlight(self, index: int | None) -> None:
        """Highlight a row (clamped to the list) and scroll it into view."""
        if index is not None:
            index = min(max(index, 0), len(self.rows) - 1) if self.rows else None
        self.highlighted = index
        self.refresh()
        if index is not None and self.is_mounted:
            self.scroll_to_region(Region(0, index * self.ROW, 1, 2), animate=False, force=True, immediate=True)

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
        index, part = divmod(self.scroll_offset.y + y, self.ROW)
        if index >= len(self.rows) or part == 2:
            return Strip.blank(width, self.get_visual_style("session-list--row").rich_style)
        return self._strips(index, width)[part]

    def _strips(self, index: int, width: int) -> list[Strip]:
        lit = index == self.highlighted
        key = (self.rows[index], lit, width)
        strips = self._cache.get(key)
        if strips is None:
            style = self.get_visual_style("session-list--row", *(["session-list--highlighted"] if lit else []))
            strips = []
            for line in self.rows[index].lines():
                line = line.truncate(width, ellipsis=True)
                rendered = Visual.to_strips(self, line, width, 1, style)[0]
                strips.append(rendered.extend_cell_length(width, style.rich_style).crop(0, width))
            if len(self._cache) > 2048:
                self._cache.clear()
            self._cache[key] = strips
        return strips

    def on_click(self, event: events.Click) -> None:
        """A click on a row chooses it."""
        offset = event.get_content_offset(self)
        if offset is None:
            return
        index, part = divmod(self.scroll_offset.y + offset.y, self.ROW)
        if part < 2 and 0 <= index < len(self.rows):
            self.highlight(index)
            self.post_message(self.Chosen(index))

    def plain(self) -> str:
        """Every row as plain text (for tests)."""
        return "\n".join(first.plain + "\n" + second.plain for first, second in (e.lines() for e in self.rows))
