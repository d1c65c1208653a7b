"""One key map serves a walking screen's bindings, its footer, the help screen, the command palette and the keys
run in their turn among those typed: each key of the map is found in every one of them, as the map says it."""

from __future__ import annotations

from pathlib import Path

from textual import events

from scorekeeper.model.session import Round
from scorekeeper.tui import keymap
from scorekeeper.tui.screens.help import HelpScreen, spelled
from scorekeeper.tui.screens.walkthrough import WalkthroughScreen
from scorekeeper.tui.widgets.bars import KeyBar, keys_text
from scorekeeper.tui.widgets.hanging import Hanging
from tests.test_tui_support import burst, pilot_test, running, settle, write_session


@pilot_test
async def test_the_walkthrough_keys_come_from_its_map(tmp_path: Path) -> None:
    path = write_session(tmp_path, "ticket-to-mars", ["Ana", "Bo"], rounds=(Round(),))
    async with running(tmp_path, path, size=(160, 50)) as (app, pilot):
        screen = app.screen
        assert isinstance(screen, WalkthroughScreen)
        assert screen.KEYMAP is keymap.WALK
        footer = " ".join(keys_text(bar) for bar in screen.query(KeyBar))
        commands = {c.title for c in app.get_system_commands(screen)} | {name for name, _, _ in screen.palette()}
        offered = [key for node, keys in ((screen, keymap.WALK), (app, keymap.APP)) for key in keys
                   if key.show and node.check_action(key.action.split("(")[0], ()) is not False]
        assert {key.id for key in offered} >= {"standings", "prev-step", "next-step", "undo", "help"}
        for key in offered:
            assert key.description in footer, key
            assert key.description in commands, key
        app.post_message(events.Key("f1", None))
        await settle(pilot)
        assert isinstance(app.screen, HelpScreen)
        said = " ".join(app.screen.query_one("#help-keys", Hanging).plain().split())
        for key in offered:
            if key.help:
                assert key.help in said, key
            else:  # the footer's word, or the step's own line for the key
                assert key.description in said or f"{spelled(key.keys)} " in said, key
        await burst(pilot, "escape")
        assert isinstance(app.screen, WalkthroughScreen)
        assert app.screen.state.index == 0
        await burst(pilot, "pagedown", "pagedown", "pageup")  # run at once, in their turn
        assert app.screen.state.index == 1


def test_the_keys_run_at_once_are_those_the_map_marks() -> None:
    now = keymap.immediate([("screen", keymap.WALK), ("app", keymap.APP)])
    assert now == {"escape": ("screen", "standings"), "pageup": ("screen", "step(-1)"),
                   "pagedown": ("screen", "step(1)"), "ctrl+z": ("app", "undo"), "ctrl+y": ("app", "redo")}
    assert [b.key for b in keymap.bindings(keymap.SEAT)] == ["pageup", "pagedown"]  # type: ignore[union-attr]
