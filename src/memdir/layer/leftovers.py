"""What a writer killed mid-change leaves behind, and when it goes (DESIGN §2, §5).

A change writes beside the files it changes (:func:`memdir.files.fsio.side_of` names them):
``.<file>.<random>.tmp`` (:func:`~memdir.files.fsio.atomic_write`'s temp file: a memory file,
``MEMORY.md``, a meta file, a version object), ``.<file>.<random>.bak`` (the file a write replaces,
a hard link) and ``.<file>.<random>.del`` (the file a delete renamed aside). A writer that finishes
removes its own; one killed (SIGKILL, a power cut) leaves them in the layer directory, its meta
directory, ``objects/`` (and, for the team layer, the home directory holding its ``MEMORY.md``).
No reader sees a dot-file, so they only take disk space — except a ``.del`` whose delete never
reached the journal: that memory is still there (:func:`memdir.layer.commit.uncommitted_asides`),
and the next sweep renames it back.

**The rule** (the one place it is decided; transactions, ``memdir verify --repair`` and
``memdir doctor`` all ask :func:`removable`). Every memdir writer of those directories holds the
layer's lock, so a side file is nobody's — removed — when either:

1. nothing changed it for the lock timeout (the later of its mtime and ctime: a ``.bak`` keeps the
   mtime of the file it links, but its ctime moved when the link was made): no writer keeps a side
   file that long while it lives; or
2. the layer's lock is held, the previous holder died holding it (the **writer mark** below says
   so), and the file changed since that holder took the lock (its ctime is not older than the mark):
   only that holder could have made it.

A ``.bak`` or ``.del`` is removed only when its bytes are a stored version (``objects/<digest>``):
what a person saved while a write was cut is never deleted with it. A ``.del`` is looked at only
after the sweep has put back the deletes that never committed (:func:`clear`).

**The writer mark** (``.memdir/lock.held``, :data:`memdir.files.layout.WRITER_FILE`): made by the
outermost lock acquisition (:meth:`WriterMark.take`), removed just before the lock is released
(:meth:`WriterMark.drop`). Finding it on taking the lock means its maker was killed holding the lock
— the cheap signal that leftovers may be there, so a write lists those directories only then
(one ``open(O_EXCL)`` and one ``unlink`` a transaction otherwise). A mark found is kept, with its
time, until :func:`clear` has run; a holder killed before that leaves it for the next one. The
mark is not fsynced: after a power cut it may be gone while the side files stay, which rule 1
(``memdir verify --repair``) removes.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from ..errors import StoreError
from ..files.fsio import (
    ASIDE_SUFFIX,
    NOFOLLOW,
    SIDE_SUFFIXES,
    TEMP_SUFFIX,
    digest,
    read_bytes,
    side_of,
)
from ..files.layout import WRITER_FILE


@dataclass(frozen=True)
class Leftover:
    """One side file found: its ``path``, ``size`` in bytes, ``changed`` (the later of its mtime and
    ctime, ns since the epoch) and ``ctime`` (ns)."""

    path: Path
    size: int
    changed: int
    ctime: int


def places(layer) -> list[Path]:
    """The directories a writer of ``layer`` (a :class:`memdir.layer.layer.Layer`) makes side files
    in, each once: the layer directory, the one holding ``MEMORY.md`` (the team layer's is in the
    home), the meta directory and ``objects/``."""
    found = []
    for folder in (layer.path, layer.meta.parent, layer.meta, layer.journal.objects):
        if folder not in found:
            found.append(folder)
    return found


def listed(folders, suffixes: tuple[str, ...] = SIDE_SUFFIXES) -> list[Leftover]:
    """The side files (:func:`memdir.files.fsio.side_of`) ending in ``suffixes`` that are regular
    files (never a symlink) in ``folders``; a folder that cannot be listed has none."""
    found = []
    for folder in folders:
        try:
            with os.scandir(folder) as listing:
                for item in listing:
                    name = item.name
                    if name[:1] != "." or not name.endswith(suffixes) or side_of(name) is None:
                        continue
                    try:
                        st = item.stat(follow_symlinks=False)
                    except OSError:
                        continue
                    if item.is_file(follow_symlinks=False):
                        found.append(Leftover(Path(item.path), st.st_size, max(st.st_mtime_ns, st.st_ctime_ns),
                                              st.st_ctime_ns))
        except OSError:
            continue
    return found


def removable(item: Leftover, now_ns: int, older_than: float, died_at: int | None = None) -> bool:
    """Whether ``item`` is nobody's by the module's rule: unchanged for ``older_than`` seconds (the
    lock timeout), or — ``died_at``: the mark's time (ns) of a holder that died holding the lock, the
    lock held now — changed since. Its bytes' being stored is :func:`remove`'s to check."""
    return item.changed < now_ns - int(older_than * 1e9) or (died_at is not None and item.ctime >= died_at)


def remove(items: list[Leftover], now_ns: int, older_than: float, stored, died_at: int | None = None) -> list[Path]:
    """Delete the ``items`` :func:`removable` allows — a ``.bak`` or ``.del`` only when ``stored(digest)``
    says its bytes are a version object — and return their paths. Call under the layer's lock."""
    removed = []
    for item in items:
        if not removable(item, now_ns, older_than, died_at):
            continue
        if not item.path.name.endswith(TEMP_SUFFIX):
            try:
                data = read_bytes(item.path, follow=False)
            except StoreError:  # an unreadable backup is kept, never a failed write
                continue
            if data is not None and not stored(digest(data)):
                continue  # bytes no version holds: kept (doctor counts it)
        try:
            os.unlink(item.path)
            removed.append(item.path)
        except OSError:
            continue
    return removed


def remove_stale(layer, older_than: float) -> list[Path]:
    """Rule 1 alone (``memdir verify --repair``, under the lock): the side files of ``layer``
    unchanged for ``older_than`` seconds, removed; their paths. Call after the sweep has put back
    the deletes that never committed."""
    return remove(listed(places(layer)), time.time_ns(), older_than, layer.journal.has_object)


def stale(layer, older_than: float) -> tuple[int, int]:
    """``(count, bytes)`` of the side files of ``layer`` :func:`remove_stale` would remove (by rule 1;
    a ``.bak``/``.del`` whose bytes are stored): what ``memdir doctor`` reports, read without the lock."""
    now = time.time_ns()
    count = size = 0
    for item in listed(places(layer)):
        if not removable(item, now, older_than):
            continue
        if not item.path.name.endswith(TEMP_SUFFIX):
            try:
                data = read_bytes(item.path, follow=False)
            except StoreError:  # doctor reports, never fails on one file
                continue
            if data is not None and not layer.journal.has_object(digest(data)):
                continue
        count += 1
        size += item.size
    return count, size


def clear(tx) -> list[Path]:
    """In a transaction ``tx`` whose layer's lock was found with a dead holder's mark: remove what the
    rule allows (both rules), after the deletes that never committed were put back (a ``.del`` seen
    while ``tx`` has not swept every file makes it sweep first), and settle the mark. A no-op (no
    listing) when the mark said nothing. Returns the paths removed."""
    layer = tx.layer
    mark = getattr(layer, "writer_mark", None)  # made with the layer's lock (Layer.locked)
    if mark is None or mark.died_at is None:
        return []
    folders = places(layer)
    found = listed(folders)
    if not tx.full and any(item.path.name.endswith(ASIDE_SUFFIX) for item in found):
        tx.require_full()  # restores a delete killed before its journal line (memdir.layer.commit.sweep)
        found = listed(folders)
    removed = remove(found, time.time_ns(), layer.settings.lock_timeout, layer.journal.has_object, mark.died_at)
    mark.died_at = None
    return removed


class WriterMark:
    """The writer mark of one layer's meta directory ``meta`` (see the module docstring).
    ``died_at``: the time (ns) of a mark found on taking the lock — its maker died holding it —
    until :func:`clear` settles it; else None."""

    def __init__(self, meta: Path):
        self.path = Path(meta) / WRITER_FILE
        self.died_at: int | None = None

    def take(self) -> None:
        """Mark the lock as held (call right after its outermost acquisition, before any change). A
        mark already there is kept, its time in :attr:`died_at`. Never raises: where it cannot be
        made (a read-only layer, which no write changes either) rule 1 alone applies."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | NOFOLLOW, 0o600)
        except FileExistsError:
            try:
                self.died_at = os.lstat(self.path).st_mtime_ns
            except OSError:
                self.died_at = None
            return
        except OSError:
            self.died_at = None
            return
        self.died_at = None
        try:
            os.write(fd, b"%d\n" % os.getpid())  # for a person who looks: whose mark it is
        except OSError:
            pass
        finally:
            os.close(fd)

    @contextmanager
    def held(self, outermost: bool):
        """:meth:`take` on entering and :meth:`drop` on leaving, when ``outermost`` (the lock's first
        acquisition in this thread; a re-entrant one leaves the mark alone)."""
        if outermost:
            self.take()
        try:
            yield self
        finally:
            if outermost:
                self.drop()

    def drop(self) -> None:
        """Remove the mark (call just before the outermost release), unless a dead holder's mark is
        still unsettled: then it stays, with its time, for the next holder."""
        if self.died_at is not None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass


__all__ = ["Leftover", "WriterMark", "clear", "listed", "places", "removable", "remove", "remove_stale", "stale"]
