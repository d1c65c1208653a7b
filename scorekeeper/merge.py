"""Field-by-field merge of two versions of a session made from one common version (live sessions, SPEC §5).

A session is seen as its fields: the title, the notes, the date, the rules, the seating, the number of rounds,
and each player's table in each round (that it is there) and each field in it (a whole value: a count, a list
of tickets; a table of counts (cards, routes by length) is a field per entry). Two places that changed
different fields are merged without a question; a field changed to different values in both places is a
conflict. The seating (and the game) is one field that stands for the whole layout: changed in one place while
anything changed in the other, it is a conflict too (a rename moves every table of the player).

Pure: no I/O, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.session import Round, Session

Key = tuple[Any, ...]
MISSING = object()
"""The value of a field a version does not have."""
ROUNDS: Key = ("rounds",)
TABLE = ("table",)
"""The value of a field that is a table (its entries are fields of their own)."""

LAYOUT: frozenset[Key] = frozenset({("game",), ("players",), ("format",)})
"""Fields that change what every other field means: changed on one side, any change on the other conflicts."""


def fields(session: Session) -> dict[Key, Any]:
    """The session as its fields, in the file's order."""
    out: dict[Key, Any] = {("format",): session.format, ("game",): session.game, ("players",): session.players,
                           ("title",): session.title, ("started",): session.started, ("notes",): session.notes,
                           ("rules",): session.rules, ("rounds",): len(session.rounds)}
    for number, rnd in enumerate(session.rounds, 1):
        for player, entry in rnd.players.items():
            out[("entry", number, player)] = True
            for name, value in entry.items():
                if isinstance(value, dict):  # a table of counts (cards, routes by length, pairs): each its field
                    out[("field", number, player, name)] = TABLE
                    for sub, inner in value.items():
                        out[("sub", number, player, name, sub)] = inner
                else:
                    out[("field", number, player, name)] = value
    return out


def from_fields(flat: dict[Key, Any]) -> Session:
    """The session of a set of fields (the inverse of `fields`)."""
    count = flat[("rounds",)]
    tables: list[dict[str, dict[str, Any]]] = [{} for _ in range(count)]
    for key, value in flat.items():
        if key[0] == "entry" and value is True and key[1] <= count:
            tables[key[1] - 1].setdefault(key[2], {})
    for key, value in flat.items():
        if key[0] == "field" and key[1] <= count and key[2] in tables[key[1] - 1]:
            tables[key[1] - 1][key[2]][key[3]] = {} if value is TABLE else value
    for key, value in flat.items():
        if key[0] == "sub" and key[1] <= count and isinstance(tables[key[1] - 1].get(key[2], {}).get(key[3]), dict):
            tables[key[1] - 1][key[2]][key[3]][key[4]] = value
    return Session(game=flat[("game",)], players=flat[("players",)], title=flat[("title",)],
                   started=flat[("started",)], notes=flat[("notes",)], rules=flat[("rules",)],
                   rounds=tuple(Round(players=t) for t in tables), format=flat[("format",)])


@dataclass(frozen=True)
class Merged:
    """The outcome of a merge: the merged session, and the fields changed both ways (then `session` is None)."""

    session: Session | None
    conflicts: tuple[Key, ...] = ()


def changed(base: dict[Key, Any], other: dict[Key, Any]) -> set[Key]:
    """The fields that differ between two versions."""
    return {k for k in base.keys() | other.keys() if base.get(k, MISSING) != other.get(k, MISSING)}


def merge(base: Session, ours: Session, theirs: Session, *, prefer_ours: bool = False) -> Merged:
    """Ours and theirs, both made from base, in one session; or the fields both changed differently (with
    `prefer_ours`, the question answered "keep mine": ours wins those fields, or the whole session where the layout
    changed)."""
    if ours == theirs or theirs == base:
        return Merged(ours)
    if ours == base:
        return Merged(theirs)
    b, o, t = fields(base), fields(ours), fields(theirs)
    mine, yours = changed(b, o), changed(b, t)
    if o[ROUNDS] > b[ROUNDS] and t[ROUNDS] > b[ROUNDS]:  # both went on to later rounds: as far as either
        o[ROUNDS] = t[ROUNDS] = max(o[ROUNDS], t[ROUNDS])
    conflicts = sorted((k for k in mine & yours if o.get(k, MISSING) != t.get(k, MISSING)), key=repr)
    for layout in LAYOUT:
        if (layout in mine and yours - {layout}) or (layout in yours and mine - {layout}):
            conflicts.append(layout)
    if conflicts and not prefer_ours:
        return Merged(None, tuple(dict.fromkeys(conflicts)))
    if any(k in LAYOUT for k in conflicts):
        return Merged(ours)
    flat = dict(o)
    for key in yours - set(conflicts):
        value = t.get(key, MISSING)
        if value is MISSING:
            flat.pop(key, None)
        else:
            flat[key] = value
    for key in [k for k in flat if k[0] in ("field", "sub") and flat.get(("entry", k[1], k[2])) is not True]:
        del flat[key]  # a table one side removed takes its fields with it (unless the other changed them: above)
    for key in [k for k in flat if k[0] == "sub" and flat.get(("field", *k[1:4])) is not TABLE]:
        del flat[key]
    return Merged(from_fields(ordered(flat, o, t)))


def ordered(flat: dict[Key, Any], *orders: dict[Key, Any]) -> dict[Key, Any]:
    """The merged fields in our order, then theirs (a file keeps the order its fields were typed in)."""
    out: dict[Key, Any] = {}
    for order in orders:
        for key in order:
            if key in flat and key not in out:
                out[key] = flat[key]
    for key, value in flat.items():
        out.setdefault(key, value)
    return out


def rebase(session: Session, old: Session, new: Session) -> Session:
    """`session` (a step of the undo history) with the changes from `old` to `new` made elsewhere applied to it,
    where they do not touch what `session` changed (there `session` keeps its own; a layout changed elsewhere
    keeps the step as it was): undo then undoes this place's own edits, not the others'."""
    merged = merge(old, session, new, prefer_ours=True).session
    assert merged is not None  # preferring ours always merges
    return merged


def describe(key: Key) -> str:
    """A field in words, for the question about a conflict."""
    if key[0] == "field":
        return f"round {key[1]}, {key[2]}: {key[3].replace('_', ' ')}"
    if key[0] == "sub":
        return f"round {key[1]}, {key[2]}: {key[3].replace('_', ' ')} {key[4]}"
    if key[0] == "entry":
        return f"round {key[1]}, {key[2]}"
    words = {"rounds": "the number of rounds", "players": "the players and their seats"}
    return words.get(key[0], str(key[0]))
