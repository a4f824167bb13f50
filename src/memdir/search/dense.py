"""The dense side of one search: the query's embedding, started early, and the cosines of what it may see.

Embedding a query is most of a hybrid search's cost (≈ 20 ms of CPU for a
question of ~18 model tokens: twelve layers of float32 matrix products,
:mod:`memdir.search.encoder`), and none of the lexical work — FTS5, the
sentence pass, the lexical evidence — needs it. So :func:`start` hands the
embedding to a worker thread as soon as the index says some memory has a
vector, the ranking does its lexical work meanwhile (numpy releases the GIL
in its products, so the two run on two cores), and :func:`cosines` waits for
the vector only when it needs it. The answer is the same as embedding in
line: the same function computes the same vector (:data:`OVERLAP` off runs
it in line, for comparison).

An embedding in numpy's layers overlaps only when a core is free (:func:`spare_core`): on a machine whose
cores are all busy the two threads hand the GIL to each other through the scheduler at each of its ≈ 600 numpy
calls, and the overlap made a hybrid search through MCP slower (p50 145 → 161 ms at a load of 6–7 on 2 cores, the
same 200 queries alternated between two servers); it then embeds in line, as before. A query embedded by ONNX
Runtime (:func:`in_one_call`: a search's query, a prompt without query windows) is one call that holds no GIL
while it runs, so it always overlaps: at a load of 5.6 on 2 cores, 194 queries alternated in one process, in line
and overlapped took the same CPU (20.7 and 20.3 ms p50) and wall time (22.6 and 22.2 ms p50); on a free core its
≈ 7 ms come off the wall time.

A long prompt is embedded with its windows, in one batch (:mod:`memdir.search.querywindows`): a memory's cosine
is the best of the whole's and theirs. The last :data:`KEPT` query vectors are kept (:func:`query_vectors`), keyed
by the text that is embedded (:func:`memdir.search.vectors.query_text`:
hidden characters and extra whitespace gone), so the same text is embedded
once: a search breaks a tie with the vector it ranked with
(:mod:`memdir.search.ties`), and a query asked again (a model repeating a
search, a person paging) skips the embedding. Only a query repeated is
faster: every distinct query still embeds.
"""

from __future__ import annotations

import os
import threading
from typing import TYPE_CHECKING

from ..session import Session

if TYPE_CHECKING:  # a fresh prompt hook imports this module and must not load concurrent.futures
    from concurrent.futures import Future

OVERLAP = True  # embed the query in a worker thread while the lexical side runs (off: in line, same vector)
KEPT = 256  # query vectors kept per process (1.5 KB each), the least recently used dropped first
WORKERS = 2  # searches whose queries embed at once (an MCP server, the panel's threads, the warm process)
LOADAVG = "/proc/loadavg"  # Linux: its fourth field is "runnable now/all" scheduling entities
ONE_CALL_CHARS = 240  # a query text this short is one model window (≤ 2 tokens a character): one ONNX Runtime call

_vectors: dict[str, object] = {}
_lock = threading.Lock()
_pool = None


def _executor():
    global _pool
    with _lock:
        if _pool is None:
            from concurrent.futures import ThreadPoolExecutor

            _pool = ThreadPoolExecutor(WORKERS, thread_name_prefix="memdir-query")
        return _pool


def spare_core() -> bool:
    """True when another core is likely idle now: fewer threads runnable on
    the machine (this one included; Linux's :data:`LOADAVG`) than cores this
    process may use; where that file is missing, a one-minute load average
    half a core below them. False on one core. Reads one small file."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    if cores < 2:
        return False
    try:
        with open(LOADAVG, encoding="ascii") as file:
            return int(file.read().split()[3].split("/")[0]) < cores
    except (OSError, ValueError, IndexError):
        try:
            return os.getloadavg()[0] < cores - 0.5
        except (AttributeError, OSError):
            return False


def in_one_call(text: str, windows: bool = False) -> bool:
    """True when the embedding of ``text`` (a :func:`memdir.search.vectors.query_text`; with ``windows``, a recall
    prompt's, :mod:`memdir.search.querywindows`) is one ONNX Runtime call: ONNX is on and installed
    (:func:`memdir.search.onnxlayers.installed`, nothing imported), ``text`` is at most :data:`ONE_CALL_CHARS`
    characters (one model window, :meth:`memdir.search.encoder.Encoder.embed`) and has no query windows. Pure
    but for a cached package lookup."""
    from . import onnxlayers, querywindows, vectors

    return (vectors.ONNX and len(text) <= ONE_CALL_CHARS and onnxlayers.installed()
            and not (windows and querywindows.windows(text)))


def _kept(query: str, pending: "Future | None" = None, windows: bool = False) -> tuple:
    """``(whole, all)``: the query's vector and :func:`memdir.search.querywindows.query_vectors`' rows (its
    windows' only with ``windows``), kept."""
    from . import querywindows, vectors

    key = (vectors.query_text(query), windows)
    with _lock:
        known = _vectors.pop(key, None)
        if known is not None:
            _vectors[key] = known  # the most recently used last
            return known
    found = pending.result() if pending is not None else querywindows.query_vectors(key[0], windows)
    found = (found[0], found)
    with _lock:
        _vectors.pop(key, None)
        while len(_vectors) >= KEPT:
            _vectors.pop(next(iter(_vectors)))
        _vectors[key] = found
    return found


def query_vectors(query: str, pending: "Future | None" = None, windows: bool = False):
    """The query's embedding and, with ``windows`` (recall), its windows' (:func:`memdir.search.querywindows.
    query_vectors`, shape ``(1 + windows, 384)`` float32, row 0 the whole query's): the ones ``pending`` (from
    :func:`start`) computes when given, else kept ones, else computed now; the :data:`KEPT` last used are kept, by
    :func:`memdir.search.vectors.query_text` and ``windows``. Raises what the embedding engine raises."""
    return _kept(query, pending, windows)[1]


def query_vector(query: str, pending: "Future | None" = None):
    """The query's embedding (:func:`memdir.search.vectors.query_vector`, shape ``(384,)`` float32): row 0 of
    :func:`query_vectors`, the same object each time it is kept. Raises what the embedding engine raises."""
    return _kept(query, pending)[0]


def start(conn, session: Session, query: str, layers: list[str], windows: bool = False) -> "Future | None":
    """A future of ``query``'s embedding, computing in a worker thread, when
    dense retrieval is on and some memory of ``layers`` has a vector (else
    None: a store with nothing embedded never loads the model for a query);
    None too with :data:`OVERLAP` off, when the vector is kept already or
    when numpy's layers would embed it (not :func:`in_one_call`) and no core is free (:func:`spare_core`: the
    caller embeds in line).
    Reads one cached count from ``conn`` (:func:`memdir.search.vectors.pending`)
    in the caller's thread; the worker never touches the index."""
    from . import vectors, warm

    if not OVERLAP or not query.strip() or not vectors.wanted(session.settings):
        return None
    key = vectors.query_text(query)
    with _lock:
        if not key or (key, windows) in _vectors:
            return None
    if not vectors.pending(conn, layers)[0] or warm.nearby(session.home) or not vectors.importable():
        return None  # nothing embedded, or a warm process embeds it (cosines): no model loaded here
    if not in_one_call(key, windows) and not spare_core():  # numpy's layers take the GIL back ≈ 600 times
        return None
    from . import querywindows

    return _executor().submit(querywindows.query_vectors, key, windows)


def cosines(conn, session: Session, query: str, layers: list[str], where: tuple[str, list], embed_query: bool,
            pending: "Future | None" = None, windows: bool = False) -> dict[int, float]:
    """``{id: cosine}`` of the visible memories (``where``: the ranking's
    visibility clause and its arguments) that have a vector; starts the
    background embedder when some have none. ``{}`` without vectors. The
    query's vector is ``pending``'s when given (:func:`start`). With
    ``embed_query`` False the cosines come from a warm process
    (:mod:`memdir.search.warm`) or not at all: this process never loads the
    model or numpy. With ``windows`` (recall, not an explicit search) a long
    prompt's windows are embedded too and each cosine is the best of theirs
    (:mod:`memdir.search.querywindows`). An embedding engine that fails gives
    ``{}``: the lexical model still answers, as without the extra. With ``embed_query`` True in a process that has
    not loaded the model, a warm process that answers gives the cosines this process would compute
    (:func:`memdir.search.warm.exact`); none answering, this process embeds the query as ever. Embedding the query here, a few memories with no
    vector yet (at most :data:`memdir.search.unembedded.INLINE_MAX`) are measured on the spot too
    (:func:`memdir.search.unembedded.cosines`)."""
    from . import vectors

    if not vectors.wanted(session.settings):  # vectors off: none of the embedder's modules loaded (hot46)
        return {}
    from . import embedder, passagevectors, sentencestore, unembedded, warm

    embedded, total = vectors.pending(conn, layers)
    # heads, then body passages and the sentences a tie may pick, in the background
    started = embedded < total or passagevectors.passages_stale(conn) or sentencestore.stale(conn)
    if started:
        embedder.schedule(session.home)
    few = embed_query and 0 < total - embedded <= unembedded.INLINE_MAX  # embedded on the spot (search.unembedded)
    if (not embedded and not few and len(vectors.unembedded(conn, layers)) == total) or not vectors.query_text(query):
        # no vector nor one standing in, or a query of hidden characters alone
        return {}
    clause, args = where
    # A process without the model asks a warm process that listens: the same cosines, to the bit (warm.exact)
    remote = embed_query and pending is None and warm.nearby(session.home)
    if embed_query and not remote and len(args) == len(layers) + 3:  # no Filters: the cached matrix's columns decide
        # imported here: a prompt with vectors off never loads it
        from .similarity import Visible

        allowed = Visible(bool(args[len(layers)]), args[len(layers) + 1])
    else:
        allowed = {r[0] for r in conn.execute(f"SELECT d.id FROM docs d WHERE {clause}", args)}
        if not allowed:
            return {}
    if remote:
        generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        found = warm.exact(session.home, query, layers, generation, windows)
        if found is not None:
            return {i: c for i, c in found.items() if i in allowed}
        # none answered in time, or it is loading its model: embedded here, as with no warm process
    if not embed_query:
        generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        found = warm.ask(session.home, query, layers, generation, windows=windows)
        if found is None:
            warm.launch(session.home)  # none listens: one starts, detached, for the next prompt (no-op if one does)
        return {i: c for i, c in (found or {}).items() if i in allowed}
    if not vectors.importable():
        return {}
    try:
        from . import querywindows
        from .similarity import dropped as dropped_rows

        dropped = dropped_rows()
        query_vecs = query_vectors(query, pending, windows)
        found = querywindows.similarities(conn, session.home, query_vecs, layers, allowed)
        if few:  # the memories written since the vectors were built, a few: measured here, not stored
            found.update(unembedded.cosines(conn, query_vecs, layers, allowed, (embedded, total)))
    except (RuntimeError, OSError, ValueError, MemoryError):
        return {}
    if dropped_rows() > dropped and not started:  # the read dropped a damaged vector: embedded again
        embedder.schedule(session.home)
    return found


__all__ = ["KEPT", "LOADAVG", "ONE_CALL_CHARS", "OVERLAP", "WORKERS", "cosines", "in_one_call", "query_vector",
           "query_vectors", "spare_core", "start"]
