"""Help: the keys of the screen it was opened from, and the current game's rules in brief."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from scorekeeper import games, walk
from scorekeeper.games.base import Rule, Step
from scorekeeper.model.session import Session
from scorekeeper.tui import keymap
from scorekeeper.tui.keymap import help_texts
from scorekeeper.tui.render import pad, text_line
from scorekeeper.tui.widgets.hanging import Hanging, Line
from scorekeeper.tui.widgets.kinds import editor_class, editor_kind
from scorekeeper.walk.state import STEP_WIDE

if TYPE_CHECKING:
    from scorekeeper.walk.state import WalkState

GENERAL = (
    ("ctrl+p", "command palette: every action, by name"),
    ("ctrl+q", "quit (everything is already saved)"),
)

TAB = ("Tab, shift+Tab", "next / previous field")

APP = help_texts(keymap.APP)
"""What the app's own keys do, said more fully than in the footer."""

NAMES = {"enter": "Enter", "escape": "Esc", "pageup": "PageUp", "pagedown": "PageDown", "question_mark": "?",
         "delete": "Delete", "tab": "Tab", "shift+tab": "shift+Tab", "up": "↑", "down": "↓", "space": "space"}


def spelled(keys: str) -> str:
    """A binding's keys as the help writes them: `f1,question_mark` -> `F1, ?`."""
    out = []
    for key in keys.split(","):
        key = key.strip()
        if key.startswith("f") and key[1:].isdigit():
            out.append(key.upper())
        else:
            out.append(NAMES.get(key, key))
    return ", ".join(out)


HOME = (
    ("typing", "filters the sessions by title, game, player or state: every printable key goes to the filter"),
    ("up / down, Enter", "pick a session and open it (a click opens it too)"),
    ("Esc", "clear the filter"),
    ("ctrl+n", "a new session"),
    ("Delete, ctrl+d", "delete the highlighted session (asks; the default answer is No)"),
    ("ctrl+z", "right after a delete: bring the session back"),
    ("ctrl+t", "the trash: bring back any deleted session"),
)


def walk_keys(state: WalkState) -> list[tuple[str, str]]:
    """The keys a walkthrough step offers, then those the round's other steps add (from the kinds of their inputs)."""
    rows = step_keys(state, state.step, state.slots, moves=True)
    others: list[tuple[str, str]] = []
    for step in state.steps:
        if step is not state.step:
            others += [row for row in step_keys(state, step, state.slots_of(step)) if row not in rows + others]
    held = [row for row in others if row[0] == "seat"]
    if len(held) > 1:
        cards = " / ".join(text.split(":")[0].removeprefix("who holds the ") for _, text in held)
        others = [row for row in others if row[0] != "seat"]
        others.insert(0, ("seat", f"who holds the {cards}:{held[0][1].split(':', 1)[1]}"))
    if others:
        rows += [("", "At the round's other steps"), *others]
    seats = f"1 … {len(state.players)}, 0"
    return [(seats if key == "seat" else key, text) for key, text in rows]


def step_keys(state: WalkState, step: Step, slots: tuple[walk.Slot, ...],
              moves: bool = False) -> list[tuple[str, str]]:
    """The keys of a step's inputs: how the cursor moves through them (`moves`), and each kind's own keys."""
    rows: list[tuple[str, str]] = []
    inputs = [s for s in slots if s.kind not in STEP_WIDE]
    lists = any(getattr(editor_class(editor_kind(s)), "stacked", False) for s in inputs)
    by_line = ("in a list: the line above / below (typing replaces a line moved to; ← → or End first to edit "
               "it); past the list's first or last line, ") if lists else ""
    if moves and len(inputs) > 1:
        order = " → ".join(s.label for s in inputs)
        if walk.offers_either(step, slots):
            order += ": give one or the other"
        rows += [("Enter, Tab", f"confirms the box (empty: 0 / no) and moves along the player's row ({order}), "
                                "then to the next player's row; after the last player, the next step"),
                 ("↑ / ↓", by_line + "the same column of the previous / next player")]
    elif moves and inputs:
        rows += [("Enter, Tab", "confirms the value (empty: 0 / no) and goes to the next player; after the last "
                                "one, the next step"),
                 ("↑ / ↓", by_line + "the previous / next player")]
    elif moves:
        rows.append(("Enter", "the standings" if step.id == "summary" else
                     "the next step (nothing to type here: the points come from earlier steps)"))
    held = [s.label for s in slots if s.kind in STEP_WIDE]
    if held:
        seats = ", ".join(f"{i} {p}" for i, p in enumerate(state.players, 1))
        rows.append(("seat", f"who holds the {' / '.join(held)}: the seat number ({seats}); 0 or n: nobody; "
                             "↑ / ↓ and Enter pick too"))
    for slot in inputs:
        rows += [row for row in editor_class(editor_kind(slot)).HELP if row not in rows]
    if walk.either(step) and walk.entries(state.game, state.model):
        rows.append(("ctrl+e", f"enter routes as {state.other_entry_name()} instead (kept for this session)"))
    return rows


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

    def __init__(self, bindings: list[Binding], screen: Screen[Any], session: Session | None) -> None:
        super().__init__(classes="dialog-screen")
        self.bindings = bindings
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
        """The keys of the screen below as it is now: the keys it offers beyond its bindings (a walkthrough: those
        of this step's inputs), its bindings (said more fully where the screen says more), what other steps add,
        then the general keys."""
        below = self.below
        own: list[tuple[str, str]] = list(getattr(below, "help_keys", lambda: ())())
        if not own:
            from scorekeeper.tui.screens.home import HomeScreen

            own = list(HOME) if isinstance(below, HomeScreen) else []
        texts: dict[str, str] = getattr(below, "HELP_TEXTS", {})
        said = {part for key, _ in own for part in key.split(", ")}
        rows: list[tuple[str, str]] = []
        keys: dict[str, list[str]] = {}
        for binding in self.bindings:
            key = spelled(binding.key)
            if not set(key.split(", ")) <= said:
                keys.setdefault(texts.get(binding.id or "") or APP.get(binding.id or "") or binding.description,
                                []).append(key)
        for text, spelt in keys.items():
            said.update(part for key in spelt for part in key.split(", "))
            rows.append((", ".join(spelt), text))
        heading = next((i for i, (key, _) in enumerate(own) if not key), len(own))
        rows = own[:heading] + rows + own[heading:]
        general = list(GENERAL)
        if getattr(below, "TAB_MOVES", True) and len(below.focus_chain) > 1:
            general.insert(0, TAB)
        rows += [(k, d) for k, d in general if not set(k.split(", ")) <= said]
        width = max(len(k) for k, _ in rows) + 2
        out = [text_line(Content.styled("Keys", "bold underline"))]
        for key, text in rows:
            if key:
                out.append((Content.styled(pad(key, width), "bold $text-accent"), Content(text)))
            else:
                out.append(text_line(Content.styled(text, "bold")))
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
