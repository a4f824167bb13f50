"""Durable file writes (DESIGN §2).

Every write: a unique temp file in the same directory (so ``os.replace`` is an
atomic rename), flush, fsync, ``os.replace``, then fsync of the directory so the
rename itself survives a crash (POSIX). Directories are 0700, files 0600 —
every directory memdir creates, parents included (``MEMDIR_HOME``,
``projects/``).
Temp files are named ``.<name>.<random>.tmp``; readers skip dot-files, so a
temp file left behind by a killed writer is never read as a memory.
Files are named by content with :func:`digest` (SHA-256 hex), the one hash of
a file's bytes: the journal's ``before``/``after``, ``objects/<digest>``, a
scan's entry digest.
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
import tempfile
from pathlib import Path

from ..errors import StoreError

TEMP_SUFFIX = ".tmp"
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # open flag: a symlink where a meta file should be fails, never followed


def digest(data: bytes) -> str:
    """SHA-256 hex of ``data`` (64 lowercase hex digits)."""
    return hashlib.sha256(data).hexdigest()


def ensure_dir(path: Path) -> Path:
    """Create ``path`` and every missing parent with mode 0700; return it.
    (``mkdir(parents=True)`` would create the parents with the process's
    default mode, 0755 under the usual umask.) Raises :class:`StoreError`."""
    path = Path(path)
    missing = []
    probe = path
    try:
        while not probe.is_dir() and probe != probe.parent:  # is_dir raises for EACCES
            missing.append(probe)
            probe = probe.parent
        for directory in reversed(missing):
            directory.mkdir(mode=0o700, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create directory {path}: {exc.strerror or exc}") from None
    return path


def fsync_dir(path: Path) -> None:
    """fsync a directory so renames inside it are durable; a no-op where the
    platform cannot open directories (Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, *, sync_dir: bool = True, sync: bool = True) -> None:
    """Replace ``path`` with ``data`` atomically and durably (mode 0600).

    Readers see either the old bytes or the new ones, never a mix. ``sync``
    False skips both fsyncs, for derived files (``MEMORY.md``) and copies
    whose loss a later check reports (version objects). Raises
    :class:`StoreError` when the disk refuses; the old file is then untouched
    and the temp file removed.
    """
    directory = path.parent
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=directory)
    except OSError as exc:  # read-only layer, full disk, another user's directory
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(temp, 0o600)
        os.replace(temp, path)
    except OSError as exc:
        try:
            os.unlink(temp)
        except OSError:
            pass
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
    if sync and sync_dir:
        fsync_dir(directory)


def read_bytes(path: Path, limit: int = -1, *, follow: bool = True) -> bytes | None:
    """The bytes of ``path`` (at most ``limit`` when given); None when it is
    missing or not a regular file (a FIFO, a device, a socket is never read:
    opened non-blocking and checked with ``fstat`` first, so it cannot hang);
    with ``follow`` False also None for a symlink (never read through)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | (0 if follow else NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            return None  # a symlink
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            return handle.read(limit)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)


def unlink(path: Path) -> bool:
    """Remove ``path``; False when it was already gone."""
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StoreError(f"cannot remove {path}: {exc.strerror or exc}") from None
