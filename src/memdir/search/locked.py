"""Another process holding the search index's write lock (a long writer, a ``sqlite3`` shell left in a
transaction): met by a sync's write once SQLite's busy timeout is spent, then remembered, so the reader
answers from an in-memory copy brought up to date (:func:`memdir.search.sync.sync`) instead of waiting the
timeout again at every sync.
"""

from __future__ import annotations

import time
from pathlib import Path

from .index import BUSY_CODES, db_path, explain

LOCKED_RETRY = 5.0  # seconds a process reads a copy before it waits for a lock another process holds again
_LOCKED: dict[str, tuple[float, str]] = {}  # index path -> (monotonic time of the busy write, why)


def locked_out(home: Path, exc: BaseException | None = None) -> str | None:
    """Why the index of ``home`` cannot be written now because another connection holds its write lock
    (SQLITE_BUSY, SQLITE_LOCKED once the 5 s busy timeout is spent: a long writer, a ``sqlite3`` shell left in
    a transaction), for a person; None when not so. With ``exc`` (a write's ``sqlite3.Error``): that error's
    word, noted. Without: the note while under :data:`LOCKED_RETRY` s old, so the caller reads a copy
    (:func:`memdir.search.sync.sync`) instead of waiting the busy timeout again at every sync of a search."""
    path = str(db_path(home))
    if exc is not None:
        if (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF not in BUSY_CODES:
            return None
        _LOCKED[path] = (time.monotonic(), f"the search index {path} is locked by another process ({explain(exc)})")
    noted = _LOCKED.get(path)
    return noted[1] if noted is not None and time.monotonic() - noted[0] < LOCKED_RETRY else None


__all__ = ["LOCKED_RETRY", "locked_out"]
