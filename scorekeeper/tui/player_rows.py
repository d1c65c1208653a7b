"""The players' rows of a walkthrough step, drawn from its state and its editors: the column headers, each
player's name, boxes and what the player scores and why (the step grid shows them and owns the keyboard)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from rich.cells import cell_len
from textual.cache import LRUCache
from textual.content import Content

from scorekeeper import walk
from scorekeeper.model.text import inert
from scorekeeper.tui.render import item_line, problem_line, text_line
from scorekeeper.tui.widgets.hanging import Line, wrap
from scorekeeper.walk.parts import Part, Path, Refused, Scored, Total, Trail

PHONE = 60
"""Below this width (a phone held upright) a player's name has a line of its own, the inputs and reasons below it
(one input a line when they do not fit side by side), and no line is wider than the grid."""

if TYPE_CHECKING:
    from scorekeeper.model.session import Problem
    from scorekeeper.tui.widgets.editors import Editor, Holder
    from scorekeeper.walk.state import Spot, WalkState


def slot_width(slot: walk.Slot, editor: Editor, narrow: bool = False) -> int:
    """The width of a slot's column: its editor's, or its header's (its longest word when narrow: it wraps)."""
    words = slot.label.split() if narrow else [slot.label]
    label = max([cell_len(word) for word in words] + [len(slot.allowed())])
    return max(editor.width, label)


def path_content(cities: tuple[str, ...] | list[str], dim: bool = False) -> Content:
    """A path drawn city by city: `Denver ━ Kansas City ━ Saint Louis`."""
    style = "dim" if dim else "bold"
    parts: list[Content] = []
    for i, city in enumerate(cities):
        if i:
            parts.append(Content.styled(" ━ ", "$text-accent" if not dim else "dim"))
        parts.append(Content.styled(inert(city), style))
    return Content.assemble(*parts)


def live_line(part: Part) -> list[Line]:
    """One thing a player's row says (`WalkState.live`), drawn."""
    if isinstance(part, Scored):
        return [item_line(part.item)]
    if isinstance(part, Path):
        return [(Content("      "), path_content(part.cities))]
    if isinstance(part, Trail):
        length = part.trains
        trains = "1 train" if length == 1 else f"{length} trains"
        text = f"longest continuous path {trains}, {part.why}" if length else "no routes claimed, no path"
        out = [(Content.styled("   0  ", "dim"), Content.styled(text, "dim"))]
        if part.cities:
            out.append((Content("      "), path_content(part.cities, dim=True)))
        return out
    if isinstance(part, Total):
        return [text_line(Content.styled(f"= {walk.points(part.points)} this round", "bold"))]
    return [problem_line(part.problem, "not saved: " if isinstance(part, Refused) else "")]


def fit(lines: list[Content], width: int) -> list[Content]:
    """Lines no wider than `width`: the blank end of a line cut, a longer line wrapped at its spaces."""
    out: list[Content] = []
    for line in lines:
        if line.cell_length > width and not line.plain[width:].strip() and cell_len(line.plain[:width]) <= width:
            line = line[:width]
        out += line.wrap(width) if line.cell_length > width else [line]
    return out


@dataclass(frozen=True)
class RowView:
    """What one player's row shows: the boxes' `state()` and the live parts (`WalkState.live`)."""

    boxes: tuple[object, ...]
    live: tuple[Part, ...]


@dataclass(frozen=True)
class RowsView:
    """What the rows of a step show, as values (the step grid's reactive: a new value is drawn, an equal one is
    not): the round and step, the cursor, who starts, each player's row, the step-wide pick under the cursor
    (who holds it, where its cursor is) and the values refused there."""

    number: int
    index: int
    spot: Spot | None
    first: str | None
    rows: tuple[RowView, ...]
    pick: tuple[object, ...] = ()
    refused: tuple[Problem, ...] = ()


@dataclass
class PlayerRows:
    """The rows of a step as drawn at a width: the lines, the cursor's block, and each player's lines (`spans`).

    `view()` says what the rows show now, as values; `lines(view, width)` draws them. A key changes one box and the
    reasons of a few rows: each row is drawn again only when what it shows changed (its `RowView`, the cursor on
    it, the width), kept in an LRU cache of rows."""

    state: WalkState
    editors: dict[tuple[int, int], Editor]
    holders: dict[int, Holder]
    spans: dict[str, tuple[int, int]] = field(default_factory=dict)
    drawn: LRUCache[tuple[object, ...], list[Content]] = field(default_factory=lambda: LRUCache(256))

    phone: bool = False
    """Drawn for a phone held upright (`PHONE`): the name above its inputs."""

    def name_width(self) -> int:
        """The names column: the longest name with room for `starts`, and a gap (on a phone: an indent under the
        name, which has a line of its own)."""
        if self.phone:
            return 2
        return max(10, max(cell_len(p) for p in self.state.players) + 9)

    def live_lines(self, parts: list[Part]) -> list[Line]:
        """A player's points and reasons for the step, the problems at the inputs, the values not saved."""
        return [line for part in parts for line in live_line(part)]

    def head(self, widths: list[int], narrow: bool, width: int) -> list[Content]:
        """The column headers over the inputs: each label (wrapped to its column) and the allowed range; a note
        that one of the inputs is enough goes below them when it does not fit beside them in `width`."""
        slots = self.state.slots
        columns: list[tuple[int, list[Content]]] = []
        for slot, w in zip(slots, widths, strict=True):
            if slot.kind == "counts":
                below = "".join(f"{k:<4}" for k in getattr(slot.field, "keys", ()))
            else:
                below = slot.allowed()
            cells = Content.styled(slot.label, "bold").wrap(w) if narrow else [Content.styled(slot.label, "bold")]
            if below:
                cells.append(Content.styled(below, "dim"))
            columns.append((w + 1, cells))
        height = max((len(cells) for _, cells in columns), default=0)
        out = []
        for i in range(height):
            row = Content(" " * self.name_width())
            for w, cells in columns:
                cell = cells[i] if i < len(cells) else Content("")
                row += cell + Content(" " * max(0, w - cell.cell_length))
            out.append(row.stylize("$text-muted"))
        if walk.either(self.state.step):
            either = Content.styled("give one or the other" if walk.offers_either(self.state.step, slots) else
                                    f"ctrl+e: {self.state.other_entry_name()}", "dim italic")
            if self.phone:
                out = fit(out, width) + either.wrap(width)
            elif out[-1].cell_length + 2 + either.cell_length <= width:
                out[-1] += Content("  ") + either
            else:
                out.append(Content(" " * self.name_width()) + either)
        return out

    def view(self) -> RowsView:
        """What the rows show now (the state's cursor and live parts, the boxes' contents)."""
        state = self.state
        slots = range(len(state.slots))
        rows = tuple(RowView(tuple(self.editors[(p, s)].state() for s in slots), tuple(state.live(player)))
                     for p, player in enumerate(state.players))
        spot = state.spot
        pick: tuple[object, ...] = ()
        if spot is not None and spot.player is None:
            holder = self.holders[spot.slot]
            pick = (holder.held, holder.at)
        return RowsView(state.number, state.index, spot, state.first, rows, pick, tuple(state.refused))

    def lines(self, view: RowsView, width: int) -> tuple[list[Content], int, int]:
        """Every player's row as the view says: the name, the inputs, and what the player scores and why; and the
        first and last line of the cursor's block."""
        state = self.state
        players, slots = state.players, state.slots
        self.spans = {}
        self.phone = width < PHONE
        out: list[Content] = []
        if not slots:
            for p, player in enumerate(players):
                start = len(out)
                out += self.row_lines(p, player, [], width, live=list(view.rows[p].live))
                self.spans[player] = (start, len(out))
                out.append(Content(""))
            return out, 0, 0
        narrow = len(slots) > 3
        editors0 = [self.editors[(0, s)] for s in range(len(slots))]
        widths = [slot_width(slot, editors0[s], narrow) for s, slot in enumerate(slots)]
        if self.phone and not self.side_by_side(widths, width):
            self.labelled = True
        else:
            self.labelled = False
        if len([s for s in range(len(slots)) if editors0[s].stacked]) < 2 and not self.labelled:
            head_key: tuple[object, ...] = ("head", state.number, state.index, tuple(widths), width)
            head = self.drawn.get(head_key)
            if head is None:
                head = self.head(widths, narrow, width)
                self.drawn.set(head_key, head)
            out = fit(list(head), width) if self.phone else list(head)
        if out:
            out.append(Content(""))
        spot = view.spot
        top = bottom = 0
        for p, player in enumerate(players):
            start = len(out)
            live = list(view.rows[p].live)
            focus = tuple(spot is not None and spot.slot == s and (spot.player == p or spot.player is None)
                          for s in range(len(widths)))
            here = spot is not None and spot.player == p
            key: tuple[object, ...] = (view.number, view.index, p, width, tuple(widths), focus, here, view.first,
                                       view.rows[p])
            row = self.drawn.get(key)
            if row is None:
                cells: list[list[Content]] = []
                for s, w in enumerate(widths):
                    editor = self.editors[(p, s)]
                    cells.append(editor.lines(w if not editor.stacked else width - self.name_width(), focus[s]))
                row = self.row_lines(p, player, cells, width, widths, live)
                self.drawn.set(key, row)
            out += row
            self.spans[player] = (start, len(out))
            if spot is not None and spot.player == p:
                top, bottom = (0 if p == 0 else start), len(out) - 1
            out.append(Content(""))
        if spot is not None and spot.player is None:
            out += self.holders[spot.slot].prompt().wrap(width)
            out += [Content.assemble(*problem_line(p, "not saved: ")) for p in view.refused]
            top, bottom = len(out) - 1 - len(view.refused), len(out) - 1
        return out, top, bottom

    labelled: bool = False
    """On a phone, when the inputs do not fit side by side: one input a line, each with its label."""

    def side_by_side(self, widths: list[int], width: int) -> bool:
        """Whether the step's one-line inputs fit side by side under the name (on a phone)."""
        inline = [w for s, w in enumerate(widths) if not self.editors[(0, s)].stacked]
        return self.name_width() + sum(w + 1 for w in inline) - 1 <= width

    def phone_lines(self, name: Content, cells: list[list[Content]], p: int, width: int,
                    lines: list[Line]) -> list[Content]:
        """A player's row on a phone: the name on its line; below it the inputs (side by side when they fit, else
        one a line after its label), then the reasons, none wider than `width`."""
        indent = Content(" " * self.name_width())
        out = [name]
        inline = [(s, c) for s, c in enumerate(cells) if not self.editors[(p, s)].stacked]
        if inline and not self.labelled:
            out.append(indent + Content("").join(c[0] + Content(" ") for _, c in inline))
        elif inline:
            labels = [self.state.slots[s].label for s, _ in inline]
            room = max(cell_len(label) for label in labels) + 1
            if room + max(c[0].cell_length for _, c in inline) + self.name_width() > width:
                for label, (_, c) in zip(labels, inline, strict=True):
                    out += [indent + line for line in Content.styled(label, "dim").wrap(width - self.name_width())]
                    out.append(indent + c[0])
            else:
                for label, (_, c) in zip(labels, inline, strict=True):
                    out.append(indent + Content.styled(label, "dim") + Content(" " * (room - cell_len(label))) + c[0])
        for s, c in enumerate(cells):
            if not self.editors[(p, s)].stacked:
                continue
            if len(cells) > 1:
                out.append(indent + Content.styled(self.state.slots[s].label, "dim"))
            out += [indent + line for line in c]
        out += [indent + line for line in wrap(lines, width - self.name_width())]
        return fit(out, width)

    def row_lines(self, p: int, player: str, cells: list[list[Content]], width: int,
                  widths: list[int] | None = None, live: list[Part] | None = None) -> list[Content]:
        """A player's row: inputs side by side (lists below each other) and the reasons beside or below."""
        nw = self.name_width()
        name = Content(inert(player))
        if player == self.state.first:
            name += Content.styled(" starts", "dim")
        spot = self.state.spot
        if spot is not None and spot.player == p:
            name = name.stylize("bold $text-accent")
        name = name + Content(" " * max(0, nw - name.cell_length))
        lines = self.live_lines(self.state.live(player) if live is None else live)
        if self.phone:
            return self.phone_lines(name.rstrip(), cells, p, width, lines)
        stacked = any(self.editors[(p, s)].stacked for s in range(len(cells))) if cells else False
        inline = [c for s, c in enumerate(cells) if not self.editors[(p, s)].stacked]
        used = nw + sum((widths or [0])[s] + 1 for s in range(len(cells)) if not self.editors[(p, s)].stacked)
        room = width - used - 1
        if not stacked and room >= 24:
            first = Content("").join(c[0] + Content(" ") for c in inline) if inline else Content("")
            wrapped = wrap(lines, room) or [Content("")]
            out = [name + first + Content(" ") + wrapped[0]]
            out += [Content(" " * (used + 1)) + line for line in wrapped[1:]]
            return out
        out = []
        head = Content("").join(c[0] + Content(" ") for c in inline) if inline else Content("")
        if inline or not stacked:
            out.append(name + head)
        for s, c in enumerate(cells):
            if not self.editors[(p, s)].stacked:
                continue
            labelled = [Content.styled(self.state.slots[s].label, "dim")] if len(cells) > 1 else []
            for i, line in enumerate([*labelled, *c]):
                lead = name if not out and i == 0 else Content(" " * nw)
                out.append(lead + line)
        if not out:
            out.append(name)
        out += [Content(" " * nw) + line for line in wrap(lines, max(16, width - nw))]
        return out

