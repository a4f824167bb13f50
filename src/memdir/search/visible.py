"""The index rows a query may see and their columns (DESIGN §6): what hides a memory (status, muted, its
``valid_from``/``valid_until`` against the query's time, the caller's :class:`memdir.search.filters.Filters`), the FTS5
BM25 candidates among the visible rows, and the rows' columns kept per index generation (:mod:`memdir.search.memo`).
:mod:`memdir.search.ranking` scores what these functions return; nothing here ranks.
"""

from __future__ import annotations

from dataclasses import fields

from . import memo
from .filters import Filters
from .hits import IndexedMemory
from .tokenize import fts_query

FIELD_WEIGHTS = (3.0, 3.0, 2.0, 1.0)  # BM25 weights of name, title, description, body

SHOWN = "d.status = 'active' AND (? OR d.disabled = 0)"  # what hides a memory at any time
VISIBLE = SHOWN + " AND (d.valid_until IS NULL OR d.valid_until > ?) AND (d.valid_from IS NULL OR d.valid_from <= ?)"
# Every column of IndexedMemory but bm25, which each query computes.
COLUMNS = ", ".join(f"d.{column.name}" for column in fields(IndexedMemory) if column.name != "bm25")


def where_clause(layers: list[str], include_muted: bool, now: float, filters: Filters) -> tuple[str, list]:
    """``(clause, arguments)``: the SQL condition on ``docs d`` keeping the rows of ``layers`` a query at ``now``
    (seconds since the epoch) may see: active, not muted unless ``include_muted``, inside their validity, and
    ``filters``."""
    extra, extra_args = filters.sql()
    marks = ",".join("?" * len(layers))
    return (f"d.layer IN ({marks}) AND {VISIBLE}{extra}", [*layers, int(include_muted), now, now, *extra_args])


def shown_rows(conn, layers: list[str], include_muted: bool, filters: Filters) -> tuple[frozenset[int], frozenset[int]]:
    """``(always, bounded)``: the rows of ``layers`` that :func:`where_clause`'s clause keeps at any time (no
    ``valid_from`` nor ``valid_until``), and those it keeps only between their bounds; every other row it hides.
    Kept per index generation (:mod:`memdir.search.memo`): a search checks ≈ 300 ranked ids against them, in
    place of a query over ``docs`` per list (0.5 ms of a 1,000-note search)."""
    extra, extra_args = filters.sql()
    clause = f"d.layer IN ({','.join('?' * len(layers))}) AND {SHOWN}{extra}"
    args = (*layers, int(include_muted), *extra_args)

    def compute():
        always, bounded = set(), set()
        for rowid, timeless in conn.execute(f"SELECT d.id, d.valid_from IS NULL AND d.valid_until IS NULL"
                                            f" FROM docs d WHERE {clause}", args):
            (always if timeless else bounded).add(rowid)
        return frozenset(always), frozenset(bounded)

    return SHOWN_ROWS.get(conn, memo.generation(conn), (clause, args), compute)


SHOWN_ROWS = memo.Kept(16)  # (clause, arguments) -> shown_rows's answer


def bm25_rows(conn, terms: list[str], where: tuple[str, list], limit: int,
               compounds: dict[str, tuple[str, str]] | None = None, starts: dict | None = None,
               shown: tuple[frozenset[int], frozenset[int]] | None = None) -> list[IndexedMemory]:
    """The ``limit`` best visible rows for ``terms`` (``starts`` as :func:`fts_query` takes them). First the FTS5
    ranking alone (its best ``4·limit`` rows, then filtered against ``docs``), because joining every matching row
    costs more than ranking it; when the filter leaves too few and FTS had more, the full join decides. ``shown``:
    :func:`shown_rows` of ``where``'s rows, for :func:`keep_visible`."""
    if not terms:
        return []
    match = fts_query(terms, compounds, starts)
    clause, args = where
    weights = ", ".join(str(w) for w in FIELD_WEIGHTS)
    wide = 4 * limit
    ranked_ids = conn.execute(f"SELECT rowid, -bm25(fts, {weights}) AS rel FROM fts WHERE fts MATCH ?"
                              f" ORDER BY rel DESC LIMIT ?", (match, wide)).fetchall()
    if ranked_ids:
        kept = keep_visible(conn, ranked_ids, where, shown)
        if len(kept) >= limit or len(ranked_ids) < wide:
            return load(conn, kept[:limit])
    sql = (f"SELECT {COLUMNS}, -bm25(fts, {weights}) AS rel FROM fts JOIN docs d ON d.id = fts.rowid"
           f" WHERE fts MATCH ? AND {clause} ORDER BY rel DESC LIMIT ?")
    return [IndexedMemory(*row) for row in conn.execute(sql, (match, *args, limit))]


def keep_visible(conn, ranked: list[tuple[int, float]], where: tuple[str, list],
                 shown: tuple[frozenset[int], frozenset[int]] | None = None) -> list[tuple[int, float]]:
    """``ranked`` (``(row id, bm25)`` in rank order) without the rows ``where`` hides.
    ``shown`` (:func:`shown_rows` of the same rows): only the rows it has between bounds are asked of the index.
    Each row is found by its id (``NOT INDEXED``: through the layer index SQLite
    looked each id up twice, 0.48 against 0.22 ms for 200 ids)."""
    clause, args = where
    if shown is not None:
        always, bounded = shown
        asked = {i for i, _ in ranked if i in bounded}
        if asked:  # their bounds against the query's time, as the clause reads them
            asked = {i for i, _ in keep_visible(conn, [(i, 0.0) for i in asked], where)}
        return [(i, rel) for i, rel in ranked if i in always or i in asked]
    ids = [i for i, _ in ranked]
    shown = {r[0] for r in conn.execute(f"SELECT d.id FROM docs d NOT INDEXED WHERE d.id IN"
                                        f" ({','.join('?' * len(ids))}) AND {clause}", (*ids, *args))}
    return [(i, rel) for i, rel in ranked if i in shown]


def load(conn, ranked: list[tuple[int, float]]) -> list[IndexedMemory]:
    """The :class:`IndexedMemory` of each ``(row id, bm25)``, in that order
    (read only for the rows kept: bodies are most of a row)."""
    if not ranked:
        return []
    rows = columns(conn, [i for i, _ in ranked])
    return [IndexedMemory(*rows[i], rel) for i, rel in ranked if i in rows]


def rows_by_id(conn, ids: list[int]) -> dict[int, IndexedMemory]:
    """``{row id: its IndexedMemory}`` (bm25 0.0) for each of ``ids`` the index holds, by id."""
    rows = columns(conn, ids)
    return {i: IndexedMemory(*rows[i], 0.0) for i in sorted(rows)}  # by id, as SQLite read an id list


def columns(conn, ids: list[int]) -> dict[int, tuple]:
    """``{row id: its columns of IndexedMemory but bm25}`` for each of ``ids`` that ``docs`` holds (in the caller's
    transaction), kept per connection and index generation (:mod:`memdir.search.memo`: every change to ``docs``
    bumps it): a search loads ≈ 100 rows, most of them rows an earlier search loaded (0.6 ms of SQL at 1,000 notes)."""
    if not ids:
        return {}
    return ROWS.many(conn, memo.generation(conn), ids, lambda missing: {r[0]: r for r in conn.execute(
        f"SELECT {COLUMNS} FROM docs d WHERE d.id IN ({','.join('?' * len(missing))})", missing)})


ROWS = memo.Kept(4096)  # row id -> its columns (≈ 2 KB a row at 1.6 KB of text: ≈ 8 MB at most)
