"""Pages of one query ranked on one basis, while vectors are still being built.

A search's pages (``offset``) are asked one by one, each ranked anew. While
the background embedder is adding vectors, each page would see more of them
than the last, the scores would move between pages, and a memory could show
on two pages or on none. So a first page (``offset`` 0) asked while some
visible memory has no vector yet records which ones (table ``pages`` of the
index: a digest of the query and its filters, when, and those memories' ids)
and is ranked as always — with the vectors that exist, the others by words
(:attr:`Page.note` says how many); a later page of the same query within
:data:`KEEP_SECONDS` leaves out the cosines of the memories recorded, so it
ranks on exactly the first page's basis however far the embedding has got
meanwhile. A first page asked once every memory has its vector forgets any
record of that query, and its later pages use every vector (a memory written
between two pages changes the store, not the basis). Without vectors there
is nothing to decide.
"""

from __future__ import annotations

import json
import sqlite3
import time

from ..paths import sha256
from ..session import Session
from ..text.agreement import agreeing
from ..text.plural import plural
from .index import ReadOnly, layer_key
from .sync import sync

KEEP_SECONDS = 3600  # how long a query's later pages keep its first page's basis
_KEEP_ROWS = 200  # queries remembered at most
_NEXT = "; the next pages of this query keep this basis"  # said by a first page whose basis is recorded
_LATER = "ranked on the first page's basis: memories embedded since it rank by words alone"


def _unembedded(missing: int, total: int) -> str:
    """``1 of 4 memories has no vector``, ``2 of 2 memories have no vector``: the verb agrees with the
    ``missing`` count, the noun with ``total``."""
    return f"{missing} of {total} {plural(total, 'memory')} {agreeing(missing, 'has')} no vector"


class Page(list):
    """One page of search results (a list of
    :class:`memdir.search.hits.SearchResult`) and its ``note``: why it is
    ranked as it is, when that is not the usual way (``""`` otherwise); ``forgotten``: the tombstones the query
    matches, ``[{"id", "scope", "lift"}]`` (:func:`memdir.tombstones.asked.matching`; ``[]``: none, or not looked for)."""

    note: str = ""
    forgotten: tuple | list = ()  # none: a page that has some is given its own list


def query_key(query: str, scope: str | None, include_muted: bool, filters) -> str:
    """A digest naming one query and what narrows it, the same for each of its pages."""
    text = json.dumps([query, scope, include_muted, repr(filters)], ensure_ascii=False)
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:32]


def basis(session: Session, scope: str | None, key: str, offset: int,
          conn: sqlite3.Connection | None = None) -> tuple[frozenset[int] | None, str]:
    """``(unembedded, note)`` for a page of the query ``key`` (:func:`query_key`):
    ``unembedded`` the ids of the memories whose cosines this page leaves out
    (those without a vector when the query's first page was ranked; None: use
    every vector there is), and the note saying so (see the module
    docstring). ``conn``: the index as the search's own sync of ``scope``'s layers just left it
    (:func:`memdir.search.sync.sync`'s answer; None: synced here). Raises what
    :func:`memdir.search.sync.sync` raises."""
    from . import embedder, vectors

    if not vectors.wanted(session.settings):
        return None, ""
    layers = session.layers(scope)
    conn = sync(session.home, layers, session.id) if conn is None else conn
    keys = [layer_key(session.home, layer.path) for layer in layers]
    done, total = vectors.pending(conn, keys)
    if done < total and not isinstance(conn, ReadOnly):  # a read-only index: no embedder could write a vector
        embedder.schedule(session.home)
    if offset == 0:
        if done >= total:
            _forget(conn, key)
            return None, ""
        missing = vectors.unembedded(conn, keys)  # a changed memory's old vector stands in: it is not missing
        if not missing:
            _forget(conn, key)
            return None, ""
        if isinstance(conn, ReadOnly):  # no vector can arrive, and no basis is recorded: later pages rank alike
            return frozenset(missing), (f"{_unembedded(len(missing), total)} and {agreeing(len(missing), 'ranks')} "
                                        "by words alone: the search index cannot be written, so none is embedded")
        _remember(conn, key, missing)
        return frozenset(missing), (f"{_unembedded(len(missing), total)} yet (being embedded in the background) and "
                                    f"{agreeing(len(missing), 'ranks')} by words alone{_NEXT}")
    missing = _remembered(conn, key)
    if missing is None:
        return None, ""
    return frozenset(missing), _LATER


def shown(note: str, results: int) -> str:
    """:func:`basis`'s ``note`` as a page of ``results`` results says it: a page with none says nothing of pages
    (trial31: "No memories match" then "the next pages of this query keep this basis"), so the clause on the next
    pages and a later page's note (all about pages) are left out; a first page's count of memories without a vector
    stays (why words alone ranked them). Any other note is returned as it is."""
    if results:
        return note
    return "" if note == _LATER else note.removesuffix(_NEXT)


def _remember(conn: sqlite3.Connection, key: str, missing: list[int]) -> None:
    if isinstance(conn, ReadOnly):
        return  # no vector can arrive either: the embedder cannot write
    now = time.time()
    try:
        conn.execute("CREATE TABLE IF NOT EXISTS pages (key TEXT PRIMARY KEY, at REAL, ids TEXT)")
        conn.execute("INSERT OR REPLACE INTO pages VALUES (?, ?, ?)", (key, now, json.dumps(missing)))
        conn.execute("DELETE FROM pages WHERE at < ? OR key NOT IN (SELECT key FROM pages ORDER BY at DESC LIMIT ?)",
                     (now - KEEP_SECONDS, _KEEP_ROWS))
    except sqlite3.Error:
        pass  # a full disk, or a table of an older memdir (the next rebuild makes it anew): pages rank on what they find


def _remembered(conn: sqlite3.Connection, key: str) -> list[int] | None:
    try:
        row = conn.execute("SELECT at, ids FROM pages WHERE key = ?", (key,)).fetchone()
    except sqlite3.Error:  # no table yet: no first page was ranked while vectors were missing
        return None
    if row is None or time.time() - row[0] >= KEEP_SECONDS:
        return None
    try:
        return [int(i) for i in json.loads(row[1])]
    except (TypeError, ValueError):
        return None


def _forget(conn: sqlite3.Connection, key: str) -> None:
    if isinstance(conn, ReadOnly) or _remembered(conn, key) is None:
        return  # nothing recorded (the usual case): no write on a search
    try:
        conn.execute("DELETE FROM pages WHERE key = ?", (key,))
    except sqlite3.Error:
        pass


__all__ = ["KEEP_SECONDS", "Page", "basis", "query_key"]
