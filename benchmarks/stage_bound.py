"""Could a search score fewer candidates? Three measures of a staged ranking over the MCP benchmark's queries.

    python benchmarks/stage_bound.py [--notes 1000] [--dir DIR] [--k 5]

On the home and queries of ``benchmarks/profile_mcp_search.py`` (the benchmarks' corpus with vectors, each needle's
question and keywords and 100 vocabulary queries, each once; ``--dir`` keeps the built home), every query is searched
as ``memory_search`` does (:func:`memdir.search.ranking.search`, ``k``) and these JSON lines are printed:

* ``cold``: the calling thread's CPU ms per search (``time.thread_time``) over the queries new to the process
  (``first``: as ``benchmarks/compare_basic_memory.py`` asks them, each once, to a server that has not seen them)
  and over the same again (``again``: their snippets' words, their ties' sentences and their rows read already), the
  query's vector embedded afresh both times (its worker thread's CPU is not counted);
* ``reach``: a cheap first order of the candidates — reciprocal-rank fusion (60 + rank) of their order on the lexical
  side (the sentence pass, then BM25) and of their cosine — and, per query, the worst place in it of a hit the search
  shows; ``queries_beyond`` counts the queries whose shown hits reach past each place. A staged ranking that scores
  only the first N of that order fully changes the answer of every query beyond N.
* ``bound``: an upper bound on each candidate's relevance from which of the query's terms it holds anywhere (head or
  body) and its cosine, known before its word evidence (coverage, head, matched weight as if every held term were in
  its best passage, missing and query weight at their most, complete when it holds every term; the hybrid model over
  its cosine, gap and lead): ``prunable_share`` of the ranked candidates bound under the k-th shown score. An upper
  estimate of what an exact bound could skip: it leaves aside the order's other rules (a memory stating the query
  first, ties) and still reads every row.
* ``pools``: the calling thread's CPU ms per search (``time.thread_time``) with the rows taken from the lexical and
  the dense side cut from :data:`memdir.search.ranking.POOL_MIN` (the tree's pool) to fewer, and how many answers
  (names and scores, in order) and first hits differ from the tree's own.

The ranking's internals are wrapped to watch them (its evidence, its cosines, the dense pool): nothing here changes
what a search answers but the ``pools`` lines, which say how much.
"""

from __future__ import annotations

import argparse
import heapq
import json
import math
import os
import sys
import tempfile
import time
import types
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from profile_mcp_search import build  # noqa: E402  (the home and queries of the MCP benchmark)

PLACES = (5, 10, 20, 30, 50)


def _bound(ev) -> float:
    """The upper bound of ``bound`` (module docstring) for a hit's evidence carrying ``_held`` (held weight, whole
    weight, every term held)."""
    from memdir.search import relevance

    held, whole, every = ev.__dict__["_held"]
    if whole <= 0:
        return 1.0
    features = {"coverage": held / whole, "head": held / whole, "mass": math.log1p(held),
                "missing": math.log1p(whole), "query": math.log1p(whole), "complete": 1.0 if every else 0.0}
    z = relevance._linear(relevance.LEXICAL, features)
    if ev.cosine is not None:
        z = max(z, relevance._linear(relevance.HYBRID, {**features, "cosine": ev.cosine, "gap": ev.gap,
                                                         "lead": ev.lead}))
    return relevance._sigmoid(z)


def measure(home: Path, project: Path, queries: list[str], k: int) -> None:
    """Print the ``cold``, ``reach``, ``bound`` and ``pools`` lines of the module docstring for ``queries`` over the
    indexed ``home`` and ``project`` (vectors on), ``k`` hits shown."""
    os.environ["MEMDIR_SEARCH_VECTORS"] = "on"
    from memdir.integrations.mcp.server import MemoryServer
    from memdir.search import dense as dense_side
    from memdir.search import ranking, relevance, windows

    session = MemoryServer(home, project).fallback.session
    ranking.search(session, "warm up the server", k=k)
    spent = {}
    for run in ("first", "again"):  # each query new to the process, then asked again: its query vector forgotten
        dense_side._vectors.clear()
        began = time.thread_time()
        for query in queries:
            ranking.search(session, query, k=k)
        spent[run] = round((time.thread_time() - began) / len(queries) * 1000, 2)
    print(json.dumps({"measure": "cold", "thread_cpu_ms": spent, "load": round(os.getloadavg()[0], 2)}), flush=True)
    seen: dict = {}
    evidence, dense, words = ranking._evidence, ranking._dense, relevance.evidence

    def watched_evidence(conn, ids, *args, **kwargs):
        seen.setdefault("ids", []).append(list(ids))
        return evidence(conn, ids, *args, **kwargs)

    def watched_dense(*args, **kwargs):
        seen["cosines"] = dense(*args, **kwargs)
        return seen["cosines"]

    def held_too(weights, head_tokens, body_tokens, *args, **kwargs):
        ev = words(weights, head_tokens, body_tokens, *args, **kwargs)
        anywhere = {t for t in weights if t in head_tokens} | set(windows.held_terms(body_tokens, weights))
        ev.__dict__["_held"] = (sum(w for t, w in weights.items() if t in anywhere), sum(weights.values()),
                                anywhere >= weights.keys())
        return ev

    ranking._evidence, ranking._dense, relevance.evidence = watched_evidence, watched_dense, held_too
    worst, candidates, prunable = [], 0, 0
    try:
        for query in queries:
            seen.clear()
            shown = ranking.search(session, query, k=k)
            lexical = seen["ids"][0][::-1]  # ranked() reads its lexical rows last first (the first of a repeat wins)
            cosines = seen.get("cosines", {})
            first = {i: 1 / (61 + r) for r, i in enumerate(lexical)}
            fused = {i: first.get(i, 0.0) for read in seen["ids"] for i in read}  # every candidate scored
            for r, i in enumerate(sorted(cosines, key=lambda i: -cosines[i])):  # its place among all memories
                if i in fused:
                    fused[i] += 1 / (61 + r)
            place = {i: r for r, i in enumerate(sorted(fused, key=lambda i: -fused[i]))}
            conn = ranking._synced(session, None)
            names = [r.name for r in shown]
            by_name = dict(conn.execute(f"SELECT name, id FROM docs WHERE name IN ({','.join('?' * len(names))})",
                                    names)) if names else {}
            worst.append(max((place.get(by_name.get(n), len(place)) for n in names), default=0))
            hits = ranking.ranked(session, query, pool=ranking.POOL_MIN, explicit=True, windows=False, shown=k)[0]
            if len(hits) > k:
                kth = hits[k - 1].score
                candidates += len(hits)
                prunable += sum(1 for h in hits if _bound(h.evidence) < kth - 0.005)
    finally:
        ranking._evidence, ranking._dense, relevance.evidence = evidence, dense, words
    print(json.dumps({"measure": "reach", "queries": len(queries), "k": k,
                      "queries_beyond": {str(n): sum(1 for w in worst if w >= n) for n in PLACES}}), flush=True)
    print(json.dumps({"measure": "bound", "hits": candidates, "prunable": prunable,
                      "prunable_share": round(prunable / max(1, candidates), 3)}), flush=True)

    pool, nearest = ranking.POOL_MIN, [ranking.POOL_MIN]
    ranking.heapq = types.SimpleNamespace(nlargest=lambda n, it, key=None: heapq.nlargest(min(n, nearest[0]), it,
                                                                                          key=key))
    base = None
    try:
        for lexical, dense_rows in ((pool, pool), (pool, 20), (pool, 10), (20, 20), (pool, pool)):
            ranking.POOL_MIN, nearest[0] = lexical, dense_rows
            answers, began = [], time.thread_time()
            for query in queries:
                answers.append([(r.name, r.score) for r in ranking.search(session, query, k=k)])
            cpu = (time.thread_time() - began) / len(queries) * 1000
            base = answers if base is None else base
            print(json.dumps({"measure": "pools", "lexical": lexical, "dense": dense_rows,
                              "thread_cpu_ms": round(cpu, 2),
                              "answers_changed": sum(a != b for a, b in zip(answers, base)),
                              "first_changed": sum(a[:1] != b[:1] for a, b in zip(answers, base)),
                              "load": round(os.getloadavg()[0], 2)}), flush=True)
    finally:
        ranking.POOL_MIN, ranking.heapq = pool, heapq


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, help="where the home is built and kept (default: a temporary one)")
    parser.add_argument("--k", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory(prefix="memdir-stage-") as tmp:
        home, project, queries = build(args.dir or Path(tmp), args.notes, True)
        measure(home, project, queries, args.k)
    return 0


if __name__ == "__main__":
    sys.exit(main())
