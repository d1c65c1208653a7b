"""Every private name of Textual the app uses, in one place (Textual is pinned exactly in pyproject.toml).

Each function says what public API is missing for it; tests/test_compat.py has a canary per name that fails with
a clear message when an upgrade of Textual removes or renames one. Nothing else in the project touches a name of
Textual that starts with an underscore.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any

from textual import events
from textual import keys as textual_keys
from textual.app import App
from textual.binding import Binding
from textual.geometry import Size
from textual.message_pump import MessagePump
from textual.reactive import Reactive
from textual.screen import Screen
from textual.widget import Widget

if TYPE_CHECKING:
    from rich.console import RenderableType
    from textual.driver import Driver
    from textual.notifications import Notification

NAMES = {
    "MessagePump._message_queue": (MessagePump, "_message_queue"),
    "MessagePump._closing": (MessagePump, "_closing"),
    "MessagePump._closed": (MessagePump, "_closed"),
    "MessagePump._task": (MessagePump, "_task"),
    "Widget._forward_event": (Widget, "_forward_event"),
    "Screen._binding_chain": (Screen, "_binding_chain"),
    "Message._stop_propagation": (events.Key, "_stop_propagation"),
    "textual.content._strip_control_codes": (None, "_strip_control_codes"),
    "textual.keys._character_to_key": (textual_keys, "_character_to_key"),
    "App._notifications": (App, "_notifications"),
    "App._display": (App, "_display"),
    "App._driver": (App, "_driver"),
    "App._batch_count": (App, "_batch_count"),
    "Screen._compositor_refresh": (Screen, "_compositor_refresh"),
    "Widget._default_virtual_size": (Widget, "_default_virtual_size"),
}
"""The private names used here, each with the class (or module) that has it: the canary test's list."""


def busy(node: MessagePump, quiet: tuple[type, ...]) -> bool:
    """Messages other than the `quiet` kinds wait in the node's queue (Textual has no public look at a queue)."""
    queue = getattr(node, "_message_queue", None)
    if queue is None or queue.empty():
        return False
    waiting: Iterable[object] | None = getattr(queue, "_queue", None)  # asyncio.Queue's deque
    return waiting is None or any(not isinstance(m, quiet) for m in waiting)


def forward(widget: Widget, event: events.Event) -> None:
    """Hand an event to the widget as the app hands it a key (`post_message` would not mark it forwarded)."""
    widget._forward_event(event)


def closing(node: MessagePump) -> bool:
    """The node is being removed (no public flag before `is_running` turns false)."""
    return bool(getattr(node, "_closing", False))


def closed(node: MessagePump) -> bool:
    """The node has been removed."""
    return bool(getattr(node, "_closed", False))


def task_of(node: MessagePump) -> Any:
    """The asyncio task that runs the node's message loop, if any (to wait for a screen being popped)."""
    return getattr(node, "_task", None)


def binding_chain(screen: Screen[Any]) -> Iterable[tuple[object, Any]]:
    """The bindings a key would meet from the focused widget up to the app, nearest first."""
    return screen._binding_chain


def priority_keys(screen: Screen[Any], key: str) -> bool:
    """The key has a priority binding on the way up from the focused widget (the app must see it first)."""
    return any(isinstance(b, Binding) and b.priority
               for _, bindings in binding_chain(screen) for b in bindings.key_to_bindings.get(key, ()))


def propagation_stopped(event: events.Event) -> bool:
    """`event.stop()` was called (Textual has the setter, not the getter)."""
    return bool(event._stop_propagation)


def replace_control_code_stripping(escape: Callable[..., str]) -> bool:
    """Make Textual's `Content` run `escape` where it would strip only a few control codes (it lets ESC and C1
    through); False when this Textual has no such function (the screens escape untrusted text themselves)."""
    import textual.content

    if not callable(getattr(textual.content, "_strip_control_codes", None)):
        return False
    textual.content._strip_control_codes = escape
    return True


def virtual_size_without_layout() -> Reactive[Size]:
    """A `virtual_size` for a widget whose content grows inside a width the screen fixes (Textual's Input sets its
    virtual size at each key, and that lays the whole screen out again): declared on the subclass, it draws only
    the widget. Textual has no public switch for it; redeclaring the reactive sets the class's private
    `_default_virtual_size` (Reactive's own bookkeeping), which the canary checks."""
    return Reactive(Size(0, 0), layout=False)


def character_key(char: str) -> str:
    """The key name Textual gives a typed character (`a`, `full_stop`, `space`), as a terminal's driver makes it:
    the tests' bursts post such keys (Textual has no public function for it; `Pilot.press` uses this one)."""
    name: str = textual_keys._character_to_key(char)
    return name


# -- for the tests and the benches: what the app said, and when a frame is out -------------------------------------
def notifications(app: App[Any]) -> list[Notification]:
    """The notifications the app holds now, the expired ones left out (Textual shows them as toasts, which a test
    app does not draw unless asked, and has no public read of them: the tests check what the app said)."""
    return list(app._notifications)


def _replace(owner: object, name: str, value: object) -> None:
    """Put `value` in place of the private method `name` of NAMES on `owner` (an instance or a class)."""
    setattr(owner, NAMES[name][1], value)


def after_each_refresh(screen: Screen[Any], then: Callable[[], None]) -> None:
    """Call `then` each time the screen has rendered a frame from its compositor (Textual has no public hook after
    a frame: the keys bench times a key to the first frame that shows it)."""
    render = screen._compositor_refresh

    def refreshed() -> None:
        render()
        then()

    _replace(screen, "Screen._compositor_refresh", refreshed)


def after_each_display(then: Callable[[App[Any], RenderableType | None], None]) -> Callable[[], None]:
    """Call `then(app, renderable)` each time an app has handed a frame to its driver (Textual has no public hook
    after a frame is out: the benches time a key, or the start, to it); returns the function that takes it off."""
    shown = App._display

    def display(self: App[Any], screen: Screen[Any], renderable: RenderableType | None) -> None:
        shown(self, screen, renderable)
        then(self, renderable)

    _replace(App, "App._display", display)
    return lambda: _replace(App, "App._display", shown)


def held_for_batch(app: App[Any]) -> bool:
    """The app is inside a batch update: a frame handed to the driver now is not drawn (no public flag)."""
    return bool(app._batch_count)


def driver(app: App[Any]) -> Driver | None:
    """The app's driver, which posts what the terminal sends (a bench posts a key as a terminal does; Textual has
    no public property for it)."""
    return app._driver
