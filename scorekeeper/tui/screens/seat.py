"""One player's seat at the table (SPEC §5, "join as one seat"): a phone walks the round with that player's inputs
only, in one column, sees which steps the others have filled but not their values until the round's Summary, and
holds the seat in the session's seat registry (`scorekeeper.seats`) while it is open."""

from __future__ import annotations

import time
from datetime import datetime
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widget import Widget
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from scorekeeper import games, seats, walk
from scorekeeper.text import inert
from scorekeeper.tui.screens.base import SessionScreen
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.editors import DOWN, EDIT, LINE, MOVE, NEXT, NOT_READY, UP, CountsEditor, Editor
from scorekeeper.tui.widgets.kinds import editor_for

if TYPE_CHECKING:
    from scorekeeper.document import Document
    from scorekeeper.games.base import Item, Step
    from scorekeeper.session import Problem, Session
    from scorekeeper.tui.base import AppBase

WIDTH = 40
"""The seat's column at most: a phone held upright."""


class SeatCard(Widget, can_focus=True):
    """The seat's step, drawn in one column; it takes the keys (as the walkthrough's grid does, bursts too)."""

    DEFAULT_CSS = """
    SeatCard { height: auto; width: 1fr; max-width: 42; padding: 0 1 1 1; }
    """

    def __init__(self, seat: SeatScreen, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seat = seat

    def render(self) -> Content:
        return Content("\n").join(self.seat.lines(min(WIDTH, max(10, self.size.width or WIDTH))))

    def plain(self) -> str:
        """What the card shows, as text (for tests)."""
        return "\n".join(line.plain for line in self.seat.lines(min(WIDTH, max(10, self.size.width or WIDTH))))

    async def on_key(self, event: events.Key) -> None:
        typed = getattr(self.app, "typed", None)
        if typed is not None and typed.taken(self, event):
            return
        if self.seat.key(event.key, event.character):
            event.stop()
            event.prevent_default()
            self.refresh(layout=True)
        elif typed is not None:
            typed.left(event)

    def on_paste(self, event: events.Paste) -> None:
        """Pasted text is typed, character by character (a line break confirms)."""
        event.stop()
        for char in event.text:
            if char in "\r\n":
                self.seat.key("enter", "\r")
            elif char.isprintable():
                self.seat.key(char, char)
        self.refresh(layout=True)

    def on_click(self, event: events.Click) -> None:
        """A tap on an input's lines puts the cursor there."""
        self.focus()
        self.seat.click(event.y)
        self.refresh(layout=True)


class SeatScreen(SessionScreen):
    """A phone's seat: the round step by step, this player's inputs only; the others' values at the Summary."""

    BINDINGS = [
        Binding("pageup", "step(-1)", "Prev step", id="prev-step"),
        Binding("pagedown", "step(1)", "Next step", id="next-step"),
    ]

    AUTO_FOCUS = "#seat-card"

    app: AppBase

    def __init__(self, doc: Document, player: str, phone: str | None = None) -> None:
        super().__init__()
        self.doc = doc
        self.player = player
        self.phone = phone or seats.new_phone()
        self.game = games.get(doc.session.game)
        self.model: Session = doc.session
        self.base: Session = doc.session
        self.number = self.round_to_walk(doc.session)
        self.index = 0
        self.editors: list[Editor] = []
        self.at = 0
        self.spans: list[tuple[int, int]] = []
        self.rejected: dict[int, str] = {}
        self.problems: list[Problem] = []
        self.items: list[Item] = []
        self.state = "asking"
        """`held` (this phone types), `asking` (another phone holds the seat: the host is asked), `refused`,
        `lost` (the host gave the seat to another phone), `gone` (the player is not in the session)."""
        self.taken_since: float | None = None
        self.pending: tuple[Session, object, bool] | None = None
        self.map = self.game_map(doc.session)

    # -- the round --------------------------------------------------------------------------
    def game_map(self, session: Session) -> Any:
        """The session's map, for the editors that name things on it."""
        if getattr(self.game, "map_name", None) is None:
            return None
        from scorekeeper.mapmode import map_of

        return map_of(self.game, session)

    def round_to_walk(self, session: Session) -> int:
        """The round the table is walking (a new one when it is next), else the last one."""
        sheet = self.doc.sheet()
        where = walk.resume(self.game, session, sheet)
        if where is not None:
            return where[0]
        if walk.needs_new_round(self.game, session, sheet):
            return len(session.rounds) + 1
        return max(1, len(session.rounds))

    @property
    def steps(self) -> tuple[Step, ...]:
        return self.game.steps(self.model)

    @property
    def step(self) -> Step:
        return self.steps[self.index]

    def slots(self, step: Step | None = None) -> tuple[walk.Slot, ...]:
        """The step's inputs."""
        return walk.shown_slots(self.game, self.model, step or self.step, self.doc.entry)

    def revealed(self) -> bool:
        """Whether the round's values may be shown to everyone: every player has a table and the table is no
        longer walking it (every input of every step given; a round written by hand: once every player is in)."""
        if self.player not in self.model.players or not self.model.round(self.number).is_complete(
                self.model.players):
            return False
        where = walk.resume(self.game, self.model)  # the round the table walks, at its first step not done
        return where is None or where[0] != self.number

    def compose(self) -> ComposeResult:
        self.show_title()
        self.index = self.first_open()
        self.load_step()
        yield TitleBar()
        yield SeatCard(self, id="seat-card")
        yield KeyBar()

    def on_mount(self) -> None:
        """Take the seat (or ask for it), and keep it with a beat."""
        self.hold()
        self.set_interval(seats.BEAT, self.hold, name="the seat's beat")

    def on_unmount(self) -> None:
        """The seat is free again when its phone leaves."""
        if self.state == "held":
            try:
                seats.update(self.doc.path, lambda s: (seats.release(s, self.player, self.phone), None))
            except OSError:
                pass

    def first_open(self) -> int:
        """The first step with an input of this player not filled yet (else the Summary, the last step)."""
        for i, step in enumerate(self.steps):
            slots = self.slots(step)
            if slots and not walk.player_done(self.model, self.number, step, slots, self.player):
                return i
        return len(self.steps) - 1

    def load_step(self) -> None:
        """This player's inputs of the step, from the session."""
        entry = self.model.round(self.number).entry(self.player)
        self.editors = [editor_for(self.player, slot, walk.value_of(entry, slot), self.map) for slot in self.slots()]
        self.rejected = {}
        self.at = next((i for i, e in enumerate(self.editors) if not walk.has(entry, e.slot)), 0)
        if self.editors:
            self.editors[self.at].arrive()
        self.rescore()

    def rescore(self) -> None:
        """The round's items and problems (this player's are shown; the others' only once revealed)."""
        found = walk.round_check(self.game, self.model, self.number)
        self.problems = found
        if self.number <= len(self.model.rounds) and not walk.errors(found):
            self.items = self.game.score_round(self.model, self.number)
        else:
            self.items = []

    def alone_items(self) -> list[Item]:
        """This player's items of the round scored as if the others had typed nothing: an item the same either
        way tells nothing of the others' values (shown before the Summary); one that differs waits for it."""
        from dataclasses import replace

        session = self.model
        if self.number > len(session.rounds):
            return []
        rounds = list(session.rounds)
        rnd = rounds[self.number - 1]
        rounds[self.number - 1] = replace(rnd, players={self.player: rnd.entry(self.player)})
        alone = replace(session, rounds=tuple(rounds))
        if walk.errors(walk.round_check(self.game, alone, self.number)):
            return []
        return [it for it in self.game.score_round(alone, self.number) if it.player == self.player]

    # -- the seat's registry -----------------------------------------------------------------
    def hold(self) -> None:
        """Claim or keep the seat; what the registry says is shown (a refusal, a seat given to another phone)."""
        if self.player not in self.doc.session.players:
            self.state = "gone"
            self.redraw()
            return
        now = time.time()
        try:
            table, outcome = seats.update(self.doc.path, lambda s: seats.claim(s, self.player, self.phone, now))
        except OSError:
            return
        if self.state in ("refused", "lost"):
            if outcome == seats.HELD:  # the seat came free meanwhile: hold it again only if asked (Enter)
                seats.update(self.doc.path, lambda s: (seats.release(s, self.player, self.phone), None))
            return
        before = self.state
        if outcome == seats.HELD:
            self.state = "held" if before in ("asking", "held") else before
        elif before == "held":
            self.state = "lost"
        elif outcome == seats.REFUSED:
            self.state = "refused"
        else:
            self.state = "asking"
        seat = table.get(self.player)
        self.taken_since = seat.since if seat is not None and seat.phone != self.phone else None
        if before != self.state:
            self.redraw()

    def ask_again(self) -> None:
        """Enter on a refused or lost seat: ask for it again."""
        self.state = "asking"
        self.hold()
        self.redraw()

    # -- keys --------------------------------------------------------------------------------
    def key(self, key: str, char: str | None) -> bool:
        """A key at the cursor: applied to this player's input there, or moving through the round."""
        if self.state != "held":
            if key == "enter" and self.state in ("refused", "lost"):
                self.ask_again()
                return True
            return self.screen_key(key)
        if not self.editors:
            if key == "enter":
                self.flush()
                self.action_step(1)
                return True
            return self.screen_key(key)
        editor = self.editors[self.at]
        did = editor.key(key, char)
        if did is None:
            return self.screen_key(key)
        if did in (EDIT, LINE):
            self.edited(editor, editor.value(), boundary=did == LINE)
        elif did == "refuse":
            self.edited(editor, editor.raw(), boundary=True)  # type: ignore[attr-defined]
        elif did == NEXT:
            self.confirm(editor)
        elif did in (UP, DOWN):
            self.move(-1 if did == UP else 1)
        elif did == MOVE:
            pass
        return True

    def screen_key(self, key: str) -> bool:
        """The keys of the round (a step back or on, Tab between inputs, undo), in their turn among those typed."""
        self.flush()
        if key in ("tab", "shift+tab") and self.editors:
            self.move(-1 if key == "shift+tab" else 1, wrap=True)
            return True
        actions = {"pageup": lambda: self.action_step(-1), "pagedown": lambda: self.action_step(1),
                   "ctrl+z": self.app.action_undo, "ctrl+y": self.app.action_redo}
        action = actions.get(key)
        if action is None:
            return False
        action()
        return True

    def move(self, delta: int, wrap: bool = False) -> None:
        """The previous / next input of the step."""
        if not self.editors:
            return
        at = self.at + delta
        self.at = at % len(self.editors) if wrap else max(0, min(len(self.editors) - 1, at))
        self.editors[self.at].arrive(delta > 0)

    def click(self, y: int) -> None:
        """A tap on an input's lines."""
        if self.state != "held":
            return
        for i, (start, end) in enumerate(self.spans):
            if start <= y < end and i != self.at:
                self.flush()
                self.at = i
                self.editors[i].arrive()
                return

    def edited(self, editor: Editor, value: Any, boundary: bool = False) -> None:
        """A value typed: into the session when the round has no error with it, else why at the input."""
        i = self.editors.index(editor)
        if value is NOT_READY:
            self.rejected.pop(i, None)
            return
        candidate = walk.with_slot(self.model, self.number, self.player, editor.slot, value)
        self.accept(candidate, i, boundary)

    def accept(self, candidate: Session, i: int, boundary: bool) -> bool:
        """Take the new session when its round has no error, and save it; else the reason at the input."""
        if candidate == self.model:
            self.rejected.pop(i, None)
            return True
        errors = walk.errors(walk.round_check(self.game, candidate, self.number))
        if errors:
            mine = [p for p in errors if p.player == self.player]
            self.rejected[i] = inert(mine[0].message) if mine else "this clashes with another player's value"
            return False
        self.rejected.pop(i, None)
        self.model = candidate
        slot = self.editors[i].slot
        self.pending = (candidate, (self.number, self.player, slot.key, slot.sub), boundary)
        self.call_after_refresh(self.flush)
        self.rescore()
        return True

    def flush(self) -> None:
        """Save what was typed (the document merges it with the others' changes, field by field)."""
        if self.pending is None:
            return
        session, key, boundary = self.pending
        self.pending = None
        saved = self.app.save(session, key, last=boundary, base=self.base)
        if saved.done() and saved.result():
            self.base = session
        self.redraw()

    def confirm(self, editor: Editor) -> None:
        """Enter at an input: an empty one confirms its blank (0, no, none), then on to the next one."""
        value = editor.value()
        if value is NOT_READY:
            return
        i = self.editors.index(editor)
        step = self.step
        if value is None:
            entry = self.model.round(self.number).entry(self.player)
            if walk.either(step) and any(e.slot != editor.slot and walk.has(entry, e.slot) for e in self.editors):
                self.advance()
                return
            value = None if walk.either(step) and editor.slot.kind == "counts" else editor.slot.blank()
            if value is not None and not editor.stacked:
                editor.load(value)
        if value is not None or i in self.rejected:
            candidate = walk.with_slot(self.model, self.number, self.player, editor.slot, value)
            if not self.accept(candidate, i, True):
                return
        self.advance()

    def advance(self) -> None:
        """The next input, or the next step."""
        if self.at < len(self.editors) - 1:
            self.at += 1
            self.editors[self.at].arrive()
            return
        self.flush()
        self.action_step(1)

    def action_step(self, delta: int) -> None:
        """The previous / next step of the round."""
        self.flush()
        index = max(0, min(len(self.steps) - 1, self.index + delta))
        if index != self.index:
            self.index = index
            self.load_step()
        self.redraw()

    # -- others' changes ---------------------------------------------------------------------
    def session_merged(self, old: Session, new: Session) -> None:
        """Changes made in another place came in: this player's inputs keep what is typed, the others' progress
        (and, once revealed, values) follow."""
        from scorekeeper.merge import rebase

        base, now = self.base, self.doc.session
        if base == now:
            return
        self.model = rebase(self.model, base, now)
        if self.pending is not None:
            self.pending = (rebase(self.pending[0], base, now), *self.pending[1:])
        self.base = now
        entry_before, entry_after = base.round(self.number).entry(self.player), now.round(self.number).entry(
            self.player)
        for i, editor in enumerate(self.editors):
            value = walk.value_of(entry_after, editor.slot)
            if i != self.at and value != walk.value_of(entry_before, editor.slot):
                editor.load(value)
        self.rescore()
        if self.revealed() and self.pending is None:  # the round is full: on to the round the table walks now
            number = self.round_to_walk(now)
            if number > self.number:
                self.number = number
                self.index = self.first_open()
                self.load_step()
        self.redraw()

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo, a reload, a change not saved: the step from the session as it is now."""
        self.pending = None
        self.model = self.base = self.doc.session
        if self.index >= len(self.steps):
            self.index = len(self.steps) - 1
        self.load_step()
        self.redraw()

    def redraw(self) -> None:
        """Draw the card again."""
        if self.is_mounted:
            for card in self.query(SeatCard):
                card.refresh(layout=True)

    # -- drawing -----------------------------------------------------------------------------
    def lines(self, width: int) -> list[Content]:
        """The seat's column: who and where, this player's inputs, their points, the others' progress."""
        out: list[Content] = []
        head = Content.assemble((inert(self.player), "bold $text-accent"), " · ",
                                walk.round_title(self.game, self.model, self.number))
        out.append(head)
        if self.state == "gone":
            out += wrap(f"{self.player} is no longer a player of this session.", width, "$text-warning")
            return out
        if self.state != "held":
            out += self.waiting_lines(width)
            return out
        step = self.step
        out.append(Content.assemble((f"{step.title}", "bold"), (f"  step {self.index + 1} of {len(self.steps)}",
                                                                 "dim")))
        if step.help:
            out += wrap(step.help, width, "dim")
        out.append(Content(""))
        self.spans = []
        for i, editor in enumerate(self.editors):
            start = len(out)
            label = editor.slot.label + (f"  ({editor.slot.allowed()})" if editor.slot.allowed() else "")
            out += wrap(label, width, "bold" if i == self.at else "")
            box = width if editor.stacked else min(width, max(editor.width, 6))
            if isinstance(editor, CountsEditor):  # the numbers the boxes count (routes by length)
                out.append(Content.styled("  " + "".join(f"{key:<4}" for key in editor.keys), "dim"))
            out += [Content("  ") + line for line in editor.lines(box - 2, i == self.at)]
            if i in self.rejected:
                out += wrap(f"✗ {self.rejected[i]}", width, "$text-error")
            out.append(Content(""))
            self.spans.append((start, len(out)))
        out += self.point_lines(width)
        out += self.progress_lines(width)
        return out

    def waiting_lines(self, width: int) -> list[Content]:
        """A seat held by another phone: since when, and what happens now."""
        since = (datetime.fromtimestamp(self.taken_since).strftime("%H:%M")
                 if self.taken_since is not None else "a moment ago")
        texts = {
            "asking": f"{self.player}'s seat is taken: another phone has held it since {since}. The host's "
                      "screen asks whether this phone may take it over; this page follows the answer.",
            "refused": f"The host kept {self.player}'s seat on the other phone. Enter asks again.",
            "lost": f"The host gave {self.player}'s seat to another phone: this one no longer types for "
                    f"{self.player}. Enter asks for the seat back.",
        }
        return [Content("")] + wrap(texts.get(self.state, ""), width, "$text-warning")

    def point_lines(self, width: int) -> list[Content]:
        """This player's points at this step (all of the round's at the Summary: the others' too once revealed)."""
        step = self.step
        if step.id == "summary":
            if not self.revealed():
                return wrap("The others' values show here once every player has filled every step.", width, "dim")
            out: list[Content] = []
            for player in self.model.players:
                mine = [it for it in self.items if it.player == player]
                total = sum((it.points for it in mine), Fraction(0))
                out.append(Content.assemble((inert(player), "bold"), f"  {walk.points(total)} points"))
                for it in mine:
                    out += wrap(f"{walk.points(it.points, signed=True)} {it.why}", width, "", indent=2)
            return out + [Content("")]
        mine = [it for it in self.items if it.player == self.player and step.shows(it)]
        out = []
        others = [p for p in self.model.players if p != self.player]
        alone = self.alone_items()
        compared = False
        for it in mine:
            if it not in alone or any(name_in(p, it.why) for p in others):
                compared = True  # it depends on the others' values (a bonus to the longest): at the Summary
                continue
            out += wrap(f"{walk.points(it.points, signed=True)} {it.why}", width, "$text-success")
        if compared:
            out += wrap("Compared with the others at the Summary.", width, "dim")
        return out + ([Content("")] if out else [])

    def progress_lines(self, width: int) -> list[Content]:
        """Who has filled the step (✓) and who has not yet (…); their values stay theirs until the Summary."""
        step = self.step
        slots = self.slots(step)
        others = [p for p in self.model.players if p != self.player]
        if not others:
            return []
        if not slots:
            waiting = [p for p in others for s in self.steps
                       if self.slots(s) and not walk.player_done(self.model, self.number, s, self.slots(s), p)]
            names = list(dict.fromkeys(waiting))
            if step.id != "summary" or not names:
                return []
            return wrap("Waiting for: " + ", ".join(names), width, "dim")
        marks = [f"{p} {'✓' if walk.player_done(self.model, self.number, step, slots, p) else '…'}" for p in others]
        return wrap("Others: " + "  ".join(marks), width, "dim")


def name_in(name: str, text: str) -> bool:
    """Whether a player's name is a word of the text."""
    import re

    return re.search(rf"(?<!\w){re.escape(name)}(?!\w)", text) is not None


def wrap(text: str, width: int, style: str = "", indent: int = 0) -> list[Content]:
    """Text in lines of at most `width` cells, broken between words (a word longer than a line is cut)."""
    lines: list[str] = []
    line = ""
    for word in inert(text).split():
        while cell_len(word) > width - indent:
            if line:
                lines.append(line)
                line = ""
            lines.append(word[: width - indent])
            word = word[width - indent:]
        if line and cell_len(line) + 1 + cell_len(word) > width - indent:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    if line or not lines:
        lines.append(line)
    return [Content.styled(" " * indent + x, style) if style else Content(" " * indent + x) for x in lines]


class JoinScreen(ModalScreen[str | None]):
    """"Join as": the players of the open session, each with whether a phone holds their seat; the one picked."""

    DEFAULT_CSS = """
    JoinScreen { align: center middle; }
    JoinScreen > Vertical { width: 40; max-width: 100%; height: auto; padding: 1 1; background: $panel; }
    JoinScreen OptionList { height: auto; max-height: 24; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel", id="cancel")]

    def __init__(self, players: tuple[str, ...], held: dict[str, float]) -> None:
        super().__init__()
        self.players = players
        self.held = held

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static("Join as (this phone types that player's values only):")
            options: list[Option] = []
            for player in self.players:
                since = self.held.get(player)
                note = (f"taken since {datetime.fromtimestamp(since).strftime('%H:%M')}: the host is asked"
                        if since is not None else "free")
                options.append(Option(Content.assemble((inert(player), "bold"), "\n  ", (note, "dim")),
                                      id=f"p{len(options)}"))  # two rows: a finger's tap target
            yield OptionList(*options, id="join-players")

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.players[event.option_index])

    def action_cancel(self) -> None:
        self.dismiss(None)
