"""The app's last guard for the terminal: every text Textual draws has its control characters escaped."""

from __future__ import annotations

import re
from typing import Any

CONTROLS = "[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]"
"""Every character `scorekeeper.model.text.is_control` refuses, but for the line feed and the tab Textual lays out: none
of them is printable (`str.isprintable`), so a printable text needs no look for them (nor the pattern compiled)."""

_guarded = False


def _shown(match: re.Match[str]) -> str:
    from scorekeeper.model.text import escaped

    return escaped(match.group())


def escape_controls(text: str, *_: Any) -> str:
    """Textual's control-code filter, replaced: controls shown as escapes instead of passed or dropped."""
    if text.isprintable() or text.replace("\n", "").replace("\t", "").isprintable():
        return text
    return re.sub(CONTROLS, _shown, text)


def guard_terminal() -> None:
    """Make Textual escape control characters in every Content it builds (titles, lists, toasts, inputs).

    The screens already show untrusted text through `scorekeeper.model.text.inert`; this catches any path
    that forgets. Textual strips only BEL, BS, VT, FF and CR on its own and lets ESC and C1 through.
    """
    global _guarded
    if _guarded:
        return
    from scorekeeper.tui.compat import replace_control_code_stripping

    replace_control_code_stripping(escape_controls)
    _guarded = True
