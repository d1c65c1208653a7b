"""Work done on one round, kept by the round's value: a key typed costs the same in round 30 as in round 3.

A round's check, score and text are pure functions of the round and of what the game says it depends on (the
players, the house rules: `Game.round_depends`). They are kept per round object: a session edited in one round
keeps its other rounds as they were (the same objects), whose results are then found again, not worked out anew.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import TYPE_CHECKING, Generic, TypeVar

if TYPE_CHECKING:
    from collections.abc import Callable, Hashable

T = TypeVar("T")


class PerRound(Generic[T]):
    """A bounded cache of one kind of work per round: found again when the very round object and equal
    dependencies come back; the round is kept with its result, so that its identity stays its own. Safe across
    threads (the index is built in one while the app is used)."""

    def __init__(self, size: int = 2048) -> None:
        self.size = size
        self._kept: OrderedDict[tuple[int, Hashable], tuple[object, object, T]] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, rnd: object, key: Hashable, depends: object, make: Callable[[], T]) -> T:
        """The result for this round (`key`: what tells apart the work asked of it, such as its number;
        `depends`: what else it depends on, compared by value), made when not kept."""
        slot = (id(rnd), key)
        with self._lock:
            kept = self._kept.get(slot)
            if kept is not None and kept[0] is rnd and kept[1] == depends:
                self._kept.move_to_end(slot)
                return kept[2]
        value = make()
        with self._lock:
            self._kept[slot] = (rnd, depends, value)
            if len(self._kept) > self.size:
                self._kept.popitem(last=False)
        return value

    def clear(self) -> None:
        """Forget everything kept."""
        with self._lock:
            self._kept.clear()
