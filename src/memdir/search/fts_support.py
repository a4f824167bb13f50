"""Helpers of the search index (:mod:`.fts`): the in-memory index used where
``index.sqlite`` cannot be created, the retry of a new index's setup while
SQLite says busy, and the progress bar of a reindex."""

from __future__ import annotations

import sqlite3
import sys
import time
from pathlib import Path

_REASONS: dict[Path, str] = {}


def open_in_memory(path: Path, exc: OSError, create) -> sqlite3.Connection:
    """An index in memory for a home where ``path`` (its ``index.sqlite``)
    cannot be created — a read-only home, another user's — made by
    ``create(conn)`` and filled from the memory files by the same sync, so
    search and recall still answer, at the cost of a full scan per process.
    Warned once on stderr; :func:`fallback_reason` says why (doctor)."""
    reason = (f"the search index {path} cannot be created ({exc.strerror or exc}); searching an in-memory index "
              "built from the memory files instead (each process scans them again)")
    if path not in _REASONS:
        sys.stderr.write(f"memdir: warning: {reason}\n")
    _REASONS[path] = reason
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    create(conn)
    return conn


_BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (the low byte of an extended code)


def while_busy(step, seconds: float = 5.0) -> None:
    """Run ``step`` (one setup statement of a new index) again while SQLite
    says the file is busy, for up to ``seconds``. Switching to WAL returns
    SQLITE_BUSY at once when another connection opens the same new file,
    without calling the busy handler: six threads opening a fresh index
    together failed 1 time in 20 before this."""
    deadline = time.monotonic() + seconds
    pause = 0.002
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", None)
            if code is None or code & 0xFF not in _BUSY_CODES or time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def fallback_reason(path: Path) -> str | None:
    """Why the index at ``path`` is kept in memory in this process, or None."""
    return _REASONS.get(Path(path))


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def progress_bar(total: int, label: str, enabled: bool):
    """A tqdm bar on stderr over ``total`` files, or one that shows nothing
    (not ``enabled``, or no tqdm: it comes with the search extra)."""
    if not enabled:
        return _NoBar()
    try:
        from tqdm import tqdm
    except ImportError:
        return _NoBar()
    return tqdm(total=total, desc=label, unit="file", file=sys.stderr, leave=False)


__all__ = ["fallback_reason", "open_in_memory", "progress_bar"]
