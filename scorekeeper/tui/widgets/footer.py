"""The footer of every screen: Textual's, redrawn once per refresh however many times the keys change."""

from __future__ import annotations

from textual.screen import Screen
from textual.widgets import Footer


class KeysFooter(Footer):
    """Textual's Footer, with the key bar rebuilt at most once per refresh (focus moves often while typing)."""

    _queued = False

    def bindings_changed(self, screen: Screen) -> None:
        """Queue one rebuild, however many changes come before the next refresh."""
        if self._queued:
            self._bindings_ready = True
            return
        self._queued = True
        self.call_after_refresh(self._unqueue)
        super().bindings_changed(screen)

    def _unqueue(self) -> None:
        self._queued = False
