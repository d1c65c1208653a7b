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
import errno
import hashlib
import hmac
import json
import math
import os
import secrets
import stat
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
MAX_FILE_NAME = 255
"""Bytes in a session's file name (what a file system allows)."""
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
    from scorekeeper.model.text import name_key

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
    the seat: the host is asked). A phone neither asking nor holding (`gone`) stays so when the claim holds; one
    whose seats could not be kept (`unkept`) is asking again."""
    if outcome == HELD:
        return "held" if before in ("asking", "held", "unkept") else before
    if before == "held":
        return "lost"
    return "refused" if outcome == REFUSED else "asking"


# -- seat links ---------------------------------------------------------------------------------
def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    """The bytes of a link's part, which must be spelled exactly as `_b64` spells them (no other padding bits,
    letters or `=`): one link a seat, never a second spelling of it. ValueError for anything else."""
    data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    if not hmac.compare_digest(_b64(data).encode("ascii"), text.encode("ascii", "replace")):
        raise ValueError("not the one spelling of these bytes")
    return data


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
    """A session's file name directly in the sessions folder (no folder, no hidden file, at most the 255 bytes a
    file name has): what a seat may open."""
    return (bool(file) and len(file.encode("utf-8", "surrogateescape")) <= MAX_FILE_NAME and "/" not in file
            and "\0" not in file and not file.startswith(".") and file.endswith(".toml"))


# -- the registry file -------------------------------------------------------------------------
class RegistryError(OSError):
    """The seats of a session cannot be kept (`.seats` is a link, not a folder, or cannot be written): its
    `strerror` says why, for the phone and the host."""


_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_QUICK = getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_CLOEXEC", 0)
"""Every open here: never waits (a FIFO, a device), never takes a terminal, never leaks into a child."""
_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _QUICK


def registry_name(session_name: str) -> str:
    """The registry's file name of a session: one per session's file name, and short whatever that name's length."""
    return hashlib.sha256(session_name.encode("utf-8", "surrogateescape")).hexdigest()[:40] + ".json"


def registry_path(session_file: Path) -> Path:
    """Where the seats of a session are kept: `.seats/<hash of its file name>.json` beside it."""
    return session_file.parent / FOLDER / registry_name(session_file.name)


def _why(exc: OSError, entry: bool = False) -> str:
    """What a failure to keep the seats means, in the user's words."""
    if exc.errno in (errno.ELOOP, errno.ENOTDIR, errno.EEXIST) and not entry:
        return (f"{FOLDER} in the sessions folder is a link or not a folder; seats are kept only in a real folder "
                f"there (remove {FOLDER})")
    if exc.errno in (errno.EACCES, errno.EPERM, errno.EROFS):
        return "the sessions folder cannot be written (it is read-only)"
    if exc.errno in (errno.EISDIR, errno.ENOTEMPTY, errno.EEXIST):
        return f"the session's entry in {FOLDER} is a folder (remove it)"
    return exc.strerror or type(exc).__name__


def _refused(exc: OSError, session_file: Path, entry: bool = False) -> RegistryError:
    return RegistryError(exc.errno or errno.EIO, f"the seats cannot be kept: {_why(exc, entry)}",
                         str(session_file.parent / FOLDER))


def _open_folder(session_file: Path, make: bool) -> int | None:
    """A descriptor on `.seats`, a real folder in the session's folder (made when `make`); None when there is none
    and `make` is false. RegistryError when it is a link, not a folder, or cannot be made."""
    try:
        top = os.open(session_file.parent, _DIRECTORY)
    except OSError as exc:
        raise _refused(exc, session_file) from None
    try:
        if make:
            try:
                os.mkdir(FOLDER, 0o700, dir_fd=top)
            except FileExistsError:
                pass
        return os.open(FOLDER, _DIRECTORY | _NOFOLLOW, dir_fd=top)
    except FileNotFoundError as exc:
        if make:
            raise _refused(exc, session_file) from None
        return None
    except OSError as exc:
        raise _refused(exc, session_file) from None
    finally:
        os.close(top)


def _read(folder: int, name: str) -> bytes:
    """A registry entry's bytes: a regular file only (never a link, FIFO or device), at most MAX_BYTES + 1; nothing
    for anything else. Never waits on the file."""
    try:
        fd = os.open(name, os.O_RDONLY | _NOFOLLOW | _QUICK, dir_fd=folder)
    except OSError:
        return b""
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_BYTES:
            return b""
        chunks, total = [], 0
        while total <= MAX_BYTES and (chunk := os.read(fd, MAX_BYTES + 1 - total)):
            chunks.append(chunk)
            total += len(chunk)
        return b"".join(chunks)
    except OSError:
        return b""
    finally:
        os.close(fd)


def _write(folder: int, name: str, text: str) -> None:
    """Replace a registry entry atomically (a temporary file, fsync, rename), 0600 whatever it was before."""
    tmp = f".{name}.{secrets.token_hex(4)}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _QUICK, 0o600, dir_fd=folder)
    try:
        try:
            os.fchmod(fd, 0o600)
            data = memoryview(text.encode("ascii"))
            while data:
                data = data[os.write(fd, data):]
            os.fsync(fd)
        finally:
            os.close(fd)
        os.replace(tmp, name, src_dir_fd=folder, dst_dir_fd=folder)
    except BaseException:
        try:
            os.unlink(tmp, dir_fd=folder)
        except OSError:
            pass
        raise


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
        folder = _open_folder(session_file, make=False)
    except OSError:
        return {}
    if folder is None:
        return {}
    try:
        return parse(_read(folder, registry_name(session_file.name)).decode("utf-8", "replace"))
    finally:
        os.close(folder)


def update(session_file: Path, change: Callable[[Seats], tuple[Seats, T]]) -> tuple[Seats, T]:
    """Read the seats, apply `change` (a function of the seats giving (seats, result)) and write them back,
    atomically and under the session folder's lock; the seats and the result. RegistryError when they cannot be
    kept (a read-only folder, `.seats` a link or not a folder). Nothing under the lock waits on a file."""
    from scorekeeper import store

    name = registry_name(session_file.name)
    with store.folder_lock(session_file.parent):
        folder = _open_folder(session_file, make=False)
        try:
            before = parse(_read(folder, name).decode("utf-8", "replace")) if folder is not None else {}
            after, result = change(before)
            if after != before:
                if folder is None:
                    folder = _open_folder(session_file, make=True)
                assert folder is not None
                try:
                    _write(folder, name, dump(after))
                except OSError as exc:
                    raise _refused(exc, session_file, entry=True) from None
        finally:
            if folder is not None:
                os.close(folder)
    return after, result


def problem(session_file: Path) -> str | None:
    """Why the seats of a session cannot be kept (asked before a phone joins), or None when they can."""
    try:
        folder = _open_folder(session_file, make=True)
        assert folder is not None
    except RegistryError as exc:
        return exc.strerror
    try:
        tmp = f".{registry_name(session_file.name)}.{secrets.token_hex(4)}.tmp"
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | _NOFOLLOW | _QUICK, 0o600, dir_fd=folder))
        os.unlink(tmp, dir_fd=folder)
        if stat.S_ISDIR(os.stat(registry_name(session_file.name), dir_fd=folder, follow_symlinks=False).st_mode):
            raise IsADirectoryError(errno.EISDIR, "a folder")
    except FileNotFoundError:
        return None
    except OSError as exc:
        return _refused(exc, session_file, entry=True).strerror
    finally:
        os.close(folder)
    return None
