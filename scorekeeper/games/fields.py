"""Per-player field kinds: how each game's fields are checked and what they allow."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from scorekeeper.model.problems import Problem, quote
from scorekeeper.model.text import has_control, inert, is_control

MAX_TEXT = 200
"""A title, a card's or an attraction's name: at most 200 characters."""
MAX_NOTES = 10_000
"""The notes: at most 10,000 characters."""
MAX_ITEMS = 200
"""A list of cards or routes in one round: at most 200 items."""
MAX_ROUNDS = 100
"""A session: at most 100 rounds."""
MAX_DIGITS = 32
"""A number is written with at most 32 digits (what the store's reader takes: `reading.MAX_DIGITS`)."""
_BARE = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-"
"""The characters of a bare TOML key."""


def is_bare(key: str) -> bool:
    """Whether a key is written bare in TOML (`[A-Za-z0-9_-]+`), else quoted."""
    return bool(key) and not key.strip(_BARE)

Report = Callable[[str, str], None]
"""report(sub_place, message): records an error at the field, or below it (sub_place)."""


def type_name(value: Any) -> str:
    """What a TOML value is, in words: `a decimal number (2.5)`, `true/false (true)`."""
    if isinstance(value, bool):
        return f"true/false ({str(value).lower()})"
    if isinstance(value, int):
        return f"a whole number ({value})"
    if isinstance(value, float):
        return f"a decimal number ({value:g})"
    if isinstance(value, str):
        return f"text ({value!r})"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    return f"a {type(value).__name__}"


def check_int(value: Any, lo: int = 0, hi: int | None = None) -> str | None:
    """None when value is a whole number in lo..hi, else what is wrong and what is allowed."""
    if isinstance(value, bool) or not isinstance(value, int):
        return f"{type_name(value)} is not allowed here; expected {_whole(lo, hi)}"
    if value < lo or (hi is not None and value > hi):
        return f"{value} is out of range; expected {_whole(lo, hi)}"
    return None


def _whole(lo: int, hi: int | None) -> str:
    return f"a whole number from {lo} to {hi}" if hi is not None else f"a whole number of {lo} or more"


def suggest(word: str, choices: list[str] | tuple[str, ...]) -> str:
    """A ` (did you mean 'x'?)` hint when a close choice exists, else ``."""
    import difflib  # only when there is a mistake to explain

    close = difflib.get_close_matches(word, list(choices), n=1, cutoff=0.6)
    if not close:
        lowered = {c.casefold(): c for c in choices}
        hit = lowered.get(word.casefold())
        close = [hit] if hit else []
    return f" (did you mean {close[0]!r}?)" if close else ""


def unknown_key(key: str, allowed: list[str] | tuple[str, ...]) -> str:
    """The message for a key that is not allowed, with a close suggestion and the allowed keys."""
    return f"unknown key {key!r}{suggest(key, allowed)}; allowed: {', '.join(allowed)}"


@dataclass(frozen=True)
class Field:
    """A per-player field of a round: its key, a label, one line of help, and its check."""

    key: str
    label: str
    help: str = ""

    kind: ClassVar[str] = "other"
    """What the field is, for an app to pick its editor: `int`, `bool`, `counts`, `cards`, `objective`, `names`…"""

    def default(self) -> Any:
        """The value a missing field stands for."""
        return 0

    def parts(self) -> tuple[str | None, ...]:
        """The inputs the field is entered as: itself (None), or keys inside it (an objective's count and each)."""
        return (None,)

    def part(self, sub: str) -> tuple[str, int, int | None]:
        """A number inside the field (`attractions."8"`): its label and the range it allows."""
        return f"{self.label} {sub}", 0, None

    def check(self, value: Any, report: Report) -> None:
        """Report every problem with value."""
        raise NotImplementedError


@dataclass(frozen=True)
class IntField(Field):
    """A count: a whole number in lo..hi."""

    lo: int = 0
    hi: int | None = None

    kind: ClassVar[str] = "int"

    def check(self, value: Any, report: Report) -> None:
        """Report a value that is not a whole number in range."""
        msg = check_int(value, self.lo, self.hi)
        if msg:
            report("", msg)


@dataclass(frozen=True)
class BoolField(Field):
    """Holds a card or not: true or false."""

    kind: ClassVar[str] = "bool"

    def default(self) -> Any:
        """Missing means false."""
        return False

    def check(self, value: Any, report: Report) -> None:
        """Report anything but true/false."""
        if not isinstance(value, bool):
            report("", f"{type_name(value)} is not allowed here; expected true or false")


@dataclass(frozen=True)
class HolderField(BoolField):
    """Holds a card there is one of: true for at most one player."""

    kind: ClassVar[str] = "holder"


@dataclass(frozen=True)
class CountsField(Field):
    """A table of counts keyed by number, `{ "1" = 1, "8" = 5 }` (attractions, routes by length)."""

    keys: tuple[int, ...] = ()
    max_for: Callable[[int], int | None] | None = None
    what: str = "count"

    kind: ClassVar[str] = "counts"

    def default(self) -> Any:
        """Missing means no cards."""
        return {}

    def part(self, sub: str) -> tuple[str, int, int | None]:
        """The count of one number: `Attractions 8`, 0 to its limit."""
        return f"{self.label} {sub}", 0, self.max_for(int(sub)) if self.max_for and sub.isdigit() else None

    def check(self, value: Any, report: Report) -> None:
        """Report a non-table, keys outside the allowed numbers, bad counts."""
        if not isinstance(value, dict):
            report("", f'{type_name(value)} is not allowed here; expected a table like {{ "{self.keys[0]}" = 1 }}')
            return
        names = [str(k) for k in self.keys]
        for key, count in value.items():
            if key not in names:
                report(
                    f'."{key}"',
                    f"{key!r} is not a {self.what}; allowed: {self.keys[0]} to {self.keys[-1]}",
                )
                continue
            hi = self.max_for(int(key)) if self.max_for else None
            msg = check_int(count, 0, hi)
            if msg:
                report(f'."{key}"', msg)


@dataclass(frozen=True)
class CardListField(Field):
    """A list of cards `{ points = 8, completed = true, name = "…" }` (tickets, tourist cards)."""

    lo: int = 1
    hi: int | None = None
    extra: tuple[str, ...] = ()
    needs_points: bool = True
    deck: Callable[[str], int | None] | None = None  # a card's printed points by its name, when the deck is known
    names: tuple[str, ...] = ()  # the names of the deck's cards, to complete them

    kind: ClassVar[str] = "cards"

    def default(self) -> Any:
        """Missing means no cards."""
        return []

    def check(self, value: Any, report: Report) -> None:
        """Report a non-list, unknown keys, points out of range, a non-bool completed."""
        if not isinstance(value, list):
            report(
                "", f"{type_name(value)} is not allowed here; expected a list like [{{ points = 8, completed = true }}]"
            )
            return
        if len(value) > MAX_ITEMS:
            report("", f"{len(value):,} cards listed; at most {MAX_ITEMS} in one round")
            return
        allowed = ("points", "completed", "name", *self.extra)
        for i, card in enumerate(value, start=1):
            at = f"[{i}]"
            if not isinstance(card, dict):
                report(at, f"{type_name(card)} is not allowed here; expected {{ points = 8, completed = true }}")
                continue
            for key in card:
                if key not in allowed:
                    report(f"{at}.{key}", unknown_key(key, allowed))
            if "points" in card:
                msg = check_int(card["points"], self.lo, self.hi)
                if msg:
                    report(f"{at}.points", msg)
            elif self.needs_points:
                report(
                    at,
                    "the card has no points; give points = a whole number"
                    + (f" from {self.lo} to {self.hi}" if self.hi else f" of {self.lo} or more"),
                )
            if "completed" in card and not isinstance(card["completed"], bool):
                report(f"{at}.completed", f"{type_name(card['completed'])} is not allowed here; expected true or false")
            if "name" in card and not isinstance(card["name"], str):
                report(f"{at}.name", f"{type_name(card['name'])} is not allowed here; expected text")


@dataclass(frozen=True)
class ObjectiveField(Field):
    """An objective card's result, `{ count = 2, each = 3 }`: units achieved and points per unit."""

    kind: ClassVar[str] = "objective"

    def default(self) -> Any:
        """Missing means the card scored nothing."""
        return {}

    def parts(self) -> tuple[str | None, ...]:
        """Entered as its count and its points for each."""
        return ("count", "each")

    def part(self, sub: str) -> tuple[str, int, int | None]:
        """`count` or `each`, 0 or more."""
        return sub, 0, None

    def check(self, value: Any, report: Report) -> None:
        """Report a non-table, unknown keys and counts that are not whole numbers of 0 or more."""
        if not isinstance(value, dict):
            report("", f"{type_name(value)} is not allowed here; expected a table like {{ count = 2, each = 3 }}")
            return
        for key, count in value.items():
            if key not in ("count", "each"):
                report(f".{key}", unknown_key(key, ("count", "each")))
                continue
            msg = check_int(count, 0)
            if msg:
                report(f".{key}", msg)


@dataclass(frozen=True)
class NameListField(Field):
    """A list of names (routes claimed on a map)."""

    kind: ClassVar[str] = "names"
    item: ClassVar[tuple[str, str, str]] = ("route", "routes", "Denver – Omaha")
    """What one name names (one, several) and an example of it, for the messages."""

    def default(self) -> Any:
        """Missing means none."""
        return []

    def check(self, value: Any, report: Report) -> None:
        """Report a non-list or an item that is not text."""
        what, several, example = self.item
        if not isinstance(value, list):
            report("", f'{type_name(value)} is not allowed here; expected a list of {what} names like ["{example}"]')
            return
        if len(value) > MAX_ITEMS:
            report("", f"{len(value):,} {several} listed; at most {MAX_ITEMS} in one round")
            return
        for i, entry in enumerate(value, start=1):
            if not isinstance(entry, str):
                report(f"[{i}]", f'{type_name(entry)} is not allowed here; expected a {what} name like "{example}"')


@dataclass(frozen=True)
class RouteNamesField(NameListField):
    """Routes claimed on the session's map, each named by its two cities."""

    kind: ClassVar[str] = "map-routes"


@dataclass(frozen=True)
class CityNamesField(NameListField):
    """Cities on the session's map, one per item (Europe's stations)."""

    kind: ClassVar[str] = "map-cities"
    item: ClassVar[tuple[str, str, str]] = ("city", "cities", "Essen")


@dataclass(frozen=True)
class TicketNamesField(CardListField):
    """Destination tickets on the session's map, each named by its two cities (the map knows its points)."""

    kind: ClassVar[str] = "map-tickets"


def check_entry(fields: dict[str, Field], entry: Any, base: str, round_no: int, player: str) -> list[Problem]:
    """Every problem with one player's table in one round."""
    problems: list[Problem] = []
    if not isinstance(entry, dict):
        problems.append(
            Problem(
                f"{type_name(entry)} is not allowed here; expected a table of the player's fields",
                path=base,
                round=round_no,
                player=player,
            )
        )
        return problems
    for key, value in entry.items():
        spec = fields.get(key)
        if spec is None:
            problems.append(
                Problem(unknown_key(key, list(fields)), path=f"{base}.{key}", round=round_no, player=player, field=key)
            )
            continue

        def report(sub: str, message: str, key: str = key) -> None:
            problems.append(Problem(message, path=f"{base}.{key}{sub}", round=round_no, player=player, field=key))

        spec.check(value, report)
    return problems


def text_problem(text: str, what: str = "this text", *, notes: bool = False) -> str | None:
    """None when the text may stand in a session file, else what is wrong and what is allowed.

    No control character is allowed (escape sequences, bell, carriage return, tab, C1, bidi
    overrides); the notes may hold line breaks. Lengths: MAX_TEXT, MAX_NOTES for the notes.
    """
    limit = MAX_NOTES if notes else MAX_TEXT
    if len(text) > limit:
        return f"{len(text):,} characters in {what}; at most {limit:,}"
    if not has_control(text):
        return None
    for i, ch in enumerate(text, start=1):
        if is_control(ch) and not (notes and ch == "\n"):
            allowed = "plain text (line breaks are fine)" if notes else "one line of plain text"
            return f"a control character ({inert(ch)}) at character {i} of {what}; it must be {allowed}"
    return None


def _what(path: str, key: str) -> str:
    if path == "title":
        return "the title"
    if path == "notes":
        return "the notes"
    if key == "name":
        return "the card's name"
    if ".attraction_names." in path:
        return "the attraction's name"
    if key == "claimed":
        return "the route's name"
    return "this text"


At = tuple[int | None, str | None, str | None]
"""The round, player and field a text of a session is in (None: not in one)."""


def text_problems(raw: Mapping[str, Any]) -> list[Problem]:
    """Every text of a session's top-level values (keys included; rounds parsed or the model's) that is too long
    or holds a control character, and every whole number of more digits than a file holds (MAX_DIGITS); one in a
    round's table is a problem of its round, and of its player's field.

    Player names are left to the players check, which says more.
    """
    from scorekeeper.model.session import Round  # here: what only describes the games loads no session model

    problems: list[Problem] = []

    def child(path: str, key: str, name_level: bool) -> str:
        shown = quote(key) if name_level or not is_bare(key) else key
        return f"{path}.{shown}" if path else shown

    def found(msg: str, path: str, at: At) -> None:
        problems.append(Problem(msg, path=path, round=at[0], player=at[1] if at[2] else None, field=at[2]))

    def walk(value: Any, path: str, key: str, name_level: bool = False, at: At = (None, None, None)) -> None:
        if isinstance(value, str):
            msg = text_problem(value, _what(path, key), notes=path == "notes")
            if msg:
                found(msg, path, at)
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) >= 10 ** MAX_DIGITS:
            digits = f"{len(str(abs(value))):,}" if value.bit_length() < 10_000 else "thousands of"
            found(f"a number of {digits} digits; numbers have at most {MAX_DIGITS}", path, at)
        elif isinstance(value, dict):
            for k, v in value.items():
                msg = text_problem(k, "this key")
                if msg:
                    found(msg, child(path, k, name_level), at)
                elif isinstance(v, (str, int, dict, list, Round)):
                    below = (at[0], k, None) if name_level else (at[0], at[1], k) if at[1] and not at[2] else at
                    walk(v, child(path, k, name_level), k,
                         name_level=k == "players" and path.startswith("rounds["), at=below)
        elif isinstance(value, list):
            for i, item in enumerate(value, start=1):
                walk(item, f"{path}[{i}]", key, at=(i, None, None) if path == "rounds" else at)
        elif isinstance(value, Round) and value.players:  # the model's round, as its [[rounds]] table
            walk(value.players, f"{path}.players", "players", name_level=True, at=at)

    for key, value in raw.items():
        if key != "players":
            walk(value, key if is_bare(key) else quote(key), key)
    return problems
