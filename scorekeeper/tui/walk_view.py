"""The walkthrough's small widgets, each drawn from one reactive value of its `WalkState`: the step's heading, the
notes, the table of points and the list of steps. The screen sets the values; a widget redraws when its value
changed (the values are plain data, compared as such)."""

from __future__ import annotations

from fractions import Fraction

from rich.cells import cell_len
from textual.content import Content
from textual.reactive import reactive
from textual.widgets import Static

from scorekeeper import walk
from scorekeeper.model.text import inert
from scorekeeper.tui.render import lines, pad, problem_line, text_line
from scorekeeper.tui.widgets.hanging import Hanging, Line
from scorekeeper.tui.widgets.steps import StepList
from scorekeeper.walk.state import DONE, REFUSED, WARNED, Heading, Notes, Scores


def heading_content(heading: Heading) -> Content:
    """The round, the step and who starts; below, the step's question (and a warning of the step just left: in the
    page, where it hides nothing being typed, not in a toast over the grid)."""
    head = Content.assemble(
        (heading.round, "bold"), " · ", (heading.step, "bold $text-accent"),
        ("  ", ""), (inert(heading.first), "bold"), (" starts", "dim"), "\n", (heading.help, "dim"))
    left = heading.left
    if left is None:
        return head
    more = f" (and {left.more} more)" if left.more else ""
    return head + "\n" + Content.assemble(("⚠ ", "$text-warning"), (f"{left.step}: ", "bold"),
                                          inert(left.message) + more, ("  PageUp goes back", "dim"))


def notes_lines(notes: Notes) -> list[Line]:
    """The step's problems about no single player, and on the summary what comes next."""
    out = [problem_line(p) for p in notes.problems]
    if notes.summary:
        if notes.next:
            out.append(text_line(Content.from_markup("Next: [b]$next[/b]  (Enter: standings)", next=notes.next)))
        elif notes.final:
            out.append(text_line(Content.from_markup("Final result: [b]$r[/b]  (Enter: standings)",
                                                     r=notes.final)))
        else:
            out.append(text_line(Content.styled("Enter: standings", "dim")))
    return out


def scores_content(scores: Scores) -> Content:
    """The points before this round, this round's and the totals."""
    number = scores.number
    width = max([cell_len(row[0]) for row in scores.rows] + [6])
    title = Content.assemble(("Scores", "bold"), (f" (this round is R{number})", "dim"))
    head = pad("", width + 2) + (pad("before", 8, right=True) if scores.before else "") \
        + pad(f"R{number}", 7, right=True) + (pad("after", 8, right=True) if scores.after else "") \
        + pad("Total", 8, right=True)
    out = [title, Content.styled(head, "bold")]
    for player, before, now, after, early in scores.rows:
        shown_before = pad(walk.points(before), 8, right=True) if scores.before else ""
        shown_after = pad(walk.points(after), 8, right=True) if scores.after else ""
        text = "  " + pad(inert(player), width) + shown_before + pad(walk.points(now), 7, right=True) + shown_after
        total = before + now + (after if scores.after else Fraction(0))
        out.append(Content.assemble(text, (pad(walk.points(total), 8, right=True), "bold"),
                                    ("*" if early else "", "$text-warning")))
    if any(row[4] for row in scores.rows):
        out.append(Content.styled("* with the Longest Path bonus: provisional until every player's routes are in",
                                  "$text-warning"))
    return lines(out)


MARKS = {DONE: ("✓ ", "$text-success"), WARNED: ("⚠ ", "$text-warning"), REFUSED: ("✗ ", "$text-error")}


def step_titles(marks: tuple[tuple[str, str], ...]) -> list[Content]:
    """The side list's lines: each step's mark and title."""
    return [Content.assemble(MARKS.get(mark, ("  ", "")), title) for mark, title in marks]


class StepHeading(Static):
    """The step's heading (a click on it opens the list of steps)."""

    heading: reactive[Heading] = reactive(Heading("", "", "", "", None), init=False)

    def __init__(self, heading: Heading, *, id: str | None = None) -> None:
        super().__init__(heading_content(heading), id=id)
        self.set_reactive(StepHeading.heading, heading)

    def watch_heading(self, heading: Heading) -> None:
        """Drawn again."""
        self.update(heading_content(heading))


class StepNotes(Hanging):
    """The step's notes: its problems about no single player, and on the summary what comes next."""

    notes: reactive[Notes] = reactive(Notes((), False), init=False)

    def __init__(self, notes: Notes, *, id: str | None = None) -> None:
        super().__init__(notes_lines(notes), id=id)
        self.set_reactive(StepNotes.notes, notes)

    def watch_notes(self, notes: Notes) -> None:
        """Drawn again."""
        self.set(notes_lines(notes))


class ScoreTable(Static):
    """The table of points of the round: before it, in it, after it, and the totals."""

    scores: reactive[Scores] = reactive(Scores(0, (), False, False), init=False)

    def __init__(self, scores: Scores, *, id: str | None = None) -> None:
        super().__init__(scores_content(scores), id=id)
        self.set_reactive(ScoreTable.scores, scores)

    def watch_scores(self, old: Scores, new: Scores) -> None:
        """Drawn again (laid out again only when it has another number of lines)."""
        self.update(scores_content(new), layout=len(old.rows) != len(new.rows) or
                    any(r[4] for r in old.rows) != any(r[4] for r in new.rows))


class RoundSteps(StepList):
    """The round's steps down one side, each with its mark; the step shown highlighted."""

    marks: reactive[tuple[tuple[tuple[str, str], ...], int]] = reactive(((), 0), init=False)
    """Each step's (mark, title), and the step shown."""

    def __init__(self, marks: tuple[tuple[str, str], ...], current: int, *, id: str | None = None) -> None:
        super().__init__(step_titles(marks), current, id=id)
        self.set_reactive(RoundSteps.marks, (marks, current))

    def watch_marks(self, marks: tuple[tuple[tuple[str, str], ...], int]) -> None:
        """Drawn again."""
        self.show(step_titles(marks[0]), marks[1])
