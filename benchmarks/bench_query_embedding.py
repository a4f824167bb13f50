"""A query's embedding: numpy's layers against ONNX Runtime's (memdir.search.onnxlayers). JSON lines.

    python benchmarks/bench_query_embedding.py [--threads 1,2] [--load 0,1] [--notes 1000]

The queries are ``profile_mcp_search.py``'s (the MCP benchmark's 194 at
1,000 notes). For each ``--load`` (busy processes running a float32 matrix
loop beside the measurement, 0: none) and each ONNX intra-op ``--threads``
value, every query is embedded as a search does
(``Encoder.embed([query_text(q)], query=True)``), once per backend, the
backends interleaved query by query so both see the same machine; a line
gives p50/p95 of the calling thread's CPU ms and of wall ms per backend
(ONNX with one thread runs in the calling thread; with more, thread CPU
misses its pool's work: read wall). Then one line of cosines of the ONNX
vector to numpy's (min, median) over the queries and over the recall
evaluation's fit prompts (``evals/recall``; never the blind set), one line
of tie-breaking sentence batches (8 sentences of the notes: numpy's batched
forward against ONNX one window at a time), and one line of what a process
pays once (``onnxruntime`` import, building the graph, SHA-256 of the model
file, creating the session), measured in a fresh process.
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

BUSY = "import numpy as np\na = np.ones((512, 512), np.float32)\nwhile True: a @ a"


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))], 2)


def queries(notes: int) -> list[str]:
    from _corpus import corpus, keywords, vocabulary_queries

    _, questions = corpus(notes, 11, facts=min(50, max(1, notes // 10)))
    made = [q for question, _ in questions for q in (question, keywords(question))]
    return list(dict.fromkeys(made + vocabulary_queries(100, 11 + notes)))


def model():
    """The numpy encoder and, separately, the ONNX layers of the same file (built into a temporary dir)."""
    from memdir.search import onnxlayers, vectors

    vectors.ONNX = False
    encoder = vectors._model()
    return encoder, onnxlayers, vectors


def timed(encoder, layers, texts: list[str]) -> dict:
    import numpy as np

    spent = {"numpy": ([], []), "onnx": ([], [])}
    for text in texts:
        for name, run in (("numpy", encoder.layers), ("onnx", layers)):
            encoder.layers_one = run
            wall, cpu = time.perf_counter(), time.thread_time()
            np.asarray(encoder.embed([text], query=True))
            spent[name][1].append((time.thread_time() - cpu) * 1000)
            spent[name][0].append((time.perf_counter() - wall) * 1000)
    encoder.layers_one = encoder.layers
    return {f"{name}_{kind}_ms": [percentile(values, 0.5), percentile(values, 0.95)]
            for name, (wall, cpu) in spent.items() for kind, values in (("cpu", cpu), ("wall", wall))}


def cosines(encoder, layers, texts: list[str]) -> list[float]:
    import numpy as np

    encoder.layers_one = encoder.layers
    ours = np.stack([encoder.embed([t], query=True)[0] for t in texts])
    encoder.layers_one = layers
    theirs = np.stack([encoder.embed([t], query=True)[0] for t in texts])
    encoder.layers_one = encoder.layers
    return [float(c) for c in (ours * theirs).sum(axis=1)]


def sentences(encoder, layers, count: int = 8, rounds: int = 20) -> dict:
    from _corpus import corpus

    notes, _ = corpus(200, 11, facts=10)
    text = " ".join(body for *_, body in notes[:40])
    pieces = [s.strip() for s in text.replace("\n", " ").split(". ") if len(s.split()) >= 8]
    windows = [[encoder.tokenizer.bos, *encoder.tokens(s)[:40], encoder.tokenizer.eos] for s in pieces]
    batched, single = [], []
    for r in range(rounds):
        batch = windows[r * count:(r + 1) * count]
        cpu = time.thread_time()
        encoder.forward(batch)
        batched.append((time.thread_time() - cpu) * 1000)
        cpu = time.thread_time()
        for window in batch:
            layers(encoder.embedded(window))
        single.append((time.thread_time() - cpu) * 1000)
    tokens = statistics.median(len(w) for w in windows[:rounds * count])
    return {"what": "tie sentences", "sentences": count, "median_tokens": tokens,
            "numpy_batched_cpu_ms": [percentile(batched, 0.5), percentile(batched, 0.95)],
            "onnx_one_by_one_cpu_ms": [percentile(single, 0.5), percentile(single, 0.95)]}


ONCE = """
import json, os, sys, tempfile, time
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, {src!r})
from memdir.search import vectors
vectors.ONNX = False
t = time.perf_counter(); encoder = vectors._model(); numpy_model = time.perf_counter() - t
t = time.perf_counter(); import onnxruntime; imported = time.perf_counter() - t
from memdir.search import onnxlayers
from memdir.search.encoder import package_file
model = package_file(vectors.MODEL_FILE)
t = time.perf_counter(); onnxlayers.digest(model); digest = time.perf_counter() - t
with tempfile.TemporaryDirectory() as tmp:
    t = time.perf_counter(); graph = onnxlayers.graph_file(encoder, model, tmp); built = time.perf_counter() - t
    t = time.perf_counter(); onnxlayers.graph_file(encoder, model, tmp); cached = time.perf_counter() - t
    size = os.path.getsize(graph)
    t = time.perf_counter(); onnxlayers.Layers(graph); session = time.perf_counter() - t
print(json.dumps({{"what": "once per process", "numpy_encoder_s": round(numpy_model, 3),
                  "onnxruntime_import_s": round(imported, 3), "model_sha256_s": round(digest, 3),
                  "graph_build_s": round(built, 3), "graph_cached_lookup_s": round(cached, 3),
                  "graph_mb": round(size / 1e6, 1), "session_s": round(session, 3)}}))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--threads", default="1", help="ONNX intra-op threads, comma-separated")
    parser.add_argument("--load", default="0", help="busy processes beside the measurement, comma-separated")
    parser.add_argument("--notes", type=int, default=1000)
    args = parser.parse_args()
    encoder, onnxlayers, vectors = model()
    from memdir.search.encoder import package_file

    texts = [vectors.query_text(q) for q in queries(args.notes)]
    path = package_file(vectors.MODEL_FILE)
    with tempfile.TemporaryDirectory() as tmp:
        graph = onnxlayers.graph_file(encoder, path, Path(tmp))
        for load in [int(v) for v in args.load.split(",")]:
            busy = [subprocess.Popen([sys.executable, "-c", BUSY]) for _ in range(load)]
            try:
                time.sleep(0.5 if busy else 0)
                for threads in [int(v) for v in args.threads.split(",")]:
                    layers = onnxlayers.Layers(graph, threads)
                    encoder.embed(["warm up"], query=True)
                    layers(encoder.embedded([0, 1, 2]))
                    print(json.dumps({"what": "query embedding", "queries": len(texts), "load": load,
                                      "onnx_threads": threads, "loadavg": round(os.getloadavg()[0], 2),
                                      **timed(encoder, layers, texts)}), flush=True)
            finally:
                for process in busy:
                    process.kill()
                    process.wait()
        layers = onnxlayers.Layers(graph)
        from common import HELDOUT_ONLY, SETS, prompts

        fit = [vectors.query_text(r["prompt"]) for s in SETS if s not in HELDOUT_ONLY for r in prompts("fit", s)]
        line = {"what": "cosine onnx to numpy"}
        for name, group in (("queries", texts), ("recall_fit_prompts", fit)):
            values = cosines(encoder, layers, group)
            line[name] = {"n": len(values), "min": round(min(values), 5), "median": round(statistics.median(values), 5)}
        print(json.dumps(line), flush=True)
        print(json.dumps(sentences(encoder, layers)), flush=True)
    subprocess.run([sys.executable, "-c", ONCE.format(src=str(REPO / "src"))], check=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
