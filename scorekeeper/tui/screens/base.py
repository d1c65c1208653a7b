"""What every screen of an open session shares: its title from the session, and the message of a replaced session."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message
from textual.screen import Screen

from scorekeeper import games
from scorekeeper.model.session import Session

if TYPE_CHECKING:
    from scorekeeper.walk.document import Document


class SessionReplaced(Message):
    """The open session changed under the screen: undo, redo, a reload from disk, or a change not saved."""

    def __init__(self, old: Session, new: Session, *, remote: bool = False) -> None:
        super().__init__()
        self.old = old
        self.new = new
        self.remote = remote
        """Changes made in another place, merged in (live sessions): the screen keeps its cursor."""


def session_titles(session: Session) -> tuple[str, str | None]:
    """The title bar of a session: its title and the game's name (the game's name alone when untitled)."""
    name = games.get(session.game).name
    return (session.title, name) if session.title else (name, None)


class SessionScreen(Screen[None]):
    """A screen of the open session: told by the app, with a message, when the session is replaced."""

    doc: Document

    def __init__(self) -> None:
        super().__init__()
        self.update_classes(self.breakpoint_classes(), update=False)

    def breakpoint_classes(self) -> dict[str, bool]:
        """The width classes (`-narrow`, `-wide`) Textual would give the screen once it is laid out, given before
        its widgets are mounted: they are styled once, not again when the first resize adds the class."""
        breakpoints = (self.app.HORIZONTAL_BREAKPOINTS if self.HORIZONTAL_BREAKPOINTS is None
                       else self.HORIZONTAL_BREAKPOINTS) or []
        width = self.app.size.width
        chosen = next((name for lowest, name in sorted(breakpoints, reverse=True) if width >= lowest), None)
        return {name: name == chosen for _, name in breakpoints}

    def show_title(self) -> None:
        """The title bar from the session as it is now."""
        self.title, self.sub_title = session_titles(self.doc.session)

    def session_replaced(self, old: Session, new: Session) -> None:
        """Show the new session (each screen redraws what it shows)."""

    def session_merged(self, old: Session, new: Session) -> None:
        """Changes made in another place came in (by default: shown as any replaced session)."""
        self.session_replaced(old, new)

    def on_session_replaced(self, message: SessionReplaced) -> None:
        """The title, then the screen's own parts."""
        self.show_title()
        if message.remote:
            self.session_merged(message.old, message.new)
        else:
            self.session_replaced(message.old, message.new)
