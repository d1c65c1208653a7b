"""Untrusted text made safe to show: control characters escaped visibly, display widths for tables.

Names, titles, notes and card names come from files anyone can edit. Whatever is printed by the
CLI or drawn by the app passes through `inert()`, so no byte of the data can drive a terminal.
"""

from __future__ import annotations

import re
import unicodedata

# Format characters that reorder or hide text (bidi overrides and isolates); escaped like controls.
_BIDI = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_KEEP_IN_TEXT = frozenset("\u200d\ufe0e\ufe0f")  # zero-width joiner and variation selectors: emoji need them


def is_control(ch: str) -> bool:
    """True for a character that must never reach a terminal as it is (C0, DEL, C1, line separators, bidi, and
    the lone surrogates standing for the bytes of a file name that is not UTF-8)."""
    if ch in _KEEP_IN_TEXT:
        return False
    return unicodedata.category(ch) in ("Cc", "Zl", "Zp", "Cs") or ch in _BIDI


_CONTROL = "[\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff" + "".join(sorted(_BIDI)) + "]"
"""Every character `is_control` refuses (category Cc is exactly these 65 code points), for a search in one pass.

Compiled only for a text that `str.isprintable` refuses (it refuses every one of these, and more): plain text,
the common case, costs no compiling (~0.5 ms of start-up).
"""


def name_key(name: str) -> str:
    """How player names are compared, everywhere a name is checked or matched (a file's players, New session,
    rename, seats, history, statistics): Unicode's canonical caseless match (NFD, case folding, then NFC), so `Zoë`
    typed composed or decomposed, and `ZOË`, are one player."""
    if name.isascii():
        return name.casefold()
    return unicodedata.normalize("NFC", unicodedata.normalize("NFD", name).casefold())


def has_control(text: str) -> bool:
    """True when the text holds any character `is_control` refuses."""
    return not text.isprintable() and re.compile(_CONTROL).search(text) is not None


def escaped(ch: str) -> str:
    """One control character as its visible escape (`\\x1b`, `\\u202e`; a byte of a non-UTF-8 name: `\\x9b`)."""
    code = ord(ch)
    if 0xDC80 <= code <= 0xDCFF:  # a byte of a file name that is not UTF-8 (os.fsdecode's surrogateescape)
        return f"\\x{code - 0xDC00:02x}"
    if code <= 0xFF:
        return f"\\x{code:02x}"
    return f"\\u{code:04x}"


def inert(text: object, *, newlines: bool = False) -> str:
    """The text with every control character shown as an escape (`\\x1b`, `\\u202e`).

    With `newlines=True` a line feed is kept (for notes shown over several lines); every other
    control, a carriage return and a tab included, is escaped.
    """
    text = str(text)
    if text.isprintable() or not any(is_control(ch) for ch in text):
        return text
    return "".join(
        ch if (newlines and ch == "\n") or not is_control(ch) else escaped(ch) for ch in text
    )


def char_width(ch: str) -> int:
    """Columns a character takes in a terminal: 2 for wide (East Asian, most emoji), 0 for combining marks."""
    if unicodedata.combining(ch) or ch in _KEEP_IN_TEXT or unicodedata.category(ch) in ("Mn", "Me", "Cf"):
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def width(text: str) -> int:
    """Columns the text takes in a terminal (after `inert`, which callers apply first)."""
    if text.isascii() and text.isprintable():  # one column a character: the common case, at C speed
        return len(text)
    return sum(char_width(ch) for ch in text)


def ljust(text: str, columns: int) -> str:
    """The text padded with spaces on the right to `columns` display columns."""
    return text + " " * max(0, columns - width(text))


def rjust(text: str, columns: int) -> str:
    """The text padded with spaces on the left to `columns` display columns."""
    return " " * max(0, columns - width(text)) + text


def inert_lines(text: str) -> str:
    """The text with every control but the line feed as a `\\uXXXX` escape: inert in a terminal, and
    still valid inside a JSON string (where json.dumps leaves C1 and bidi characters raw)."""
    if text.replace("\n", " ").isprintable():
        return text
    return re.compile(_CONTROL).sub(_line_escaped, text)


def _line_escaped(match: re.Match[str]) -> str:
    ch = match[0]
    return ch if ch == "\n" else f"\\u{ord(ch):04x}"
