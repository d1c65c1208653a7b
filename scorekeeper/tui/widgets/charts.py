"""The story of a game in pictures: running totals by round and each player's points by category, as bars.

Drawn by hand with block characters in the theme's colours, every bar followed by its numbers, so the chart
reads in 80 columns, in a screen reader and in a copy-paste. Each share has its own character as well as its
own colour, so the bars read without colour too.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from textual.content import Content
from textual.widget import Widget

from scorekeeper.after.charts import Split, Step, by_category, groups, running_totals
from scorekeeper.games.base import Sheet
from scorekeeper.model.points import ZERO
from scorekeeper.model.text import inert, ljust, rjust, width
from scorekeeper.walk import points

FILLS = ("▓", "▒", "█", "▆", "▇")
COLOURS = ("$primary", "$success", "$accent", "$secondary", "$foreground")
"""A share's look: character and colour by index, so no two of a chart look alike (every fill at least
three-quarters high: a half-height bar is hard to see on the dark theme)."""
PLAYER_COLOURS = ("$warning", "$text-primary", "$text-success", "$text-accent", "$text-muted")
"""A player's bar in the running totals: always a full block, in colours the category shares do not use (the same
colour never means a player in one chart and a category in the other)."""
LOSS_FILLS = ("░", "▞", "▚")
LOSS = "$error"
"""Shares that take points away (Outhouses, failed tickets) are drawn in the error colour, each its own fill."""

MIN_BAR = 10


def look(index: int, loss: int | None = None) -> tuple[str, str]:
    """The character and colour of the share (or player) at this index; of the `loss`-th share that loses points."""
    if loss is not None:
        return LOSS_FILLS[loss % len(LOSS_FILLS)], LOSS
    return FILLS[index % len(FILLS)], COLOURS[index % len(COLOURS)]


def cut(start: Fraction, parts: Sequence[Fraction], scale: Fraction) -> list[int]:
    """Columns of each part laid end to end from `start`, rounded so that the widths add up."""
    widths = []
    edge = start
    for part in parts:
        left = round(edge * scale)
        edge += part
        widths.append(round(edge * scale) - left)
    return widths


class Layout:
    """The columns of a bar chart: names, the bars (left of zero for losses), the numbers."""

    def __init__(self, names: Sequence[str], lows: Sequence[Fraction], highs: Sequence[Fraction], total: int,
                 lead: int = 0) -> None:
        self.lead = lead
        self.name_width = max([width(n) for n in names] + [4])
        self.low = -min([ZERO, *lows])
        self.high = max([ZERO, *highs])
        room = max(MIN_BAR, total - lead - self.name_width - 2 - 10)
        span = self.low + self.high
        self.scale = Fraction(room) / span if span else Fraction(0)
        self.left = round(self.low * self.scale)
        self.right = room - self.left

    def bar(self, name: str, parts: Sequence[tuple[Fraction, str, str]], number: str,
            prefix: str = "") -> Content:
        """`name  ░░│████▓▓  61`: the losses left of the zero line, the gains right of it, then the number."""
        losses = [(v, c, s) for v, c, s in parts if v < 0]
        gains = [(v, c, s) for v, c, s in parts if v > 0]
        out: list[Content | str | tuple[str, str]] = [ljust(prefix, self.lead), ljust(name, self.name_width), " "]
        if self.low:
            widths = cut(ZERO, [-v for v, _, _ in losses], self.scale)
            used = sum(widths)
            out.append(" " * (self.left - used))
            out.extend((c * w, s) for (_, c, s), w in reversed(list(zip(losses, widths, strict=True))))
            out.append(("│", "$foreground 40%"))
        widths = cut(ZERO, [v for v, _, _ in gains], self.scale)
        out.extend((c * w, s) for (_, c, s), w in zip(gains, widths, strict=True))
        out.append(" " * (self.right - sum(widths) + 1))
        out.append((rjust(number, 7), "bold"))
        return Content.assemble(*out)


def legend(labels: Sequence[str], looks: Sequence[tuple[str, str]], room: int) -> list[Content]:
    """`█ attractions  ▓ tickets …` wrapped to the width, each key in its share's look."""
    out: list[Content] = []
    line: list[Content] = []
    used = 0
    for label, (fill, colour) in zip(labels, looks, strict=True):
        part = Content.assemble((fill * 2, colour), " ", label, "  ")
        if line and used + part.cell_length > room:
            out.append(Content("").join(line))
            line, used = [], 0
        line.append(part)
        used += part.cell_length
    if line:
        out.append(Content("").join(line))
    return out


def wrap_words(parts: Sequence[str], room: int, indent: str) -> list[str]:
    """Parts joined with ` · ` and wrapped to the width, continuation lines indented."""
    out: list[str] = []
    line = indent
    for i, part in enumerate(parts):
        piece = part if i == 0 else " · " + part
        if width(line) + width(piece) > room and line.strip():
            out.append(line)
            line = indent + part
        else:
            line += piece
    out.append(line)
    return out


def category_chart(sheet: Sheet, total: int) -> list[Content]:
    """A bar per player split by category share, with the total, and the shares in numbers beneath."""
    splits: list[Split] = by_category(sheet)
    gained = {label for split in splits for label, value in split.shares if value > 0}
    lost = {label for split in splits for label, _ in split.shares} - gained
    order = groups(sheet)
    labels = [g for g in order if g in gained] + [g for g in order if g in lost]
    gains = sum(1 for g in labels if g in gained)
    looks = [look(i) if i < gains else look(i, i - gains) for i in range(len(labels))]
    names = [inert(s.player) for s in splits]
    layout = Layout(names, [s.negative() for s in splits], [s.positive() for s in splits], total)
    out = [Content.styled("Where the points came from", "bold $text-accent")]
    out.extend(legend(labels, looks, total))
    indent = " " * (layout.name_width + 1)
    for name, split in zip(names, splits, strict=True):
        ordered = sorted(split.shares, key=lambda share: labels.index(share[0]))
        parts = [(v, *looks[labels.index(label)]) for label, v in ordered]
        out.append(layout.bar(name, parts, points(split.total)))
        shares = [f"{label} {points(v)}" for label, v in ordered] or ["nothing scored"]
        out.extend(Content.styled(line, "$text-muted") for line in wrap_words(shares, total, indent))
    return out


def running_chart(sheet: Sheet, total: int) -> list[Content]:
    """Per round, each player's total after it as a bar (the round's points beside it), leaders marked."""
    steps: list[Step] = running_totals(sheet)
    players = sheet.session.players
    names = [inert(p) for p in players]
    lead = max(width(f"Round {s.number}") for s in steps) + 2
    if any(s.extra for s in steps):
        lead = max(lead, width("(extra)") + 2)
    lows = [v for s in steps for v in s.totals.values()]
    layout = Layout(names, lows, lows, total - 12, lead)
    out = [Content.styled("Running totals, round by round", "bold $text-accent")]
    for step in steps:
        leaders = step.leaders()
        for i, (player, name) in enumerate(zip(players, names, strict=True)):
            fill, colour = "█", PLAYER_COLOURS[i % len(PLAYER_COLOURS)]
            value = step.totals[player]
            head = f"Round {step.number}" if i == 0 else "(extra)" if i == 1 and step.extra else ""
            row = layout.bar(name, [(value, fill, colour)], points(value), head)
            gained = f"+{points(step.gained[player])}" if step.gained[player] >= 0 else points(step.gained[player])
            note = "  leads" if player in leaders and len(leaders) == 1 else "  tied" if player in leaders else ""
            out.append(row + Content.styled(f" {gained:>6}", "$text-muted") + Content.styled(note, "italic"))
        if not step.complete:
            out.append(Content.styled(f"{' ' * lead}round {step.number} is not finished", "$text-muted"))
    return out


def chart_lines(sheet: Sheet, total: int) -> list[Content]:
    """Both charts at a width: running totals when the game had more than one round, then the categories."""
    out: list[Content] = []
    if len(sheet.rounds) > 1:
        out.extend(running_chart(sheet, total))
        out.append(Content(""))
    if sheet.rounds:
        out.extend(category_chart(sheet, total))
    else:
        out.append(Content.styled("No round scored yet: nothing to draw.", "$text-muted"))
    return out


class ScoreCharts(Widget):
    """The charts of a scored session, drawn at the widget's width."""

    DEFAULT_CSS = """
    ScoreCharts {
        height: auto;
    }
    """

    def __init__(self, sheet: Sheet | None = None, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.sheet = sheet

    def show(self, sheet: Sheet) -> None:
        """Draw another score sheet."""
        self.sheet = sheet
        self.refresh(layout=True)

    def lines(self, total: int) -> list[Content]:
        """The chart's lines at a width (none without a sheet)."""
        return chart_lines(self.sheet, total) if self.sheet is not None else []

    def plain(self) -> str:
        """The chart as plain text at the widget's width (for tests and the clipboard)."""
        return "\n".join(line.plain.rstrip() for line in self.lines(self.content_region.width or 80))

    def render(self) -> Content:
        """The charts at the widget's width."""
        return Content("\n").join(self.lines(self.content_region.width or self.size.width))

    def get_content_height(self, container, viewport, width: int) -> int:  # type: ignore[no-untyped-def]
        """As many lines as the charts take at this width."""
        return len(self.lines(width))
