"""What embedding a few memories on the spot would cost a recall (issue 28: a first recall right after a write finds
its memory by words alone until the background embedder has run). Prints one JSON line per case.

    python benchmarks/bench_inline_embed.py [--repeat 15] [--counts 1,2,3,4,8,32] [--store 10000]

In one process with the model loaded (as an MCP server or a warm process has it): the p50 and p95 wall milliseconds
of embedding a query (a 9-word prompt, e5's ``query:`` side, as recall embeds it), and of embedding ``n`` memories as
the index embeds them (:func:`memdir.search.vectors.memory_text`, capped at
:data:`memdir.search.vectors.EMBED_TOKENS` tokens) for each count, for short memories (a one-line fact: "Deploys go
out on Fridays only") and long ones (400-word notes of ``bench_recall``'s vocabulary, cut to the token cap), each
two ways: ``index`` as the background embedder does (numpy's layers, the floats the ranking was fitted on) and
``one_window`` as a query is (one window at a time through :meth:`~memdir.search.encoder.Encoder.forward_one`, ONNX
Runtime when installed; not normalized: the cost only). Each line gives the machine's load average at its start:
figures from a busy machine are higher. Last, ``unembedded_lookup``: what deciding costs in a store of ``--store``
memories one of which has no vector (:func:`memdir.search.vectors.unembedded` over an index of that many rows in
memory, the index's own table layout; it runs only when the cached pending count says 1–3 are missing).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

SHORT = ["Deploys go out on Fridays only", "This project uses pnpm, never npm", "Dev PostgreSQL listens on 5433",
         "Use structlog for logging, JSON lines in production", "Staging lives at staging.internal.example",
         "Use uv for Python installs, never pip", "Tabs in Go files, gofmt decides", "Releases are tagged vX.Y.Z"]
WORDS = ("service billing ledger kafka redis postgres staging prod deploy rollout canary latency timeout retry queue "
         "consumer producer schema migration index replica backup snapshot region cluster node pod helm chart secret "
         "token rotate alert pager oncall runbook dashboard metric trace span log level error warning").split()


def _texts(kind: str, n: int, rng: random.Random) -> list[tuple[str, str, str]]:
    if kind == "short":
        return [(f"fact-{i}", SHORT[i % len(SHORT)] + f" ({i})", SHORT[i % len(SHORT)]) for i in range(n)]
    return [(f"note-{i}", " ".join(rng.choices(WORDS, k=8)), " ".join(rng.choices(WORDS, k=400))) for i in range(n)]


def _timed(fn, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append((time.perf_counter() - start) * 1000)
    times.sort()
    return round(statistics.median(times), 1), round(times[min(len(times) - 1, int(0.95 * len(times)))], 1)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--counts", default="1,2,3,4,8,32")
    parser.add_argument("--store", type=int, default=10000)
    args = parser.parse_args(argv)
    from memdir.search import vectors

    vectors.embed(["warm up"], query=True)
    vectors.embed(["passage: warm up"])
    rng = random.Random(7)
    p50, p95 = _timed(lambda: vectors.embed(["Can I deploy the release on a Tuesday? thanks"], query=True),
                      args.repeat)
    print(json.dumps({"case": "query", "n": 1, "p50_ms": p50, "p95_ms": p95, "load": os.getloadavg()[0]}),
          flush=True)
    model = vectors._model()
    for kind in ("short", "long"):
        for n in (int(c) for c in args.counts.split(",")):
            texts = [vectors.memory_text(None, d, b) for _, d, b in _texts(kind, n, rng)]
            windows = [[model.tokenizer.bos, *model.tokens(t, False)[:510], model.tokenizer.eos] for t in texts]
            for how, run in (("index", lambda texts=texts: vectors.embed(texts)),
                             ("one_window", lambda windows=windows: [model.forward_one(w) for w in windows])):
                p50, p95 = _timed(run, args.repeat)
                print(json.dumps({"case": f"memories_{kind}_{how}", "n": n, "p50_ms": p50, "p95_ms": p95,
                                  "per_memory_ms": round(p50 / n, 1), "load": os.getloadavg()[0],
                                  "threads": vectors.threads()}), flush=True)
    _lookup(args.store, args.repeat)
    return 0


def _lookup(n: int, repeat: int) -> None:
    import sqlite3

    from memdir.search import vectors

    conn = sqlite3.connect(":memory:")
    conn.executescript("CREATE TABLE docs (id INTEGER PRIMARY KEY, layer TEXT NOT NULL, name TEXT NOT NULL, digest TEXT,"
                       " status TEXT, body TEXT, UNIQUE (layer, name)); CREATE INDEX docs_layer ON docs (layer, status);"
                       " CREATE TABLE vectors (id INTEGER PRIMARY KEY, digest TEXT, model TEXT, vec BLOB);")
    layers = ["projects/bench", "user"]
    conn.executemany("INSERT INTO docs VALUES (?,?,?,?,?,?)",
                     [(i, layers[i % 2], f"n{i}", f"d{i}", "active", "word " * 300) for i in range(1, n + 1)])
    conn.executemany("INSERT INTO vectors VALUES (?,?,?,?)",
                     [(i, f"d{i}", vectors.MODEL_ID, bytes(vectors.VEC_BYTES)) for i in range(1, n)])
    p50, p95 = _timed(lambda: vectors.unembedded(conn, layers), repeat)
    print(json.dumps({"case": "unembedded_lookup", "n": n, "missing": len(vectors.unembedded(conn, layers)),
                      "p50_ms": p50, "p95_ms": p95, "load": os.getloadavg()[0]}), flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
