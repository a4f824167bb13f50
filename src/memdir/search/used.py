"""Whether a home has used vectors: its search index has held one (issue 28 item 5).

The SessionStart hook starts a warm process only for a home that has vectors
to serve (:func:`memdir.search.warm.launch_if_useful`), and must not open
SQLite to learn it. So storing a vector (:func:`memdir.search.vectors.embed_missing`:
the background embedder, ``memdir reindex``, a prepared session) leaves
:data:`VECTORS_MARK`, an empty file in the home beside ``index.sqlite``; the
hook's test is one stat. The mark is never removed: a home that had vectors
and lost its index gets a warm process that finds none, and idles out.

Standard library only, nothing of memdir: the embedding path and the hooks' hot path both import it.
"""

from __future__ import annotations

import os

VECTORS_MARK = "vectors.used"


def note(conn) -> None:
    """Leave :data:`VECTORS_MARK` in the home of the search index ``conn``
    (the directory of its main database file; none for an index in memory).
    A stat when it is there already; never raises (a home that cannot take it
    simply gets no warm process at session start)."""
    try:
        found = [row[2] for row in conn.execute("PRAGMA database_list") if row[1] == "main" and row[2]]
        if found and not os.path.exists(mark := os.path.join(os.path.dirname(found[0]), VECTORS_MARK)):
            os.close(os.open(mark, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600))
    except Exception:  # noqa: BLE001 - a mark, never a cost to the embedding it follows
        pass


def noted(home) -> bool:
    """True when :func:`note` left its mark in ``home``. One stat; never raises."""
    try:
        return os.path.exists(os.path.join(home, VECTORS_MARK))
    except OSError:
        return False


__all__ = ["VECTORS_MARK", "note", "noted"]
