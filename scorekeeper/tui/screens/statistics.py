"""Statistics: the output of the core's one statistics function (as `scorekeeper stats`), filtered like history."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date
from fractions import Fraction

from textual import on, work
from textual.actions import SkipAction
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.geometry import Region
from textual.message import Message
from textual.reactive import reactive
from textual.widget import AwaitMount
from textual.widgets import Static
from textual.worker import get_current_worker

from scorekeeper.after.report import shown_boards
from scorekeeper.after.stats import MIN_PLAYS, statistics
from scorekeeper.after.stats_model import Finish, GameStats, HeadToHead, PlayerPage, PlayerRow, Statistics
from scorekeeper.index.summary import Summary
from scorekeeper.model.text import inert, ljust, name_key, rjust, width
from scorekeeper.tui.render import lines
from scorekeeper.tui.screens.history import Filters, IndexedScreen, game_and_board, reading_line, since
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar
from scorekeeper.walk import points

HEAD_TO_HEAD_ROWS = 40
"""More pairs than this (a club, not a table of friends) are shown per player, once one is picked."""

NAME_WIDTH = 16
"""Names longer than this are cut (with `…`) in the tables, so they fit in 80 columns, unless the cut would make
two players look the same (see `name_labels`)."""


def num(value: int | float | None) -> str:
    """A figure: `83`, `95½`, `83.25`; `–` for none."""
    if value is None:
        return "–"
    exact = Fraction(value).limit_denominator(1000)
    if (exact * 2).denominator == 1:
        return points(exact)
    return f"{value:.2f}"


def rate(value: float) -> str:
    """`67%`."""
    return f"{round(value * 100)}%"


def cut_name(name: str, room: int = NAME_WIDTH) -> str:
    """The name shown literally, cut to `room` columns with `…`."""
    text = inert(name)
    if width(text) <= room:
        return text
    out = ""
    for ch in text:
        if width(out + ch) > room - 1:
            break
        out += ch
    return out + "…"


def name_labels(names: Sequence[str], room: int = NAME_WIDTH) -> dict[str, str]:
    """Each name's label in a table: cut to `room` columns unless two names would then look the same, in which
    case those are shown whole (a label never stands for two players)."""
    whole: set[str] = set()
    while True:
        labels = {n: inert(n) if n in whole else cut_name(n, room) for n in names}
        seen: dict[str, list[str]] = {}
        for n, label in labels.items():
            seen.setdefault(label, []).append(n)
        clash = {n for group in seen.values() if len(group) > 1 for n in group} - whole
        if not clash:
            return labels
        whole |= clash


def aligned(head: Sequence[str], rows: Sequence[Sequence[str]], first: int) -> list[str]:
    """Aligned plain columns as lines (the head first): the first (a name) left, the figures right."""
    widths = [max([first, *(width(r[0]) for r in rows)])] + [
        max([width(h), *(width(r[i]) for r in rows)]) for i, h in enumerate(head) if i
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(ljust(c, widths[0]) if i == 0 else rjust(c, widths[i]) for i, c in enumerate(cells))

    return [line(head), *(line(r) for r in rows)]


def table(head: Sequence[str], rows: Sequence[Sequence[str]], first: int) -> Content:
    """Aligned plain columns: the first (a name) left, the figures right; the head in bold."""
    head_line, *body = aligned(head, rows, first)
    return lines([Content.styled(head_line, "bold"), *(Content(line) for line in body)])


@dataclass
class Rows:
    """A table with a row per player (head, then one line per player), drawn by a `PlayerTable` in which `Enter`
    on a row opens that player's page."""

    lines: list[str]
    players: list[str]
    """The player of each row below the head (full names, as the statistics give them)."""

    @property
    def plain(self) -> str:
        return "\n".join(self.lines)


def player_rows(players: Sequence[PlayerRow]) -> Rows:
    """Plays, wins, win rate, average, best, worst and longest winning streak per player."""
    head = ["Player", "Plays", "Wins", "Win %", "Average", "Best", "Worst", "Streak"]
    label = name_labels([p.player for p in players])
    rows = [[label[p.player], str(p.plays), str(p.wins), rate(p.win_rate), num(p.average), num(p.best),
             num(p.worst), str(p.longest_streak)] for p in players]
    return Rows(aligned(head, rows, 6), [p.player for p in players])


def by_count_rows(players: Sequence[PlayerRow]) -> Content:
    """Each player's average score by the number of players at the table."""
    counts = sorted({int(n) for p in players for n in (p.average_by_player_count or {})})
    head = ["Average with", *(f"{n} players" for n in counts)]
    label = name_labels([p.player for p in players])
    rows = [[label[p.player], *(num((p.average_by_player_count or {}).get(str(n))) for n in counts)]
            for p in players]
    return table(head, rows, 12)


def finish_text(label: str, record: Finish | None) -> Content:
    """`Biggest winning margin: 25 — Ana over Bo, 2026-11-27`; a tie: `Closest finish: 0 — level on 52, …`."""
    from scorekeeper.after.report import finish_phrase

    if record is None:
        return Content("")
    return Content.assemble((f"{label}: ", "bold"), f"{finish_phrase(record, num)}, {record.date}")


def game_section(game: GameStats) -> list[Content | Rows]:
    """One game: its figures first (margins, tickets, its own), then its players' tables."""
    out: list[Content | Rows] = [
        Content.styled(f"{game.name} — {game.plays} play{'s' if game.plays != 1 else ''}", "bold $text-accent")]
    for label, record in (("Biggest winning margin", game.biggest_margin), ("Closest finish", game.closest_finish)):
        if record:
            out.append(finish_text(label, record))
    tied, shared = game.tie_broken_wins, game.shared_victories
    if tied or shared:
        apart = ([f"{tied} win{'s' * (tied != 1)} on a tie-break"] if tied else []) + (
            [f"{shared} shared victor{'ies' if shared != 1 else 'y'}"] if shared else [])
        out.append(Content.assemble(("Level on points at the top: ", "bold"), ", ".join(apart)))
    tickets = game.tickets
    if tickets:
        out.append(Content.assemble(("Tickets: ", "bold"), f"{tickets.completed} completed, "
                                    f"{tickets.failed} failed ({rate(tickets.completed_rate)} completed)"))
    out += board_figures(game)
    out += [Content(""), player_rows(game.players), Content(""), by_count_rows(game.players)]
    for board in shown_boards(game):
        plays = f"{board.plays} play{'s' if board.plays != 1 else ''}"
        out += [Content(""), Content.styled(f"{game.name} — {board.name} — {plays}", "bold $text-accent"),
                *board_figures(board), Content(""), player_rows(board.players)]
    return out


def board_figures(block: GameStats) -> list[Content]:
    """A game's or a board's highest score (who and when), then its own figures (`Game.figure_lines`)."""
    from scorekeeper.after.report import highest_phrase, own_figures

    out = []
    top = block.highest_score
    if top:
        out.append(Content.assemble(("Highest score: ", "bold"), f"{highest_phrase(top, num)}, {top.date}"))
    out += [Content.assemble((f"{label}: ", "bold"), text) for label, text in own_figures(block, num, rate)]
    return out


def head_to_head(rows: Sequence[HeadToHead]) -> Content:
    """How often each player finished above, below or level with each other."""
    head = ["Player", "Opponent", "Games", "Above", "Below", "Level"]
    label = name_labels(sorted({n for r in rows for n in (r.player, r.opponent)}))
    body = [[label[r.player], label[r.opponent], str(r.games), str(r.above), str(r.below), str(r.level)]
            for r in rows]
    return table(head, body, 6)


def overall(rows: Sequence[PlayerRow]) -> Rows:
    """Every game together: plays, wins, win rate, longest streak."""
    head = ["Player", "Plays", "Wins", "Win %", "Streak"]
    label = name_labels([p.player for p in rows])
    body = [[label[p.player], str(p.plays), str(p.wins), rate(p.win_rate), str(p.longest_streak)] for p in rows]
    return Rows(aligned(head, body, 6), [p.player for p in rows])


def player_page(page: PlayerPage) -> list[Content]:
    """The picked player across games: plays and wins by game and by player count, streaks, rival, nemesis."""
    wins = f"{page.wins} win{'s' * (page.wins != 1)}"
    start = page.start_player
    out = [Content.styled(f"{inert(page.player)} across games", "bold $text-accent"),
           Content(f"{page.plays} play{'s' * (page.plays != 1)}, {wins} ({rate(page.win_rate)}); winning "
                   f"streak {page.current_streak} now, {page.longest_streak} at the longest"),
           Content.assemble(("As start player ", "bold"), "(first in round 1): ",
                            f"{start.plays} play{'s' * (start.plays != 1)}, {start.wins} "
                            f"win{'s' * (start.wins != 1)} ({rate(start.win_rate)})"),
           table(["Game", "Plays", "Wins", "Win %", "As start"],
                 [[inert(g.name), str(g.plays), str(g.wins), rate(g.win_rate),
                   f"{g.start_player.wins} of {g.start_player.plays}"] for g in page.by_game], 4),
           Content.assemble(("By players at the table: ", "bold"), " · ".join(
               f"{n} players {c.wins}/{c.plays} ({rate(c.win_rate)})" for n, c in page.by_player_count.items()))]
    if page.rival:
        out.append(Content.assemble(("Rival ", "bold"), "(most often just ahead): ",
                                    f"{inert(page.rival.player)}, {page.rival.just_ahead}×"))
    if page.nemesis:
        nemesis = page.nemesis
        out.append(Content.assemble(("Nemesis ", "bold"), "(finished above most often): ",
                                    f"{inert(nemesis.player)}, {nemesis.above} of {nemesis.games}"))
    return out


def summary_line(result: Statistics) -> Content:
    """`12 finished sessions (1 unfinished and 0 unreadable not counted)`."""
    n = result.sessions
    text = f"{n} finished session{'s' if n != 1 else ''}"
    left = [f"{result.unfinished} unfinished"] if result.unfinished else []
    if result.invalid:
        left.append(f"{len(result.invalid)} unreadable")
    if left:
        text += f" ({' and '.join(left)} not counted)"
    links = result.links
    if links:
        text += f"; {len(links)} link{'s' * (len(links) != 1)} to a session counted once ({inert(', '.join(links))})"
    return Content(text)


def periods(result: Statistics) -> list[Content]:
    """Plays by year and by month."""
    if not result.plays_by_year or not result.sessions:
        return []
    return [Content.assemble(("Plays by year: ", "bold"),
                             " · ".join(f"{y} {n}" for y, n in result.plays_by_year.items())),
            Content.assemble(("Plays by month: ", "bold"),
                             " · ".join(f"{m} {n}" for m, n in result.plays_by_month.items()))]


def sections(result: Statistics) -> list[Content | Rows]:
    """The whole of the statistics as lines of content (and tables of players, see `Rows`)."""
    out: list[Content | Rows] = [summary_line(result)]
    if not result.games:
        out.append(Content.styled("Nothing to count: no finished session passes the filters.", "$text-muted"))
        return out
    for game in result.games:
        out.append(Content(""))
        out.extend(game_section(game))
    if len(result.games) > 1 and result.players:
        out += [Content(""), Content.styled("Every game together", "bold $text-accent"), overall(result.players)]
    if result.player_page:
        out.append(Content(""))
        out.extend(player_page(result.player_page))
    rows = result.head_to_head
    if rows:
        out += [Content(""), Content.styled("Head to head (places, every game)", "bold $text-accent")]
        if result.filters.player is None and len(rows) > HEAD_TO_HEAD_ROWS:
            out.append(Content.styled(f"{len(rows)} pairs of players: pick a player (p, or Enter on their row) to "
                                      "see how they fared against each of the others.", "$text-muted"))
        else:
            out.append(head_to_head(rows))
    when = periods(result)
    if when:
        out += [Content(""), *when]
    return out


class PlayerTable(Static, can_focus=True):
    """A table of players (see `Rows`): `↑`/`↓` move a cursor row (on to the next table at its ends), `Enter` opens
    the player's page."""

    BINDINGS = [
        Binding("enter", "pick", "Player page", id="player-page"),
        Binding("up", "move(-1)", "Up", show=False),
        Binding("down", "move(1)", "Down", show=False),
    ]

    cursor: reactive[int] = reactive(0)

    class Picked(Message):
        """Enter on a player's row."""

        def __init__(self, player: str) -> None:
            super().__init__()
            self.player = player

    def __init__(self, rows: Rows) -> None:
        super().__init__(classes="block")
        self.rows = rows

    def render(self) -> Content:
        """The head in bold, the cursor's row highlighted while the table has the focus."""
        head, *body = self.rows.lines
        return lines([Content.styled(head, "bold"), *(
            Content.styled(line, "bold $block-cursor-foreground on $block-cursor-background")
            if i == self.cursor and self.has_focus else Content(line) for i, line in enumerate(body))])

    def watch_cursor(self) -> None:
        self.show_cursor()

    def on_focus(self) -> None:
        self.show_cursor()

    def on_blur(self) -> None:
        self.refresh()

    def show_cursor(self) -> None:
        """Redraw, and scroll so the cursor's row is in view."""
        self.refresh()
        scroll = next((a for a in self.ancestors if isinstance(a, VerticalScroll)), None)
        if scroll is None or self.parent is None or not isinstance(self.parent, Vertical):
            return
        y = self.parent.virtual_region.y + self.virtual_region.y + 1 + self.cursor
        scroll.scroll_to_region(Region(0, y, 1, 1), animate=False, immediate=True)

    def action_move(self, step: int) -> None:
        """The next (or previous) row; past the table's end, the next table's first row (or the previous one's
        last); past the last table, the figures scroll."""
        target = self.cursor + step
        if 0 <= target < len(self.rows.players):
            self.cursor = target
            return
        tables = list(self.screen.query(PlayerTable))
        at = tables.index(self) + step
        if not 0 <= at < len(tables):
            raise SkipAction()
        other = tables[at]
        other.cursor = 0 if step > 0 else len(other.rows.players) - 1
        other.focus()

    def action_pick(self) -> None:
        """Tell the screen which player's page to open."""
        if self.rows.players:
            self.post_message(self.Picked(self.rows.players[self.cursor]))


class StatisticsScreen(IndexedScreen):
    """Per game and player: plays, wins, averages, streaks; head to head; margins; each game's own figures."""

    BINDINGS = [
        Binding("g", "open_filter('game')", "Game", id="filter-game"),
        Binding("p", "open_filter('player')", "Player", id="filter-player"),
        Binding("t", "open_filter('period')", "Period", id="filter-period"),
        Binding("h", "history", "History", id="history"),
        Binding("c", "write('csv')", "CSV", id="stats-csv"),
        Binding("j", "write('json')", "JSON", id="stats-json"),
        Binding("escape", "back", "Back", id="back"),
    ]

    finished_only = None
    partial_ok = False
    main = "#statistics"

    HELP_TEXTS = {
        "stats-csv": "write the statistics shown to exports/ as CSV (the CSV of `scorekeeper stats --csv`)",
        "stats-json": "write the statistics shown to exports/ as JSON (the JSON of `scorekeeper stats --json`)",
    }

    def help_keys(self) -> list[tuple[str, str]]:
        """The keys of the tables of players, then what the figures that need it mean."""
        return [
            ("Tab, ↑ / ↓", "into the tables of players and along their rows (past a table's end, into the next)"),
            ("Enter", "on a player's row: that player's page (as p and their name)"),
            ("", "Figures"),
            ("start player", "the first player of round 1; on a player's page, the plays as start player, the wins "
                             "among them (a shared victory is a win) and that win rate"),
            ("rival, nemesis", "the player most often placed just above; the opponent who finished above most often"),
            ("closest finish", "the smallest margin between first and second; a tie on points is the closest (0), "
                               "with who won it on the tie-break or who shared the victory"),
            ("by board", "a game with boards, per board (rule map, else edition, else none), with each board's "
                         "own figures"),
            ("rankings", f"players with fewer than {MIN_PLAYS} plays come after the others"),
        ]

    def __init__(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        super().__init__(game, player, period)
        self.result: Statistics | None = None
        self.to_page = False
        """Scroll to the player's page once it is drawn (a player was picked with Enter on their row)."""
        self.page_block: Static | None = None
        """The first block of the player's page, once drawn."""

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Filters()
        with VerticalScroll(id="statistics"):
            yield Vertical(id="figures")
        yield KeyBar()

    def on_mount(self) -> None:
        """Title, then the figures."""
        self.title = "Statistics"
        self.sub_title = str(self.app.folder)
        self.start()
        self.query_one(self.main).focus()

    def show(self) -> None:
        """The statistics of the sessions that pass the filters, counted by the core's function in the background."""
        if not self.loaded:
            self.draw(None, [reading_line(self.reading)])
            return
        game, player, period = self.filter_values()
        self.count(self.summaries, game, player, since(period, self.app.now().date()))

    @work(thread=True, exclusive=True, group="statistics", exit_on_error=False)
    def count(self, summaries: list[Summary], game: str | None, player: str | None, first_day: date | None) -> None:
        """Run the statistics (a second or so on 10,000 sessions) off the screen's thread; draw the newest asked."""
        game_id, board = game_and_board(game)
        result = statistics(summaries, game=game_id, player=player, since=first_day, board=board)
        figures = sections(result)
        if not get_current_worker().is_cancelled and not self.gone:
            self.app.call_from_thread(self.draw, result, figures)

    def draw(self, result: Statistics | None, figures: list[Content | Rows]) -> None:
        """Draw the figures, one Static per block (a Static splits its text into lines: the longer, the slower),
        a PlayerTable per table of players."""
        if not self.is_mounted:
            return
        self.result = result
        blocks: list[list[Content] | Rows] = [[]]
        for line in figures:
            last = blocks[-1]
            if isinstance(line, Rows):
                blocks += [line, []]
            elif not line.plain:
                if not isinstance(last, list) or last:
                    blocks.append([])
            elif isinstance(last, list):
                last.append(line)
            else:
                blocks.append([line])
        box = self.query_one("#figures", Vertical)
        box.remove_children()
        page = result.player_page if result is not None else None
        heading = f"{inert(page.player)} across games" if page else None
        widgets: list[Static] = []
        self.page_block = None
        for block in blocks:
            if isinstance(block, Rows):
                widgets.append(PlayerTable(block))
            elif block:
                widgets.append(Static(lines(block), classes="block"))
                if block[0].plain == heading:
                    self.page_block = widgets[-1]
        mounted = box.mount_all(widgets)
        if self.to_page and page:
            self.to_page = False
            self.call_later(self.page_once_mounted, mounted)

    async def page_once_mounted(self, mounted: AwaitMount) -> None:
        """Once the figures are mounted and laid out, scroll to the player's page."""
        await mounted
        self.call_after_refresh(self.scroll_to_page)

    def scroll_to_page(self) -> None:
        """The player's page at the top of the figures."""
        if self.page_block is not None and self.page_block.is_mounted:
            self.query_one("#statistics", VerticalScroll).scroll_to_widget(self.page_block, top=True, animate=False)

    @on(PlayerTable.Picked)
    def open_page(self, event: PlayerTable.Picked) -> None:
        """Enter on a player's row: the statistics of that player, with their page (as `p` and their name)."""
        event.stop()
        filters = self.query_one(Filters)
        offered = filters.offered
        wanted = name_key(event.player)
        name = next((n for n in offered if name_key(n) == wanted), None)
        if name is None:
            return
        self.to_page = True
        if filters.value("player") == name:
            self.call_after_refresh(self.scroll_to_page)
            self.to_page = False
        else:
            game, _player, period = self.filter_values()
            filters.set_values(game, name, period)

    def plain(self) -> str:
        """The figures as plain text (for tests and the clipboard)."""
        return "\n".join(line.plain.rstrip() for line in sections(self.result)) if self.result is not None else ""

    def action_write(self, to: str) -> None:
        """Write the statistics shown to exports/ as CSV or JSON (the writers of `stats --csv` and `--json`; the CSV
        with a byte-order mark, as every CSV file the program writes) and say where (or why not)."""
        from scorekeeper import store
        from scorekeeper.after.stats import to_csv, to_json

        if not self.loaded:
            far = f" ({self.reading[0]:,} of {self.reading[1]:,})" if self.reading else ""
            self.notify(f"Nothing written: the sessions are still being read{far}; the statistics can be written "
                        "once they are shown.", markup=False)
            return
        if self.result is None:
            self.notify("The statistics are still being counted.", markup=False)
            return
        folder = self.app.folder
        text = "\ufeff" + to_csv(self.result) if to == "csv" else to_json(self.result, str(folder)) + "\n"
        try:
            exports = store.own_folder(folder / "exports")
            target = store.write_new(exports, f"statistics-{self.app.now():%Y%m%d-%H%M%S}", f".{to}", text)
        except OSError as exc:
            self.notify(f"Could not write the statistics: {exc.strerror or exc}", severity="error", markup=False)
            return
        self.notify(str(target), title=f"Statistics {to.upper()} written", markup=False)

    def action_history(self) -> None:
        """The sessions behind these figures."""
        self.app.show_history(*self.filter_values())
