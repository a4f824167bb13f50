"""Sentence vectors kept in the index, so a tie met again in another process is not embedded again.

An explicit search whose first hits tie embeds one sentence of each tied memory (:func:`memdir.search.ties.broken`):
8 sentences cost 100–400 ms of CPU. A process keeps them (:func:`memdir.search.vectors.sentence_vectors`), but a
``memdir search`` is a fresh process each time and an MCP server lives one session, so the same question asked
again embedded the same sentences again. :func:`vectors_for` keeps each sentence's vector in the index's table
``sentence_vectors`` under a digest of :data:`memdir.search.vectors.MODEL_ID` and the sentence's exact text: a
memory edited so that another sentence answers asks for another digest, so a vector is never used for a text it
was not computed from, and another model never reads this one's. The table is filled only by searches that embed
(nothing is embedded for it ahead of time: embedding every sentence of every note would cost about five times the
heads' embedding, 41 → ≈ 8 notes/s), holds at most :data:`KEPT_ROWS` vectors (the oldest written go first:
≈ 1.6 KB each, ≈ 13 MB at most) and is left out of every rebuild (a cache: a new index starts without it).

Writing is best effort and never waits: a read-only index, a full disk or another writer holding the lock
(:func:`_write` asks for it without waiting) leave the table as it is, and the search goes on with the vectors
it embedded.
"""

from __future__ import annotations

import hashlib
import sqlite3

from .index import ReadOnly
from .schema import write_if_free

KEPT_ROWS = 8192  # vectors kept (384 float32 each, 1,536 bytes and a 16-byte key)
_TABLE = ("CREATE TABLE IF NOT EXISTS sentence_vectors (id INTEGER PRIMARY KEY, key BLOB UNIQUE NOT NULL, "
          "vector BLOB NOT NULL)")


def key(sentence: str) -> bytes:
    """The 16-byte digest a sentence's vector is kept under: the model's id and the sentence's exact text."""
    from .vectors import MODEL_ID

    return hashlib.sha256(f"{MODEL_ID}\0{sentence}".encode("utf-8", "surrogatepass")).digest()[:16]


def vectors_for(conn: sqlite3.Connection | None, sentences: list[str]):
    """:func:`memdir.search.vectors.sentence_vectors` of ``sentences`` (shape ``(len(sentences), 384)``,
    float32), each read from the index of ``conn`` when a search has kept it there and the rest embedded (and
    kept in this process) then written there (:func:`_write`). ``conn`` None: the process's vectors only.
    Raises what the embedding raises (``RuntimeError``, ``OSError``, ``ValueError``, ``MemoryError``); an
    unreadable or missing table reads as empty, a kept row that is not 384 finite float32 as not kept (embedded
    again and written over)."""
    import numpy as np

    from . import vectors

    if conn is None or not sentences:
        return vectors.sentence_vectors(sentences)
    keys = {s: key(s) for s in dict.fromkeys(sentences)}
    known = {}
    for sentence, blob in zip(keys, _read(conn, list(keys.values()))):
        if vectors.sound([blob])[0]:  # a number, text, cut or NaN blob there is no vector
            known[sentence] = np.frombuffer(blob, dtype=np.float32)
    todo = [s for s in keys if s not in known]
    if todo:
        fresh = vectors.sentence_vectors(todo)
        known.update(zip(todo, fresh))
        _write(conn, [(keys[s], np.asarray(known[s], dtype=np.float32).tobytes()) for s in todo])
    return np.stack([known[s] for s in sentences])


def _read(conn: sqlite3.Connection, keys: list[bytes]) -> list[bytes | None]:
    """The vector blob kept under each of ``keys`` (None for one not kept, or all when the table cannot be read)."""
    try:
        rows = dict(conn.execute(f"SELECT key, vector FROM sentence_vectors WHERE key IN ({','.join('?' * len(keys))})",
                                 keys).fetchall())
    except sqlite3.Error:  # no table yet (no tie embedded in this index), or an index that cannot be read now
        return [None] * len(keys)
    return [rows.get(k) for k in keys]


def _write(conn: sqlite3.Connection, rows: list[tuple[bytes, bytes]]) -> None:
    """Keep ``rows`` (key, vector blob) in one transaction, the oldest beyond :data:`KEPT_ROWS` dropped; nothing
    when the index is read-only, full, or locked by another writer (the lock is asked for without waiting)."""
    if isinstance(conn, ReadOnly):
        return

    def keep(conn: sqlite3.Connection) -> None:
        conn.execute(_TABLE)
        conn.executemany("INSERT OR REPLACE INTO sentence_vectors (key, vector) VALUES (?, ?)", rows)
        conn.execute("DELETE FROM sentence_vectors WHERE id <= (SELECT max(id) FROM sentence_vectors) - ?",
                     (KEPT_ROWS,))

    write_if_free(conn, keep)  # busy, full or read-only: the vectors stay this process's (vectors.sentence_vectors)


__all__ = ["KEPT_ROWS", "key", "vectors_for"]
