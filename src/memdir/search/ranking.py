"""Search: ranked retrieval over the session's memories (DESIGN §6).

The index itself — what is stored and how it is kept in step with the layers —
is :mod:`memdir.search.fts`; this module ranks and bounds. Per-prompt recall
(:mod:`memdir.search.recall`) ranks with :func:`ranked` too.

Ranking: FTS5 BM25 with field weights :data:`FIELD_WEIGHTS` (name and title 3,
description 2, body 1), then a small multiplicative boost — ``1 +
PIN_BOOST·pinned + RECENCY_BOOST·2^(−age/RECENCY_HALF_LIFE_DAYS)``, age from
the last update — that reorders near-ties only. With the ``vectors`` extra
(:mod:`memdir.search.vectors`), dense similarity is fused by reciprocal rank — only
when the words found something, since a cosine is never zero and would
otherwise answer every query with the whole store.

What a query sees is decided in the SQL: the layers of the session (user and
the session's project) only, ``status = active``, not muted unless asked,
inside ``valid_from``/``valid_until``. Candidates, superseded, expired and
muted memories never appear; deleted (tombstoned) ones have no file and so no
row. User text reaches FTS5 only as quoted tokens (:mod:`memdir.search.tokenize`).
"""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterable
from dataclasses import asdict, dataclass

from ..store.errors import InvalidInput, StoreError
from ..store.session import Session
from ..store.fence import escape_fence_tags
from .fts import layer_key, sync
from .tokenize import fts_query, query_terms, tokens


FIELD_WEIGHTS = (3.0, 3.0, 2.0, 1.0)  # name, title, description, body
PIN_BOOST = 0.10
RECENCY_BOOST = 0.05
RECENCY_HALF_LIFE_DAYS = 30.0
MAX_K = 50
POOL_MIN = 50  # rows taken from each ranker before boosting / fusion
SNIPPET_CHARS = 160
RESULTS_MAX_BYTES = 16384  # all results of one search together, UTF-8 JSON


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class SearchResult:
    """One hit: ``snippet`` ≤ :data:`SNIPPET_CHARS` characters of the body (or
    description) around the first match; ``score`` higher is better (boosted
    BM25 in ``bm25`` mode, fused reciprocal-rank score in hybrid mode)."""

    name: str
    scope: str
    type: str
    description: str
    snippet: str
    score: float
    title: str | None = None
    pinned: bool = False

    def to_dict(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------- ranking


def boost(pinned: bool, updated: float | None, now: float) -> float:
    """The multiplier on a relevance score: ``1 + 0.10·pinned +
    0.05·2^(−days since update / 30)``; between 1 and 1.15."""
    recent = 0.0
    if updated is not None:
        age_days = max(0.0, (now - updated) / 86400)
        recent = 0.5 ** (age_days / RECENCY_HALF_LIFE_DAYS)
    return 1.0 + PIN_BOOST * bool(pinned) + RECENCY_BOOST * recent


_VISIBLE = ("d.status = 'active' AND (? OR d.disabled = 0)"
            " AND (d.valid_until IS NULL OR d.valid_until > ?) AND (d.valid_from IS NULL OR d.valid_from <= ?)")
_COLUMNS = "d.id, d.layer, d.name, d.type, d.title, d.description, d.body, d.pinned, d.updated"


def _discriminating(conn, terms: list[str]) -> list[str]:
    """``terms`` without those found in more than half of all indexed memories:
    FTS5's BM25 floors their IDF at 1e-6, so they change no score, while
    scoring every row that holds them is most of a query's cost. All of
    ``terms`` when no term that would be left occurs at all."""
    if len(terms) < 2:
        return terms
    total = conn.execute("SELECT count(*) FROM docs").fetchone()[0]
    marks = ",".join("?" * len(terms))
    counts = dict(conn.execute(f"SELECT term, doc FROM fts_terms WHERE term IN ({marks})", terms).fetchall())
    kept = [t for t in terms if counts.get(t, 0) * 2 <= total]
    return kept if any(counts.get(t, 0) for t in kept) else terms


def _bm25_rows(conn, terms: list[str], layers: list[str], include_muted: bool, now: float, limit: int) -> list:
    """The ``limit`` best visible rows of ``layers`` for ``terms``. First the
    FTS5 ranking alone (its best ``4·limit`` rows, then filtered against
    ``docs``), because joining every matching row costs more than ranking it;
    when the filter leaves too few and FTS had more, the full join decides."""
    if not terms:
        return []
    match = fts_query(terms)
    marks = ",".join("?" * len(layers))
    weights = ", ".join(str(w) for w in FIELD_WEIGHTS)
    wide = 4 * limit
    ranked_ids = conn.execute(f"SELECT rowid, -bm25(fts, {weights}) AS rel FROM fts WHERE fts MATCH ?"
                              f" ORDER BY rel DESC LIMIT ?", (match, wide)).fetchall()
    if ranked_ids:
        ids = [r[0] for r in ranked_ids]
        rows = {r[0]: r for r in conn.execute(
            f"SELECT {_COLUMNS} FROM docs d WHERE d.id IN ({','.join('?' * len(ids))})"
            f" AND d.layer IN ({marks}) AND {_VISIBLE}", (*ids, *layers, int(include_muted), now, now))}
        kept = [(*rows[i], rel) for i, rel in ranked_ids if i in rows]
        if len(kept) >= limit or len(ranked_ids) < wide:
            return kept[:limit]
    sql = (f"SELECT {_COLUMNS}, -bm25(fts, {weights}) AS rel FROM fts JOIN docs d ON d.id = fts.rowid"
           f" WHERE fts MATCH ? AND d.layer IN ({marks}) AND {_VISIBLE} ORDER BY rel DESC LIMIT ?")
    return conn.execute(sql, (match, *layers, int(include_muted), now, now, limit)).fetchall()


def _rows_by_id(conn, ids: list[int]) -> dict[int, tuple]:
    if not ids:
        return {}
    marks = ",".join("?" * len(ids))
    rows = conn.execute(f"SELECT {_COLUMNS}, 0.0 FROM docs d WHERE d.id IN ({marks})", ids).fetchall()
    return {r[0]: r for r in rows}


def snippet(text: str, terms: Iterable[str], limit: int = SNIPPET_CHARS) -> str:
    """At most ``limit`` characters of ``text`` (whitespace collapsed) around
    the first word whose tokens include one of ``terms``; ``…`` marks cuts."""
    from .tokenize import (
        _SEGMENT,  # the tokenizer's own segmentation, so matches line up
    )

    flat = " ".join(text.split())
    if len(flat) <= limit:
        return flat
    wanted = set(terms)
    start = 0
    for match in _SEGMENT.finditer(flat):
        if wanted.intersection(tokens(match.group(0))):
            start = max(0, match.start() - limit // 4)
            break
    end = min(len(flat), start + limit - 2)
    start = max(0, min(start, end - (limit - 2)))
    piece = flat[start:end]
    return ("…" if start > 0 else "") + piece + ("…" if end < len(flat) else "")


def _result(row, scope_of: dict[str, str], score: float, terms: list[str]) -> SearchResult:
    _id, layer, name, type_, title, description, body, pinned, _updated = row[:9]
    text = snippet(body or description, terms)
    return SearchResult(name=name, scope=scope_of.get(layer, layer), type=type_,
                        description=escape_fence_tags(description), snippet=escape_fence_tags(text),
                        score=float(f"{score:.6g}"), title=title, pinned=bool(pinned))


def ranked(session: Session, query: str, *, pool: int, scope: str | None = None,
           include_muted: bool = False) -> tuple[list[tuple[tuple, float]], list[str], dict[str, str]]:
    """The ranking behind :func:`search`: ``(rows with scores, best first;
    query terms; layer key → scope)``. Rows are database tuples."""
    if not isinstance(query, str):
        raise InvalidInput("query must be a string")
    from . import vectors
    in_scope = session.layers(scope)
    scope_of = {layer_key(session.home, layer.path): layer.scope for layer in in_scope}
    layers = list(scope_of)
    conn = sync(session.home, in_scope)
    terms = query_terms(query)
    now = time.time()
    try:
        lexical = _bm25_rows(conn, _discriminating(conn, terms), layers, include_muted, now, pool)
        dense: list[tuple[int, float]] = []
        # Dense similarity is never zero, so it only reorders and extends what the words
        # found: a query sharing no term with any memory in scope answers nothing.
        if lexical and vectors.enabled(session.settings):
            try:
                dense = vectors.nearest(conn, session.home, query, layers, include_muted, now, pool)
            except (RuntimeError, OSError, ValueError, MemoryError):
                dense = []  # the embedding engine failed: BM25 still answers, as without the extra
        if not dense:
            scored = [(row, row[9] * boost(row[7], row[8], now)) for row in lexical]
        else:
            fused = vectors.fuse([row[0] for row in lexical], [doc_id for doc_id, _ in dense])
            rows = {row[0]: row for row in lexical}
            rows.update(_rows_by_id(conn, [i for i in fused if i not in rows]))
            scored = [(rows[i], s * boost(rows[i][7], rows[i][8], now)) for i, s in fused.items() if i in rows]
    except sqlite3.Error as exc:
        raise StoreError(f"search index error: {exc}") from None
    scored.sort(key=lambda item: (-item[1], item[0][2]))
    return scored, terms, scope_of


def search(session: Session, query: str, k: int = 5, scope: str | None = None, *,
           include_muted: bool = False, max_bytes: int = RESULTS_MAX_BYTES) -> list[SearchResult]:
    """The ``k`` (1–50, an upper bound) best memories for ``query`` in the
    session's layers (``scope`` narrows to ``"user"`` or ``"project"``), best
    first, all together at most ``max_bytes`` of JSON. Empty query or no
    match: ``[]``. Raises :class:`InvalidInput`, :class:`ScopeError`,
    :class:`StoreError`."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1:
        raise InvalidInput(f"k must be a positive integer (got {k!r})")
    k = min(k, MAX_K)
    rows, terms, scope_of = ranked(session, query, pool=max(POOL_MIN, 4 * k), scope=scope,
                                   include_muted=include_muted)
    out: list[SearchResult] = []
    used = 2
    for row, score_value in rows[:k]:
        result = _result(row, scope_of, score_value, terms)
        size = len(_json(result.to_dict()).encode("utf-8")) + 2
        if used + size > max_bytes:
            break
        used += size
        out.append(result)
    return out


def _json(data) -> str:
    import json

    return json.dumps(data, ensure_ascii=False)


__all__ = [
    "FIELD_WEIGHTS", "PIN_BOOST", "RECENCY_BOOST", "RECENCY_HALF_LIFE_DAYS", "SearchResult", "boost",
    "ranked", "search", "snippet",
]
