"""The scoring walkthrough of one round: the steps down one side, one input per player, live reasons."""

from __future__ import annotations

from collections.abc import Iterator
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.widget import Widget
from textual.widgets import Label, Static

from scorekeeper import games
from scorekeeper.games.base import Sheet, Step
from scorekeeper.session import Problem, Session
from scorekeeper.tui import mapmode, walk
from scorekeeper.tui.render import item_line, lines, problem_line, scores_table, text_line
from scorekeeper.tui.screens.base import SessionScreen
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.editors import Editor, editor_for
from scorekeeper.tui.widgets.hanging import Hanging, Line
from scorekeeper.tui.widgets.steps import StepList

if TYPE_CHECKING:
    from scorekeeper.tui.app import ScorekeeperApp
    from scorekeeper.tui.document import Document

def slot_width(slot: walk.Slot, narrow: bool = False) -> int:
    """The width of a slot's column: its header's (its longest word when narrow: the label wraps)."""
    least = {walk.INT: 6, walk.BOOL: 9, walk.CARDS: 40, walk.COUNTS: 4 * len(getattr(slot.field, "keys", ()))}
    words = slot.label.split() if narrow else [slot.label]
    label = max([cell_len(word) for word in words] + [len(slot.allowed())]) + 1
    return max(least.get(slot.kind, 20), label)


DEFAULTS = {walk.INT: 0, walk.BOOL: False, walk.CARDS: [], walk.COUNTS: {}, walk.NAMES: []}
"""What Enter on an empty input confirms."""


def path_content(cities: list[str], dim: bool = False) -> Content:
    """A path drawn city by city: `Denver ━ Kansas City ━ Saint Louis`."""
    style = "dim" if dim else "bold"
    parts: list[Content] = []
    for i, city in enumerate(cities):
        if i:
            parts.append(Content.styled(" ━ ", "$text-accent" if not dim else "dim"))
        parts.append(Content.styled(city, style))
    return Content.assemble(*parts)


class PlayerRow(Vertical):
    """A player's line of a step: the name, the inputs, and what the player scores and why.

    With few inputs the reasons stand beside them; with many (`stacked`), below them.
    """

    def __init__(self, player: str, editors: list[Widget], first: bool, name_width: int,
                 live: list[Line] | None = None, stacked: bool = False) -> None:
        super().__init__(classes="player-row stacked" if stacked else "player-row")
        self.player = player
        self.editors = editors
        self.first = first
        self.name_width = name_width
        self.stacked = stacked
        self.live = Hanging(live or (), classes="live")

    def compose(self) -> ComposeResult:
        marker = "▸ " if self.first else "  "
        label = Label(Content.assemble((marker, "$text-accent"), self.player), classes="name")
        label.styles.width = self.name_width
        if not self.stacked:
            yield label
            yield from self.editors
            yield self.live
            return
        with Horizontal(classes="player-inputs"):
            yield label
            yield from self.editors
        self.live.styles.margin = (0, 0, 0, self.name_width)
        yield self.live


class WalkthroughScreen(SessionScreen):
    """One round, step by step in the rulebook's order; every accepted value is saved at once."""

    BINDINGS = [
        Binding("escape", "standings", "Standings", id="standings"),
        Binding("pageup", "step(-1)", "Prev step", id="prev-step", priority=True),
        Binding("pagedown", "step(1)", "Next step", id="next-step", priority=True),
        Binding("enter", "next", "Next", id="next"),
        Binding("ctrl+l", "focus_steps", "Steps list", show=False, id="steps"),
    ]

    app: ScorekeeperApp

    def __init__(self, doc: Document, number: int, index: int = 0) -> None:
        super().__init__()
        self.doc = doc
        self.number = number
        self.index = index
        self.game = games.get(doc.session.game)
        self.editors: list[Any] = []
        self.rows: list[PlayerRow] = []
        self.rejected: dict[tuple[str, str, str | None], tuple[Any, list[Problem]]] = {}
        self.problems: list[Problem] = []
        self.sheet: Sheet | None = None
        self._building = False
        self._steps: tuple[dict[str, Any], tuple[Step, ...]] | None = None
        self._map: tuple[dict[str, Any], Any] | None = None

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        self.title = self.session.title or self.game.name
        self.sub_title = self.game.name if self.session.title else None
        self.rescore()
        self.index = max(0, min(self.index, len(self.steps) - 1))
        yield TitleBar()
        with Horizontal(id="walk"):
            yield StepList(self.step_titles(), self.index, id="steps")
            with Vertical(id="step"):
                yield Static(self.heading(), id="step-title")
                yield VerticalScroll(*self.build_rows(live=True), id="rows")
                yield Hanging(self.notes(), id="step-notes")
                yield Static(self.table(), id="round-table")
        yield KeyBar()

    @property
    def session(self) -> Session:
        """The session as saved now."""
        return self.doc.session

    @property
    def steps(self) -> tuple[Step, ...]:
        """The round's steps (a house rule may change them)."""
        rules = self.session.rules
        if self._steps is None or self._steps[0] is not rules:
            self._steps = (rules, self.game.steps(self.session))
        return self._steps[1]

    @property
    def game_map(self) -> Any:
        """The map the session is played on (its routes and tickets are named by their cities), or None."""
        rules = self.session.rules
        if self._map is None or self._map[0] is not rules:
            self._map = (rules, mapmode.map_of(self.game, self.session))
        return self._map[1]

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.steps[self.index]

    def slots_of(self, step: Step) -> tuple[walk.Slot, ...]:
        """The inputs of a step."""
        return walk.slots(self.game, self.session, step)

    def on_mount(self) -> None:
        """Focus the first input left to fill."""
        self.focus_start(None)

    def rescore(self) -> None:
        """Problems and score sheet of the saved session."""
        self.problems = self.doc.problems()
        self.sheet = self.doc.sheet()

    # -- steps --------------------------------------------------------------------------
    def go(self, index: int, focus: tuple[str, str, str | None] | None = None, rebuild: bool = False) -> None:
        """Show step `index`: at once when its inputs have the shape of the step shown, else rebuilt."""
        index = max(0, min(index, len(self.steps) - 1))
        shown = [e.slot.kind for e in self.editors]
        slots = self.slots_of(self.steps[index])
        same = bool(slots) and all(s.kind in (walk.INT, walk.BOOL) for s in slots) \
            and shown == [s.kind for s in slots] * len(self.session.players) and not self._building and not rebuild
        if same:
            self.index = index
            self.rebind(focus)
        else:
            self._building = True
            self.run_worker(self.show_step(index, focus), exclusive=True, group="step")

    def head(self, slots: tuple[walk.Slot, ...]) -> Content:
        """The column headers of a step, over the inputs: each input's label (wrapped to its column) and
        below it the allowed range (or, for counts by number, the numbers)."""
        columns: list[tuple[int, list[Content]]] = []
        narrow = len(slots) > 3
        for slot in slots:
            width = slot_width(slot, narrow)
            if slot.kind == walk.COUNTS:
                below = "".join(f"{k:<4}" for k in getattr(slot.field, "keys", ()))
            else:
                below = slot.allowed()
            cells = Content.styled(slot.label, "bold").wrap(width)
            if below:
                cells.append(Content.styled(below, "dim"))
            columns.append((width + 1, cells))
        height = max((len(cells) for _, cells in columns), default=0)
        rows = []
        for i in range(height):
            row = Content(" " * self.name_width())
            for width, cells in columns:
                cell = cells[i] if i < len(cells) else Content("")
                row += cell + Content(" " * max(0, width - cell.cell_length))
            rows.append(row)
        return Content("\n").join(rows)

    def heading(self) -> Content:
        """The round, the step and the first player; below, the step's question."""
        first = walk.first_player(self.game, self.session, self.sheet, self.number) if self.sheet else None
        return Content.assemble(
            (walk.round_title(self.game, self.session, self.number), "bold"), " · ",
            (self.step.title, "bold $text-accent"),
            ("  " + (f"first player: {first}" if first else ""), "dim"), "\n", (self.step.help, "dim"))

    def show_heading(self) -> None:
        """The round, the step, the first player, the step's question."""
        self.query_one("#step-title", Static).update(self.heading())

    def rebind(self, focus: tuple[str, str, str | None] | None) -> None:
        """Point the inputs shown at the step's slots (a step of the same shape: no widgets rebuilt)."""
        step = self.step
        slots = self.slots_of(step)
        rnd = self.session.round(self.number)
        self.show_heading()
        self.rejected = {}
        self.query_one(".head-row", Static).update(self.head(slots))
        for i, editor in enumerate(self.editors):
            slot = slots[i % len(slots)]
            editor.slot = slot
            editor.styles.width = slot_width(slot, len(slots) > 3)
            editor.show(walk.value_of(rnd.entry(editor.player), slot))
        self.refresh_steps()
        self.refresh_live()
        self.focus_start(focus)

    def focus_start(self, focus: tuple[str, str, str | None] | None) -> None:
        """Focus the input asked for, else the first one left to fill."""
        target = self.editor_at(focus) if focus else self.first_open_editor()
        if target is not None:
            target.enter()
        else:
            self.set_focus(None)

    def build_rows(self, live: bool = False) -> list[Widget]:
        """The header row and a row per player for the step shown (self.editors and self.rows are set)."""
        step = self.step
        slots = self.slots_of(step)
        rnd = self.session.round(self.number)
        first = walk.first_player(self.game, self.session, self.sheet, self.number) if self.sheet else None
        self.editors = []
        self.rows = []
        self.rejected = {}
        widgets: list[Widget] = []
        game_map = self.game_map
        stacked = sum(slot_width(slot, len(slots) > 3) + 1 for slot in slots) > 56 or \
            (game_map is not None and any(s.key in ("claimed", "tickets") for s in slots))
        if slots:
            head = self.head(slots)
            if walk.either(step) and len(slots) > 1:
                head += Content.styled("  give one or the other", "dim italic")
            widgets.append(Static(head, classes="head-row"))
        for player in self.session.players:
            editors: list[Widget] = []
            for slot in slots:
                editor = editor_for(player, slot, walk.value_of(rnd.entry(player), slot), game_map)
                if slot.kind in (walk.INT, walk.BOOL):
                    editor.styles.width = slot_width(slot, len(slots) > 3)
                editors.append(editor)
                self.editors.append(editor)
            row = PlayerRow(player, editors, player == first, self.name_width(),
                            self.live_lines(player, editors) if live else None, stacked)
            self.rows.append(row)
            widgets.append(row)
        return widgets

    async def show_step(self, index: int, focus: tuple[str, str, str | None] | None = None) -> None:
        """Build step `index` (its inputs filled from the session) and focus the first input left to fill."""
        self._building = True
        self.index = max(0, min(index, len(self.steps) - 1))
        self.show_heading()
        container = self.query_one("#rows", VerticalScroll)
        await container.remove_children()
        await container.mount_all(self.build_rows())
        self._building = False
        self.refresh_steps()
        self.refresh_live()
        self.focus_start(focus)

    def name_width(self) -> int:
        """The width of the names column: the longest name, the first-player mark and a gap."""
        return max(10, max(cell_len(p) for p in self.session.players) + 4)

    def first_open_editor(self) -> Any:
        """The first input of the step not entered yet (else the first input)."""
        rnd = self.session.round(self.number)
        step = self.step
        for editor in self.editors:
            if not walk.player_done(self.session, self.number, step, self.slots_of(step), editor.player):
                if walk.either(step) or not walk.has(rnd.entry(editor.player), editor.slot):
                    return editor
        return self.editors[0] if self.editors else None

    def editor_at(self, where: tuple[str, str, str | None]) -> Any:
        """The editor of a player's slot (or the player's first one)."""
        player, key, sub = where
        mine = [e for e in self.editors if e.player == player]
        for e in mine:
            if e.slot.key == key and (sub is None or e.slot.sub in (None, sub)):
                return e
        return mine[0] if mine else None

    def step_titles(self) -> list[Content]:
        """The side list: every step, a tick on those done, a warning sign on those with a warning."""
        titles = []
        before = True
        for step in self.steps:
            slots = self.slots_of(step)
            done = walk.step_done(self.session, self.number, step, slots) and step.id != "summary" and \
                (bool(slots) or before)
            before = before and done
            mark = ("✓ ", "$text-success") if done else ("  ", "")
            if done and self.step_warnings(step):
                mark = ("⚠ ", "$text-warning")
            titles.append(Content.assemble(mark, step.title))
        return titles

    def refresh_steps(self) -> None:
        """The side list: ticks and the current step."""
        self.query_one("#steps", StepList).show(self.step_titles(), self.index)

    def live_lines(self, player: str, editors: list[Any]) -> list[Line]:
        """A player's points and reasons for the step, and the problems at their inputs."""
        assert self.sheet is not None
        step, number = self.step, self.number
        rnd_items = self.sheet.rounds[number - 1].items if number <= len(self.sheet.rounds) else []
        summary = step.id == "summary"
        slots = self.slots_of(step)
        entry = self.session.round(number).entry(player)
        mine = [i for i in rnd_items if i.player == player]
        if step.id == "longest-path" and self.game_map is not None:
            parts = self.path_lines(player, mine, entry)
        else:
            parts = [item_line(i) for i in mine if summary or step.shows(i)]
        if summary:
            total = self.sheet.rounds[number - 1].points[player] if number <= len(self.sheet.rounds) else Fraction(0)
            parts.append(text_line(Content.styled(f"= {walk.points(total)} this round", "bold")))
        for problem in self.problems:
            if problem.round != number or problem.player != player:
                continue
            if summary or any(walk.at_slot(problem, number, player, s) and
                              (walk.has(entry, s) or problem.is_error) for s in slots):
                parts.append(problem_line(problem))
        for editor in editors:
            key = (player, editor.slot.key, editor.slot.sub)
            card_lines: dict[int, str] = {}
            for problem in self.rejected.get(key, (None, []))[1]:
                rest = walk.rest_of(problem, number, player, editor.slot.key) if problem.player == player else None
                line = walk.line_of(rest) if rest else None
                if line is not None and editor.slot.kind in (walk.CARDS, walk.NAMES):
                    card_lines[line] = problem.message
                parts.append(problem_line(problem, "not saved: "))
            if isinstance(editor, Editor) and (card_lines or editor.slot.kind in (walk.CARDS, walk.NAMES)):
                editor.mark_lines(card_lines)
            if isinstance(editor, Editor):
                editor.show_items(mine)
        return parts

    def path_lines(self, player: str, items: list[Any], entry: dict[str, Any]) -> list[Line]:
        """On a map: the bonus with its path city by city (the core's item), or the player's own longest path."""
        out: list[Line] = []
        bonus = [i for i in items if i.category == "longest-path"]
        for item in bonus:
            sentence, cities = mapmode.path_of(item.why)
            lead, _ = item_line(item)
            out.append((lead, Content(sentence)))
            if cities:
                out.append((Content("      "), path_content(cities)))
        if not bonus:
            length, cities = mapmode.trail(self.game_map, entry.get("claimed", []))
            trains = "1 train" if length == 1 else f"{length} trains"
            text = f"longest continuous path {trains}, no bonus" if length else "no routes claimed, no path"
            out.append((Content.styled("   0  ", "dim"), Content.styled(text, "dim")))
            if cities:
                out.append((Content("      "), path_content(cities, dim=True)))
        return out

    def notes(self) -> list[Line]:
        """The step's problems about no single player, and on the summary what comes next."""
        assert self.sheet is not None
        step, number = self.step, self.number
        summary = step.id == "summary"
        done = walk.step_done(self.session, number, step, self.slots_of(step))
        notes = [problem_line(p) for p in walk.round_problems(self.problems, number, step, self.steps)
                 if p.is_error or done or summary]
        if summary and self.sheet.next:
            notes.append(text_line(Content.from_markup("Next: [b]$next[/b]  (Enter: standings)",
                                                       next=self.sheet.next)))
        elif summary and self.sheet.complete:
            notes.append(text_line(Content.from_markup("Final result: [b]$r[/b]  (Enter: standings)",
                                                       r=walk.result_text(self.sheet))))
        return notes

    def table(self) -> Content:
        """The points of every round so far and the totals."""
        assert self.sheet is not None
        shown = list(range(1, max(len(self.sheet.rounds), self.number) + 1))
        title = Content.from_markup("[b]Scores[/b] [dim](this round is R$n)[/dim]", n=str(self.number))
        return lines([title, scores_table(self.sheet, self.session.players, shown, place=False)])

    def refresh_live(self) -> None:
        """Each player's points and reasons, the problems at their inputs, the notes, the round's table."""
        if self.sheet is None or self._building:
            return
        for row in self.rows:
            row.live.set(self.live_lines(row.player, row.editors))
        self.query_one("#step-notes", Hanging).set(self.notes())
        self.query_one("#round-table", Static).update(self.table())

    # -- editing ------------------------------------------------------------------------
    @on(Editor.Edited)
    def edited(self, event: Editor.Edited) -> None:
        """A value typed or confirmed: check it with the core, save it when it has no error."""
        event.stop()
        if self._building:
            return
        editor = event.editor
        slot: walk.Slot = editor.slot
        player = editor.player
        value = event.value
        step = self.step
        entry = self.session.round(self.number).entry(player)
        if event.confirm and value is None:
            others = [s for s in self.slots_of(step) if s != slot and walk.has(entry, s)]
            if walk.either(step) and others:
                self.advance(editor)
                return
            value = DEFAULTS.get(slot.kind)
            if slot.kind == walk.COUNTS and walk.either(step):
                value = None
            if value is not None and slot.kind in (walk.INT, walk.BOOL):
                editor.show(value)
        self.try_save(editor, value, event.confirm)
        if getattr(event, "boundary", False):  # a line of a list was confirmed: the next edit is a new undo step
            self.doc.boundary()

    def try_save(self, editor: Any, value: Any, confirm: bool) -> bool:
        """Save the editor's value when the session stays free of errors; else show why at the field."""
        key = (editor.player, editor.slot.key, editor.slot.sub)
        candidate = walk.with_slot(self.session, self.number, editor.player, editor.slot, value)
        if candidate == self.session:
            self.rejected.pop(key, None)
            self.refresh_live()
            if confirm:
                self.doc.boundary()
                self.advance(editor)
            return True
        found = walk.validate(candidate)
        errors = walk.errors(found)
        if errors:
            self.rejected[key] = (value, errors)
            self.refresh_live()
            return False
        self.rejected.pop(key, None)

        def saved(ok: bool) -> None:
            if not ok:
                return
            self.after_change()
            if confirm:
                self.doc.boundary()
                self.advance(editor)

        self.app.save(candidate, (self.number, *key), saved)
        return True

    def after_change(self) -> None:
        """After a save: retry values refused before (they may fit now), rescore, refresh."""
        self.rescore()
        for key, (value, _) in list(self.rejected.items()):
            editor = self.editor_at(key)
            if editor is None or (editor.slot.key, editor.slot.sub) != key[1:]:
                continue
            candidate = walk.with_slot(self.session, self.number, editor.player, editor.slot, value)
            found = walk.validate(candidate)
            if not walk.errors(found):
                del self.rejected[key]
                self.app.save(candidate, (self.number, *key), lambda ok: self.rescore() if ok else None)
        self.rescore()
        self.refresh_steps()
        self.refresh_live()

    def step_warnings(self, step: Step | None = None) -> list[Problem]:
        """The warnings shown at a step (this one by default): in its notes and at its players' inputs."""
        step = step or self.step
        number = self.number
        slots = self.slots_of(step)
        found = [p for p in walk.round_problems(self.problems, number, step, self.steps) if not p.is_error]
        for p in self.problems:
            if not p.is_error and p.round == number and p.player is not None and \
                    any(walk.at_slot(p, number, p.player, s) for s in slots):
                found.append(p)
        return found

    def advance(self, editor: Any) -> None:
        """Enter was accepted: the next input, or the next step (a new warning stops it once, to be read)."""
        index = self.editors.index(editor) if editor in self.editors else -1
        if 0 <= index < len(self.editors) - 1:
            self.editors[index + 1].enter()
            return
        warnings = self.step_warnings()
        if warnings:
            self.notify("\n".join(p.message for p in warnings), title=f"Check {self.step.title}",
                        severity="warning", markup=False, timeout=8)
        self.go(self.index + 1)

    @on(Editor.Move)
    def move(self, event: Editor.Move) -> None:
        """Up/down: the same input of the previous/next player."""
        event.stop()
        editor = event.editor
        same = [e for e in self.editors if e.slot == editor.slot]
        index = same.index(editor) + event.delta
        if 0 <= index < len(same):
            same[index].enter()

    @on(StepList.Picked)
    def step_chosen(self, event: StepList.Picked) -> None:
        """A step picked from the side list."""
        event.stop()
        self.go(event.index)

    # -- actions ------------------------------------------------------------------------
    def action_step(self, delta: int) -> None:
        """The previous / next step."""
        target = self.index + delta
        if 0 <= target < len(self.steps):
            self.go(target)

    def action_next(self) -> None:
        """Enter outside an input: the next step; on the summary, the standings."""
        if self._building:
            return
        if self.step.id == "summary" or self.index == len(self.steps) - 1:
            self.action_standings()
        else:
            self.action_step(1)

    def action_standings(self) -> None:
        """The standings of the session."""
        self.app.show_standings()

    def action_focus_steps(self) -> None:
        """Focus the list of steps."""
        self.query_one("#steps", StepList).focus()

    def goto(self, number: int, index: int, focus: tuple[str, str, str | None] | None = None) -> None:
        """Show another round and step."""
        other = number != self.number
        self.number = number
        self.rescore()
        self.go(index, focus, rebuild=other)

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo or a reload changed the session: show where it changed."""
        self.rescore()
        where = walk.changed_at(old, new)
        if where is None:
            self.goto(self.number, self.index)
            return
        number, player, key, sub = where
        if number > len(new.rounds) and new.rounds:
            self.app.show_standings()
            return
        index = self.index if number == self.number else 0
        if key is not None:
            for i, step in enumerate(self.steps):
                if any(k == key and (sub is None or s in (None, sub)) for k, s in step.inputs):
                    index = i
                    break
        self.goto(number, index, (player, key, sub) if player and key else None)

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands for the command palette: every step of the round."""
        for i, step in enumerate(self.steps):
            yield f"Go to step: {step.title}", step.help or step.title, lambda i=i: self.goto(self.number, i)
        yield "Standings", "The rounds, totals and ranking", self.action_standings

