"""Rebuilding the search index beside the old one (:func:`rebuild`, ``memdir reindex``), and what
``status`` and ``doctor`` say of the index file: being rebuilt or set aside (:func:`health`), damaged
(:func:`check`, ``PRAGMA quick_check``). The connection and the setting aside of a damaged file:
:mod:`memdir.search.index`.
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from ..errors import StoreError
from ..files.fsio import NOFOLLOW, ensure_dir, unwritable, writable_hint
from .checked import passed, record, stamp
from .damage import is_corrupt
from .index import (
    CORRUPT_SUFFIX,
    close_all,
    db_path,
    disk_full,
    explain,
    remove_file,
    set_aside,
)
from .schema import create as _create

BUILD_SUFFIX = ".new-"  # index.sqlite.new-<pid>: a rebuild at work (rebuild), or what a killed one left


def rebuild(home: Path, fill) -> None:
    """Build a new index of ``home`` beside the old one and put it in its
    place: ``fill(conn)`` writes the rows into ``index.sqlite.new-<pid>`` in
    the same directory, which replaces ``index.sqlite`` (``os.replace``,
    atomic) only once complete, so a failure leaves the old index as it was
    and searches answer from it. Raises :class:`StoreError` (the new file
    removed) — ``the disk is full: the search index … was kept as it was``
    for a full disk (:func:`disk_full`)."""
    path = db_path(home)
    new = path.with_name(f"{path.name}{BUILD_SUFFIX}{os.getpid()}")
    state = unwritable(path.parent, f"the home {path.parent}")
    if state:  # every unlink and create would fail
        raise StoreError(f"{state}: the "
                         "search index cannot be rebuilt there and was kept as it was; search and recall still answer "
                         "(from the index as it is, else from the memory files), and so do list, read and context "
                         "(to rebuild the index, "
                         f"{writable_hint(path.parent)})")
    close_all()
    conn = None
    try:
        ensure_dir(path.parent)
        _remove_leftovers(path)
        remove_file(new, "cannot remove a leftover search index")
        os.close(os.open(new, os.O_RDWR | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600))
        conn = sqlite3.connect(str(new), isolation_level=None, check_same_thread=False)
        _create(conn)  # a rollback journal while building: new pages need no copy, so less room than WAL
        fill(conn)
        if conn.execute("PRAGMA journal_mode = WAL").fetchone()[0].lower() != "wal":
            raise sqlite3.OperationalError("could not switch the new index to WAL")
        conn.close()
        conn = None
        for suffix in ("-wal", "-shm"):  # the old file's: never to be read as the new one's
            try:
                os.unlink(str(path) + suffix)
            except FileNotFoundError:
                pass
        os.replace(new, path)
    except (sqlite3.Error, OSError, StoreError) as exc:
        if conn is not None:
            conn.close()
        try:
            remove_file(new, "cannot remove the unfinished search index")
        except StoreError:
            pass
        if isinstance(exc, StoreError):
            raise
        if disk_full(exc, path):
            raise StoreError(f"the disk is full: the search index {path} was kept as it was ({explain(exc)})") from None
        raise StoreError(f"cannot rebuild the search index {path}: {explain(exc, path)}; it was kept as it was"
                         ) from None


def _builds(path: Path) -> list[tuple[Path, bool]]:
    """The ``<index>.new-<pid>`` files beside ``path`` but this process's own, each with whether its
    process may still run (alive, or another user's: True) — a rebuild at work — or is gone (False)."""
    found = []
    for build in path.parent.glob(f"{path.name}{BUILD_SUFFIX}*"):
        pid = build.name.rsplit("-", 1)[-1]
        if not pid.isdigit() or int(pid) == os.getpid():
            continue
        try:
            os.kill(int(pid), 0)
            found.append((build, True))
        except ProcessLookupError:
            found.append((build, False))
        except OSError:
            found.append((build, True))
    return found


def _remove_leftovers(path: Path) -> None:
    """Remove the ``<index>.new-<pid>`` files a killed rebuild left (its process is gone); one of a
    process still running is its rebuild at work, left alone. Never raises."""
    for leftover, alive in _builds(path):
        if alive:
            continue  # alive (or another user's): not ours to remove
        try:
            remove_file(leftover, "cannot remove a leftover search index")
        except StoreError:
            pass


def health(home: Path) -> str | None:
    """What ``status`` says of the index file of ``home`` besides its mode,
    without opening it: being rebuilt (a live ``index.sqlite.new-<pid>``:
    searches answer from the old one meanwhile), or set aside as damaged
    (:func:`set_aside`) and not yet rebuilt; None otherwise. Never raises."""
    path = db_path(home)
    try:
        building = [build for build, alive in _builds(path) if alive]
        if building:
            return (f"the search index is being rebuilt (into {building[0].name}); "
                    "searches answer from the old one meanwhile")
        if os.path.lexists(path):
            return None
        aside = sorted(p.name for p in path.parent.glob(f"{path.name}{CORRUPT_SUFFIX}*")
                       if p.name[-4:] not in ("-wal", "-shm"))
    except OSError:
        return None
    if not aside:
        return None
    return f"the search index was set aside as damaged ({aside[-1]}); the next search rebuilds it from the memory files"


def check(home: Path, *, changed_only: bool = False) -> str | None:
    """What is wrong with the index file of ``home``, for doctor and status (``PRAGMA
    quick_check``: reads every page, too slow for every query), or None when
    it is fine or absent. A damaged one is moved aside (:func:`set_aside`) so
    the next search rebuilds it; the text says so, and only the text (status and doctor print it once).
    A pass is recorded (:func:`memdir.search.checked.record`); with ``changed_only`` (status) a file
    whose stamp (inode, size, modification and change times, its log's too) is the one last found sound
    is not read again (None): a byte changed since moves its change time, so the first status after it checks."""
    path = db_path(home)
    before = stamp(path)
    if before is None or (changed_only and passed(home, before)):
        return None
    if not is_corrupt(path):
        record(home, before)
        return None
    try:
        aside = set_aside(home, "PRAGMA quick_check", say=False)
    except StoreError as exc:
        return f"the search index {path} is damaged and {exc}: run memdir reindex"
    where = f"moved aside to {aside.name}; " if aside is not None else ""
    return f"the search index {path} was damaged (PRAGMA quick_check): {where}the next search rebuilds it"


__all__ = ["BUILD_SUFFIX", "check", "health", "rebuild"]
