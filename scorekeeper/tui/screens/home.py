"""The home screen: the sessions of the folder, newest first; every printable key goes to the filter."""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.content import Content
from textual.message import Message
from textual.screen import Screen
from textual.widgets import Input, Static
from textual.worker import get_current_worker

from scorekeeper.model.text import inert
from scorekeeper.tui import compat
from scorekeeper.tui.screens.listing import Entry, SessionList, entry_for
from scorekeeper.tui.screens.ordered import OrderedInput
from scorekeeper.tui.widgets.bars import KeyBar, TitleBar

if TYPE_CHECKING:
    from scorekeeper.index import Index
    from scorekeeper.tui.base import AppBase

FIRST_PAGE = 40
"""Sessions shown in the first paint (a screenful, and more), from the index; the rest come from a thread."""

SAMPLES = ("ticket-booth-in-progress.toml", "ticket-to-mars-extra-round.toml")
"""The sample sessions packaged with the app (copies of sample_sessions/)."""


def index_errors() -> tuple[type[Exception], ...]:
    """What opening or reading the index may raise (sqlite3 is imported only once one is raised)."""
    import sqlite3

    return sqlite3.Error, OSError


def odd_files(folder: Path) -> list[Entry]:
    """`*.toml` names in the folder that are not regular files (a FIFO, a folder): listed, never opened."""
    from scorekeeper.index.summary import UNREADABLE
    from scorekeeper.store.paths import leads_out

    odd: list[Entry] = []
    try:
        with os.scandir(folder) as found:
            for item in found:
                if item.name.endswith(".toml") and not item.name.startswith(".") and not item.is_file() and not (
                        item.is_symlink() and leads_out(os.path.realpath(folder), item.path)):
                    odd.append(Entry(Path(item.path), state=UNREADABLE, error="not a regular file"))
    except OSError:
        pass
    return odd


def narrower(before: tuple[list[Entry], list[str]] | None, entries: list[Entry], words: list[str]) -> bool:
    """True when `words` can only narrow what the filter `before` showed of the same entries: each word of before
    is inside a word of now (`ti` then `tic`, `ticket` then `ticket b`), so no entry it hid can pass now."""
    if before is None or before[0] is not entries:
        return False
    return all(any(old in new for new in words) for old in before[1])


class FilterBox(OrderedInput):
    """The filter: it has the keyboard; the arrows move in the list and Esc clears it, in the order typed.

    Its width is fixed by the screen, so the text growing with each key (Textual's Input sets its virtual size
    then) never needs the screen laid out again: only the box is drawn again.
    """

    virtual_size = compat.virtual_size_without_layout()

    BINDINGS = [
        Binding("up", "screen.move(-1)", "Up", show=False),
        Binding("down", "screen.move(1)", "Down", show=False),
        Binding("pageup", "screen.move_page(-1)", "Page up", show=False),
        Binding("pagedown", "screen.move_page(1)", "Page down", show=False),
        Binding("escape", "screen.clear_filter", "Clear filter", show=False),
    ]


class HomeScreen(Screen[None]):
    """The sessions folder: the filter has the keyboard, commands are on keys no name can hold."""

    CSS_PATH = "../home.tcss"
    BINDINGS = [
        Binding("ctrl+n", "new", "New session", id="new", priority=True),
        Binding("delete,ctrl+d", "delete", "Delete", id="delete", priority=True),
        Binding("ctrl+o", "sample", "Open a sample", id="sample"),
        Binding("ctrl+q", "app.quit", "Quit", id="quit", priority=True),
        Binding("f1,question_mark", "app.help", "Help", id="home-help"),
        Binding("ctrl+z", "undo_delete", "Undo delete", id="undo-delete"),
        Binding("ctrl+t", "trash", "Trash", id="trash"),
        Binding("f2", "history", "History", id="history"),
        Binding("f3", "statistics", "Statistics", id="statistics"),
        Binding("escape", "clear_filter", "Clear filter", show=False, id="clear-filter"),
    ]
    """The keys a table needs first come first: the footer drops the last ones that do not fit (at 80 columns:
    Trash, History, Statistics, all in the palette and the help); Help is the app's, named here for its place."""

    app: AppBase

    def __init__(self) -> None:
        super().__init__()
        self.entries: list[Entry] = []
        self.shown: list[Entry] = []
        self.deleted: tuple[Path, Path] | None = None
        self.index: Index | None = None
        self._no_index = False
        self._opening = threading.Lock()
        self._progress: Static | None = None
        self._empty: Static | None = None
        self.reading: tuple[int, int] | None = None
        self._complete = False
        self._could_delete: bool | None = None
        self._filtered: tuple[list[Entry], list[str]] | None = None
        self.moved = False
        """Whether the user moved the cursor (or a session was picked for it): until then it stays on the newest
        session, however the list fills in (a cold folder is read oldest name first, in the background)."""

    class Reading(Message):
        """The folder's refresh read `done` of `total` changed files (posted from its thread)."""

        def __init__(self, done: int, total: int) -> None:
            super().__init__()
            self.done = done
            self.total = total

    class Loaded(Message):
        """Every entry of the index, read in the background thread; `final` once the refresh is over."""

        def __init__(self, entries: list[Entry] | None, final: bool) -> None:
            super().__init__()
            self.entries = entries
            self.final = final

    def compose(self) -> ComposeResult:
        yield TitleBar()
        yield FilterBox(placeholder="Filter: type a title, game or player", id="filter", compact=True,
                        select_on_focus=False)
        yield SessionList(id="sessions")  # the progress bar (before it) and the empty list's words (after it)
        yield KeyBar()  # are mounted the first time they are needed

    def on_mount(self) -> None:
        """Paint at once: the first screenful from the folder's index (no session file is read here); the rest,
        and what changed on disk, right after the first frame."""
        self.title = "Scorekeeper"
        self.sub_title = inert(self.app.folder)
        self.query_one("#filter", Input).focus()
        index = self.open_index()
        try:
            if index is not None:
                self.entries = [Entry.from_summary(s) for s in index.summaries(limit=FIRST_PAGE)]
        except index_errors():
            self._lost_index()
        self.show()

    def open_index(self) -> Index | None:
        """The folder's index, opened on first use (from the thread or here); None when it cannot be."""
        with self._opening:
            if self.index is None and not self._no_index:
                from scorekeeper.index import Index

                try:
                    self.index = Index(self.app.folder)
                except index_errors():
                    self._no_index = True
            return self.index

    def _lost_index(self) -> None:
        """The index failed: from now on every file is read (`load`)."""
        with self._opening:
            self.index = None
            self._no_index = True

    def on_unmount(self) -> None:
        """Close the index."""
        with self._opening:
            if self.index is not None:
                self.index.close()
            self._no_index = True

    def on_screen_resume(self) -> None:
        """Shown (first, or back from a session): the rest of the list, then what changed, in the background."""
        self.query_one("#filter", Input).focus()
        if self._no_index:
            self.load()
            return
        self.call_after_refresh(self.run_worker, self._refresh, thread=True, exclusive=True, group="folder",
                                exit_on_error=False)  # after the frame: the thread holds the GIL a while

    def _entries(self) -> list[Entry]:
        assert self.index is not None
        return [Entry.from_summary(s) for s in self.index.summaries()] + odd_files(self.app.folder)

    def _refresh(self) -> None:
        """In a thread: every entry of the index, then the index brought up to date with the folder."""
        index = self.open_index()
        if index is None:
            self.post_message(self.Loaded(None, final=True))  # no index: every file is read (`load`)
            return
        filled = [time.monotonic(), 1.0]  # when the list was last filled in, and how long until the next time

        def progress(done: int, total: int) -> None:
            self.post_message(self.Reading(done, total))
            start = time.monotonic()
            if done and start - filled[0] > filled[1]:  # a cold folder: fill the list in as it is read
                entries = self._entries()
                filled[0] = time.monotonic()
                filled[1] = max(1.0, 10 * (filled[0] - start))  # the list grows: fill it in less often
                self.post_message(self.Loaded(entries, final=False))

        try:
            if not self._complete:
                self.post_message(self.Loaded(self._entries(), final=False))
            worker = get_current_worker()
            changes = index.refresh(progress=progress, workers=None,  # a cold folder: in worker processes
                                    stop=lambda: worker.is_cancelled)  # the screen closed: stop at the next chunk
            self.post_message(self.Loaded(self._entries() if changes else None, final=True))
        except Exception:  # the index is only a cache: list what it holds, never a traceback
            self.post_message(self.Loaded(None, final=True))

    def on_home_screen_reading(self, message: Reading) -> None:
        """A cold folder is being read: show how far."""
        self.reading = (message.done, message.total)
        if message.total < 20:
            if self._progress is not None:
                self._progress.display = False
        else:
            bar = self._progress = self._progress or self._mount(Static(id="progress"), before=True)
            bar.display = True
            cells = 30
            filled = round(message.done / message.total * cells)
            bar.update(Content.assemble(("Reading the folder ", "bold"), ("█" * filled, "$accent"),
                                        ("░" * (cells - filled), "dim"),
                                        f"  {message.done:,} of {message.total:,} sessions"))

    def on_home_screen_loaded(self, message: Loaded) -> None:
        """Entries read in the background: show them (the filter and the highlight kept). A refresh over before
        the index's entries were listed (no index, or a broken one): every file is read."""
        if message.final:
            self.reading = None
            if self._progress is not None:
                self._progress.display = False
            if not self._complete:
                self._lost_index()
                self.load()
                return
        if message.entries is not None:
            self.entries = message.entries
            self._complete = True
        self.show()

    def paint(self, select: Path | None = None) -> None:
        """The whole list from the index as it stands (no session file is read)."""
        if self.open_index() is None:
            self.load(select)
            return
        try:
            self.entries = self._entries()
            self._complete = True
        except index_errors():
            self._lost_index()
            self.load(select)
            return
        self.show(select)

    def load(self, select: Path | None = None) -> None:
        """Without an index: read every session file of the folder."""
        from scorekeeper import store

        found = (entry_for(p) for p in store.session_files(self.app.folder))
        self.entries = [e for e in found if e is not None]
        self._complete = True
        self.show(select)

    def files_changed(self, *paths: Path, select: Path | None = None) -> None:
        """Files moved in or out of the folder by the app: index them now and update their rows."""
        index = self.open_index()
        if index is None:
            self.load(select)
            return
        try:
            index.refresh(names=[p.name for p in paths])
            for path in paths:
                self.entries = [e for e in self.entries if e.path != path]
                summary = index.get(path.name)
                if summary is not None:
                    entry = Entry.from_summary(summary)
                    at = next((i for i, e in enumerate(self.entries) if e.order < entry.order), len(self.entries))
                    self.entries.insert(at, entry)
        except index_errors():
            self.paint(select)
            return
        self.show(select)

    def show(self, select: Path | None = None) -> None:
        """The entries that pass the filter (a filter typed further narrows the list shown, not the whole list)."""
        words = self.query_one("#filter", Input).value.casefold().split()
        current = self.current()
        before, self._filtered = self._filtered, (self.entries, words)
        shown = self.shown if narrower(before, self.entries, words) else self.entries
        for word in words:
            shown = [e for e in shown if word in e.search]
        self.shown = shown if shown is not self.entries else list(shown)
        listing = self.query_one("#sessions", SessionList)
        at: int | None = 0
        if select is not None:
            at = next((i for i, e in enumerate(self.shown) if e.path == select), 0)
            self.moved = self.moved or at > 0
        elif current is not None:
            again = before is None or before[0] is not self.entries  # the list was read again
            if again and not (self.moved or listing.scrolled):
                at = 0  # the newest stays highlighted, in view, until the user moves away from it
            else:
                at = next((i for i, e in enumerate(self.shown) if e is current), None)
                if at is None and again:
                    at = next((i for i, e in enumerate(self.shown) if e.path == current.path), 0)
        listing.set_rows(self.shown, (at or 0) if self.shown else None)
        listing.display = bool(self.shown)
        if self.shown:
            if self._empty is not None:
                self._empty.display = False
        else:
            empty = self._empty = self._empty or self._mount(Static(id="empty"), before=False)
            empty.display = True
            if not self.entries and self.reading is not None:
                empty.update(Content("Reading the folder…"))
            elif not self.entries:
                empty.update(Content.from_markup(
                    "[b]No sessions yet[/b] in $folder\n\n"
                    "Press [b]ctrl+n[/b] to start a new session: pick the game, the players in seating order, "
                    "and the app walks the table through the scoring.\n"
                    "Press [b]ctrl+o[/b] to open a sample session (a Ticket Booth game in its second round) "
                    "and look around first.", folder=str(self.app.folder)))
            else:
                empty.update(Content("No session matches the filter (Esc clears it)."))
        can_delete = self.current() is not None
        if can_delete != self._could_delete:
            self._could_delete = can_delete
            self.refresh_bindings()

    def _mount(self, widget: Static, *, before: bool) -> Static:
        """Mount a widget just before or after the list."""
        listing = self.query_one("#sessions", SessionList)
        if before:
            self.mount(widget, before=listing)
        else:
            self.mount(widget, after=listing)
        return widget

    def current(self) -> Entry | None:
        """The highlighted entry."""
        index = self.query_one("#sessions", SessionList).highlighted
        if index is None or not 0 <= index < len(self.shown):
            return None
        return self.shown[index]

    @on(Input.Changed, "#filter")
    def filtered(self) -> None:
        """Filter as you type."""
        self.show()

    @on(Input.Submitted, "#filter")
    def filter_done(self) -> None:
        """Enter opens the highlighted session."""
        entry = self.current()
        if entry is not None:
            self.open(entry)

    @on(SessionList.Chosen)
    def chosen(self, event: SessionList.Chosen) -> None:
        """A click on a session opens it."""
        self.moved = True
        self.open(self.shown[event.index])

    def open(self, entry: Entry) -> None:
        """Open a session (an unreadable one shows its problems)."""
        self.deleted = None
        self.app.open_file(entry.path)

    # -- actions ------------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Delete only with a session highlighted; undo only right after a delete."""
        if action == "delete":
            return self.current() is not None
        if action == "undo_delete":
            return self.deleted is not None
        return True

    def action_move(self, delta: int) -> None:
        """Up or down the list (the filter keeps the keyboard)."""
        self.moved = True
        self.query_one("#sessions", SessionList).move(delta)
        self.refresh_bindings()

    def action_move_page(self, delta: int) -> None:
        """A screenful up or down."""
        self.moved = True
        listing = self.query_one("#sessions", SessionList)
        listing.move(delta * listing.page())

    def action_new(self) -> None:
        """A new session."""
        from scorekeeper.tui.screens.new_session import NewSessionScreen, recent_names

        recent = recent_names((entry.order[0], entry.players) for entry in self.entries)
        self.app.push_screen(NewSessionScreen(recent=recent))

    def action_history(self) -> None:
        """The finished sessions by date."""
        self.app.show_history()

    def action_statistics(self) -> None:
        """Statistics over the finished sessions."""
        self.app.show_statistics()

    def action_clear_filter(self) -> None:
        """Clear the filter."""
        self.query_one("#filter", Input).value = ""

    def action_delete(self) -> None:
        """Move the highlighted session to trash/, after a question whose default answer is No."""
        from scorekeeper import store
        from scorekeeper.tui.screens.dialogs import ConfirmScreen

        entry = self.current()
        if entry is None:
            return
        question = Content.from_markup("Delete [b]$name[/b]?\n\nThe file $file moves to the trash/ folder "
                                       "beside it: ctrl+z right after, or the Trash (ctrl+t), brings it back.",
                                       name=entry.name, file=entry.path.name)

        def answer(yes: bool | None) -> None:
            if not yes:
                return
            try:
                target = store.to_trash(entry.path)
            except OSError as exc:
                self.notify(f"Could not delete: {exc.strerror or exc}", severity="error", markup=False)
                return
            self.deleted = (entry.path, target)
            self.refresh_bindings()
            self.notify(f"Moved to {target} — ctrl+z brings it back", title="Deleted", markup=False)
            self.files_changed(entry.path)

        self.app.push_screen(ConfirmScreen(question, yes="Delete"), answer)

    def action_undo_delete(self) -> None:
        """Bring back the session just deleted."""
        from scorekeeper import store

        if self.deleted is None:
            return
        original, trashed = self.deleted
        try:
            back = store.from_trash(trashed, original)
        except OSError as exc:
            self.notify(f"Could not bring it back: {exc.strerror or exc}", severity="error", markup=False)
            return
        self.deleted = None
        self.refresh_bindings()
        self.notify(f"{inert(back.name)} is back", title="Restored", markup=False)
        self.files_changed(back, select=back)

    def action_trash(self) -> None:
        """The files in trash/, to bring any of them back."""
        from scorekeeper.tui.screens.trash import TrashScreen

        self.app.push_screen(TrashScreen())

    def action_sample(self, name: str = SAMPLES[0]) -> None:
        """Open a sample session, not copied into the folder until the first change made to it."""
        from importlib import resources

        text = resources.files("scorekeeper.samples").joinpath(name).read_text(encoding="utf-8")
        self.deleted = None
        self.app.open_sample(name, text)

    def palette(self) -> Iterator[tuple[str, str, Any]]:
        """Commands: open any session, open a sample."""
        for entry in self.entries:
            yield f"Open: {entry.name}", entry.state, lambda e=entry: self.open(e)
        for name in SAMPLES:
            yield f"Open a sample: {name}", "Open a sample session (copied into the folder at the first change)", \
                lambda n=name: self.action_sample(n)
