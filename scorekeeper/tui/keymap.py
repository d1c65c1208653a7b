"""The key maps: each a table of key, action and what it does, from which a screen's bindings (and so its footer
and the command palette), the help screen's lines and the keys a walking screen runs in their turn are all made.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from textual.actions import parse
from textual.binding import Binding

if TYPE_CHECKING:
    from collections.abc import Iterable


@dataclass(frozen=True)
class Key:
    """One key of a map: its keys, the action it runs, the footer's word for it, its id (the help and the palette
    know it by), what the help says more fully, whether the footer shows it, and whether a walking screen runs it
    at once, in its turn among the keys typed (`now`), instead of after them through the bindings."""

    keys: str
    action: str
    description: str
    id: str
    help: str = ""
    show: bool = True
    now: bool = False

    def binding(self) -> Binding:
        """The Textual binding of the key."""
        return Binding(self.keys, self.action, self.description, show=self.show, id=self.id)


KeyMap = tuple[Key, ...]


def bindings(keymap: KeyMap) -> list[Binding | tuple[str, str] | tuple[str, str, str]]:
    """A screen's BINDINGS (its footer and its palette commands)."""
    return [key.binding() for key in keymap]


def help_texts(keymap: KeyMap) -> dict[str, str]:
    """What the help screen says of each key, by id (where it says more than the footer)."""
    return {key.id: key.help for key in keymap if key.help}


def pick(keymap: KeyMap, *ids: str) -> KeyMap:
    """The keys of a map with these ids, in the map's order."""
    return tuple(key for key in keymap if key.id in ids)


def run_now(node: Any, action: str) -> None:
    """Run a key's action on a node at once (`step(-1)`: `node.action_step(-1)`)."""
    _, name, args = parse(action)
    getattr(node, f"action_{name}")(*args)


def immediate(maps: Iterable[tuple[Any, KeyMap]]) -> dict[str, tuple[Any, str]]:
    """The keys run at once (`now`), each with the node whose action it runs, from the maps of several nodes (the
    screen's first): key → (node, action)."""
    out: dict[str, tuple[Any, str]] = {}
    for node, keymap in maps:
        for key in keymap:
            if key.now:
                for one in key.keys.split(","):
                    out.setdefault(one.strip(), (node, key.action))
    return out


APP: KeyMap = (
    Key("f1,question_mark", "help", "Help", "help", help="this help"),
    Key("ctrl+z", "undo", "Undo", "undo", help="undo (the whole session's changes, any round)", now=True),
    Key("ctrl+y", "redo", "Redo", "redo", help="redo what was undone", now=True),
    Key("f6", "join", "Join as a seat", "join"),
)
"""The app's own keys, on every screen."""

WALK: KeyMap = (
    Key("escape", "standings", "Standings", "standings", help="the standings (what is typed is saved already)",
        now=True),
    Key("pageup", "step(-1)", "Prev step", "prev-step", help="the previous step of the round", now=True),
    Key("pagedown", "step(1)", "Next step", "next-step", help="the next step of the round", now=True),
    Key("enter", "next", "Next", "next"),
    Key("ctrl+l", "focus_steps", "Steps list", "steps", show=False),
    Key("ctrl+t", "list_key('flip')", "Done/failed", "flip", help="on a line of a card list: done ↔ failed"),
    Key("ctrl+r", "list_key('remove')", "Remove line", "remove", help="on a line of a list: remove it"),
    Key("tab", "stay", "Complete", "complete", show=False),
    Key("f2", "stay", "Edit box", "edit", show=False),
    Key("ctrl+e", "route_entry", "Route entry", "route-entry"),
)
"""The walkthrough's keys."""

SEAT: KeyMap = pick(WALK, "prev-step", "next-step")
"""A seat's keys: the steps back and on (the rest is the walkthrough's, which a seat has not)."""
