"""The walkthrough of one round without a screen: the cursor, the session as typed, and what the screen shows.

`WalkState` holds where the cursor is (round, step, player, box) and the edit pipeline: a typed value becomes a
candidate session, the core checks its round (the same work in round 30 as in round 1), and an accepted one is
staged in the Document, which writes it; a refused one is kept with its reasons at its box. It answers what the
walkthrough must draw — the step's heading, each player's points and problems, the notes, the table of points, the
marks of the step list — as plain values the widgets compare and draw. No Textual here: it is tested alone.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import TYPE_CHECKING, Any

from scorekeeper import games, walk
from scorekeeper.games.base import Game, Item, Step, add_items
from scorekeeper.model.session import Problem, Session
from scorekeeper.walk.cursor import Cursor, Left
from scorekeeper.walk.cursor import Spot as Spot  # the screens name it from here
from scorekeeper.walk.parts import Found, Part, Path, Refused, Scored, Total, Trail

if TYPE_CHECKING:
    from collections.abc import Callable

    from scorekeeper.maps import GameMap
    from scorekeeper.walk.document import Batch, Document

STEP_WIDE = frozenset({"holder"})
"""The kinds picked once for the whole step (a card there is one of), not player by player."""

Where = tuple[str, str, str | None]
"""A player's input: (player, field key, key inside it)."""

NOT_READY: Any = object()
"""The value of a cell whose text cannot be read yet (a route the map does not know): nothing to save."""


def map_of(game: Game, session: Session) -> GameMap | None:
    """The session's map, if its game is played on one (the map code is imported only then)."""
    if getattr(game, "map_name", None) is None:
        return None
    from scorekeeper.walk.mapmode import map_of as session_map

    return session_map(game, session)


@dataclass(frozen=True)
class Heading:
    """What the step's heading says: the round, the step, who starts, the step's question, a warning left."""

    round: str
    step: str
    help: str
    first: str
    left: Left | None


@dataclass(frozen=True)
class Notes:
    """The step's problems about no single player; on the summary what comes next (`next`, `final` or neither)."""

    problems: tuple[Problem, ...]
    summary: bool
    next: str | None = None
    final: str | None = None


@dataclass(frozen=True)
class Scores:
    """The table of points: per player (name, before this round, this round, after it, the Longest Path marked
    provisional); `before`/`after` shown only when there are such rounds."""

    number: int
    rows: tuple[tuple[str, Fraction, Fraction, Fraction, bool], ...]
    before: bool
    after: bool


DONE, WARNED, REFUSED = "done", "warned", "refused"
"""The marks of the step list: done (✓), done with a warning (⚠), a value refused on the step shown (✗)."""


class WalkState:
    """One round of the walkthrough: its steps, the cursor, the session as typed, the values refused."""

    def __init__(self, doc: Document, number: int, index: int = 0,
                 value_at: Callable[[Where], Any] | None = None, player: str | None = None) -> None:
        """`value_at`: what a box holds now (the screen's editors), for the values refused before that may fit once
        another value changed; `player`: one player's view (a seat at the table), the cursor on that player's
        inputs only."""
        self.doc = doc
        self.player = player
        """The one player this walk is for (None: every player)."""
        self.value_at = value_at or (lambda where: NOT_READY)
        self.game = games.get(doc.session.game)
        self.cursor = Cursor(number, single=player is not None)
        """Where the walk is (a value: a move makes a new one)."""
        self.model: Session = doc.session
        """The session as typed: the Document's, with the accepted values staged for the next save."""
        self.base: Session = doc.session
        """The session of the document the model was made from (edits made since are merged into the newest)."""
        self.game_map = map_of(self.game, self.model)
        self.steps: tuple[Step, ...] = ()
        self.inputs: tuple[tuple[walk.Slot, ...], ...] = ()
        self.rules: object = None
        self.entry: str | None = None
        """The way routes are entered the plan was made for (`Document.entry`)."""
        self.slots: tuple[walk.Slot, ...] = ()
        self.given: set[int] = set()
        """The step-wide picks given (by slot index)."""
        self.rejected: dict[Where, list[Problem]] = {}
        """The values refused at each box, with the core's reasons."""
        self.refused: list[Problem] = []
        """Why a step-wide pick was refused."""
        self.problems: list[Problem] = []
        self.items: list[Item] = []
        self.points: dict[str, Fraction] = {}
        self.before: dict[str, Fraction] = {}
        self.after: dict[str, Fraction] = {}
        """The points of the rounds after this one (none: the last round)."""
        self.others: list[Problem] = []
        self.first = self.model.players[0]
        self.warned: set[int] = set()
        self.start_round()
        self.load_step(index)

    # -- the round: its steps, checked and scored alone ----------------------------------
    def plan(self) -> None:
        """The round's steps and the inputs of each (worked out again when the house rules or the way routes are
        entered change)."""
        if self.rules is not self.model.rules or self.entry != self.doc.entry:
            self.rules, self.entry = self.model.rules, self.doc.entry
            self.steps = self.game.steps(self.model)
            self.inputs = tuple(walk.shown_slots(self.game, self.model, step, self.entry) for step in self.steps)

    def slots_of(self, step: Step) -> tuple[walk.Slot, ...]:
        """The inputs of a step of the round."""
        for s, slots in zip(self.steps, self.inputs, strict=True):
            if s is step:
                return slots
        return walk.shown_slots(self.game, self.model, step, self.doc.entry)

    def other_entry(self) -> str | None:
        """The field key `ctrl+e` switches the routes to (None: this game enters them one way)."""
        return walk.other_entry(self.game, self.model, walk.entry_mode(self.game, self.model, self.doc.entry))

    def other_entry_name(self) -> str:
        """What `ctrl+e` switches the routes to: `counts by length`, `the score track`."""
        key = self.other_entry()
        return walk.entry_name(self.game, self.model, key) if key else ""

    def offers_entry(self) -> bool:
        """The step is where routes are entered, and the game enters them either way."""
        return walk.either(self.step) and bool(walk.entries(self.game, self.model))

    @property
    def number(self) -> int:
        """The round walked."""
        return self.cursor.number

    @property
    def index(self) -> int:
        """The step shown (its index)."""
        return self.cursor.index

    @property
    def spots(self) -> tuple[Spot, ...]:
        """The places of the step the cursor can be."""
        return self.cursor.spots

    @property
    def at(self) -> int:
        """The place of the cursor (its index among `spots`)."""
        return self.cursor.at

    @property
    def left(self) -> Left | None:
        """A warning of the step just left."""
        return self.cursor.left

    @property
    def step(self) -> Step:
        """The step the cursor is on."""
        return self.steps[self.index]

    @property
    def players(self) -> tuple[str, ...]:
        """The players the cursor goes through, in seat order (one player's view: that player alone)."""
        return self.model.players if self.player is None else (self.player,)

    def start_round(self) -> None:
        """What the round starts from: the points before it and after it, and the problems of the other rounds."""
        self.plan()
        sheet = self.doc.sheet()
        number = self.number
        players = self.model.players
        self.before = {p: sum((r.points[p] for r in sheet.rounds[: number - 1]), Fraction(0)) for p in players}
        later = sheet.rounds[number:]  # editing an earlier round: the Total is still the game's
        self.after = {p: sum((r.points[p] for r in later), Fraction(0)) for p in players} if later else {}
        self.others = [p for p in self.doc.problems() if p.round != number]
        self.first = walk.first_player(self.game, self.model, sheet, number)
        self.rescore(self.model)

    def rescore(self, session: Session, problems: list[Problem] | None = None) -> None:
        """The round's problems, items and points (as much work in round 30 as in round 1)."""
        found = problems if problems is not None else walk.round_check(self.game, session, self.number)
        self.problems = self.others + found
        if self.number <= len(session.rounds) and not walk.errors(found):
            self.items = self.game.scored_round(session, self.number)
        elif self.number > len(session.rounds) or self.player is not None:
            self.items = []  # one player's view shows no points while the round has an error
        self.points = add_items(session.players, self.items)

    def value(self, player: str, slot: walk.Slot) -> Any:
        """A player's value of an input in the session as typed (None: not entered)."""
        return walk.value_of(self.model.round(self.number).entry(player), slot)

    # -- the cursor ------------------------------------------------------------------------
    def load_step(self, index: int, focus: Where | None = None) -> None:
        """Show a step: its inputs, and the cursor on the one asked for (else the first left to fill)."""
        self.plan()
        index = max(0, min(index, len(self.steps) - 1))
        self.slots = self.slots_of(self.steps[index])
        players = self.players
        wide = [s for s, slot in enumerate(self.slots) if slot.kind in STEP_WIDE and self.player is None]
        self.given = {s for s in wide if any(isinstance(self.value(p, self.slots[s]), bool) for p in players)}
        spots = [Spot(p, s) for p in range(len(players)) for s in range(len(self.slots)) if s not in wide]
        spots += [Spot(None, s) for s in wide]
        self.rejected, self.refused = {}, []
        self.cursor = replace(self.cursor, index=index, spots=tuple(spots), at=0)
        self.cursor = self.cursor.to(self.spot_of(focus) if focus else self.first_open())

    def go(self, index: int, focus: Where | None = None, left: Left | None = None) -> None:
        """Another step of the round; `left`: a warning of the step just left."""
        self.cursor = replace(self.cursor, left=left)
        self.load_step(index, focus)

    def goto(self, number: int, index: int, focus: Where | None = None) -> None:
        """Another round (from the Document as it is now) and step."""
        self.cursor = replace(self.cursor, number=number)
        self.model = self.base = self.doc.session
        self.start_round()
        self.go(index, focus)

    @property
    def spot(self) -> Spot | None:
        """Where the cursor is (None: the step has no input)."""
        return self.cursor.spot

    def spot_of(self, where: Where) -> int:
        """The spot of a player's input (or of the player's first input)."""
        player, key, sub = where
        for i, spot in enumerate(self.spots):
            slot = self.slots[spot.slot]
            if spot.player is None and slot.key == key:
                return i
            if spot.player is not None and self.players[spot.player] == player and slot.key == key \
                    and (sub is None or slot.sub in (None, sub)):
                return i
        return next((i for i, s in enumerate(self.spots) if s.player is not None and self.players[s.player] == player),
                    0)

    def first_open(self) -> int:
        """The first input of the step not entered yet (else the first one)."""
        rnd = self.model.round(self.number)
        step = self.step
        for i, spot in enumerate(self.spots):
            slot = self.slots[spot.slot]
            if spot.player is None:
                if spot.slot not in self.given:
                    return i
                continue
            player = self.players[spot.player]
            if not walk.player_done(self.model, self.number, step, self.slots, player):
                if walk.either(step) or not walk.has(rnd.entry(player), slot):
                    return i
        return 0

    def advance(self) -> str:
        """The next input (`box`), else the next step (`step`; a new warning at this step is kept to be read, once),
        else `end`: the round is walked."""
        on = self.cursor.next_box()
        if on is not None:
            self.cursor = on
            return "box"
        warnings = self.step_warnings()
        left = None
        if warnings and self.index not in self.warned:
            self.warned.add(self.index)
            left = Left(self.step.title, warnings[0].shown, len(warnings) - 1)
        if self.index < len(self.steps) - 1:
            self.go(self.index + 1, left=left)
            return "step"
        return "end"

    def cycle(self, delta: int) -> None:
        """Tab / shift+Tab past a box's edge: the player's next / previous input, round the row."""
        self.cursor = self.cursor.cycled(delta)

    def move(self, delta: int) -> bool:
        """Up/down: the same input of the previous/next player (one player's view: the player's previous/next
        input); False at the first/last."""
        moved = self.cursor.moved(delta)
        if moved is None:
            return False
        self.cursor = moved
        return True

    def to_player(self, p: int) -> None:
        """The cursor on a player's row: the same input, else the player's first."""
        self.cursor = self.cursor.to_player(p)

    # -- the edit pipeline: a typed value, the round checked, the change staged ---------------
    def edit(self, where: Where, slot: walk.Slot, value: Any, boundary: bool = False) -> bool:
        """A value typed at a player's box: taken when the core finds no error in its round (and staged for the
        save), else kept with the reasons at the box; NOT_READY (text that is no value yet) clears those."""
        if value is NOT_READY:
            self.rejected.pop(where, None)
            return False
        candidate = walk.with_slot(self.model, self.number, where[0], slot, value)
        return self.accept(candidate, (self.number, *where), boundary, where)

    def pick(self, s: int, values: dict[str, bool]) -> bool:
        """A step-wide pick (who holds a card there is one of): every player's value at once."""
        slot = self.slots[s]
        candidate = self.model
        for player, held in values.items():
            candidate = walk.with_slot(candidate, self.number, player, slot, held)
        if self.accept(candidate, (self.number, "holder", slot.key), boundary=True):
            self.given.add(s)
            return True
        return False

    def accept(self, candidate: Session, key: object, boundary: bool, where: Where | None = None) -> bool:
        """Take a new session when its round has no error (staged in the Document for the next save, with the values
        refused before that fit now); else keep why."""
        if candidate == self.model:
            if boundary:
                self.doc.end_run()
            if where:
                self.rejected.pop(where, None)
            return True
        found = walk.round_check(self.game, candidate, self.number)
        errors = walk.errors(found)
        if errors:
            if where is not None:
                self.rejected[where] = errors
            else:
                self.refused = errors
            return False
        if where is not None:
            self.rejected.pop(where, None)
        self.refused = []
        self.model = candidate
        self.rescore(candidate, found)
        self.retry()
        self.doc.stage(self.model, key, boundary)
        return True

    def retry(self) -> None:
        """Values refused before may fit now (the card another player held is free): take them."""
        for where in list(self.rejected):
            slot = next((s for s in self.slots if (s.key, s.sub) == where[1:]), None)
            value = self.value_at(where)
            if slot is None or value is NOT_READY:
                continue
            candidate = walk.with_slot(self.model, self.number, where[0], slot, value)
            found = walk.round_check(self.game, candidate, self.number)
            if not walk.errors(found):
                del self.rejected[where]
                self.model = candidate
                self.rescore(candidate, found)

    def blank(self, player: str, slot: walk.Slot) -> tuple[bool, Any]:
        """Enter on an empty box: (whether the cursor just moves on — the step's other alternative is given —, the
        value it confirms: the blank, 0 / no / none, or None for a list of counts that is one alternative)."""
        step = self.step
        entry = self.model.round(self.number).entry(player)
        if walk.either(step) and any(s != slot and walk.has(entry, s) for s in self.slots):
            return True, None
        return False, None if walk.either(step) and slot.kind == "counts" else slot.blank()

    def take(self) -> Batch | None:
        """The edits staged since the last save, to write now (None: nothing to write)."""
        return self.doc.take(self.base)

    def saved(self, session: Session) -> None:
        """A save went through: the Document has that session now (or what it merged into)."""
        self.base = session

    def replaced(self, old: Session, new: Session) -> tuple[int, int, Where | None] | None:
        """Undo, redo, a reload, or a change not saved: where to show the session as it is now — (round, step,
        box) — or None for the standings (the change is in a round after the last)."""
        self.doc.discard()
        self.model = self.base = self.doc.session
        where = walk.changed_at(old, new)
        if where is None:
            return self.number, self.index, None
        number, player, key, sub = where
        if number > len(new.rounds) and new.rounds:
            return None
        index = self.index if number == self.number else 0
        if key is not None:
            for i, step in enumerate(self.game.steps(new)):
                if any(k == key and (sub is None or s in (None, sub)) for k, s in step.inputs):
                    index = i
                    break
        return number, index, (player, key, sub) if player and key else None

    def merged(self) -> dict[Where, Any] | None:
        """Changes made in another place came in: the session as typed, and the edits staged, get them too; the
        boxes of the step whose value changed there, with the value the session as typed holds now (this place's
        own where it typed one; None: nothing came in)."""
        from scorekeeper.walk.merge import rebase

        base, now = self.base, self.doc.session
        if base == now:
            return None
        self.model = rebase(self.model, base, now)
        self.doc.rebase_staged(base, now)
        self.base = now
        before, after, typed = base.round(self.number), now.round(self.number), self.model.round(self.number)
        changed: dict[Where, Any] = {}
        for player in self.players:
            for slot in self.slots:
                if walk.value_of(after.entry(player), slot) != walk.value_of(before.entry(player), slot):
                    changed[(player, slot.key, slot.sub)] = walk.value_of(typed.entry(player), slot)
        self.rescore(self.model)
        return changed

    def stale(self, changed: dict[Where, Any], shown: Callable[[Where], Any]) -> dict[Where, Any]:
        """Of the boxes changed elsewhere (`merged`), those to show anew: every one whose value shown is not the
        session's, the box under the cursor too — but not one holding a value refused here or text not read yet
        (what the user is typing stays). A box the user did not type in thus always shows what the file holds."""
        out: dict[Where, Any] = {}
        for where, value in changed.items():
            now = shown(where)
            if where not in self.rejected and now is not NOT_READY and now != value:
                out[where] = value
        return out

    # -- what the screen shows ---------------------------------------------------------------
    def heading(self) -> Heading:
        """The step's heading."""
        step = self.step
        return Heading(walk.round_title(self.game, self.model, self.number), step.title, step.help, self.first,
                       self.left)

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

    def marks(self) -> tuple[str, ...]:
        """The step list's mark of each step: done, done with a warning, refused (on the step shown), or none."""
        out = []
        before = True
        refused = bool(self.rejected)
        for i, step in enumerate(self.steps):
            slots = self.inputs[i]
            done = walk.step_done(self.model, self.number, step, slots) and step.id != "summary" and \
                (bool(slots) or before)
            before = before and done
            mark = DONE if done else ""
            if i == self.index and refused:
                mark = REFUSED
            elif done and self.step_warnings(step):
                mark = WARNED
            out.append(mark)
        return tuple(out)

    def notes(self) -> Notes:
        """The step's problems about no single player, and on the summary what comes next (once the session as
        typed is saved: the Document's sheet is then this session's)."""
        step, number = self.step, self.number
        summary = step.id == "summary"
        done = walk.step_done(self.model, number, step, self.slots)
        found = tuple(p for p in walk.round_problems(self.problems, number, step) if p.is_error or done or summary)
        if not summary:
            return Notes(found, False)
        sheet = self.doc.sheet() if not self.doc.staged and self.doc.session is self.model else None
        if sheet is not None and self.model.round(number).players and not self.game.revealed(self.model, number):
            where = walk.resume(self.game, self.model, sheet)  # a round still being typed: not the next one yet
            left = f" from {self.steps[where[1]].title}" if where is not None and where[0] == number else ""
            return Notes(found, True, next=f"finish round {number}{left}")
        if sheet is not None and sheet.next:
            return Notes(found, True, next=sheet.next)
        if sheet is not None and sheet.complete:
            return Notes(found, True, final=walk.result_text(sheet))
        return Notes(found, True)

    def scores(self) -> Scores:
        """The points before this round, this round's and the totals (the same work in any round)."""
        players = self.players
        early = self.game.provisional(self.model, self.number, self.items)
        rows = tuple((p, self.before[p], self.points.get(p, Fraction(0)), self.after.get(p, Fraction(0)), p in early)
                     for p in players)
        return Scores(self.number, rows, self.number > 1, bool(self.after))

    def live(self, player: str) -> list[Part]:
        """What a player's row says for the step, in order: the items scored (a path under its item, or the own path
        scoring nothing), the total on the summary, the problems at the inputs, the values not saved."""
        step, number = self.step, self.number
        summary = step.id == "summary"
        mine = [i for i in self.items if i.player == player]
        parts: list[Part] = []
        if self.game_map is not None and not step.inputs and step.categories:
            parts += self.path_parts(player, mine, step)
        else:
            parts += [Scored(i) for i in mine if summary or step.shows(i)]
        if summary:
            parts.append(Total(self.points.get(player, Fraction(0))))
        entry = self.model.round(number).entry(player)
        for problem in self.problems:
            if problem.round != number or problem.player != player:
                continue
            if summary or any(walk.at_slot(problem, number, player, s) and (walk.has(entry, s) or problem.is_error)
                              for s in self.slots):
                parts.append(Found(problem))
        said: set[str] = set()
        for slot in self.slots:
            for problem in self.rejected.get((player, slot.key, slot.sub), []):
                if problem.shown not in said:
                    said.add(problem.shown)
                    parts.append(Refused(problem))
        return parts

    def path_parts(self, player: str, items: list[Item], step: Step) -> list[Part]:
        """On a map, a step worked out from the routes: the core's items, each path (its detail) city by city; a
        player without an item sees the own longest path, which scores nothing."""
        out: list[Part] = []
        shown = [i for i in items if step.shows(i)]
        for item in shown:
            out.append(Scored(item))
            if len(item.detail) > 1:
                out.append(Path(tuple(item.detail)))
        routes = next((f.key for f in self.game.fields_for(self.model.rules).values() if f.kind == "map-routes"),
                      None)
        if not any(len(i.detail) > 1 for i in shown) and self.game_map is not None and routes is not None:
            from scorekeeper.walk.mapmode import trail

            length, cities = trail(self.game_map, self.model.round(self.number).entry(player).get(routes, []))
            bonus = self.game.trail_note(step)
            out.append(Trail(length, tuple(cities), bonus))
        return out

    def line_problems(self, player: str, slot: walk.Slot) -> tuple[dict[int, str], list[Item]]:
        """At a list input: the problems by line (refused values and the core's errors), and the player's items
        (tickets show whether they connect)."""
        mine = [q for q in self.rejected.get((player, slot.key, slot.sub), []) if q.player in (None, player)]
        found = mine + [
            q for q in self.problems if walk.at_slot(q, self.number, player, slot) and q.is_error]
        return {q.index: q.shown for q in found if q.index is not None}, [i for i in self.items if i.player == player]
