"""Inputs of the walkthrough, one per player and slot: numbers, yes/no, card lists, counts by length."""

from __future__ import annotations

from typing import Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Input, Label

from scorekeeper.fields import CardListField
from scorekeeper.tui.walk import Slot, card_text, parse_card, parse_number


class Editor:
    """What every slot editor has: the player and slot it edits; it posts Edited and Move."""

    player: str
    slot: Slot

    class Edited(Message):
        """A value was typed (confirm=False) or confirmed with Enter (confirm=True)."""

        def __init__(self, editor: Editor, value: Any, confirm: bool) -> None:
            super().__init__()
            self.editor = editor
            self.value = value
            self.confirm = confirm

    class Move(Message):
        """Up/down past the editor's edge: move to the same slot of the previous/next player."""

        def __init__(self, editor: Editor, delta: int) -> None:
            super().__init__()
            self.editor = editor
            self.delta = delta

    def current(self) -> Any:
        """The value shown now (None when nothing is entered)."""
        raise NotImplementedError

    def show(self, value: Any) -> None:
        """Show a value from the session, without posting Edited."""
        raise NotImplementedError

    def enter(self) -> None:
        """Take the focus (the first place to type)."""
        raise NotImplementedError

    def mark_lines(self, lines: dict[int, str]) -> None:
        """Show problems at lines of a list (only list editors have lines)."""

    def show_items(self, items: list[Any]) -> None:
        """The core's items of the player this round (editors on a map show what they score)."""


def number_text(value: Any) -> str:
    """A value for a number box."""
    return "" if value is None else str(value)


class TypingBox(Input):
    """A compact text box that lets `?` open help and up/down move between players."""

    BINDINGS = [
        Binding("up", "move(-1)", "Previous player", show=False),
        Binding("down", "move(1)", "Next player", show=False),
    ]

    def __init__(self, value: str = "", *, placeholder: str = "", classes: str = "", id: str | None = None) -> None:
        super().__init__(value, placeholder=placeholder, compact=True, select_on_focus=False, classes=classes, id=id)

    async def _on_key(self, event: events.Key) -> None:
        if event.character == "?" and not isinstance(self, FreeText):
            event.stop()
            event.prevent_default()
            await self.app.run_action("app.help")
            return
        await super()._on_key(event)

    def action_move(self, delta: int) -> None:
        """Let the owner move the focus to another player."""
        self.post_message(self.Moved(self, delta))

    class Moved(Message):
        """Up or down was pressed in the box."""

        def __init__(self, box: TypingBox, delta: int) -> None:
            super().__init__()
            self.box = box
            self.delta = delta


class FreeText(TypingBox):
    """A box where `?` is typed like any other character (names, card lines)."""


class NumberBox(TypingBox, Editor):
    """A whole number for one player and slot; Enter on an empty box confirms 0."""

    def __init__(self, player: str, slot: Slot, value: Any) -> None:
        super().__init__(number_text(value), placeholder="0", classes=f"editor number {slot.kind}")
        self.player = player
        self.slot = slot
        self._posted = self.value

    def current(self) -> Any:
        """The typed number (or text, for the checks to refuse)."""
        return parse_number(self.value)

    def show(self, value: Any) -> None:
        """Show a value without posting Edited."""
        with self.prevent(Input.Changed):
            self.value = self._posted = number_text(value)

    def enter(self) -> None:
        """Focus the box and put the cursor at the end."""
        self.focus()
        self.cursor_position = len(self.value)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        if event.value != self._posted:
            self._posted = event.value
            self.post_message(Editor.Edited(self, self.current(), False))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.post_message(Editor.Edited(self, self.current(), True))

    @on(TypingBox.Moved)
    def _moved(self, event: TypingBox.Moved) -> None:
        event.stop()
        self.post_message(Editor.Move(self, event.delta))


class YesNo(Widget, Editor, can_focus=True):
    """Holds a card or not: space (or y/n) sets it, Enter confirms it; a click toggles it."""

    BINDINGS = [
        Binding("space", "flip", "Yes/no"),
        Binding("y,x,1", "set(True)", "Yes", show=False),
        Binding("n,0", "set(False)", "No", show=False),
        Binding("enter", "confirm", "Next", show=False),
        Binding("up", "move(-1)", "Previous player", show=False),
        Binding("down", "move(1)", "Next player", show=False),
        Binding("question_mark", "app.help", "Help", show=False),
    ]

    def __init__(self, player: str, slot: Slot, value: Any) -> None:
        super().__init__(classes=f"editor yesno {slot.kind}")
        self.player = player
        self.slot = slot
        self.value: bool | None = value if isinstance(value, bool) else None

    def render(self) -> Content:
        """`[x] yes` / `[ ] no`; dim while not entered."""
        if self.value is True:
            return Content.assemble(("[x]", "bold"), " yes")
        text = Content.assemble("[ ]", " no")
        return text if self.value is False else text.stylize("dim")

    def current(self) -> Any:
        """True, False, or None while not entered."""
        return self.value

    def show(self, value: Any) -> None:
        """Show a value without posting Edited."""
        self.value = value if isinstance(value, bool) else None
        self.refresh()

    def enter(self) -> None:
        """Take the focus."""
        self.focus()

    def action_flip(self) -> None:
        """Flip it (saved at once)."""
        self.action_set(not self.value)

    def action_set(self, value: bool) -> None:
        """Set it (saved at once)."""
        self.value = value
        self.refresh()
        self.post_message(Editor.Edited(self, value, False))

    def action_confirm(self) -> None:
        """Confirm what is shown (false when nothing was set) and move on."""
        self.post_message(Editor.Edited(self, bool(self.value), True))

    def action_move(self, delta: int) -> None:
        """Move to the same slot of another player."""
        self.post_message(Editor.Move(self, delta))

    def on_click(self, event: events.Click) -> None:
        """A click toggles."""
        self.focus()
        self.action_flip()


class ListLine(FreeText):
    """A line of a list editor: ctrl+r removes it, backspace on an empty line removes it too."""

    def action_remove(self) -> None:
        """Remove this line."""
        self.post_message(self.Remove(self))

    def action_backspace(self) -> None:
        """Backspace deletes to the left; on an empty line it removes the line."""
        if self.value:
            self.action_delete_left()
        else:
            self.post_message(self.Remove(self))

    class Remove(Message):
        """Remove this line."""

        def __init__(self, line: ListLine) -> None:
            super().__init__()
            self.line = line


class CardLine(ListLine):
    """One card of a list: `8`, `-8` for a failed one, optionally followed by its name."""

    BINDINGS = [
        Binding("ctrl+t", "flip", "Done/failed"),
        Binding("ctrl+n", "insert", "Add card"),
        Binding("ctrl+r", "remove", "Remove card"),
        Binding("backspace", "backspace", "Delete left", show=False),
    ]

    def action_flip(self) -> None:
        """Mark the card failed / completed."""
        text = self.value.lstrip()
        self.value = text[1:].lstrip() if text[:1] in "-−✗" and text else "-" + text
        self.cursor_position = len(self.value)

    def action_insert(self) -> None:
        """A new card below this one."""
        self.post_message(self.Insert(self))

    class Insert(Message):
        """Add a card below this line."""

        def __init__(self, line: CardLine) -> None:
            super().__init__()
            self.line = line


class CardRow(Horizontal):
    """A line of the card list and what it counts for."""

    def __init__(self, text: str) -> None:
        super().__init__(classes="card-row")
        self.line = CardLine(text, placeholder="8 · -8 failed · 8 Name", classes="card-line")
        self.note = Label("", classes="card-note")

    def compose(self) -> ComposeResult:
        yield self.line
        yield self.note


class CardList(Vertical, Editor):
    """A player's tickets (or tourist cards), one per line; Enter adds a line, Enter on an empty one moves on."""

    def __init__(self, player: str, slot: Slot, value: Any) -> None:
        super().__init__(classes=f"editor cards {slot.kind}")
        self.player = player
        self.slot = slot
        self._initial = value if isinstance(value, list) else []
        self._problems: dict[int, str] = {}

    @property
    def needs_points(self) -> bool:
        """Whether a card must give its points."""
        return not isinstance(self.slot.field, CardListField) or self.slot.field.needs_points

    def compose(self) -> ComposeResult:
        for card in self._initial:
            yield CardRow(card_text(card))
        yield CardRow("")

    def on_mount(self) -> None:
        """Mark each card done or failed."""
        self._notes()

    def rows(self) -> list[CardRow]:
        """The rows, top to bottom."""
        return list(self.query_children(CardRow))

    def current(self) -> Any:
        """The cards typed (empty lines left out)."""
        cards = [parse_card(r.line.value, self.needs_points) for r in self.rows()]
        return [c for c in cards if c is not None]

    def show(self, value: Any) -> None:
        """Rebuild the lines from a value."""
        cards = value if isinstance(value, list) else []
        if cards == self.current() and self.rows() and not self.rows()[-1].line.value:
            return
        had_focus = self.has_focus_within
        self.remove_children()
        self.mount_all([*(CardRow(card_text(c)) for c in cards), CardRow("")])
        if had_focus:
            self.call_after_refresh(self.enter)

    def enter(self) -> None:
        """Focus the empty line at the end (to add a card)."""
        rows = self.rows()
        if rows:
            rows[-1].line.focus()

    def mark_lines(self, lines: dict[int, str]) -> None:
        """Problems by line (from 1)."""
        self._problems = lines
        self._notes()

    def _notes(self) -> None:
        number = 0
        for row in self.rows():
            card = parse_card(row.line.value, self.needs_points)
            if card is None:
                row.note.update("")
                continue
            number += 1
            problem = self._problems.get(number)
            if problem:
                row.note.update(Content.styled("✗ " + problem, "$text-error"))
            elif card.get("completed"):
                row.note.update(Content.styled("✓ done", "$text-success"))
            else:
                row.note.update(Content.styled("✗ failed", "$text-warning"))

    def _post(self, confirm: bool = False) -> None:
        self._notes()
        self.post_message(Editor.Edited(self, self.current(), confirm))

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self._post()

    @on(Input.Submitted)
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        rows = self.rows()
        row = next(r for r in rows if r.line is event.input)
        index = rows.index(row)
        if row.line.value.strip():
            if index == len(rows) - 1:
                new = CardRow("")
                await self.mount(new)
                new.line.focus()
            else:
                rows[index + 1].line.focus()
            self.post_message(Editor.Edited(self, self.current(), False))
        elif index == len(rows) - 1:
            self._post(confirm=True)
        else:
            await row.remove()
            rows[index + 1].line.focus()

    @on(CardLine.Insert)
    async def _insert(self, event: CardLine.Insert) -> None:
        event.stop()
        row = event.line.parent
        new = CardRow("")
        await self.mount(new, after=row if isinstance(row, CardRow) else None)
        new.line.focus()

    @on(CardLine.Remove)
    async def _remove(self, event: CardLine.Remove) -> None:
        event.stop()
        rows = self.rows()
        row = event.line.parent
        if not isinstance(row, CardRow):
            return
        index = rows.index(row)
        if len(rows) == 1:
            row.line.value = ""
            return
        target = rows[index - 1] if index > 0 else rows[index + 1]
        await row.remove()
        target.line.focus()
        target.line.cursor_position = len(target.line.value)
        self._post()

    @on(TypingBox.Moved)
    def _moved(self, event: TypingBox.Moved) -> None:
        event.stop()
        rows = self.rows()
        index = next(i for i, r in enumerate(rows) if r.line is event.box)
        target = index + event.delta
        if 0 <= target < len(rows):
            rows[target].line.focus()
        else:
            self.post_message(Editor.Move(self, event.delta))


class CountsRow(Horizontal, Editor):
    """A table of counts by number in one row of small boxes (routes by length): Enter moves box to box."""

    def __init__(self, player: str, slot: Slot, value: Any) -> None:
        super().__init__(classes=f"editor counts {slot.kind}")
        self.player = player
        self.slot = slot
        self.keys = [str(k) for k in getattr(slot.field, "keys", ())]
        self._initial = value if isinstance(value, dict) else {}
        self._entered = isinstance(value, dict)

    def compose(self) -> ComposeResult:
        for key in self.keys:
            yield TypingBox(number_text(self._initial.get(key)), placeholder="·", classes="count-box")

    def boxes(self) -> list[TypingBox]:
        """The boxes, by number."""
        return list(self.query(".count-box").results(TypingBox))

    def current(self) -> Any:
        """The counts typed (zeros left out), or None when nothing was typed."""
        table: dict[str, Any] = {}
        typed = False
        for key, box in zip(self.keys, self.boxes(), strict=False):
            value = parse_number(box.value)
            if value is None:
                continue
            typed = True
            if value != 0:
                table[key] = value
        return table if typed or self._entered else None

    def show(self, value: Any) -> None:
        """Show a table without posting Edited."""
        table = value if isinstance(value, dict) else {}
        self._entered = isinstance(value, dict)
        for key, box in zip(self.keys, self.boxes(), strict=False):
            with box.prevent(Input.Changed):
                box.value = number_text(table.get(key))

    def enter(self) -> None:
        """Focus the first box."""
        boxes = self.boxes()
        if boxes:
            boxes[0].focus()

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self.post_message(Editor.Edited(self, self.current(), False))

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        boxes = self.boxes()
        index = boxes.index(event.input)  # type: ignore[arg-type]
        if index + 1 < len(boxes):
            boxes[index + 1].focus()
        else:
            self.post_message(Editor.Edited(self, self.current(), True))

    @on(TypingBox.Moved)
    def _moved(self, event: TypingBox.Moved) -> None:
        event.stop()
        self.post_message(Editor.Move(self, event.delta))


class Unsupported(Label, Editor):
    """A field the app cannot edit yet (edit the file by hand)."""

    def __init__(self, player: str, slot: Slot, value: Any) -> None:
        super().__init__(Content.styled("(edit in the file)", "dim"), classes=f"editor other {slot.kind}")
        self.player = player
        self.slot = slot
        self._value = value

    def current(self) -> Any:
        """The value as it is."""
        return self._value

    def show(self, value: Any) -> None:
        """Keep the value."""
        self._value = value

    def enter(self) -> None:
        """Nothing to focus."""


def editor_for(player: str, slot: Slot, value: Any, game_map: Any = None) -> Widget:
    """The editor widget of a slot's kind (on a map: claimed routes and tickets are named by their cities)."""
    if game_map is not None and slot.key in ("claimed", "tickets") and slot.sub is None:
        from scorekeeper.tui.widgets.map_editors import RouteList, TicketList

        return (RouteList if slot.key == "claimed" else TicketList)(player, slot, value, game_map)
    kinds = {"int": NumberBox, "bool": YesNo, "cards": CardList, "counts": CountsRow}
    return kinds.get(slot.kind, Unsupported)(player, slot, value)
