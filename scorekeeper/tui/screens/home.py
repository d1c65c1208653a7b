"""The home screen: the sessions of the folder, newest first; open, new, delete to trash, filter as you type."""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from datetime import date, datetime
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.screen import Screen
from textual.widgets import Input, OptionList, Static
from textual.widgets.option_list import Option

from scorekeeper import files, games, store, walk
from scorekeeper.session import Session, SessionError
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar

if TYPE_CHECKING:
    from scorekeeper.tui.base import AppBase

SAMPLES = ("ticket-booth-in-progress.toml", "ticket-to-mars-extra-round.toml")
"""The sample sessions packaged with the app (copies of sample_sessions/)."""


@dataclass
class Entry:
    """A session file as the home screen lists it."""

    path: Path
    session: Session | None
    state: str
    error: str = ""

    def when(self) -> str:
        """The date it was started (else the file's date)."""
        started = self.session.started if self.session else None
        if isinstance(started, datetime):
            return f"{started:%Y-%m-%d %H:%M}"
        if isinstance(started, date):
            return f"{started:%Y-%m-%d}"
        try:
            return f"{datetime.fromtimestamp(self.path.stat().st_mtime):%Y-%m-%d %H:%M}"
        except OSError:
            return ""

    def search_text(self) -> str:
        """What the filter looks in."""
        parts = [self.path.name, self.state, self.error]
        if self.session:
            game = games.GAMES.get(self.session.game)
            parts += [self.session.title or "", self.session.game, game.name if game else "", *self.session.players]
        return " ".join(parts).casefold()

    def prompt(self) -> Content:
        """Two lines: title, game and date; players and state (or why the file cannot be read)."""
        if self.session is None:
            return Content.assemble(("⚠ ", "$text-error"), (self.path.name, "bold"), ("  unreadable", "$text-error"),
                                    "\n  ", (self.error, "$text-error"))
        game = games.get(self.session.game)
        title: list[str | tuple[str, str]] = [(self.session.title, "bold"), "  "] if self.session.title else []
        return Content.assemble(
            *title, (game.name, "bold $text-accent"), "  ", (self.when(), "dim"),
            "\n  ", ", ".join(self.session.players), "  ", ("— " + self.state, "italic"))


def entry_for(path: Path) -> Entry:
    """Read one file for the list (an unreadable one is listed with the core's first message)."""
    try:
        session, warnings = files.load(path)
    except SessionError as exc:
        first = exc.problems[0] if exc.problems else None
        return Entry(path, None, "unreadable", first.describe() if first else str(exc))
    try:
        game = games.get(session.game)
        sheet = games.score(session, warnings)
        state = walk.state_text(game, session, sheet)
    except SessionError as exc:
        return Entry(path, None, "unreadable", exc.problems[0].describe() if exc.problems else str(exc))
    return Entry(path, session, state)


class SessionList(OptionList):
    """The sessions; typing a letter that is not a key of the screen starts the filter."""

    def on_key(self, event: events.Key) -> None:
        """Send typed text to the filter."""
        reserved = {b.key for b in HomeScreen.BINDINGS if isinstance(b, Binding)} | {"question_mark"}
        if event.is_printable and event.character and event.key not in reserved:
            event.stop()
            event.prevent_default()
            box = self.screen.query_one("#filter", Input)
            box.focus()
            box.insert_text_at_cursor(event.character)


class HomeScreen(Screen):
    """The sessions folder."""

    BINDINGS = [
        Binding("n", "new", "New session", id="new"),
        Binding("d", "delete", "Delete", id="delete"),
        Binding("delete", "delete", "Delete", show=False),
        Binding("s", "sample", "Open a sample", id="sample"),
        Binding("f2", "history", "History", id="history"),
        Binding("f3", "statistics", "Statistics", id="statistics"),
        Binding("slash", "filter", "Filter", id="filter"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="clear-filter"),
        Binding("q", "app.quit", "Quit", id="quit"),
    ]

    app: AppBase

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self.shown: list[Entry] = []

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield Input(placeholder="Filter: type a title, game or player", id="filter", compact=True,
                    select_on_focus=False)
        yield SessionList(id="sessions")
        yield Static(id="empty")
        yield KeyBar()

    def on_mount(self) -> None:
        """List the folder."""
        self.title = "Scorekeeper"
        self.sub_title = str(self.app.folder)
        self.load()
        self.query_one("#sessions", OptionList).focus()

    def on_screen_resume(self) -> None:
        """Back from a session: list again."""
        if self.is_mounted:
            self.load()

    def load(self, select: Path | None = None) -> None:
        """Read every session file of the folder."""
        self.entries = [entry_for(p) for p in store.session_files(self.app.folder)]
        self.show(select)

    def show(self, select: Path | None = None) -> None:
        """The entries that pass the filter."""
        words = self.query_one("#filter", Input).value.casefold().split()
        self.shown = [e for e in self.entries if all(w in e.search_text() for w in words)]
        listing = self.query_one("#sessions", OptionList)
        current = self.current()
        keep = select or (current.path if current else None)
        options: list[Option | None] = []
        for i, e in enumerate(self.shown):
            options += [Option(e.prompt(), id=str(i)), None]
        listing.set_options(options[:-1])
        paths = [e.path for e in self.shown]
        if self.shown:
            listing.highlighted = paths.index(keep) if keep in paths else 0
        empty = self.query_one("#empty", Static)
        empty.display = not self.shown
        listing.display = bool(self.entries)
        if not self.entries:
            empty.update(Content.from_markup(
                "[b]No sessions yet[/b] in $folder\n\n"
                "Press [b]n[/b] to start a new session: pick the game, the players in seating order, "
                "and the app walks the table through the scoring.\n"
                "Press [b]s[/b] to open a sample session (a Ticket Booth game in its second round) "
                "and look around first.", folder=str(self.app.folder)))
        elif not self.shown:
            empty.update(Content("No session matches the filter (Esc clears it)."))
        self.refresh_bindings()

    def current(self) -> Entry | None:
        """The highlighted entry."""
        listing = self.query_one("#sessions", OptionList)
        index = listing.highlighted
        if index is None or not 0 <= index < len(self.shown):
            return None
        return self.shown[index]

    @on(Input.Changed, "#filter")
    def filtered(self) -> None:
        """Filter as you type."""
        self.show()

    @on(Input.Submitted, "#filter")
    def filter_done(self) -> None:
        """Enter in the filter opens the first match."""
        if self.shown:
            self.query_one("#sessions", OptionList).highlighted = 0
            self.open(self.shown[0])

    def on_key(self, event: events.Key) -> None:
        """Down from the filter goes to the list."""
        box = self.query_one("#filter", Input)
        if box.has_focus and event.key == "down":
            event.stop()
            self.query_one("#sessions", OptionList).focus()

    @on(OptionList.OptionSelected, "#sessions")
    def selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on a session opens it."""
        event.stop()
        self.open(self.shown[event.option_index])

    def open(self, entry: Entry) -> None:
        """Open a session (an unreadable one shows its problems)."""
        self.app.open_file(entry.path)

    # -- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Delete only with a session highlighted."""
        if action == "delete":
            return self.current() is not None
        return True

    def action_new(self) -> None:
        """A new session."""
        from scorekeeper.tui.screens.new_session import NewSessionScreen

        self.app.push_screen(NewSessionScreen())

    def action_history(self) -> None:
        """The finished sessions by date."""
        self.app.show_history()

    def action_statistics(self) -> None:
        """Statistics over the finished sessions."""
        self.app.show_statistics()

    def action_filter(self) -> None:
        """Focus the filter."""
        self.query_one("#filter", Input).focus()

    def action_clear_filter(self) -> None:
        """Clear the filter and go back to the list."""
        box = self.query_one("#filter", Input)
        box.value = ""
        self.query_one("#sessions", OptionList).focus()

    def action_delete(self) -> None:
        """Move the highlighted session to trash/, after a confirmation."""
        from scorekeeper.tui.screens.dialogs import ConfirmScreen

        entry = self.current()
        if entry is None:
            return
        name = entry.session.title if entry.session and entry.session.title else entry.path.name
        question = Content.from_markup("Delete [b]$name[/b]?\n\nThe file $file moves to the trash/ folder "
                                       "beside it; you can move it back by hand.", name=name, file=entry.path.name)

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                target = store.to_trash(entry.path)
            except OSError as exc:
                self.notify(f"Could not delete: {exc.strerror or exc}", severity="error", markup=False)
                return
            self.notify(f"Moved to {target}", title="Deleted", markup=False)
            self.load()

        self.app.push_screen(ConfirmScreen(question, yes="Delete"), answer)

    def action_sample(self, name: str = SAMPLES[0]) -> None:
        """Copy a sample session into the folder and open it."""
        source = resources.files("scorekeeper.samples").joinpath(name)
        folder = self.app.folder
        folder.mkdir(parents=True, exist_ok=True)
        target = folder / f"sample-{name}"
        n = 2
        while target.exists():
            target = folder / f"sample-{Path(name).stem}-{n}.toml"
            n += 1
        with resources.as_file(source) as path:
            shutil.copyfile(path, target)
        self.load(select=target)
        self.app.open_file(target)

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands: open any session, open a sample."""
        for entry in self.entries:
            title = entry.session.title if entry.session and entry.session.title else entry.path.name
            yield f"Open: {title}", entry.state, lambda e=entry: self.open(e)
        for name in SAMPLES:
            yield f"Open a sample: {name}", "Copy a sample session into the folder and open it", \
                lambda n=name: self.action_sample(n)
