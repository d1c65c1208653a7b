"""The trash: the session files moved to `trash/`, newest first; Enter brings one back into the folder."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from scorekeeper import store
from scorekeeper.tui.screens.listing import Entry, SessionList, entry_for
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase


class TrashScreen(Screen[None]):
    """The files of `trash/`; restoring one moves it back beside the other sessions."""

    CSS_PATH = "../home.tcss"
    BINDINGS = [
        Binding("enter", "restore", "Restore", id="restore"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
        Binding("escape", "back", "Sessions", id="back"),
    ]

    app: AppBase

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Static(id="trash-head")
        yield SessionList(id="trashed")
        yield KeyBar()

    def on_mount(self) -> None:
        """Read the trash folder."""
        self.title = "Trash"
        self.sub_title = str(self.app.folder / "trash")
        self.load()

    def load(self) -> None:
        """List the files in trash/."""
        found = (entry_for(p) for p in store.session_files(self.app.folder / "trash", within=self.app.folder))
        self.entries = [e for e in found if e is not None]
        listing = self.query_one("#trashed", SessionList)
        listing.set_rows(self.entries, 0 if self.entries else None)
        listing.display = bool(self.entries)
        self.query_one("#trash-head", Static).update(
            Content("Enter brings the highlighted session back into the folder; Esc goes back.")
            if self.entries else Content("The trash is empty."))
        self.refresh_bindings()

    def current(self) -> Entry | None:
        """The highlighted file."""
        index = self.query_one("#trashed", SessionList).highlighted
        return self.entries[index] if index is not None and 0 <= index < len(self.entries) else None

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Restore only with a file highlighted."""
        if action == "restore":
            return self.current() is not None
        return True

    def action_move(self, delta: int) -> None:
        """Up or down the list."""
        self.query_one("#trashed", SessionList).move(delta)

    @on(SessionList.Chosen)
    def chosen(self) -> None:
        """A click restores."""
        self.action_restore()

    def action_restore(self) -> None:
        """Move the highlighted file back into the sessions folder."""
        entry = self.current()
        if entry is None:
            return
        try:
            back = store.from_trash(entry.path, self.app.folder / entry.path.name)
        except OSError as exc:
            self.notify(f"Could not restore: {exc.strerror or exc}", severity="error", markup=False)
            return
        self.notify(f"{back.name} is back in the folder", title="Restored", markup=False)
        self.load()

    def action_back(self) -> None:
        """Back to the sessions."""
        self.app.pop_screen()
