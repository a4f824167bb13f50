"""The body passages' vectors of long memories, kept in the index's ``passage_vectors`` table: which memories
lack them, embedding them (the background embedder, after every head), and marking the index's passages done.

What a passage is and its text: :func:`memdir.search.vectors.passage_texts`; reading them with the heads:
:func:`memdir.search.similarity.best_passages`. Imported only off the SessionStart hot path (the embedder, a search
asking whether the passages are stale).
"""

from __future__ import annotations

from . import vectors
from .index import write_transaction


def _passage_table(conn) -> None:
    conn.execute("CREATE TABLE IF NOT EXISTS passage_vectors (id INTEGER, digest TEXT, model TEXT, n INTEGER,"
                 " vec BLOB, PRIMARY KEY (id, n))")


def _passages_todo(conn, where: str, args: list, limit: int | None) -> list[tuple]:
    return conn.execute(
        f"SELECT d.id, d.digest, d.title, d.description, d.body FROM docs d JOIN vectors v ON v.id = d.id"
        f" AND v.digest IS d.digest AND v.model = ? LEFT JOIN passage_vectors p ON p.id = d.id AND p.n = 0"
        f" AND p.digest IS d.digest AND p.model = ? WHERE {where} AND p.id IS NULL ORDER BY d.id LIMIT ?",
        (vectors.MODEL_ID, vectors.MODEL_ID, *args, -1 if limit is None else int(limit))).fetchall()


def embed_passages(conn, layers: list[str] | None, *, limit: int | None = None, should_stop=None) -> int:
    """Embed the body passages (:func:`memdir.search.vectors.passage_texts` 1…) of the active
    memories of ``layers`` (every layer when None) that have a current head
    vector but no passages of their current text, at most ``limit`` memories;
    returns how many memories were done. Stored in ``passage_vectors`` of
    the index (doc id, digest, model, passage number, vector; row 0, with no
    vector, marks a memory done, so a short one is not looked at again);
    rows of an older text or a memory gone are dropped. Commits every
    :data:`memdir.search.vectors.BATCH` passages. Run after
    :func:`memdir.search.vectors.embed_missing`: heads first."""

    _passage_table(conn)
    if (chosen := vectors.active_in(layers)) is None:
        return 0
    where, args = chosen
    todo = _passages_todo(conn, where, args, limit)
    done = 0
    pending_rows: list[tuple] = []  # (id, digest, n, text)
    for position, (doc_id, digest, title, description, body) in enumerate(todo):
        if should_stop is not None and should_stop():
            break
        texts = vectors.passage_texts(title, description, body or "")[1:]
        pending_rows += [(doc_id, digest, n, text) for n, text in enumerate(texts, 1)]
        pending_rows.append((doc_id, digest, 0, None))
        if len(pending_rows) < vectors.BATCH and position + 1 < len(todo):
            continue
        texts = [row[3] for row in pending_rows if row[3] is not None]
        vecs = iter(vectors.finite(vectors.embed(texts))) if texts else iter(())
        rows = [(i, d, vectors.MODEL_ID, n, None if t is None else next(vecs).tobytes()) for i, d, n, t in pending_rows]
        ids = sorted({row[0] for row in rows})
        with write_transaction(conn):
            conn.executemany("DELETE FROM passage_vectors WHERE id = ?", [(i,) for i in ids])
            conn.executemany("INSERT INTO passage_vectors SELECT ?,?,?,?,? WHERE EXISTS"
                             " (SELECT 1 FROM docs WHERE id = ? AND digest IS ?)",
                             [(*row, row[0], row[1]) for row in rows])
            conn.execute("DELETE FROM passage_vectors WHERE id NOT IN (SELECT id FROM docs)")
            # Not the index generation: doc ids do not change, so a warm process's answer stays good.
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, COALESCE((SELECT value FROM meta WHERE key = ?), 0)"
                         " + 1)", (vectors.PASSAGES_GENERATION, vectors.PASSAGES_GENERATION))
        done += len(ids)
        pending_rows = []
    return done


PASSAGES_DONE = "passages_done"  # meta key: the index generation at which every memory had its passages


def passages_stale(conn) -> bool:
    """True unless the last full pass of :func:`embed_passages` left the
    index at its current generation (any change since — a write, a sync, a
    head embedded — may have left a memory without passages). One row read:
    the prompt path may ask it. Always False while :data:`memdir.search.vectors.EMBED_PASSAGES` is off."""
    if not vectors.EMBED_PASSAGES:
        return False
    row = conn.execute("SELECT (SELECT value FROM meta WHERE key = 'generation'),"
                       " (SELECT value FROM meta WHERE key = ?)", (PASSAGES_DONE,)).fetchone()
    return row[0] != row[1]


def mark_passages_done(conn) -> bool:
    """Record, in one write transaction, that no active memory of the index
    lacks its head or its passages at the current generation — when that is
    so; returns whether it was (the background embedder, after a pass)."""
    _passage_table(conn)
    with write_transaction(conn):
        embedded, total = vectors.pending(conn)
        done = embedded == total and not _passages_todo(conn, "d.status = 'active'", [], 1)
        if done:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, (SELECT value FROM meta WHERE key = 'generation'))",
                         (PASSAGES_DONE,))
    return done


__all__ = ["PASSAGES_DONE", "embed_passages", "mark_passages_done", "passages_stale"]
