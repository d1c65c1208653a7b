"""Modal questions that return a value: confirm, the external-change question, and a file's problems."""

from __future__ import annotations

from pathlib import Path

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Label, Static

from scorekeeper.session import Problem
from scorekeeper.text import inert
from scorekeeper.tui.render import lines


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question: y or Enter on the button confirms, n or Escape cancels."""

    BINDINGS = [
        Binding("y", "answer(True)", "Yes"),
        Binding("n,escape", "answer(False)", "No"),
    ]

    def __init__(self, question: Content, yes: str = "Yes", no: str = "Cancel") -> None:
        super().__init__(classes="dialog-screen")
        self.question = question
        self.yes = yes
        self.no = no

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Static(self.question, classes="question")
            with Horizontal(classes="buttons"):
                yield Button(Content(f"{self.yes} (y)"), variant="error", id="yes")
                yield Button(Content(f"{self.no} (n)"), id="no")

    def on_mount(self) -> None:
        """Focus the safe answer."""
        self.query_one("#no", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """A button answers."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, value: bool) -> None:
        """A key answers."""
        self.dismiss(value)


class ConflictScreen(ModalScreen[str]):
    """The session file changed on disk since it was read: reload theirs, overwrite with ours, or cancel."""

    BINDINGS = [
        Binding("r", "answer('reload')", "Reload theirs"),
        Binding("o", "answer('overwrite')", "Overwrite"),
        Binding("c,escape", "answer('cancel')", "Cancel"),
    ]

    def __init__(self, path: Path) -> None:
        super().__init__(classes="dialog-screen")
        self.path = path

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Content.styled("The session file changed on disk", "bold $text-warning"))
            yield Static(Content.from_markup(
                "$name was changed by something else (a hand edit, or the app open twice) since it was "
                "read here. Your change is not saved yet.\n\n"
                "[b]r[/b] reload: take the file as it is now (your change is dropped; ctrl+z goes back to "
                "your last saved version)\n"
                "[b]o[/b] overwrite: save your version over theirs\n"
                "[b]c[/b] cancel: save nothing now", name=inert(str(self.path))), classes="question")
            with Horizontal(classes="buttons"):
                yield Button("Reload theirs (r)", id="reload")
                yield Button("Overwrite (o)", variant="warning", id="overwrite")
                yield Button("Cancel (c)", id="cancel")

    def on_mount(self) -> None:
        """Focus the safe answer."""
        self.query_one("#cancel", Button).focus()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        """A button answers."""
        self.dismiss(event.button.id or "cancel")

    def action_answer(self, value: str) -> None:
        """A key answers."""
        self.dismiss(value)


class ErrorScreen(ModalScreen[None]):
    """A file that cannot be opened: the core's message for every problem, never a traceback."""

    BINDINGS = [Binding("escape,enter,q", "close", "Close")]

    def __init__(self, title: str, problems: list[Problem], where: str = "") -> None:
        super().__init__(classes="dialog-screen")
        self.heading = title
        self.problems = problems
        self.where = where

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide"):
            yield Label(Content.styled(inert(self.heading), "bold $text-error"))
            if self.where:
                yield Label(Content.styled(inert(self.where), "dim"))
            with VerticalScroll(classes="problems"):
                yield Static(lines(Content(inert(p.describe())) for p in self.problems)
                             or Content("the file is not a valid session"))
            yield Static(Content.styled("Fix the file in an editor (scorekeeper check FILE lists every problem), "
                                        "then open it again.", "dim"))
            with Horizontal(classes="buttons"):
                yield Button("Close (Esc)", id="close")

    def on_mount(self) -> None:
        """Focus the button."""
        self.query_one("#close", Button).focus()

    @on(Button.Pressed)
    def pressed(self) -> None:
        """Close."""
        self.dismiss(None)

    def action_close(self) -> None:
        """Close."""
        self.dismiss(None)
