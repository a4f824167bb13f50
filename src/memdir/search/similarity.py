"""Cosines of a query's vector against the vectors stored in the search index: the matrix of a set of
layers' vectors, kept per process until the index's generation changes, with damaged blobs dropped as they
are read (:func:`dropped`); a query's cosine with each memory's head (:func:`similarities`) or its best over
head and body passages (:func:`best_passages`), restricted to what the query may see (:class:`Visible`).
Embedding and storing the vectors: :mod:`memdir.search.vectors`. Loads numpy only when asked.
"""

from __future__ import annotations

import threading

from . import vectors  # read at each call (MODEL_ID may be set)

_matrix_lock = threading.Lock()
_matrices: dict[tuple, tuple] = {}  # (home, layers) -> (generation, the matrix's arrays)
_dropped = [0]  # damaged vector rows dropped by this process (dropped())


def _drop_damaged(conn, heads: list[tuple[int, bytes]], passages: set[int]) -> None:
    # Found by the one read of every blob: deleted, each head only while it is the blob read (one written
    # meanwhile stays), with every passage row of a memory (row 0 marks its passages done), so pending()
    # counts them missing and the background embedder embeds them again. On a connection of its own (the
    # reader is inside a search's snapshot) asked without waiting: a search never waits for another
    # writer's lock to mend a vector; left, it is dropped at the next read. An in-memory copy has no file.
    import sqlite3

    from .index import ReadOnly
    from .schema import write_if_free

    def drop(other) -> None:
        other.executemany("DELETE FROM vectors WHERE id = ? AND vec = ?", heads)
        if passages:  # else there may be no passage table at all
            other.executemany("DELETE FROM passage_vectors WHERE id = ?", [(i,) for i in sorted(passages)])
        other.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")

    try:
        path = None if isinstance(conn, ReadOnly) else conn.execute("PRAGMA database_list").fetchone()[2]
        other = sqlite3.connect(path, timeout=0, isolation_level=None) if path else None
    except sqlite3.Error:
        return
    if other is None:
        return
    try:
        if write_if_free(other, drop):
            _dropped[0] += len(heads) + len(passages)
    finally:
        other.close()


def dropped() -> int:
    """How many damaged vector rows (heads and memories' passages, :func:`memdir.search.vectors.sound`) this process's reads have
    dropped from the index so far: a search whose read dropped one starts the background embedder."""
    return _dropped[0]


def _generation(conn) -> tuple:
    return conn.execute("SELECT (SELECT value FROM meta WHERE key = 'generation'),"
                        " (SELECT value FROM meta WHERE key = ?)", (vectors.PASSAGES_GENERATION,)).fetchone()


def _matrix(conn, home, layers: tuple[str, ...]):
    import sqlite3

    import numpy as np

    generation = _generation(conn)
    key = (str(home), layers)
    with _matrix_lock:
        cached = _matrices.get(key)
    if cached is not None and cached[0] == generation:
        return cached[1]
    marks = ",".join("?" * len(layers))
    rows = conn.execute(
        f"SELECT d.id, d.disabled, d.valid_from, d.valid_until, v.vec FROM docs d JOIN vectors v ON v.id = d.id"
        f" WHERE d.layer IN ({marks}) AND d.status = 'active' AND v.model = ? AND length(v.vec) = ?"
        f" ORDER BY d.id", (*layers, vectors.MODEL_ID, vectors.VEC_BYTES)).fetchall()  # a damaged blob (NULL, cut) is left out
    try:
        extra = conn.execute(
            f"SELECT p.id, p.n, p.vec FROM docs d JOIN passage_vectors p ON p.id = d.id AND p.digest = d.digest"
            f" WHERE d.layer IN ({marks}) AND d.status = 'active' AND p.model = ? AND length(p.vec) = ?",
            (*layers, vectors.MODEL_ID, vectors.VEC_BYTES)).fetchall()
    except sqlite3.OperationalError:  # no passage table yet (an index no passage was embedded into)
        extra = []
    heads, passages = vectors.sound([r[4] for r in rows]), vectors.sound([r[2] for r in extra])
    if not heads.all() or not passages.all():  # NaN or inf values: damaged as a cut blob is
        _drop_damaged(conn, [(r[0], r[4]) for r, ok in zip(rows, heads) if not ok],
                      {r[0] for r, ok in zip(extra, passages) if not ok})
        rows = [r for r, ok in zip(rows, heads) if ok]
        extra = [r for r, ok in zip(extra, passages) if ok]
    nan = float("nan")

    def stack(blobs):
        return (np.frombuffer(b"".join(blobs), dtype=np.float32).reshape(len(blobs), -1)
                if blobs else np.zeros((0, 384), dtype=np.float32))

    data = (
        np.array([r[0] for r in rows], dtype=np.int64),
        np.array([bool(r[1]) for r in rows], dtype=bool),
        np.array([nan if r[2] is None else r[2] for r in rows], dtype=np.float64),
        np.array([nan if r[3] is None else r[3] for r in rows], dtype=np.float64),
        stack([r[4] for r in rows]),
        np.array([r[0] for r in extra], dtype=np.int64),
        np.array([r[1] for r in extra], dtype=np.int64),
        stack([r[2] for r in extra]),
    )
    with _matrix_lock:
        _matrices[key] = (generation, data)
    return data


class Visible:
    """The memories a query may see when it has no filters, as
    :func:`similarities` takes for ``allowed``: not muted unless
    ``include_muted``, inside ``valid_from``/``valid_until`` at ``now`` (Unix
    seconds) — the visibility rule of :mod:`memdir.search.ranking`, whose
    other conditions (active, in the query's layers) every row of the cached
    matrix already meets. Applied to the matrix's own columns, so a query
    does not collect every visible id from the index. (A plain class: the
    SessionStart hook imports this module and must not load ``dataclasses``.)"""

    __slots__ = ("include_muted", "now")

    def __init__(self, include_muted: bool, now: float):
        self.include_muted = include_muted
        self.now = now

    def mask(self, disabled, valid_from, valid_until):
        """A boolean array over the matrix rows (NaN: no bound)."""
        import numpy as np

        with np.errstate(invalid="ignore"):
            shown = (np.isnan(valid_until) | (valid_until > self.now)) & (np.isnan(valid_from)
                                                                         | (valid_from <= self.now))
        return shown if self.include_muted else shown & ~disabled


def similarities(conn, home, query_vec, layers: list[str], allowed=None, passages: bool = False) -> dict[int, float]:
    """``{doc id: cosine}`` for every memory of ``layers`` with a vector
    (``allowed``: a set of ids to keep, the visible ones, a
    :class:`Visible`, or None for all): the head's (what ranking uses today), or with ``passages`` the best
    over the memory's head and body passages (:func:`best_passages`). On the
    recall evaluation the best-passage cosine with today's relevance
    coefficients loses one prompt per half (held-out hit 0.855 → 0.841,
    false recall 0.031 both); on facts planted deep in 200 long notes the
    dense side finds 20 of 20 first against 4 of 20 with heads alone. Never
    embeds a memory: what has no vector yet is absent. A memory changed
    since its vector was computed keeps that vector as a stand-in until the
    background embedder replaces it (:func:`memdir.search.sync.sync` carries it
    to the memory's new row; :func:`pending` still counts it missing): an edit
    rarely turns what a memory is about, and a memory just written must not
    drop out of recall by meaning for the seconds its new vector takes."""
    if passages:
        return {i: c for i, (c, _n) in best_passages(conn, home, query_vec, layers, allowed).items()}
    import numpy as np

    ids, disabled, valid_from, valid_until, matrix, *_ = _matrix(conn, home, tuple(sorted(layers)))
    if not len(ids):
        return {}
    scores = matrix @ query_vec
    if allowed is None:
        return dict(zip(ids.tolist(), scores.tolist()))
    if isinstance(allowed, Visible):
        keep = allowed.mask(disabled, valid_from, valid_until)
        return dict(zip(ids[keep].tolist(), scores[keep].tolist()))
    keep = np.fromiter((i in allowed for i in ids.tolist()), dtype=bool, count=len(ids))
    return dict(zip(ids[keep].tolist(), scores[keep].tolist()))


def best_passages(conn, home, query_vec, layers: list[str], allowed=None) -> dict[int, tuple[float, int]]:
    """``{doc id: (cosine, passage number)}``: for every memory of ``layers``
    with a current head vector (``allowed`` as in :func:`similarities`), its
    best cosine over the head (passage 0) and the body passages embedded so
    far, and which passage gave it — the text is
    ``passage_texts(title, description, body)[n]`` (:func:`memdir.search.vectors.passage_texts`).
    A memory whose passages are not embedded yet has its head's cosine."""
    import numpy as np

    ids, disabled, valid_from, valid_until, matrix, owners, numbers, extra = _matrix(conn, home,
                                                                                    tuple(sorted(layers)))
    if not len(ids):
        return {}
    best = matrix @ query_vec
    which = np.zeros(len(ids), dtype=np.int64)
    if len(owners):
        scores = extra @ query_vec
        slot = np.minimum(np.searchsorted(ids, owners), len(ids) - 1)  # ids are sorted (ORDER BY d.id)
        known = ids[slot] == owners
        slot, scores, numbers = slot[known], scores[known], numbers[known]
        order = np.lexsort((-scores, slot))  # by memory, best passage first
        _, first = np.unique(slot[order], return_index=True)
        top = order[first]
        better = scores[top] > best[slot[top]]
        best[slot[top][better]] = scores[top][better]
        which[slot[top][better]] = numbers[top][better]
    if isinstance(allowed, Visible):
        keep = allowed.mask(disabled, valid_from, valid_until)
        ids, best, which, allowed = ids[keep], best[keep], which[keep], None
    out = zip(ids.tolist(), best.tolist(), which.tolist())
    return {i: (c, n) for i, c, n in out if allowed is None or i in allowed}


__all__ = ["Visible", "best_passages", "dropped", "similarities"]
