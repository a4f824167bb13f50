"""Whether the search index file is damaged (:mod:`memdir.search.index` moves such a file aside and rebuilds it
from the memory files: it is derived, DESIGN §1.1).

Two ways to tell. SQLite's own: ``PRAGMA quick_check`` (:func:`is_corrupt`) or a query's SQLITE_CORRUPT /
SQLITE_NOTADB (:func:`damaged`) — neither answers while another process holds the file open in WAL mode
with a log SQLite must recover first: every open then says "database is locked" for as long as that process
(a running ``memdir mcp``, the warm search process) lives, and search and recall failed with it (break29:
the file truncated in place, or its bytes replaced, under a running server). So also the file's own shape,
read without SQLite (:func:`shape`): a 100-byte header, and its size against its page size; and its write-ahead
log's size against the frames its shared-memory index says it holds (:func:`_log_cut`: a log cut under a holder
answered every other open "disk I/O error (SQLITE_IOERR_SHORT_READ)", read as a home that cannot be written, and
each process searched an index in memory, scanning every memory file, for as long as the holder lived; break30).
A shared memory (``-shm``) cut under a holder is not damage to set aside: it is derived from the log, and the
holder extends it back (:func:`restore_shared_memory`) before its next query reads past the file's new end.
"""

from __future__ import annotations

import os
import sqlite3
import stat
import sys
from pathlib import Path

HEADER = b"SQLite format 3\x00"  # the first 16 bytes of every SQLite database file (sqlite.org/fileformat.html)

# SQLite result codes that mean the file itself is damaged or not a database.
CORRUPT_CODES = (11, 26)  # SQLITE_CORRUPT, SQLITE_NOTADB


def is_corrupt(path: Path) -> bool:
    """True only when ``PRAGMA quick_check`` says the index file is damaged (or not a database at all); False
    when it is fine or cannot be checked now (busy, locked, an I/O error, a full disk) — those never justify deleting it."""
    try:
        check = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=1.0)
    except sqlite3.Error:
        return False
    try:
        rows = check.execute("PRAGMA quick_check").fetchall()
        return rows != [("ok",)]
    except sqlite3.DatabaseError as exc:
        return getattr(exc, "sqlite_errorcode", None) in CORRUPT_CODES or (
            getattr(exc, "sqlite_errorcode", None) is None and "malformed" in str(exc))
    finally:
        check.close()


def damaged(exc: BaseException) -> bool:
    """True when SQLite says the index file is damaged or not a database
    (SQLITE_CORRUPT, SQLITE_NOTADB): a query met a bad page."""
    return (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF in CORRUPT_CODES


# Descriptors of index files opened to read their header, by (device, inode), never closed: closing any descriptor
# of a file drops every POSIX lock this process holds on it — SQLite's too, for its other connections (another
# process's close then deleted the -wal they were using). One per index file seen (a rebuild makes a new one).
_HEADS: dict[tuple[int, int], int] = {}
KEPT_HEADS = 32  # past this many, a file's size alone is looked at


def _head(path: Path, st: os.stat_result, size: int = 100) -> bytes | None:
    """The first ``size`` bytes of the regular file at ``path`` (``st``: its ``lstat``), read through a descriptor
    kept open (:data:`_HEADS`); None when none may be opened (:data:`KEPT_HEADS`). Raises :class:`OSError`."""
    fd = _HEADS.get((st.st_dev, st.st_ino))
    if fd is None:
        if len(_HEADS) >= KEPT_HEADS:
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0))
        opened = os.fstat(fd)
        _HEADS.setdefault((opened.st_dev, opened.st_ino), fd)  # a second one (two threads) stays open too
    return os.pread(fd, size, 0)


WAL_INDEX_VERSION = 3007000  # iVersion of the wal-index header at the start of every -shm (sqlite.org/walformat.html)
WAL_HEADER, FRAME_HEADER = 32, 24  # bytes of the log's header, and of each frame's before its page


def _log_cut(path: Path, page: int) -> str | None:
    """What is wrong with the write-ahead log of the index at ``path`` (``page``: its page size): "its write-ahead
    log cut to N bytes, short of the M frames its shared memory says it holds" when the log holds less than one
    frame while the shared memory counts frames committed to it; else None (a log of a frame or more — only the
    cut a person or a tool makes, ``truncate -s 0``, is looked for —, no log or no shared memory, a header being
    written: its two copies differ, not initialised, unreadable). The ``-shm``'s first 96 bytes are two copies of
    the wal-index header, in the machine's byte order: ``isInit`` at 12, ``mxFrame`` at 16 (u32). A writer appends
    its frames before it commits them there, and a checkpoint that truncates the log first sets ``mxFrame`` to 0.
    The ``-shm`` is read through a descriptor kept open (:func:`_head`: closing one would drop SQLite's locks on it)
    only for such a short log, so a process keeps none of a shared memory SQLite later deletes."""
    shm = Path(f"{path}-shm")
    try:
        log = os.stat(f"{path}-wal").st_size
        if log >= WAL_HEADER + FRAME_HEADER + page:
            return None
        st = os.lstat(shm)
        if not stat.S_ISREG(st.st_mode):
            return None
        head = _head(shm, st, 96)
    except OSError:
        return None
    if head is None or len(head) < 96 or head[:48] != head[48:96]:
        return None
    version = int.from_bytes(head[0:4], sys.byteorder)
    frames = int.from_bytes(head[16:20], sys.byteorder)
    if version != WAL_INDEX_VERSION or head[12] != 1 or not frames:
        return None
    return f"its write-ahead log cut to {log} bytes, short of the {frames} frames its shared memory says it holds"


SHM_REGION = 32768  # bytes of the -shm SQLite maps at a time, the first region from its first read (walformat.html)
_SHM_MAPPED: dict[str, tuple[int, int]] = {}  # -shm path -> (inode, the largest size this process saw it at)


def restore_shared_memory(path: Path) -> bool:
    """Extend the ``-shm`` beside the index at ``path`` back to the size this process maps, with zeros, when it was
    cut under it (``truncate -s 0 index.sqlite-shm``); True when it did. Call it only while this process holds a
    connection to ``path`` that has read it: SQLite then maps at least :data:`SHM_REGION` bytes of it, and a read
    of a mapped page past the file's end kills the process (SIGBUS) at its next query. Zeros are a wal-index header
    not initialised (``isInit`` 0): SQLite's next read rebuilds the wal-index from the log (its recovery), so what
    the log holds is read again and nothing is lost. The size kept is the largest seen of the same file
    (inode), never less than :data:`SHM_REGION`. One ``lstat``; by path (``truncate``), never through a
    descriptor: closing one would drop SQLite's locks on the file. A file another process grows in the instant
    between the look and the cut's repair keeps the size given here (only a file seen cut is ever resized).
    Never raises: no ``-shm``, not a regular file, or one that cannot be written, is left as it is (False)."""
    shm = f"{path}-shm"
    try:
        st = os.lstat(shm)
    except OSError:
        return False
    if not stat.S_ISREG(st.st_mode):
        return False
    ino, seen = _SHM_MAPPED.get(shm, (st.st_ino, 0))
    mapped = max(seen if ino == st.st_ino else 0, SHM_REGION)
    if st.st_size >= mapped:
        _SHM_MAPPED[shm] = (st.st_ino, st.st_size)
        return False
    try:
        os.truncate(shm, mapped)
    except OSError:
        return False
    _SHM_MAPPED[shm] = (st.st_ino, mapped)
    return True


def shape(path: Path) -> str | None:
    """What is wrong with the index file at ``path`` by its bytes alone (no SQLite, no lock: an ``lstat``, a
    read of 100 bytes through a descriptor kept open), or None when nothing is seen (fine, absent, not a
    regular file, unreadable — never a reason to move it): "not an SQLite database" (its header is other
    bytes), "cut to N bytes" (shorter than one page, or not a whole number of pages), "emptied while its
    write-ahead log holds N bytes" (a WAL database's file holds at least its first page from the switch to
    WAL on; empty, with a log beside it, it was truncated), "its write-ahead log cut to N bytes, short of the M
    frames its shared memory says it holds" (:func:`_log_cut`)."""
    try:
        st = os.lstat(path)
        if not stat.S_ISREG(st.st_mode):
            return None  # a directory or a link where the index goes: memdir.search.index.connect says so
        size = st.st_size
        if size == 0:
            log = os.stat(f"{path}-wal").st_size
            return f"emptied while its write-ahead log holds {log} bytes" if log else None
        head = _head(path, st)
    except OSError:
        return None
    if head is None:
        return f"cut to {size} bytes, not a whole number of 512-byte blocks" if size % 512 else None
    if head[:16] != HEADER[: len(head[:16])]:
        return "not an SQLite database (its first bytes are not SQLite's header)"
    if len(head) < 100:
        return f"cut to {size} bytes, shorter than its header"
    page = int.from_bytes(head[16:18], "big")
    page = 65536 if page == 1 else page
    if page < 512 or page & (page - 1):
        return f"not an SQLite database (page size {page} in its header)"
    if size < page or size % page:
        return f"cut to {size} bytes, not a whole number of its {page}-byte pages"
    return _log_cut(path, page)


__all__ = ["CORRUPT_CODES", "HEADER", "KEPT_HEADS", "SHM_REGION", "damaged", "is_corrupt", "restore_shared_memory",
           "shape"]
