"""The files of the session records (:mod:`memdir.prompt.recalled`): the directories they are kept in
(``<home>/sessions``, else the runtime directory's ``sessions``: :func:`spare_dir`), the lock a change of one
holds (:class:`locked`: ``sessions/.lock``, a plain ``flock``; :mod:`filelock` only where there is no
``fcntl``), their atomic replacement (:func:`save`) and their bounds (:func:`prune`: :data:`MAX_AGE_DAYS`,
:data:`MAX_SESSIONS`). What a record holds and when it changes is :mod:`memdir.prompt.recalled`'s.

On the hot path (every prompt hook): standard library only, as :mod:`memdir.prompt.recalled` is.
"""

from __future__ import annotations

import os
import time

try:
    import fcntl
except ImportError:  # Windows: filelock's own lock there (locked)
    fcntl = None

from ..runtime import private_dir

SESSIONS_DIR = "sessions"
MAX_SESSIONS = 64   # session files kept, and held start texts apart; the least recently touched go first
MAX_AGE_DAYS = 7    # a session file untouched this long is removed
HELD_SUFFIX = ".start.txt"  # a session start's text held for the session's next prompt (hold_start)
LOCK_FILE = ".lock"  # in each directory of session files: held while one record is read, merged and replaced
LOCK_WAIT = 2.0     # seconds a change waits for the lock; past it the record is left as it is
LOCK_POLL = 0.002   # seconds between tries (a change holds it ≈ 1 ms: 40 hooks at once wait ≈ 40 ms)


def save(path: str, data: bytes) -> bool:
    """Write ``data`` to ``path`` atomically (0600, its directory 0700), pruning its directory when
    the file is new; False when it cannot be written."""
    parent, name = os.path.split(path)
    temp = os.path.join(parent, f".{name}.{os.getpid()}.tmp")
    try:
        new = not os.path.exists(path)
        make_dir(parent)
        with open(os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600), "wb") as handle:
            handle.write(data)
        os.replace(temp, path)
    except OSError:
        unlink(temp)
        return False
    if new:
        prune_dir(parent)
    return True


def make_dir(directory: str) -> None:
    """Make ``directory`` (0700) when it is not there, never its parent: the home's ``sessions`` is made only
    in a home that is there (a home not made yet is made by its first write, never by a session's record: the
    record goes to the runtime directory, as for a home that cannot take it), the runtime directory's by
    :func:`memdir.runtime.private_dir`. Raises OSError (FileNotFoundError: no parent)."""
    try:
        os.mkdir(directory, 0o700)
    except FileExistsError:
        pass


def unlink(path: str | None, was: bytes | None = None) -> None:
    """Remove ``path`` — with ``was``, only while it still holds those bytes (a start held since is kept)."""
    try:
        if was is not None:
            with open(path, "rb") as handle:
                if handle.read() != was:
                    return
        os.unlink(path)
    except OSError:
        pass


class locked:
    """Hold the lock of the directory the records of ``home`` are changed in (:mod:`memdir.prompt.recalled`'s docstring):
    ``<home>/sessions/.lock`` when it can be opened for writing (the directory made when ``create``),
    else the runtime directory's ``sessions/.lock`` — every process decides alike, from the same
    files. ``with locked(home) as held``: True while held; False when neither can be opened or the
    lock is not had within :data:`LOCK_WAIT` seconds. Never raises. A class, not
    ``contextlib.contextmanager``: the hooks run by the console script import no ``contextlib``."""

    __slots__ = ("_create", "_fd", "_filelock", "_home")

    def __init__(self, home: str | os.PathLike, create: bool = True):
        self._home, self._create, self._fd, self._filelock = home, create, None, None

    def __enter__(self) -> bool:
        fd = None
        for directory in (os.path.join(self._home, SESSIONS_DIR), None):
            directory = directory or spare_dir(self._create)  # the runtime directory only when the home fails
            if directory is None:
                continue
            try:
                if self._create:
                    make_dir(directory)  # in the home only when the home is there
                fd = os.open(os.path.join(directory, LOCK_FILE), os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
                break
            except OSError:
                continue
        if fd is None:
            return False
        if fcntl is None:  # no flock here: filelock's lock (its import cost is paid only on such systems)
            os.close(fd)
            self._filelock = filelocked(os.path.join(directory, LOCK_FILE))
            return self._filelock is not None
        self._fd = fd  # closed on exit
        try:
            return flock(fd)
        except BaseException:  # no exit follows a failed enter
            self.__exit__()
            raise

    def __exit__(self, *exc) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing releases the lock
            self._fd = None
        if self._filelock is not None:
            self._filelock.release()
            self._filelock = None


def flock(fd: int) -> bool:
    """Take the exclusive ``flock`` of ``fd``, trying every :data:`LOCK_POLL` seconds for
    :data:`LOCK_WAIT` seconds; True when had."""
    deadline = time.monotonic() + LOCK_WAIT
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() >= deadline:
                return False
            time.sleep(LOCK_POLL)
        except OSError:
            return False


def filelocked(path: str):
    """:class:`locked`'s lock where there is no ``fcntl``: :mod:`filelock`'s lock of ``path``, held
    (its ``release()`` frees it); None when it is not had within :data:`LOCK_WAIT` seconds."""
    from filelock import FileLock, Timeout

    lock = FileLock(str(path), mode=0o600)
    try:
        lock.acquire(timeout=LOCK_WAIT, poll_interval=LOCK_POLL)
    except (Timeout, OSError):
        return None
    return lock


def spare_dir(create: bool) -> str | None:
    """The runtime directory's ``sessions`` directory (None: no private runtime directory)."""
    directory, _why = private_dir(create)
    return None if directory is None else os.path.join(directory, SESSIONS_DIR)


def prune(home: str | os.PathLike, now: float | None = None) -> int:
    """Remove session files untouched for :data:`MAX_AGE_DAYS` days and the
    least recently touched beyond :data:`MAX_SESSIONS`, and so the start texts held for a prompt
    (:func:`memdir.prompt.recalled.hold_start`), counted apart: a Gemini CLI session that starts and never prompts leaves one
    (80 such starts kept 80 of them, 4 KB each, until they were a week old); returns how many went.
    Never raises."""
    return prune_dir(os.path.join(home, SESSIONS_DIR), now)


def prune_dir(directory: str, now: float | None = None) -> int:
    """:func:`prune` of one directory of session files (the home's or the runtime directory's)."""
    now = time.time() if now is None else now
    try:
        found = []
        held = []  # start texts no prompt took (hold_start): by age only, not counted among the sessions
        for entry in os.scandir(directory):
            if entry.name.endswith(HELD_SUFFIX):
                held.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
            elif entry.name.endswith(".json") or entry.name.endswith(".tmp"):
                found.append((entry.stat(follow_symlinks=False).st_mtime, entry.path))
    except OSError:
        return 0
    found.sort(reverse=True)
    gone = [path for i, (mtime, path) in enumerate(found)
            if i >= MAX_SESSIONS or now - mtime > MAX_AGE_DAYS * 86400]
    held.sort(reverse=True)  # counted on their own: a held text never pushes a session's record out
    gone += [path for i, (mtime, path) in enumerate(held) if i >= MAX_SESSIONS or now - mtime > MAX_AGE_DAYS * 86400]
    removed = 0
    for path in gone:
        try:
            os.unlink(path)
            removed += 1
        except OSError:
            pass
    return removed


__all__ = ["HELD_SUFFIX", "LOCK_FILE", "LOCK_POLL", "LOCK_WAIT", "MAX_AGE_DAYS", "MAX_SESSIONS", "SESSIONS_DIR", "locked",
           "make_dir", "prune", "prune_dir", "save", "spare_dir", "unlink"]
