"""The app's last guard for the terminal: every text Textual draws has its control characters escaped."""

from __future__ import annotations

from typing import Any

from scorekeeper.text import is_control

_guarded = False


def _escape(text: str, *_: Any) -> str:
    """Textual's control-code filter, replaced: controls shown as escapes instead of passed or dropped."""
    if text.isprintable():
        return text
    return "".join(
        ch if ch in "\n\t" or not is_control(ch) else (f"\\x{ord(ch):02x}" if ord(ch) <= 0xFF else f"\\u{ord(ch):04x}")
        for ch in text
    )


def guard_terminal() -> None:
    """Make Textual escape control characters in every Content it builds (titles, lists, toasts, inputs).

    The screens already show untrusted text through `scorekeeper.text.inert`; this catches any path
    that forgets. Textual strips only BEL, BS, VT, FF and CR on its own and lets ESC and C1 through.
    """
    global _guarded
    if _guarded:
        return
    import textual.content

    if callable(getattr(textual.content, "_strip_control_codes", None)):
        textual.content._strip_control_codes = _escape  # type: ignore[assignment]
    _guarded = True
