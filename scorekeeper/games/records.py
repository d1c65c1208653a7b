"""What a game keeps after play and how it reads: its boards, what its summary keeps, its statistics and their
words, its export names; `Game` has these hooks, each game fills in its own."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from fractions import Fraction
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:
    from scorekeeper.model.session import Session


class Item(Protocol):
    """An item as the hooks read it (`base.Item`)."""

    @property
    def player(self) -> str: ...
    @property
    def category(self) -> str: ...
    @property
    def points(self) -> Fraction: ...


class Round(Protocol):
    """A round of a score sheet as the hooks read it (`base.RoundScore`)."""

    @property
    def items(self) -> Sequence[Item]: ...


class Sheet(Protocol):
    """A score sheet as the hooks read it (`base.Sheet`)."""

    @property
    def rounds(self) -> Sequence[Round]: ...


class Step(Protocol):
    """A walkthrough step as the hooks read it (`base.Step`)."""

    @property
    def title(self) -> str: ...
    @property
    def categories(self) -> tuple[str, ...]: ...

Figure = Callable[[Any], str]
"""How a surface writes a figure (`60.5`, `—`)."""

Rate = Callable[[float], str]
"""How a surface writes a rate (`80%`)."""


def rate(part: int, whole: int) -> float:
    """A share for the statistics' JSON, to 4 places (0.0 when there is nothing to share)."""
    return round(part / whole, 4) if whole else 0.0


def held(label: str, counts: Mapping[str, Any], pct: Rate) -> tuple[str, str]:
    """A bonus's holders as the table says it: (`Longest Path`, `its holder won 3 of 4 games (75%)`)."""
    games = counts["games"]
    return label, f"its holder won {counts['holder_won']} of {games} game{'s' * (games != 1)} ({pct(counts['rate'])})"


class Records:
    """The hooks of a game after play, with the defaults of a game without boards or figures of its own."""

    id: str = ""
    name: str = ""
    boards: Mapping[str, str] = MappingProxyType({})
    """Its boards, key -> name, in the order statistics list them (none: a game without boards)."""
    bgg_id: int | None = None
    """Its BoardGameGeek id, where known for sure."""
    compared: frozenset[str] = frozenset()
    """The category heads whose points depend on the others' values (a seat sees its own once revealed)."""
    groups: Mapping[str, str] = MappingProxyType({})
    """The chart's shares by category head (`attraction` -> `attractions`)."""
    losses: Mapping[str, str] = MappingProxyType({})
    """The category heads whose losses are a share of their own (`ticket` -> `failed tickets`)."""

    def board_key(self, rules: Mapping[str, Any]) -> str | None:
        """The board a session is played on, a key of `boards` (None for a game without boards)."""
        return None

    def board_name(self, rules: Mapping[str, Any]) -> str:
        """The name of the board a session is played on (`Europe`); "" for a game without boards."""
        return self.boards.get(self.board_key(rules) or "", "")

    def bgstats_game(self, rules: Mapping[str, Any]) -> tuple[int | None, str]:
        """Its BoardGameGeek id and name for a session with these rules (a board may be a game of its own)."""
        return self.bgg_id, self.name

    def marks(self, session: Session, sheet: Sheet) -> dict[str, dict[str, Any]]:
        """What the summary keeps of each player besides points and tickets: whether they got the path bonus."""
        got = {i.player for r in sheet.rounds for i in r.items if i.category == "longest-path" and i.points > 0}
        return {p: {"longest_path": p in got} for p in session.players}

    def tally(self, counts: dict[str, list[int]], mine: Sequence[tuple[bool, Mapping[str, Any]]]) -> None:
        """Count one play into a game's (or a board's) own counts: `mine` are the counted players' (won, marks)."""
        holders = [won for won, marks in mine if marks.get("longest_path")]
        if holders:
            slot = counts.setdefault("longest_path", [0, 0])
            slot[0] += 1
            slot[1] += any(holders)

    def figures(self, counts: Mapping[str, list[int]], categories: Mapping[str, int],
                board: str | None) -> dict[str, Any]:
        """Its own statistics of a game (or, with `board`, a board): JSON data, points as Fractions;
        `categories` in half points."""
        return {}

    def figure_lines(self, own: Mapping[str, Any], board: str | None, fig: Figure, pct: Rate) -> list[tuple[str, str]]:
        """Its own statistics (`figures` as JSON data, of a game or a `board`) as (label, text), for every surface
        to write its way."""
        return []

    def shown_boards(self, boards: Sequence[str]) -> bool:
        """Whether the statistics of these boards (all its plays are on them) are worth showing apart from the
        game's (yes by default)."""
        return True

    def category_name(self, session: Session, category: str) -> str:
        """A category as the table says it: the title of the walkthrough step that scores it (`#4 Pie`), a bonus
        by its measure (`Longest route bonus`); never an id (`attraction:4`)."""
        steps = [step for step in self.steps(session) if category in step.categories]
        if len(steps) == 1 and len(steps[0].categories) == 1:
            return steps[0].title
        head, _, tail = category.partition(":")
        if head == "bonus" and tail:
            field = self.fields_for(session.rules).get(tail)
            return f"{field.label if field is not None else tail.replace('_', ' ').capitalize()} bonus"
        words = {"ticket": "Tickets", "tourist": "Tourist cards"}
        return words.get(head, (tail or head).replace("_", " ").capitalize())

    def round_json(self, session: Session, number: int) -> dict[str, Any]:
        """What the score's JSON adds to round `number` of its own (nothing by default)."""
        return {}

    def provisional(self, session: Session, number: int, items: Sequence[Item]) -> set[str]:
        """The players whose points of round `number` may still change as others' values come in."""
        return set()

    def trail_note(self, step: Step) -> str:
        """Beside a player's own path that scores nothing in `step`: what it does."""
        return "no bonus" if "longest-path" in step.categories else "it settles a tie"

    # provided by Game
    def steps(self, session: Any) -> tuple[Step, ...]:
        raise NotImplementedError

    def fields_for(self, rules: dict[str, Any]) -> dict[str, Any]:
        raise NotImplementedError


def points(categories: Mapping[str, int], key: str) -> Fraction:
    """A category's points from half points."""
    return Fraction(categories.get(key, 0), 2)
