"""Keys in the order they were typed, for forms and lists: the form's box and the lists built on ordered.py (which
says why)."""

from __future__ import annotations

from textual import events
from textual.widgets import Input, OptionList

from scorekeeper.tui.screens.ordered import Ordered, OrderedInput, in_order, moved, passed_on


class FormInput(OrderedInput):
    """A box of a form: Enter also moves on at once, so `Ana⏎Bo⏎` typed in one burst fills two boxes."""

    async def on_key(self, event: events.Key) -> None:
        if event.key == "enter" and self.screen.focused is self:
            event.stop()
            event.prevent_default()
            await self.take(event)

    async def take(self, event: events.Key) -> None:
        """Enter: the box's value is submitted and the next field has the keyboard; other keys as a box's."""
        if event.key == "enter":
            self.post_message(self.Submitted(self, self.value))
            self.screen.focus_next()
            return
        await super().take(event)


class OrderedList(OptionList, Ordered):
    """A list whose arrows, Enter and Tab act at once, in the order typed."""

    async def on_key(self, event: events.Key) -> None:
        if await passed_on(self, event) or await moved(self, event):
            return
        await in_order(self, event)

    async def take(self, event: events.Key) -> None:
        """Handle a key passed on from a widget that had the keyboard before."""
        if not await moved(self, event) and not await in_order(self, event):
            self.post_message(events.Key(event.key, event.character))


class GameList(OrderedList):
    """The games of the new-session form: Enter goes on to the first player's box at once."""

    async def on_key(self, event: events.Key) -> None:
        if event.key == "enter" and self.screen.focused is self:
            event.stop()
            event.prevent_default()
            await self.take(event)

    async def take(self, event: events.Key) -> None:
        """Enter: on to the players; other keys as a list's."""
        if event.key == "enter":
            self.screen.set_focus(self.screen.query_one("#player-1", Input))
            return
        await super().take(event)
