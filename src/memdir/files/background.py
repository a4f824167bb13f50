"""What a background job may write: only into a home and layer directories that exist (DESIGN §1).

A home or a layer directory is made by a person's or an agent's write through the gateway
(:meth:`memdir.layer.layer.Layer.locked`, the first write of a layer; ``memdir team init``), in the foreground. A
process that runs on its own — the first-session build (:mod:`memdir.search.warm.first`), the background embedder
(:mod:`memdir.search.embedder`), the sweeper (:mod:`memdir.search.sweeper`), a standalone warm process's own
lock (:mod:`memdir.search.warm.server`) — and a reader's take-up of hand edits (:meth:`memdir.layer.layer.Layer.take_up`,
a write nobody asked for) never make one: a directory removed under them (a repository deleted, a home cleared
while a build still ran) stays removed. Before, a first-session build still running when its repository was
deleted and made again at the same path recreated ``<repo>/.claude/memory`` in the new one (its take-up of the
vanished team layer took the layer lock, whose directory it made), and the person's ``mkdir`` met FileExistsError.

The rule is :func:`require`, called where such a job would make a directory or a file whose parent it would make:
the layer lock, the search index, the embedder's lock, the record of read team tombstones. It refuses with a
:class:`~memdir.errors.StoreError` (the job's own catch ends it quietly); the next foreground action builds what the
job would have. A lock such a job takes is :func:`lock` (filelock, whose acquire would make the home again). Nothing
here is imported on a prompt's path beyond this module (the standard library only; filelock when :func:`lock` runs).
"""

from __future__ import annotations

import os
import stat
import threading
from contextlib import contextmanager

from ..errors import StoreError


class Gone(StoreError):
    """A directory a background job needed is not there (:func:`require`): the job leaves it be. Not a lasting state
    of the layer (a write makes it), so a reader tries its take-up again next time."""


_process = False  # this whole process is a background job (its entry point said so: enter())
_scoped = threading.local()  # .depth: this thread runs background work inside a foreground process (scope())


def enter() -> None:
    """Mark this process a background job from now on (the first call of its entry point's ``main``): every
    :func:`require` of it refuses a directory that is not there. Not undone (the process is one)."""
    global _process
    _process = True


@contextmanager
def scope():
    """Within the block, this thread does background work (a take-up of hand edits, a warm process's own lock):
    :func:`require` refuses as in a background job. Re-entrant; undone on exit, also on an exception."""
    _scoped.depth = getattr(_scoped, "depth", 0) + 1
    try:
        yield
    finally:
        _scoped.depth -= 1


def active() -> bool:
    """True in a background job (:func:`enter`) or within :func:`scope` in this thread."""
    return _process or getattr(_scoped, "depth", 0) > 0


def require(*directories: str | os.PathLike, home: str | os.PathLike | None = None) -> None:
    """In a background job (:func:`active`), raise :class:`Gone` (a :class:`~memdir.errors.StoreError`) unless each of ``directories``
    (a home, a layer directory) is a directory now: the job writes only into what exists, and makes none of them (nor
    their parents). ``home``, the home a layer's side lies in when it is not inside ``directories`` (the team layer's
    ``<home>/team/<key>``), is required only of a background process (:func:`enter`): a person's own process may make
    the home it was opened on (its first read of a new home takes up the team layer), never a layer directory. In the
    foreground, nothing (the gateway makes what a write needs). One stat per directory in a background job, none
    otherwise."""
    if not active():
        return
    needed = (*directories, home) if _process and home is not None else directories
    for directory in needed:
        if not os.path.isdir(directory):
            raise Gone(f"{os.fspath(directory)} is gone; a background job does not make it again (the next "
                             "write through memdir does)")


def lock(home: str | os.PathLike, name: str, wait: float):
    """Take the filelock ``<home>/<name>`` (created 0600, as every file of the home: DESIGN §2) for a job that runs
    on its own (a standalone warm process, the embedder), waiting up to ``wait`` seconds: the held
    :class:`filelock.FileLock` (``release()`` it), or None when another process holds it all that time. Such a job
    makes no home: :class:`Gone` when ``home`` is not a directory, in the foreground too. filelock's acquire makes
    the lock file's parents (``mkdir(parents=True)``), so a home removed between that check and the acquire came
    back: the home is compared (device and inode) before and after, and when it is gone or another directory now,
    the lock is let go, the lock file removed, the home removed if that leaves it empty (what the acquire made), and
    :class:`Gone` raised. Other OS errors of the acquire (a read-only home) propagate as :class:`OSError`."""
    from filelock import FileLock, Timeout

    path = os.path.join(os.fspath(home), name)
    # An open descriptor keeps the home's inode from being freed, so a home made again cannot reuse its number.
    pin = _pin(home)
    try:
        before = _identity(home, pin)
        if before is None:
            raise Gone(f"{os.fspath(home)} is gone; a background job does not make it again (the next write through "
                       "memdir does)")
        held = FileLock(path, mode=0o600)
        try:
            held.acquire(timeout=wait)
        except Timeout:
            return None
        except OSError:  # the lock file could not be opened: because the home went meanwhile, or another cause
            if _identity(home) == before:
                raise
            raise Gone(f"{os.fspath(home)} went while its lock {name} was taken; a background job does not make "
                       "it again") from None
        if _identity(home) == before:
            return held
    finally:
        if pin is not None:
            os.close(pin)
    # Removed while the lock was taken: filelock made it again (or someone did, an instant ago). Take back the lock
    # file; rmdir removes the home only when nothing else is in it, so a home with anybody's files stays.
    try:
        held.release()
    except OSError:
        pass
    for undo in (os.unlink, lambda _: os.rmdir(home)):
        try:
            undo(path)
        except OSError:
            pass
    raise Gone(f"{os.fspath(home)} went while its lock {name} was taken; a background job does not make it again")


def _pin(directory) -> int | None:
    """A read-only descriptor of ``directory`` (None where a directory cannot be opened so: Windows, or it is gone)."""
    try:
        return os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    except OSError:
        return None


def _identity(directory, fd: int | None = None) -> tuple[int, int] | None:
    """(device, inode) of ``directory`` (of the open ``fd`` when given), or None when it is not a directory."""
    try:
        st = os.fstat(fd) if fd is not None else os.stat(directory)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None

__all__ = ["Gone", "active", "enter", "lock", "require", "scope"]
