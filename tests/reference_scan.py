"""An independent reading of the limits the guard before parsing applies (`scorekeeper.store.reading.scan`): a
walk over a TOML text token by token, slow and plain, that stops at the first limit broken and names its line.

The tests hold the guard to it (same problem, same message, same line; the same comments and lines inside
multi-line strings when nothing is refused); the program has only the guard.
"""

from __future__ import annotations

import re

from scorekeeper.model.session import Problem
from scorekeeper.store.reading import MAX_DEPTH, MAX_DIGITS, MAX_KEY_PARTS, MAX_STRING, Scan

TOKEN = re.compile(r'''"""|\'\'\'|["'#\n\[\]{}.=,]|[0-9][0-9A-Za-z_]*|[^"'#\n\[\]{}.=,0-9]+''')
BASIC = re.compile(r'(?:[^"\\\n]+|\\.)*+')


def close_multiline(text: str, pos: int, quote: str) -> int:
    """Where a multi-line string that opened before pos ends (past its closing quotes, up to two more)."""
    while True:
        end = text.find(quote * 3, pos)
        if end < 0:
            return len(text)
        if quote == '"':
            slashes = 0
            while end - slashes > pos and text[end - slashes - 1] == "\\":
                slashes += 1
            if slashes % 2:
                pos = end + 1
                continue
        end += 3
        extra = 0
        while extra < 2 and text[end:end + 1] == quote:
            end += 1
            extra += 1
        return end


def string_end(text: str, pos: int, opening: str) -> int:
    """Where a string whose opening quotes end at pos ends (past its closing quote, when it has one)."""
    if len(opening) == 3:
        return close_multiline(text, pos, opening[0])
    if opening == '"':
        end = BASIC.match(text, pos).end()  # type: ignore[union-attr]
        return end + 1 if text[end:end + 1] == '"' else end
    end = text.find("'", pos)
    stop = text.find("\n", pos)
    end = len(text) if end < 0 else end + 1
    return min(end, stop) if stop >= 0 else end


def scan_tokens(text: str) -> Scan:
    """What the guard finds, token by token."""
    out = Scan()
    pos, line, depth, dots, size = 0, 1, 0, 0, len(text)

    def refuse(message: str) -> Scan:
        out.problem = Problem(message, line=line)
        return out

    while pos < size:
        m = TOKEN.match(text, pos)
        assert m is not None
        tok = m.group()
        pos = m.end()
        c = tok[0]
        if c == "\n":
            line += 1
            dots = 0
        elif c in "[{":
            depth += 1
            dots = 0
            if depth > MAX_DEPTH:
                return refuse(f"arrays or tables nested more than {MAX_DEPTH} deep; a session file needs 4")
        elif c in "]}":
            depth = max(0, depth - 1)
            dots = 0
        elif c in "=,":
            dots = 0
        elif c == ".":
            dots += 1
            if dots >= MAX_KEY_PARTS:
                return refuse(f"a dotted key of more than {MAX_KEY_PARTS} parts; a session file needs 4")
        elif c == "#":
            out.comments = True
            end = text.find("\n", pos)
            pos = size if end < 0 else end
        elif c in "\"'":
            end = string_end(text, pos, tok)
            if end - pos > MAX_STRING:
                return refuse(f"a text of {end - pos:,} characters; texts have at most {MAX_STRING:,}")
            lines = text.count("\n", pos, end)
            out.in_strings.update(range(line + 1, line + lines + 1))
            line += lines
            pos = end
        elif c.isdigit() and len(tok) > MAX_DIGITS:
            return refuse(f"a number of {len(tok):,} digits; numbers have at most {MAX_DIGITS}")
    return out
