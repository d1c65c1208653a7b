"""Statistics: the output of the core's one statistics function (as `scorekeeper stats`), filtered like history."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import date
from fractions import Fraction
from typing import Any

from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.content import Content
from textual.widgets import Static
from textual.worker import get_current_worker

from scorekeeper.games.base import names
from scorekeeper.stats import statistics
from scorekeeper.summary import Summary
from scorekeeper.text import inert, ljust, rjust, width
from scorekeeper.tui.render import lines
from scorekeeper.tui.screens.history import Filters, IndexedScreen, since
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


def table(head: Sequence[str], rows: Sequence[Sequence[str]], first: int) -> Content:
    """Aligned plain columns: the first (a name) left, the figures right; the head in bold."""
    widths = [max([first, *(width(r[0]) for r in rows)])] + [
        max([width(h), *(width(r[i]) for r in rows)]) for i, h in enumerate(head) if i
    ]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(ljust(c, widths[0]) if i == 0 else rjust(c, widths[i]) for i, c in enumerate(cells))

    return lines([Content.styled(line(head), "bold"), *(Content(line(r)) for r in rows)])


def player_rows(players: list[dict[str, Any]]) -> Content:
    """Plays, wins, win rate, average, best, worst and longest winning streak per player."""
    head = ["Player", "Plays", "Wins", "Win %", "Average", "Best", "Worst", "Streak"]
    label = name_labels([p["player"] for p in players])
    rows = [[label[p["player"]], str(p["plays"]), str(p["wins"]), rate(p["win_rate"]), num(p.get("average")),
             num(p.get("best")), num(p.get("worst")), str(p["longest_streak"])] for p in players]
    return table(head, rows, 6)


def by_count_rows(players: list[dict[str, Any]]) -> Content:
    """Each player's average score by the number of players at the table."""
    counts = sorted({int(n) for p in players for n in p.get("average_by_player_count", {})})
    head = ["Average with", *(f"{n} players" for n in counts)]
    label = name_labels([p["player"] for p in players])
    rows = [[label[p["player"]], *(num(p["average_by_player_count"].get(str(n)))
                                      for n in counts)] for p in players]
    return table(head, rows, 12)


def finish_text(label: str, record: dict[str, Any] | None) -> Content:
    """`Biggest winning margin: 25 — Ana over Bo, 2026-11-27`."""
    if record is None:
        return Content("")
    winners = names([inert(w) for w in record["winners"]])
    over = f" over {inert(record['runner_up'])}" if record.get("runner_up") else ""
    return Content.assemble((f"{label}: ", "bold"), f"{num(record['margin'])} — {winners}{over}, {record['date']}")


def game_section(game: dict[str, Any]) -> list[Content]:
    """One game: its own figures first (margins, attractions, tickets, path), then its players' tables."""
    out = [Content.styled(f"{game['name']} — {game['plays']} play{'s' if game['plays'] != 1 else ''}",
                          "bold $text-accent")]
    for label, key in (("Biggest winning margin", "biggest_margin"), ("Closest finish", "closest_finish")):
        if game.get(key):
            out.append(finish_text(label, game[key]))
    tied, shared = game.get("tie_broken_wins", 0), game.get("shared_victories", 0)
    if tied or shared:
        apart = ([f"{tied} win{'s' * (tied != 1)} on a tie-break"] if tied else []) + (
            [f"{shared} shared victor{'ies' if shared != 1 else 'y'}"] if shared else [])
        out.append(Content.assemble(("Level on points at the top: ", "bold"), ", ".join(apart)))
    booth = game.get("ticket_booth")
    if booth:
        out.append(Content.assemble(("Points by attraction: ", "bold"),
                                    " · ".join(f"{a['label']} {num(a['points'])}" for a in booth["attractions"])))
        out.append(Content.assemble(("Points by special: ", "bold"),
                                    " · ".join(f"{s['label']} {num(s['points'])}" for s in booth["specials"])))
    fin = game.get("finland")
    if fin:
        out.append(Content.assemble(("Tourist cards: ", "bold"), f"{num(fin['tourists'])} points"))
        out.append(Content.assemble(("Bonuses: ", "bold"), " · ".join(f"{b['label']} {num(b['points'])}"
                                                                      for b in fin["bonuses"]) or "none"))
    tickets = game.get("tickets")
    if tickets:
        out.append(Content.assemble(("Tickets: ", "bold"), f"{tickets['completed']} completed, "
                                    f"{tickets['failed']} failed ({rate(tickets['completed_rate'])} completed)"))
    path = game.get("longest_path")
    if path and path["games"]:
        out.append(Content.assemble(("Longest Path: ", "bold"), f"its holder won {path['holder_won']} of "
                                    f"{path['games']} games ({rate(path['rate'])})"))
    out += [Content(""), player_rows(game["players"]), Content(""), by_count_rows(game["players"])]
    return out


def head_to_head(rows: list[dict[str, Any]]) -> Content:
    """How often each player finished above, below or level with each other."""
    head = ["Player", "Opponent", "Games", "Above", "Below", "Level"]
    label = name_labels(sorted({n for r in rows for n in (r["player"], r["opponent"])}))
    body = [[label[r["player"]], label[r["opponent"]], str(r["games"]), str(r["above"]), str(r["below"]),
             str(r["level"])] for r in rows]
    return table(head, body, 6)


def overall(rows: list[dict[str, Any]]) -> Content:
    """Every game together: plays, wins, win rate, longest streak."""
    head = ["Player", "Plays", "Wins", "Win %", "Streak"]
    label = name_labels([p["player"] for p in rows])
    body = [[label[p["player"]], str(p["plays"]), str(p["wins"]), rate(p["win_rate"]), str(p["longest_streak"])]
            for p in rows]
    return table(head, body, 6)


def player_page(page: dict[str, Any]) -> list[Content]:
    """The picked player across games: plays and wins by game and by player count, streaks, rival, nemesis."""
    wins = f"{page['wins']} win{'s' * (page['wins'] != 1)}"
    out = [Content.styled(f"{inert(page['player'])} across games", "bold $text-accent"),
           Content(f"{page['plays']} play{'s' * (page['plays'] != 1)}, {wins} ({rate(page['win_rate'])}); winning "
                   f"streak {page['current_streak']} now, {page['longest_streak']} at the longest"),
           table(["Game", "Plays", "Wins", "Win %"], [[inert(g["name"]), str(g["plays"]), str(g["wins"]),
                                                       rate(g["win_rate"])] for g in page["by_game"]], 4),
           Content.assemble(("By players at the table: ", "bold"), " · ".join(
               f"{n} players {c['wins']}/{c['plays']} ({rate(c['win_rate'])})"
               for n, c in page["by_player_count"].items()))]
    if page["rival"]:
        out.append(Content.assemble(("Rival ", "bold"), "(most often just ahead): ",
                                    f"{inert(page['rival']['player'])}, {page['rival']['just_ahead']}×"))
    if page["nemesis"]:
        nemesis = page["nemesis"]
        out.append(Content.assemble(("Nemesis ", "bold"), "(finished above most often): ",
                                    f"{inert(nemesis['player'])}, {nemesis['above']} of {nemesis['games']}"))
    return out


def summary_line(result: dict[str, Any]) -> Content:
    """`12 finished sessions (1 unfinished and 0 unreadable not counted)`."""
    n = result["sessions"]
    text = f"{n} finished session{'s' if n != 1 else ''}"
    left = [f"{result['unfinished']} unfinished"] if result["unfinished"] else []
    if result["invalid"]:
        left.append(f"{len(result['invalid'])} unreadable")
    if left:
        text += f" ({' and '.join(left)} not counted)"
    return Content(text)


def sections(result: dict[str, Any]) -> list[Content]:
    """The whole of the statistics as lines of content."""
    out = [summary_line(result)]
    if not result["games"]:
        out.append(Content.styled("Nothing to count: no finished session passes the filters.", "$text-muted"))
        return out
    for game in result["games"]:
        out.append(Content(""))
        out.extend(game_section(game))
    if len(result["games"]) > 1 and result["players"]:
        out += [Content(""), Content.styled("Every game together", "bold $text-accent"), overall(result["players"])]
    if result.get("player_page"):
        out.append(Content(""))
        out.extend(player_page(result["player_page"]))
    rows = result["head_to_head"]
    if rows:
        out += [Content(""), Content.styled("Head to head (places, every game)", "bold $text-accent")]
        if result["filters"]["player"] is None and len(rows) > HEAD_TO_HEAD_ROWS:
            out.append(Content.styled(f"{len(rows)} pairs of players: pick a player (p) to see how they fared "
                                      "against each of the others.", "$text-muted"))
        else:
            out.append(head_to_head(rows))
    return out


class StatisticsScreen(IndexedScreen):
    """Per game and player: plays, wins, averages, streaks; head to head; margins; each game's own figures."""

    BINDINGS = [
        Binding("g", "open_filter('game')", "Game", id="filter-game"),
        Binding("p", "open_filter('player')", "Player", id="filter-player"),
        Binding("t", "open_filter('period')", "Period", id="filter-period"),
        Binding("h", "history", "History", id="history"),
        Binding("escape", "back", "Back", id="back"),
    ]

    finished_only = None
    main = "#statistics"

    def __init__(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        super().__init__(game, player, period)
        self.result: dict[str, Any] = {}

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
            self.draw({}, [Content.styled("Reading the sessions index…", "$text-muted")])
            return
        game, player, period = self.filter_values()
        self.count(self.summaries, game, player, since(period, self.app.now().date()))

    @work(thread=True, exclusive=True, group="statistics", exit_on_error=False)
    def count(self, summaries: list[Summary], game: str | None, player: str | None, first_day: date | None) -> None:
        """Run the statistics (a second or so on 10,000 sessions) off the screen's thread; draw the newest asked."""
        result = statistics(summaries, game=game, player=player, since=first_day)
        figures = sections(result)
        if not get_current_worker().is_cancelled and not self.gone:
            self.app.call_from_thread(self.draw, result, figures)

    def draw(self, result: dict[str, Any], figures: list[Content]) -> None:
        """Draw the figures, one Static per block (a Static splits its text into lines: the longer, the slower)."""
        if not self.is_mounted:
            return
        self.result = result
        blocks: list[list[Content]] = [[]]
        for line in figures:
            if line.plain:
                blocks[-1].append(line)
            elif blocks[-1]:
                blocks.append([])
        box = self.query_one("#figures", Vertical)
        box.remove_children()
        box.mount_all(Static(lines(block), classes="block") for block in blocks if block)

    def plain(self) -> str:
        """The figures as plain text (for tests and the clipboard)."""
        return "\n".join(line.plain.rstrip() for line in sections(self.result)) if self.result else ""

    def action_history(self) -> None:
        """The sessions behind these figures."""
        self.app.show_history(*self.filter_values())
