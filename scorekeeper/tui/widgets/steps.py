"""The steps of a round down one side: the current one marked, the ones done ticked; pick one to go there."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

PHONE = 60
"""Below this width (a phone held upright) each step is two lines high: a tap target."""


class StepList(Widget, can_focus=True):
    """A light list of steps (one widget, one line per step): up/down and Enter, or a click, picks one."""

    DEFAULT_CSS = """
    StepList {
        height: auto;
        padding: 0 1;
    }
    """

    BINDINGS = [
        Binding("up", "move(-1)", "Previous", show=False),
        Binding("down", "move(1)", "Next", show=False),
        Binding("home", "move(-99)", "First", show=False),
        Binding("end", "move(99)", "Last", show=False),
        Binding("enter", "pick", "Go to step", show=False),
    ]

    cursor = reactive(0)

    class Picked(Message):
        """A step was picked."""

        def __init__(self, steps: StepList, index: int) -> None:
            super().__init__()
            self.steps = steps
            self.index = index

    def __init__(self, titles: list[Content], current: int, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.titles = titles
        self.current = current
        self.set_reactive(StepList.cursor, current)

    def show(self, titles: list[Content], current: int) -> None:
        """Other titles (ticks) and another current step."""
        layout = len(titles) != len(self.titles)
        self.titles = titles
        self.current = current
        self.cursor = current
        self.refresh(layout=layout)

    def render(self) -> Content:
        """One line per step; the current one highlighted, the cursor shown while focused."""
        width = max(1, self.content_region.width or self.size.width)
        out = []
        for i, title in enumerate(self.titles):
            lines = [title + Content(" " * max(0, width - title.cell_length))]
            lines += [Content(" " * width)] * (self.row - 1)
            for line in lines:
                if self.has_focus and i == self.cursor:
                    line = line.stylize("$block-cursor-foreground on $block-cursor-background")
                elif i == self.current:
                    line = line.stylize("bold on $block-cursor-blurred-background")
                out.append(line)
        return Content("\n").join(out)

    @property
    def row(self) -> int:
        """The lines a step takes: two on a phone held upright (a finger's height), else one."""
        return 2 if self.app.size.width < PHONE else 1

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        """A line per step (two on a phone)."""
        return len(self.titles) * self.row

    def watch_cursor(self) -> None:
        """Redraw, the cursor's step in view (a phone's list may be taller than the screen)."""
        self.refresh()
        if self.is_mounted:
            self.scroll_to_region(Region(0, self.cursor * self.row, 1, self.row), animate=False)

    def on_focus(self) -> None:
        """Start the cursor at the current step."""
        self.cursor = self.current
        self.refresh()

    def on_blur(self) -> None:
        """Redraw without the cursor."""
        self.refresh()

    def action_move(self, delta: int) -> None:
        """Move the cursor."""
        self.cursor = max(0, min(len(self.titles) - 1, self.cursor + delta))

    def action_pick(self) -> None:
        """Go to the step under the cursor."""
        self.post_message(self.Picked(self, self.cursor))

    def on_click(self, event: events.Click) -> None:
        """A click picks the step on that line (the line under the finger, inside the border)."""
        offset = event.get_content_offset(self)
        index = -1 if offset is None else offset.y // self.row
        if 0 <= index < len(self.titles):
            self.cursor = index
            self.post_message(self.Picked(self, index))
