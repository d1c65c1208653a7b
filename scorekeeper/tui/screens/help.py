"""Help: the keys of the screen it was opened from, and the current game's rules in brief."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Footer, Static

from scorekeeper import games
from scorekeeper.session import Session
from scorekeeper.tui.render import lines, pad

GENERAL = (
    ("ctrl+p", "command palette: every action, by name"),
    ("tab / shift+tab", "next / previous field"),
    ("ctrl+z / ctrl+y", "undo / redo (the whole session's changes)"),
    ("f1, ?", "this help"),
    ("ctrl+q", "quit (everything is already saved)"),
)

WALKTHROUGH = (
    ("Enter", "confirm the value (empty means 0 / no) and go to the next field, then the next step"),
    ("up / down", "the same field of the previous / next player"),
    ("space, y / n", "yes/no fields: set or clear"),
    ("card lists", "one card per line: 8 = completed for 8, -8 = failed; a name may follow (8 Denver – El Paso); "
                   "Enter adds a line, Enter on the empty line moves on; ctrl+t done/failed, ctrl+r removes, "
                   "ctrl+n inserts"),
)


class HelpScreen(ModalScreen[None]):
    """The keys and the game's rules."""

    BINDINGS = [Binding("escape,f1,q,question_mark", "close", "Close")]

    def __init__(self, keys: list[tuple[str, str]], screen: Screen, session: Session | None) -> None:
        super().__init__(classes="dialog-screen")
        self.below_keys = keys
        self.below = screen
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide help"):
            with VerticalScroll():
                yield Static(self.keys(), id="help-keys")
                if self.session is not None:
                    yield Static(self.rules(self.session), id="help-rules")
            yield Footer()

    def keys(self) -> Content:
        """The keys of the screen below, then the general ones."""
        rows: list[tuple[str, str]] = []
        seen: set[str] = set()
        for key, description in self.below_keys:
            if description not in seen:
                seen.add(description)
                rows.append((key, description))
        from scorekeeper.tui.screens.walkthrough import WalkthroughScreen

        extra = WALKTHROUGH if isinstance(self.below, WalkthroughScreen) else ()
        width = max(len(k) for k, _ in (*rows, *GENERAL, *extra)) + 2
        out = [Content.styled("Keys", "bold underline")]
        out += [Content.assemble((pad(k, width), "bold $accent"), d) for k, d in rows]
        out += [Content.assemble((pad(k, width), "bold $accent"), d) for k, d in (*extra, *GENERAL)]
        return lines(out)

    def rules(self, session: Session) -> Content:
        """The game in brief, its house rules with defaults and this session's values, its steps."""
        game = games.get(session.game)
        out = [Content(""), Content.assemble((game.name, "bold underline"), (f"  (rulebook {game.rulebook})", "dim")),
               Content(game.summary), Content(""), Content.styled("House rules", "bold")]
        if not game.rules:
            out.append(Content.styled("  none", "dim"))
        for rule in game.rules:
            given = session.rules.get(rule.key)
            now = f" — this session: {given!r}" if given is not None else ""
            out.append(Content.assemble(("  " + rule.key, "bold"), f" (default {rule.shown_default()}{now}): ",
                                        rule.help))
        out += [Content(""), Content.styled("Steps of a round", "bold")]
        out += [Content.assemble(("  " + s.title, "bold"), ": ", s.help) for s in game.steps(session)]
        return lines(out)

    def action_close(self) -> None:
        """Back."""
        self.dismiss(None)
