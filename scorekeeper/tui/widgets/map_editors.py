"""Inputs of a round on a map: claimed routes and destination tickets, one per line, named by their two cities.

Each line is read by the map (`den - kan` -> `Denver – Kansas City`); Tab completes the city at the cursor
(again: the next candidate). The core checks the list; its problems show at their lines.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual import on
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.widgets import Input, Label

from scorekeeper.games.base import Item
from scorekeeper.tui import mapmode
from scorekeeper.tui.walk import Slot, parse_card
from scorekeeper.tui.widgets.editors import Editor, ListLine, TypingBox

if TYPE_CHECKING:
    from scorekeeper.maps import GameMap

SHOWN = 4
"""How many completions a line's note lists."""


class PairLine(ListLine):
    """One route or ticket: two cities joined by a dash; Tab completes the city at the cursor."""

    BINDINGS = [
        Binding("tab", "complete", "Complete city"),
        Binding("ctrl+r", "remove", "Remove line"),
        Binding("backspace", "backspace", "Delete left", show=False),
    ]

    def __init__(self, value: str, kind: str) -> None:
        example = "den - kan" if kind == mapmode.ROUTE else "den - el"
        super().__init__(value, placeholder=f"{example}  (Tab completes)", classes="pair-line")
        self._cycle: tuple[str, list[str], int, mapmode.Fragment, str] | None = None

    def action_complete(self) -> None:
        """Complete the city at the cursor; pressed again, the next candidate. Nothing to complete: next input."""
        owner = self.parent.parent if self.parent is not None else None
        if not isinstance(owner, PairList) or not self.value.strip():
            raise SkipAction()
        if self._cycle is not None and self._cycle[0] == self.value:
            _, found, index, frag, text = self._cycle
            index = (index + 1) % len(found)
        else:
            frag, found = mapmode.candidates(owner.game_map, self.value, self.cursor_position, owner.kind)
            text, index = self.value, 0
            if not found or (len(found) == 1 and found[0] == frag.typed):
                raise SkipAction()
        new, cursor = mapmode.complete(text, frag, found[index])
        self._cycle = (new, found, index, frag, text) if len(found) > 1 else None
        self.value = new
        self.cursor_position = cursor



class PairRow(Horizontal):
    """A line of the list and, beside it, what the map reads in it (or the problem with it)."""

    def __init__(self, text: str, kind: str) -> None:
        super().__init__(classes="pair-row")
        self.line = PairLine(text, kind)
        self.note = Label("", classes="pair-note")

    def compose(self) -> ComposeResult:
        yield self.line
        yield self.note


class PairList(Vertical, Editor):
    """A player's claimed routes (or tickets) on a map, one per line: Enter reads the line and adds one,
    Enter on an empty line moves on, ctrl+r removes a line."""

    kind = mapmode.ROUTE

    def __init__(self, player: str, slot: Slot, value: Any, game_map: GameMap) -> None:
        super().__init__(classes=f"editor pairs {slot.kind}")
        self.player = player
        self.slot = slot
        self.game_map = game_map
        self._initial = value if isinstance(value, list) else []
        self._problems: dict[int, str] = {}
        self._posted: Any = self.to_value(self._initial)
        self.footer = Label("", classes="pair-footer")

    # -- values ---------------------------------------------------------------------------
    def line_text(self, item: Any) -> str:
        """An item of the value as a line."""
        return str(item)

    def to_value(self, items: list[Any]) -> Any:
        """The value a list of items saves as (a copy)."""
        return list(items)

    def item_of(self, text: str) -> Any:
        """The item a line saves: the canonical name when the map reads it, else the text (for the core to refuse)."""
        found = mapmode.resolve(self.game_map, text, self.kind)
        return found.name if found.name is not None else text.strip()

    def current(self) -> Any:
        """The items of the lines (empty lines left out)."""
        return [self.item_of(r.line.value) for r in self.rows() if r.line.value.strip()]

    def readable(self) -> bool:
        """Whether the map reads every line."""
        return all(mapmode.resolve(self.game_map, r.line.value, self.kind).name is not None
                   for r in self.rows() if r.line.value.strip())

    # -- widgets --------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        for item in self._initial:
            yield PairRow(self.line_text(item), self.kind)
        yield PairRow("", self.kind)
        yield self.footer

    def on_mount(self) -> None:
        """What the map reads in each line."""
        self._notes()

    def rows(self) -> list[PairRow]:
        """The rows, top to bottom."""
        return list(self.query_children(PairRow))

    def show(self, value: Any) -> None:
        """Rebuild the lines from a value (undo, redo)."""
        items = value if isinstance(value, list) else []
        self._posted = self.to_value(items)
        if self.to_value(items) == self.current() and self.rows() and not self.rows()[-1].line.value:
            return
        had_focus = self.has_focus_within
        for row in self.rows():
            row.remove()
        self.mount_all([*(PairRow(self.line_text(i), self.kind) for i in items), PairRow("", self.kind)],
                       before=self.footer)
        self.call_after_refresh(self._notes)
        if had_focus:
            self.call_after_refresh(self.enter)

    def enter(self) -> None:
        """Focus the empty line at the end (to add one)."""
        rows = self.rows()
        if rows:
            rows[-1].line.focus()

    def mark_lines(self, lines: dict[int, str]) -> None:
        """Problems by line (from 1, empty lines not counted)."""
        self._problems = lines
        self._notes()

    def show_items(self, items: list[Item]) -> None:
        """The core's items of the player this round (tickets show whether they are connected)."""

    # -- notes ----------------------------------------------------------------------------
    def hint(self, row: PairRow) -> Content:
        """What to type at a line being typed: the cities that fit, or why the map cannot read it."""
        text = row.line.value
        frag, found = mapmode.candidates(self.game_map, text, row.line.cursor_position, self.kind)
        if frag.second_side and frag.typed or not found:
            message = mapmode.resolve(self.game_map, text, self.kind).error
            if not found and frag.second_side and frag.first:
                fits = mapmode.candidates(self.game_map, text[: frag.start], frag.start, self.kind)[1]
                if fits:
                    message += "; it may be " + ", ".join(fits[:SHOWN]) + (" …" if len(fits) > SHOWN else "")
            if not found or frag.second_side:
                return Content.styled("? " + message, "$text-warning")
        more = f" +{len(found) - SHOWN}" if len(found) > SHOWN else ""
        return Content.assemble(("Tab: ", "dim"), ", ".join(found[:SHOWN]), (more, "dim"))

    def read_note(self, found: mapmode.Resolved) -> Content:
        """The note of a line the map reads."""
        return Content.assemble(("✓ ", "$text-success"), (f"{found.size} train{'s' if found.size != 1 else ''}", "dim"))

    def _notes(self) -> None:
        number = 0
        for row in self.rows():
            text = row.line.value
            if not text.strip():
                row.note.update("")
                continue
            number += 1
            problem = self._problems.get(number)
            found = mapmode.resolve(self.game_map, text, self.kind)
            if problem:
                row.note.update(Content.styled("✗ " + problem, "$text-error"))
            elif found.name is not None and found.name != text.strip() and row.line.has_focus:
                row.note.update(Content.assemble(("= ", "dim"), found.name))
            elif found.name is not None:
                row.note.update(self.read_note(found))
            elif row.line.has_focus:
                row.note.update(self.hint(row))
            else:
                row.note.update(Content.styled("✗ " + found.error, "$text-error"))
        summary = self.summary()
        self.footer.update(summary)
        self.footer.display = bool(summary.plain)

    def summary(self) -> Content:
        """A line under the list (routes: trains used and left)."""
        return Content("")

    # -- events ---------------------------------------------------------------------------
    def _post(self, confirm: bool = False, force: bool = False) -> None:
        self._notes()
        value = self.current()
        if not force and not confirm and (value == self._posted or not self.readable()):
            return
        self._posted = value
        message = Editor.Edited(self, value, confirm)
        message.boundary = force  # type: ignore[attr-defined]  # a line confirmed or removed: one undo step each
        self.post_message(message)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        event.stop()
        self._post()

    def on_descendant_focus(self) -> None:
        """Hints follow the focus."""
        self._notes()

    def on_descendant_blur(self) -> None:
        """Hints follow the focus."""
        self._notes()

    @on(Input.Submitted)
    async def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        rows = self.rows()
        row = next(r for r in rows if r.line is event.input)
        index = rows.index(row)
        text = row.line.value
        if text.strip():
            found = mapmode.resolve(self.game_map, text, self.kind)
            if found.name is None:
                self._post(force=True)  # the core says what is wrong, at the line; nothing is saved
                return
            if found.name != text:
                with row.line.prevent(Input.Changed):
                    row.line.value = found.name
            if index == len(rows) - 1:
                new = PairRow("", self.kind)
                await self.mount(new, before=self.footer)
                new.line.focus()
                self.call_after_refresh(self.footer.scroll_visible, animate=False)
            else:
                rows[index + 1].line.focus()
            self._post(force=True)
        elif index == len(rows) - 1:
            self._post(confirm=True)
        else:
            await row.remove()
            rows[index + 1].line.focus()
            self._notes()

    @on(PairLine.Remove)
    async def _remove(self, event: PairLine.Remove) -> None:
        event.stop()
        rows = self.rows()
        row = event.line.parent
        if not isinstance(row, PairRow):
            return
        index = rows.index(row)
        if index == len(rows) - 1:  # the last line is cleared: there is always a line to add one
            row.line.value = ""
            self._post(force=True)
            return
        target = rows[index - 1] if index > 0 else rows[index + 1]
        await row.remove()
        target.line.focus()
        target.line.cursor_position = len(target.line.value)
        self._post(force=True)

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


class RouteList(PairList):
    """A player's claimed routes; under them the trains used and left."""

    kind = mapmode.ROUTE

    def summary(self) -> Content:
        """`trains: 23 used · 22 left of 45` (from the lines the map reads; over the limit in red)."""
        used = 0
        for row in self.rows():
            if row.line.value.strip():
                used += mapmode.resolve(self.game_map, row.line.value, self.kind).size
        left = self.game_map.trains - used
        style = "$text-error" if left < 0 else "bold"
        return Content.assemble(("trains: ", "dim"), (f"{used} used", "bold"), " · ", (f"{left} left", style),
                                (f" of {self.game_map.trains}", "dim"))


class TicketList(PairList):
    """A player's destination tickets, picked from the map's deck by name: the map says whether each is
    connected and what it is worth (no points or done/failed to type)."""

    kind = mapmode.TICKET

    def __init__(self, player: str, slot: Slot, value: Any, game_map: GameMap) -> None:
        self._kept: dict[str, dict[str, Any]] = {}
        self._items: list[Item] = []
        super().__init__(player, slot, value, game_map)

    def line_text(self, item: Any) -> str:
        """A ticket as a line: its name (a ticket given by points alone: `8`, `-8`)."""
        if isinstance(item, dict) and item.get("name"):
            self._kept[str(item["name"])] = item
            return str(item["name"])
        if isinstance(item, dict) and "points" in item:
            sign = "" if item.get("completed") is True else "-"
            return f"{sign}{item['points']}"
        return str(item)

    def to_value(self, items: list[Any]) -> Any:
        """The tickets as saved."""
        return [dict(i) if isinstance(i, dict) else i for i in items]

    def item_of(self, text: str) -> Any:
        """`{ name = "Denver – El Paso" }` (a ticket already in the file keeps what it had)."""
        found = mapmode.resolve(self.game_map, text, self.kind)
        if found.name is None:
            card = parse_card(text, needs_points=False)
            if card is not None and "points" in card and "name" not in card:
                return card
            return {"name": text.strip()}
        kept = self._kept.get(text.strip()) or self._kept.get(found.name)
        return dict(kept) if kept else {"name": found.name}

    def readable(self) -> bool:
        """Whether every line names a ticket of the deck (or gives points)."""
        for row in self.rows():
            text = row.line.value
            if not text.strip():
                continue
            if mapmode.resolve(self.game_map, text, self.kind).name is None and "points" not in self.item_of(text):
                return False
        return True

    def show_items(self, items: list[Item]) -> None:
        """Each ticket's item from the core: connected or not, and its points."""
        self._items = [i for i in items if i.category == "ticket"]
        self._notes()

    def read_note(self, found: mapmode.Resolved) -> Content:
        """`✓ connected +4` (from the core's item), or the ticket's worth until it is scored."""
        item = next((i for i in self._items if i.why.startswith(f"ticket {found.name} ")), None)
        if item is None:
            return Content.styled(f"{found.size} points", "dim")
        why = item.why[len("ticket ") + len(found.name or ""):].strip()
        state, _, worth = why.rpartition(": ")
        state = state.removesuffix(" by the claimed routes")
        if item.points > 0:
            return Content.assemble(("✓ ", "$text-success"), (f"{state} {worth}", "$text-success"))
        return Content.assemble(("✗ ", "$text-warning"), (f"{state} {worth}", "$text-warning"))
