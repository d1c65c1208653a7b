"""The editors of a list, one item per line (a player's destination tickets, Finland's tourist cards): Enter ends a
line, the core's problems show at their lines, Tab completes a known name. The map's lists build on them
(`map_editors`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from textual.content import Content

from scorekeeper.games.base import Item
from scorekeeper.tui.widgets.editors import DOWN, EDIT, LINE, MOVE, NEXT, UP, Buffer, Did, Editor, hinted
from scorekeeper.walk import card_text, parse_card

PHONE = 48
"""A list narrower than this (on a phone held upright): its lines get the width, their notes go below them."""


class CardLines(Editor):
    """A list, one item per line: Enter ends a line (a new one below), Enter on the empty last line moves on,
    Backspace on an empty line or ctrl+r removes it, up and down go line to line (then to another player); a
    filled line moved to is taken whole, as a filled box is: typing replaces it, ← → End edit it."""

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

    def key(self, key: str, char: str | None) -> Did | None:
        """Typing, Enter, Backspace, ctrl+t, ctrl+r, ctrl+n, up, down, Tab."""
        row = self.rows[self.at]
        if key != "tab":
            self.cycle = None
        if key == "enter":
            return self.enter()
        if key in ("up", "down"):
            target = self.at + (-1 if key == "up" else 1)
            if 0 <= target < len(self.rows):
                self.rows[self.at].fresh = False
                self.at = target
                self.rows[target].cursor = len(self.rows[target].text)
                self.rows[target].fresh = bool(self.rows[target].text)  # typing replaces it, never appends to it
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

    def enter(self) -> Did | None:
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

    def remove(self) -> Did:
        """Remove the line (the last one is only cleared: there is always a line to add one)."""
        if self.at == len(self.rows) - 1:
            self.rows[self.at].set("")
            return LINE
        del self.rows[self.at]
        self.at = max(0, self.at - 1)
        self.rows[self.at].cursor = len(self.rows[self.at].text)
        return LINE

    def flip(self) -> Did | None:
        """Mark the card failed / completed."""
        row = self.rows[self.at]
        text = row.text.lstrip()
        if not text:
            return None
        row.set(text[1:].lstrip() if text[:1] in "-−✗" else "-" + text)
        return EDIT

    def complete(self) -> Did | None:
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
