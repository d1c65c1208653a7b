"""The command palette's commands of the screen it was opened on (names shown literally, never as markup)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from typing import Any, Protocol, runtime_checkable

from textual.command import DiscoveryHit, Hit, Hits, Provider
from textual.content import Content
from textual.markup import escape

from scorekeeper.text import inert

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
