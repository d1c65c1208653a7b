"""The Textual app: the one factory (`ScorekeeperApp`) and the entry point the command line calls (`run`).

The app is built in layers, one concern each: `AppBase` (what the screens may ask of it), `SavingApp` (saving the
open session, `saving`), `LeavingApp` (quitting and signals, `leaving`), then here the screens, the keys and the
start-up.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from textual import events, work
from textual.app import App, SystemCommand
from textual.screen import ModalScreen, Screen
from textual.widgets import Input

from scorekeeper.model.text import inert
from scorekeeper.tui import keymap
from scorekeeper.tui.commands import ScreenCommands, system_commands
from scorekeeper.tui.keys import KeyQueue
from scorekeeper.tui.leaving import LeavingApp
from scorekeeper.tui.terminal import terminal_state

if TYPE_CHECKING:  # the home screen paints without them: imported where a session is opened
    from textual.notifications import SeverityLevel

    from scorekeeper.model.session import SessionError

WATCH = 0.4
"""Seconds between two looks at the open session's file (a stat; the file is read only when it changed)."""


def minute_now() -> datetime:
    """The time now, to the minute (a session's `started`)."""
    return datetime.now().replace(second=0, microsecond=0)


class ScorekeeperApp(LeavingApp):
    """Keeps score of a game of the Ticket family: home, new session, walkthrough, standings."""

    CSS_PATH = Path(__file__).with_name("scorekeeper.tcss")  # app-wide: each screen reads its own (its CSS_PATH)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (60, "-wide")]
    COMMANDS = App.COMMANDS | {ScreenCommands}
    TITLE = "Scorekeeper"
    BINDINGS = keymap.bindings(keymap.APP)

    def __init__(self, folder: Path, file: Path | None = None, *, now: Callable[[], datetime] = minute_now,
                 seat: str | None = None) -> None:
        from scorekeeper.tui.inert import guard_terminal

        guard_terminal()
        super().__init__()
        self.folder = Path(folder)
        self.file = Path(file) if file is not None else None
        self.now = now
        self.doc = None
        self._waiting = None
        self.watch_every = WATCH
        """Seconds between two looks at the open session's file (tests of changes made "at once" lengthen it)."""
        self.watch_events = True
        """Also told by the file system the moment the file changes (`watch_changes`); the looks stay a fallback."""
        self.stop_watching = threading.Event()
        self.grace = None
        self.mounted = False
        self.stop_asked = False
        self.terminal = terminal_state()
        self.typed = KeyQueue(self)
        self.errors: list[tuple[float, float, str, str, bool]] = []
        """The error toasts raised (when, until when, message, title, markup): they stay when the screen changes."""
        self.seat = seat
        """The player whose seat this app is (`scorekeeper seat`, a phone that joined): that player's inputs only."""
        self.seat_asks: set[tuple[str, str]] = set()
        """The phones asking for a seat the host has been asked about (seat, phone)."""

    def on_load(self) -> None:
        """Before the terminal (and stderr) is taken over: a big folder seen for the first time is read in worker
        processes, which need a helper started now (`indexing.prepare_workers`)."""
        if self.file is None:
            from scorekeeper.index import db_path, indexing

            try:
                indexing.prepare_workers(self.folder, db_path(self.folder))
            except (OSError, RuntimeError):  # the index cannot be found: the home screen reads the files itself
                pass

    def on_mount(self) -> None:
        """The first screen, pushed: the home screen, or the session given on the command line (over the home
        screen, with why, when it cannot be opened)."""
        self.mounted = True
        self.screen_change_signal.subscribe(self, self.screen_changed)
        if self.stop_asked:  # SIGTERM/SIGHUP while starting: quit now that the terminal can be restored
            self.call_later(self.action_quit_now)
        self.call_after_refresh(self._start_up)  # nothing in it is needed for the first frame
        if self.file is None:
            self.push_screen(self.home_screen())
        else:
            self.open_file(self.file)

    async def on_event(self, event: events.Event) -> None:
        """Keys and pastes in typing order, each to the screen and widget shown once the one before is done."""
        if self.typed.hold(event):
            return
        await super().on_event(event)
        self.typed.handled(event)

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """A steady cursor when animation is off (`TEXTUAL_ANIMATIONS=none`, as in the tests)."""
        if self.animation_level == "none" and isinstance(event.widget, Input):
            event.widget.cursor_blink = False

    # -- navigation ---------------------------------------------------------------------
    def home_screen(self) -> Screen[None]:
        """A new home screen."""
        from scorekeeper.tui.screens.home import HomeScreen

        return HomeScreen()

    def session_screen(self, path: Path) -> Screen[None] | SessionError:
        """The screen a session opens on, or the core's problems when it cannot be opened."""
        from scorekeeper.model.session import SessionError
        from scorekeeper.walk.document import Document

        try:
            doc = Document.open(path)
        except SessionError as exc:
            return exc
        self.doc = doc
        doc.entry = self.chosen_entry(path)
        if doc.read_only:
            self.notify(f"{inert(path.name)} is read-only: you can look, but nothing you change is saved.",
                        title="Read-only", severity="warning", markup=False, timeout=8)
        return self.resume_screen()

    def open_file(self, path: Path) -> bool:
        """Open a session file where the table left off (walkthrough or standings); the core's message if not."""
        from scorekeeper.model.session import SessionError

        screen = self.session_screen(path)
        if isinstance(screen, SessionError) and self.seat is not None:  # a seat shows its own screen, or why not
            from scorekeeper.tui.screens.seat_lost import SeatLostScreen

            self.push_screen(SeatLostScreen(path, self.seat, f"{path.name} cannot be opened now.", screen.problems))
            return False
        if isinstance(screen, SessionError):
            from scorekeeper.tui.screens.dialogs import ErrorScreen

            if len(self.screen_stack) == 1:  # none of ours yet (Textual's empty one): the home goes under the message
                self.push_screen(self.home_screen())
            self.push_screen(ErrorScreen(f"Cannot open {inert(path.name)}", screen.problems, inert(str(path))))
            return False
        self.push_screen(screen)
        return True

    def open_sample(self, name: str, text: str) -> bool:
        """Open a packaged sample without copying it into the folder: only the first change copies it (as
        `sample-NAME`), so a look leaves nothing behind and nothing typed is lost."""
        from scorekeeper.model.session import SessionError
        from scorekeeper.walk.document import Document

        try:
            self.doc = Document.of_sample(self.folder / f"sample-{name}", text)
        except SessionError:
            return False
        self.notify("A sample, not copied into your folder: look around; the first change you make keeps a copy "
                    f"there (sample-{inert(name)}).", title="Sample", markup=False, timeout=8)
        self.push_screen(self.resume_screen())
        return True

    def resume_screen(self) -> Screen[None]:
        """The open session where the table left off: the first step not yet scored, else the standings."""
        from scorekeeper import games, walk

        assert self.doc is not None
        session = self.doc.session
        game = games.get(session.game)
        if self.seat is not None:
            from scorekeeper.tui.screens.seat import SeatScreen

            return SeatScreen(self.doc, self.seat)
        where = walk.resume(game, session, self.doc.sheet())
        if where is None:
            return self.standings_screen()
        from scorekeeper.tui.screens.walkthrough import WalkthroughScreen

        return WalkthroughScreen(self.doc, *where)

    def session_anew(self) -> Screen[None]:
        """The open session's first screen again, the file being another document now (a seat whose player is not
        in it any more: why, and a retry)."""
        assert self.doc is not None
        if self.seat is not None and self.seat not in self.doc.session.players:
            from scorekeeper.tui.screens.seat_lost import SeatLostScreen

            return SeatLostScreen(self.doc.path, self.seat,
                                  f"{self.doc.path.name} is another session now, without {self.seat}.")
        return self.resume_screen()

    def standings_screen(self) -> Screen[None]:
        """A new standings screen of the open session."""
        from scorekeeper.tui.screens.standings import StandingsScreen

        assert self.doc is not None
        return StandingsScreen(self.doc)

    # -- toasts belong to their screen ------------------------------------------------------------------------
    def notify(self, message: str, *, title: str = "", severity: SeverityLevel = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """A toast (Textual's), an error remembered so that it outlives a change of screen."""
        super().notify(message, title=title, severity=severity, timeout=timeout, markup=markup)
        if severity == "error":
            import time

            now = time.monotonic()
            self.errors.append((now, now + (timeout or self.NOTIFICATION_TIMEOUT), message, title, markup))

    def screen_changed(self, screen: Screen[Any]) -> None:
        """Another screen: the toasts raised on the one before go (they would cover its list and speak of what
        is no longer shown); an error still showing stays, for the time it had left. A toast raised while the
        change is made (a session opened read-only) comes after it, on the new screen."""
        import time

        now = time.monotonic()
        self.errors = [e for e in self.errors if e[1] > now]
        self.clear_notifications()
        for raised, until, message, title, markup in self.errors:
            if now - raised > 0.2:  # a younger one is not shown yet: it comes on the new screen by itself
                super().notify(message, title=title, severity="error", timeout=until - now, markup=markup)

    # -- how the table enters routes: the app's own state (the file has no place for it) -------------------------
    def chosen_entry(self, path: Path) -> str | None:
        """How the table chose to enter routes in this file (New session, or ctrl+e), None when it did not."""
        from scorekeeper.tui import entries

        return entries.chosen(path)

    def choose_entry(self, path: Path, key: str) -> None:
        """Remember how the table enters routes in this file."""
        from scorekeeper.tui import entries

        entries.choose(path, key)

    def walkthrough(self, number: int, index: int = 0) -> None:
        """Walk round `number` from step `index`."""
        from scorekeeper.tui.screens.walkthrough import WalkthroughScreen

        assert self.doc is not None
        self.push_screen(WalkthroughScreen(self.doc, number, index))

    def show_standings(self) -> None:
        """Up from a walkthrough: the standings below it, or a new one in its place."""
        from scorekeeper.tui.screens.standings import StandingsScreen

        stack = self.screen_stack
        if len(stack) >= 2 and isinstance(stack[-2], StandingsScreen):
            self.pop_screen()
        else:
            self.switch_screen(self.standings_screen())

    def show_history(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        """The finished sessions, filtered by game, player and period."""
        from scorekeeper.tui.screens.history import HistoryScreen

        self.push_screen(HistoryScreen(game, player, period))

    def show_statistics(self, game: str | None = None, player: str | None = None, period: str | None = None) -> None:
        """The statistics of the finished sessions, filtered by game, player and period."""
        from scorekeeper.tui.screens.statistics import StatisticsScreen

        self.push_screen(StatisticsScreen(game, player, period))

    def go_home(self) -> None:
        """Up from a session: the home screen, or the history or statistics it was opened from (it is closed)."""
        from scorekeeper.tui.screens.history import IndexedScreen
        from scorekeeper.tui.screens.home import HomeScreen

        self.doc = None
        stack = self.screen_stack
        homes = [i for i, s in enumerate(stack) if isinstance(s, (HomeScreen, IndexedScreen))]
        if homes:
            for _ in range(len(stack) - 1 - homes[-1]):
                self.pop_screen()
        else:
            self.switch_screen(self.home_screen())

    # -- start-up, and the open session's file watched -------------------------------------
    def _start_up(self) -> None:
        """Remove stale temporary files of ours, say when the folder cannot be written (SIGTERM/SIGHUP are caught
        before the app starts: `run`)."""
        import os

        from scorekeeper import store

        self.set_interval(self.watch_every, self.watch_file, name="watch the open session's file")
        if self.watch_events:  # a thread of its own for the app's life (a worker would be waited for as a task)
            folders = {self.folder, *([self.file.parent] if self.file is not None else [])}
            threading.Thread(target=self.watch_changes, args=(folders,), daemon=True,
                             name="file events of the sessions folder").start()
        for folder in {self.folder, *([self.file.parent] if self.file is not None else [])}:
            store.remove_stale_temps(folder)
        if self.folder.is_dir() and not os.access(self.folder, os.W_OK):
            self.notify(f"The folder {inert(str(self.folder))} cannot be written: sessions can be read, "
                        "not saved or created.",
                        title="Read-only folder", severity="warning", markup=False, timeout=10)

    def watch_file(self) -> None:
        """Live sessions: the open session's file changed in another place (an app in another terminal, a phone
        through `serve`): take its changes in and show them (SPEC §5, within a second)."""
        doc = self.doc
        if doc is None or self._waiting is not None:
            return
        changed = doc.poll()
        if self.renewed():
            return
        if changed is not None:
            self.replaced(*changed, remote=True)
        if self.seat is None:
            self.seat_asked(doc.path)

    def watch_changes(self, folders: set[Path]) -> None:
        """Live sessions, fast: the file system tells the moment a file of the folder changes (inotify and the like,
        through watchfiles); a change of the open session's file is taken in at once. Where events cannot be had
        (no such support, too many watches), the looks every `watch_every` seconds still see every change."""
        try:
            from watchfiles import watch

            for changes in watch(*folders, watch_filter=None, debounce=200, step=1, rust_timeout=1000,
                                 stop_event=self.stop_watching, recursive=False):
                doc = self.doc
                if doc is not None and any(Path(path).name == doc.path.name for _, path in changes):
                    self.call_from_thread(self.watch_file)
        except Exception:  # the app is closing, or events cannot be had here: the looks go on
            return

    def on_unmount(self) -> None:
        """The app is closing: the watch of file events stops."""
        self.stop_watching.set()

    def seat_asked(self, path: Path) -> None:
        """The host: a phone asks for a seat another phone holds: "let it?" (`table.ask_host`)."""
        from scorekeeper.tui import table

        table.ask_host(self, path, self.seat_asks)

    def action_join(self) -> None:
        """In a browser: this phone joins the open session, or the one highlighted in the home list, as one player's
        seat (`table.join`)."""
        from scorekeeper.tui import table

        if self.doc is not None:
            table.join(self, self.doc.path, self.doc.session.players)
            return
        entry = self.joinable()
        if entry is not None:
            table.join(self, *entry)

    def joinable(self) -> tuple[Path, tuple[str, ...]] | None:
        """The session of the folder highlighted in the home list and its players (None: none)."""
        from scorekeeper.tui.screens.home import HomeScreen

        screen = self.screen
        entry = screen.current() if isinstance(screen, HomeScreen) else None
        if entry is None or not entry.players or entry.error or entry.path.parent != self.folder:
            return None
        return entry.path, entry.players

    # -- actions ------------------------------------------------------------------------
    if not TYPE_CHECKING:  # Textual's overloads stay the types: these only narrow what a seat may be shown
        def push_screen(self, screen, *args, **kwargs):
            """A screen on top (a seat's phone: only its own, `seat_only`)."""
            return super().push_screen(self.seat_only(screen), *args, **kwargs)

        def switch_screen(self, screen):
            """A screen in place of the top one (a seat's phone: only its own, `seat_only`)."""
            return super().switch_screen(self.seat_only(screen))

    def seat_only(self, screen: Screen[Any] | str) -> Screen[Any] | str:
        """A seat's phone never reaches a screen but its own (SPEC §5): the seat, why it cannot be shown, and the
        dialogs over it (a question about its session, help); any other screen (home, a list, statistics, a
        walkthrough) or Textual's own (the command palette) is refused with a message."""
        if self.seat is None or isinstance(screen, str):
            return screen
        from textual.screen import SystemModalScreen

        from scorekeeper.tui.screens.seat import SeatScreen
        from scorekeeper.tui.screens.seat_lost import SeatLostScreen

        if isinstance(screen, (SeatScreen, SeatLostScreen)) or (
                isinstance(screen, ModalScreen) and not isinstance(screen, SystemModalScreen)):
            return screen
        path = self.file if self.file is not None else self.folder
        return SeatLostScreen(path, self.seat, f"This phone is {self.seat}'s seat: nothing else opens here.")

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Undo and redo only with a session open (dim when there is nothing to undo or redo); "join as" in a
        browser with a session open; a seat's phone has no command palette (its keys are on its screen)."""
        if action == "command_palette" and self.seat is not None:
            return False
        if action == "join":
            if not self.is_web or self.seat is not None:
                return False
            if self.doc is not None:
                return self.doc.path.parent == self.folder
            return self.joinable() is not None
        if action in ("undo", "redo"):
            if self.doc is None:
                return False
            if isinstance(self.screen, ModalScreen):
                return None
            stack = self.doc.undo_stack if action == "undo" else self.doc.redo_stack
            return True if stack else None
        return True

    def action_undo(self) -> None:
        """Undo the last change of the session (any round, any step)."""
        self._history("undo")

    def action_redo(self) -> None:
        """Redo the last undone change."""
        self._history("redo")

    @work(group="history")
    async def _history(self, which: str) -> None:
        doc = self.doc
        if doc is None:
            return
        old = doc.session
        step = doc.undo if which == "undo" else doc.redo

        def change() -> None:
            if step() is None:
                self.notify(f"Nothing to {which}.", timeout=2)

        if await self.write(change):
            self.replaced(old, doc.session)
        self.refresh_bindings()

    def action_help(self) -> None:
        """The keys of this screen and the rules of the game in brief."""
        from scorekeeper.tui.screens.help import HelpScreen

        if isinstance(self.screen, HelpScreen):
            self.pop_screen()
            return
        screen = self.screen
        bindings = [a.binding for a in screen.active_bindings.values()
                    if a.binding.description and a.binding.show and not a.binding.system]
        self.push_screen(HelpScreen(bindings, screen, self.doc.session if self.doc else None))

    def get_system_commands(self, screen: Screen[Any]) -> Iterable[SystemCommand]:
        """The command palette: the screen's keys, undo/redo, help, then Textual's (ScreenCommands adds the rest)."""
        return system_commands(self, screen, super().get_system_commands(screen))


def run(folder: Path, file: Path | None = None, seat: str | None = None) -> int:
    """Run the app on a sessions folder, or on one session file (as one player's seat); the exit code."""
    app = ScorekeeperApp(folder=folder, file=file, seat=seat)
    import signal

    caught = {sig: signal.signal(sig, app.on_signal) for sig in (signal.SIGTERM, signal.SIGHUP)}
    try:
        result = app.run()
    finally:
        if app.grace is not None:
            app.grace.cancel()
        for sig, handler in caught.items():
            signal.signal(sig, handler)
    return result if isinstance(result, int) else (app.return_code or 0)
