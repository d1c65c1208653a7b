"""Session files written: TOML laid out for people, saved atomically under the folder's lock, kept in the trash,
and the folder's own names (new files, `exports/`, `trash/`); no game rules. Reading is `scorekeeper.store.reading`.
"""

from __future__ import annotations

import errno
import functools
import os
import re
import stat
import unicodedata
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any

from scorekeeper.model.memo import PerRound
from scorekeeper.model.session import Session, SessionError
from scorekeeper.store import reading
from scorekeeper.store.paths import leads_out

if TYPE_CHECKING:  # pathlib is imported where a path is made
    from collections.abc import Callable
    from pathlib import Path


# -- TOML out ---------------------------------------------------------------------------
def to_dict(session: Session) -> dict[str, Any]:
    """The TOML document of a session, keys in the contract's order."""
    return session.as_document([{"players": r.players} if r.players else {} for r in session.rounds])


def dumps(session: Session) -> str:
    """A session as TOML text, laid out for people: one `[[rounds]]` table per round and one
    `[rounds.players.NAME]` table per player, small tables inline (`attractions = { 1 = 1, 8 = 5 }`).

    Every key and value is written by tomli-w; only the layout is chosen here.
    """
    doc = session.as_document([])
    doc.pop("rounds", None)
    rules = doc.pop("rules", None)
    out = ["".join(_line(k, v) for k, v in doc.items())]
    if rules:
        out.append("\n[rules]\n" + "".join(_line(k, v) for k, v in rules.items()))
    out.extend(WRITTEN.get(rnd, None, None, functools.partial(_round_text, rnd.players)) for rnd in session.rounds)
    return "".join(out)


WRITTEN: PerRound[str] = PerRound()
"""Each round's text, by the round's value (a save writes again only the rounds that changed)."""


def _round_text(players: dict[str, dict[str, Any]]) -> str:
    """A round's `[[rounds]]` table and a `[rounds.players.NAME]` table per player."""
    out = ["\n[[rounds]]\n"]
    for name, entry in players.items():
        out.append(f"\n[rounds.players.{_key(name)}]\n" + "".join(_line(k, v) for k, v in entry.items()))
    return "".join(out)


@functools.lru_cache(maxsize=1024)
def _key(key: str) -> str:
    """A TOML key as tomli-w writes it (bare when it can be, else quoted)."""
    import tomli_w  # here, not at the top: reading a session never needs it

    return tomli_w.dumps({key: 0}).rsplit(" = ", 1)[0]


def _inline(value: Any) -> str:
    """A value on one line: tables as inline tables, everything else as tomli-w writes it."""
    if isinstance(value, dict):
        if not value:
            return "{}"
        return "{ " + ", ".join(f"{_key(k)} = {_inline(v)}" for k, v in value.items()) + " }"
    if isinstance(value, list):
        return "[" + ", ".join(_inline(v) for v in value) + "]"
    if type(value) is int or type(value) is bool:  # as tomli-w writes them, without its cost per value
        return str(value).lower() if type(value) is bool else str(value)
    import tomli_w

    return tomli_w.dumps({"v": value}, multiline_strings=False)[4:].rstrip("\n")


def _line(key: str, value: Any) -> str:
    """`key = value` on one line; a list of tables, or a long list, one item a line."""
    line = f"{_key(key)} = {_inline(value)}\n"
    if isinstance(value, list) and value and (all(isinstance(v, dict) for v in value) or len(line) > 80):
        body = "".join(f"    {_inline(v)},\n" for v in value)
        return f"{_key(key)} = [\n{body}]\n"
    return line


# -- atomic saves, the folder's lock, the trash ---------------------------------------------
class ReadOnlyError(PermissionError):
    """The session file is read-only (no write permission bit set, or not ours to write): it is never written."""


class TooBig(OSError):
    """The session would make a file over reading.MAX_FILE_BYTES, which could not be read back: it is not written."""


class ChangedOnDisk(Exception):
    """The file is not what the writer last read or wrote: another program changed it."""


def umask() -> int:
    """The process's umask (read without changing it where the system tells it)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    old = os.umask(0o022)
    os.umask(old)
    return old


def is_read_only(path: Path | str) -> bool:
    """True when the file exists and is read-only: no write bit at all (0444), or we may not write it; a
    symbolic link is read-only too (never written through)."""
    if is_link(path):
        return True
    try:
        st = os.stat(path)
    except OSError:
        return False
    return not st.st_mode & 0o222 or not os.access(path, os.W_OK)


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_atomic(path: Path, text: str, *, exclusive: bool = False, errors: str = "strict",
                 mode: int | None = None) -> None:
    """Write text to path atomically: a temporary file in the same folder, fsync, rename (`errors`: how the
    UTF-8 encoding treats what it cannot encode, as in `str.encode`).

    An existing file keeps its mode and group; a new one gets `mode`, or 0666 less the umask. With
    `exclusive`, an existing name is never replaced (FileExistsError): the temporary file is
    hard-linked to its name, which fails when the name is taken. The temporary file is locked
    while it is written, so `remove_stale_temps` never takes a file being written. No symbolic
    link is followed in the folder: a link at the name is replaced (or, with `exclusive`, counts as
    taken), never written through; everything is done relative to the folder opened once.
    """
    import fcntl
    import secrets  # imported here: reading and scoring never write
    from pathlib import Path

    path = Path(path)
    folder = path.parent
    folder.mkdir(parents=True, exist_ok=True)
    dir_fd = os.open(folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        create = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)
        for _ in range(100):
            tmp = f".{path.name}.{secrets.token_hex(4)}.tmp"
            try:
                fd = os.open(tmp, create, 0o600, dir_fd=dir_fd)
                break
            except FileExistsError:
                continue
        else:
            raise FileExistsError(errno.EEXIST, "no free temporary name", str(folder))
        try:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # a file system without locks: the age alone then guards the file
                pass
            try:
                old = None if exclusive else os.stat(path.name, dir_fd=dir_fd, follow_symlinks=False)
            except FileNotFoundError:
                old = None
            if old is not None and stat.S_ISREG(old.st_mode):
                os.fchmod(fd, stat.S_IMODE(old.st_mode))
                if old.st_gid != os.fstat(fd).st_gid:
                    try:
                        os.fchown(fd, -1, old.st_gid)
                    except OSError:
                        pass
            else:
                os.fchmod(fd, (0o666 & ~umask()) if mode is None else mode)
            _write_all(fd, text.encode("utf-8", errors))
            os.fsync(fd)
            if exclusive:
                os.link(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd, follow_symlinks=False)
                os.unlink(tmp, dir_fd=dir_fd)
            else:
                os.replace(tmp, path.name, src_dir_fd=dir_fd, dst_dir_fd=dir_fd)
        except BaseException:
            try:
                os.unlink(tmp, dir_fd=dir_fd)
            except OSError:
                pass
            raise
        finally:
            os.close(fd)
        try:
            os.fsync(dir_fd)
        except OSError:
            pass
    finally:
        os.close(dir_fd)


def write_new(folder: Path, stem: str, suffix: str, text: str) -> Path:
    """Write text to a new file in folder, never over one: `stem.suffix`, else `stem-2.suffix`, `stem-3.suffix`…
    each created exclusively (`write_atomic(exclusive=True)`: a name taken meanwhile is not replaced); the path."""
    n = 1
    while True:
        target = folder / (f"{stem}{suffix}" if n == 1 else f"{stem}-{n}{suffix}")
        try:
            write_atomic(target, text, exclusive=True)
            return target
        except FileExistsError:
            if n >= 10_000:
                raise
            n += 1


def own_folder(folder: Path) -> Path:
    """A folder of ours inside the sessions folder (`exports/`, `trash/`), made when missing.

    Refused (OSError) when it is a symbolic link or not a folder: what is written or moved there would
    land outside the sessions folder.
    """
    try:
        folder.mkdir()
    except FileExistsError:
        pass
    st = os.lstat(folder)
    if stat.S_ISLNK(st.st_mode):
        raise OSError(errno.ELOOP, f"{folder.name}/ in the sessions folder is a symbolic link; scorekeeper "
                      f"writes only into a real folder there (remove the link)", str(folder))
    if not stat.S_ISDIR(st.st_mode):
        raise NotADirectoryError(errno.ENOTDIR, f"{folder.name} in the sessions folder is not a folder",
                                 str(folder))
    return folder


def is_link(path: Path | str) -> bool:
    """True when the name is a symbolic link (which the program never writes through)."""
    try:
        return stat.S_ISLNK(os.lstat(path).st_mode)
    except OSError:
        return False


LOCK_WAIT = 30.0
"""Seconds a save waits for the folder's lock (another place saving) before it says the folder is busy."""


class Busy(OSError):
    """The folder's lock stayed held elsewhere longer than `LOCK_WAIT`: nothing was written."""


class folder_lock:  # noqa: N801 (used as a `with` statement)
    """An exclusive lock on a session folder between our own writers (flock on the folder itself).

    Held across the read of the file, the merge of this place's edits into it and its replacement, so two places
    writing one session never lose each other's fields. It waits for another writer as long as that one takes, up
    to `wait` seconds (then Busy); `waited` says how long it waited. Best effort where the folder cannot be locked
    (no such call, odd file system).
    """

    def __init__(self, folder: Path, wait: float = LOCK_WAIT) -> None:
        self.folder = folder
        self.wait = wait
        self.fd: int | None = None
        self.waited = 0.0

    def __enter__(self) -> folder_lock:
        import fcntl
        import time

        try:
            self.fd = os.open(self.folder, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            return self
        start = time.monotonic()
        pause = 0.002
        while True:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                self.waited = time.monotonic() - start
                if self.waited >= self.wait:
                    os.close(self.fd)
                    self.fd = None
                    raise Busy(errno.EBUSY, f"another program has held the folder's lock for over {self.wait:.0f} s; "
                               "nothing was written (try again)", str(self.folder)) from None
                time.sleep(pause)
                pause = min(pause * 2, 0.05)
            except OSError:  # no locks here: best effort
                os.close(self.fd)
                self.fd = None
                break
        return self

    def __exit__(self, *exc: object) -> None:
        if self.fd is not None:
            os.close(self.fd)  # closing releases the lock
            self.fd = None


@dataclass(frozen=True)
class Saved:
    """What a save wrote: the fingerprint of the new file, and where a copy of the old one was kept."""

    fingerprint: str
    kept: Path | None = None
    waited: float = 0.0
    """Seconds the save waited for the folder's lock (another place was saving)."""


def save(path: Path | str, session: Session) -> str:
    """Save a session atomically; returns the fingerprint of what was written."""
    return save_checked(path, session).fingerprint


def save_checked(path: Path | str, session: Session, *, expected: str | None | bool = True,
                 keep_comments: bool = False) -> Saved:
    """Save a session atomically, refusing to replace a file someone else changed.

    `expected` is the fingerprint the caller last read or wrote (None: no file): under the folder
    lock the file must still be that, else ChangedOnDisk and nothing is written; True skips the
    check. A read-only file raises ReadOnlyError. With `keep_comments` the file as it is is first
    copied into trash/ (Saved.kept).
    """
    from pathlib import Path

    path = Path(path)
    text = dumps(session)
    size = len(text.encode("utf-8"))
    if size > reading.MAX_FILE_BYTES:
        raise TooBig(errno.EFBIG, f"the session would take {size:,} bytes; a session file has at most "
                     f"{reading.MAX_FILE_BYTES:,}", str(path))
    kept = None
    with folder_lock(path.parent):
        if is_link(path):
            raise ReadOnlyError(13, "the file is a symbolic link; scorekeeper never writes through a link "
                                "(copy the file into the sessions folder to edit it)", str(path))
        if is_read_only(path):
            raise ReadOnlyError(13, "the file is read-only", str(path))
        if expected is not True and fingerprint(path) != expected:
            raise ChangedOnDisk(str(path))
        if keep_comments and path.exists():
            try:
                kept = copy_to_trash(path)
            except SessionError:  # no longer a file we can read: nothing of it to keep
                kept = None
        write_atomic(path, text)
    return Saved(digest(text.encode("utf-8")), kept)


def update(path: Path, decide: Callable[[str | None, bool], Session]) -> tuple[Session, Saved]:
    """Read, change and write a session file in one hold of the folder's lock: `decide` is given the file's text as
    it is now (None when it cannot be read; the flag: it is gone) and returns the session to write, or raises
    (nothing is written). A file that held `#` comments is first copied into trash/ (Saved.kept). ReadOnlyError for
    a read-only file or a link, TooBig for a session that would not read back, Busy when the lock is not had."""
    with folder_lock(path.parent) as lock:
        if is_link(path):
            raise ReadOnlyError(13, "the file is a symbolic link; scorekeeper never writes through a link "
                                "(copy the file into the sessions folder to edit it)", str(path))
        if is_read_only(path):
            raise ReadOnlyError(13, "the file is read-only", str(path))
        try:
            text: str | None = reading.read_text(path)
        except SessionError:
            text = None
        gone = text is None and not os.path.lexists(path)
        session = decide(text, gone)
        out = dumps(session)
        data = out.encode("utf-8")
        if len(data) > reading.MAX_FILE_BYTES:
            raise TooBig(errno.EFBIG, f"the session would take {len(data):,} bytes; a session file has at most "
                         f"{reading.MAX_FILE_BYTES:,}", str(path))
        kept = None
        if text is not None and reading.has_comments(text):
            try:
                kept = copy_to_trash(path)
            except SessionError:
                kept = None
        write_atomic(path, out)
    return session, Saved(digest(data), kept, lock.waited)


def create(folder: Path, session: Session, when: datetime) -> Path:
    """Write a new session file, never replacing one: the name's suffix is counted up on a clash."""
    text = dumps(session)
    if len(text.encode("utf-8")) > reading.MAX_FILE_BYTES:
        raise TooBig(errno.EFBIG, f"a session file has at most {reading.MAX_FILE_BYTES:,} bytes", str(folder))
    stem = new_path(folder, session, when, taken_ok=True).stem
    for n in range(1, 10_000):
        path = folder / (f"{stem}.toml" if n == 1 else f"{stem}-{n}.toml")
        try:
            write_atomic(path, text, exclusive=True)
        except FileExistsError:
            continue
        return path
    raise FileExistsError(17, "no free file name", str(folder / f"{stem}.toml"))


_TEMP = r"\..+\.(?:toml|csv|md|json|svg)\.[A-Za-z0-9_]{8}\.tmp"


def remove_stale_temps(folder: Path, age: float = 60.0) -> list[Path]:
    """Remove our own temporary files left by a save that was killed: older than `age` seconds, not held open.

    Only names of our pattern (`.NAME.toml.XXXXXXXX.tmp`, and the same for our exports) are touched, in the
    folder and in its `exports/` and `trash/` (when they are real folders, not links); a file still locked by
    its writer is left alone. Returns what was removed.
    """
    removed = _remove_stale_temps(folder, age)
    for sub in ("exports", "trash"):
        try:
            if stat.S_ISDIR(os.lstat(folder / sub).st_mode):
                removed += _remove_stale_temps(folder / sub, age)
        except OSError:
            pass
    return removed


def _remove_stale_temps(folder: Path, age: float) -> list[Path]:
    import fcntl
    import time as _time

    removed: list[Path] = []
    try:
        temp = re.compile(_TEMP).fullmatch
        names = [e.name for e in os.scandir(folder) if temp(e.name)]
    except OSError:
        return removed
    now = _time.time()
    for name in names:
        path = folder / name
        try:
            fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
        except OSError:
            continue
        try:
            st = os.fstat(fd)
            if not stat.S_ISREG(st.st_mode) or now - st.st_mtime < age:
                continue
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            os.unlink(path)
            removed.append(path)
        except OSError:
            continue
        finally:
            os.close(fd)
    return removed


def copy_to_trash(path: Path) -> Path:
    """Copy a session file (as it is) into the `trash/` folder beside it; returns the copy."""
    trash = own_folder(path.parent / "trash")
    text = reading.decode(reading.read_bytes(path), str(path)) if path.exists() else ""
    try:
        mode: int | None = stat.S_IMODE(os.stat(path).st_mode)  # the copy is no more readable than the file
    except OSError:
        mode = 0o600
    n = 1
    while True:
        target = trash / (path.name if n == 1 else f"{path.stem}-{n}{path.suffix}")
        try:
            write_atomic(target, text, exclusive=True, mode=mode)
            return target
        except FileExistsError:
            n += 1


def digest(data: bytes) -> str:
    """A fingerprint of a file's bytes."""
    import hashlib

    return hashlib.sha256(data).hexdigest()


def stamp(path: Path | str) -> tuple[int, int, int] | None:
    """The file's size, modification time and inode, to see cheaply whether it may have changed (None: gone)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


def fingerprint(path: Path | str) -> str | None:
    """The fingerprint of the file as it is on disk now (None when it is gone or cannot be read)."""
    try:
        return digest(reading.read_bytes(path))
    except SessionError:
        return None


# -- folders ----------------------------------------------------------------------------
def slug(text: str) -> str:
    """A file-name-safe slug: `Friday at Mia's` -> `friday-at-mia-s`."""
    text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:40]


def new_path(folder: Path, session: Session, when: datetime, *, taken_ok: bool = False) -> Path:
    """A file name for a new session: `2026-11-27-1930-ticket-booth-friday.toml` (unused now, unless taken_ok).

    Only a suggestion: `create` is what writes a new session without ever replacing a file.
    """
    stem = f"{when:%Y-%m-%d-%H%M}-{session.game}"
    if session.title and slug(session.title):
        stem += f"-{slug(session.title)}"
    path = folder / f"{stem}.toml"
    n = 2
    while not taken_ok and path.exists():
        path = folder / f"{stem}-{n}.toml"
        n += 1
    return path


def session_files(folder: Path, within: Path | None = None) -> list[Path]:
    """The session files of a folder (not its trash, not hidden), newest first; non-regular ones are
    listed too, so that the reader can say what they are; a symbolic link that points out of the folder
    (`within`: the sessions folder, for its trash) is not."""
    from pathlib import Path

    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".toml") and not e.name.startswith(".")]
    except OSError:
        return []
    files = []
    real: str | None = None
    for e in entries:
        try:
            if e.is_dir():
                continue
            if e.is_symlink():  # a link out of the folder is no session of it (README: symbolic links)
                real = real or os.path.realpath(within or folder)
                if leads_out(real, e.path):
                    continue
        except OSError:
            pass
        files.append(Path(folder) / e.name)

    def mtime(p: Path) -> float:
        try:
            return p.stat().st_mtime
        except OSError:
            return 0.0

    return sorted(files, key=lambda p: (mtime(p), p.name), reverse=True)


def to_trash(path: Path) -> Path:
    """Move a session file into the `trash/` folder beside it; returns where it went."""
    trash = own_folder(path.parent / "trash")
    target = trash / path.name
    n = 2
    while os.path.lexists(target):
        target = trash / f"{path.stem}-{n}{path.suffix}"
        n += 1
    os.replace(path, target)
    return target


def from_trash(path: Path, target: Path | None = None) -> Path:
    """Move a file out of `trash/` back into the sessions folder (under a free name); returns where it went."""
    if is_link(path.parent):
        raise OSError(errno.ELOOP, "trash/ in the sessions folder is a symbolic link; scorekeeper moves files "
                      "only out of a real folder there", str(path.parent))
    target = target or path.parent.parent / path.name
    n = 2
    free = target
    while os.path.lexists(free):
        free = target.with_name(f"{target.stem}-{n}{target.suffix}")
        n += 1
    os.replace(path, free)
    return free
