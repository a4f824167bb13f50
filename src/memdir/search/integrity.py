"""A row of the search index checked against itself where it is used (issue 28 §8).

``PRAGMA quick_check`` sees a damaged page, not a valid page whose stored text
changed (a flipped bit that kept the page's structure, a byte edit of the
file): such a row would answer with text no memory file holds, silently,
until ``doctor``. So each ``docs`` row carries a :func:`checksum` of its own
values (CRC-32 of every column in :data:`COLUMNS`, written by the sync with
the row), and the rows a query returns — only those: per hit, never per file —
are checked (:func:`damaged_rows`) before they are shown. A row that fails is
re-read from its file (:func:`memdir.search.sync.repair`); ``doctor`` and
``status`` check every row (:func:`memdir.search.rebuild.check`).

Standard library only (``zlib``).
"""

from __future__ import annotations

import sqlite3
from zlib import crc32

# The docs columns a row's checksum covers, in order, with how SQLite gives each back
# (TEXT, INTEGER, REAL affinity): what the sync writes is normalized the same way first.
COLUMNS = ("layer", "name", "file", "digest", "type", "origin", "status", "disabled", "pinned",
           "valid_from", "valid_until", "updated", "title", "description", "body")
_KINDS = ("t", "t", "t", "t", "t", "t", "t", "i", "i", "r", "r", "r", "t", "t", "t")


def _as_stored(value, kind: str):
    if value is None:
        return None
    if kind == "t":
        return value if isinstance(value, str) else str(value)
    return int(value) if kind == "i" else float(value)


def checksum(values) -> int:
    """The CRC-32 of one row's ``values`` (one per :data:`COLUMNS` column,
    in order), each as SQLite gives it back: the same number whether taken
    from what is written or from what is read. Pure."""
    row = tuple(_as_stored(v, k) for v, k in zip(values, _KINDS))
    return crc32(repr(row).encode("utf-8", "surrogatepass"))


def damaged_rows(conn: sqlite3.Connection, ids: list[int] | None) -> list[tuple[int, str, str, str]]:
    """``(id, layer key, file, name)`` of each ``docs`` row among ``ids``
    (None: every row) whose values do not give its stored checksum. Rows
    written before checksums were kept (none stored) count as sound. Raises
    ``sqlite3.Error`` (a page SQLite itself finds damaged)."""
    if ids is not None and not ids:
        return []
    sql = f"SELECT id, checksum, {', '.join(COLUMNS)} FROM docs"
    rows = conn.execute(sql + f" WHERE id IN ({','.join('?' * len(ids))})", ids) if ids is not None \
        else conn.execute(sql)
    return [(row[0], row[2], row[4], row[3]) for row in rows
            if row[1] is not None and checksum(row[2:]) != row[1]]


__all__ = ["COLUMNS", "checksum", "damaged_rows"]
