"""Keys in the order they were typed: the box whose own keys act at once, and what such widgets share.

typing.py builds the form's box and the lists on it; the home screen needs only this module.

Textual types a character into a box as soon as the box sees it, but runs the box's key bindings (Backspace,
ctrl+k, Enter, the arrows of a list) and Tab only after the key has gone up to the app and back. Typed fast,
or sent in one burst by tmux or a paste, `ctrl+a ctrl+k Zoë` would clear the name after typing it, and
`Ana⏎Bo⏎` would leave `AnaBo` in the first box. The widgets here handle every key as it arrives; a key that
reaches one of them after it let go of the keyboard goes on to the widget that has the keyboard now.
"""

from __future__ import annotations

from textual import events
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Input


def own_actions(widget: Widget) -> dict[str, str]:
    """The widget's own keys and their actions, from its classes' BINDINGS (nearest class first)."""
    keys: dict[str, str] = {}
    for cls in type(widget).__mro__:
        for binding in vars(cls).get("BINDINGS", ()):
            if isinstance(binding, Binding):
                for key in binding.key.split(","):
                    keys.setdefault(key.strip(), binding.action)
    return keys


async def in_order(widget: Widget, event: events.Key) -> bool:
    """Run the widget's own key now; True when it had one (the key is then used up)."""
    action = own_actions(widget).get(event.key)
    if action is None:
        return False
    event.stop()
    event.prevent_default()
    await widget.run_action(action)
    return True


async def passed_on(widget: Widget, event: events.Key) -> bool:
    """True when the key reached a widget that no longer has the keyboard: it goes on to the one that has it."""
    focused = widget.screen.focused
    if focused is widget or focused is None:
        return False
    event.stop()
    event.prevent_default()
    if isinstance(focused, Ordered):
        await focused.take(event)
    elif not await in_order(focused, event):
        focused.post_message(events.Key(event.key, event.character))
    return True


async def moved(widget: Widget, event: events.Key) -> bool:
    """Tab and shift+tab move the keyboard now; True when the key was one of them."""
    if event.key not in ("tab", "shift+tab"):
        return False
    event.stop()
    event.prevent_default()
    if event.key == "tab":
        widget.screen.focus_next()
    else:
        widget.screen.focus_previous()
    return True


class Ordered:
    """A widget that handles the keys passed on to it as they arrive (`take`)."""

    async def take(self, event: events.Key) -> None:
        """Handle a key passed on from a widget that had the keyboard before."""
        raise NotImplementedError


class OrderedInput(Input, Ordered):
    """A box whose own keys (Backspace, ctrl+a, ctrl+k, Enter …) and Tab act at once, in the order typed.

    (Textual calls the key handler of each class up the MRO, `on_key` here before Input's own, until one prevents
    the default: a subclass handles its own key and leaves the rest to this one.)
    """

    async def on_key(self, event: events.Key) -> None:
        if await passed_on(self, event) or await moved(self, event):
            return
        if not event.is_printable:
            await in_order(self, event)

    async def take(self, event: events.Key) -> None:
        """Handle a key passed on from a widget that had the keyboard before."""
        if await moved(self, event):
            return
        if event.is_printable and event.character:
            self.insert_text_at_cursor(event.character)
        elif not await in_order(self, event):
            self.post_message(events.Key(event.key, event.character))


