"""The lock a job that runs on its own takes (a standalone warm process, the background embedder), never making
the home it locks again: :func:`lock`. The rule of what such a job may write is :mod:`memdir.files.background`
(:func:`~memdir.files.background.require`); this module holds its lock, since locking (filelock) is the layer
unit's (docs/architecture.md). Imported only by such a job, never on a prompt's path.
"""

from __future__ import annotations

import os
import stat

from ..files.background import Gone


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


__all__ = ["lock"]
