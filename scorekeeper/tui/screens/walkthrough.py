"""The scoring walkthrough of one round: the steps down one side, one input per player, live reasons.

The round's state — the cursor (step, player, box), the session as typed, the values refused — is a `WalkState`
(no Textual); this screen hands it each key as it comes and sets the widgets' values from it. The step grid owns
the keyboard and hands every key here, so a key always lands where the screen shows the cursor. An accepted value
changes the session at once (checked and scored for its round only) and is staged in the Document; the file
follows, saved in order once the keys that came together are applied.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.containers import VerticalScroll
from textual.content import Content
from textual.widget import Widget

from scorekeeper import walk
from scorekeeper.games.base import Step
from scorekeeper.model.session import Problem, Session
from scorekeeper.tui import keymap
from scorekeeper.tui.player_rows import PlayerRows, RowsView
from scorekeeper.tui.screens.help import step_keys, walk_keys
from scorekeeper.tui.screens.walking import WalkingScreen
from scorekeeper.tui.walk_view import RoundSteps, ScoreTable, StepHeading, StepNotes
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.editors import NEXT, CountsEditor, Editor, Holder
from scorekeeper.tui.widgets.grid import StepGrid
from scorekeeper.tui.widgets.kinds import editor_for
from scorekeeper.walk.state import NOT_READY, STEP_WIDE, Spot, WalkState, Where

if TYPE_CHECKING:
    from scorekeeper.games.base import Game
    from scorekeeper.tui.base import AppBase
    from scorekeeper.walk.document import Document

NARROW = 100
"""Below this width the step list folds away: the inputs and their reasons keep the room."""


class StepScroll(VerticalScroll, can_focus=False, inherit_bindings=False):
    """The step's column: it scrolls to keep the cursor in view; its keys are the grid's (no page scrolling)."""


class WalkthroughScreen(WalkingScreen):
    """One round, step by step in the rulebook's order; every accepted value is saved."""

    CSS_PATH = "../session.tcss"
    KEYMAP = keymap.WALK
    BINDINGS = keymap.bindings(KEYMAP)

    HELP_TEXTS = keymap.help_texts(KEYMAP)
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
        self.state = WalkState(doc, number, index, self.value_at)
        self.editors: dict[tuple[int, int], Editor] = {}
        """The boxes of the step shown, by (player, slot): what is typed in each."""
        self.holders: dict[int, Holder] = {}
        """The step-wide picks of the step shown, by slot."""
        self.rows = PlayerRows(self.state, self.editors, self.holders)
        self.load_editors()

    # -- the state, as the screen's callers and tests see it ----------------------------------
    @property
    def session(self) -> Session:
        """The session as typed now (the file follows it)."""
        return self.state.model

    @property
    def game(self) -> Game:
        """The session's game."""
        return self.state.game

    @property
    def number(self) -> int:
        """The round shown."""
        return self.state.number

    @property
    def steps(self) -> tuple[Step, ...]:
        """The round's steps (a house rule may change them)."""
        return self.state.steps

    @property
    def step(self) -> Step:
        """The step shown."""
        return self.state.step

    @property
    def slots(self) -> tuple[walk.Slot, ...]:
        """The inputs of the step shown."""
        return self.state.slots

    @property
    def spots(self) -> tuple[Spot, ...]:
        """The places the cursor can be on the step shown."""
        return self.state.spots

    @property
    def at(self) -> int:
        """The spot the cursor is on."""
        return self.state.at

    def step_warnings(self, step: Step | None = None) -> list[Problem]:
        """The warnings shown at a step (this one by default)."""
        return self.state.step_warnings(step)

    @property
    def spans(self) -> dict[str, tuple[int, int]]:
        """Each player's lines in the grid."""
        return self.rows.spans

    # -- layout -------------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        self.title = self.session.title or self.game.name
        self.sub_title = self.game.name if self.session.title else None
        state = self.state
        yield TitleBar()
        yield RoundSteps(self.marks(), state.index, id="steps")  # side by side: the screen's layout is horizontal
        with StepScroll(id="step"):
            yield StepHeading(state.heading(), id="step-title")
            yield StepGrid(self, self.rows.view(), id="grid")
            yield StepNotes(state.notes(), id="step-notes")
            yield ScoreTable(state.scores(), id="round-table")
        yield KeyBar()

    def on_mount(self) -> None:
        """The keyboard goes to the grid."""
        self.query_one(StepGrid).focus()

    def set_focus(self, widget: Widget | None, scroll_visible: bool = True, from_app_focus: bool = False) -> None:
        """The grid keeps its cursor in view itself (`StepGrid.show_cursor`): focusing it never scrolls the page (the
        auto-focus comes before the first layout, and scrolled the step's heading away)."""
        super().set_focus(widget, scroll_visible and not isinstance(widget, StepGrid), from_app_focus)

    def on_resize(self) -> None:
        """Narrow terminals fold the step list away."""
        self.set_class(self.size.width < NARROW, "narrow")

    def marks(self) -> tuple[tuple[str, str], ...]:
        """The step list's marks and titles."""
        return tuple(zip(self.state.marks(), (step.title for step in self.state.steps), strict=True))

    def show(self) -> None:
        """The widgets' values from the state (each redraws if its value changed)."""
        self.draw_grid()
        self.show_around()

    def show_around(self) -> None:
        """The heading, the notes, the round's table and the step list from the state (not on a screen that left
        the app's stack: its widgets are going)."""
        if not self.is_mounted or self not in self.app.screen_stack:
            return
        state = self.state
        self.query_one(StepHeading).heading = state.heading()
        self.query_one(StepNotes).notes = state.notes()
        self.query_one(ScoreTable).scores = state.scores()
        self.query_one(RoundSteps).marks = (self.marks(), state.index)

    def draw_grid(self) -> None:
        """The grid's rows from the state and the boxes (it paints the lines that changed)."""
        if self.is_mounted and self in self.app.screen_stack:
            self.query_one(StepGrid).view = self.rows.view()

    def grid_lines(self, view: RowsView, width: int) -> tuple[list[Content], int, int]:
        """Every player's row as drawn (the grid asks)."""
        return self.rows.lines(view, width)

    def row_text(self, player: str) -> str:
        """A player's row as drawn: name, inputs and reasons (for tests)."""
        start, end = self.spans.get(player, (0, 0))
        return "\n".join(self.query_one(StepGrid).plain().splitlines()[start:end])

    # -- the step's boxes ---------------------------------------------------------------
    def load_editors(self) -> None:
        """The boxes of the step the state shows, from the session; the cursor arrives at its box."""
        state = self.state
        players = state.players
        self.editors.clear()
        self.holders.clear()
        for s, slot in enumerate(state.slots):
            if slot.kind in STEP_WIDE:
                holder = Holder(slot, players)
                holder.load({p: state.value(p, slot) for p in players})
                self.holders[s] = holder
            for p, player in enumerate(players):
                self.editors[(p, s)] = editor_for(player, slot, state.value(player, slot), state.game_map)
        self.arrive()
        self.mark_editors()

    def value_at(self, where: Where) -> Any:
        """What a player's box holds now (NOT_READY: no box, or text that is no value yet)."""
        player, key, sub = where
        for editor in self.editors.values():
            if editor.player == player and editor.slot.key == key and editor.slot.sub == sub:
                return editor.value()
        return NOT_READY

    def mark_editors(self) -> None:
        """Problems at the lines of list inputs, and the core's items (tickets show whether they connect)."""
        for (p, s), editor in self.editors.items():
            if editor.stacked:
                editor.mark(*self.state.line_problems(self.state.players[p], self.state.slots[s]))

    def arrive(self, down: bool = True) -> None:
        """The cursor lands on its input."""
        spot = self.state.spot
        if spot is not None and spot.player is not None:
            self.editors[(spot.player, spot.slot)].arrive(down)

    def go(self, index: int, focus: Where | None = None) -> None:
        """Show step `index` (at once: the grid draws it from the session)."""
        self.state.go(index, focus)
        self.shown_step()

    def shown_step(self) -> None:
        """Another step (or round) in the state: its boxes, drawn."""
        self.load_editors()
        self.show()
        self.refresh_bindings()

    # -- keys (`WalkingScreen.key` hands each to the methods below) --------------------------
    @property
    def walking(self) -> WalkState:
        """The round's state the keys move through."""
        return self.state

    def editor_at(self, player: int, slot: int) -> Editor:
        """The box of a player's input."""
        return self.editors[(player, slot)]

    def click(self, y: int) -> None:
        """A click on a player's row: the cursor goes to the player (a holder pick takes the player)."""
        player = next((q for q, (start, end) in self.spans.items() if start <= y < end), None)
        spot = self.state.spot
        if player is None or spot is None:
            return
        p = self.state.players.index(player)
        if spot.player is None:
            self.pick(spot, str(p + 1), str(p + 1))
            return
        self.flush()
        self.state.to_player(p)
        self.arrive()
        self.draw_grid()

    def pick(self, spot: Spot, key: str, char: str | None) -> bool:
        """A step-wide pick (who holds a card there is one of): one key, then on."""
        holder = self.holders[spot.slot]
        did = holder.key(key, char)
        if did is None:
            return self.screen_key(key)
        if did == NEXT:
            values = holder.values()
            taken = self.state.pick(spot.slot, values)
            self.changed()
            if taken:
                holder.given = True
                for p, player in enumerate(self.state.players):
                    self.editors[(p, spot.slot)].load(values[player])
                self.advance()
                return True
        self.draw_grid()
        return True

    def edited(self, editor: Editor, value: Any, boundary: bool = False) -> bool:
        """A value typed: into the session when the core finds no error in it, else its reason at the input."""
        taken = self.state.edit((editor.player, editor.slot.key, editor.slot.sub), editor.slot, value, boundary)
        self.changed()
        return taken

    def changed(self) -> None:
        """After a value was typed: the grid shows it at once; the save comes once the keys typed together are
        applied, the other widgets follow once the grid is painted."""
        if self.doc.staged:
            self.call_after_refresh(self.flush)
        self.mark_editors()
        self.draw_grid()
        self.call_after_refresh(self.show_around)  # the key's echo and reasons are painted first

    def flush(self) -> None:
        """Save what was typed (in order: the session as it is after the keys applied so far)."""
        batch = self.state.take()
        if batch is None:
            return
        saved = self.app.save_batch(batch)
        if saved.done() and saved.result():
            self.state.saved(batch.session)  # what the document has now, or what it merged into (the app says so)
        # the Summary's notes were drawn while this save was pending (no result yet): drawn again once saved
        saved.add_done_callback(lambda _: self.show() if self.state.step.id == "summary" else None)

    def advance(self) -> None:
        """The next input, or the next step (a new warning at this step stops it once, to be read)."""
        went = self.state.advance()
        if went == "box":
            self.arrive()
            self.draw_grid()
        elif went == "step":
            self.shown_step()
        else:
            self.action_standings()

    def cycle(self, delta: int) -> None:
        """Tab / shift+Tab past an input's edge: the player's next / previous input, round the row."""
        self.state.cycle(delta)
        self.arrive(delta > 0)
        spot = self.state.spot
        editor = self.editors.get((spot.player, spot.slot)) if spot is not None and spot.player is not None else None
        if delta < 0 and isinstance(editor, CountsEditor):
            editor.at = len(editor.boxes) - 1  # from the right: its last box
            editor.boxes[editor.at].fresh = True
        self.draw_grid()

    def move(self, delta: int) -> None:
        """Up/down: the same input of the previous/next player."""
        if self.state.move(delta):
            self.arrive(delta > 0)
        self.draw_grid()

    # -- help -------------------------------------------------------------------------
    def help_keys(self) -> list[tuple[str, str]]:
        """The keys this step offers, then those the round's other steps add."""
        return walk_keys(self.state)

    def step_help(self, step: Step, slots: tuple[walk.Slot, ...], moves: bool = False) -> list[tuple[str, str]]:
        """The keys of a step's inputs."""
        return step_keys(self.state, step, slots, moves)

    # -- actions ------------------------------------------------------------------------
    def action_list_key(self, key: str) -> None:
        """A key of list inputs (the grid uses it; listed for the key bar and help)."""

    def action_stay(self) -> None:
        """A key the grid uses: the keyboard stays with the grid."""

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """The list keys are shown only at a list; the route entry only at the routes."""
        if action == "route_entry":
            return self.state.offers_entry()
        if action == "list_key":
            spot = self.state.spot
            return spot is not None and spot.player is not None and self.editors[(spot.player, spot.slot)].stacked
        return True

    def action_route_entry(self) -> None:
        """Enter the routes the other way (score track / counts by length), for the rest of the session."""
        key = self.state.other_entry()
        if key is None:
            return
        self.flush()
        self.doc.entry = key
        self.app.choose_entry(self.doc.path, key)
        self.go(self.state.index)

    def action_step(self, delta: int) -> None:
        """The previous / next step."""
        target = self.state.index + delta
        if 0 <= target < len(self.state.steps):
            self.flush()
            self.go(target)

    def action_next(self) -> None:
        """Enter with nothing to enter (the summary): the standings."""
        if self.step.id == "summary" or self.state.index == len(self.state.steps) - 1:
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
        self.query_one("#steps", RoundSteps).focus()

    def on_click(self, event: events.Click) -> None:
        """A tap on the step's title opens the list of steps: the way to another step on a phone."""
        if event.widget is not None and event.widget.id == "step-title":
            self.action_focus_steps()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """The list of steps gives its place back to the step when it loses the keyboard."""
        if event.widget.id == "steps":
            self.remove_class("steps-open")

    @on(RoundSteps.Picked)
    def step_chosen(self, event: RoundSteps.Picked) -> None:
        """A step picked from the side list: the keyboard goes back to the grid."""
        event.stop()
        self.flush()
        self.remove_class("steps-open")
        self.go(event.index)
        self.query_one(StepGrid).focus()

    def goto(self, number: int, index: int, focus: Where | None = None) -> None:
        """Show another round and step."""
        self.flush()
        self.state.goto(number, index, focus)
        self.shown_step()
        self.query_one(StepGrid).focus()

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo, a reload, or a change not saved: show the session as it is now, where it changed."""
        where = self.state.replaced(old, new)
        if where is None:
            self.app.show_standings()
            return
        self.goto(*where)

    def session_merged(self, old: Session, new: Session) -> None:
        """Changes made in another place came in: shown where they are, the cursor and what is being typed here
        left as they are (edits not saved yet get the others' changes too)."""
        changed = self.state.merged()
        if changed is None:
            return
        boxes = {(e.player, e.slot.key, e.slot.sub): e for e in self.editors.values()}
        for where, value in self.state.stale(changed, lambda w: boxes[w].value() if w in boxes else None).items():
            if where in boxes:
                boxes[where].load(value)
        self.mark_editors()
        self.show()

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands for the command palette: every step of the round."""
        for i, step in enumerate(self.state.steps):
            yield f"Go to step: {step.title}", step.help or step.title, lambda i=i: self.goto(self.number, i)
        yield "Standings", "The rounds, totals and ranking", self.action_standings
