"""Modal questions that return a value: confirm, the external-change question, a file's problems, and corrections."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Label, OptionList, Static, TextArea
from textual.widgets.option_list import Option

from scorekeeper.games import validation
from scorekeeper.games.base import Game
from scorekeeper.model.session import Problem, Session
from scorekeeper.model.text import inert
from scorekeeper.tui.render import joined, lines, problem_line
from scorekeeper.tui.screens.ordered import OrderedInput
from scorekeeper.tui.screens.typing import OrderedList


def mouse_only(button: Button) -> Button:
    """A dialog's button that Tab skips: the keys typed go to the dialog's boxes, never to a button (each button
    has its key, shown on it)."""
    button.can_focus = False
    return button


def session_refusals(session: Session) -> list[Problem]:
    """The errors the core's one `validate` finds in the session as it would be saved (as `check` would)."""
    return [p for p in validation.validate(session) if p.is_error]


def text_refusals(session: Session, keys: tuple[str, ...]) -> list[Problem]:
    """The errors the core's one `validate` finds at these top-level keys of the session (as `check` would)."""
    return [p for p in validation.validate(session) if p.is_error and p.path.split(".")[0].split("[")[0] in keys]


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


class Question(ModalScreen[str]):
    """A question that takes no key typed before it was asked: keys typed ahead (a burst meant for the screen below)
    never answer it."""

    asked_at = float("inf")
    """When the question was put up (the clock of `Message.time`): older keys are dropped."""

    def on_mount(self, event: events.Mount) -> None:
        """From now on keys answer."""
        self.asked_at = event.time

    def on_key(self, event: events.Key) -> None:
        """A key typed before the question was asked is dropped (it neither answers nor moves)."""
        if event.time < self.asked_at:
            event.stop()
            event.prevent_default()


class ConflictScreen(Question):
    """The session file changed on disk since it was read: reload theirs, overwrite with ours, or cancel."""

    BINDINGS = [
        Binding("r", "answer('reload')", "Reload theirs"),
        Binding("o", "answer('overwrite')", "Overwrite"),
        Binding("c,escape", "answer('cancel')", "Cancel"),
    ]

    def __init__(self, path: Path, fields: tuple[str, ...] = (), *, gone: bool = False) -> None:
        super().__init__(classes="dialog-screen")
        self.path = path
        self.fields = fields
        """The fields changed both here and there (empty: the file could not be read to merge, or is gone)."""
        self.gone = gone
        """The file was deleted (or moved away) since it was read here."""

    def compose(self) -> ComposeResult:
        shown = ", ".join(self.fields[:4]) + (f" and {len(self.fields) - 4} more" if len(self.fields) > 4 else "")
        why = ("$name was changed in another place (another app, a phone, a hand edit) at the same time as "
               "here, in the same field: $fields. Changes to other fields are merged by themselves; this one "
               "is not saved yet.\n\n" if self.fields else
               "$name was deleted (or moved away) since it was read here. Your change is not saved yet; "
               "keep mine writes the session as you see it back to the file.\n\n" if self.gone else
               "$name was changed by something else (a hand edit, or the app open twice) since it was "
               "read here, and cannot be read to merge it with yours. Your change is not saved yet.\n\n")
        with Vertical(classes="dialog"):
            yield Label(Content.styled("The session file changed on disk", "bold $text-warning"))
            yield Static(Content.from_markup(
                why
                + "[b]r[/b] reload: take the file as it is now (your change is dropped)\n"
                "[b]o[/b] keep mine: yours in that field, theirs everywhere else\n"
                "[b]c[/b] cancel: save nothing now", name=inert(str(self.path)), fields=inert(shown)),
                classes="question")
            with Horizontal(classes="buttons"):
                yield Button("Reload theirs (r)", id="reload")
                yield Button("Keep mine (o)", variant="warning", id="overwrite")
                yield Button("Cancel (c)", id="cancel")

    def on_mount(self, event: events.Mount) -> None:
        """Focus the safe answer; from now on keys answer."""
        super().on_mount(event)
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


class NameBox(OrderedInput):
    """The new name's box: ↑ / ↓ pick the previous / next player, as the list above would."""

    BINDINGS = [
        Binding("up", "screen.pick(-1)", "Previous player", show=False),
        Binding("down", "screen.pick(1)", "Next player", show=False),
    ]


class RenameScreen(ModalScreen[tuple[str, str] | None]):
    """Rename a player: pick who, type the new name (checked as a name of the file is); Enter renames."""

    BINDINGS = [Binding("escape", "cancel", "Cancel"), Binding("ctrl+s", "rename", "Rename")]

    def __init__(self, session: Session, game: Game, player: str | None = None) -> None:
        super().__init__(classes="dialog-screen")
        self.session = session
        self.game = game
        self.player = player if player in session.players else session.players[0]

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Content.styled("Rename a player", "bold"))
            yield Static(Content.styled("Everywhere in the file: the seating and every round (ctrl+z undoes it).",
                                        "dim"))
            yield OrderedList(*(Option(Content(p), id=str(i)) for i, p in enumerate(self.session.players)),
                              id="who")
            yield NameBox(self.player, id="new-name", compact=True)
            yield Static(id="rename-problem", classes="field-problem")
            with Horizontal(classes="buttons"):
                yield mouse_only(Button("Rename (Enter)", variant="primary", id="rename"))
                yield mouse_only(Button("Cancel (Esc)", id="cancel"))

    def on_mount(self) -> None:
        """The player given is highlighted and the new name's box has the keyboard."""
        self.query_one("#who", OptionList).highlighted = self.session.players.index(self.player)
        self.query_one("#new-name", Input).focus()

    @on(OptionList.OptionHighlighted, "#who")
    def picked(self, event: OptionList.OptionHighlighted) -> None:
        """Another player: their name in the box."""
        player = self.session.players[event.option_index]
        if player != self.player:
            self.player = player
            self.query_one("#new-name", Input).value = player

    def action_pick(self, step: int) -> None:
        """↑ / ↓ in the name box: the previous / next player, their name in the box ready to be typed over."""
        who = self.query_one("#who", OptionList)
        players = self.session.players
        index = max(0, min(len(players) - 1, players.index(self.player) + step))
        who.highlighted = index
        self.player = players[index]
        box = self.query_one("#new-name", Input)
        box.value = self.player
        box.select_all()

    @on(OptionList.OptionSelected, "#who")
    def to_name(self) -> None:
        """Enter on a player: on to the name."""
        self.query_one("#new-name", Input).focus()

    def problems(self) -> list[Problem]:
        """What the core's one `validate` refuses in the session renamed as it would be saved (the name checked as
        the file's names are, everywhere it stands)."""
        new = self.query_one("#new-name", Input).value.strip()
        try:
            renamed = self.session.with_player_renamed(self.player, new)
        except ValueError:  # the name of another player: the file's check says so, ignoring case
            return validation.players_problems([new if p == self.player else p for p in self.session.players],
                                               self.game)
        return session_refusals(renamed)

    @on(Input.Changed, "#new-name")
    def changed(self) -> None:
        """Check as you type."""
        self.query_one("#rename-problem", Static).update(joined(problem_line(p) for p in self.problems()))

    @on(Input.Submitted, "#new-name")
    @on(Button.Pressed, "#rename")
    def action_rename(self) -> None:
        """Rename, unless the name is refused."""
        if self.problems():
            self.changed()
            return
        new = self.query_one("#new-name", Input).value.strip()
        self.dismiss(None if new == self.player else (self.player, new))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Leave the names as they are."""
        self.dismiss(None)


class SeatList(OrderedList):
    """The players in their seats: shift+up / shift+down move the highlighted one, in the order typed."""

    BINDINGS = [
        Binding("shift+up,ctrl+up", "screen.move(-1)", "Move up"),
        Binding("shift+down,ctrl+down", "screen.move(1)", "Move down"),
    ]


class SeatingScreen(ModalScreen[tuple[str, ...] | None]):
    """The seating order: shift+up / shift+down move the highlighted player; Enter saves (unless the core's one
    `validate` refuses the session reseated: then why, under the list)."""

    BINDINGS = [
        Binding("ctrl+s", "save", "Save"),
        Binding("escape", "cancel", "Cancel"),
    ]

    def __init__(self, session: Session) -> None:
        super().__init__(classes="dialog-screen")
        self.session = session
        self.order = list(session.players)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog"):
            yield Label(Content.styled("Seating order", "bold"))
            yield Static(Content.styled("up/down picks a player, shift+up / shift+down moves them, Enter saves, "
                                        "Esc cancels. The first player of each round follows this order.", "dim"))
            yield SeatList(id="seats")
            yield Static(id="seating-problem", classes="field-problem")
            with Horizontal(classes="buttons"):
                yield Button("Save (Enter)", variant="primary", id="save")
                yield Button("Cancel (Esc)", id="cancel")

    def on_mount(self) -> None:
        """List the players."""
        self.show(0)
        self.query_one("#seats", OptionList).focus()

    def show(self, highlighted: int) -> None:
        """The players in the order now, numbered."""
        seats = self.query_one("#seats", OptionList)
        seats.set_options([Option(Content.assemble((f"{i}. ", "dim"), p)) for i, p in enumerate(self.order, 1)])
        seats.highlighted = highlighted

    def action_move(self, delta: int) -> None:
        """Move the highlighted player up or down one seat."""
        at = self.query_one("#seats", OptionList).highlighted
        if at is None or not 0 <= at + delta < len(self.order):
            return
        self.order[at], self.order[at + delta] = self.order[at + delta], self.order[at]
        self.show(at + delta)

    def problems(self) -> list[Problem]:
        """What is refused in the session reseated in this order, as it would be saved."""
        try:
            reseated = self.session.with_seating(self.order)
        except ValueError as exc:  # not the same players, or a round is scored meanwhile
            return [Problem(str(exc), path="players")]
        return session_refusals(reseated)

    @on(OptionList.OptionSelected, "#seats")
    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        """Save this order, unless it is refused (then why, under the list; nothing saved)."""
        problems = self.problems()
        self.query_one("#seating-problem", Static).update(joined(problem_line(p) for p in problems))
        if problems:
            return
        self.dismiss(tuple(self.order))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Keep the seating as it was."""
        self.dismiss(None)


class DetailsScreen(ModalScreen[tuple[str | None, str | None] | None]):
    """The session's title (one line) and notes (any number of lines), checked by the core's `validate` as the
    file's are; ctrl+s saves. Tab / shift+Tab go between the two boxes (the buttons take the mouse)."""

    BINDINGS = [Binding("ctrl+s", "save", "Save"), Binding("escape", "cancel", "Cancel")]

    def __init__(self, session: Session) -> None:
        super().__init__(classes="dialog-screen")
        self.session = session
        self.given = (session.title, session.notes)

    def compose(self) -> ComposeResult:
        title, notes = self.given
        with Vertical(classes="dialog wide"):
            yield Label(Content.styled("Title", "bold"))
            yield OrderedInput(title or "", placeholder="optional, e.g. Friday at Mia's", id="title-input",
                               compact=True)
            yield Static(id="title-problem", classes="field-problem")
            yield Label(Content.styled("Notes", "bold"))
            yield TextArea(notes or "", id="notes-input", soft_wrap=True, show_line_numbers=False)
            yield Static(id="details-problem", classes="field-problem")
            yield Static(Content.styled("ctrl+s saves · Esc cancels · Tab moves between the boxes", "dim"))
            with Horizontal(classes="buttons"):
                yield mouse_only(Button("Save (ctrl+s)", variant="primary", id="save"))
                yield mouse_only(Button("Cancel (Esc)", id="cancel"))

    def on_mount(self) -> None:
        """The title, the first box, has the keyboard."""
        self.query_one("#title-input", Input).focus()

    def values(self) -> tuple[str | None, str | None, list[Problem]]:
        """The title and notes given (None when empty) and what the core's `validate` refuses in them."""
        title = self.query_one("#title-input", Input).value.strip() or None
        notes = self.query_one("#notes-input", TextArea).text.rstrip() or None
        return title, notes, text_refusals(replace(self.session, title=title, notes=notes), ("title", "notes"))

    def show(self, problems: list[Problem]) -> None:
        """Each refusal under the box it was typed in."""
        for key, box in (("title", "#title-problem"), ("notes", "#details-problem")):
            self.query_one(box, Static).update(joined(problem_line(p) for p in problems if p.path == key))

    @on(Input.Changed, "#title-input")
    @on(TextArea.Changed, "#notes-input")
    def changed(self) -> None:
        """Check as you type."""
        self.show(self.values()[2])

    @on(Input.Submitted, "#title-input")
    def title_done(self) -> None:
        """Enter in the title: on to the notes."""
        self.query_one("#notes-input", TextArea).focus()

    @on(Button.Pressed, "#save")
    def action_save(self) -> None:
        """Save, unless something is refused (then the dialog stays open, nothing saved)."""
        title, notes, problems = self.values()
        if problems:
            self.show(problems)
            return
        self.dismiss((title, notes))

    @on(Button.Pressed, "#cancel")
    def action_cancel(self) -> None:
        """Leave them as they are."""
        self.dismiss(None)
