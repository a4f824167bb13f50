"""Sentence vectors kept in the index, so a tie met again in another process is not embedded again.

An explicit search whose first hits tie embeds one sentence of each tied memory (:func:`memdir.search.ties.broken`):
8 sentences cost 100–400 ms of CPU. A process keeps them (:func:`memdir.search.vectors.sentence_vectors`), but a
``memdir search`` is a fresh process each time and an MCP server lives one session, so the same question asked
again embedded the same sentences again. :func:`vectors_for` keeps each sentence's vector in the index's table
``sentence_vectors`` under a digest of :data:`memdir.search.vectors.MODEL_ID` and the sentence's exact text: a
memory edited so that another sentence answers asks for another digest, so a vector is never used for a text it
was not computed from, and another model never reads this one's. The table is filled by searches that embed,
holds at most :data:`KEPT_ROWS` vectors (the oldest written go first: ≈ 0.8 KB each, ≈ 7 MB at most) and is left
out of every rebuild (a cache: a new index starts without it).

Ahead of any search, with :data:`EMBED_SENTENCES`, the background embedder (:mod:`memdir.search.embedder`, after
every head) embeds every sentence a tie could pick (:func:`sentences_of`: each of a memory's, as
:func:`memdir.search.ties.best_sentence` cuts it), :func:`fill`: the table ``memory_sentences`` says which memory
holds which sentence (its :func:`key`), ``sentence_marks`` at which digest of its text each memory was done (once a
memory, not once a sentence: a 64-digit digest in each of 16,477 rows was ≈ 1 MB of 1,000 notes' index), and
``filled_vectors`` holds each distinct sentence's vector once, however many memories hold it (a trigger drops
it when the last one lets it go: :data:`memdir.search.schema.SENTENCE_TABLES`). :func:`vectors_for` reads both
``filled_vectors`` and ``sentence_vectors``, so a first-seen tie embeds nothing on the query path. Which sentence a
tie picks cannot be told ahead: over ``compare_basic_memory.py``'s 194 queries (1,000 notes) the 121 picked sat at
every position of their notes (0 to 22, ≈ 5–11 at each of the first twelve), so it is every sentence or none. It
costs ≈ 3.7× the heads' CPU (258-word notes: 14.7 sentences each, 11 ms each against 43 ms a head, loaded 2-core
machine) and ≈ 0.9 KB a distinct sentence in the index (a float16 vector, :func:`halved`: 768 bytes, five rows to a
4 KB page): ``benchmarks/same_answers.py``'s 1,000 planted notes hold 16,390 sentences, 13,283 distinct, and their
index is 20.6 MB, VACUUMed (38.1 MB with float32 vectors, 1,536 bytes, and the digest in every sentence's row: schema
28; 43.3 MB when each memory's row held its own vector; 8.5 MB without sentences, ``bench_sentence_fill.py``). The
float16 vectors rank alike: that set's 50 questions answer byte for byte as with float32 (review32). A text held by several memories was
embedded once before too (a fill reads the vectors kept), so sharing saves bytes, not CPU (the fill: 198 CPU-s, 203
before, one run). Every head comes first
(:func:`memdir.search.embedder.run` looks for heads again between rounds of :data:`memdir.search.embedder.PASSAGE_ROUND`
memories), so the heads' build rate stays.

Writing is best effort and never waits: a read-only index, a full disk or another writer holding the lock
(:func:`_write` asks for it without waiting) leave the table as it is, and the search goes on with the vectors
it embedded.
"""

from __future__ import annotations

import sqlite3

from .index import ReadOnly
from .schema import SENTENCE_TABLES, write_if_free

KEPT_ROWS = 8192  # vectors kept (384 float16 each, 768 bytes and a 16-byte key)
HALF_BYTES = 384 * 2  # a kept sentence vector: 384 float16 (schema 29; 28 kept float32, 1,536 bytes)
_TABLE = ("CREATE TABLE IF NOT EXISTS sentence_vectors (id INTEGER PRIMARY KEY, key BLOB UNIQUE NOT NULL, "
          "vector BLOB NOT NULL)")


def key(sentence: str) -> bytes:
    """The 16-byte digest a sentence's vector is kept under: the model's id and the sentence's exact text."""
    import hashlib  # here: the prompt hook imports this module (search.dense) and must stay lean

    from .vectors import MODEL_ID

    return hashlib.sha256(f"{MODEL_ID}\0{sentence}".encode("utf-8", "surrogatepass")).digest()[:16]


def halved(vecs):
    """``vecs`` (n × 384) as the index keeps a sentence's vector: float16, a row not all finite set to zeros
    (:func:`memdir.search.vectors.finite`). Normalized vectors lose ≈ 3 decimal digits per value, half the bytes."""
    import numpy as np

    from . import vectors

    return vectors.finite(vecs).astype(np.float16)


def sound(blobs: list):
    """Which of ``blobs`` (values of a vector column: bytes, or what a hand edit or a torn page left) are kept
    sentence vectors: exactly :data:`HALF_BYTES` bytes whose 384 float16 are all finite
    (:func:`memdir.search.vectors.sound`'s rule). A bool array, one per blob; a float32 vector of an index of
    schema 28 is none (its upgrade halves them)."""
    from .vectors import sound as vectors_sound

    return vectors_sound(blobs, "float16")


def vectors_for(conn: sqlite3.Connection | None, sentences: list[str]):
    """:func:`memdir.search.vectors.sentence_vectors` of ``sentences`` as the index keeps them (:func:`halved`,
    read back as float32: shape ``(len(sentences), 384)``), each read from the index of ``conn`` when a search or
    the fill has kept it there and the rest embedded (and kept in this process) then written there
    (:func:`_write`): a tie is broken by the same numbers whether its sentences were kept or just embedded.
    ``conn`` None: the process's vectors only, halved alike. Raises what the embedding raises (``RuntimeError``,
    ``OSError``, ``ValueError``, ``MemoryError``); an unreadable or missing table reads as empty, a kept row that
    is not :func:`sound` as not kept (embedded again and written over)."""
    import numpy as np

    from . import vectors

    if conn is None or not sentences:
        return halved(vectors.sentence_vectors(sentences)).astype(np.float32)
    keys = {s: key(s) for s in dict.fromkeys(sentences)}
    known = {}
    for sentence, blob in zip(keys, _read(conn, list(keys.values()))):
        if sound([blob])[0]:  # a number, text, cut or NaN blob there is no vector
            known[sentence] = np.frombuffer(blob, dtype=np.float16)
    todo = [s for s in keys if s not in known]
    if todo:
        known.update(zip(todo, halved(vectors.sentence_vectors(todo))))
        _write(conn, [(keys[s], known[s].tobytes()) for s in todo])
    return np.stack([known[s] for s in sentences]).astype(np.float32)


def _read(conn: sqlite3.Connection, keys: list[bytes]) -> list[bytes | None]:
    """The vector blob kept under each of ``keys`` (None for one not kept, or all when the table cannot be read)."""
    marks = ",".join("?" * len(keys))
    rows: dict = {}
    for table in ("filled_vectors", "sentence_vectors"):  # both hold a sentence's vector under the same key
        try:
            rows.update(conn.execute(f"SELECT key, vector FROM {table} WHERE key IN ({marks})", keys).fetchall())
        except sqlite3.Error:  # no table yet (no tie embedded, none filled), or an index that cannot be read now
            continue
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


EMBED_SENTENCES = True  # the background embedder fills memory_sentences after every head (fill)
# At most this many sentences are filled (≈ 0.9 KB each: ≈ 18 MB; ≈ 10 ms of CPU each, ≈ 200 s once): a store of
# short memories fits whole; in a larger one the memories past it (the newest ids) keep today's way, their tie
# sentences embedded when a search first meets them — the same vectors, so the same answers, only slower once.
# 1,000 notes of 258 words are 17,477 sentences (tail29); 10,000 of 400 words would be ≈ 250,000 (≈ 220 MB).
MAX_FILLED = 20_000
# The marks, then the sentence rows, of memories gone or changed (a vector no memory holds then goes: the trigger)
_GONE = (("DELETE FROM sentence_marks WHERE id NOT IN (SELECT id FROM docs WHERE status = 'active')"
          " OR digest IS NOT (SELECT digest FROM docs WHERE docs.id = sentence_marks.id)"),
         "DELETE FROM memory_sentences WHERE id NOT IN (SELECT id FROM sentence_marks)")
_UNMARKED = ("SELECT d.id, d.digest, d.body, d.description FROM docs d LEFT JOIN sentence_marks s ON s.id = d.id"
             " AND s.digest IS d.digest WHERE d.status = 'active' AND s.id IS NULL ORDER BY d.id")


def sentences_of(body: str | None, description: str) -> list[str]:
    """Every sentence :func:`memdir.search.ties.best_sentence` may return for a memory of ``body`` and
    ``description`` (a tie reads the body, or the description when the body is empty): each sentence or line,
    stripped, cut at :data:`memdir.search.ties.SENTENCE_CHARS` characters, in order, each once, none empty. Pure."""
    from .ties import SENTENCE_CHARS, sentences

    return [s for s in dict.fromkeys(s.strip()[:SENTENCE_CHARS] for s in sentences(body or description)) if s]


def _tables(conn: sqlite3.Connection) -> None:
    """``memory_sentences``, ``sentence_marks`` and ``filled_vectors`` (and their index and trigger), made unless
    there."""
    for statement in SENTENCE_TABLES:
        conn.execute(statement)


def fill(conn: sqlite3.Connection, *, limit: int | None = None, should_stop=None) -> int:
    """Embed the sentences (:func:`sentences_of`) of at most ``limit`` active memories whose current text has none
    in ``memory_sentences`` yet (a sentence whose vector either table keeps is not embedded again; one held by
    several memories is kept once, in ``filled_vectors``), until ``memory_sentences`` holds :data:`MAX_FILLED`
    sentences of memories; returns how many memories were done. Commits every :data:`memdir.search.vectors.BATCH`
    sentences or so (rows of a memory changed meanwhile are not written; rows of memories gone or changed are
    dropped, and a vector no memory holds any longer with them); ``should_stop`` (a callable) is asked between
    batches. Raises what the embedding or SQLite raises (the background embedder logs it)."""
    from . import vectors
    from .index import write_transaction

    _tables(conn)
    if _filled_rows(conn) >= MAX_FILLED:  # nothing is filled: the rows of memories gone or changed go now
        with write_transaction(conn):
            _drop_gone(conn)
        return 0
    todo = conn.execute(_UNMARKED + " LIMIT ?", (-1 if limit is None else int(limit),)).fetchall()
    done, rows = 0, []  # rows: (id, digest, sentence; None for the mark)
    for position, (doc_id, digest, body, description) in enumerate(todo):
        if should_stop is not None and should_stop():
            break
        rows += [(doc_id, digest, s) for s in sentences_of(body, description or "")] + [(doc_id, digest, None)]
        if len(rows) < vectors.BATCH and position + 1 < len(todo):
            continue
        wanted = list(dict.fromkeys(s for _, _, s in rows if s is not None))
        known = dict(zip(wanted, _read(conn, [key(s) for s in wanted]))) if wanted else {}
        fresh = [s for s in wanted if not sound([known[s]])[0]]
        if fresh:
            known.update(zip(fresh, (v.tobytes() for v in halved(vectors.embed(fresh)))))
        ids, fresh_set = sorted({row[0] for row in rows}), set(fresh)
        with write_transaction(conn):
            conn.executemany("DELETE FROM memory_sentences WHERE id = ?", [(i,) for i in ids])
            conn.executemany("DELETE FROM sentence_marks WHERE id = ?", [(i,) for i in ids])
            # a memory's mark at the digest read, unless it changed meanwhile; its sentences' rows only beside its mark
            conn.executemany("INSERT OR REPLACE INTO sentence_marks SELECT ?1, ?2 WHERE EXISTS"
                             " (SELECT 1 FROM docs WHERE id = ?1 AND digest IS ?2)",
                             [(i, d) for i, d, s in rows if s is None])
            conn.executemany("INSERT OR REPLACE INTO memory_sentences SELECT ?1, ?2 WHERE EXISTS"
                             " (SELECT 1 FROM sentence_marks WHERE id = ?1)",
                             [(i, key(s)) for i, _d, s in rows if s is not None])
            # each sentence's vector once, when a memory written above holds it (not one changed meanwhile); a
            # fresh one over a kept row that was no vector, a known one over nothing
            for verb, texts in (("REPLACE", fresh), ("IGNORE", [s for s in wanted if s not in fresh_set])):
                conn.executemany(f"INSERT OR {verb} INTO filled_vectors SELECT ?1, ?2 WHERE EXISTS"
                                 " (SELECT 1 FROM memory_sentences WHERE key = ?1)",
                                 [(key(s), known[s]) for s in texts])
            _drop_gone(conn)
        done += len(ids)
        rows = []
        if _filled_rows(conn) >= MAX_FILLED:
            break
    return done


def _drop_gone(conn: sqlite3.Connection) -> None:
    """Drop the marks and sentence rows of memories gone or changed (:data:`_GONE`), inside the caller's transaction."""
    for statement in _GONE:
        conn.execute(statement)


def _filled_rows(conn: sqlite3.Connection) -> int:
    """How many sentence vectors ``memory_sentences`` holds for the active memories' current texts (rows of a memory
    gone or changed, which a fill may still reuse, left out)."""
    return conn.execute("SELECT count(*) FROM memory_sentences m JOIN sentence_marks s ON s.id = m.id JOIN docs d"
                        " ON d.id = m.id AND d.digest IS s.digest AND d.status = 'active'").fetchone()[0]


FILLED = "sentences_filled"  # meta key: the index generation at which every active memory had its sentences


def stale(conn: sqlite3.Connection) -> bool:
    """True unless the last full :func:`fill` (:func:`mark_filled`) left the index at its current generation (a
    write, a sync, a head embedded since may have left a memory without its sentences): a search then starts the
    background embedder. One row read (the prompt path may ask it); always False without :data:`EMBED_SENTENCES`."""
    if not EMBED_SENTENCES:
        return False
    row = conn.execute("SELECT (SELECT value FROM meta WHERE key = 'generation'),"
                       " (SELECT value FROM meta WHERE key = ?)", (FILLED,)).fetchone()
    return row[0] != row[1]


def mark_filled(conn: sqlite3.Connection) -> bool:
    """Record, in one write transaction, that every active memory has its head vector and its sentences (or the
    table its :data:`MAX_FILLED`) at the index's current generation — when that is so; returns whether it was (the background embedder, after a pass)."""
    from . import vectors
    from .index import write_transaction

    _tables(conn)
    with write_transaction(conn):
        embedded, total = vectors.pending(conn)
        done = embedded == total and (_filled_rows(conn) >= MAX_FILLED or conn.execute(
            _UNMARKED + " LIMIT 1").fetchone() is None)
        if done:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, (SELECT value FROM meta WHERE key = 'generation'))",
                         (FILLED,))
    return done


__all__ = ["EMBED_SENTENCES", "FILLED", "HALF_BYTES", "KEPT_ROWS", "MAX_FILLED", "fill", "halved", "key", "mark_filled",
           "sentences_of", "sound", "stale", "vectors_for"]
