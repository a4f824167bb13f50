"""What a query process pays to find its cached ONNX graph (memdir.search.onnxlayers.graph_file). One JSON line.

    python benchmarks/bench_graph_lookup.py [--src PATH] [--runs 9]

``--src`` is the ``src`` directory of the memdir to measure (default this checkout's; give another worktree's
to compare). A graph is built once into a temporary cache directory, then each of ``--runs`` fresh processes
loads the encoder (not timed) and times one ``graph_file`` call on that warm cache: naming the graph (the
model file's SHA-256, or its recorded digest) and checking the file's seal. p50 / min wall ms are printed.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ONE = """
import json, sys, time
sys.path.insert(0, sys.argv[1])
from memdir.search import onnxlayers, vectors
from memdir.search.encoder import Encoder, package_file
model = package_file(vectors.MODEL_FILE)
encoder = Encoder(model)
t = time.perf_counter(); onnxlayers.graph_file(encoder, model, sys.argv[2]); took = time.perf_counter() - t
print(json.dumps(took * 1000))
"""


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", default=str(Path(__file__).resolve().parent.parent / "src"))
    parser.add_argument("--runs", type=int, default=9)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as cache:
        def run() -> float:
            return json.loads(subprocess.run([sys.executable, "-c", ONE, args.src, cache], capture_output=True,
                                             text=True, check=True).stdout)

        build = run()  # the first process builds the graph (and records the digest, where that exists)
        times = [run() for _ in range(args.runs)]
    print(json.dumps({"what": "graph lookup per process", "src": args.src, "runs": args.runs,
                      "first_build_ms": round(build, 1), "lookup_ms_p50": round(statistics.median(times), 2),
                      "lookup_ms_min": round(min(times), 2)}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
