"""Two source trees' query embedding side by side in one process, query by query. JSON lines.

    python benchmarks/ab_query_embedding.py --src /work/main/src --src src [--threads 1,2] [--rounds 3]

On a shared machine two runs minutes apart differ more than two commits do, so
this loads each tree's ``memdir.search.encoder`` and ``onnxlayers`` (as the
packages ``ab0`` and ``ab1``, nothing else of memdir imported from them), builds
each tree's ONNX graph into a temporary directory, and embeds every query of
``bench_query_embedding.queries`` (the MCP benchmark's 194 at 1,000 notes) as a
search does (``Encoder.embed([query_text(q)], query=True)``), the trees
alternated query by query (which goes first alternates by round). One line per
``--threads`` value (ONNX intra-op threads): p50/p95 of the calling thread's CPU
ms and of wall ms per tree (with more than one thread, thread CPU misses the
pool's work: read wall), and the largest ``1 - cosine`` between the trees'
vectors. Then one line per tree from a fresh process: its resident memory (MB,
``VmRSS`` and ``VmHWM``) after loading the model and embedding one query.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import time
import types
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as memdir.search.vectors.importable() sets it
REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "benchmarks"))

from bench_query_embedding import percentile, queries  # noqa: E402


def load(name: str, src: Path):
    """The tree's ``search.encoder`` and ``search.onnxlayers`` as modules of a fresh package ``name``."""
    package = types.ModuleType(name)
    package.__path__ = [str(src / "memdir" / "search")]
    sys.modules[name] = package
    loaded = []
    for module in ("encoder", "onnxlayers"):
        spec = importlib.util.spec_from_file_location(f"{name}.{module}", src / "memdir" / "search" / f"{module}.py")
        loaded.append(importlib.util.module_from_spec(spec))
        sys.modules[spec.name] = loaded[-1]
        spec.loader.exec_module(loaded[-1])
    return loaded


RSS = """
import os, sys
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, {src!r})
from memdir.search import vectors
vectors.query_vector("which port does the dev postgres database listen on")
fields = dict(line.split(":", 1) for line in open("/proc/self/status"))
print(round(int(fields["VmRSS"].split()[0]) / 1024, 1), round(int(fields["VmHWM"].split()[0]) / 1024, 1))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a tree's src directory (twice)")
    parser.add_argument("--threads", default="1,2", help="ONNX intra-op threads, comma-separated")
    parser.add_argument("--rounds", type=int, default=3, help="passes over the queries")
    args = parser.parse_args()
    if len(args.src) != 2:
        parser.error("give --src twice")
    import numpy as np

    from memdir.search import vectors

    sources = [Path(s).resolve() for s in args.src]
    trees = [load(f"ab{i}", src) for i, src in enumerate(sources)]
    model = trees[0][0].package_file(vectors.MODEL_FILE)
    texts = [vectors.query_text(q) for q in queries(1000)]
    with tempfile.TemporaryDirectory() as tmp:
        encoders = [encoder.Encoder(model) for encoder, _ in trees]
        graphs = [layers.graph_file(enc, model, Path(tmp) / str(i)) for i, (enc, (_, layers)) in
                  enumerate(zip(encoders, trees))]
        for threads in [int(v) for v in args.threads.split(",")]:
            for enc, graph, (_, layers) in zip(encoders, graphs, trees):
                enc.layers_one = layers.Layers(graph, threads)
                enc.embed(["warm up"], query=True)
            spent = [([], []) for _ in trees]
            gap = 0.0
            for round_ in range(args.rounds):
                for text in texts:
                    out = [None, None]
                    for i in ((0, 1) if round_ % 2 == 0 else (1, 0)):
                        wall, cpu = time.perf_counter(), time.thread_time()
                        out[i] = np.asarray(encoders[i].embed([text], query=True))[0]
                        spent[i][1].append((time.thread_time() - cpu) * 1000)
                        spent[i][0].append((time.perf_counter() - wall) * 1000)
                    gap = max(gap, 1.0 - float(out[0] @ out[1]) / float(np.linalg.norm(out[0]) * np.linalg.norm(out[1])))
            line = {"what": "query embedding, alternated", "queries": len(texts), "rounds": args.rounds,
                    "onnx_threads": threads, "loadavg": round(os.getloadavg()[0], 2), "max_1_minus_cosine": gap}
            for i, (wall, cpu) in enumerate(spent):
                line[f"src{i}"] = str(sources[i])
                line[f"src{i}_cpu_ms"] = [percentile(cpu, 0.5), percentile(cpu, 0.95)]
                line[f"src{i}_wall_ms"] = [percentile(wall, 0.5), percentile(wall, 0.95)]
            print(json.dumps(line), flush=True)
    for src in sources:
        rss, peak = subprocess.run([sys.executable, "-c", RSS.format(src=str(src))], check=True, capture_output=True,
                                   text=True).stdout.split()
        print(json.dumps({"what": "memory after one query (fresh process)", "src": str(src), "rss_mb": float(rss),
                          "peak_rss_mb": float(peak)}), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
