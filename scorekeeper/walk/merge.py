"""A session as fields, edits as operations on them, and the field-by-field merge (live sessions, SPEC §5).

A session is seen as its fields: the title, the notes, the date, the rules, the seating, the number of rounds,
and each player's table in each round (that it is there) and each field in it (a whole value: a count, a list
of tickets; a table of counts (cards, routes by length) is a field per entry). Two places that changed
different fields are merged without a question; a field changed to different values in both places is a
conflict. The seating (and the game) is one field that stands for the whole layout: changed in one place while
anything changed in the other, it is a conflict too (a rename moves every table of the player).

An edit is an operation on one field: "this field, from the value I saw, to the new value" (`Op`). A place writes
its edits by applying their operations to the file as it is then (`apply`): a field that still holds the value the
place saw takes the new one; a field changed elsewhere since is a conflict (the same field changed in two places).
Undo applies the inverse operations the same way. A round or a player's table is there while anything is in it:
an operation that would remove one that another place filled leaves it.

Pure: no I/O, no Textual.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from scorekeeper.model.session import Round, Session

if TYPE_CHECKING:
    from collections.abc import Collection

Key = tuple[Any, ...]
MISSING = object()
"""The value of a field a version does not have."""
ROUNDS: Key = ("rounds",)
TABLE = ("table",)
"""The value of a field that is a table (its entries are fields of their own)."""

def fields(session: Session, numbers: Collection[int] | None = None) -> dict[Key, Any]:
    """The session as its fields, in the file's order; `numbers`: of those rounds only (the others are left out)."""
    out: dict[Key, Any] = {("format",): session.format, ("game",): session.game, ("players",): session.players,
                           ("title",): session.title, ("started",): session.started, ("notes",): session.notes,
                           ("rules",): session.rules, ("rounds",): len(session.rounds)}
    for number, rnd in enumerate(session.rounds, 1):
        if numbers is not None and number not in numbers:
            continue
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


def from_fields(flat: dict[Key, Any], kept: Session | None = None, numbers: Collection[int] = ()) -> Session:
    """The session of a set of fields (the inverse of `fields`); `kept`: the session whose rounds other than
    `numbers` the fields leave out, and which are taken as they are (the same objects)."""
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
                   rounds=tuple(kept.round(n) if kept is not None and n not in numbers else Round(players=t)
                                for n, t in enumerate(tables, 1)), format=flat[("format",)])


def rebase(session: Session, old: Session, new: Session) -> Session:
    """`session` (made from `old` by this place) with the changes from `old` to `new` made elsewhere: the operations
    from `old` to `session` applied to `new`, this place's value kept where both changed a field."""
    if session == old:
        return new
    return apply(new, diff(old, session), force=True).session


# -- edits as operations on fields ------------------------------------------------------------
@dataclass(frozen=True)
class Op:
    """An edit of one field: from the value this place saw to the new one (MISSING: the field is not there)."""

    key: Key
    before: Any
    after: Any

    def inverse(self) -> Op:
        """The operation that undoes this one."""
        return Op(self.key, self.after, self.before)


Step = tuple[Op, ...]
"""The operations of one edit (one undo step)."""


@dataclass(frozen=True)
class Applied:
    """What applying operations did: the session after, the operations as they were applied (from the value the
    field held), and the fields changed elsewhere since the operations were made (left as they were)."""

    session: Session
    applied: Step = ()
    conflicts: tuple[Key, ...] = ()


def diff(old: Session, new: Session) -> Step:
    """The operations that make `new` of `old`, in `new`'s order (the fields removed last)."""
    if old == new:
        return ()
    a, b = old.rounds, new.rounds
    changed = {n for n in range(1, max(len(a), len(b)) + 1)
               if n > len(a) or n > len(b) or (a[n - 1] is not b[n - 1] and a[n - 1] != b[n - 1])}
    o, n = fields(old, changed), fields(new, changed)
    keys = list(n) + [k for k in o if k not in n]
    return tuple(Op(k, o.get(k, MISSING), n.get(k, MISSING)) for k in keys if o.get(k, MISSING) != n.get(k, MISSING))


def inverse(step: Step) -> Step:
    """The operations that undo a step (in its order: what comes back takes its place in the file again)."""
    return tuple(op.inverse() for op in step)


def combine(first: Step, then: Step) -> Step:
    """Two steps of one field's run (the digits of one box) as one: each field from its first value to its last."""
    out: dict[Key, Op] = {op.key: op for op in first}
    for op in then:
        earlier = out.get(op.key)
        out[op.key] = op if earlier is None else Op(op.key, earlier.before, op.after)
    return tuple(op for op in out.values() if op.before != op.after)


def _removes_a_container(op: Op) -> bool:
    """The operation takes away a round, a player's table or a table of counts: done last, and only when empty."""
    kind = op.key[0]
    if kind == "rounds":
        return isinstance(op.before, int) and isinstance(op.after, int) and op.after < op.before
    if kind == "entry":
        return op.after is MISSING
    return kind == "field" and op.before is TABLE and op.after is MISSING


def _in_use(flat: dict[Key, Any], key: Key) -> bool:
    """Something is still in a round (key ("rounds",): the last round with a table), a table or a table of counts."""
    kind = key[0]
    if kind == "entry":
        return any(k[0] in ("field", "sub") and k[1:3] == key[1:3] for k in flat)
    return any(k[0] == "sub" and k[1:4] == key[1:4] for k in flat)


def _last_used(flat: dict[Key, Any]) -> int:
    """The number of the last round with a player's table in it (0: none)."""
    return max((k[1] for k, v in flat.items() if k[0] == "entry" and v is True), default=0)


def apply(session: Session, ops: Step, *, force: bool = False) -> Applied:
    """Apply operations to a session as it is now: a field that holds the value an operation saw (or already its new
    one) takes the new one; a field changed since is a conflict, left as it is (`force`: this place's value wins, the
    answer "keep mine"). A round, a table or a table of counts an operation removes goes only when nothing is left
    in it; a value set where its round or table is gone brings them back. The layout (game, players, format) is a
    field like the others."""
    touched = {op.key[1] for op in ops if op.key[0] in ("entry", "field", "sub")}
    flat = fields(session, touched)  # the other rounds are left as they are (the same objects)
    used = max((n for n, r in enumerate(session.rounds, 1) if n not in touched and r.players), default=0)
    done: list[Op] = []
    conflicts: list[Key] = []
    later: list[Op] = []
    for op in ops:
        if _removes_a_container(op):
            later.append(op)
            continue
        now = flat.get(op.key, MISSING)
        if op.key == ROUNDS:  # more rounds: as many as either place has
            grown = max(now if isinstance(now, int) else 0, op.after)
            if grown != now:
                flat[ROUNDS] = grown
                done.append(Op(ROUNDS, now, grown))
            continue
        if now == op.after:
            continue
        if now != op.before and not force:
            conflicts.append(op.key)
            continue
        if op.after is MISSING:
            flat.pop(op.key, None)
        else:
            flat[op.key] = op.after
        done.append(Op(op.key, now, op.after))
    for key in [k for k in flat if k[0] in ("field", "sub")]:  # a value brings back its round and its table
        if key not in flat:
            continue
        entry = ("entry", key[1], key[2])
        if flat.get(entry) is not True:
            done.append(Op(entry, flat.get(entry, MISSING), True))
            flat[entry] = True
        if key[0] == "sub" and flat.get(("field", *key[1:4])) is not TABLE:
            table = ("field", *key[1:4])
            if table in flat:  # the field is a single value now: the count has no table to go in
                del flat[key]
                continue
            flat[table] = TABLE
            done.append(Op(table, MISSING, TABLE))
        if flat[ROUNDS] < key[1]:
            done.append(Op(ROUNDS, flat[ROUNDS], key[1]))
            flat[ROUNDS] = key[1]
    for op in sorted(later, key=lambda o: ("field", "entry", "rounds").index(o.key[0])):
        now = flat.get(op.key, MISSING)
        if op.key == ROUNDS:
            if now != op.before and not force:  # another place added or removed rounds since: they stay
                continue
            kept = max(op.after, _last_used(flat), used)
            if kept < now:
                flat[ROUNDS] = kept
                done.append(Op(ROUNDS, now, kept))
            continue
        if now is MISSING or _in_use(flat, op.key):  # gone already, or filled elsewhere: it stays
            continue
        if now != op.before and not force:
            conflicts.append(op.key)
            continue
        del flat[op.key]
        done.append(Op(op.key, now, MISSING))
    return Applied(from_fields(flat, session, touched), tuple(done), tuple(dict.fromkeys(conflicts)))


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
