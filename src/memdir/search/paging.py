"""Pages of one query ranked on one basis, while vectors are still being built.

A search's pages (``offset``) are asked one by one, each ranked anew. While
the background embedder is adding vectors, each page would see more of them
than the last, the scores would move between pages, and a memory could show
on two pages or on none. So a first page (``offset`` 0) asked while some
visible memory has no vector yet is ranked by words alone, and says so
(:attr:`Page.note`); the query is recorded (table ``pages`` of the index:
a digest of the query and its filters, and when), and a later page of the
same query within :data:`KEEP_SECONDS` is ranked by words alone too, however
far the embedding has got meanwhile. A first page asked once every memory has
its vector is ranked with them, and so are its later pages (a memory written
between two pages changes the store, not the basis). Without vectors there
is nothing to decide.
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
import time

from ..session import Session
from .index import ReadOnly, layer_key
from .sync import sync

KEEP_SECONDS = 3600  # how long a query's later pages keep its first page's basis
_KEEP_ROWS = 200  # queries remembered at most


class Page(list):
    """One page of search results (a list of
    :class:`memdir.search.ranking.SearchResult`) and its ``note``: why it is
    ranked as it is, when that is not the usual way (``""`` otherwise)."""

    note: str = ""


def query_key(query: str, scope: str | None, include_muted: bool, filters) -> str:
    """A digest naming one query and what narrows it, the same for each of its pages."""
    text = json.dumps([query, scope, include_muted, repr(filters)], ensure_ascii=False)
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def basis(session: Session, scope: str | None, key: str, offset: int) -> tuple[bool, str]:
    """``(dense, note)`` for a page of the query ``key`` (:func:`query_key`):
    ``dense`` False to rank by words alone (see the module docstring), and
    the note saying so. Raises what :func:`memdir.search.sync.sync` raises."""
    from . import embedder, vectors

    if not vectors.wanted(session.settings):
        return True, ""
    layers = session.layers(scope)
    conn = sync(session.home, layers)
    done, total = vectors.pending(conn, [layer_key(session.home, layer.path) for layer in layers])
    if done < total:
        embedder.schedule(session.home)
    if offset == 0:
        if done >= total:
            return True, ""
        _remember(conn, key)
        return False, (f"ranked by words alone while vectors are being built ({done} of {total} memories "
                       "embedded); the next pages of this query keep this order")
    if not _remembered(conn, key):
        return True, ""
    return False, "ranked by words alone, as the first page of this query was (vectors were being built)"


def _remember(conn: sqlite3.Connection, key: str) -> None:
    if isinstance(conn, ReadOnly):
        return  # no vector can arrive either: the embedder cannot write
    now = time.time()
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS pages (key TEXT PRIMARY KEY, at REAL)")
        conn.execute("INSERT OR REPLACE INTO pages VALUES (?, ?)", (key, now))
        conn.execute("DELETE FROM pages WHERE at < ? OR key NOT IN (SELECT key FROM pages ORDER BY at DESC LIMIT ?)",
                     (now - KEEP_SECONDS, _KEEP_ROWS))
    except sqlite3.Error:
        pass  # a full disk: the next page ranks on what it finds


def _remembered(conn: sqlite3.Connection, key: str) -> bool:
    try:
        row = conn.execute("SELECT at FROM pages WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:  # no table yet: no first page was ranked by words alone
        return False
    return row is not None and time.time() - row[0] < KEEP_SECONDS


__all__ = ["KEEP_SECONDS", "Page", "basis", "query_key"]
