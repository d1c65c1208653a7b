"""The command palette: the commands of the screen it was opened on (names shown literally, never as markup), and the
keys of the screen and the app."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Protocol, runtime_checkable

from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

from scorekeeper.model.text import inert

if TYPE_CHECKING:
    from textual.screen import Screen

Command = tuple[str, str, Callable[[], Any]]
"""A command: its name, what it does, and the call that does it."""


@runtime_checkable
class OffersCommands(Protocol):
    """A screen with commands of its own for the palette."""

    def palette(self) -> Iterable[Command]:
        """The screen's commands."""
        ...


class ScreenCommands(Provider):
    """Each screen's `palette()` commands: go to a step, open a session, edit a round …"""

    def commands(self) -> Iterator[Command]:
        """The commands the screen offers (none when it offers none)."""
        if isinstance(self.screen, OffersCommands):
            yield from self.screen.palette()

    async def discover(self) -> Hits:
        """Every command, before anything is typed."""
        for name, help_text, callback in self.commands():
            name = inert(name)
            yield DiscoveryHit(Content(name), callback, text=name, help=escape(inert(help_text)))

    async def search(self, query: str) -> Hits:
        """The commands that match what is typed, the matching letters marked."""
        matcher = self.matcher(query)
        for name, help_text, callback in self.commands():
            name = inert(name)
            score = matcher.match(name)
            if score > 0:
                yield Hit(score, self.highlight(query, name), callback, text=name, help=escape(inert(help_text)))

    def highlight(self, query: str, name: str) -> Content:
        """The name with the letters that match the query underlined."""
        content = Content(name)
        _, offsets = self.matcher(query).fuzzy_search.match(query, name)
        for offset in offsets:
            content = content.stylize("bold underline", offset, offset + 1)
        return content


def system_commands(app: App[Any], screen: Screen[Any], textuals: Iterable[SystemCommand]) -> Iterator[SystemCommand]:
    """The app's system commands: the keys of the screen and of the app that have an id (undo/redo, help …), each
    once and only where it applies, then Textual's (`textuals`) but for one already there (Quit)."""
    seen = {title for title, _, _ in screen.palette()} if isinstance(screen, OffersCommands) else set()
    for node in (screen, app):
        for b in Binding.make_bindings(node.BINDINGS):
            if not b.id or not b.description or b.description in seen or b.system:
                continue
            if node.check_action(b.action, ()) is False:
                continue
            seen.add(b.description)
            action = b.action

            def run(action: str = action, node: Any = node) -> None:
                app.call_later(app.run_action, action, node)

            yield SystemCommand(b.description, f"key: {app.get_key_display(b)}", run)
    for command in textuals:
        if command.title not in seen:
            yield command
