"""The standings: rounds and totals, the ranking and tie-break, each player's breakdown, what comes next."""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Static

from scorekeeper import games, walk
from scorekeeper.games.base import Sheet
from scorekeeper.session import Session
from scorekeeper.tui.render import item_line, lines, problem_line, scores_table, text_line
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.tui.widgets.charts import ScoreCharts
from scorekeeper.tui.widgets.hanging import Hanging, Line

if TYPE_CHECKING:
    from scorekeeper.document import Document
    from scorekeeper.tui.base import AppBase


def rounds_text(scheduled: int, played: int) -> str:
    """`3 rounds, 1 played`, `1 round, 2 played (1 extra)`."""
    text = f"{scheduled} round{'s' if scheduled != 1 else ''}"
    if played:
        text += f", {played} played"
    if played > scheduled:
        text += f" ({played - scheduled} extra)"
    return text


class StandingsScreen(Screen):
    """Where the session stands; Enter does the next thing (resume, the next round, an extra round)."""

    BINDINGS = [
        Binding("enter", "next", "Continue", id="continue"),
        Binding("e", "edit_round", "Edit last round", id="edit"),
        *(Binding(str(n), f"edit_round({n})", f"Edit round {n}", show=False) for n in range(1, 10)),
        Binding("c", "charts", "Charts", id="charts"),
        Binding("x", "export", "Export", id="export"),
        Binding("escape", "home", "Sessions", id="home"),
    ]

    app: AppBase

    def __init__(self, doc: Document) -> None:
        super().__init__()
        self.doc = doc
        self.game = games.get(doc.session.game)
        self.sheet: Sheet | None = None

    def compose(self) -> ComposeResult:
        yield TitleBar()
        with VerticalScroll(id="standings"):
            yield Static(id="result")
            yield Static(id="next")
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
        self.title = self.session.title or self.game.name
        self.sub_title = self.game.name if self.session.title else None
        await self.render_all()

    async def on_screen_resume(self) -> None:
        """Back from a walkthrough: the session may have changed."""
        if self.is_mounted:
            await self.render_all()

    def session_replaced(self, old: Session, new: Session) -> None:
        """Undo, redo or reload: render again."""
        self.run_worker(self.render_all(), exclusive=True, group="render")

    async def render_all(self) -> None:
        """Every part of the screen, from the core's score sheet."""
        session = self.session
        problems = self.doc.problems()
        sheet = self.sheet = self.doc.sheet()
        scheduled = self.game.scheduled_rounds(session)
        played = len(session.rounds)
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
        self.query_one("#next", Static).update(self.next_text(sheet))
        rounds = list(range(1, len(sheet.rounds) + 1))
        ranked = [p for place in sheet.ranking for p in place.players]
        self.query_one("#table", Static).update(scores_table(sheet, ranked, rounds))
        tiebreak = self.query_one("#tiebreak", Static)
        tiebreak.update(Content(sheet.tiebreak or ""))
        tiebreak.display = bool(sheet.tiebreak)
        self.query_one("#warnings", Hanging).set(
            problem_line(p) for p in walk.reached(self.game, session, len(session.rounds), problems))
        grid = self.query_one("#breakdown", Grid)
        await grid.remove_children()
        walking = walk.resume(self.game, session, sheet)
        await grid.mount_all([Hanging(self.breakdown(sheet, p, walking[0] if walking else None), classes="player-card")
                              for p in session.players])
        self.query_one("#charts", ScoreCharts).show(sheet)
        self.refresh_bindings()

    def next_text(self, sheet: Sheet) -> Content:
        """What the table does now, and the key for it."""
        where = walk.resume(self.game, self.session, sheet)
        if sheet.complete and where is None:
            return Content.styled("The game is over. e: edit a round · Esc: sessions", "dim")
        if where is not None and self.session.rounds:
            number, index = where
            step = self.game.steps(self.session)[index]
            return Content.from_markup("Next: [b]finish round $n[/b] from $step — press [b]Enter[/b]",
                                       n=str(number), step=step.title)
        return Content.from_markup("Next: [b]$next[/b] — press [b]Enter[/b]",
                                   next=sheet.next or f"score round {len(self.session.rounds) + 1}")

    def breakdown(self, sheet: Sheet, player: str, walking: int | None = None) -> list[Line]:
        """A player's items, round by round, with the total (the round being walked marked so)."""
        parts = [text_line(Content.assemble((player, "bold"), "  ",
                                            (walk.points(sheet.totals[player]), "bold $text-accent")))]
        for rnd in sheet.rounds:
            parts.append(text_line(Content.styled(f"Round {rnd.number}: {walk.points(rnd.points[player])}"
                                                  + ("" if rnd.complete and rnd.number != walking
                                                     else " (not finished)"), "underline")))
            mine = [i for i in rnd.items if i.player == player]
            parts.extend(item_line(i) for i in mine)
            if not mine:
                parts.append(text_line(Content.styled("   nothing scored", "dim")))
        return parts

    # -- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Continue only while the game is not over; edit only rounds that exist."""
        if action == "next":
            return self.sheet is None or not walk.finished(self.game, self.session, self.sheet)
        if action == "edit_round":
            number = parameters[0] if parameters else len(self.session.rounds)
            return isinstance(number, int) and 1 <= number <= len(self.session.rounds)
        return True

    def action_next(self) -> None:
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
        self.app.save(self.session.with_round_added(), ("round", number),
                      lambda ok: self.app.walkthrough(number, 0) if ok else None)

    def action_edit_round(self, number: int | None = None) -> None:
        """Walk a round again from its first step (the last round by default)."""
        number = number or len(self.session.rounds)
        if 1 <= number <= len(self.session.rounds):
            self.app.walkthrough(number, 0)

    def action_charts(self) -> None:
        """Scroll to the charts: running totals by round, points by category."""
        self.query_one("#charts-head").scroll_visible(top=True)

    def action_export(self) -> None:
        """Export the session: CSV, Markdown, JSON files, or a BG Stats play as a QR code."""
        from scorekeeper.tui.screens.export import ExportScreen

        self.app.push_screen(ExportScreen(self.doc.path, self.doc.sheet()))

    def action_home(self) -> None:
        """The sessions of the folder."""
        self.app.go_home()

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands: edit any round."""
        for n in range(1, len(self.session.rounds) + 1):
            yield f"Edit round {n}", f"Walk round {n} again from its first step", \
                lambda n=n: self.action_edit_round(n)
