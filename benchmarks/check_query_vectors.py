"""Two source trees' query vectors side by side: how far apart they are. JSON lines.

    python benchmarks/check_query_vectors.py --src /work/main/src --src src [--limit 1e-4]

Each tree runs in its own process and embeds, as a search does, every query of
the evaluation sets: the MCP benchmark's 194 queries at 1,000 notes
(``bench_query_embedding.queries``), the fit half of ``evals/search``'s
queries, and the fit prompts of ``evals/recall`` (never its blind set), each
by ``memdir.search.vectors.query_vector`` (one text: ONNX Runtime's layers when
installed) and the recall prompts also by
``memdir.search.querywindows.query_vectors`` (a prompt with its query windows:
numpy's layers). One line per group: the number of vectors, how many are
bit-identical, the largest ``1 - cosine`` and the largest absolute difference of
a component. The exit status is 1 when any ``1 - cosine`` exceeds ``--limit``.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent

DUMP = """
import json, os, sys
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
sys.path.insert(0, {src!r})
sys.path.insert(0, {bench!r})
sys.path.insert(0, {recall!r})
import numpy as np
from memdir.search import querywindows, vectors
from bench_query_embedding import queries
from common import HELDOUT_ONLY, SETS, prompts

search_fit = [json.loads(line)["query"] for i, line in enumerate(open({search!r}, encoding="utf-8"))
              if line.strip() and i % 2 == 0]
recall_fit = [r["prompt"] for s in SETS if s not in HELDOUT_ONLY for r in prompts("fit", s)]
out = {{}}
for name, texts in (("mcp_queries", queries(1000)), ("search_fit", search_fit), ("recall_fit", recall_fit)):
    out[name] = np.stack([vectors.query_vector(t) for t in texts])
out["recall_fit_windows"] = np.concatenate([querywindows.query_vectors(t) for t in recall_fit])
np.savez({out!r}, **out)
"""


def dump(src: str, path: str) -> None:
    code = DUMP.format(src=src, bench=str(REPO / "benchmarks"), recall=str(REPO / "evals" / "recall"),
                       search=str(REPO / "evals" / "search" / "queries.jsonl"), out=path)
    subprocess.run([sys.executable, "-c", code], check=True, env={**os.environ, "PYTHONHASHSEED": "0"})


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a tree's src directory (twice)")
    parser.add_argument("--limit", type=float, default=1e-4, help="largest 1 - cosine allowed")
    args = parser.parse_args()
    if len(args.src) != 2:
        parser.error("give --src twice")
    import numpy as np

    with tempfile.TemporaryDirectory() as tmp:
        paths = [os.path.join(tmp, f"{i}.npz") for i in range(2)]
        for src, path in zip(args.src, paths):
            dump(str(Path(src).resolve()), path)
        first, second = (np.load(p) for p in paths)
        worst = 0.0
        for name in first.files:
            a, b = first[name].astype(np.float64), second[name].astype(np.float64)
            cos = (a * b).sum(axis=1) / np.linalg.norm(a, axis=1) / np.linalg.norm(b, axis=1)
            gap = float((1 - cos).max())
            worst = max(worst, gap)
            print(json.dumps({"what": name, "vectors": len(a),
                              "identical": int((first[name] == second[name]).all(axis=1).sum()),
                              "max_1_minus_cosine": gap, "max_abs_diff": float(np.abs(a - b).max())}), flush=True)
    print(json.dumps({"what": "verdict", "src": args.src, "limit": args.limit, "ok": worst <= args.limit}))
    return 0 if worst <= args.limit else 1


if __name__ == "__main__":
    raise SystemExit(main())
