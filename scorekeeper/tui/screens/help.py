"""Help: the keys of the screen it was opened from, and the current game's rules in brief."""

from __future__ import annotations

from typing import Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from scorekeeper import games
from scorekeeper.games.base import Rule
from scorekeeper.session import Session
from scorekeeper.tui.render import pad, text_line
from scorekeeper.tui.widgets.hanging import Hanging, Line

GENERAL = (
    ("ctrl+p", "command palette: every action, by name"),
    ("tab / shift+tab", "next / previous field"),
    ("ctrl+z / ctrl+y", "undo / redo (the whole session's changes)"),
    ("f1, ?", "this help"),
    ("ctrl+q", "quit (everything is already saved)"),
)

WALKTHROUGH = (
    ("Enter", "confirm the value (empty means 0 / no) and go to the next player, after the last one the next step"),
    ("up / down", "the same field of the previous / next player"),
    ("typing", "into a filled box replaces its value; Backspace or F2 edits it"),
    ("seat number", "who holds a card there is one of (Ticket Booth, Demolition Derby, Piglet Race); 0 or Enter: "
                    "nobody"),
    ("space, y / n", "yes/no fields: set or clear"),
    ("card lists", "one card per line: 8 = completed for 8, -8 = failed; a name may follow (8 Denver – El Paso); "
                   "Enter adds a line, Enter on the empty line moves on; ctrl+t done/failed, ctrl+r removes, "
                   "ctrl+n inserts; Tab completes a city or a tourist card's name"),
)

HOME = (
    ("typing", "filters the sessions by title, game, player or state: every printable key goes to the filter"),
    ("up / down, Enter", "pick a session and open it (a click opens it too)"),
    ("Esc", "clear the filter"),
    ("ctrl+n", "a new session"),
    ("Delete, ctrl+d", "delete the highlighted session (asks; the default answer is No)"),
    ("ctrl+z", "right after a delete: bring the session back"),
    ("ctrl+t", "the trash: bring back any deleted session"),
)

STANDINGS = (
    ("up / down, Enter", "the first line continues the game; on a round's line, Enter edits it"),
    ("1 … 9", "edit round 1 … 9 from its first step"),
    ("r", "rename a player everywhere in the file (one save; ctrl+z undoes it)"),
    ("s", "change the seating order (only before any round is scored)"),
    ("t", "the session's title and notes"),
)


def toml_value(value: object) -> str:
    """A rule's value as it stands in the file: `"half"`, `3`, `{ 4 = "Pie" }`."""
    if isinstance(value, str):
        return f'"{value}"'
    if isinstance(value, dict):
        return "{ " + ", ".join(f'{k} = {toml_value(v)}' for k, v in value.items()) + " }"
    return str(value)


def default_text(rule: Rule) -> str:
    """`default 3`, `default "full"`, or `optional` for a rule without a default."""
    return "optional" if rule.default is None else f"default {rule.shown_default()}"


class HelpScreen(ModalScreen[None]):
    """The keys and the game's rules."""

    BINDINGS = [Binding("escape,f1,q,question_mark", "close", "Close")]

    def __init__(self, keys: list[tuple[str, str]], screen: Screen[Any], session: Session | None) -> None:
        super().__init__(classes="dialog-screen")
        self.below_keys = keys
        self.below = screen
        self.session = session

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog wide help"):
            with VerticalScroll():
                yield Hanging(self.keys(), id="help-keys")
                if self.session is not None:
                    yield Hanging(self.rules(self.session), id="help-rules")
            yield Static(Content.styled("Esc, F1 or q closes this help", "dim"))

    def keys(self) -> list[Line]:
        """The keys of the screen below, then the general ones."""
        rows: list[tuple[str, str]] = []
        seen: set[str] = set()
        for key, description in self.below_keys:
            if description not in seen:
                seen.add(description)
                rows.append((key, description))
        from scorekeeper.tui.screens.home import HomeScreen
        from scorekeeper.tui.screens.standings import StandingsScreen
        from scorekeeper.tui.screens.walkthrough import WalkthroughScreen

        extras = ((WalkthroughScreen, WALKTHROUGH), (HomeScreen, HOME), (StandingsScreen, STANDINGS))
        extra = next((lines for kind, lines in extras if isinstance(self.below, kind)), ())
        width = max(len(k) for k, _ in (*rows, *GENERAL, *extra)) + 2
        out = [text_line(Content.styled("Keys", "bold underline"))]
        out += [(Content.styled(pad(k, width), "bold $text-accent"), Content(d)) for k, d in (*rows, *extra, *GENERAL)]
        return out

    def rules(self, session: Session) -> list[Line]:
        """The game in brief, its house rules with defaults and this session's values, its steps."""
        game = games.get(session.game)
        out = [text_line(""), text_line(Content.assemble((game.name, "bold underline"),
                                                         (f"  (rulebook {game.rulebook})", "dim"))),
               text_line(game.summary), text_line(""), text_line(Content.styled("House rules", "bold"))]
        if not game.rules:
            out.append(text_line(Content.styled("  none", "dim")))
        for rule in game.rules:
            given = session.rules.get(rule.key)
            now = f" — this session: {toml_value(given)}" if given is not None else ""
            out.append((Content.styled("  " + rule.key, "bold"),
                        Content(f" ({default_text(rule)}{now}): {rule.help}")))
        out += [text_line(""), text_line(Content.styled("Steps of a round", "bold"))]
        out += [(Content.styled("  " + s.title, "bold"), Content(": " + s.help)) for s in game.steps(session)]
        return out

    def action_close(self) -> None:
        """Back."""
        self.dismiss(None)
