"""History: the finished sessions of the folder by date, filtered by game, player and period; Enter opens one."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterable, Iterator
from datetime import date
from fractions import Fraction
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import OptionList, Select, Static
from textual.widgets.option_list import Option

from scorekeeper import games
from scorekeeper.games.base import names
from scorekeeper.index import Index
from scorekeeper.index.summary import Summary
from scorekeeper.model.text import inert, name_key
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.walk import points

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase

CSS = Path(__file__).parent.parent / "after.tcss"

PAGE = 50
"""Sessions listed at a time: more are added as the cursor nears the end (10,000 sessions stay quick)."""

PERIODS = (("this month", "month"), ("this year", "year"))
"""The periods offered besides all time."""


BOARD_MARK = "@"
"""Between a game id and a board in the game picker's values: `<game id>@<board>`."""


def game_choices() -> list[tuple[str, str]]:
    """The game picker's choices: every game, and after a game with boards each of them."""
    out = []
    for gid, g in games.GAMES.items():
        out.append((g.name, gid))
        out += [(f"{g.name}: {label}", f"{gid}{BOARD_MARK}{board}") for board, label in g.boards.items()]
    return out


def game_and_board(value: str | None) -> tuple[str | None, str | None]:
    """A game picker's value as (game id, board or None)."""
    if value is None or BOARD_MARK not in value:
        return value, None
    gid, board = value.split(BOARD_MARK, 1)
    return gid, board


def since(period: str | None, today: date) -> date | None:
    """The first day of the period that holds `today` (None: all time)."""
    if period == "month":
        return today.replace(day=1)
    if period == "year":
        return today.replace(month=1, day=1)
    return None


def players_of(summaries: Iterable[Summary]) -> list[str]:
    """Every player of the sessions once (names match ignoring case; the first spelling seen is kept), A to Z."""
    seen: dict[str, str] = {}
    for s in summaries:
        for p in s.players:
            seen.setdefault(name_key(p), p)
    return sorted(seen.values(), key=str.casefold)


def matches(summary: Summary, game: str | None, player: str | None, first_day: date | None) -> bool:
    """Whether a session passes the filters (a game, or a game and board: see `game_and_board`; player ignoring
    case, the period by the day it was played)."""
    game, board = game_and_board(game)
    if game is not None and summary.game != game:
        return False
    if board is not None and summary.board != board:
        return False
    if player is not None and name_key(player) not in (name_key(p) for p in summary.players):
        return False
    return first_day is None or summary.when[:10] >= first_day.isoformat()


def when_text(summary: Summary) -> str:
    """`2026-11-27 19:30` (or the day alone)."""
    return summary.when[:16].replace("T", " ")


def scores_text(summary: Summary) -> Content:
    """`Ana 60½ · Bo 60½ · Cy 31`, best first, the winners in bold."""
    rows = summary.detail.players
    winners = set(summary.winners)
    ranked = sorted(rows, key=lambda r: r.place)  # stable: seating order within a place
    parts = [Content.assemble((inert(r.name), "bold" if r.name in winners else ""), " ",
                              points(Fraction(r.total))) for r in ranked]
    return Content(" · ").join(parts)


def result_text(summary: Summary) -> str:
    """`Ana won`, `Ana and Bo shared the victory`."""
    winners = [inert(w) for w in summary.winners]
    if len(winners) == 1:
        return f"{winners[0]} won"
    return f"{names(winners)} shared the victory"


def prompt(summary: Summary) -> Content:
    """Two lines: date, game and title; the scores and who won."""
    game = games.GAMES.get(summary.game or "")
    title: list[str | tuple[str, str]] = ["  ", (inert(summary.title), "bold")] if summary.title else []
    ties: list[str] = []  # each tied place's sentence once (SPEC 2.1 `why`)
    for row in sorted(summary.detail.players, key=lambda r: r.place):
        why = inert(row.why) if row.why else ""
        if why and not any(t.startswith(why) for t in ties):  # the tie for first's sentence may add the rule
            ties = [t for t in ties if not why.startswith(t)] + [why]
    name = game.name if game else inert(summary.game)
    if summary.board_name:
        name = f"{name} · {summary.board_name}"
    return Content.assemble(
        (when_text(summary), "dim"), "  ", (name, "bold $text-accent"), *title,
        "\n  ", scores_text(summary), "  ", ("— " + result_text(summary), "italic"),
        *((f"\n  {why}", "dim") for why in ties))


class Filters(Horizontal):
    """Game, player and period pickers (shared by history and statistics)."""

    class Changed(Message):
        """A filter changed."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id, classes="filters")
        self.offered: list[str] = []
        """The players offered by the player picker."""

    def compose(self) -> ComposeResult:
        yield Select[str](game_choices(), prompt="All games", id="game", compact=True)
        yield Select[str]([], prompt="All players", id="player", compact=True)
        yield Select[str](PERIODS, prompt="All time", id="period", compact=True)

    def offer_players(self, names: list[str]) -> None:
        """The players to pick from (names shown literally); the one picked stays when still there."""
        picker: Select[str] = self.query_one("#player", Select)
        self.offered = list(names)
        keep = picker.value
        # rich Text, not Content: the picker's type-to-search reads only Text or str prompts; Text(...) is literal.
        picker.set_options((Text(inert(n)), n) for n in names)
        if isinstance(keep, str) and keep in names:
            picker.value = keep

    def value(self, key: str) -> str | None:
        """The picked value of a filter, None for all."""
        picked = self.query_one(f"#{key}", Select).value
        return picked if isinstance(picked, str) else None

    def set_values(self, game: str | None, player: str | None, period: str | None) -> None:
        """Pick these values (None: all)."""
        for key, value in (("game", game), ("player", player), ("period", period)):
            picker = self.query_one(f"#{key}", Select)
            if value is None:
                picker.clear()
            else:
                picker.value = value

    def open(self, key: str) -> None:
        """Focus a picker and open its list."""
        picker = self.query_one(f"#{key}", Select)
        picker.focus()
        picker.expanded = True

    @on(Select.Changed)
    def changed(self, event: Select.Changed) -> None:
        """Tell the screen."""
        event.stop()
        self.post_message(self.Changed())


def reading_line(reading: tuple[int, int] | None) -> Content:
    """While the folder's index is brought up to date: `Reading the sessions ████░░ 1,200 of 10,000`."""
    if reading is None or not reading[1]:
        return Content.styled("Reading the sessions index…", "$text-muted")
    done, total = reading
    cells = 30
    filled = round(done / total * cells)
    return Content.assemble(("Reading the sessions ", "bold"), ("█" * filled, "$accent"),
                            ("░" * (cells - filled), "dim"), f"  {done:,} of {total:,}")


class IndexedScreen(Screen[None]):
    """A screen over the folder's finished sessions from the sessions index, filtered; refreshed in the background."""

    CSS_PATH = CSS
    main = "#plays"
    """The widget the keys go to once a filter is picked (g, p and t reach the pickers from there)."""
    finished_only: bool | None = True
    """Which sessions to read from the index: finished ones (None: all, so unfinished ones can be counted)."""
    partial_ok = True
    """Show what the index holds before it is brought up to date, when it holds any (False: only once it is up
    to date; meanwhile, how far the reading is: figures counted from a cold or half-built index would be wrong)."""

    app: AppBase

    def __init__(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        super().__init__()
        self.picked = (game, player, period)
        self.summaries: list[Summary] = []
        self.index: Index | None = None
        self.refreshing = False
        self.gone = False
        self.loaded = False
        self.reading: tuple[int, int] | None = None
        """How far the index's refresh has read (done, total), while it reads files."""

    def start(self) -> None:
        """Read the index in the background: what it holds at once, then what changed (called by on_mount)."""
        with self.prevent(Select.Changed):
            self.query_one(Filters).set_values(self.picked[0], None, self.picked[2])
        self.show()
        self.load_index()

    def on_unmount(self) -> None:
        """Close the index (a refresh still running stops at its next chunk and closes it)."""
        self.gone = True
        if self.index is not None and not self.refreshing:
            self.index.close()

    def on_screen_resume(self) -> None:
        """Back from a session: it may have changed."""
        if self.is_mounted and self.loaded:
            self.load_index()

    @work(thread=True, exclusive=True, group="index", exit_on_error=False)
    def load_index(self) -> None:
        """Show the sessions the index holds, then read the files added or changed since it last looked."""
        if self.gone:
            return
        self.refreshing = True
        index = self.index
        try:
            if index is None:
                index = self.index = Index(self.app.folder)
            waiting = not self.loaded
            if waiting and self.partial_ok:
                first = index.summaries(complete=self.finished_only)
                if first and not self.gone:  # an empty index: most likely never read yet, so wait for it
                    self.app.call_from_thread(self.replace, first)
                    waiting = False

            def progress(done: int, total: int) -> None:
                if not self.gone:
                    self.app.call_from_thread(self.read_so_far, done, total)

            changes = index.refresh(progress=progress, stop=lambda: self.gone)
            summaries = index.summaries(complete=self.finished_only) if (changes or waiting) and not self.gone \
                else None
        except (sqlite3.Error, OSError) as exc:
            if not self.gone:
                self.app.call_from_thread(self.notify, f"The sessions index could not be read: {exc}",
                                          severity="warning", markup=False)
            return
        finally:
            self.refreshing = False
            if self.gone and index is not None:
                index.close()
        if summaries is not None and not self.gone:
            self.app.call_from_thread(self.replace, summaries)

    def read_so_far(self, done: int, total: int) -> None:
        """The refresh read `done` of `total` files: shown (`show`) while nothing else is."""
        self.reading = (done, total) if done < total else None
        if not self.loaded and self.is_mounted:
            self.show()

    def replace(self, summaries: list[Summary]) -> None:
        """Show other summaries (the index's first, then after a refresh); the player asked for is picked."""
        if not self.is_mounted:
            return
        self.summaries = summaries
        self.reading = None
        filters = self.query_one(Filters)
        offered = players_of(summaries)
        with self.prevent(Select.Changed):
            filters.offer_players(offered)
            wanted = name_key(self.picked[1]) if self.picked[1] is not None and not self.loaded else None
            for name in offered:
                if name_key(name) == wanted:
                    filters.set_values(self.picked[0], name, self.picked[2])
        self.loaded = True
        self.show()

    @on(Filters.Changed)
    def filters_changed(self) -> None:
        """Show what passes the new filters, and go back to them."""
        self.show()
        self.query_one(self.main).focus()

    def filter_values(self) -> tuple[str | None, str | None, str | None]:
        """The game, player and period picked."""
        filters = self.query_one(Filters)
        return filters.value("game"), filters.value("player"), filters.value("period")

    def shown_summaries(self) -> list[Summary]:
        """The finished sessions that pass the filters, newest first."""
        game, player, period = self.filter_values()
        first_day = since(period, self.app.now().date())
        return [s for s in self.summaries if matches(s, game, player, first_day)]

    def show(self) -> None:
        """Draw what passes the filters."""
        raise NotImplementedError

    def action_open_filter(self, key: str) -> None:
        """Open the game, player or period picker."""
        self.query_one(Filters).open(key)

    def action_back(self) -> None:
        """Back to where this screen was opened from."""
        self.app.pop_screen()


class HistoryScreen(IndexedScreen):
    """The finished sessions by date: game, players, scores and winner."""

    BINDINGS = [
        Binding("enter", "open", "Open", id="open", show=False),
        Binding("g", "open_filter('game')", "Game", id="filter-game"),
        Binding("p", "open_filter('player')", "Player", id="filter-player"),
        Binding("t", "open_filter('period')", "Period", id="filter-period"),
        Binding("x", "export", "Export", id="export"),
        Binding("s", "statistics", "Statistics", id="statistics"),
        Binding("escape", "back", "Back", id="back"),
    ]

    def __init__(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        super().__init__(game, player, period)
        self.shown: list[Summary] = []
        self.listed = 0

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Filters()
        yield OptionList(id="plays")
        yield Static(id="history-count")
        yield KeyBar()

    def on_mount(self) -> None:
        """Title, then the sessions."""
        self.title = "History"
        self.sub_title = str(self.app.folder)
        self.start()
        self.query_one(self.main).focus()

    def show(self) -> None:
        """The sessions that pass the filters (a page of them), the highlighted one kept when it still passes."""
        listing = self.query_one("#plays", OptionList)
        current = self.current()
        self.shown = self.shown_summaries()
        files = [s.file for s in self.shown]
        keep = files.index(current.file) if current and current.file in files else 0
        self.listed = 0
        listing.clear_options()
        self.more(until=keep)
        if files:
            listing.highlighted = keep
        total = len(self.summaries)
        count = self.query_one("#history-count", Static)
        if not self.loaded:
            count.update(reading_line(self.reading))
        elif not total:
            count.update(Content("No finished session yet: a game shows here once its winner is decided."))
        elif len(self.shown) == total:
            count.update(Content(f"{total} finished session{'s' if total != 1 else ''}"))
        else:
            count.update(Content(f"{len(self.shown)} of {total} finished sessions pass the filters"))
        self.refresh_bindings()

    def more(self, until: int = 0) -> None:
        """List the next page of sessions (and as many as it takes to reach index `until`)."""
        end = min(len(self.shown), max(self.listed + PAGE, until + 1))
        if end <= self.listed:
            return
        options: list[Option | None] = []
        for s in self.shown[self.listed:end]:
            if self.listed or options:
                options.append(None)
            options.append(Option(prompt(s), id=s.file))
        self.listed = end
        self.query_one("#plays", OptionList).add_options(options)

    @on(OptionList.OptionHighlighted, "#plays")
    def near_the_end(self, event: OptionList.OptionHighlighted) -> None:
        """The cursor nears the last session listed: list the next page."""
        if event.option_index >= self.listed - 10:
            self.more()

    def current(self) -> Summary | None:
        """The highlighted session."""
        index = self.query_one("#plays", OptionList).highlighted
        return self.shown[index] if index is not None and 0 <= index < len(self.shown) else None

    @on(OptionList.OptionSelected, "#plays")
    def selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click opens the session's standings."""
        event.stop()
        self.open(self.shown[event.option_index])

    def open(self, summary: Summary) -> None:
        """The session's standings (or its problems, if it cannot be read now)."""
        self.app.open_file(summary.path)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Open and export only with a session highlighted."""
        if action in ("open", "export"):
            return self.current() is not None
        return True

    def action_open(self) -> None:
        """Open the highlighted session."""
        summary = self.current()
        if summary is not None:
            self.open(summary)

    def action_export(self) -> None:
        """Export the highlighted session."""
        from scorekeeper.tui.screens.export import ExportScreen, scored

        summary = self.current()
        if summary is None:
            return
        sheet = scored(summary.path)
        if isinstance(sheet, str):
            self.notify(sheet, title="Cannot export", severity="error", markup=False)
            return
        self.app.push_screen(ExportScreen(summary.path, sheet))

    def action_statistics(self) -> None:
        """The statistics of the sessions that pass the filters."""
        self.app.show_statistics(*self.filter_values())

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands: open any session shown."""
        for s in self.shown:
            game = games.GAMES.get(s.game or "")
            name = inert(s.title) if s.title else (game.name if game else s.file)
            yield f"Open: {name} ({when_text(s)})", result_text(s), lambda s=s: self.open(s)
