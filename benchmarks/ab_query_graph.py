"""A query's embedding by each source tree's ONNX graph, interleaved in one process. JSON lines.

    python benchmarks/ab_query_graph.py --src /tmp/snap-main/src --src src [--notes 1000] [--rounds 2]

Each ``--src`` builds its own graph (``memdir.search.onnxlayers.graph_file``, in a subprocess importing that
tree, into a temporary directory); this process loads every graph as an ONNX Runtime session and embeds the
MCP benchmark's ~200 distinct short queries (``bench_query_embedding.queries``, as a search embeds a query:
``Encoder.embed([query_text(q)], query=True)``) with each in turn, query by query, so all see the same machine.
Lines:

* ``query embedding`` per source: p50/p95 of the calling thread's CPU ms and of wall ms per query;
* ``cosine`` per source: its query vectors against numpy's layers' (min, median), and against the first
  source's (the vectors a search used before), over the queries and the recall evaluation's fit prompts
  (``evals/recall``; never the held-out half);
* ``process`` per source, twice, each a fresh subprocess of that tree (the first builds the graph, the second
  finds it cached): RSS (MB) after loading the model, after its first query (the graph's session made), the
  graph's build (or lookup) seconds and file size, and memories embedded per second (40 notes of 100–400 words, ``vectors.embed`` of their ``memory_text``: numpy's path, the background
  embedder's).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as memdir.search.vectors.importable() sets it
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))
sys.path.insert(0, str(REPO / "evals" / "recall"))

BUILD = """
import json, os, sys, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, {src!r})
sys.path.insert(0, {bench!r})
def rss():
    with open("/proc/self/status") as f:
        return next(int(l.split()[1]) for l in f if l.startswith("VmRSS")) / 1024
from memdir.search import onnxlayers, vectors
from memdir.search.encoder import package_file
vectors.ONNX = False
before = rss()
encoder = vectors._model()
loaded = rss()
t = time.perf_counter()
graph = onnxlayers.graph_file(encoder, package_file(vectors.MODEL_FILE), {tmp!r})
built = time.perf_counter() - t
layers = onnxlayers.Layers(graph)
encoder.layers_one = layers
encoder.embed(["which port does the dev postgres listen on"], query=True)
queried = rss()
from _corpus import corpus
notes, _ = corpus(40, 5, facts=5)
texts = [vectors.memory_text(name, description, body) for name, description, body in notes]
t = time.perf_counter()
vectors.embed(texts)
spent = time.perf_counter() - t
print(json.dumps({{"graph": str(graph), "rss_start_mb": round(before, 1), "rss_model_mb": round(loaded, 1),
                  "rss_first_query_mb": round(queried, 1), "graph_build_s": round(built, 2),
                  "graph_mb": round(os.path.getsize(graph) / 1e6, 1), "memories_per_s": round(len(texts) / spent, 1)}}))
"""


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 3)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree (its src/ folder); repeat")
    parser.add_argument("--notes", type=int, default=1000, help="the MCP benchmark's size whose queries are used")
    parser.add_argument("--rounds", type=int, default=2, help="passes over the queries")
    args = parser.parse_args()
    import numpy as np
    from bench_query_embedding import queries

    from memdir.search import onnxlayers, vectors

    vectors.ONNX = False
    encoder = vectors._model()
    texts = [vectors.query_text(q) for q in queries(args.notes)]
    with tempfile.TemporaryDirectory() as tmp:
        built = []
        for index, src in enumerate(args.src):
            folder = Path(tmp) / str(index)
            folder.mkdir()
            for when in ("graph built", "graph cached"):  # a first process builds the graph, a later one loads it
                done = subprocess.run([sys.executable, "-c", BUILD.format(
                    src=str(Path(src).resolve()), tmp=str(folder), bench=str(REPO / "benchmarks"))],
                    check=True, capture_output=True, text=True)
                line = json.loads(done.stdout.strip().splitlines()[-1])
                print(json.dumps({"what": "process", "src": src, "when": when, **line}), flush=True)
            built.append(line)
        layers = [onnxlayers.Layers(b["graph"]) for b in built]
        for run in layers:
            encoder.layers_one = run
            encoder.embed(["warm up"], query=True)
        spent = [([], []) for _ in layers]
        for _ in range(args.rounds):
            for text in texts:
                for run, (cpu, wall) in zip(layers, spent):
                    encoder.layers_one = run
                    w, c = time.perf_counter(), time.thread_time()
                    encoder.embed([text], query=True)
                    cpu.append((time.thread_time() - c) * 1000)
                    wall.append((time.perf_counter() - w) * 1000)
        for src, (cpu, wall) in zip(args.src, spent):
            print(json.dumps({"what": "query embedding", "src": src, "queries": len(texts), "rounds": args.rounds,
                              "loadavg": round(os.getloadavg()[0], 2),
                              "cpu_ms": [percentile(cpu, 0.5), percentile(cpu, 0.95)],
                              "wall_ms": [percentile(wall, 0.5), percentile(wall, 0.95)]}), flush=True)
        from common import HELDOUT_ONLY, SETS, prompts

        fit = [vectors.query_text(r["prompt"]) for s in SETS if s not in HELDOUT_ONLY for r in prompts("fit", s)]
        for name, group in (("queries", texts), ("recall_fit_prompts", fit)):
            encoder.layers_one = encoder.layers
            numpy_ = np.stack([encoder.embed([t], query=True)[0] for t in group])
            ran = []
            for run in layers:
                encoder.layers_one = run
                ran.append(np.stack([encoder.embed([t], query=True)[0] for t in group]))
            for src, got in zip(args.src, ran):
                to_numpy, to_first = (got * numpy_).sum(axis=1), (got * ran[0]).sum(axis=1)
                print(json.dumps({"what": "cosine", "src": src, "texts": name, "n": len(group),
                                  "to_numpy": [round(float(to_numpy.min()), 6), round(float(np.median(to_numpy)), 6)],
                                  "to_first_src": [round(float(to_first.min()), 6),
                                                   round(float(statistics.median(to_first.tolist())), 6)]}),
                      flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
