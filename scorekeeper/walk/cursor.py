"""Where the walkthrough is: a value (the round, the step, the input and what they depend on); a move makes a new
one, so that what the screen draws is a function of the cursor and the session, never of where they were before."""

from __future__ import annotations

from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Spot:
    """A place the cursor can be: a player's input (player index, slot index), or a step-wide pick (player None)."""

    player: int | None
    slot: int


@dataclass(frozen=True)
class Left:
    """A warning of the step just left, shown under the heading until the cursor leaves the next step."""

    step: str
    message: str
    more: int


@dataclass(frozen=True)
class Cursor:
    """The round (from 1), the step (its index), the input (its index among the step's `spots`); `single`: one
    player's view (up/down go through that player's inputs); `left`: a warning of the step just left."""

    number: int
    index: int = 0
    spots: tuple[Spot, ...] = ()
    at: int = 0
    single: bool = False
    left: Left | None = None

    @property
    def spot(self) -> Spot | None:
        """Where the cursor is (None: the step has no input)."""
        return self.spots[self.at] if 0 <= self.at < len(self.spots) else None

    def to(self, at: int) -> Cursor:
        """The cursor on another input of the step."""
        return replace(self, at=at)

    def next_box(self) -> Cursor | None:
        """The next input of the step (None: this is its last)."""
        return self.to(self.at + 1) if self.at < len(self.spots) - 1 else None

    def cycled(self, delta: int) -> Cursor:
        """Tab / shift+Tab past a box's edge: the player's next / previous input, round the row."""
        player = self.spots[self.at].player
        row = [i for i, s in enumerate(self.spots) if s.player == player]
        return self.to(row[(row.index(self.at) + delta) % len(row)])

    def moved(self, delta: int) -> Cursor | None:
        """Up/down: the same input of the previous/next player (one player's view: the player's previous/next
        input); None at the first/last."""
        spot = self.spots[self.at]
        same = [i for i, s in enumerate(self.spots) if s.player is not None and (s.slot == spot.slot or self.single)]
        index = same.index(self.at) + delta
        return self.to(same[index]) if 0 <= index < len(same) else None

    def to_player(self, p: int) -> Cursor:
        """The cursor on a player's row: the same input, else the player's first."""
        spot = self.spots[self.at]
        return self.to(next((i for i, s in enumerate(self.spots) if s.player == p and s.slot == spot.slot),
                            next((i for i, s in enumerate(self.spots) if s.player == p), self.at)))
