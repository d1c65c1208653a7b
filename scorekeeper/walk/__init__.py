"""What the walkthrough needs to know, without Textual: input slots, steps done, where to resume, problems placed."""

from __future__ import annotations

import functools
import re
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from scorekeeper.games.base import Game, Sheet, Step, names
from scorekeeper.games.fields import Field, check_entry
from scorekeeper.games.validation import round_texts
from scorekeeper.model.points import fmt
from scorekeeper.model.session import Problem, Session, location

INT, OTHER = "int", "other"
"""The kind of a number inside a field (`attractions."8"`, `pairs.count`); of a field no editor knows."""


@dataclass(frozen=True)
class Slot:
    """One input of a step for each player: a field, or one key inside it (`attractions."8"`, `pairs.count`).

    Its kind is the field's (`int`, `bool`, `holder`, `cards`, `counts`, …), `int` for a key inside a field.
    """

    key: str
    sub: str | None
    field: Field
    kind: str
    label: str
    lo: int = 0
    hi: int | None = None

    def allowed(self) -> str:
        """The range of a number slot, for a header: `0–8`, `≥ 0`."""
        if self.kind != INT:
            return ""
        return f"{self.lo}–{self.hi}" if self.hi is not None else f"≥ {self.lo}"

    def blank(self) -> Any:
        """What Enter on an empty input confirms: 0 for a number inside a field, else the field's default."""
        return 0 if self.sub is not None else self.field.default()


def slot_for(field: Field, sub: str | None) -> Slot:
    """The slot of a step input `(key, sub)` over its field."""
    if sub is not None:
        label, lo, hi = field.part(sub)
        return Slot(field.key, sub, field, INT, label, lo, hi)
    return Slot(field.key, None, field, field.kind, field.label, getattr(field, "lo", 0), getattr(field, "hi", None))


def slots(game: Game, session: Session, step: Step) -> tuple[Slot, ...]:
    """The inputs of a step, each with its field (a field given whole may be entered as its parts)."""
    return _slots(game.fields_for(session.rules), step)


def _slots(fields: dict[str, Field], step: Step) -> tuple[Slot, ...]:
    return _slots_of(step.inputs, tuple(fields[key] for key, _sub in step.inputs))


@functools.lru_cache(maxsize=512)
def _slots_of(inputs: tuple[tuple[str, str | None], ...], used: tuple[Field, ...]) -> tuple[Slot, ...]:
    """The slots of a step's inputs and their fields (frozen: equal fields give equal slots, kept in an LRU cache)."""
    out: list[Slot] = []
    for (_key, sub), field in zip(inputs, used, strict=True):
        parts = field.parts() if sub is None else (sub,)
        out.extend(slot_for(field, part) for part in parts)
    return tuple(out)


def either(step: Step) -> bool:
    """Whether the step's inputs are alternatives, one of them enough (routes by length, or route points)."""
    return bool(getattr(step, "either", False))


# -- how the table enters a step of alternatives ---------------------------------------
ENTRY_NAMES = {"route_points": "the score track", "routes": "counts by length"}
"""How each way to enter routes is called on the screen; the first is the default."""


def entries(game: Game, session: Session) -> tuple[Field, ...]:
    """The fields a table may choose between to enter a step of alternatives (Ticket to Ride's routes: counted
    by length, or the points on the score track), in the step's order; none when no step offers a choice (a
    map scores claimed routes)."""
    fields = game.fields_for(session.rules)
    for step in game.steps(session):
        keys = tuple(dict.fromkeys(key for key, _sub in step.inputs))
        if either(step) and len(keys) > 1:
            return tuple(fields[key] for key in keys)
    return ()


def entry_mode(game: Game, session: Session, chosen: str | None = None) -> str | None:
    """How the table enters the step of alternatives, as a field key: the one chosen (on New session, or with
    the walkthrough's key), else the one the file holds values of (the first in the step's order when it holds
    both: it is the one that scores), else the score track (most tables read it: `ENTRY_NAMES` lists the
    default first); None when the game offers no choice."""
    offered = entries(game, session)
    keys = [f.key for f in offered]
    if not keys:
        return None
    if chosen in keys:
        return chosen
    for key in keys:
        if any(key in entry for rnd in session.rounds for entry in rnd.players.values()):
            return key
    return next((key for key in ENTRY_NAMES if key in keys), keys[-1])


def other_entry(game: Game, session: Session, current: str | None) -> str | None:
    """The next way to enter the step of alternatives after `current` (the walkthrough's key cycles them)."""
    keys = [f.key for f in entries(game, session)]
    if not keys:
        return None
    at = keys.index(current) if current in keys else -1
    return keys[(at + 1) % len(keys)]


def shown_slots(game: Game, session: Session, step: Step, chosen: str | None = None) -> tuple[Slot, ...]:
    """The inputs a step shows: on a step of alternatives only those of the way the table enters it."""
    out = slots(game, session, step)
    if not either(step):
        return out
    mode = entry_mode(game, session, chosen)
    kept = tuple(s for s in out if s.key == mode)
    return kept or out


def entry_name(game: Game, session: Session, key: str) -> str:
    """What a way to enter the step of alternatives is called: `the score track`, `counts by length`."""
    return ENTRY_NAMES.get(key) or game.fields_for(session.rules)[key].label


def offers_either(step: Step, step_slots: tuple[Slot, ...]) -> bool:
    """Whether the step shows alternatives side by side (one of them given is enough)."""
    return either(step) and len({s.key for s in step_slots}) > 1


# -- values ----------------------------------------------------------------------------
def value_of(entry: dict[str, Any], slot: Slot) -> Any:
    """The slot's value in a player's table, None when it was never entered."""
    value = entry.get(slot.key)
    if slot.sub is None or value is None:
        return value
    return value.get(slot.sub) if isinstance(value, dict) else None


def has(entry: dict[str, Any], slot: Slot) -> bool:
    """Whether the slot was entered (a 0 or false written explicitly counts)."""
    return value_of(entry, slot) is not None


def with_slot(session: Session, number: int, player: str, slot: Slot, value: Any) -> Session:
    """A copy with the slot set for the player in round `number` (None removes it)."""
    entry = session.round(number).entry(player)
    if value is None and player not in session.round(number).players:
        return session
    if slot.sub is None:
        return session.with_value(number, player, slot.key, value)
    current = entry.get(slot.key)
    table = dict(current) if isinstance(current, dict) else {}
    if value is None:
        table.pop(slot.sub, None)
    else:
        table[slot.sub] = value
    if table and all(k.isdigit() for k in table):
        table = dict(sorted(table.items(), key=lambda kv: int(kv[0])))
    return session.with_value(number, player, slot.key, table if table or value is not None else None)


def step_done(session: Session, number: int, step: Step, step_slots: tuple[Slot, ...]) -> bool:
    """Every player has every input of the step (one of them, when they are alternatives).

    A step without inputs (its points come from earlier ones) is done once every player has a table.
    """
    rnd = session.round(number)
    for player in session.players:
        if player not in rnd.players:
            if step_slots:
                return False
            continue
        entry = rnd.players[player]
        present = [has(entry, s) for s in step_slots if s.kind != OTHER]
        if present and not (any(present) if either(step) else all(present)):
            return False
    return True


def player_done(session: Session, number: int, step: Step, step_slots: tuple[Slot, ...], player: str) -> bool:
    """Whether one player has the step's inputs."""
    entry = session.round(number).entry(player)
    present = [has(entry, s) for s in step_slots if s.kind != OTHER]
    return not present or (any(present) if either(step) else all(present))


def resume(game: Game, session: Session, sheet: Sheet | None = None) -> tuple[int, int] | None:
    """Where the table left off: (round, step index) of the first step not yet scored, or None (standings).

    The last round is walked until it is revealed (`Game.revealed`: every player has filled every step of it), at
    its first step some player has not filled.
    """
    if not session.rounds:
        return 1, 0
    number = len(session.rounds)
    if game.revealed(session, number):
        return None
    steps = game.steps(session)
    fields = game.fields_for(session.rules)
    frontier = next((i for i, step in enumerate(steps)
                     if _slots(fields, step) and not step_done(session, number, step, _slots(fields, step))), None)
    return None if frontier is None else (number, frontier)


def round_state(game: Game, session: Session, sheet: Sheet, number: int) -> tuple[bool, str]:
    """A round's state, the one truth every view shows: (done, `complete` / `not finished` / `not finished:
    Routes next`). A round is done once it is revealed: every player has filled every step of it."""
    if game.revealed(session, number):
        return True, "complete"
    where = resume(game, session, sheet)
    if where is not None and where[0] == number:
        return False, f"not finished: {game.steps(session)[where[1]].title} next"
    return False, "not finished"


def finished(game: Game, session: Session, sheet: Sheet) -> bool:
    """The game is over: the core says so and no round is being walked."""
    return sheet.complete and resume(game, session, sheet) is None


def needs_new_round(game: Game, session: Session, sheet: Sheet) -> bool:
    """Whether the table's next thing is a round that does not exist yet (scheduled, or an extra round)."""
    return not sheet.complete and resume(game, session, sheet) is None


def round_title(game: Game, session: Session, number: int) -> str:
    """`Round 2 of 3`, `Round 1`, `Extra round 2`."""
    scheduled = game.scheduled_rounds(session)
    if number > scheduled:
        return f"Extra round {number}"
    return f"Round {number} of {scheduled}" if scheduled > 1 else f"Round {number}"


def first_player(game: Game, session: Session, sheet: Sheet, number: int) -> str:
    """Who starts round `number` (scored or not)."""
    if number <= len(sheet.rounds):
        return sheet.rounds[number - 1].first_player
    totals = {p: sum((r.points[p] for r in sheet.rounds[: number - 1]), Fraction(0)) for p in session.players}
    return game.first_player(session, number, totals)


def changed_at(old: Session, new: Session) -> tuple[int, str | None, str | None, str | None] | None:
    """The first place two sessions differ: (round, player, field, key inside it), or None when they do not."""
    for number in range(1, max(len(old.rounds), len(new.rounds)) + 1):
        a, b = old.round(number).players, new.round(number).players
        if number > len(old.rounds) or number > len(new.rounds):
            if a == b:
                return number, None, None, None
        if a == b:
            continue
        for player in new.players:
            ea, eb = a.get(player), b.get(player)
            if ea == eb:
                continue
            ea, eb = ea or {}, eb or {}
            for key in [*ea, *(k for k in eb if k not in ea)]:
                va, vb = ea.get(key), eb.get(key)
                if va == vb:
                    continue
                if isinstance(va, dict) and isinstance(vb, dict):
                    subs = [*va, *(k for k in vb if k not in va)]
                    return number, player, key, next((s for s in subs if va.get(s) != vb.get(s)), None)
                return number, player, key, None
            return number, player, None, None
        return number, None, None, None
    return None


# -- text in ---------------------------------------------------------------------------
_NUMBER = r"[+-]?\d+"
_DECIMAL = r"[+-]?(\d+\.\d*|\.\d+)"
"""The patterns of what is typed, compiled (and kept by `re`) at the first key, not when a session is opened."""


def parse_number(text: str) -> Any:
    """What was typed into a number box: None when empty, an int, a float, or the text itself (for the checks)."""
    text = text.strip()
    if not text:
        return None
    if re.fullmatch(_NUMBER, text):
        return int(text)
    if re.fullmatch(_DECIMAL, text):
        return float(text)
    return text


_CARD = r"(?s)\s*(?P<sign>[-+−✗✓]?)\s*(?P<body>.*?)\s*"


def parse_card(text: str, needs_points: bool = True) -> dict[str, Any] | None:
    """One line of a card list: `8`, `-8` (failed), `8 Denver – El Paso`; None when the line is empty."""
    if not text.strip():
        return None
    m = re.fullmatch(_CARD, text)
    assert m is not None
    sign, body = m.group("sign"), m.group("body")
    first, _, rest = body.partition(" ")
    card: dict[str, Any] = {}
    value = parse_number(first) if first else None
    if value is not None and (needs_points or not isinstance(value, str)):
        card["points"] = value
        name = rest.strip()
    else:
        name = body
    card["completed"] = sign not in ("-", "−", "✗")
    if name:
        card["name"] = name
    return card


def card_text(card: Any) -> str:
    """A card as a line of the list editor: `8 Denver – El Paso`, `-4` for a failed one."""
    if not isinstance(card, dict):
        return str(card)
    sign = "" if card.get("completed") is True else "-"
    parts = [f"{sign}{card['points']}" if "points" in card else sign.strip()]
    if card.get("name"):
        parts.append(str(card["name"]))
    return " ".join(p for p in parts if p)


# -- problems --------------------------------------------------------------------------
def round_check(game: Game, session: Session, number: int) -> list[Problem]:
    """The problems of round `number` alone: its texts as the file's limits allow them, each player's fields, then
    the game's checks of the round (what `validation.validate` finds in that round).

    As much work for the last round of a long session as for the first (what a keystroke may cost).
    """
    fields = game.fields_for(session.rules)
    problems: list[Problem] = round_texts(session, number)
    for player, entry in session.round(number).players.items():
        problems.extend(check_entry(fields, entry, location(number, player), number, player))
    if any(p.is_error for p in problems):
        return problems
    return problems + game.checked_round(session, number)


def errors(problems: list[Problem]) -> list[Problem]:
    """Only the errors."""
    return [p for p in problems if p.is_error]


def at_slot(problem: Problem, number: int, player: str, slot: Slot) -> bool:
    """Whether a problem concerns this slot of this player in round `number`."""
    if problem.round not in (None, number) or problem.player != player or problem.field != slot.key:
        return False
    return slot.sub is None or problem.key in (None, slot.sub)


def round_problems(problems: list[Problem], number: int, step: Step) -> list[Problem]:
    """The problems of round `number` about no single player that belong to this step (all of them on the summary)."""
    out = []
    for p in problems:
        if p.round != number or p.player is not None:
            continue
        if step.id == "summary" or any(key == p.field and (sub is None or p.key in (None, sub))
                                       for key, sub in step.inputs):
            out.append(p)
    return out


def reached(game: Game, session: Session, number: int, problems: list[Problem]) -> list[Problem]:
    """The problems without those of a round being walked about steps the table has not come to yet (their
    values are not typed yet); errors are always kept."""
    where = resume(game, session)
    if where is None or where[0] != number:
        return problems
    steps = game.steps(session)

    def concerns(p: Problem, step: Step) -> bool:
        return any(key == p.field and (sub is None or p.key in (None, sub)) for key, sub in step.inputs)

    out = []
    for p in problems:
        if not p.is_error and p.round == number and p.field is not None:
            if any(concerns(p, s) for s in steps[where[1]:]) and not any(concerns(p, s) for s in steps[:where[1]]):
                continue
        out.append(p)
    return out


# -- words -----------------------------------------------------------------------------
def points(value: Fraction, signed: bool = False) -> str:
    """Points as the app shows them: `23½`, `+4`, `-2`."""
    return fmt(value, signed=signed, half="½")


def result_text(sheet: Sheet) -> str:
    """`Ana won` or `Ana and Bo share the victory`."""
    if len(sheet.winners) == 1:
        return f"{sheet.winners[0]} won"
    return f"{names(sheet.winners)} share the victory"


def won_text(game: Game, session: Session, sheet: Sheet) -> str:
    """The result with the winner's score: `Mia won 77–70`; a tie on points settled by the game's chain says how
    (`Mia won 77–77 (scored more in the last round)`); `Ana and Bo share the victory on 60½`."""
    top = sheet.totals[sheet.winners[0]]
    if len(sheet.winners) > 1:
        return f"{result_text(sheet)} on {points(top)}"
    winner = sheet.winners[0]
    others = [sheet.totals[p] for p in session.players if p != winner]
    second = max(others) if others else top
    text = f"{winner} won {points(top)}–{points(second)}"
    if second != top:
        return text
    tied = [p for p in session.players if sheet.totals[p] == top]
    for link in game.tiebreaks(session, sheet.rounds):
        keys = {p: link.key(p) for p in tied}
        if all(keys[winner] > keys[p] for p in tied if p != winner):
            return f"{text} ({link.better})"
        tied = [p for p in tied if keys[p] == keys[winner]]
    return text


def state_text(game: Game, session: Session, sheet: Sheet) -> str:
    """A session's state for the home screen: `round 2 of 3 — Bo leads`, `finished — Ana won 77–70`."""
    where = resume(game, session, sheet)
    if sheet.complete and where is None:
        return f"finished — {won_text(game, session, sheet)}"
    current = where[0] if where else len(session.rounds) + 1
    text = round_title(game, session, current).lower()
    if current == 1 and not any(session.round(1).players.values()):
        text = "not started" if game.scheduled_rounds(session) == 1 else text + " — not started"
        return text
    best = max(sheet.totals.values())
    if best == 0 and min(sheet.totals.values()) == 0:
        return text
    leaders = [p for p in session.players if sheet.totals[p] == best]
    lead = f"{leaders[0]} leads" if len(leaders) == 1 else f"{names(leaders)} lead"
    return f"{text} — {lead}"
