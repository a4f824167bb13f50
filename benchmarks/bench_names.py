"""What resolving a written name costs when no file holds it (issue 28 §6, §7). Prints one JSON object per line.

    python benchmarks/bench_names.py [--sizes 1000,10000] [--repeat 50]

A write of a new memory (and a read that misses) looks for a memory an older memdir stored under the name it
gave a spelling of this one (``odz-notes`` for ``Lodz-notes``): :func:`memdir.gateway.naming.candidates`, one
pass over the layer's file names, no file read. Figures, per layer size (names shaped like the benchmarks'
corpus: two to four words of a shared vocabulary):
  candidates     p50/p95 ms of one call for a short name, a long one, and one made only of the letters an
                 older memdir dropped (``o``: every hash name is a candidate too).
  adversarial    p50/p95 ms of one call for a 64-letter name of droppable letters (o…o, th…th) beside
                 names of droppable letters one letter off (o…oa): a backtracking pattern took minutes here.
  normalize      p50 µs of normalize_name plus legacy_names for a name with ł/ø/ß (pure).
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))

from memdir.gateway.naming import candidates  # noqa: E402
from memdir.text.names import legacy_names, normalize_name  # noqa: E402

WORDS = ("billing staging redis port postgres deploy runbook alice bob payments webhook ledger auth token "
         "cache queue worker cron backup restore metrics grafana alert oncall release notes api gateway").split()
KEYS = ("lodz-notes", "deploy-staging-database-port-for-billing", "o")


def _names(count: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    names = {"-".join(rng.sample(WORDS, rng.randint(2, 4))) + f"-{i}" for i in range(count)}
    return sorted(names | {"odz-notes", "m-47af2fb1e4"})


def _time(call, repeat: int) -> list[float]:
    out = []
    for _ in range(repeat):
        started = time.perf_counter()
        call()
        out.append((time.perf_counter() - started) * 1e3)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000")
    parser.add_argument("--repeat", type=int, default=50)
    args = parser.parse_args()
    for size in (int(s) for s in args.sizes.split(",")):
        names = {name: f"{name}.md" for name in _names(size)}  # as a scan holds them: name → file
        for key in KEYS:
            runs = _time(lambda: candidates(key, key, names), args.repeat)
            print(json.dumps({"bench": "candidates", "memories": size, "key": key,
                              "found": candidates(key, key, names), "p50_ms": round(statistics.median(runs), 3),
                              "p95_ms": round(sorted(runs)[int(0.95 * (len(runs) - 1))], 3)}))
    for key, near in (("o" * 64, "o" * 62 + "a"), ("th" * 32, "th" * 31 + "a")):
        names = {name: f"{name}.md" for name in (*_names(1000), near, key[:-2], "m-0a1b2c3d4e")}
        runs = _time(lambda: candidates(key, key, names), args.repeat)
        print(json.dumps({"bench": "adversarial", "memories": len(names), "key": key,
                          "found": len(candidates(key, key, names)), "p50_ms": round(statistics.median(runs), 3),
                          "p95_ms": round(sorted(runs)[int(0.95 * (len(runs) - 1))], 3)}))
    runs = _time(lambda: [(normalize_name(n), legacy_names(n)) for n in ("Łódź-notes", "Øresund", "Straße")] * 1,
                 args.repeat * 20)
    print(json.dumps({"bench": "normalize", "p50_us_per_name": round(statistics.median(runs) * 1e3 / 3, 2)}))


if __name__ == "__main__":
    main()
