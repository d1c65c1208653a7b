"""The editors of the walkthrough's cells, one per kind of field: what a key does to a cell and how it is drawn.

They are not widgets: the step grid owns the keyboard and hands each key to the cell under its cursor, so a key
always lands in the cell the screen shows. `EDITORS` names the editor of each field kind.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, ClassVar

from rich.cells import cell_len
from textual.content import Content

from scorekeeper.games.base import Item
from scorekeeper.text import inert
from scorekeeper.walk import Slot, card_text, parse_card, parse_number
from scorekeeper.walk_state import NOT_READY as NOT_READY

EDIT, MOVE, NEXT, UP, DOWN, LINE = "edit", "move", "next", "up", "down", "line"
"""What a key did: changed the value, moved inside the cell, confirmed it (Enter), asked for the player above or
below, confirmed a line of a list (a value changed, and the next change is a new undo step)."""

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

    def key(self, key: str, char: str | None) -> str | None:
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

    def key(self, key: str, char: str | None) -> str | None:
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

    def key(self, key: str, char: str | None) -> str | None:
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

    def key(self, key: str, char: str | None) -> str | None:
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

    def key(self, key: str, char: str | None) -> str | None:
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


PHONE = 48
"""A list narrower than this (on a phone held upright): its lines get the width, their notes go below them."""


class CardLines(Editor):
    """A list, one item per line: Enter ends a line (a new one below), Enter on the empty last line moves on,
    Backspace on an empty line or ctrl+r removes it, up and down go line to line (then to another player)."""

    HELP: ClassVar[tuple[tuple[str, str], ...]] = (
        ("card lists", "one card per line: 8 = completed for 8, -8 = failed, a name may follow (8 Denver – El Paso); "
                       "Enter ends a line, Enter on the empty last line moves on"),
        ("ctrl+t, ctrl+r, ctrl+n", "on a line of a list: done ↔ failed, remove the line, insert a line"))

    width = 30
    stacked = True
    placeholder = "8 · -8 failed · 8 Name"

    def load(self, value: Any) -> None:
        """One line per item, and an empty one to add one."""
        items = value if isinstance(value, list) else []
        self.rows = [Buffer() for _ in items] + [Buffer()]
        for row, item in zip(self.rows, items, strict=False):
            row.set(self.line_text(item))
        self.at = len(self.rows) - 1
        self.problems: dict[int, str] = {}
        self.items: list[Item] = []
        self.cycle: tuple[str, list[str], int, str] | None = None

    # -- values ---------------------------------------------------------------------
    def line_text(self, item: Any) -> str:
        """An item of the value as a line."""
        return card_text(item)

    def item_of(self, text: str) -> Any:
        """The item a line saves (None for an empty line)."""
        return parse_card(text, self.needs_points)

    @property
    def needs_points(self) -> bool:
        """Whether a card must give its points."""
        return bool(getattr(self.slot.field, "needs_points", True))

    def value(self) -> Any:
        """The items of the lines (empty lines left out)."""
        items = [self.item_of(r.text) for r in self.rows if r.text.strip()]
        return [i for i in items if i is not None]

    def canonical(self, text: str) -> str:
        """The line as it stands once Enter has read it."""
        return text

    # -- keys -----------------------------------------------------------------------
    def arrive(self, down: bool = True) -> None:
        """From above: the empty line at the end (to add one); from below: the last line."""
        self.at = len(self.rows) - 1
        self.rows[self.at].cursor = len(self.rows[self.at].text)

    def cursor_line(self) -> int:
        """The line being typed."""
        return self.at

    def key(self, key: str, char: str | None) -> str | None:
        """Typing, Enter, Backspace, ctrl+t, ctrl+r, ctrl+n, up, down, Tab."""
        row = self.rows[self.at]
        if key != "tab":
            self.cycle = None
        if key == "enter":
            return self.enter()
        if key in ("up", "down"):
            target = self.at + (-1 if key == "up" else 1)
            if 0 <= target < len(self.rows):
                self.at = target
                self.rows[target].cursor = len(self.rows[target].text)
                return MOVE
            return UP if key == "up" else DOWN
        if key == "ctrl+r" or (key == "backspace" and not row.text and len(self.rows) > 1):
            return self.remove()
        if key == "ctrl+n":
            self.rows.insert(self.at + 1, Buffer())
            self.at += 1
            return MOVE
        if key == "ctrl+t":
            return self.flip()
        if key == "tab":
            return self.complete()
        return row.key(key, char)

    def enter(self) -> str | None:
        """A filled line: read it, on to the next line; the empty last line: the list is done."""
        row = self.rows[self.at]
        if row.text.strip():
            row.set(self.canonical(row.text))
            if self.at == len(self.rows) - 1:
                self.rows.append(Buffer())
            self.at += 1
            return LINE
        if self.at == len(self.rows) - 1:
            return NEXT
        del self.rows[self.at]
        return EDIT

    def remove(self) -> str:
        """Remove the line (the last one is only cleared: there is always a line to add one)."""
        if self.at == len(self.rows) - 1:
            self.rows[self.at].set("")
            return LINE
        del self.rows[self.at]
        self.at = max(0, self.at - 1)
        self.rows[self.at].cursor = len(self.rows[self.at].text)
        return LINE

    def flip(self) -> str | None:
        """Mark the card failed / completed."""
        row = self.rows[self.at]
        text = row.text.lstrip()
        if not text:
            return None
        row.set(text[1:].lstrip() if text[:1] in "-−✗" else "-" + text)
        return EDIT

    def complete(self) -> str | None:
        """Tab: complete the name at the cursor (again: the next candidate); None when there is nothing to do."""
        row = self.rows[self.at]
        if self.cycle is not None and self.cycle[0] == row.text:
            _, found, index, text = self.cycle
            index = (index + 1) % len(found)
        else:
            found, text, index = self.candidates(row.text, row.cursor), row.text, 0
            if not found:
                return None
        new = self.completed(text, row.cursor if self.cycle is None else len(text), found[index])
        if new is None:
            return None
        row.set(new)
        self.cycle = (new, found, index, text) if len(found) > 1 else None
        return EDIT

    def candidates(self, text: str, cursor: int) -> list[str]:
        """The names the text at the cursor may be completed to (none for a list without names to complete)."""
        return []

    def completed(self, text: str, cursor: int, name: str) -> str | None:
        """The line with the name at the cursor completed to `name`."""
        return None

    # -- drawing --------------------------------------------------------------------
    def mark(self, problems: dict[int, str], items: list[Item]) -> None:
        """Problems by line (from 1, empty lines not counted), and the core's items."""
        self.problems = problems
        self.items = items

    def note(self, number: int, row: Buffer, focused: bool) -> Content:
        """What a line counts for: done or failed, or its problem."""
        card = self.item_of(row.text)
        if card is None:
            return Content("")
        problem = self.problems.get(number)
        if problem:
            return Content.styled("✗ " + problem, "$text-error")
        if card.get("completed"):
            return Content.styled("✓ done", "$text-success")
        return Content.styled("✗ failed", "$text-warning")

    def state(self) -> object:
        """The lines, the one typed, their problems and the core's items."""
        return (tuple((r.text, r.cursor) for r in self.rows), self.at, tuple(sorted(self.problems.items())),
                tuple((i.why, i.points, i.detail) for i in self.items))

    def lines(self, width: int, focused: bool) -> list[Content]:
        """Each line in its box, and its note beside it."""
        out = []
        number = 0
        phone = width < PHONE
        box = max(12, width - 10) if phone else min(self.width, max(12, width // 2))
        for i, row in enumerate(self.rows):
            if row.text.strip():
                number += 1
            mine = focused and i == self.at
            note = self.note(number, row, mine) if row.text.strip() else Content("")
            placeholder = self.placeholder if i == len(self.rows) - 1 and not row.text else ""
            out.append(hinted(box, placeholder) if mine and placeholder else row.draw(box, mine, placeholder))
            if phone and (note.cell_length > width - box - 2 or out[-1].cell_length > box):
                out[-1] = out[-1].rstrip()  # on a phone a long note goes below its line, wrapped at spaces
                out += [Content("  ") + part for part in note.wrap(width - 2)] if note.plain else []
                continue
            parts = note.wrap(max(12, width - box - 2)) if note.cell_length > width - box - 2 else [note]
            out[-1] += Content("  ") + parts[0]
            out += [Content(" " * (box + 2)) + part for part in parts[1:]]
        footer = self.footer()
        if footer is not None:
            out += footer.wrap(width) if phone else [footer]
        return out

    def footer(self) -> Content | None:
        """A line under the list (routes: trains used and left)."""
        return None


class TouristLines(CardLines):
    """Cards of a known deck (Finland's tourist cards): a card's name alone gives its printed points; Tab completes
    the name."""

    HELP = (*CardLines.HELP, ("Tab", "completes a tourist card's name; a known card gets its printed points"))

    placeholder = "Kokkola · -Vaasa failed · 8 Name"

    @property
    def deck(self) -> Callable[[str], int | None] | None:
        """The printed points of a card by its name."""
        return getattr(self.slot.field, "deck", None)

    @property
    def names(self) -> tuple[str, ...]:
        """The deck's card names."""
        return tuple(getattr(self.slot.field, "names", ()))

    def item_of(self, text: str) -> Any:
        """A line; a card named without points gets its printed points and its name as printed."""
        card = parse_card(text, needs_points=False)
        if card is None or "points" in card or self.deck is None:
            return parse_card(text, self.needs_points) if card is not None else None
        name = str(card.get("name", ""))
        points = self.deck(name)
        if points is None:
            return parse_card(text, self.needs_points)
        printed = next((n for n in self.names if fold(n) == fold(name)), name)
        return {"points": points, "completed": card["completed"], "name": printed}

    def canonical(self, text: str) -> str:
        """`kokkola` -> `3 Kokkola`, once read."""
        card = self.item_of(text)
        return card_text(card) if card is not None and "points" in card and card.get("name") else text

    def candidates(self, text: str, cursor: int) -> list[str]:
        """The deck's names that start with the name typed."""
        body = text.lstrip(" -−✗✓+")
        first, _, rest = body.partition(" ")
        typed = rest if first.isdigit() else body
        return [n for n in self.names if fold(n).startswith(fold(typed.strip()))] if self.names else []

    def completed(self, text: str, cursor: int, name: str) -> str | None:
        """The name typed replaced by the deck's."""
        sign = "-" if text.lstrip()[:1] in "-−✗" else ""
        body = text.lstrip(" -−✗✓+")
        first, _, _ = body.partition(" ")
        points = first + " " if first.isdigit() else ""
        return f"{sign}{points}{name}"


def fold(text: str) -> str:
    """A name compared without case or accents (`Tromsø`, `tromso`)."""
    import unicodedata

    text = text.casefold().replace("ø", "o").replace("æ", "ae").replace("å", "a")
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c)).strip()


class Unsupported(Editor):
    """A field the app cannot edit (edit the file by hand)."""

    width = 18

    def load(self, value: Any) -> None:
        """Keep the value."""
        self.kept = value

    def value(self) -> Any:
        """The value as it is."""
        return self.kept

    def key(self, key: str, char: str | None) -> str | None:
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

    def key(self, key: str, char: str | None) -> str | None:
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
