"""Content builders shared by the screens: user text is always a variable or plain text, never markup."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from fractions import Fraction

from rich.cells import cell_len
from textual.content import Content

from scorekeeper.games.base import Item, Sheet
from scorekeeper.model.session import Problem
from scorekeeper.model.text import inert
from scorekeeper.tui.widgets.hanging import Line
from scorekeeper.walk import points


def pad(text: str, width: int, right: bool = False) -> str:
    """Text padded to a width in cells (names may hold wide characters)."""
    gap = max(0, width - cell_len(text))
    return " " * gap + text if right else text + " " * gap


def problem_line(problem: Problem, prefix: str = "") -> Line:
    """`✗ message` in the error colour, `⚠ message` in the warning colour."""
    if problem.is_error:
        return Content.styled("✗ ", "$text-error"), Content.styled(inert(prefix + problem.shown), "$text-error")
    return Content.styled("⚠ ", "$text-warning"), Content.styled(inert(problem.shown), "$text-warning")


def item_line(item: Item, width: int = 4) -> Line:
    """`  +8  most #8 (5 cards; next best 3): 8`, points coloured by sign."""
    style = "$text-success" if item.points > 0 else "$text-error"
    lead = Content.assemble((pad(points(item.points, signed=True), width, right=True), style), "  ")
    return lead, Content(inert(item.why))


def text_line(text: Content | str) -> Line:
    """A line with no lead."""
    return Content(""), text if isinstance(text, Content) else Content(inert(text))


def joined(parts: Iterable[Line]) -> Content:
    """Lines as one Content (no hanging indent), for a Static."""
    return lines(lead + text for lead, text in parts)


def lines(parts: Iterable[Content]) -> Content:
    """Content lines joined by newlines."""
    return Content("\n").join(list(parts))


def scores_table(sheet: Sheet, players: Sequence[str], rounds: Sequence[int], *, place: bool = True,
                 mark: dict[str, str] | None = None, column: int = 7) -> Content:
    """Players down, rounds across, then the total (and the place): aligned plain columns (`column` wide: 5 on a
    phone)."""
    width = max([cell_len(inert(p)) for p in players] + [6])
    places = {p: pl.place for pl in sheet.ranking for p in pl.players}
    head = [pad("", width + 2)] + [pad(f"R{n}", column, right=True) for n in rounds] \
        + [pad("Total", column + 1, right=True)]
    if place:
        head.append(pad("Place", max(column, 6), right=True))
    out = [Content.styled("".join(head), "bold")]
    for p in players:
        row: list[Content | str | tuple[str, str]] = [(mark or {}).get(p, "  "), pad(inert(p), width)]
        for n in rounds:
            value = sheet.rounds[n - 1].points[p] if n <= len(sheet.rounds) else Fraction(0)
            row.append(pad(points(value), column, right=True))
        row.append((pad(points(sheet.totals[p]), column + 1, right=True), "bold"))
        if place:
            row.append(pad(str(places.get(p, "")), max(column, 6), right=True))
        out.append(Content.assemble(*row))
    return lines(out)
