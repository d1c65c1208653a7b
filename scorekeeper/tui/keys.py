"""Keys in the order typed, across screens: each key (or paste) is handed on only once the one before it is done.

Textual hands a key to the widget that has the keyboard when the app reads it, and a key's work (a binding, a
message it posts, a screen it pushes) happens later, in the widgets' own queues. Typed fast, or sent in one burst
by tmux or a paste, the keys after ctrl+n reached the home screen's box, or a New session screen not built yet,
and were lost. Here the app holds every key and paste it reads and lets them through one at a time: the next
goes out when the one before has travelled up from the widget that took it, the messages it caused are handled,
and the screen shown then is mounted with its focus set. A node that does not answer within `PATIENCE` seconds
is not waited for longer (the keys go on as Textual would hand them). A widget that takes bursts (the step grid,
`TAKES_BURSTS`) gets the held keys together, so it draws once for them, and hands back in order every key that
comes after one that left it (a key it does not use, a screen changed).
"""

from __future__ import annotations

import asyncio
from collections import deque
from typing import Any

from textual import events, messages
from textual.app import App
from textual.dom import DOMNode
from textual.message_pump import MessagePump
from textual.screen import Screen

from scorekeeper.tui import compat

PATIENCE = 3.0
"""Seconds a node may take to handle what it was sent before the next key goes on without it."""

ROUNDS = 4
"""How many times the messages a key caused are followed through the nodes it passed (a message may cause
another)."""

Typed = events.Key | events.Paste

CUTS = {"ctrl+z", "ctrl+y"}
"""Keys that end a burst: what they change reaches the screen by a message (a replaced session)."""

LINE_FEED = "ctrl+j"
"""Read as Enter: keys typed while the program starts reach it before the terminal is in raw mode, and the terminal
has turned their Enter into a line feed."""


async def through(node: MessagePump) -> None:
    """Wait until the node has handled every message posted to it so far (at most `PATIENCE` seconds)."""
    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def finish() -> None:
        if not done.done():
            done.set_result(None)

    if not node.call_later(finish):
        return
    try:
        await asyncio.wait_for(done, PATIENCE)
    except TimeoutError:
        pass


QUIET = (messages.Prompt, messages.Update, messages.UpdateScroll, messages.Layout, events.Idle)
"""Textual's own drawing messages: a key's work never waits on them."""


def busy(node: MessagePump) -> bool:
    """Messages other than drawing wait in the node's queue."""
    return compat.busy(node, QUIET)


def fresh(event: Typed) -> Typed:
    """A new event for the same key or paste: one that Textual has not started handling (the held one may be the
    very event the app is handling now, when the queue fails at once)."""
    return events.Key(event.key, event.character) if isinstance(event, events.Key) else events.Paste(event.text)


class KeyQueue:
    """The app's typed input, let through in order, one key at a time.

    A key typed while nothing is out goes to the app at once and is followed by a small task; keys that come
    while one is out are held, and a worker lets them through in turn (the tests wait for workers).
    """

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.held: deque[Typed] = deque()
        self.out: Typed | None = None
        self.target: DOMNode | None = None
        self.task: asyncio.Task[None] | None = None
        self.running = False
        self.off = False
        self.stack: tuple[int, ...] = ()
        self.batch: set[int] = set()
        self.cut = False
        self.bounced: Typed | None = None
        self.back: list[Typed] = []
        self.seen: set[int] = set()

    def hold(self, event: events.Event) -> bool:
        """True when the app must not handle `event` now: a key or paste read from the terminal, kept for its
        turn. The one being let through, and keys already handed to a widget (bubbling back up), pass."""
        if self.off or not isinstance(event, (events.Key, events.Paste)) or event.is_forwarded or event is self.out:
            return False
        if isinstance(event, events.Key) and event.key == LINE_FEED:
            event = events.Key("enter", "\r")
        elif not self.running and self.task is None and not self.held and self.steady():
            self.out, self.target = event, None
            return False
        self.held.append(event)
        if not self.running:
            self.running = True
            # Started once the app is done with this event, on every Python (3.12+ runs a new task's first step
            # at once): the drain never runs inside the handling of the key it holds.
            self.app.call_later(self.start)
        return True

    def start(self) -> None:
        """Let the held keys through, in a worker (the tests wait for workers)."""
        self.app.run_worker(self.drain(), group="typed-keys", description="keys in typing order",
                            exit_on_error=False)

    def steady(self) -> bool:
        """The screens are those the last key found, the top one mounted."""
        return tuple(id(s) for s in self.app.screen_stack) == self.stack and self.app.screen.is_mounted

    def handled(self, event: events.Event) -> None:
        """The app has handled the key let through: note where it was handed on (none: a priority binding); a key
        let through at once is followed by a task."""
        if event is not self.out:
            return
        if event.is_forwarded:
            self.target = self.app.focused or self.app.screen
        if not self.running:
            if self.target is None:
                self.out = None
            else:
                self.task = asyncio.get_running_loop().create_task(self.followed(event, self.target))

    async def followed(self, event: Typed, target: DOMNode) -> None:
        """Follow a key let through at once; then nothing is out."""
        try:
            await self.follow(event, target)
        except Exception:
            self.off = True
        finally:
            if self.out is event:
                self.out = self.target = None
            self.task = None

    async def drain(self) -> None:
        """Let the held keys through, each once the one before is done (should this ever fail, the keys held and
        all later ones go straight to the app, as Textual hands them: never lost)."""
        try:
            if self.task is not None:
                await self.task
            while self.held:
                await self.ready()
                if await self.burst():
                    continue
                event = self.held.popleft()
                self.out, self.target = event, None
                if not self.app.post_message(event):
                    continue
                await through(self.app)
                if self.target is not None:
                    await self.follow(event, self.target)
        except Exception:
            self.off = True
            while self.held:
                self.app.post_message(fresh(self.held.popleft()))
        finally:
            self.out = self.target = None
            self.running = False

    async def burst(self) -> bool:
        """Keys for a widget that takes bursts (the step grid) go to it together, as Textual would hand them, so
        it draws once for them all; it hands back, in order, every key that comes after one that left it (a
        key it did not use, a screen changed). True when a burst went."""
        widget = self.app.focused
        if not getattr(widget, "TAKES_BURSTS", False) or widget is None:
            return False
        run: list[events.Key] = []
        for event in self.held:
            if not isinstance(event, events.Key) or event.key in CUTS or self.priority(event.key):
                break
            run.append(event)
        if len(run) < 2:
            return False
        for _ in run:
            self.held.popleft()
        self.batch, self.cut, self.bounced, self.back = {id(e) for e in run}, False, None, []
        self.seen = set()
        try:
            for event in run:
                compat.forward(widget, event)
            await through(widget)
            for _ in range(ROUNDS):
                if len(self.seen) == len(run) or not widget.is_running or compat.closing(widget):
                    break
                await through(widget)
            if compat.closing(widget) or compat.closed(widget):
                task = compat.task_of(widget)
                if task is not None:
                    await asyncio.wait({task}, timeout=PATIENCE)
            if self.bounced is not None:
                await self.follow(self.bounced, widget)
        finally:
            unseen: list[Typed] = [events.Key(e.key, e.character) for e in run if id(e) not in self.seen]
            self.held.extendleft(reversed(self.back + unseen))
            self.batch, self.cut, self.bounced, self.back = set(), False, None, []
        return True

    def priority(self, key: str) -> bool:
        """The key has a priority binding (the app must see it first)."""
        return compat.priority_keys(self.app.screen, key)

    def taken(self, widget: DOMNode, event: events.Key) -> bool:
        """For a widget that takes bursts, before it uses a key: True when the key goes back to the queue (a key
        of the burst after one that left the widget, or the widget is no longer where keys go)."""
        if id(event) not in self.batch:
            return False
        self.seen.add(id(event))
        try:
            moved = widget.screen is not self.app.screen or self.app.focused is not widget
        except Exception:
            moved = True
        if self.cut or moved:
            self.cut = True
            event.stop()
            event.prevent_default()
            self.back.append(events.Key(event.key, event.character))
            return True
        return False

    def left(self, event: events.Key) -> None:
        """The widget did not use a key of the burst: it goes on up (to a binding); the keys after it come back."""
        if id(event) in self.batch:
            self.cut = True
            self.bounced = event

    async def follow(self, event: Typed, target: DOMNode) -> None:
        """Wait for the key to travel up from the widget that took it, then for the messages it caused there."""
        nodes: list[MessagePump] = []
        up: DOMNode | None = target
        while up is not None and not isinstance(up, App):
            nodes.append(up)
            up = up.parent
        for node in nodes:
            if compat.propagation_stopped(event):
                break
            await through(node)
        # The app last, whether the key went up to it or not: what the key's work asked of it (a focus moved by
        # `Widget.focus`, a `call_later`) is done before the next key is handed to the widget focused then.
        await through(self.app)
        for _ in range(ROUNDS):
            waiting = [n for n in nodes if busy(n)]
            if not waiting:
                break
            for pump in waiting:
                await through(pump)

    async def ready(self) -> None:
        """The screen shown is mounted, its focus set, and what it was sent (a resume) handled: when the screens
        changed since the last key, wait for the app and the screen on top."""
        for _ in range(ROUNDS):
            stack = tuple(id(s) for s in self.app.screen_stack)
            if stack == self.stack and self.app.screen.is_mounted:
                return
            await through(self.app)
            screen: Screen[Any] = self.app.screen
            await through(screen)
            if screen is self.app.screen:
                self.stack = tuple(id(s) for s in self.app.screen_stack)
                return
