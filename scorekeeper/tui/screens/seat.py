"""One player's seat at the table (SPEC §5, "join as one seat"): a phone walks the round with that player's inputs
only, in one column, sees which steps the others have filled but not their values until the round's Summary, and
holds the seat in the session's seat registry (`scorekeeper.web.seats`) while it is open.

The round is a `WalkState` filtered to the player (the cursor, the session as typed, the values refused, the edits
staged and merged), its keys those of every walking screen (`WalkingScreen`). What the card draws besides the
player's own boxes comes from one `seat_view.SeatView` and nothing else: the widgets never read the session or the
walk's items and problems. This screen draws the column and holds the seat."""

from __future__ import annotations

import time
from datetime import datetime
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

from scorekeeper.model.text import inert
from scorekeeper.tui import keymap
from scorekeeper.tui.screens.walking import WalkingScreen
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.editors import CountsEditor, Editor
from scorekeeper.tui.widgets.kinds import editor_for
from scorekeeper.walk import points, seat_view
from scorekeeper.walk.state import WalkState
from scorekeeper.web import seats

if TYPE_CHECKING:
    from scorekeeper.model.session import Session
    from scorekeeper.walk.document import Document

WIDTH = 40
"""The seat's column at most: a phone held upright."""
BOX = 12
"""The columns a number box gives to type in (framed: 3 rows by 14 columns), a finger's target on a phone."""


class SeatCard(Widget, can_focus=True):
    """The seat's step, drawn in one column of pieces (text, and each of the player's boxes framed: a finger's
    target); it takes the keys (as the walkthrough's grid does, bursts too)."""

    DEFAULT_CSS = """
    SeatCard { layout: vertical; height: auto; width: 1fr; max-width: 42; padding: 0 1 1 1; }
    """

    def __init__(self, seat: SeatScreen, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.seat = seat
        self.drawn: list[list[Content]] | None = None
        """The pieces' lines for the frame being painted (worked out once a frame, not once a key)."""
        self.shape: tuple[str, ...] = ()

    def compose(self) -> ComposeResult:
        self.shape = self.seat.shape()
        yield from self.pieces()

    def on_mount(self) -> None:
        """The seat may have been taken while the card was made: its pieces as the seat is now."""
        self.redraw()

    def pieces(self) -> list[SeatPiece]:
        """A piece for each text between the boxes, and one for each box."""
        pieces = [SeatPiece(self, i, kind) for i, kind in enumerate(self.shape)]
        for piece in pieces:
            piece.set_class(kind_box(piece) and self.seat.walk.at == piece.index // 2, "-at")
        return pieces

    def segments(self) -> list[list[Content]]:
        """The lines of each piece now."""
        if self.drawn is None:
            self.drawn = self.seat.segments(min(WIDTH, max(10, self.size.width or WIDTH)))
        return self.drawn

    def redraw(self) -> None:
        """Draw the pieces again (new pieces when the step's boxes changed)."""
        self.drawn = None
        shape = self.seat.shape()
        if shape != self.shape and self.is_mounted:
            self.shape = shape
            self.remove_children()
            self.mount_all(self.pieces())
            return
        for piece in self.query(SeatPiece):
            piece.set_class(kind_box(piece) and self.seat.walk.at == piece.index // 2, "-at")
            piece.refresh(layout=True)

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
            self.redraw()
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
        self.redraw()


def kind_box(piece: SeatPiece) -> bool:
    """Whether the piece is one of the player's boxes."""
    return piece.has_class("-box")


class SeatPiece(Widget):
    """One piece of the seat's card: text, or one of the player's boxes (`-box`: framed, at least 3 rows by 12
    columns to type in; `-wide`: a list or a row of counts, the column's width)."""

    DEFAULT_CSS = """
    SeatPiece { height: auto; width: 1fr; }
    SeatPiece.-box { border: tall $border; width: 16; margin: 0 0 0 1; }
    SeatPiece.-box.-wide { width: 1fr; }
    SeatPiece.-box.-at { border: tall $accent; }
    """

    def __init__(self, card: SeatCard, index: int, kind: str) -> None:
        super().__init__(classes="-box" if kind != "text" else "")
        self.card = card
        self.index = index
        self.set_class(kind == "wide", "-wide")

    def render(self) -> Content:
        segments = self.card.segments()
        lines = segments[self.index] if self.index < len(segments) else []
        return Content("\n").join(lines)

    def on_click(self, event: events.Click) -> None:
        """A tap on a box puts the cursor there."""
        self.card.focus()
        if self.has_class("-box"):
            self.card.seat.tap(self.index // 2)
            self.card.redraw()


class SeatScreen(WalkingScreen):
    """A phone's seat: the round step by step, this player's inputs only; the others' values at the Summary."""

    KEYMAP = keymap.SEAT
    BINDINGS = keymap.bindings(KEYMAP)

    AUTO_FOCUS = "#seat-card"

    def __init__(self, doc: Document, player: str, phone: str | None = None) -> None:
        super().__init__()
        self.doc = doc
        self.player = player
        self.phone = phone or seats.new_phone()
        self.walk = WalkState(doc, seat_view.table_round(doc), player=player)
        """The round the table walks, filtered to this player: the cursor, the session as typed, what is refused."""
        self.walk.go(seat_view.first_step(self.walk))
        self.editors: list[Editor] = []
        """This player's boxes of the step shown, one a spot of the walk."""
        self.state = "asking"
        """`held` (this phone types), `asking` (another phone holds the seat: the host is asked), `refused`,
        `lost` (the host gave the seat to another phone), `gone` (the player is not in the session), `unkept` (the
        seats cannot be kept in this folder: `unkept` says why)."""
        self.unkept = ""
        self.taken_since: float | None = None
        self.load_editors()

    @property
    def walking(self) -> WalkState:
        """The round's state the keys move through."""
        return self.walk

    def compose(self) -> ComposeResult:
        self.show_title()
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

    def load_editors(self) -> None:
        """This player's boxes of the step the walk shows, from the session; the cursor arrives at its box."""
        slots = self.walk.slots
        self.editors = [editor_for(self.player, slots[spot.slot], self.walk.value(self.player, slots[spot.slot]),
                                   self.walk.game_map) for spot in self.walk.spots]
        if self.editors:
            self.arrive()

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
        except OSError as exc:
            self.unkept = exc.strerror or str(exc)
            if self.state != "unkept":
                self.state = "unkept"
                self.redraw()
            return
        if self.state in ("refused", "lost"):
            if outcome == seats.HELD:  # the seat came free meanwhile: hold it again only if asked (Enter)
                seats.update(self.doc.path, lambda s: (seats.release(s, self.player, self.phone), None))
            return
        before = self.state
        self.state = seats.status(before, outcome)
        seat = table.get(self.player)
        self.taken_since = seat.since if seat is not None and seat.phone != self.phone else None
        if before != self.state:
            self.redraw()

    def ask_again(self) -> None:
        """Enter on a refused or lost seat: ask for it again."""
        self.state = "asking"
        self.hold()
        self.redraw()

    # -- keys (`WalkingScreen.key` hands each to the methods below) ------------------------------
    def key(self, key: str, char: str | None) -> bool:
        """A key at the cursor once the seat is held; before, Enter on a seat refused or lost asks again."""
        if self.state == "held":
            return super().key(key, char)
        if key == "enter" and self.state in ("refused", "lost"):
            self.ask_again()
            return True
        return self.screen_key(key)

    def editor_at(self, player: int, slot: int) -> Editor:
        """The player's box of the input (the seat has one player)."""
        return self.editors[slot]

    def arrive(self, down: bool = True) -> None:
        """The cursor lands on its box."""
        self.editors[self.walk.at].arrive(down)

    def move(self, delta: int) -> None:
        """Up / down: the previous / next input of the step."""
        self.walk.move(delta)
        self.arrive(delta > 0)

    def cycle(self, delta: int) -> None:
        """Tab / shift+Tab: the next / previous input, round the step."""
        self.walk.cycle(delta)
        self.arrive(delta > 0)

    def tap(self, box: int) -> None:
        """A tap on one of the player's boxes: the cursor there."""
        if self.state != "held" or box == self.walk.at or not 0 <= box < len(self.editors):
            return
        self.flush()
        self.walk.cursor = self.walk.cursor.to(box)
        self.arrive()

    def edited(self, editor: Editor, value: Any, boundary: bool = False) -> bool:
        """A value typed: into the session when the round has no error with it, else why at the input; saved once
        the keys typed together are applied."""
        taken = self.walk.edit((self.player, editor.slot.key, editor.slot.sub), editor.slot, value, boundary)
        if self.doc.staged:
            self.call_after_refresh(self.flush)
        return taken

    def flush(self) -> None:
        """Save what was typed (the document merges it with the others' changes, field by field)."""
        batch = self.walk.take()
        if batch is None:
            return
        saved = self.app.save_batch(batch)
        if saved.done() and saved.result():
            self.walk.saved(batch.session)
        self.redraw()

    def advance(self) -> None:
        """The next input, or the next step."""
        went = self.walk.advance()
        if went == "box":
            self.arrive()
            return
        self.flush()
        if went == "step":
            self.load_editors()
        self.redraw()

    def action_next(self) -> None:
        """Enter on a step without an input: the next step (on a revealed round's Summary: the next round)."""
        self.flush()
        if self.walk.step.id == "summary" and self.next_round():
            self.redraw()
            return
        self.action_step(1)

    def action_step(self, delta: int) -> None:
        """The previous / next step of the round, up to this player's first step not filled: a seat fills its
        steps in turn (a table it skipped a step of would read as one written by hand, finished)."""
        self.flush()
        index = max(0, min(len(self.walk.steps) - 1, self.walk.index + delta))
        if delta > 0:
            index = min(index, max(self.walk.index, seat_view.first_step(self.walk)))
        if index != self.walk.index:
            self.walk.go(index)
            self.load_editors()
        self.redraw()

    # -- others' changes ---------------------------------------------------------------------
    def session_merged(self, old: Session, new: Session) -> None:
        """Changes made in another place came in: this player's inputs keep what is typed, the others' progress
        (and, once revealed, values) follow."""
        walk = self.walk
        changed = walk.merged()
        if changed is None:
            return
        boxes = {(self.player, e.slot.key, e.slot.sub): e for e in self.editors}
        for where, value in walk.stale(changed, lambda w: boxes[w].value() if w in boxes else None).items():
            if where in boxes:
                boxes[where].load(value)
        if walk.step.id != "summary":  # a revealed round stays on its Summary until the player moves on
            self.next_round()
        self.redraw()

    def next_round(self) -> bool:
        """Once the round is revealed (every player has filled every step): on to the round the table walks."""
        walk = self.walk
        if not seat_view.revealed(walk) or self.doc.staged:
            return False
        number = seat_view.table_round(self.doc)
        if number <= walk.number:
            return False
        walk.goto(number, 0)
        walk.go(seat_view.first_step(walk))
        self.load_editors()
        return True

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo, a reload, a change not saved: the step from the session as it is now."""
        self.walk.replaced(old, new)  # what was staged is dropped
        self.walk.goto(self.walk.number, self.walk.index)
        self.load_editors()
        self.redraw()

    def redraw(self) -> None:
        """Draw the card again."""
        for card in self.query(SeatCard):
            card.redraw()

    # -- drawing -----------------------------------------------------------------------------
    def view(self) -> seat_view.SeatView:
        """What this seat may be shown now (`seat_view.seat_view`): the only source of what the card draws
        besides this player's own boxes."""
        walk = self.walk
        typed = {(e.slot.key, e.slot.sub): e.value() for e in self.editors}
        refused = {(key, sub): typed.get((key, sub)) for player, key, sub in walk.rejected if player == self.player}
        return seat_view.seat_view(walk.model, self.player, walk.number, walk.index, refused, self.doc.entry)

    def shape(self) -> tuple[str, ...]:
        """The card's pieces: text, then each box (`box`, or `wide` for a list or a row of counts) and the text
        after it."""
        if self.state != "held":
            return ("text",)
        boxes = ["wide" if e.stacked or isinstance(e, CountsEditor) else "box" for e in self.editors]
        return ("text", *(kind for box in boxes for kind in (box, "text")))

    def segments(self, width: int) -> list[list[Content]]:
        """The lines of the card's pieces (`shape`): who and where, each of this player's inputs (its label
        above its box, why a value was refused below), then their points and the others' progress."""
        view = self.view()
        out = head_lines(view, width)
        if self.state == "gone":
            return [out[:1] + wrap(f"{self.player} is no longer a player of this session.", width, "$text-warning")]
        if self.state != "held":
            return [out[:1] + self.waiting_lines(width)]
        refusals = {(key, sub): text for key, sub, text in view.refusals}
        pieces: list[list[Content]] = []
        for i, editor in enumerate(self.editors):
            label = editor.slot.label + (f"  ({editor.slot.allowed()})" if editor.slot.allowed() else "")
            out += wrap(label, width, "bold" if i == self.walk.at else "")
            if isinstance(editor, CountsEditor):  # the numbers the boxes count (routes by length)
                out.append(Content.styled("  " + "".join(f"{key:<4}" for key in editor.keys), "dim"))
            pieces.append(out)
            inner = width - 4 if editor.stacked or isinstance(editor, CountsEditor) else BOX
            pieces.append(editor.lines(inner, i == self.walk.at))
            out = []
            refused = refusals.get((editor.slot.key, editor.slot.sub))
            if refused is not None:
                out += refusal_lines(refused, width)
            out.append(Content(""))
        return [*pieces, out + point_lines(view, width) + progress_lines(view, width)]

    def lines(self, width: int) -> list[Content]:
        """The card as lines of text (a box's lines indented): what the seat reads."""
        return [line if i % 2 == 0 else Content("  ") + line
                for i, piece in enumerate(self.segments(width)) for line in piece]

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
            "unkept": f"{self.player}'s seat cannot be taken: {self.unkept}. Tell the host; this page tries again "
                      "every few seconds.",
        }
        return [Content("")] + wrap(texts.get(self.state, ""), width, "$text-warning")

def point_lines(view: seat_view.SeatView, width: int) -> list[Content]:
    """The seat's points at this step; at the Summary everyone's and who leads or won, once revealed."""
    out: list[Content] = []
    if view.step_id == "summary":
        if not view.revealed:
            return wrap("The others' values show here once every player has filled every step.", width, "dim")
        if view.standing:
            out += wrap(view.standing, width, "bold $text-success")
        for player, total, items in view.points:
            out.append(Content.assemble((inert(player), "bold"), f"  {points(total)} points"))
            for value, why in items:
                out += wrap(f"{points(value, signed=True)} {why}", width, "", indent=2)
        return out + [Content("")]
    for value, why in view.own:
        out += wrap(f"{points(value, signed=True)} {why}", width, "$text-success")
    if view.compared:  # it depends on the others' values (a bonus to the longest): at the Summary
        out += wrap("Compared with the others at the Summary.", width, "dim")
    return out + ([Content("")] if out else [])


def progress_lines(view: seat_view.SeatView, width: int) -> list[Content]:
    """Who has filled the step (✓) and who has not yet (…); at the Summary who has not filled every step."""
    if not view.others:
        return []
    if view.step_id == "summary":
        names = [f"{p} (you)" if p == view.player else p for p in view.waiting]
        return wrap("Waiting for: " + ", ".join(names), width, "dim") if names else []
    if not view.inputs:
        return []
    return wrap("Others: " + "  ".join(f"{p} {'✓' if done else '…'}" for p, done in view.others), width, "dim")


def head_lines(view: seat_view.SeatView, width: int) -> list[Content]:
    """Whose seat, the round, the step and what it asks."""
    out = [Content.assemble((inert(view.player), "bold $text-accent"), " · ", view.title),
           Content.assemble((view.step_title, "bold"), (f"  step {view.index + 1} of {view.count}", "dim"))]
    return out + (wrap(view.step_help, width, "dim") if view.step_help else []) + [Content("")]


def refusal_lines(text: str, width: int) -> list[Content]:
    """Why a value of the seat's was refused (in its own values only: `seat_view.refusal`)."""
    return wrap(f"✗ {text}", width, "$text-error")


def view_text(view: seat_view.SeatView, width: int) -> str:
    """All the seat's card draws from its view (everything but its own boxes), as text: what the seat reads."""
    lines = head_lines(view, width)
    lines += [line for _key, _sub, text in view.refusals for line in refusal_lines(text, width)]
    return "\n".join(line.plain for line in lines + point_lines(view, width) + progress_lines(view, width))


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
