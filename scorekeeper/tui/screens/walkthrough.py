"""The scoring walkthrough of one round: the steps down one side, one input per player, live reasons.

The cursor (step, player, input, line) is state of this screen, moved by each key as it comes; the step grid
owns the keyboard and hands every key here, so a key always lands where the screen shows the cursor. An
accepted value changes the session at once (checked and scored for its round only); the file follows, saved
in order once the keys that came together are applied.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.content import Content
from textual.geometry import Region
from textual.widget import Widget
from textual.widgets import Static

from scorekeeper import games, walk
from scorekeeper.games.base import Game, Item, Step, add_items
from scorekeeper.session import Problem, Session
from scorekeeper.text import inert
from scorekeeper.tui.render import item_line, lines, pad, problem_line, text_line
from scorekeeper.tui.screens.base import SessionScreen
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.editors import DOWN, EDIT, LINE, MOVE, NEXT, NOT_READY, UP, CountsEditor, Editor, Holder
from scorekeeper.tui.widgets.grid import StepGrid
from scorekeeper.tui.widgets.hanging import Hanging, Line, wrap
from scorekeeper.tui.widgets.kinds import STEP_WIDE, editor_class, editor_for, editor_kind
from scorekeeper.tui.widgets.steps import StepList

if TYPE_CHECKING:
    from scorekeeper.document import Document, Edit
    from scorekeeper.maps import GameMap
    from scorekeeper.tui.base import AppBase

NARROW = 100
"""Below this width the step list folds away: the inputs and their reasons keep the room."""

Where = tuple[str, str, str | None]
"""A player's input: (player, field key, key inside it)."""


def map_of(game: Game, session: Session) -> GameMap | None:
    """The session's map, if its game is played on one (the map code is imported only then)."""
    if getattr(game, "map_name", None) is None:
        return None
    from scorekeeper.mapmode import map_of as session_map

    return session_map(game, session)


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


def signature(contents: Iterable[Content]) -> tuple[Any, ...]:
    """What a piece of drawing shows, text and styles (Content compares its text only): to draw it only when it
    changed."""
    return tuple((c.plain, tuple(c.spans)) for c in contents)


class StepScroll(VerticalScroll, can_focus=False, inherit_bindings=False):
    """The step's column: it scrolls to keep the cursor in view; its keys are the grid's (no page scrolling)."""


@dataclass
class Spot:
    """A place the cursor can be: a player's input (player index, slot index), or a step-wide pick (player None)."""

    player: int | None
    slot: int


class WalkthroughScreen(SessionScreen):
    """One round, step by step in the rulebook's order; every accepted value is saved."""

    CSS_PATH = "../session.tcss"
    BINDINGS = [
        Binding("escape", "standings", "Standings", id="standings"),
        Binding("pageup", "step(-1)", "Prev step", id="prev-step"),
        Binding("pagedown", "step(1)", "Next step", id="next-step"),
        Binding("enter", "next", "Next", id="next"),
        Binding("ctrl+l", "focus_steps", "Steps list", show=False, id="steps"),
        Binding("ctrl+t", "list_key('flip')", "Done/failed", id="flip"),
        Binding("ctrl+r", "list_key('remove')", "Remove line", id="remove"),
        Binding("tab", "stay", "Complete", show=False, id="complete"),
        Binding("f2", "stay", "Edit box", show=False, id="edit"),
    ]

    HELP_TEXTS = {
        "standings": "the standings (what is typed is saved already)",
        "prev-step": "the previous step of the round", "next-step": "the next step of the round",
        "flip": "on a line of a card list: done ↔ failed", "remove": "on a line of a list: remove it",
    }
    """The screen's keys said more fully on the help screen."""

    AUTO_FOCUS = "#grid"
    """The keyboard goes to the grid (focused as it is mounted: no other widget is focused and styled first)."""

    TAB_MOVES = False
    """Tab stays in the step (it completes a name or goes box to box), it does not move between fields."""

    app: AppBase

    def __init__(self, doc: Document, number: int, index: int = 0) -> None:
        super().__init__()
        self.set_class(self.app.size.width < NARROW, "narrow", update=False)  # before the widgets are styled
        self.doc = doc
        self.number = number
        self.index = index
        self.game = games.get(doc.session.game)
        self.model: Session = doc.session
        self.base: Session = doc.session
        """The session of the document the model was made from (edits made since are merged into the newest)."""
        self.game_map = map_of(self.game, self.model)
        self.slots: tuple[walk.Slot, ...] = ()
        self.editors: dict[tuple[int, int], Editor] = {}
        self.holders: dict[int, Holder] = {}
        self.spots: list[Spot] = []
        self.at = 0
        self.rejected: dict[Where, list[Problem]] = {}
        self.problems: list[Problem] = []
        self.items: list[Item] = []
        self.points: dict[str, Fraction] = {}
        self.before: dict[str, Fraction] = {}
        self.after: dict[str, Fraction] = {}  # the points of the rounds after this one (none: the last round)
        self.pending: Edit | None = None
        self.passed: list[Edit] = []
        """The edits a burst made before the pending one (each its own undo step, saved with it)."""
        self.warned: set[int] = set()
        self.others: list[Problem] = []
        self.spans: dict[str, tuple[int, int]] = {}
        self.drawn: tuple[Any, ...] = ((), (), (), -1)
        self._plan: tuple[dict[str, Any], tuple[Step, ...], list[tuple[walk.Slot, ...]]] | None = None
        self._head: tuple[tuple[int, tuple[int, ...], int], list[Content]] | None = None
        self._table: tuple[object, Content] | None = None
        self._rows: dict[tuple[object, ...], list[Content]] = {}
        self._titles: tuple[object, list[Content]] | None = None
        self.first = self.model.players[0]
        self.left: Content | None = None
        self.refused: list[Problem] = []

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        self.title = self.model.title or self.game.name
        self.sub_title = self.game.name if self.model.title else None
        self.start_round()
        self.index = max(0, min(self.index, len(self.steps) - 1))
        self.load_step(self.index)
        yield TitleBar()
        yield StepList(self.step_titles(), self.index, id="steps")  # side by side: the screen's layout is horizontal
        with StepScroll(id="step"):
            yield Static(self.heading(), id="step-title")
            yield StepGrid(self, id="grid")
            yield Hanging(self.notes(), id="step-notes")
            yield Static(self.table(), id="round-table")
        yield KeyBar()

    def on_mount(self) -> None:
        """The keyboard goes to the grid."""
        self.query_one(StepGrid).focus()

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """The grid keeps its cursor in view itself (`draw_grid`): focusing it never scrolls the page (the
        auto-focus comes before the first layout, and scrolled the step's heading away)."""
        super().set_focus(widget, scroll_visible and not isinstance(widget, StepGrid), from_app_focus)

    def on_resize(self) -> None:
        """Narrow terminals fold the step list away."""
        self.set_class(self.size.width < NARROW, "narrow")

    @property
    def session(self) -> Session:
        """The session as typed now (the file follows it)."""
        return self.model

    @property
    def steps(self) -> tuple[Step, ...]:
        """The round's steps (a house rule may change them)."""
        return self.plan()[0]

    def plan(self) -> tuple[tuple[Step, ...], list[tuple[walk.Slot, ...]]]:
        """The round's steps and the inputs of each (worked out again only when the house rules change)."""
        rules = self.model.rules
        if self._plan is None or self._plan[0] is not rules:
            steps = self.game.steps(self.model)
            self._plan = (rules, steps, [walk.slots(self.game, self.model, step) for step in steps])
        return self._plan[1], self._plan[2]

    def slots_of(self, step: Step) -> tuple[walk.Slot, ...]:
        """The inputs of a step of the round."""
        steps, slots = self.plan()
        return next((slots[i] for i, s in enumerate(steps) if s is step), None) or \
            walk.slots(self.game, self.model, step)

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.steps[self.index]

    # -- the round: checked and scored alone ---------------------------------------------
    def start_round(self) -> None:
        """What the round starts from: the points before it, and the problems of the other rounds."""
        sheet = self.doc.sheet()
        self.before = {p: sum((r.points[p] for r in sheet.rounds[: self.number - 1]), Fraction(0))
                       for p in self.model.players}
        later = sheet.rounds[self.number:]  # editing an earlier round: the Total is still the game's
        self.after = {p: sum((r.points[p] for r in later), Fraction(0)) for p in self.model.players} if later else {}
        self.others = [p for p in self.doc.problems() if p.round != self.number]
        self.first = walk.first_player(self.game, self.model, sheet, self.number)
        self.rescore(self.model)

    def rescore(self, session: Session, problems: list[Problem] | None = None) -> None:
        """The round's problems, items and points (as much work in round 30 as in round 1)."""
        found = problems if problems is not None else walk.round_check(self.game, session, self.number)
        self.problems = self.others + found
        if self.number <= len(session.rounds) and not walk.errors(found):
            self.items = self.game.score_round(session, self.number)
        elif self.number > len(session.rounds):
            self.items = []
        self.points = add_items(session.players, self.items)

    # -- steps --------------------------------------------------------------------------
    def load_step(self, index: int, focus: Where | None = None) -> None:
        """The step's inputs from the session, and the cursor on the one asked for (else the first left to fill)."""
        self.index = max(0, min(index, len(self.steps) - 1))
        step = self.step
        self.slots = self.slots_of(step)
        rnd = self.model.round(self.number)
        players = self.model.players
        self.editors, self.holders, self.spots = {}, {}, []
        self.rejected = {}
        self.refused = []
        for s, slot in enumerate(self.slots):
            if slot.kind in STEP_WIDE:
                holder = Holder(slot, players)
                holder.load({p: walk.value_of(rnd.entry(p), slot) for p in players})
                self.holders[s] = holder
            for p, player in enumerate(players):
                self.editors[(p, s)] = editor_for(player, slot, walk.value_of(rnd.entry(player), slot),
                                                  self.game_map)
        self.spots = [Spot(p, s) for p in range(len(players)) for s in range(len(self.slots))
                      if s not in self.holders]
        self.spots += [Spot(None, s) for s in self.holders]
        self.at = self.spot_of(focus) if focus else self.first_open()
        self.arrive()
        self.mark_editors()

    def spot_of(self, where: Where) -> int:
        """The spot of a player's input (or of the player's first input)."""
        player, key, sub = where
        for i, spot in enumerate(self.spots):
            slot = self.slots[spot.slot]
            if spot.player is None and slot.key == key:
                return i
            if spot.player is not None and self.model.players[spot.player] == player and slot.key == key \
                    and (sub is None or slot.sub in (None, sub)):
                return i
        return next((i for i, s in enumerate(self.spots)
                     if s.player is not None and self.model.players[s.player] == player), 0)

    def first_open(self) -> int:
        """The first input of the step not entered yet (else the first one)."""
        rnd = self.model.round(self.number)
        step = self.step
        for i, spot in enumerate(self.spots):
            slot = self.slots[spot.slot]
            if spot.player is None:
                if not self.holders[spot.slot].given:
                    return i
                continue
            player = self.model.players[spot.player]
            if not walk.player_done(self.model, self.number, step, self.slots, player):
                if walk.either(step) or not walk.has(rnd.entry(player), slot):
                    return i
        return 0

    def go(self, index: int, focus: Where | None = None, left: Content | None = None) -> None:
        """Show step `index` (at once: the grid draws it from the session); `left`: a warning of the step just
        left, shown under the heading until the cursor leaves this step."""
        self.left = left
        self.load_step(index, focus)
        self.show_all()
        self.refresh_bindings()

    def show_all(self) -> None:
        """The heading, the grid, the notes, the table and the step list drawn again."""
        if not self.is_mounted:
            return
        self.query_one("#step-title", Static).update(self.heading())
        self.show_changed()

    def show_changed(self) -> None:
        """What a change of value may change: the grid, the notes, the table, the step list."""
        if not self.is_mounted:
            return
        self.draw_grid()
        notes, table, titles = self.notes(), self.table(), self.step_titles()
        drawn = (signature(c for line in notes for c in line), signature([table]), signature(titles), self.index)
        if drawn[0] != self.drawn[0]:
            self.query_one("#step-notes", Hanging).set(notes)
        if drawn[1] != self.drawn[1]:
            lines_before = len(self.drawn[1][0][0].splitlines()) if self.drawn[1] else -1
            self.query_one("#round-table", Static).update(table, layout=lines_before != len(table.plain.splitlines()))
        if drawn[2:] != self.drawn[2:]:
            self.query_one("#steps", StepList).show(titles, self.index)
        self.drawn = drawn

    def draw_grid(self) -> None:
        """The grid drawn again; when the cursor's rows moved, they are scrolled into view once laid out."""
        grid = self.query_one(StepGrid)
        if grid.update():
            self.call_after_refresh(self._scroll, *grid.block)

    def _scroll(self, top: int, bottom: int) -> None:
        grids, scrollers = self.query(StepGrid), self.query("#step").results(VerticalScroll)
        grid, scroller = grids.first() if grids else None, next(scrollers, None)
        if grid is None or scroller is None:
            return
        y = grid.virtual_region.y
        if top == 0:
            y = 0
            bottom += grid.virtual_region.y
        height = max(1, min(bottom - top + 1, scroller.scrollable_content_region.height))
        scroller.scroll_to_region(Region(0, y + top, 1, height), animate=False, immediate=True)

    # -- keys ---------------------------------------------------------------------------
    def key(self, key: str, char: str | None) -> bool:
        """A key at the cursor: applied to the input there, or moving the cursor. False: not the grid's key."""
        if not self.spots:
            if key == "enter":
                self.action_next()
                return True
            return self.screen_key(key)
        spot = self.spots[self.at]
        if spot.player is None:
            return self.pick(spot, key, char)
        editor = self.editors[(spot.player, spot.slot)]
        did = editor.key(key, char)
        if did is None:
            return self.screen_key(key)
        if did == MOVE:
            self.draw_grid()
        elif did in (EDIT, LINE):
            self.edited(editor, editor.value(), boundary=did == LINE)
        elif did == "refuse":
            self.edited(editor, editor.raw(), boundary=True)  # type: ignore[attr-defined]
        elif did == NEXT:
            self.confirm(editor)
        elif did in (UP, DOWN):
            self.move(-1 if did == UP else 1)
        return True

    def screen_key(self, key: str) -> bool:
        """A key of the screen or the app that moves through the session (a step, the standings, undo): run
        now, in its turn among the keys typed, not after them. Other keys go on to the bindings."""
        self.flush()
        if key in ("tab", "shift+tab") and self.spots:
            self.cycle(-1 if key == "shift+tab" else 1)  # Tab stays in the grid: round the player's row
            return True
        actions = {"pageup": lambda: self.action_step(-1), "pagedown": lambda: self.action_step(1),
                   "escape": self.action_standings, "ctrl+z": self.app.action_undo, "ctrl+y": self.app.action_redo}
        action = actions.get(key)
        if action is None:
            return False
        action()
        return True

    def click(self, y: int) -> None:
        """A click on a player's row: the cursor goes to the player (a holder pick takes the player)."""
        player = next((q for q, (start, end) in self.spans.items() if start <= y < end), None)
        if player is None or not self.spots:
            return
        p = self.model.players.index(player)
        spot = self.spots[self.at]
        if spot.player is None:
            self.pick(spot, str(p + 1), str(p + 1))
            return
        self.flush()
        self.at = next((i for i, s in enumerate(self.spots) if s.player == p and s.slot == spot.slot),
                       next((i for i, s in enumerate(self.spots) if s.player == p), self.at))
        self.arrive()
        self.draw_grid()

    def row_text(self, player: str) -> str:
        """A player's row as drawn: name, inputs and reasons (for tests)."""
        start, end = self.spans.get(player, (0, 0))
        return "\n".join(self.query_one(StepGrid).plain().splitlines()[start:end])

    def pick(self, spot: Spot, key: str, char: str | None) -> bool:
        """A step-wide pick (who holds a card there is one of): one key, then on."""
        holder = self.holders[spot.slot]
        did = holder.key(key, char)
        if did is None:
            return self.screen_key(key)
        if did == NEXT:
            values = holder.values()
            candidate = self.model
            for player, held in values.items():
                candidate = walk.with_slot(candidate, self.number, player, holder.slot, held)
            if self.accept(candidate, (self.number, "holder", holder.slot.key), boundary=True):
                holder.given = True
                for p, player in enumerate(self.model.players):
                    self.editors[(p, spot.slot)].load(values[player])
                self.advance()
                return True
        self.draw_grid()
        return True

    def edited(self, editor: Editor, value: Any, boundary: bool = False) -> None:
        """A value typed: into the session when the core finds no error in it, else its reason at the input."""
        if value is NOT_READY:
            self.rejected.pop(self.where(editor), None)
            self.mark_editors()
            self.draw_grid()
            return
        candidate = walk.with_slot(self.model, self.number, editor.player, editor.slot, value)
        self.accept(candidate, (self.number, *self.where(editor)), boundary, editor)

    def where(self, editor: Editor) -> Where:
        """The editor's player and input."""
        return editor.player, editor.slot.key, editor.slot.sub

    def accept(self, candidate: Session, key: object, boundary: bool, editor: Editor | None = None) -> bool:
        """Take a new session when its round has no error (and schedule the save); else show why."""
        where = self.where(editor) if editor is not None else None
        if candidate == self.model:
            if boundary and self.pending is not None:
                self.pending = (*self.pending[:2], True)
            elif boundary:
                self.doc.boundary()
            if where:
                self.rejected.pop(where, None)
            self.mark_editors()
            self.show_changed()
            return True
        found = walk.round_check(self.game, candidate, self.number)
        errors = walk.errors(found)
        if errors:
            if where is not None:
                self.rejected[where] = errors
            else:
                self.refused = errors
            self.mark_editors()
            self.show_changed()
            return False
        if where is not None:
            self.rejected.pop(where, None)
        self.refused = []
        self.model = candidate
        self.rescore(candidate, found)
        self.retry()
        if self.pending is not None and (self.pending[2] or self.pending[1] != key):
            self.passed.append(self.pending)
        self.pending = (self.model, key, boundary)
        self.call_after_refresh(self.flush)
        self.mark_editors()
        self.show_changed()
        return True

    def retry(self) -> None:
        """Values refused before may fit now (the card another player held is free): take them."""
        for where in list(self.rejected):
            editor = self.editor_at(where)
            if editor is None:
                continue
            value = editor.value()
            if value is NOT_READY:
                continue
            candidate = walk.with_slot(self.model, self.number, editor.player, editor.slot, value)
            found = walk.round_check(self.game, candidate, self.number)
            if not walk.errors(found):
                del self.rejected[where]
                self.model = candidate
                self.rescore(candidate, found)

    def editor_at(self, where: Where) -> Editor | None:
        """The editor of a player's input on the step shown."""
        player, key, sub = where
        for (p, _), editor in self.editors.items():
            if self.model.players[p] == player and editor.slot.key == key and editor.slot.sub == sub:
                return editor
        return None

    def flush(self) -> None:
        """Save what was typed (in order: the session as it is after the keys applied so far)."""
        if self.pending is None:
            return
        session, key, boundary = self.pending
        passed, self.pending, self.passed = tuple(self.passed), None, []
        saved = self.app.save(session, key, last=boundary, passed=passed, base=self.base)
        if saved.done() and saved.result():
            self.base = session  # what the document has now, or what it merged into (the app says so)
        # the Summary's notes were drawn while this save was pending (no result yet): drawn again once saved
        saved.add_done_callback(lambda _: self.show_changed() if self.step.id == "summary" else None)

    def confirm(self, editor: Editor) -> None:
        """Enter at an input: an empty one confirms its blank (0, no, none), then the cursor moves on."""
        value = editor.value()
        step = self.step
        if value is NOT_READY:
            return
        if value is None:
            entry = self.model.round(self.number).entry(editor.player)
            if walk.either(step) and any(s != editor.slot and walk.has(entry, s) for s in self.slots):
                self.advance()
                return
            value = None if walk.either(step) and editor.slot.kind == "counts" else editor.slot.blank()
            if value is not None and not editor.stacked:
                editor.load(value)
        where = self.where(editor)
        if value is not None or where in self.rejected:
            candidate = walk.with_slot(self.model, self.number, editor.player, editor.slot, value)
            if not self.accept(candidate, (self.number, *where), True, editor):
                return
        self.advance()

    def advance(self) -> None:
        """The next input, or the next step (a new warning at this step stops it once, to be read)."""
        if self.at < len(self.spots) - 1:
            self.at += 1
            self.arrive()
            self.draw_grid()
            return
        warnings = self.step_warnings()
        left = None
        if warnings and self.index not in self.warned:
            self.warned.add(self.index)
            more = f" (and {len(warnings) - 1} more)" if len(warnings) > 1 else ""
            left = Content.assemble(("⚠ ", "$text-warning"), (f"{self.step.title}: ", "bold"),
                                    inert(warnings[0].message) + more, ("  PageUp goes back", "dim"))
        if self.index < len(self.steps) - 1:
            self.go(self.index + 1, left=left)
        else:
            self.action_standings()

    def arrive(self, down: bool = True) -> None:
        """The cursor lands on its input."""
        if not self.spots:
            return
        spot = self.spots[self.at]
        if spot.player is not None:
            self.editors[(spot.player, spot.slot)].arrive(down)

    def cycle(self, delta: int) -> None:
        """Tab / shift+Tab past an input's edge: the player's next / previous input, round the row."""
        player = self.spots[self.at].player
        row = [i for i, s in enumerate(self.spots) if s.player == player]
        self.at = row[(row.index(self.at) + delta) % len(row)]
        self.arrive(delta > 0)
        editor = self.editors.get((player, self.spots[self.at].slot)) if player is not None else None
        if delta < 0 and isinstance(editor, CountsEditor):
            editor.at = len(editor.boxes) - 1  # from the right: its last box
            editor.boxes[editor.at].fresh = True
        self.draw_grid()

    def move(self, delta: int) -> None:
        """Up/down: the same input of the previous/next player."""
        spot = self.spots[self.at]
        same = [i for i, s in enumerate(self.spots) if s.slot == spot.slot and s.player is not None]
        index = same.index(self.at) + delta
        if 0 <= index < len(same):
            self.at = same[index]
            self.arrive(delta > 0)
        self.draw_grid()

    # -- drawing ------------------------------------------------------------------------
    def name_width(self) -> int:
        """The names column: the longest name with room for `starts`, and a gap."""
        return max(10, max(cell_len(p) for p in self.model.players) + 9)

    def heading(self) -> Content:
        """The round, the step and who starts; below, the step's question (and a warning of the step just left:
        in the page, where it hides nothing being typed, not in a toast over the grid)."""
        head = Content.assemble(
            (walk.round_title(self.game, self.model, self.number), "bold"), " · ",
            (self.step.title, "bold $text-accent"),
            ("  ", ""), (inert(self.first), "bold"), (" starts", "dim"), "\n", (self.step.help, "dim"))
        return head + "\n" + self.left if self.left is not None else head

    def head(self, widths: list[int], narrow: bool, width: int) -> list[Content]:
        """The column headers over the inputs: each label (wrapped to its column) and the allowed range; a note
        that one of the inputs is enough goes below them when it does not fit beside them in `width`."""
        columns: list[tuple[int, list[Content]]] = []
        for slot, width in zip(self.slots, widths, strict=True):
            if slot.kind == "counts":
                below = "".join(f"{k:<4}" for k in getattr(slot.field, "keys", ()))
            else:
                below = slot.allowed()
            cells = Content.styled(slot.label, "bold").wrap(width) if narrow else [Content.styled(slot.label, "bold")]
            if below:
                cells.append(Content.styled(below, "dim"))
            columns.append((width + 1, cells))
        height = max((len(cells) for _, cells in columns), default=0)
        out = []
        for i in range(height):
            row = Content(" " * self.name_width())
            for width, cells in columns:
                cell = cells[i] if i < len(cells) else Content("")
                row += cell + Content(" " * max(0, width - cell.cell_length))
            out.append(row.stylize("$text-muted"))
        if walk.either(self.step) and len(self.slots) > 1:
            either = Content.styled("give one or the other", "dim italic")
            if out[-1].cell_length + 2 + either.cell_length <= width:
                out[-1] += Content("  ") + either
            else:
                out.append(Content(" " * self.name_width()) + either)
        return out

    def grid_lines(self, width: int) -> tuple[list[Content], int, int]:
        """Every player's row: the name, the inputs, and what the player scores and why."""
        players = self.model.players
        if not self.slots:
            out: list[Content] = []
            self.spans = {}
            for p, player in enumerate(players):
                start = len(out)
                out += self.row_lines(p, player, [], width)
                self.spans[player] = (start, len(out))
                out.append(Content(""))
            return out, 0, 0
        narrow = len(self.slots) > 3
        editors0 = [self.editors[(0, s)] for s in range(len(self.slots))]
        widths = [slot_width(slot, editors0[s], narrow) for s, slot in enumerate(self.slots)]
        lists = [s for s in range(len(self.slots)) if editors0[s].stacked]
        if len(lists) >= 2:
            out = []
        elif self._head is not None and self._head[0] == (self.index, tuple(widths), width):
            out = list(self._head[1])
        else:
            out = self.head(widths, narrow, width)
            self._head = ((self.index, tuple(widths), width), list(out))
        if out:
            out.append(Content(""))
        spot = self.spots[self.at] if self.spots else None
        top = bottom = 0
        self.spans = {}
        for p, player in enumerate(players):
            start = len(out)
            live = self.live_lines(p, player)
            focus = tuple(spot is not None and spot.slot == s and (spot.player == p or spot.player is None)
                          for s in range(len(widths)))
            key = (p, width, tuple(widths), focus, spot is not None and spot.player == p, self.first,
                   tuple(self.editors[(p, s)].state() for s in range(len(widths))),
                   signature(c for line in live for c in line))
            row = self._rows.get(key)
            if row is None:
                cells: list[list[Content]] = []
                for s, w in enumerate(widths):
                    editor = self.editors[(p, s)]
                    cells.append(editor.lines(w if not editor.stacked else width - self.name_width(), focus[s]))
                row = self.row_lines(p, player, cells, width, widths, live)
                if len(self._rows) > 256:
                    self._rows.clear()
                self._rows[key] = row
            out += row
            self.spans[player] = (start, len(out))
            if spot is not None and spot.player == p:
                top, bottom = (0 if p == 0 else start), len(out) - 1
            out.append(Content(""))
        if spot is not None and spot.player is None:
            out.append(self.holders[spot.slot].prompt())
            out += [Content.assemble(*problem_line(p, "not saved: ")) for p in self.refused]
            top, bottom = len(out) - 1 - len(self.refused), len(out) - 1
        return out, top, bottom

    def row_lines(self, p: int, player: str, cells: list[list[Content]], width: int,
                  widths: list[int] | None = None, live: list[Line] | None = None) -> list[Content]:
        """A player's row: inputs side by side (lists below each other) and the reasons beside or below."""
        nw = self.name_width()
        name = Content(inert(player))
        if player == self.first:
            name += Content.styled(" starts", "dim")
        spot = self.spots[self.at] if self.spots else None
        if spot is not None and spot.player == p:
            name = name.stylize("bold $text-accent")
        name = name + Content(" " * max(0, nw - name.cell_length))
        live = live if live is not None else self.live_lines(p, player)
        stacked = any(self.editors[(p, s)].stacked for s in range(len(cells))) if cells else False
        inline = [c for s, c in enumerate(cells) if not self.editors[(p, s)].stacked]
        used = nw + sum((widths or [0])[s] + 1 for s in range(len(cells)) if not self.editors[(p, s)].stacked)
        room = width - used - 1
        if not stacked and room >= 24:
            first = Content("").join(c[0] + Content(" ") for c in inline) if inline else Content("")
            wrapped = wrap(live, room) or [Content("")]
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
            labelled = [Content.styled(self.slots[s].label, "dim")] if len(cells) > 1 else []
            for i, line in enumerate([*labelled, *c]):
                lead = name if not out and i == 0 else Content(" " * nw)
                out.append(lead + line)
        if not out:
            out.append(name)
        out += [Content(" " * nw) + line for line in wrap(live, max(16, width - nw))]
        return out

    def live_lines(self, p: int, player: str) -> list[Line]:
        """A player's points and reasons for the step, the problems at the inputs, the values not saved."""
        step, number = self.step, self.number
        summary = step.id == "summary"
        mine = [i for i in self.items if i.player == player]
        if self.game_map is not None and not step.inputs and step.categories:
            parts = self.path_lines(player, mine, step)
        else:
            parts = [item_line(i) for i in mine if summary or step.shows(i)]
        if summary:
            parts.append(text_line(Content.styled(f"= {walk.points(self.points.get(player, Fraction(0)))} "
                                                  "this round", "bold")))
        entry = self.model.round(number).entry(player)
        for problem in self.problems:
            if problem.round != number or problem.player != player:
                continue
            if summary or any(walk.at_slot(problem, number, player, s) and (walk.has(entry, s) or problem.is_error)
                              for s in self.slots):
                parts.append(problem_line(problem))
        said: set[str] = set()
        for slot in self.slots:
            for problem in self.rejected.get((player, slot.key, slot.sub), []):
                if problem.message not in said:
                    said.add(problem.message)
                    parts.append(problem_line(problem, "not saved: "))
        return parts

    def mark_editors(self) -> None:
        """Problems at the lines of list inputs, and the core's items (tickets show whether they connect)."""
        number = self.number
        for (p, s), editor in self.editors.items():
            if not editor.stacked:
                continue
            player = self.model.players[p]
            slot = self.slots[s]
            found = self.rejected.get((player, slot.key, slot.sub), []) + [
                q for q in self.problems if walk.at_slot(q, number, player, slot) and q.is_error]
            by_line = {q.index: q.message for q in found if q.index is not None}
            editor.mark(by_line, [i for i in self.items if i.player == player])

    def path_lines(self, player: str, items: list[Item], step: Step) -> list[Line]:
        """On a map, a step worked out from the routes: the core's items, a path (its detail) drawn city by city;
        a player without an item sees the own longest path, which scores nothing."""
        out: list[Line] = []
        shown = [i for i in items if step.shows(i)]
        for item in shown:
            out.append(item_line(item))
            if len(item.detail) > 1:
                out.append((Content("      "), path_content(item.detail)))
        routes = next((f.key for f in self.game.fields_for(self.model.rules).values() if f.kind == "map-routes"),
                      None)
        if not shown and self.game_map is not None and routes is not None:
            entry = self.model.round(self.number).entry(player)
            from scorekeeper.mapmode import trail

            length, cities = trail(self.game_map, entry.get(routes, []))
            trains = "1 train" if length == 1 else f"{length} trains"
            text = f"longest continuous path {trains}, no bonus" if length else "no routes claimed, no path"
            out.append((Content.styled("   0  ", "dim"), Content.styled(text, "dim")))
            if cities:
                out.append((Content("      "), path_content(cities, dim=True)))
        return out

    def step_titles(self) -> list[Content]:
        """The side list: a tick on steps done, a warning sign on those with a warning, ✗ on a refused value
        (worked out again when the round's values or problems changed)."""
        key = (id(self.model.round(self.number)), self.index, tuple(self.rejected),
               tuple((p.message, p.severity) for p in self.problems if p.round == self.number))
        if self._titles is None or self._titles[0] != key:
            self._titles = (key, self.draw_titles())
        return self._titles[1]

    def draw_titles(self) -> list[Content]:
        """The side list drawn."""
        titles = []
        before = True
        refused = {(key, sub) for _, key, sub in self.rejected}
        for i, step in enumerate(self.steps):
            slots = self.slots_of(step)
            done = walk.step_done(self.model, self.number, step, slots) and step.id != "summary" and \
                (bool(slots) or before)
            before = before and done
            mark = ("✓ ", "$text-success") if done else ("  ", "")
            if i == self.index and refused:
                mark = ("✗ ", "$text-error")
            elif done and self.step_warnings(step):
                mark = ("⚠ ", "$text-warning")
            titles.append(Content.assemble(mark, step.title))
        return titles

    def step_warnings(self, step: Step | None = None) -> list[Problem]:
        """The warnings shown at a step (this one by default): in its notes and at its players' inputs."""
        step = step or self.step
        number = self.number
        slots = self.slots_of(step)
        found = [p for p in walk.round_problems(self.problems, number, step) if not p.is_error]
        for p in self.problems:
            if not p.is_error and p.round == number and p.player is not None and \
                    any(walk.at_slot(p, number, p.player, s) for s in slots):
                found.append(p)
        return found

    def notes(self) -> list[Line]:
        """The step's problems about no single player, and on the summary what comes next."""
        step, number = self.step, self.number
        summary = step.id == "summary"
        done = walk.step_done(self.model, number, step, self.slots)
        notes = [problem_line(p) for p in walk.round_problems(self.problems, number, step)
                 if p.is_error or done or summary]
        if summary:
            sheet = self.doc.sheet() if self.pending is None and self.doc.session is self.model else None
            if sheet is not None and sheet.next:
                notes.append(text_line(Content.from_markup("Next: [b]$next[/b]  (Enter: standings)",
                                                           next=sheet.next)))
            elif sheet is not None and sheet.complete:
                notes.append(text_line(Content.from_markup("Final result: [b]$r[/b]  (Enter: standings)",
                                                           r=walk.result_text(sheet))))
            else:
                notes.append(text_line(Content.styled("Enter: standings", "dim")))
        return notes

    def table(self) -> Content:
        """The points before this round, this round's and the totals (the same work in any round)."""
        key = (self.number, tuple(self.points.items()), tuple(tuple(self.model.round(self.number).entry(p))
                                                              for p in self.model.players))
        if self._table is None or self._table[0] != key:
            self._table = (key, self.draw_table())
        return self._table[1]

    def draw_table(self) -> Content:
        """The table of points drawn."""
        players = self.model.players
        width = max([cell_len(p) for p in players] + [6])
        title = Content.assemble(("Scores", "bold"), (f" (this round is R{self.number})", "dim"))
        head = pad("", width + 2) + (pad("before", 8, right=True) if self.number > 1 else "") \
            + pad(f"R{self.number}", 7, right=True) + (pad("after", 8, right=True) if self.after else "") \
            + pad("Total", 8, right=True)
        out = [title, Content.styled(head, "bold")]
        rnd = self.model.round(self.number)  # the Longest Path bonus while some player's routes are not in yet
        routes_in = all(any(k in rnd.entry(p) for k in ("routes", "route_points", "claimed")) for p in players)
        early = set() if routes_in else {i.player for i in self.items if i.category == "longest-path" and i.points}
        for p in players:
            now = self.points.get(p, Fraction(0))
            before = pad(walk.points(self.before[p]), 8, right=True) if self.number > 1 else ""
            after = pad(walk.points(self.after[p]), 8, right=True) if self.after else ""
            text = "  " + pad(inert(p), width) + before + pad(walk.points(now), 7, right=True) + after
            total = self.before[p] + now + self.after.get(p, Fraction(0))
            out.append(Content.assemble(text, (pad(walk.points(total), 8, right=True), "bold"),
                                        ("*" if p in early else "", "$text-warning")))
        if early:
            out.append(Content.styled("* with the Longest Path bonus: provisional until every player's routes are in",
                                      "$text-warning"))
        return lines(out)

    # -- help -------------------------------------------------------------------------
    def help_keys(self) -> list[tuple[str, str]]:
        """The keys this step offers, then those the round's other steps add (from the kinds of their inputs)."""
        rows = self.step_help(self.step, self.slots, moves=True)
        others: list[tuple[str, str]] = []
        for step in self.steps:
            if step is not self.step:
                others += [row for row in self.step_help(step, self.slots_of(step)) if row not in rows + others]
        held = [row for row in others if row[0] == "seat"]
        if len(held) > 1:
            cards = " / ".join(text.split(":")[0].removeprefix("who holds the ") for _, text in held)
            others = [row for row in others if row[0] != "seat"]
            others.insert(0, ("seat", f"who holds the {cards}:{held[0][1].split(':', 1)[1]}"))
        if others:
            rows += [("", "At the round's other steps"), *others]
        return [(self.seat_keys() if key == "seat" else key, text) for key, text in rows]

    def seat_keys(self) -> str:
        """The keys that pick a holder: `1 … 4, 0`."""
        return f"1 … {len(self.model.players)}, 0"

    def step_help(self, step: Step, slots: tuple[walk.Slot, ...], moves: bool = False) -> list[tuple[str, str]]:
        """The keys of a step's inputs: how the cursor moves through them (`moves`), and each kind's own keys."""
        rows: list[tuple[str, str]] = []
        inputs = [s for s in slots if s.kind not in STEP_WIDE]
        if moves and len(inputs) > 1:
            order = " → ".join(s.label for s in inputs)
            if walk.either(step):
                order += ": give one or the other"
            rows += [("Enter, Tab", f"confirms the box (empty: 0 / no) and moves along the player's row ({order}), "
                                    "then to the next player's row; after the last player, the next step"),
                     ("↑ / ↓", "the same column of the previous / next player")]
        elif moves and inputs:
            rows += [("Enter, Tab", "confirms the value (empty: 0 / no) and goes to the next player; after the last "
                               "one, the next step"),
                     ("↑ / ↓", "the previous / next player")]
        elif moves:
            rows.append(("Enter", "the standings" if step.id == "summary" else
                         "the next step (nothing to type here: the points come from earlier steps)"))
        held = [s.label for s in slots if s.kind in STEP_WIDE]
        if held:
            seats = ", ".join(f"{i} {p}" for i, p in enumerate(self.model.players, 1))
            rows.append(("seat", f"who holds the {' / '.join(held)}: the seat number ({seats}); 0 or n: nobody; "
                                 "↑ / ↓ and Enter pick too"))
        for slot in inputs:
            rows += [row for row in editor_class(editor_kind(slot)).HELP if row not in rows]
        return rows

    # -- actions ------------------------------------------------------------------------
    def action_list_key(self, key: str) -> None:
        """A key of list inputs (the grid uses it; listed for the key bar and help)."""

    def action_stay(self) -> None:
        """A key the grid uses: the keyboard stays with the grid."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The list keys are shown only at a list."""
        if action == "list_key":
            spot = self.spots[self.at] if self.spots else None
            return spot is not None and spot.player is not None and self.editors[(spot.player, spot.slot)].stacked
        return True

    def action_step(self, delta: int) -> None:
        """The previous / next step."""
        target = self.index + delta
        if 0 <= target < len(self.steps):
            self.flush()
            self.go(target)

    def action_next(self) -> None:
        """Enter with nothing to enter (the summary): the standings."""
        if self.step.id == "summary" or self.index == len(self.steps) - 1:
            self.action_standings()
        else:
            self.action_step(1)

    def action_standings(self) -> None:
        """The standings of the session."""
        self.flush()
        self.app.show_standings()

    def action_focus_steps(self) -> None:
        """Focus the list of steps (a narrow screen shows it in place of the step until one is picked)."""
        self.add_class("steps-open")
        self.query_one("#steps", StepList).focus()

    def on_click(self, event: events.Click) -> None:
        """A tap on the step's title opens the list of steps: the way to another step on a phone."""
        if event.widget is not None and event.widget.id == "step-title":
            self.action_focus_steps()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """The list of steps gives its place back to the step when it loses the keyboard."""
        if event.widget.id == "steps":
            self.remove_class("steps-open")

    @on(StepList.Picked)
    def step_chosen(self, event: StepList.Picked) -> None:
        """A step picked from the side list: the keyboard goes back to the grid."""
        event.stop()
        self.flush()
        self.remove_class("steps-open")
        self.go(event.index)
        self.query_one(StepGrid).focus()

    def goto(self, number: int, index: int, focus: Where | None = None) -> None:
        """Show another round and step."""
        self.flush()
        self.number = number
        self.model = self.base = self.doc.session
        self.start_round()
        self.go(index, focus)
        self.query_one(StepGrid).focus()

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo, a reload, or a change not saved: show the session as it is now, where it changed."""
        self.pending, self.passed = None, []
        self.model = self.base = self.doc.session
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
            for i, step in enumerate(self.game.steps(new)):
                if any(k == key and (sub is None or s in (None, sub)) for k, s in step.inputs):
                    index = i
                    break
        self.goto(number, index, (player, key, sub) if player and key else None)

    def session_merged(self, old: Session, new: Session) -> None:
        """Changes made in another place came in: shown where they are, the cursor and what is being typed here
        left as they are (edits not saved yet get the others' changes too)."""
        from scorekeeper.merge import rebase

        base, now = self.base, self.doc.session
        if base == now:
            return
        self.model = rebase(self.model, base, now)
        if self.pending is not None:
            self.pending = (rebase(self.pending[0], base, now), *self.pending[1:])
        self.passed = [(rebase(step, base, now), *rest) for step, *rest in self.passed]  # type: ignore[misc]
        self.base = now
        focused = self.spots[self.at] if 0 <= self.at < len(self.spots) else None
        before, after = base.round(self.number), now.round(self.number)
        for (p, slot), editor in self.editors.items():
            if focused is not None and focused.player == p and focused.slot == slot:
                continue
            value = walk.value_of(after.entry(editor.player), editor.slot)
            if value != walk.value_of(before.entry(editor.player), editor.slot):
                editor.load(value)
        self.rescore(self.model)
        self.mark_editors()
        self.show_changed()

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands for the command palette: every step of the round."""
        for i, step in enumerate(self.steps):
            yield f"Go to step: {step.title}", step.help or step.title, lambda i=i: self.goto(self.number, i)
        yield "Standings", "The rounds, totals and ranking", self.action_standings
