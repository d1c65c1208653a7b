"""Keys in the order they were typed: boxes and lists whose own keys act at once, never after later keys."""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input, OptionList


async def passed_on(widget: Widget, event: events.Key) -> bool:
    """True when the key reached a widget that no longer has the keyboard: it goes on to the one that has it."""
    focused = widget.screen.focused
    if focused is widget or focused is None:
        return False
    event.stop()
    event.prevent_default()
    if isinstance(focused, OrderedInput):
        await focused.take(event)
    elif not await in_order(focused, event):
        focused.post_message(events.Key(event.key, event.character))
    return True


def own_actions(widget: Widget) -> dict[str, str]:
    """The widget's own keys and their actions, from its class's BINDINGS (nearest class first)."""
    keys: dict[str, str] = {}
    for cls in type(widget).__mro__:
        for binding in vars(cls).get("BINDINGS", ()):
            if isinstance(binding, Binding):
                for key in binding.key.split(","):
                    keys.setdefault(key.strip(), binding.action)
    return keys


async def in_order(widget: Widget, event: events.Key) -> bool:
    """Run the widget's own key at once (not after a round trip through the app), so the keys after it land
    where this one leaves the keyboard; True when the key was handled."""
    action = own_actions(widget).get(event.key)
    if action is None:
        return False
    event.stop()
    event.prevent_default()
    await widget.run_action(action)
    return True


class GameList(OptionList):
    """The games; Enter goes on to the first player's box at once (a name typed right after lands there)."""

    async def _on_key(self, event: events.Key) -> None:
        if await passed_on(self, event):
            return
        if event.key == "enter":
            event.stop()
            event.prevent_default()
            self.screen.set_focus(self.screen.query_one("#player-1", Input))
            return
        await in_order(self, event)


class OrderedInput(Input):
    """A box whose own keys (Backspace, ctrl+a, ctrl+k, Enter …) act at once, in the order they were typed.

    Textual runs a box's key bindings only after the key has gone up to the app and back, while characters
    are typed straight in: typed fast, `ctrl+a ctrl+k Zoë` would clear the name after typing it. Here every
    key is handled as it arrives; a key that reaches the box after it let go of the keyboard goes on to the
    widget that has it.
    """

    async def _on_key(self, event: events.Key) -> None:
        if await passed_on(self, event):
            return
        if not event.is_printable:
            await in_order(self, event)

    async def take(self, event: events.Key) -> None:
        """Handle a key passed on from a widget that had the keyboard before."""
        if event.is_printable and event.character:
            self.insert_text_at_cursor(event.character)
        elif not await in_order(self, event):
            self.post_message(events.Key(event.key, event.character))


class FormInput(OrderedInput):
    """A box of a form: Enter and Tab also move on at once, so `Ana⏎Bo⏎` typed in one burst fills two boxes."""

    async def _on_key(self, event: events.Key) -> None:
        if await passed_on(self, event):
            return
        if event.key in ("enter", "tab", "shift+tab"):
            event.stop()
            event.prevent_default()
            await self.take(event)
            return
        if not event.is_printable:
            await in_order(self, event)

    async def take(self, event: events.Key) -> None:
        """Handle a key as the box with the keyboard: move on, type the character, or let the box's keys act."""
        if event.key in ("enter", "tab"):
            if event.key == "enter":
                self.post_message(self.Submitted(self, self.value))
            self.screen.focus_next()
        elif event.key == "shift+tab":
            self.screen.focus_previous()
        elif event.is_printable and event.character:
            self.insert_text_at_cursor(event.character)
        elif not await in_order(self, event):
            self.post_message(events.Key(event.key, event.character))
