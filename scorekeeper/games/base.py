"""The shape every game shares: rules, fields, walkthrough steps, items, ranking."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from scorekeeper.games.fields import Field, check_int, suggest, type_name, unknown_key
from scorekeeper.games.records import Records
from scorekeeper.model.memo import PerRound
from scorekeeper.model.points import fmt, whole
from scorekeeper.model.problems import Problem

if TYPE_CHECKING:
    from _typeshed import SupportsRichComparison

    from scorekeeper.model.session import Session

    V = TypeVar("V", bound=SupportsRichComparison)
else:
    V = TypeVar("V")


class HasRules(Protocol):
    """What a game's steps and rules are read from: a session's house rules (a Session is one)."""

    @property
    def rules(self) -> dict[str, Any]: ...


@dataclass(frozen=True)
class HouseRules:
    """House rules without a session (none given: every default), for what depends on them alone, such as the
    steps that `scorekeeper games` lists."""

    rules: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Rule:
    """A house rule: its key, default, allowed values and one line on what it changes."""

    key: str
    default: Any
    help: str
    choices: tuple[str, ...] = ()
    lo: int | None = None
    kind: str = "int"  # "int", "choice", "names" (a table of display names)
    options: tuple[tuple[str, str, str], ...] = ()  # a choice's (value, label, what it does), for a form
    blank: tuple[str, str] = ("", "")  # a choice without default: the label and what no value does

    def check(self, value: Any) -> str | None:
        """None when value is allowed, else what is wrong and what is allowed."""
        if self.kind == "choice":
            if not isinstance(value, str) or value not in self.choices:
                shown = repr(value) if isinstance(value, str) else type_name(value)
                hint = suggest(value, self.choices) if isinstance(value, str) else ""
                return f"{shown} is not allowed{hint}; expected one of {', '.join(map(repr, self.choices))}"
            return None
        if self.kind == "int":
            return check_int(value, self.lo if self.lo is not None else 0)
        return None

    def label(self, value: str | None) -> str:
        """A choice as a form offers it (`Nordic Countries`; the blank: `none`)."""
        if value is None:
            return self.blank[0] or "(none)"
        return next((label for v, label, _ in self.options if v == value), value)

    def explained(self, value: str | None) -> str:
        """What a choice does, for a form (the rule's help when it says nothing per choice)."""
        if value is None:
            return self.blank[1] or self.help
        return next((what for v, _, what in self.options if v == value), self.help)

    def shown_default(self) -> str:
        """The default as it would be written in TOML."""
        if isinstance(self.default, str):
            return f'"{self.default}"'
        if self.default is None:
            return "(none)"
        return str(self.default)


@dataclass(frozen=True)
class Step:
    """One call-out of the walkthrough: a title, the fields entered per player, the item categories it shows.

    A field is `(key, sub)`: `("attractions", "8")` is the count of #8 cards; `("tickets", None)` the field itself.
    """

    id: str
    title: str
    inputs: tuple[tuple[str, str | None], ...] = ()
    categories: tuple[str, ...] = ()
    help: str = ""
    sign: int = 0  # 0: every item of the categories; -1: only deductions; 1: only additions
    either: bool = False  # the inputs are alternatives: one of them given is enough (routes, or route points)

    def shows(self, item: Item) -> bool:
        """Whether the step shows this item: its category is the step's, and its sign when the step has one."""
        return item.category in self.categories and (self.sign == 0 or self.sign * item.points > 0)


@dataclass(frozen=True)
class Item:
    """One line of the score: who, for what, how many points, why, and what it is about (`detail`)."""

    player: str
    category: str
    points: Fraction
    why: str
    detail: tuple[str, ...] = ()  # what the item is about: a ticket's name, a path's cities
    uses: tuple[str, str, str] | None = None  # Europe's station: (its city, the route it uses or "", its owner)
    via: tuple[str, ...] = ()  # Europe's ticket: the cities of the stations it was completed through

    def detail_json(self) -> dict[str, Any]:
        """What the item is about, for the score's JSON: a station's city, the route it uses and its owner."""
        if self.uses is None:
            return {}
        return {"detail": {"station": self.uses[0], "route": self.uses[1] or None, "owner": self.uses[2] or None}}


@dataclass
class RoundScore:
    """A scored round: its number, whether every player is in, the first player, points and items."""

    number: int
    complete: bool
    first_player: str
    points: dict[str, Fraction]
    items: list[Item]


@dataclass(frozen=True)
class Place:
    """A place of the ranking, shared by players still tied after the tie-break chain."""

    place: int
    players: tuple[str, ...]
    total: Fraction
    why: str | None = None  # players level on points: how the chain separated them here, or that they share it


@dataclass
class Sheet:
    """The whole score of a session: rounds, totals, ranking, winners, tie-break, what comes next."""

    session: Session
    rounds: list[RoundScore]
    totals: dict[str, Fraction]
    ranking: list[Place]
    winners: list[str]
    tiebreak: str | None
    complete: bool
    next: str | None
    problems: list[Problem] = field(default_factory=list)

    @property
    def warnings(self) -> list[Problem]:
        """The warnings (a scored sheet has no errors)."""
        return [p for p in self.problems if not p.is_error]


@dataclass(frozen=True)
class TieBreak:
    """One link of a tie-break chain: a key per player (higher wins) and how to say it."""

    key: Callable[[str], Any]
    better: str  # "scored more in the last round"
    value: Callable[[Any], str] = str  # how a key value is shown ("" leaves the figures out)
    same: str | None = None  # "scored {} each in the last round": when every tied player has the same key

    def level(self, tied: Sequence[str], shown: str, flag: bool) -> str:
        """What to say when every player of `tied` has the same key (`shown`; `flag` the key of a yes/no link)."""
        if self.same:
            return self.same.format(shown)
        if shown == "" and isinstance(flag, bool):  # a yes/no link: "both held …", "neither held …"
            two = len(tied) == 2
            return f"{('both' if two else 'all') if flag else ('neither' if two else 'none of them')} {self.better}"
        return f"no one {self.better}" + (f" ({shown} each)" if shown else "")


def ordinal(n: int) -> str:
    """`1st`, `2nd`, `3rd`, `4th`, `11th`."""
    tail = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{tail}"


def plural(n: int, one: str, many: str | None = None) -> str:
    """`1 card`, `3 cards` (`many` for an irregular plural)."""
    return f"{n} {one}" if n == 1 else f"{n} {many or one + 's'}"


def missed_items(values: Mapping[str, int], holders: Sequence[str], category: str, what: str,
                 top: str, detail: Mapping[str, tuple[str, ...]] | None = None) -> list[Item]:
    """A bonus that went elsewhere, said to each player who had some of it: a 0-point item with the reason
    (`longest continuous path: 5, but Cat has more (9 trains): no bonus`)."""
    if not holders:
        return []
    has = "has" if len(holders) == 1 else "have"
    return [Item(p, category, Fraction(0), f"{what}: {v}, but {names(holders)} {has} more ({top}): no bonus",
                 (detail or {}).get(p, ()))
            for p, v in values.items() if v and p not in holders]


def most(values: Mapping[str, V]) -> tuple[list[str], V]:
    """Who has the most: the players with the greatest value (in the mapping's order) and that value."""
    top = max(values.values())
    return [p for p, v in values.items() if v == top], top


def names(players: Sequence[str]) -> str:
    """`Ana`, `Ana and Bo`, `Ana, Bo and Cy`."""
    players = list(players)
    if len(players) <= 1:
        return "".join(players)
    return ", ".join(players[:-1]) + " and " + players[-1]


def rank(
    players: Sequence[str], totals: dict[str, Fraction], chain: Sequence[TieBreak] = ()
) -> tuple[list[Place], str | None]:
    """Competition ranking by total then the chain, each place with its `why`; and the sentence settling a tie for
    first."""
    keys = {p: (totals[p], *(link.key(p) for link in chain)) for p in players}
    ordered = sorted(players, key=lambda p: keys[p], reverse=True)
    places: list[Place] = []
    for i, p in enumerate(ordered):
        if places and keys[places[-1].players[0]] == keys[p]:
            last = places[-1]
            places[-1] = Place(last.place, (*last.players, p), last.total)
        else:
            places.append(Place(i + 1, (p,), totals[p]))
    whys = place_whys(players, totals, chain, {pl.players[0]: pl.place for pl in places})
    places = [Place(pl.place, pl.players, pl.total, whys.get(pl.players[0])) for pl in places]
    return places, tie_sentence(players, totals, chain)


def tie_lines(sheet: Sheet) -> list[str]:
    """What the standings, the history and `score` say of the ties: the sentence on the tie for first, then each
    tied place's `why` once (several places one link separated share a sentence)."""
    lines = [sheet.tiebreak] if sheet.tiebreak else []
    if not sheet.session.scored:
        return lines  # nothing played: no tie to speak of
    for pl in sheet.ranking:
        if pl.why and not any(line.startswith(pl.why) for line in lines):  # the first's: with its rulebook
            lines.append(pl.why)
    return lines


def place_whys(
    players: Sequence[str], totals: dict[str, Fraction], chain: Sequence[TieBreak], place_of: dict[str, int]
) -> dict[str, str]:
    """For every player level on points with another: the sentence of how the chain placed them (the same
    sentence for all the players one link separated, or who share a place at the end of the chain).

    `place_of` gives the place of the first player of each place (the others share it)."""
    whys: dict[str, str] = {}

    def settle(tied: list[str], depth: int, parts: list[str]) -> None:
        for k in range(depth, len(chain)):
            link = chain[k]
            values = {p: link.key(p) for p in tied}
            ahead, top = most(values)
            shown = link.value(top)
            if len(ahead) == len(tied):
                parts = [*parts, link.level(tied, shown, top)]
                continue
            groups: list[list[str]] = []
            for value in sorted(set(values.values()), reverse=True):
                groups.append([p for p in tied if values[p] == value])
            behind = [p for p in tied if values[p] != top]
            if len(ahead) == 1:
                rest = ", ".join(link.value(values[p]) for p in behind)
                said = f"{ahead[0]} {link.better}" + (f" ({shown} to {rest})" if shown else "")
            else:
                rest = ", ".join(f"{p} {link.value(values[p])}" for p in behind)
                said = f"{names(ahead)} {link.better}" + (f" ({shown} each, {rest})" if shown else "")
            for group in groups:
                if len(group) == 1:
                    whys[group[0]] = "; ".join([*parts, said])
                else:
                    settle(group, k + 1, [*parts, said])
            return
        place = min(place_of.get(p, len(players)) for p in tied)
        end = (f"a shared victory for {names(tied)}" if place == 1
               else f"{names(tied)} share {ordinal(place)} place")
        sentence = "; ".join([*parts, f"still tied: {end}"]) if len(parts) > 1 else f"{parts[0]}: {end}"
        for p in tied:
            whys[p] = sentence

    level: dict[Fraction, list[str]] = {}
    for p in players:
        level.setdefault(totals[p], []).append(p)
    for total, tied in level.items():
        if len(tied) > 1:
            settle(tied, 0, [f"{names(tied)} tied on {fmt(total)}"])
    return whys


def tie_sentence(
    players: Sequence[str], totals: dict[str, Fraction], chain: Sequence[TieBreak]
) -> str | None:
    """How the tie for the most points was settled, or None when nobody tied for first."""
    tied, best = most({p: totals[p] for p in players})
    if len(tied) < 2:
        return None
    parts = [f"{names(tied)} tied on {fmt(best)}"]
    for link in chain:
        values = {p: link.key(p) for p in tied}
        ahead, top = most(values)
        shown = link.value(top)
        if len(ahead) == len(tied):
            parts.append(link.level(tied, shown, top))
            continue
        behind = [p for p in tied if values[p] != top]
        if len(ahead) == 1:
            rest = ", ".join(link.value(values[p]) for p in behind)
            parts.append(f"{ahead[0]} {link.better}" + (f" ({shown} to {rest})" if shown else ""))
            return "; ".join(parts)
        rest = ", ".join(f"{p} {link.value(values[p])}" for p in behind)
        parts.append(f"{names(ahead)} {link.better}" + (f" ({shown} each, {rest})" if shown else ""))
        tied = ahead
    parts.append(f"still tied: a shared victory for {names(tied)}")
    return "; ".join(parts)


class Game(Records):
    """A game of the family: what it asks per player, its rules, steps, scoring and ranking.

    Subclasses fill in the class attributes and `score_round`; the rest has defaults that
    suit a game of one or more scheduled rounds.
    """

    id: str = ""
    name: str = ""
    rulebook: str = ""
    min_players: int = 2
    max_players: int = 5
    seating_hint: str = "seating order, clockwise"
    summary: str = ""  # the rules in brief, for `games` and the help screen
    rules: tuple[Rule, ...] = ()
    fields: tuple[Field, ...] = ()

    # -- rules ------------------------------------------------------------------
    def rule(self, session: HasRules, key: str) -> Any:
        """The value of a house rule in this session (its default when not given)."""
        for r in self.rules:
            if r.key == key:
                return session.rules.get(key, r.default)
        raise KeyError(key)

    def rules_for(self, rules: dict[str, Any]) -> tuple[Rule, ...]:
        """The house rules as a form offers them under the rules chosen so far (a board may drop or retell one)."""
        return self.rules

    def seating_problems(self, rules: dict[str, Any], count: int) -> list[Problem]:
        """What the rules say of a table of `count` players beyond the game's limits (a board designed for fewer)."""
        return []

    def check_rules(self, rules: dict[str, Any]) -> list[Problem]:
        """Every problem with the [rules] table."""
        problems: list[Problem] = []
        known = {r.key: r for r in self.rules}
        for key, value in rules.items():
            spec = known.get(key)
            if spec is None:
                problems.append(Problem(unknown_key(key, list(known)) if known else
                                        f"unknown key {key!r}; {self.name} has no house rules",
                                        path=f"rules.{key}"))
                continue
            msg = spec.check(value)
            if msg:
                problems.append(Problem(msg, path=f"rules.{key}"))
        return problems

    # -- fields -----------------------------------------------------------------
    def fields_for(self, rules: dict[str, Any]) -> dict[str, Field]:
        """The per-player fields of a round under these house rules (a rule may change them)."""
        return {f.key: f for f in self.fields}

    def steps(self, session: HasRules) -> tuple[Step, ...]:
        """The walkthrough of a round under the session's house rules, in the rulebook's order (the last one is the
        summary)."""
        raise NotImplementedError

    # -- rounds -----------------------------------------------------------------
    def inputs_of(self, session: Session, step: Step) -> tuple[tuple[str, str | None], ...]:
        """The values a player gives at a step: each input's field, or each key inside it (an objective's count
        and each); a field no editor knows is left out."""
        fields = self.fields_for(session.rules)
        out: list[tuple[str, str | None]] = []
        for key, sub in step.inputs:
            if sub is None and fields[key].kind == "other":
                continue
            out.extend((key, part) for part in ((sub,) if sub is not None else fields[key].parts()))
        return tuple(out)

    def filled(self, session: Session, number: int, player: str) -> bool:
        """Whether the player has filled every step of round `number` (SPEC §5, "Live sessions"): the player has a
        table with every step's values (one of them at a step of alternatives) — or, in a round written by hand
        (`written_by_hand`), a table at all: its missing values mean zero."""
        entry = session.round(number).players.get(player)
        if entry is None:
            return False
        return self._lacking(session, entry) is None or self.written_by_hand(session, number)

    def written_by_hand(self, session: Session, number: int) -> bool:
        """Whether round `number` was written by hand: a player's table lacks a step's values but holds a value of
        a later step. The app never writes that: it fills each player's steps in turn, 0 and false too (a seat
        cannot go past its first step not filled), so a round it is still filling never reads as finished."""
        for entry in session.round(number).players.values():
            lacking = self._lacking(session, entry)
            if lacking is not None and any(any(values) for values in lacking[1]):
                return True
        return False

    def _lacking(self, session: Session, entry: Mapping[str, Any]) -> tuple[int, list[list[bool]]] | None:
        """The first step whose values the table lacks, and which values it holds of each later step (None: it
        lacks none)."""
        steps = self.steps(session)
        given = [[_given(entry, key, sub) for key, sub in self.inputs_of(session, step)] for step in steps]
        for i, (step, values) in enumerate(zip(steps, given, strict=True)):
            if values and not (any(values) if step.either else all(values)):
                return i, given[i + 1:]
        return None

    def revealed(self, session: Session, number: int) -> bool:
        """Whether round `number` is over and its values may be shown to every seat: every player has filled
        every step of it. The one rule of the Summary, "Waiting for", the seats and the walk's end of a round."""
        return all(self.filled(session, number, p) for p in session.players)

    def scheduled_rounds(self, session: Session) -> int:
        """How many rounds the game has before any extra round."""
        return 1

    def first_player(self, session: Session, number: int, totals_before: dict[str, Fraction]) -> str:
        """Who starts round `number` (from 1): by default the first listed player."""
        return session.players[0]

    def check_session(self, session: Session) -> list[Problem]:
        """Cross-field errors and warnings of the whole session (fields are already well-typed)."""
        problems: list[Problem] = []
        limit = self.scheduled_rounds(session)
        if len(session.rounds) > limit and not self.allows_extra_rounds():
            problems.append(Problem(
                f"the session has {len(session.rounds)} rounds, but {self.name} has {limit}"
                + (" (rule rounds)" if any(r.key == "rounds" for r in self.rules) else ""),
                path=f"rounds[{limit + 1}]", round=limit + 1))
        for number in range(1, len(session.rounds) + 1):
            problems.extend(self.checked_round(session, number))
        return problems

    def round_depends(self, session: Session) -> object:
        """What a round's check and score depend on besides the round itself and its number (compared by value):
        by default the players and the house rules."""
        return session.players, session.rules

    def checked_round(self, session: Session, number: int) -> list[Problem]:
        """`check_round`, kept by the round's value (worked out again only when the round or what it depends on
        changed)."""
        return list(CHECKED.get(session.round(number), (self.id, number), self.round_depends(session),
                                lambda: tuple(self.check_round(session, number))))

    def scored_round(self, session: Session, number: int) -> list[Item]:
        """`score_round`, kept by the round's value."""
        return list(SCORED.get(session.round(number), (self.id, number), self.round_depends(session),
                               lambda: tuple(self.score_round(session, number))))

    def allows_extra_rounds(self) -> bool:
        """Whether rounds past the schedule may exist (checked by the game itself)."""
        return False

    def check_round(self, session: Session, number: int) -> list[Problem]:
        """Cross-field errors and warnings of round `number`."""
        return []

    def score_round(self, session: Session, number: int) -> list[Item]:
        """Every item of round `number`, in the rulebook's order."""
        raise NotImplementedError

    # -- the end ----------------------------------------------------------------
    def tiebreaks(self, session: Session, rounds: list[RoundScore]) -> list[TieBreak]:
        """The tie-break chain after the total (empty: a tie is shared)."""
        return []

    def ranking(
        self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction]
    ) -> tuple[list[Place], str | None]:
        """The ranking and the sentence on the tie for first: by default `rank` with the game's chain."""
        return rank(session.players, totals, self.tiebreaks(session, rounds))

    def progress(
        self, session: Session, rounds: list[RoundScore], totals: dict[str, Fraction], ranking: list[Place]
    ) -> tuple[bool, str | None]:
        """Whether the game is decided, and what the table must do now."""
        scheduled = self.scheduled_rounds(session)
        for r in rounds:
            if not r.complete:
                return False, f"score round {r.number} (first player: {r.first_player})"
        if len(rounds) < scheduled:
            number = len(rounds) + 1
            return False, f"score round {number} (first player: {self.first_player(session, number, totals)})"
        return True, None


CHECKED: PerRound[tuple[Problem, ...]] = PerRound()
"""Each round's `check_round`, by the round's value."""
SCORED: PerRound[tuple[Item, ...]] = PerRound()
"""Each round's `score_round`, by the round's value."""


def _given(entry: Mapping[str, Any], key: str, sub: str | None) -> bool:
    """Whether a player's table holds a value (0 and false too) of a field, or of a key inside it."""
    value = entry.get(key)
    if sub is None or value is None:
        return value is not None
    return isinstance(value, dict) and value.get(sub) is not None


def add_items(players: Sequence[str], items: Sequence[Item]) -> dict[str, Fraction]:
    """Each player's points: the sum of their items."""
    sums: dict[str, int | Fraction] = dict.fromkeys(players, 0)
    for item in items:
        value = item.points
        sums[item.player] += value.numerator if value.denominator == 1 else value  # whole points add as ints
    return {p: whole(v) if type(v) is int else Fraction(v) for p, v in sums.items()}
