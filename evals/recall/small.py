"""Recall in small stores: a new user's home holds a handful of memories, the recall bar was fitted on one of ~50.

    python evals/recall/small.py [--others 0,2,5] [--sets prompts,tasks] [--seed 7] [--vectors on|off]

For every ``fit`` row of the given sets (never a held-out line, never ``fresh``; :func:`common.prompts`): a fresh
home whose project layer holds only the memories the row expects plus ``others`` memories drawn at random from the
evaluation store (seeded per row), embedded in the foreground; a row expecting none gets ``others + 1`` random
memories. Recall runs as the prompt hook's (:func:`memdir.search.recall.recall_result`, in-process, k 3) and is
counted as ``run.py`` counts it: one JSON line per size with ``[hits, needing, false, none]`` per fold, the hit
rate, the false-recall rate and the misses' prompts. A measurement only: nothing here is fitted.

2026-12-05 (session 56), written after a trial in a fresh home of two memories missed "which package manager do we
use?" beside "pkg-manager: This project uses pnpm, never npm" (search relevance 0.22, cosine 0.805). Fit rows of
prompts and tasks (128 needing a memory, 59 none), seed 7, vectors on, [hits, needing, false, none] per fold:
the expected memory alone [57,73,0,21] / [41,55,0,38] (hit 0.766, false 0.0); with 2 others [64,73,0,21] /
[49,55,0,38] (0.883, 0.0); with 5 others [61,73,0,21] / [43,55,3,38] (0.812, 0.051). The bar's evidence is relative
to the store (a memory's lead over the others), so a memory alone in its store is recalled less often than beside
two others: 30 of 128 missed alone. Not acted on yet.

2026-12-05 (recall26): a memory alone in its store is now measured beside an imagined second memory
(:func:`memdir.search.relevance.standing`, ``SOLO_COSINE`` 0.78, chosen by pooled 2-fold CV on every fit set in
stores of one: ``tiny.py``). The same run after: alone [69,73,0,21] / [51,55,1,38] (hit 0.938, false 0.017); with 2
others and with 5 others unchanged (0.883/0.0, 0.812/0.051).
"""

from __future__ import annotations

import argparse
import json
import random
import shutil
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import common  # noqa: E402


def store_files() -> dict[str, Path]:
    """Memory name → source file of every evaluation memory, placed as :func:`common.place_memories` places them
    (a real file as its last ``__`` part; the name is that file's stem as memdir reads it)."""
    from memdir.text.names import normalize_name

    found = {path.name: path for path in sorted((HERE / "memories").glob("*.md"))}
    if common.REAL.is_dir():
        for path in sorted(common.REAL.rglob("*.md")):
            if not path.name.endswith("MEMORY.md"):
                found[path.name.split("__")[-1]] = path
    return {normalize_name(Path(placed).stem).name: path for placed, path in found.items()}


def recalled(base: Path, files: list[Path], prompt: str, vectors: str) -> list[str]:
    """The names recall returns for ``prompt`` in a fresh home under ``base`` holding only ``files``."""
    from memdir import Memory
    from memdir.search.recall import recall_result
    from memdir.search.sync import prepare

    project = base / "proj"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "home", project=project, search_vectors=vectors, actor="human")
    layer = mem.session.layer("project").path
    layer.mkdir(parents=True, exist_ok=True)
    for path in files:
        shutil.copy(path, layer / path.name.split("__")[-1])  # as common.place_memories places it
    prepare(mem.session)
    return [m.name for m in recall_result(mem.session, prompt, k=3).memories]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--others", default="0,2,5", help="other memories beside the expected ones, per size")
    parser.add_argument("--sets", default="prompts,tasks", help="fit sets to read (comma-separated)")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--vectors", choices=("on", "off"), default="on")
    args = parser.parse_args(argv)
    files = store_files()
    names = sorted(files)
    rows = [row for which in args.sets.split(",") for row in common.prompts("fit", which)
            if all(name in files for name in row["expect"])]
    for others in (int(n) for n in args.others.split(",")):
        folds, misses, false = common.new_folds(), [], []
        for i, row in enumerate(rows):
            rng = random.Random(f"{args.seed}:{others}:{row['prompt']}")
            pool = [n for n in names if n not in row["expect"]]
            chosen = row["expect"] + rng.sample(pool, others + (0 if row["expect"] else 1))
            with tempfile.TemporaryDirectory(prefix="memdir-small-") as tmp:
                got = recalled(Path(tmp), [files[n] for n in chosen], row["prompt"], args.vectors)
            if not common.tally(folds, i % 2, row["expect"], got):
                (misses if row["expect"] else false).append({"prompt": row["prompt"], "expect": row["expect"],
                                                              "store": chosen, "recalled": got})
        hits = folds[0][0] + folds[1][0]
        needing = folds[0][1] + folds[1][1]
        falses = folds[0][2] + folds[1][2]
        none = folds[0][3] + folds[1][3]
        print(json.dumps({"others": others, "folds": folds, "hit_rate": round(hits / max(needing, 1), 3),
                          "false_recall_rate": round(falses / max(none, 1), 3), "misses": misses,
                          "false_recalls": false}, ensure_ascii=False), flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
