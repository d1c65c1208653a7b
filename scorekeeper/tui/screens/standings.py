"""The standings: rounds and totals, the ranking and tie-break, each player's breakdown, what comes next."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from rich.cells import cell_len
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.content import Content
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from scorekeeper import games, walk
from scorekeeper.games.base import Sheet, tie_lines
from scorekeeper.model.session import Session
from scorekeeper.model.text import inert
from scorekeeper.tui.render import item_line, lines, problem_line, scores_table, text_line
from scorekeeper.tui.screens.base import SessionScreen
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.charts import ScoreCharts
from scorekeeper.tui.widgets.hanging import Hanging, Line

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase
    from scorekeeper.walk.document import Document


def rounds_text(scheduled: int, played: int) -> str:
    """`3 rounds, 1 played`, `1 round, 2 played (1 extra)`."""
    text = f"{scheduled} round{'s' if scheduled != 1 else ''}"
    if played:
        text += f", {played} played"
    if played > scheduled:
        text += f" ({played - scheduled} extra)"
    return text


PHONE = 60
"""Below this width (a phone held upright) each line of the list is at least two rows high: a tap target."""


class RoundList(OptionList):
    """What the table can do: the next thing first, then every round; the footer says what Enter does on the line
    highlighted (continue, or edit the round)."""

    BINDINGS = [Binding("enter", "choose('continue')", "Continue", id="continue-line"),
                Binding("enter", "choose('edit')", "Edit round", id="edit-line")]

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Enter is shown as what it does on the highlighted line."""
        if action == "choose":
            index = self.highlighted
            on_continue = index is not None and self.get_option_at_index(index).id == "continue"
            return (parameters == ("continue",)) == on_continue
        return True

    def action_choose(self, what: str) -> None:
        """Enter: the highlighted line's action (the screen continues or edits)."""
        self.action_select()


class StandingsScreen(SessionScreen):
    """Where the session stands; each round is listed, Enter continues or edits the highlighted round."""

    CSS_PATH = "../standings.tcss"
    BINDINGS = [
        Binding("n", "next", "Continue", id="continue", show=False),
        Binding("e", "edit_round", "Edit last round", id="edit", show=False),
        *(Binding(str(n), f"edit_round({n})", f"Edit round {n}", show=False) for n in range(1, 10)),
        Binding("r", "rename", "Rename a player", id="rename"),
        Binding("s", "seating", "Seating", id="seating"),
        Binding("t", "details", "Title and notes", id="details"),
        Binding("c", "charts", "Charts", id="charts"),
        Binding("x", "export", "Export", id="export"),
        Binding("escape", "home", "Sessions", id="home"),
    ]

    HELP_TEXTS = {
        "rename": "rename a player everywhere in the file (one save; ctrl+z undoes it)",
        "seating": "change the seating order (only before any round is scored)",
        "details": "the session's title and notes",
        "charts": "the charts: running totals by round, points by category",
        "export": "export: CSV, Markdown, JSON, or a BG Stats play (a QR code)",
        "home": "back to the sessions (everything is saved)",
    }
    """The screen's keys said more fully on the help screen."""

    app: AppBase

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.game = games.get(doc.session.game)
        self.sheet: Sheet | None = None
        self.choices: list[int] = []
        self.states: list[tuple[bool, str]] = []
        self._keep = True

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="standings"):
            yield Static(id="result")
            yield Static(id="notes")
            yield Static(id="next")
            yield RoundList(id="rounds")
            yield Static(id="table")
            yield Static(id="tiebreak")
            yield Hanging(id="warnings", classes="hide-empty")
            yield Static(Content.styled("Breakdown", "bold"), classes="section")
            yield Grid(id="breakdown")
            yield Static(Content.styled("The game in pictures", "bold"), classes="section", id="charts-head")
            yield ScoreCharts(id="charts")
        yield KeyBar()

    @property
    def session(self) -> Session:
        """The session as saved now."""
        return self.doc.session

    async def on_mount(self) -> None:
        """Render the standings."""
        self.show_title()
        await self.render_all()
        self.query_one("#rounds", RoundList).focus(scroll_visible=False)

    async def on_screen_resume(self) -> None:
        """Back from a walkthrough: the session may have changed."""
        if self.is_mounted:
            self.show_title()
            self._keep = False
            await self.render_all()

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo or reload: render again (the game's rules may differ too)."""
        self.game = games.get(new.game)
        self.run_worker(self.render_all(), exclusive=True, group="render")

    async def render_all(self) -> None:
        """Every part of the screen, from the core's score sheet."""
        session = self.session
        problems = self.doc.problems()
        sheet = self.sheet = self.doc.sheet()
        scheduled = self.game.scheduled_rounds(session)
        played = sum(1 for r in session.rounds if r.players)  # a round nobody has scored yet is not played
        if walk.finished(self.game, session, sheet):
            head = Content.from_markup("[b $text-success]Finished — $r[/]", r=walk.result_text(sheet))
        elif not played:
            head = Content.styled("Not started", "bold")
        else:
            state = walk.state_text(self.game, session, sheet)
            head = Content.assemble((state[:1].upper() + state[1:], "bold"))
        self.query_one("#result", Static).update(
            lines([head, Content.from_markup("[dim]$game · $n · $players[/]", game=self.game.name,
                                             n=rounds_text(scheduled, played),
                                             players=", ".join(session.players))]))
        notes = self.query_one("#notes", Static)
        notes.update(Content(inert(session.notes, newlines=True)) if session.notes else Content(""))
        notes.display = bool(session.notes)
        following = self.next_text(sheet)
        self.states = [walk.round_state(self.game, session, sheet, n) for n in range(1, len(sheet.rounds) + 1)]
        self.query_one("#next", Static).update(
            Content.assemble("Next: ", following, ("  — press Enter", "dim")) if following is not None else
            Content.styled("The game is over. ↑↓ picks a round, Enter edits it · r renames a player · "
                           "t title and notes · Esc sessions", "dim"))
        self.show_rounds(sheet, following)
        self.show_table()
        tiebreak = self.query_one("#tiebreak", Static)
        ties = tie_lines(sheet)
        tiebreak.update(Content("\n".join(inert(t) for t in ties)))
        tiebreak.display = bool(ties)
        self.query_one("#warnings", Hanging).set(
            problem_line(p) for p in walk.reached(self.game, session, len(session.rounds), problems))
        grid = self.query_one("#breakdown", Grid)
        await grid.remove_children()
        await grid.mount_all([Hanging(self.breakdown(sheet, p), classes="player-card") for p in session.players])
        self.query_one("#charts", ScoreCharts).show(sheet)
        board = self.game.board_name(session.rules)  # the charts name the board
        self.query_one("#charts-head", Static).update(Content.styled(
            f"The game in pictures · {self.game.name} · {board}" if board else "The game in pictures", "bold"))
        self.refresh_bindings()

    def next_text(self, sheet: Sheet) -> Content | None:
        """What the table does next, `score round 2 (first player: Bo)` (None once the game is over)."""
        where = walk.resume(self.game, self.session, sheet)
        if sheet.complete and where is None:
            return None
        if where is not None and self.session.rounds:
            number, index = where
            step = self.game.steps(self.session)[index]
            return Content.from_markup("[b]finish round $n[/b] from $step", n=str(number), step=step.title)
        following = sheet.next or f"score round {len(self.session.rounds) + 1}"
        return Content.from_markup("[b]$next[/b]", next=following)

    def round_text(self, sheet: Sheet, number: int) -> Content:
        """`Round 2 · complete · Ana 12 · Bo 9` and how to edit it."""
        rnd = sheet.rounds[number - 1]
        scheduled = self.game.scheduled_rounds(self.session)
        extra = " (extra)" if number > scheduled else ""
        done, said = self.states[number - 1]
        state = (said, "$text-success" if done else "$text-warning")
        scores = " · ".join(f"{p} {walk.points(rnd.points[p])}" for p in self.session.players)
        return Content.assemble(("✎ ", "$text-accent"), (f"Round {number}{extra}", "bold"), " · ", state,
                                " · ", scores, ("  — Enter edits", "dim"))

    def show_rounds(self, sheet: Sheet, following: Content | None) -> None:
        """The list: the next thing to do (highlighted), then every round."""
        listing = self.query_one("#rounds", RoundList)
        before = self.choices[listing.highlighted] if listing.highlighted is not None and self.choices else None
        options: list[Option] = []
        self.choices = []
        if following is not None:
            options.append(Option(Content.assemble(("▶ ", "$text-accent"), ("Continue", "bold"),
                                                   ("  — the next thing to do, above", "dim")), id="continue"))
            self.choices.append(0)
        for number in range(1, len(sheet.rounds) + 1):
            options.append(Option(self.round_text(sheet, number), id=f"round-{number}"))
            self.choices.append(number)
        room = self.app.size.width - 8  # the page's margins, the scroll bar, the list's border and padding
        if room + 8 < PHONE:  # a finger's height: a blank line under a choice that would be one line high
            options = [Option(Content.assemble(prompt, "\n"), id=option.id)
                       if isinstance(prompt := option.prompt, Content) and prompt.cell_length <= room else option
                       for option in options]
        listing.set_options(options)
        if before in self.choices and self._keep:
            listing.highlighted = self.choices.index(before)
        elif options:
            listing.highlighted = 0 if following is not None else len(options) - 1
        self._keep = True

    @on(OptionList.OptionHighlighted, "#rounds")
    def highlighted(self) -> None:
        """The footer follows the line highlighted (Enter continues, or edits a round)."""
        self.refresh_bindings()

    @on(OptionList.OptionSelected, "#rounds")
    def chosen(self, event: OptionList.OptionSelected) -> None:
        """Enter on the list: continue, or edit the highlighted round."""
        event.stop()
        number = self.choices[event.option_index]
        if number == 0:
            self.action_next()
        else:
            self.action_edit_round(number)

    def show_table(self) -> None:
        """The table of points; on a phone in narrower columns, and without the rounds' columns when even those do
        not fit (the list of rounds above it has each round's points)."""
        sheet = self.sheet
        if sheet is None:
            return
        rounds = list(range(1, len(sheet.rounds) + 1))
        ranked = [p for place in sheet.ranking for p in place.players]
        room = self.app.size.width - (4 if self.app.size.width < 60 else 8)  # margins, scroll bar, border, padding
        def wide(table: Content) -> int:
            return max(cell_len(line) for line in table.plain.splitlines())

        table = scores_table(sheet, ranked, rounds)
        if wide(table) > room:
            table = scores_table(sheet, ranked, rounds, column=5)
        if wide(table) > room:
            table = scores_table(sheet, ranked, [], column=5)
        self.query_one("#table", Static).update(table)

    def on_resize(self) -> None:
        """The table of points drawn for the new width."""
        self.show_table()

    def breakdown(self, sheet: Sheet, player: str) -> list[Line]:
        """A player's items, round by round, with the total (a round not done marked so)."""
        parts = [text_line(Content.assemble((player, "bold"), "  ",
                                            (walk.points(sheet.totals[player]), "bold $text-accent")))]
        for rnd in sheet.rounds:
            parts.append(text_line(Content.styled(f"Round {rnd.number}: {walk.points(rnd.points[player])}"
                                                  + ("" if self.states[rnd.number - 1][0]
                                                     else " (not finished)"), "underline")))
            mine = [i for i in rnd.items if i.player == player and i.points]  # what scored (0s: in the step)
            parts.extend(item_line(i) for i in mine)
            if not mine:
                parts.append(text_line(Content.styled("   nothing scored", "dim")))
        return parts

    def help_keys(self) -> list[tuple[str, str]]:
        """The keys of the standings as they stand: continue while the game is not over, edit the rounds there are."""
        rows: list[tuple[str, str]] = []
        rounds = len(self.session.rounds)
        going = self.sheet is not None and not walk.finished(self.game, self.session, self.sheet)
        if going:
            rows.append(("↑ / ↓, Enter", "the first line continues the game (the next thing to do); on a round's "
                                         "line, Enter edits that round from its first step"))
            rows.append(("n", "continue the game"))
        elif rounds:
            rows.append(("↑ / ↓, Enter", "pick a round; Enter edits it from its first step"))
        if rounds:
            rows.append(("e", "edit the last round"))
            last = min(rounds, 9)
            keys, which = ("1", "1") if last == 1 else (f"1 … {last}", f"1 … {last}")
            rows.append((keys, f"edit round {which} from its first step"))
        return rows

    # -- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Continue only while the game is not over; edit only rounds that exist."""
        if action == "next":
            return self.sheet is None or not walk.finished(self.game, self.session, self.sheet)
        if action == "edit_round":
            number = parameters[0] if parameters else len(self.session.rounds)
            return isinstance(number, int) and 1 <= number <= len(self.session.rounds)
        if action == "seating":
            return not self.session.scored
        return True

    @work(group="save")
    async def action_next(self) -> None:
        """Resume the round in progress, or start the next one (scheduled or extra)."""
        sheet = self.sheet
        if sheet is None:
            return
        where = walk.resume(self.game, self.session, sheet)
        if where is not None:
            self.app.walkthrough(*where)
            return
        if sheet.complete:
            return
        number = len(self.session.rounds) + 1
        if await self.app.save(self.session.with_round_added(), ("round", number)):
            self.app.walkthrough(number, 0)

    def action_edit_round(self, number: int | None = None) -> None:
        """Walk a round again from its first step (the last round by default)."""
        number = number or len(self.session.rounds)
        if 1 <= number <= len(self.session.rounds):
            self.app.walkthrough(number, 0)

    @work(group="save")
    async def correct(self, session: Session, what: str) -> None:
        """Save a correction of the session (one atomic save, one undo step) and show it."""
        old = self.session
        if session == old:
            return
        self.doc.boundary()
        if await self.app.save(session):
            self.notify(what, timeout=3, markup=False)
            self.app.replaced(old, self.session)

    def action_rename(self, player: str | None = None) -> None:
        """Rename a player everywhere in the file."""
        from scorekeeper.tui.screens.dialogs import RenameScreen

        def answer(result: tuple[str, str] | None) -> None:
            if result is None:
                return
            old, new = result
            try:
                renamed = self.session.with_player_renamed(old, new)
            except ValueError as exc:
                self.notify(str(exc), severity="error", markup=False)
                return
            self.correct(renamed, f"Renamed {old} to {new}")

        self.app.push_screen(RenameScreen(self.session, self.game, player), answer)

    def action_seating(self) -> None:
        """Change the seating order (only while no round is scored)."""
        from scorekeeper.tui.screens.dialogs import SeatingScreen

        if self.session.scored:
            self.notify("The seating cannot change once a round is scored.", severity="warning")
            return

        def answer(order: tuple[str, ...] | None) -> None:
            if order is None:
                return
            try:
                reseated = self.session.with_seating(order)
            except ValueError as exc:
                self.notify(str(exc), severity="error", markup=False)
                return
            self.correct(reseated, "Seating: " + ", ".join(order))

        self.app.push_screen(SeatingScreen(self.session), answer)

    def action_details(self) -> None:
        """Edit the session's title and notes."""
        from scorekeeper.tui.screens.dialogs import DetailsScreen

        def answer(result: tuple[str | None, str | None] | None) -> None:
            if result is None:
                return
            title, notes = result
            self.correct(replace(self.session, title=title, notes=notes), "Title and notes saved")

        self.app.push_screen(DetailsScreen(self.session), answer)

    def action_charts(self) -> None:
        """Scroll to the charts: running totals by round, points by category, their heading at the top (the charts
        take at least the screen's height, so short charts at the end of the page can still come to the top)."""
        room = self.query_one("#standings", VerticalScroll).scrollable_content_region.height
        self.query_one("#charts", ScoreCharts).styles.min_height = max(room - 1, 0)
        head = self.query_one("#charts-head")
        self.call_after_refresh(lambda: head.scroll_visible(top=True, animate=False))

    def action_export(self) -> None:
        """Export the session: CSV, Markdown, JSON files, or a BG Stats play as a QR code."""
        from scorekeeper.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.doc.path, self.doc.sheet()))

    def action_home(self) -> None:
        """The sessions of the folder."""
        self.app.go_home()

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands: edit any round, rename any player."""
        for n in range(1, len(self.session.rounds) + 1):
            yield f"Edit round {n}", f"Walk round {n} again from its first step", \
                lambda n=n: self.action_edit_round(n)
        for p in self.session.players:
            yield f"Rename: {p}", "Rename this player everywhere in the file", lambda p=p: self.action_rename(p)
