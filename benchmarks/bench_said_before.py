"""What a request pointing back carries (:func:`memdir.consolidation.gate.said_before`) over one long turn of the
person's: main against this checkout, in one run. Prints one JSON object per line.

    python benchmarks/bench_said_before.py [--main PATH] [--cap SECONDS]

Each case is one user turn of ``n`` sentences (``n`` = 250, 1,000, 4,000), read by the real paths that call
``said_before`` for each sentence: the gate's :func:`~memdir.consolidation.gate.said_hits` (``gate``) and the
rules extractor (``rules``: :class:`~memdir.consolidation.extractors.rules.RulesExtractor`, which also reads what
the person took back):

* ``facts.requests``: a fact, "Remember it.", a fact, "Remember it.", … (each request carries the fact before
  it; main read every sentence before each request again: ``n`` × ``n``);
* ``asides.requests``: ``n / 2`` questions, then ``n / 2`` "Put this into CLAUDE.md." (no sentence to carry: each
  request looks back through all the questions).

``main_s`` and ``this_s`` are seconds of one call, ``ratio`` main / this, ``same`` whether both sides gave the
same answer (a digest of the hits, or of the proposals' descriptions and evidence), ``growth_4000_over_1000`` this
checkout's time at 4,000 over its time at 1,000: about 4 for a cost growing with ``n``, about 16 for one growing
with its square. A side over ``--cap`` seconds (default 10) at one size is not run at the larger ones (``null``).
``--main``: a ``src`` directory of main (default: ``git archive main src`` into a temporary directory).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _ab import both, growth, rows, sized  # a sibling helper, not an installed module

SIZES = (250, 1000, 4000)
CASES = ("facts.requests", "asides.requests")
PATHS = ("gate", "rules")


def turn(case: str, n: int) -> str:
    """The person's one turn of ``case`` for ``n`` sentences."""
    if case == "facts.requests":
        return " ".join(f"Service{k} listens on port {5000 + k} in staging." if k % 2 == 0 else "Remember it."
                        for k in range(n))
    return " ".join([f"Is service{k} up?" for k in range(n // 2)] + ["Put this into CLAUDE.md."] * (n - n // 2))


def child(cap: float) -> None:
    """Time every case and path with the ``memdir`` on ``sys.path``; one JSON object: "case path" -> a list of
    [seconds, answer digest] or None, one per size."""
    from memdir.consolidation.extractors.rules import RulesExtractor
    from memdir.consolidation.gate import said_hits
    from memdir.consolidation.proposals import ExtractionContext
    from memdir.consolidation.transcripts import Transcript, Turn

    def answer(case: str, path: str, n: int) -> str:
        text = turn(case, n)
        if path == "gate":
            found = said_hits(text)
        else:
            found = [(p.description, p.evidence) for p in RulesExtractor().extract(
                Transcript((Turn("user", text),), "text", "digest"), ExtractionContext()).proposals]
        return hashlib.sha256(json.dumps(found).encode()).hexdigest()[:16]

    print(json.dumps({f"{case} {path}": sized(SIZES, cap, lambda n, case=case, path=path: answer(case, path, n))
                      for case in CASES for path in PATHS}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--main", type=Path)
    parser.add_argument("--cap", type=float, default=10.0)
    parser.add_argument("--child", type=Path)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.child))
        child(args.cap)
        return
    before, after = both(__file__, args.main, ["--cap", str(args.cap)], "memdir-bench-said-before-")
    for key in before:
        case, path = key.split(" ")
        for row, old, new in zip(rows(SIZES, before[key], after[key], args.cap), before[key], after[key]):
            print(json.dumps({"case": case, "path": path, **row,
                              "same": None if old is None or new is None else old[1] == new[1]}), flush=True)
        print(json.dumps({"case": case, "path": path, "growth_4000_over_1000": growth(after[key])}))


if __name__ == "__main__":
    main()
