"""The one table from a field's kind to the editor of its cells: a new kind of field adds a line here."""

from __future__ import annotations

from typing import Any

from scorekeeper.tui.widgets.editors import (
    CardLines,
    CountsEditor,
    Editor,
    NumberEditor,
    TouristLines,
    Unsupported,
    YesNoEditor,
)
from scorekeeper.tui.widgets.map_editors import RouteLines, TicketLines
from scorekeeper.walk import Slot

EDITORS: dict[str, type[Editor]] = {
    "int": NumberEditor,
    "bool": YesNoEditor,
    "holder": YesNoEditor,
    "counts": CountsEditor,
    "cards": CardLines,
    "tourists": TouristLines,
    "map-routes": RouteLines,
    "map-tickets": TicketLines,
}
"""The editor of each field kind (a holder's cells show yes/no; the step picks the holder with one key)."""

STEP_WIDE = {"holder"}
"""The kinds picked once for the whole step (a card there is one of), not player by player."""


def editor_kind(slot: Slot) -> str:
    """The kind an editor is picked by: a card list of a known deck (tourist cards) is `tourists`."""
    if slot.kind == "cards" and getattr(slot.field, "deck", None) is not None:
        return "tourists"
    return slot.kind


def editor_for(player: str, slot: Slot, value: Any, context: Any = None) -> Editor:
    """The editor of a slot's kind; `context` is the session's map for the editors that name things on it."""
    return EDITORS.get(editor_kind(slot), Unsupported)(player, slot, value, context)
