"""The keys of a screen that walks a round (the walkthrough, a seat at the table), said once.

The screen's widget that owns the keyboard hands each key to `key`: the input at the cursor of the screen's
`WalkState` takes it first (its editor says what the key did: a value typed, a line confirmed, Enter, up/down),
else it moves through the session (a step back or on, Tab round the inputs, undo, redo), in its turn among the
keys typed. What each outcome does on the screen — how a value is taken, where the cursor goes, what is drawn
again — is the screen's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

from scorekeeper.tui import keymap
from scorekeeper.tui.screens.base import SessionScreen
from scorekeeper.tui.widgets.editors import DOWN, EDIT, LINE, MOVE, NEXT, REFUSE, UP
from scorekeeper.walk.state import NOT_READY

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase
    from scorekeeper.tui.widgets.editors import Editor
    from scorekeeper.walk.state import Spot, WalkState


class WalkingScreen(SessionScreen):
    """A screen that walks a round of a `WalkState` key by key."""

    KEYMAP: ClassVar[keymap.KeyMap] = ()
    """The screen's keys: its bindings, and those `screen_key` runs at once (`now`)."""

    app: AppBase

    @property
    def walking(self) -> WalkState:
        """The round's state the keys move through."""
        raise NotImplementedError

    def key(self, key: str, char: str | None) -> bool:
        """A key at the cursor: applied to the input there, or moving through the round. False: not a key of the
        round (it goes on to the bindings)."""
        spot = self.walking.spot
        if spot is None:
            if key == "enter":
                self.action_next()
                return True
            return self.screen_key(key)
        if spot.player is None:
            return self.pick(spot, key, char)
        editor = self.editor_at(spot.player, spot.slot)
        did = editor.key(key, char)
        if did is None:
            return self.screen_key(key)
        if did == MOVE:
            self.draw_grid()
        elif did in (EDIT, LINE):
            self.edited(editor, editor.value(), boundary=did == LINE)
        elif did == REFUSE:
            self.edited(editor, editor.raw(), boundary=True)  # type: ignore[attr-defined]
        elif did == NEXT:
            self.confirm(editor)
        elif did in (UP, DOWN):
            self.move(-1 if did == UP else 1)
        return True

    def screen_key(self, key: str) -> bool:
        """A key of the screen or the app that moves through the session (a step, undo): run now, in its turn among
        the keys typed, not after them. Other keys go on to the bindings."""
        self.flush()
        if key in ("tab", "shift+tab") and self.walking.spots:
            self.cycle(-1 if key == "shift+tab" else 1)  # Tab stays in the step: round the player's inputs
            return True
        now = keymap.immediate([(self, self.KEYMAP), (self.app, keymap.APP)]).get(key)
        if now is None:
            return False
        keymap.run_now(*now)
        return True

    def confirm(self, editor: Editor) -> None:
        """Enter at an input: an empty one confirms its blank (0, no, none), then the cursor moves on."""
        value = editor.value()
        if value is NOT_READY:
            return
        if value is None:
            skip, value = self.walking.blank(editor.player, editor.slot)
            if skip:
                self.advance()
                return
            if value is not None and not editor.stacked:
                editor.load(value)
        where = (editor.player, editor.slot.key, editor.slot.sub)
        if (value is not None or where in self.walking.rejected) and not self.edited(editor, value, True):
            return
        self.advance()

    # -- what the screen does with each key (its own) -------------------------------------------
    def editor_at(self, player: int, slot: int) -> Editor:
        """The box of a player's input (by the indices of a `Spot`)."""
        raise NotImplementedError

    def pick(self, spot: Spot, key: str, char: str | None) -> bool:
        """A key at a step-wide pick (who holds a card there is one of)."""
        raise NotImplementedError

    def edited(self, editor: Editor, value: Any, boundary: bool = False) -> bool:
        """A value typed at a box; whether it was taken."""
        raise NotImplementedError

    def advance(self) -> None:
        """The cursor on to the next input, or the next step."""
        raise NotImplementedError

    def move(self, delta: int) -> None:
        """Up / down out of a box."""
        raise NotImplementedError

    def cycle(self, delta: int) -> None:
        """Tab / shift+Tab past a box's edge."""
        raise NotImplementedError

    def flush(self) -> None:
        """Save what was typed."""
        raise NotImplementedError

    def draw_grid(self) -> None:
        """The cursor moved inside its box (a screen that draws after every key needs nothing more)."""

    def action_step(self, delta: int) -> None:
        """The previous / next step."""
        raise NotImplementedError

    def action_next(self) -> None:
        """Enter where the step has no input."""
        raise NotImplementedError
