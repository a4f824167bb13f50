"""What a warm process computes for one request of its socket (:mod:`memdir.search.warm`): a query's cosines,
a search's tie cosines, whether a hook's home wants dense retrieval, and the index generation a probe reports.

Runs in the server's thread, the model loaded (:func:`cosines_answer`, :func:`tie_answer`) or not (:func:`wants_vectors`);
the socket, the protocol and the process's life are :mod:`memdir.search.warm`'s.
"""

from __future__ import annotations

TYPE_CHECKING = False  # typing's own constant, without importing typing
if TYPE_CHECKING:
    from pathlib import Path


def cosines_answer(home: Path, request: dict) -> dict:
    """The answer to one ``{"query", "layers", "generation"[, "passages"]}`` request for ``home``
    (:mod:`memdir.search.warm`'s protocol): ``{"generation": int, "ids": [doc id, …], "cosines": [float, …]}``
    (cosines rounded to 6 places — with ``"exact": true`` not rounded, the query embedded as
    :func:`memdir.search.dense.query_vectors` embeds it in process (:func:`exact_text`), so the asker's
    ranking is its own to the bit; with ``"passages": [[best cosine, passage number], …]`` when asked), or
    ``{"generation": int}`` alone when the index is at another generation than the request's or it names
    no layer. Embeds the query and, when the request asks for ``"windows"`` (recall), a long one's windows
    (:mod:`memdir.search.querywindows`: each cosine the best of theirs, as in process; the passages the whole
    query's); a few memories with no vector yet are measured on the spot (:func:`memdir.search.unembedded.cosines`).
    Raises what the index and the engine raise."""
    from . import querywindows, similarity, unembedded
    from .index import connect

    query, layers = request.get("query"), request.get("layers")
    conn = connect(home)
    conn.execute("BEGIN")
    try:
        generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        if generation != request.get("generation") or not layers:
            return {"generation": generation}
        exact = request.get("exact") is True  # a search's or recall's own answer (memdir.search.warm.exact)
        windows = bool(request.get("windows"))
        query_vecs = querywindows.query_vectors(exact_text(query) if exact else query, windows)
        cosines = querywindows.similarities(conn, home, query_vecs, layers)
        cosines.update(unembedded.cosines(conn, query_vecs, layers))  # a few written since: on the spot
        query_vec = query_vecs[0]
        best = similarity.best_passages(conn, home, query_vec, layers) if request.get("passages") else None
    finally:
        conn.execute("COMMIT")
    answer = {"generation": generation, "ids": list(cosines),
              "cosines": list(cosines.values()) if exact else [round(c, 6) for c in cosines.values()]}
    if best is not None:
        answer["passages"] = [[round(best[i][0], 6), best[i][1]] if i in best else [round(c, 6), 0]
                              for i, c in cosines.items()]  # one embedded on the spot: its head
    return answer


def index_generation(home: Path) -> int | None:
    """The generation of ``home``'s search index (its ``meta`` ``generation``: the one a query request must name to be
    answered with cosines, :func:`cosines_answer`), for a probe's answer
    (:meth:`memdir.search.warm.server.WarmServer.state`): read through a read-only connection of its own, so nothing
    is created, migrated, cached or loaded, and closed at once. None when there is no index, or it cannot be read
    within 0.2 s (locked, damaged, a file of no index). Never raises."""
    import sqlite3
    from pathlib import Path

    # the path from memdir.paths, not memdir.search.index: a probe imports nothing the server has not (doctor waits 1 s)
    from ..paths import INDEX_DB
    from .memo import generation

    path = Path(home) / INDEX_DB
    try:
        if not path.is_file():
            return None
        conn = sqlite3.connect(path.resolve().as_uri() + "?mode=ro", uri=True, timeout=0.2)
        try:
            found = generation(conn)
        finally:
            conn.close()
    except (sqlite3.Error, OSError):  # a probe says what it can: no generation, never an error
        return None
    return found if isinstance(found, int) else None


def exact_text(query: str) -> str:
    """What a process embedding its own query passes to :func:`memdir.search.querywindows.query_vectors`:
    :func:`memdir.search.vectors.query_text` of it, the key :mod:`memdir.search.dense` keeps its vectors by (this
    module may not import dense, which asks the warm process). Pure."""
    from .vectors import query_text

    return query_text(query)


def tie_answer(home: Path, request: dict) -> dict:
    """The answer to one ``{"query": str, "tie": [text, …]}`` request (:func:`memdir.search.warm.tie_cosines`):
    ``{"tie": [cosine, …]}``, each text's cosine to the query as an explicit search breaking a tie at its head
    computes it in process (:func:`memdir.search.ranking._ties_broken`: :func:`memdir.search.dense.query_vector`,
    here :func:`exact_text` embedded alone, against :func:`memdir.search.sentencestore.vectors_for` on ``home``'s index — kept sentences read, the others
    embedded and kept), not rounded. Raises what the index and the engine raise."""
    from . import querywindows, sentencestore
    from .index import connect

    vector = querywindows.query_vectors(exact_text(request["query"]), False)[0]
    return {"tie": (sentencestore.vectors_for(connect(home), list(request["tie"])) @ vector).tolist()}


def wants_vectors(home: Path, environ) -> bool:
    """Whether ``home``'s settings, read with a hook's ``environ`` (its ``MEMDIR_*`` variables; anything
    but a dict reads as none), want dense retrieval (:func:`memdir.search.vectors.wanted`). False for
    settings that cannot be read (the hook reports them itself). Never raises."""
    from ..settings import load_settings
    from . import vectors

    try:
        return vectors.wanted(load_settings(home, environ=environ if isinstance(environ, dict) else {}))
    except Exception:  # settings a hook cannot read: it reports them itself
        return False


__all__ = ["cosines_answer", "exact_text", "tie_answer", "wants_vectors"]
