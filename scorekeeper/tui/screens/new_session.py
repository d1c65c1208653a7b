"""A new session: the game, the players in seating order, a title, and each house rule with its default."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Button, Input, Label, OptionList, Select, Static
from textual.widgets.option_list import Option

from scorekeeper import games, store, walk
from scorekeeper.games import validation
from scorekeeper.games.base import Game, Rule
from scorekeeper.games.fields import text_problem
from scorekeeper.model.session import Problem, Round, Session
from scorekeeper.model.text import inert, name_key
from scorekeeper.tui.render import joined, problem_line
from scorekeeper.tui.screens.typing import FormInput, GameList
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase

MAX_PLAYERS = 5
RECENT = 200
"""At most this many recent names are offered."""


def recent_names(sessions: Iterable[tuple[str, Iterable[str]]]) -> tuple[str, ...]:
    """The players of the sessions, most recent first (`sessions`: (when, players), any order), each name once
    (its spelling in the most recent session), only names a session may hold (the index is a cache: untrusted)."""
    from scorekeeper.games.validation import MAX_NAME
    from scorekeeper.model.text import has_control

    seen: dict[str, str] = {}
    for _when, players in sorted(sessions, key=lambda s: s[0], reverse=True):
        for name in players:
            if isinstance(name, str) and name == name.strip() and 0 < len(name) <= MAX_NAME \
                    and not has_control(name):
                seen.setdefault(name_key(name), name)
        if len(seen) >= RECENT:
            break
    return tuple(seen.values())


def completion(typed: str, names: Iterable[str], taken: Iterable[str] = ()) -> str | None:
    """The first of `names` (most recent first) that starts with what is typed (NFC, case folded), not typed in
    another box already; None for an empty box or no match."""
    key = name_key(typed.strip())
    if not key:
        return None
    used = {name_key(t.strip()) for t in taken}
    return next((n for n in names if name_key(n).startswith(key) and name_key(n) not in used), None)


class RecentNames(Suggester):
    """The rest of a recent name, shown dimmed in a player's box as it is typed (Tab or → takes it)."""

    def __init__(self, box: PlayerInput) -> None:
        super().__init__(use_cache=False, case_sensitive=True)
        self.box = box

    async def get_suggestion(self, value: str) -> str | None:
        """The name the box would complete to, when it carries on what is typed as typed."""
        name = self.box.completion()
        return name if name is not None and name.startswith(value) and name != value else None


class PlayerInput(FormInput):
    """A player's box: a few letters and Tab complete a name of the recent sessions; Tab with nothing to complete
    moves on, as in any box."""

    def __init__(self, recent: tuple[str, ...], **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.recent = recent
        self.suggester = RecentNames(self) if recent else None

    def completion(self) -> str | None:
        """The recent name the typed letters complete to (not one in another player's box)."""
        others = [box.value for box in self.screen.query(PlayerInput) if box is not self]
        return completion(self.value, self.recent, others)

    def complete(self) -> bool:
        """Complete the name typed: True when it changed."""
        name = self.completion()
        if name is None or name == self.value:
            return False
        self.value = name
        self.cursor_position = len(name)
        return True

    async def on_key(self, event: events.Key) -> None:
        if event.key == "tab" and self.screen.focused is self and self.complete():
            event.stop()
            event.prevent_default()

    async def take(self, event: events.Key) -> None:
        """Tab completes a name when it can; other keys as a box's."""
        if event.key == "tab" and self.complete():
            return
        await super().take(event)


def parse_names(text: str) -> Any:
    """`4=Pie, 6=Produce` as a table (the rule's own check says what is wrong with it)."""
    table: dict[str, str] = {}
    for part in text.split(","):
        if not part.strip():
            continue
        key, sep, value = part.partition("=")
        if not sep:
            return text
        table[key.strip()] = value.strip()
    return table


class RuleRow(Horizontal):
    """One house rule: its key, an input with the default shown, and what it changes."""

    def __init__(self, rule: Rule) -> None:
        super().__init__(classes="rule-row")
        self.rule = rule

    def compose(self) -> ComposeResult:
        rule = self.rule
        yield Label(Content.styled(rule.key, "bold"), classes="rule-key")
        if rule.kind == "choice":
            options = [(Content(rule.label(c)), c) for c in rule.choices]
            if rule.default is None:
                yield Select(options, prompt=rule.label(None), allow_blank=True, classes="rule-input", compact=True)
            else:
                yield Select(options, value=rule.default, allow_blank=False, classes="rule-input", compact=True)
        elif rule.kind == "names":
            yield FormInput(placeholder="e.g. 4=Pie, 6=Produce", classes="rule-input", compact=True)
        else:
            yield FormInput(placeholder=str(rule.default), classes="rule-input", compact=True)
        yield Label(self.help_text(rule.default), classes="rule-help")

    def help_text(self, value: Any) -> Content:
        """The rule's line of explanation; a choice that says what it does: what the one chosen does."""
        rule = self.rule
        default = f"  (default {rule.shown_default()})" if rule.default is not None else "  (optional)"
        if rule.options:
            return Content.assemble((rule.label(value), "bold"), ": ", rule.explained(value), (default, "dim"))
        return Content.assemble(rule.help, (default, "dim"))

    @on(Select.Changed)
    def chosen(self, event: Select.Changed) -> None:
        """Another choice: what it does."""
        if self.rule.options:
            value = None if event.select.is_blank() else event.value
            self.query_one(".rule-help", Label).update(self.help_text(value))

    def retell(self, rule: Rule | None) -> None:
        """The rule as the board chosen has it (its line of explanation); None: the board has no such rule, the
        row goes."""
        self.display = rule is not None
        if rule is not None and rule != self.rule:
            self.rule = rule
            widget = self.query_one(".rule-input")
            value = widget.value if isinstance(widget, Select) and not widget.is_blank() else None
            self.query_one(".rule-help", Label).update(self.help_text(value))

    def value(self) -> Any:
        """The value given, or None to keep the default."""
        rule = self.rule
        widget = self.query_one(".rule-input")
        if isinstance(widget, Select):
            if widget.is_blank() or widget.value == rule.default:
                return None
            return widget.value
        assert isinstance(widget, Input)
        text = widget.value.strip()
        if not text:
            return None
        if rule.kind == "names":
            return parse_names(text)
        return walk.parse_number(text)


class NewSessionScreen(Screen[None]):
    """The form of a new session; ctrl+s writes the file and starts the walkthrough."""

    CSS_PATH = "../new_session.tcss"
    BINDINGS = [
        Binding("ctrl+s", "create", "Create", id="create"),
        Binding("escape", "cancel", "Cancel", id="cancel"),
    ]

    app: AppBase

    def __init__(self, game: str | None = None, recent: tuple[str, ...] = ()) -> None:
        super().__init__()
        self.game: Game = games.get(game) if game else next(iter(games.GAMES.values()))
        self.recent = recent
        """The players of the recent sessions, most recent first: a few letters and Tab complete one."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="new-session"):
            yield Label(Content.styled("Game", "bold"), classes="section")
            yield GameList(*(Option(self.game_prompt(g), id=g.id) for g in games.GAMES.values()), id="game")
            with Horizontal(id="route-entry-part", classes="rule-row"):  # under the game: seen without scrolling
                yield Label(Content.styled("Routes entered as", "bold"), classes="rule-key")
                yield Select([(Content(name), key) for key, name in walk.ENTRY_NAMES.items()],
                             value=next(iter(walk.ENTRY_NAMES)), allow_blank=False, id="route-entry",
                             classes="rule-input", compact=True)
                yield Label(Content.assemble("one box for the points on the score track, or one for each route "
                                             "length", ("  (ctrl+e in the walkthrough changes it)", "dim")),
                            classes="rule-help")
            yield Label(Content.styled("Players", "bold"), classes="section")
            yield Static(id="seating", classes="hint")
            for i in range(1, MAX_PLAYERS + 1):
                with Horizontal(classes="player-input"):
                    yield Label(f"{i}.", classes="player-no")
                    yield PlayerInput(self.recent, placeholder="name", id=f"player-{i}", compact=True,
                                      classes="player-name")
                    yield Static("", id=f"player-{i}-problem", classes="field-problem")
            yield Static(id="players-problem", classes="field-problem")
            yield Label(Content.styled("Title", "bold"), classes="section")
            yield FormInput(placeholder="optional, e.g. Friday at Mia's", id="title", compact=True)
            yield Static(id="title-problem", classes="field-problem")
            yield Label(Content.styled("House rules", "bold"), classes="section")
            yield Vertical(id="rules")
            yield Static(id="rules-problem", classes="field-problem")
            with Horizontal(classes="buttons"):
                yield Button("Create and start scoring (ctrl+s)", variant="primary", id="create")
                yield Button("Cancel (Esc)", id="cancel")
        yield KeyBar()

    def help_keys(self) -> list[tuple[str, str]]:
        """The form's keys beyond its bindings."""
        return [("↑ / ↓", "on the games: pick one (its seating hint and house rules follow)"),
                ("Enter", "on the games: on to the first player; in a box: the next field (a name may stay empty)"),
                ("typing", "the players in seating order, one a box; each name is checked as you type"),
                ("Tab", "in a player's box: completes a name of the recent sessions from its first letters "
                        "(most recent first); with nothing to complete, the next field")]

    @staticmethod
    def game_prompt(game: Game) -> Content:
        """`The Ticket Booth  2–5 players`."""
        return Content.assemble((game.name, "bold"), (f"  {game.min_players}–{game.max_players} players", "dim"))

    async def on_mount(self) -> None:
        """Show the first game's hint and rules."""
        self.title = "New session"
        listing = self.query_one("#game", OptionList)
        listing.highlighted = list(games.GAMES).index(self.game.id)
        await self.show_game()
        listing.focus()

    @on(OptionList.OptionHighlighted, "#game")
    async def game_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Another game: its seating hint and its rules."""
        if event.option.id and event.option.id != self.game.id:
            self.game = games.get(event.option.id)
            await self.show_game()

    @on(OptionList.OptionSelected, "#game")
    def game_selected(self) -> None:
        """Enter on a game: on to the players."""
        self.query_one("#player-1", Input).focus()

    async def show_game(self) -> None:
        """The seating hint and the house rules of the game."""
        game = self.game
        self.query_one("#seating", Static).update(Content.from_markup(
            "$n players in seating order — $hint", n=f"{game.min_players} to {game.max_players}",
            hint=game.seating_hint))
        rules = self.query_one("#rules", Vertical)
        await rules.remove_children()
        if game.rules:
            await rules.mount_all([RuleRow(r) for r in game.rules])
        else:
            await rules.mount(Label(Content.styled("This game has no house rules.", "dim")))
        self.check()

    @on(Input.Submitted)
    def next_field(self, event: Input.Submitted) -> None:
        """Enter moved to the next field already (FormInput)."""
        event.stop()

    @on(Input.Changed)
    @on(Select.Changed)
    def changed(self) -> None:
        """Check as you type; the house rules as the board chosen has them."""
        offered = {rule.key: rule for rule in self.game.rules_for(self.rules())}
        for row in self.query(RuleRow):
            row.retell(offered.get(row.rule.key))
        self.check()

    def players(self) -> list[str]:
        """The names typed, in order (empty boxes left out, ends trimmed)."""
        names = [self.query_one(f"#player-{i}", Input).value.strip() for i in range(1, MAX_PLAYERS + 1)]
        return [n for n in names if n]

    def rules(self) -> dict[str, Any]:
        """The rules given (defaults left out; a rule the board has not, left out)."""
        out: dict[str, Any] = {}
        for row in self.query(RuleRow):
            value = row.value() if row.display else None
            if value is not None:
                out[row.rule.key] = value
        return out

    def route_entry(self) -> str | None:
        """How the table will enter routes (a field key), None when the game and its rules offer no choice (a
        board's map scores claimed routes)."""
        shape = Session(game=self.game.id, players=("A", "B"), rules=self.rules())
        if not walk.entries(self.game, shape):
            return None
        value = self.query_one("#route-entry", Select).value
        return value if isinstance(value, str) else None

    def check(self, final: bool = False) -> list[Problem]:
        """Names and rules checked by the core; problems shown at their fields."""
        names = self.players()
        problems = validation.players_problems(names, self.game)
        boxes = [i for i in range(1, MAX_PLAYERS + 1) if self.query_one(f"#player-{i}", Input).value.strip()]
        shown: dict[int, list[Problem]] = {}
        general: list[Problem] = []
        for p in problems:
            if p.path.startswith("players[") and p.path.endswith("]"):
                index = int(p.path[len("players["):-1])
                shown.setdefault(boxes[index - 1], []).append(p)
            else:
                general.append(p)
        for i in range(1, MAX_PLAYERS + 1):
            self.query_one(f"#player-{i}-problem", Static).update(joined(problem_line(p) for p in shown.get(i, [])))
        if not final:
            general = [p for p in general if len(names) > self.game.max_players]
        general += self.game.seating_problems(self.rules(), len(names))
        self.query_one("#players-problem", Static).update(joined(problem_line(p) for p in general))
        rule_problems = self.game.check_rules(self.rules())
        self.query_one("#route-entry-part").display = self.route_entry() is not None
        self.query_one("#rules-problem", Static).update(
            joined(problem_line(Problem(f"{p.path}: {p.message}")) for p in rule_problems))
        title = self.query_one("#title", Input).value.strip()
        title_problem = text_problem(title, "the title")
        self.query_one("#title-problem", Static).update(
            joined([problem_line(Problem(title_problem))] if title_problem else []))
        return problems + rule_problems + ([Problem(title_problem, path="title")] if title_problem else [])

    def action_create(self) -> None:
        """Write the session file and walk round 1."""
        problems = self.check(final=True)
        if problems:
            self.notify("Fix what is marked first.", severity="warning")
            return
        title = self.query_one("#title", Input).value.strip() or None
        when = self.app.now()
        session = Session(game=self.game.id, players=tuple(self.players()), title=title, started=when,
                          rules=self.rules(), rounds=(Round(),))
        found = validation.validate(session)
        errors = walk.errors(found)
        if errors:
            at_title = [p for p in errors if p.path == "title"]
            self.query_one("#title-problem", Static).update(joined(problem_line(p) for p in at_title))
            self.query_one("#rules-problem", Static).update(
                joined(problem_line(p) for p in errors if p not in at_title))
            return
        folder = self.app.folder
        try:
            path = store.create(folder, session, when)
        except OSError as exc:
            self.notify(f"Could not write a session file in {inert(str(folder))}: {exc.strerror or exc}",
                        severity="error", markup=False)
            return
        entry = self.route_entry()
        if entry is not None:
            self.app.choose_entry(path, entry)
        self.app.pop_screen()
        self.app.open_file(path)

    @on(Button.Pressed, "#create")
    def create_pressed(self) -> None:
        """The create button."""
        self.action_create()

    @on(Button.Pressed, "#cancel")
    def cancel_pressed(self) -> None:
        """The cancel button."""
        self.action_cancel()

    def typed(self) -> bool:
        """Whether any box of the form holds something typed."""
        return any(box.value.strip() for box in self.query(Input))

    def action_cancel(self) -> None:
        """Back to the sessions, writing nothing; a form with something typed asks first (the default keeps it)."""
        if not self.typed():
            self.app.pop_screen()
            return
        from scorekeeper.tui.screens.dialogs import ConfirmScreen

        def answer(leave: bool | None) -> None:
            if leave and self.app.screen is self:
                self.app.pop_screen()

        self.app.push_screen(ConfirmScreen(Content("Leave the new session? What you typed here is not kept."),
                                           yes="Leave", no="Keep editing"), answer)
