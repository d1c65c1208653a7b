"""The editors of the walkthrough's cells, one per kind of field: what a key does to a cell and how it is drawn.

They are not widgets: the step grid owns the keyboard and hands each key to the cell under its cursor, so a key
always lands in the cell the screen shows. `EDITORS` (`kinds`) names the editor of each field kind; the lists, one
item per line, are in `line_editors` and `map_editors`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from typing import Any, ClassVar

from rich.cells import cell_len
from textual.content import Content

from scorekeeper.games.base import Item
from scorekeeper.model.text import inert
from scorekeeper.walk import Slot, parse_number
from scorekeeper.walk.state import NOT_READY as NOT_READY


class Did(Enum):
    """What a key did to a cell (None: the cell does not use the key)."""

    EDIT = "edit"
    """The value changed."""
    MOVE = "move"
    """The cursor moved inside the cell."""
    NEXT = "next"
    """The value is confirmed (Enter)."""
    UP = "up"
    """The player above is asked for."""
    DOWN = "down"
    """The player below is asked for."""
    LINE = "line"
    """A line of a list is confirmed: a value changed, and the next change is a new undo step."""
    REFUSE = "refuse"
    """The line cannot be taken as it is (its reason beside it): the cursor stays."""


EDIT, MOVE, NEXT, UP, DOWN, LINE, REFUSE = Did.EDIT, Did.MOVE, Did.NEXT, Did.UP, Did.DOWN, Did.LINE, Did.REFUSE

BOX = "on $boost"
CURSOR = "reverse"
FOCUS = "bold on $primary 40%"


@dataclass
class Buffer:
    """A line of text being typed, with its cursor; `fresh` while a filled box was only landed on (typing replaces)."""

    text: str = ""
    cursor: int = 0
    fresh: bool = False

    def set(self, text: str) -> None:
        """Replace the text, cursor at its end."""
        self.text, self.cursor = text, len(text)

    def key(self, key: str, char: str | None) -> Did | None:
        """Apply an editing key: EDIT when the text changed, MOVE when only the cursor did, None when not handled."""
        if char is not None and char.isprintable() and key not in ("enter", "tab"):
            if self.fresh:
                self.set("")
            self.fresh = False
            self.text = self.text[: self.cursor] + char + self.text[self.cursor:]
            self.cursor += len(char)
            return EDIT
        was = self.fresh
        self.fresh = False
        if key == "backspace":
            if self.cursor == 0:
                return MOVE if was else None
            self.text = self.text[: self.cursor - 1] + self.text[self.cursor:]
            self.cursor -= 1
            return EDIT
        if key == "delete":
            self.text = self.text[: self.cursor] + self.text[self.cursor + 1:]
            return EDIT
        moves = {"left": self.cursor - 1, "right": self.cursor + 1, "home": 0, "end": len(self.text),
                 "f2": len(self.text)}
        if key in moves:
            self.cursor = max(0, min(len(self.text), moves[key]))
            return MOVE
        self.fresh = was
        return None

    def draw(self, width: int, focused: bool, placeholder: str = "") -> Content:
        """The box: the text padded to a width; focused, the cursor (or the whole text, while typing replaces)."""
        text = self.text
        if not focused:
            shown = Content(inert(text)) if text else Content.styled(placeholder, "dim")
            return (shown + Content(" " * max(0, width - shown.cell_length))).stylize(BOX)
        if self.fresh and text:
            body = Content.styled(inert(text), CURSOR)
            return (body + Content(" " * max(0, width - body.cell_length))).stylize(FOCUS)
        left, right = text[: self.cursor], text[self.cursor:]
        start = max(0, cell_len(left) - width + 1)
        shown = Content(inert(left)[start:]) + Content.styled(inert(right[:1]) or " ", CURSOR) \
            + Content(inert(right[1:]))
        return (shown + Content(" " * max(0, width - shown.cell_length))).stylize(FOCUS)


def hinted(width: int, placeholder: str) -> Content:
    """An empty box at the cursor that still shows how to type into it: the cursor on the example's first
    character."""
    shown = Content.styled(placeholder[0], CURSOR) + Content.styled(placeholder[1:width], "dim")
    return (shown + Content(" " * max(0, width - shown.cell_length))).stylize(FOCUS)


class Editor:
    """A player's cell for one slot: it takes keys, gives its value, and draws itself (one line, or several)."""

    width: ClassVar[int] = 6
    HELP: ClassVar[tuple[tuple[str, str], ...]] = ()
    """The keys the cell offers, for the help screen: (keys, what they do)."""
    stacked: ClassVar[bool] = False
    """A cell of several lines: the player's reasons go below the inputs, not beside them."""

    def __init__(self, player: str, slot: Slot, value: Any, context: Any = None) -> None:
        self.player = player
        self.slot = slot
        self.context = context
        self.load(value)

    def load(self, value: Any) -> None:
        """Show a value of the session (what is typed is dropped)."""
        raise NotImplementedError

    def value(self) -> Any:
        """The value typed (None when nothing is, NOT_READY while the text cannot be read)."""
        raise NotImplementedError

    def key(self, key: str, char: str | None) -> Did | None:
        """Apply a key; what it did (EDIT, MOVE, NEXT, UP, DOWN, LINE) or None when the cell does not use it."""
        raise NotImplementedError

    def arrive(self, down: bool = True) -> None:
        """The cursor comes to the cell (from above when `down`)."""

    def lines(self, width: int, focused: bool) -> list[Content]:
        """The cell drawn at a width (its own width when it is one line)."""
        raise NotImplementedError

    def cursor_line(self) -> int:
        """The line of the cell the cursor is on (to keep it in view)."""
        return 0

    def mark(self, problems: dict[int, str], items: list[Item]) -> None:
        """Problems at lines of a list (by line, from 1), and the core's items of the player this round."""

    def state(self) -> object:
        """What the cell shows, to draw it again only when it changed (by default: always)."""
        return object()


def number_text(value: Any) -> str:
    """A value for a number box."""
    return "" if value is None else str(value)


class NumberEditor(Editor):
    """A whole number: typing into a filled box replaces it (Backspace or F2 edits it); Enter on nothing is 0."""

    HELP = (("digits", "a number; typing into a filled box replaces it, Backspace or F2 edits it; Enter on an "
                       "empty box is 0"),)

    def load(self, value: Any) -> None:
        """Show a number."""
        self.box = Buffer()
        self.box.set(number_text(value))
        self.box.fresh = True

    def value(self) -> Any:
        """The typed number (or text, for the checks to refuse)."""
        return parse_number(self.box.text)

    def arrive(self, down: bool = True) -> None:
        """Typing replaces what is there."""
        self.box.fresh = True
        self.box.cursor = len(self.box.text)

    def key(self, key: str, char: str | None) -> Did | None:
        """Digits and editing keys; Enter (or Tab) confirms; up and down change player."""
        if key in ("enter", "tab"):
            return NEXT
        if key in ("up", "down"):
            return UP if key == "up" else DOWN
        if char == "?":
            return None
        return self.box.key(key, char)

    def state(self) -> object:
        """The text, its cursor, whether typing replaces it."""
        return self.box.text, self.box.cursor, self.box.fresh

    def lines(self, width: int, focused: bool) -> list[Content]:
        """`[ 4  ]`."""
        return [self.box.draw(width, focused, "0")]


class YesNoEditor(Editor):
    """Holds a card or not: space flips it, y or 1 says yes, n or 0 no; Enter confirms (no, when nothing is set)."""

    HELP = (("space, y / n", "yes or no: space flips it, y (or 1, x) is yes, n (or 0) is no; Enter on nothing is "
                             "no"),)

    width = 8

    def load(self, value: Any) -> None:
        """Show yes, no or nothing."""
        self.held: bool | None = value if isinstance(value, bool) else None

    def value(self) -> Any:
        """True, False, or None while not entered."""
        return self.held

    def key(self, key: str, char: str | None) -> Did | None:
        """Space, y/x/1, n/0, Enter (or Tab), up, down."""
        if key in ("enter", "tab"):
            return NEXT
        if key in ("up", "down"):
            return UP if key == "up" else DOWN
        if key == "space":
            self.held = not self.held
            return EDIT
        if char is not None and char.lower() in ("y", "x", "1", "n", "0"):
            self.held = char.lower() in ("y", "x", "1")
            return EDIT
        return None

    def state(self) -> object:
        """Yes, no or nothing."""
        return self.held

    def lines(self, width: int, focused: bool) -> list[Content]:
        """`[x] yes` / `[ ] no`; dim while not entered."""
        if self.held is True:
            text = Content.assemble(("[x]", "bold"), " yes")
        else:
            text = Content("[ ] no") if self.held is False else Content.styled("[ ] no", "dim")
        text += Content(" " * max(0, width - text.cell_length))
        return [text.stylize(FOCUS if focused else BOX)]


class CountsEditor(Editor):
    """Counts by number in a row of small boxes (routes by length): Enter moves box to box, then on."""

    HELP = (("Enter, Tab / shift+Tab", "box to box along the row of counts (routes by length: how many of each); "
                                       "Enter after the last box moves on"),)

    def load(self, value: Any) -> None:
        """Show a table of counts."""
        self.keys = [str(k) for k in getattr(self.slot.field, "keys", ())]
        table = value if isinstance(value, dict) else {}
        self.entered = isinstance(value, dict)
        self.boxes = [Buffer() for _ in self.keys]
        for key, box in zip(self.keys, self.boxes, strict=True):
            box.set(number_text(table.get(key)))
            box.fresh = True
        self.at = 0

    @property
    def width(self) -> int:  # type: ignore[override]
        """Four cells a number."""
        return 4 * len(self.keys)

    def value(self) -> Any:
        """The counts typed (zeros left out), or None when nothing was typed."""
        table: dict[str, Any] = {}
        typed = False
        for key, box in zip(self.keys, self.boxes, strict=True):
            value = parse_number(box.text)
            if value is None:
                continue
            typed = True
            if value != 0:
                table[key] = value
        return table if typed or self.entered else None

    def arrive(self, down: bool = True) -> None:
        """The first box."""
        self.at = 0
        self.boxes[0].fresh = True

    def key(self, key: str, char: str | None) -> Did | None:
        """Digits into the box; Enter or Tab to the next box, then on; left/right at a box's edge: the next box."""
        box = self.boxes[self.at]
        if key in ("enter", "tab"):
            if self.at + 1 < len(self.boxes):
                self.at += 1
                self.boxes[self.at].fresh = True
                return MOVE
            return NEXT
        if key == "shift+tab" and self.at > 0:
            self.at -= 1
            return MOVE
        if key in ("up", "down"):
            return UP if key == "up" else DOWN
        if char == "?":
            return None
        return box.key(key, char)

    def state(self) -> object:
        """The boxes and the one typed into."""
        return tuple((b.text, b.cursor, b.fresh) for b in self.boxes), self.at

    def lines(self, width: int, focused: bool) -> list[Content]:
        """`[1 ][  ][3 ]…`."""
        parts = [box.draw(3, focused and i == self.at, "·") + Content(" ") for i, box in enumerate(self.boxes)]
        return [Content("").join(parts)]


class Unsupported(Editor):
    """A field the app cannot edit (edit the file by hand)."""

    width = 18

    def load(self, value: Any) -> None:
        """Keep the value."""
        self.kept = value

    def value(self) -> Any:
        """The value as it is."""
        return self.kept

    def key(self, key: str, char: str | None) -> Did | None:
        """Enter moves on."""
        if key == "enter":
            return NEXT
        if key in ("up", "down"):
            return UP if key == "up" else DOWN
        return None

    def lines(self, width: int, focused: bool) -> list[Content]:
        """`(edit in the file)`."""
        return [Content.styled("(edit in the file)", "dim" if not focused else FOCUS)]


@dataclass
class Holder:
    """The holder of a card there is one of (a step-wide pick): a seat number or the cursor and Enter; 0 or Enter
    on nobody."""

    slot: Slot
    players: tuple[str, ...]
    held: str | None = None
    at: int = 0
    given: bool = False
    picked: list[str] = field(default_factory=list)

    def load(self, values: dict[str, Any]) -> None:
        """The holder in the session (and whether anybody was entered at all)."""
        self.held = next((p for p in self.players if values.get(p) is True), None)
        self.given = any(isinstance(values.get(p), bool) for p in self.players)
        self.at = self.players.index(self.held) if self.held else len(self.players)

    def values(self) -> dict[str, bool]:
        """Each player's value: true for the holder."""
        return {p: p == self.held for p in self.players}

    def key(self, key: str, char: str | None) -> Did | None:
        """A seat number picks (0: nobody) and moves on; up/down and Enter pick by the cursor."""
        if char is not None and char.isdigit():
            seat = int(char)
            if seat > len(self.players):
                return MOVE
            self.held = self.players[seat - 1] if seat else None
            self.at = seat - 1 if seat else len(self.players)
            return NEXT
        if key in ("up", "down"):
            self.at = max(0, min(len(self.players), self.at + (-1 if key == "up" else 1)))
            return MOVE
        if key in ("enter", "space"):
            self.held = self.players[self.at] if self.at < len(self.players) else None
            return NEXT
        if char is not None and char.lower() == "n":
            self.held, self.at = None, len(self.players)
            return NEXT
        return None

    def prompt(self) -> Content:
        """`Who holds the Ticket Booth?  1 Ana · 2 Bo · 3 Cy · 0 nobody`."""
        parts: list[Content] = [Content.styled(f"Who holds the {self.slot.label}? ", "bold")]
        choices = [*self.players, "nobody"]
        for i, name in enumerate(choices):
            seat = str(i + 1) if i < len(self.players) else "0"
            chosen = i == self.at
            part = Content.assemble((seat, "bold $text-accent"), " ", inert(name))
            parts.append(part.stylize(FOCUS) if chosen else part)
            parts.append(Content("  "))
        return Content("").join(parts)
