"""A few memories with no vector yet, measured in meaning on the spot (issue 28: a memory not found is a memory lost).

Vectors are built in the background (:mod:`memdir.search.embedder`), so the first recall right after a write found
its memory by words alone: "Can I deploy the release on a Tuesday?" missed "Deploys go out on Fridays only" (lexical
0.46) until they were built, and recalled it (0.99) once they were. Where the query is embedded with the model loaded
(an MCP server, the CLI, a warm process answering the prompt hook: :func:`memdir.search.dense.cosines`,
:func:`memdir.search.warmanswer.cosines_answer`), :func:`cosines` embeds such memories for the query at hand when
they are at most :data:`INLINE_MAX` of the layers' active memories, through the one-window path a query takes
(:meth:`memdir.search.encoder.Encoder.forward_one`), and keeps those vectors for the process
(:data:`KEPT` of them, by row id and digest); nothing is written: the background embedder writes the index's own.

:data:`INLINE_MAX` from ``benchmarks/bench_inline_embed.py`` (2026-12-05, recall26, a 2-core machine at load 8–21):
the index's path (numpy's layers, several threads) took 300–1,560 ms p50 for one memory and 1.5–2.0 s for four;
the one-window path 22–38 ms per memory, 130–145 ms for four and 280–860 ms for eight, against 28–41 ms for the
query itself. Three keep a recall's added cost about that of embedding the query three times; a store with more
memories waiting (an import, a first sync of thousands) is left to the background embedder, as before: at 10,000
memories nothing is embedded here, and the count that decides it is the cached one
(:func:`memdir.search.vectors.pending`).
"""

from __future__ import annotations

INLINE_MAX = 3
KEPT = 64  # vectors a process keeps of memories embedded here ((id, digest) → vector; then it starts over)
_kept: dict[tuple[int, str | None], object] = {}


def cosines(conn, query_vecs, layers: list[str], allowed=None, pending: tuple[int, int] | None = None) -> dict[int, float]:
    """``{doc id: cosine}`` of the active memories of ``layers`` that have no vector at all
    (:func:`memdir.search.vectors.unembedded`) when they are 1 to :data:`INLINE_MAX` (``pending``: the layers'
    ``(embedded, total)`` of :func:`memdir.search.vectors.pending` when the caller has it), each the largest over
    the rows of ``query_vecs`` (shape ``(n, 384)`` or ``(384,)``, L2-normalized: :func:`memdir.search.querywindows.query_vectors`);
    ``allowed`` as :func:`memdir.search.similarity.similarities` takes it (a set of ids, a
    :class:`memdir.search.similarity.Visible`, or None for all). ``{}`` when more are missing or none. Loads the model
    when it is not loaded; raises what the embedding engine raises."""
    import numpy as np

    from . import vectors

    embedded, total = vectors.pending(conn, layers) if pending is None else pending
    if not 0 < total - embedded <= INLINE_MAX:  # stale vectors stand in (similarity.similarities): not missing
        return {}
    missing = vectors.unembedded(conn, layers)
    if not missing or len(missing) > INLINE_MAX:
        return {}
    rows = conn.execute(f"SELECT id, digest, disabled, valid_from, valid_until, title, description, body FROM docs"
                        f" WHERE id IN ({','.join('?' * len(missing))})", missing).fetchall()
    rows = [row for row in rows if _visible(row, allowed)]
    if not rows:
        return {}
    queries = np.asarray(query_vecs, dtype=np.float32)
    queries = queries[None, :] if queries.ndim == 1 else queries
    out = {}
    for row in rows:
        vec = _vector(row)
        out[row[0]] = float(np.max(queries @ vec))
    return out


def _visible(row, allowed) -> bool:
    if allowed is None:
        return True
    if isinstance(allowed, (set, frozenset, dict)):
        return row[0] in allowed
    import numpy as np

    nan = float("nan")
    return bool(allowed.mask(np.array([bool(row[2])]), np.array([nan if row[3] is None else row[3]], dtype=float),
                             np.array([nan if row[4] is None else row[4]], dtype=float))[0])


def _vector(row):
    """The L2-normalized vector of one docs row (id, digest, …, title, description, body) by the one-window path."""
    import numpy as np

    from . import vectors

    key = (row[0], row[1])
    vec = _kept.get(key)
    if vec is None:
        with vectors._model_lock:
            model = vectors._model()
            text = vectors.memory_text(row[5], row[6], row[7] or "")
        content = model.tokens(text, False)[:model.max_positions - 2]
        vec = np.asarray(model.forward_one([model.tokenizer.bos, *content, model.tokenizer.eos]), dtype=np.float32)
        vec = vec / max(float(np.linalg.norm(vec)), 1e-6)
        if len(_kept) >= KEPT:
            _kept.clear()
        _kept[key] = vec
    return vec


__all__ = ["INLINE_MAX", "KEPT", "cosines"]
