"""The walkthrough's editors answer a key with a `Did` (or None: not a key of the cell), never a bare string: every
editor of every game and board, whatever keys are typed into it."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper import walk
from scorekeeper.games import GAMES
from scorekeeper.model.session import Session
from scorekeeper.tui.widgets.editors import Did
from scorekeeper.tui.widgets.kinds import editor_for
from scorekeeper.walk.mapmode import map_of

SESSIONS = [Session(game=game, players=("Ana", "Bo", "Cy")) for game in GAMES] + [
    Session(game="ticket-to-ride", players=("Ana", "Bo", "Cy"), rules={"map": board})
    for board in ("usa", "europe", "nordic")]
SLOTS = [(session, slot) for session in SESSIONS for step in GAMES[session.game].steps(session)
         for slot in walk.slots(GAMES[session.game], session, step)]
KEYS = ["enter", "tab", "shift+tab", "up", "down", "left", "right", "backspace", "delete", "home", "end", "space",
        "ctrl+t", "ctrl+r", "ctrl+n", "escape", *"0123456789-+ ", "a", "b", "x", "y", "n"]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(SLOTS), st.lists(st.one_of(st.sampled_from(KEYS), st.sampled_from(["Zzz", "Denver", "Ber"])),
                                        max_size=12))
def test_every_key_is_answered_with_a_did_or_none(at: tuple[Session, walk.Slot], typed: list[str]) -> None:
    session, slot = at
    editor = editor_for("Ana", slot, None, map_of(GAMES[session.game], session))
    for key in typed:
        for one in ([key] if len(key) == 1 or key in KEYS else list(key) + ["enter"]):
            did = editor.key(one, one if len(one) == 1 else None)
            assert did is None or isinstance(did, Did), (slot.kind, one, did)


def test_a_route_naming_no_city_is_refused() -> None:
    session = Session(game="ticket-to-ride", players=("Ana", "Bo"), rules={"map": "usa"})
    game = GAMES[session.game]
    slot = next(s for step in game.steps(session) for s in walk.slots(game, session, step) if s.kind == "map-cities"
                or s.kind == "map-routes")
    editor = editor_for("Ana", slot, None, map_of(game, session))
    for ch in "Zzz":
        editor.key(ch, ch)
    assert editor.key("enter", None) is Did.REFUSE
