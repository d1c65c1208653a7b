"""The one table from a field's kind to the editor of its cells: a new kind of field adds a line here."""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

from scorekeeper.walk import Slot

if TYPE_CHECKING:
    from scorekeeper.tui.widgets.editors import Editor

EDITORS: dict[str, tuple[str, str]] = {
    "int": ("editors", "NumberEditor"),
    "bool": ("editors", "YesNoEditor"),
    "holder": ("editors", "YesNoEditor"),
    "counts": ("editors", "CountsEditor"),
    "cards": ("line_editors", "CardLines"),
    "tourists": ("line_editors", "TouristLines"),
    "map-routes": ("map_editors", "RouteLines"),
    "map-tickets": ("map_editors", "TicketLines"),
    "map-cities": ("map_editors", "StationLines"),
}
"""The editor of each field kind, as (module of scorekeeper.tui.widgets, class): a module is imported when a
session uses one of its kinds (a Ticket Booth session never loads the map editors). A holder's cells show yes/no;
the step picks the holder with one key."""


def editor_kind(slot: Slot) -> str:
    """The kind an editor is picked by: a card list of a known deck (tourist cards) is `tourists`."""
    if slot.kind == "cards" and getattr(slot.field, "deck", None) is not None:
        return "tourists"
    return slot.kind


def editor_class(kind: str) -> type[Editor]:
    """The editor class of a kind (`Unsupported` for a kind not in the table)."""
    module, name = EDITORS.get(kind, ("editors", "Unsupported"))
    editor: type[Editor] = getattr(import_module(f"scorekeeper.tui.widgets.{module}"), name)
    return editor


def editor_for(player: str, slot: Slot, value: Any, context: Any = None) -> Editor:
    """The editor of a slot's kind; `context` is the session's map for the editors that name things on it."""
    return editor_class(editor_kind(slot))(player, slot, value, context)
