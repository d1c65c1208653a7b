"""The table's seats (SPEC §5, "join as one seat"): which phone holds which player's seat of a session, and the
seat links `serve` gives them.

The registry is a small JSON file per session in the sessions folder's `.seats/` folder, read and written under
the session folder's lock (every phone is its own app process, the host may be a terminal app): each holder
beats every few seconds, and a seat whose phone vanished is free again after `STALE` seconds. A second phone
asking for a held seat is recorded as asking; the host's app answers (`answer`) and the phones read the outcome
at their next beat. Its content is untrusted, like a cache: anything not exactly as written here is dropped.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import os
import secrets
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TypeVar

T = TypeVar("T")

FOLDER = ".seats"
BEAT = 2.0
"""Seconds between two beats of a seat's phone."""
STALE = 10.0
"""Seconds without a beat after which a seat is free again (its phone was closed, or lost its network)."""
MAX_BYTES = 64 * 1024
MAX_NAME = 200
HELD, TAKEN, REFUSED = "held", "taken", "refused"
"""What asking for a seat gives: the seat is this phone's; another phone holds it (the host is asked); the host
said no."""


@dataclass(frozen=True)
class Seat:
    """One held seat: the phone holding it, since when and its last beat; a phone asking for it and since when;
    the last phone the host refused (told once, at its next ask)."""

    phone: str
    since: float
    beat: float
    asker: str | None = None
    asked: float | None = None
    refused: str | None = None

    def fresh(self, now: float) -> bool:
        """Whether its phone beat within `STALE` seconds."""
        return now - self.beat <= STALE


Seats = dict[str, Seat]
"""The seats of one session by player name (a player not in it: the seat is free)."""


def new_phone() -> str:
    """A phone's id: random, for the registry only (it opens nothing)."""
    return secrets.token_hex(8)


# -- pure: the rules of the seats -------------------------------------------------------------
def player_named(players: Sequence[str], name: str) -> str | None:
    """The player of a session whose seat a name asks for, names compared as everywhere (`text.name_key`: `zoë`
    asks for `Zoë`, typed composed or not); None when no player has that name."""
    from scorekeeper.text import name_key

    key = name_key(name)
    return next((p for p in players if name_key(p) == key), None)


def claim(seats: Seats, player: str, phone: str, now: float) -> tuple[Seats, str]:
    """A phone asks for (or keeps) a player's seat: HELD when it is free, stale, or this phone's already (a beat);
    TAKEN when another phone holds it (this phone is recorded as asking the host); REFUSED once after the host
    said no."""
    out = dict(seats)
    seat = seats.get(player)
    if seat is not None and seat.phone == phone and seat.fresh(now):
        out[player] = replace(seat, beat=now)  # a beat: a phone asking meanwhile still waits for the host
        return out, HELD
    if seat is None or not seat.fresh(now):
        out[player] = Seat(phone, now, now)
        return out, HELD
    if seat.refused == phone:
        out[player] = replace(seat, refused=None)
        return out, REFUSED
    if seat.asker in (None, phone) or seat.asked is None or now - seat.asked > STALE:
        out[player] = replace(seat, asker=phone, asked=now)
    return out, TAKEN


def holds(seats: Seats, player: str, phone: str, now: float) -> bool:
    """Whether this phone holds the player's seat now."""
    seat = seats.get(player)
    return seat is not None and seat.phone == phone and seat.fresh(now)


def release(seats: Seats, player: str, phone: str) -> Seats:
    """The phone leaves the seat (only its own)."""
    out = dict(seats)
    seat = out.get(player)
    if seat is not None and seat.phone == phone:
        del out[player]
    return out


def asks(seats: Seats, now: float) -> list[tuple[str, Seat]]:
    """The seats a second phone asks for now (held by a phone that still beats), for the host's question."""
    return [(player, seat) for player, seat in seats.items()
            if seat.asker is not None and seat.asked is not None and seat.fresh(now) and now - seat.asked <= STALE]


def answer(seats: Seats, player: str, let: bool, now: float) -> Seats:
    """The host's answer to the phone asking for a seat: it gets the seat, or is told no."""
    out = dict(seats)
    seat = out.get(player)
    if seat is None or seat.asker is None:
        return out
    if let:
        out[player] = Seat(seat.asker, now, now)
    else:
        out[player] = replace(seat, asker=None, asked=None, refused=seat.asker)
    return out


def status(before: str, outcome: str) -> str:
    """What a seat's phone is after a claim's outcome (`before`: what it was): `held` (it types), `lost` (it held
    the seat, the host gave it to another phone), `refused` (the host said no), else `asking` (another phone holds
    the seat: the host is asked). A phone neither asking nor holding (`gone`) stays so when the claim holds."""
    if outcome == HELD:
        return "held" if before in ("asking", "held") else before
    if before == "held":
        return "lost"
    return "refused" if outcome == REFUSED else "asking"


# -- seat links ---------------------------------------------------------------------------------
def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, file: str, player: str) -> str:
    message = b"scorekeeper seat\0" + file.encode("utf-8", "surrogateescape") + b"\0" + player.encode("utf-8")
    return _b64(hmac.new(secret, message, hashlib.sha256).digest())


def seat_token(secret: bytes, file: str, player: str) -> str:
    """The path segment of a seat's link: the session's file name and the player, signed with the server's secret
    (HMAC-SHA256). It opens that seat of that session only; the table's token cannot be found from it."""
    return ".".join(("seat", _b64(file.encode("utf-8", "surrogateescape")), _b64(player.encode("utf-8")),
                     _mac(secret, file, player)))


def read_seat_token(secret: bytes, token: str) -> tuple[str, str] | None:
    """The (file name, player) of a seat link signed with this secret; None for anything else (a tampered one)."""
    parts = token.split(".")
    if len(parts) != 4 or parts[0] != "seat" or len(token) > 1024:
        return None
    try:
        file = _unb64(parts[1]).decode("utf-8", "surrogateescape")
        player = _unb64(parts[2]).decode("utf-8")
    except (ValueError, UnicodeDecodeError):
        return None
    if not hmac.compare_digest(parts[3].encode("ascii", "replace"), _mac(secret, file, player).encode("ascii")):
        return None
    if not plain_name(file) or not player or len(player) > MAX_NAME:
        return None
    return file, player


def plain_name(file: str) -> bool:
    """A session's file name directly in the sessions folder (no folder, no hidden file): what a seat may open."""
    return (bool(file) and len(file) <= MAX_NAME and "/" not in file and "\0" not in file
            and not file.startswith(".") and file.endswith(".toml"))


# -- the registry file -------------------------------------------------------------------------
def registry_path(session_file: Path) -> Path:
    """Where the seats of a session are kept: `.seats/<file name>.json` beside it."""
    return session_file.parent / FOLDER / f"{session_file.name}.json"


def parse(text: str) -> Seats:
    """The seats in a registry file's text; whatever is not as written by `dump` is dropped (a damaged or
    hand-made file frees the seats it garbles, nothing more)."""
    if len(text) > MAX_BYTES:
        return {}
    try:
        raw = json.loads(text)
    except ValueError:
        return {}
    if not isinstance(raw, dict) or raw.get("format") != 1 or not isinstance(raw.get("seats"), dict):
        return {}
    out: Seats = {}
    for player, value in raw["seats"].items():
        seat = _seat(value)
        if isinstance(player, str) and 0 < len(player) <= MAX_NAME and seat is not None:
            out[player] = seat
    return out


def _seat(value: object) -> Seat | None:
    if not isinstance(value, dict) or set(value) - {"phone", "since", "beat", "asker", "asked", "refused"}:
        return None

    def phone(v: object) -> bool:
        return isinstance(v, str) and 0 < len(v) <= 64 and all(c in "0123456789abcdef" for c in v)

    def time(v: object) -> bool:
        return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) and 0 <= v < 1e11

    if not phone(value.get("phone")) or not time(value.get("since")) or not time(value.get("beat")):
        return None
    asker, asked, refused = value.get("asker"), value.get("asked"), value.get("refused")
    if (asker is None) != (asked is None) or (asker is not None and not (phone(asker) and time(asked))):
        asker = asked = None
    if refused is not None and not phone(refused):
        refused = None
    return Seat(value["phone"], float(value["since"]), float(value["beat"]), asker,
                float(asked) if asked is not None else None, refused)


def dump(seats: Seats) -> str:
    """The registry file's text."""
    body = {player: {k: v for k, v in vars(seat).items() if v is not None} for player, seat in sorted(seats.items())}
    return json.dumps({"format": 1, "seats": body}, ensure_ascii=True, indent=1) + "\n"


def load(session_file: Path) -> Seats:
    """The seats of a session now (none when there is no registry, or it cannot be read)."""
    try:
        with open(registry_path(session_file), "rb") as handle:
            data = handle.read(MAX_BYTES + 1)
    except OSError:
        return {}
    return parse(data.decode("utf-8", "replace"))


def update(session_file: Path, change: Callable[[Seats], tuple[Seats, T]]) -> tuple[Seats, T]:
    """Read the seats, apply `change` (a function of the seats giving (seats, result)) and write them back,
    atomically and under the session folder's lock; the seats and the result. OSError when they cannot be
    written (a read-only folder)."""
    from scorekeeper import store

    path = registry_path(session_file)
    with store.folder_lock(session_file.parent):
        before = load(session_file)
        after, result = change(before)
        if after != before:
            if path.parent.is_symlink():
                raise OSError(40, "the seats folder is a link", str(path.parent))
            if not path.parent.is_dir():
                os.mkdir(path.parent, 0o700)
            store.write_atomic(path, dump(after), mode=0o600)
    return after, result
