"""The bars of every screen: the title at the top, the keys that work here at the bottom (one widget each)."""

from __future__ import annotations

from textual import events
from textual.content import Content
from textual.screen import Screen
from textual.widget import Widget

OFFERED = frozenset({"join"})
"""The ids of the app's keys offered on a line of their own when they work (a phone has no F-keys, and the
key line at 40 columns holds one key and the palette)."""


class KeyBar(Widget):
    """A light footer: one widget that draws the screen's keys (redrawn whenever they change)."""

    DEFAULT_CSS = """
    KeyBar {
        dock: bottom;
        height: 1;
        background: $footer-background;
        color: $footer-foreground;
    }
    KeyBar.-offer { height: 2; }
    """

    def __init__(self) -> None:
        super().__init__()
        self._spans: list[tuple[int, int, str]] = []

    def on_mount(self) -> None:
        """Redraw when the keys change (focus moves, an action is enabled or disabled)."""
        self.screen.bindings_updated_signal.subscribe(self, self._changed)
        self._changed(self.screen)

    def _changed(self, screen: Screen[object]) -> None:
        self.set_class(self.offer() is not None, "-offer")
        self.refresh()

    def offer(self) -> tuple[str, str] | None:
        """A key offered on a line of its own where a phone lands (`OFFERED`: join as a seat, in a browser): its
        key and description, when it works here."""
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if binding.id in OFFERED and active.enabled:
                return binding.key, binding.description
        return None

    def keys(self) -> list[tuple[str, str, str, bool]]:
        """(key, shown key, description, enabled) of each key to show, one per action."""
        out = []
        seen: set[str] = set()
        for active in self.screen.active_bindings.values():
            binding = active.binding
            if not binding.show or binding.action in seen or binding.id in OFFERED:
                continue
            seen.add(binding.action)
            out.append((binding.key, self.app.get_key_display(binding), binding.description, active.enabled))
        return out

    def render(self) -> Content:
        """` f1 Help  ^z Undo …` and the command palette key at the right."""
        parts: list[Content] = []
        spans: list[tuple[int, int, str]] = []
        x = 0
        palette = self.app.COMMAND_PALETTE_BINDING if self.app.ENABLE_COMMAND_PALETTE else None
        active = self.screen.active_bindings.get(palette) if palette else None
        right = (palette, self.app.get_key_display(active.binding), active.binding.description) \
            if active and palette else None
        for key, shown, description, enabled in self.keys():
            if key == palette:
                continue
            part = Content.assemble((f" {shown} ", "bold $footer-key-foreground"),
                                    (f"{description} ", "$footer-description-foreground"))
            if not enabled:
                part = part.stylize("dim")
            spans.append((x, x + part.cell_length, key))
            x += part.cell_length
            parts.append(part)
        if right is not None:
            key, shown, description = right
            room = self.size.width - len(shown) - len(description) - 4
            while parts and x > room:
                dropped = parts.pop()
                spans.pop()
                x -= dropped.cell_length
            tail = Content.assemble(("│", "$foreground 20%"), (f" {shown}", "bold $footer-key-foreground"),
                                    (f" {description} ", "$footer-description-foreground"))
            gap = max(1, self.size.width - x - tail.cell_length)
            parts.append(Content(" " * gap))
            spans.append((x + gap, x + gap + tail.cell_length, key))
            parts.append(tail)
        self._spans = spans
        line = Content("").join(parts)
        offer = self.offer()
        if offer is None:
            return line
        text = Content.assemble((" ▸ ", "bold $footer-key-foreground"),
                                (f"{offer[1]}: one player's phone", "bold"))
        blank = [Content("")] * (self.offer_row() - 1)
        return Content("\n").join([line, *blank, text.truncate(self.size.width or 40, ellipsis=True)])

    def offer_row(self) -> int:
        """The row of the offer: below the keys (below their second, tappable row on a phone)."""
        return max(1, self.size.height // 2)

    def on_click(self, event: events.Click) -> None:
        """A click on a key presses it (on the offer's line: the key offered)."""
        offer = self.offer()
        if offer is not None and event.y >= self.offer_row():
            self.app.simulate_key(offer[0])
            return
        for start, end, key in self._spans:
            if start <= event.x < end:
                self.app.simulate_key(key)
                return


def keys_text(bar: KeyBar) -> str:
    """The keys shown, as plain text (for tests)."""
    return " ".join(f"{shown} {description}" for _, shown, description, _ in bar.keys())



class TitleBar(Widget):
    """A light header: the screen's title and sub-title on one line, wrapped at spaces on a phone (a click opens the
    command palette)."""

    DEFAULT_CSS = """
    TitleBar {
        dock: top;
        height: 1;
        background: $panel;
        color: $foreground;
        content-align: center middle;
    }
    """

    def on_mount(self) -> None:
        """Redraw when the screen's title changes."""
        self.watch(self.screen, "title", self._changed, init=False)
        self.watch(self.screen, "sub_title", self._changed, init=False)

    def _changed(self) -> None:
        self.refresh(layout=True)

    def render(self) -> Content:
        """`Title — sub-title`, user text shown literally."""
        screen = self.screen
        title = screen.title if screen.title is not None else self.app.title
        sub_title = screen.sub_title if screen.sub_title is not None else self.app.sub_title
        return self.app.format_title(title, sub_title)

    def on_click(self) -> None:
        """Open the command palette."""
        self.app.action_command_palette()
