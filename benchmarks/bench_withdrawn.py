"""What the person took back (:func:`memdir.consolidation.retraction.withdrawn`) over a transcript of many named
retractions ("ignore what I said about …" again and again): main against this checkout, in one run. Prints one
JSON object per line.

    python benchmarks/bench_withdrawn.py [--main PATH] [--cap SECONDS]

Each case is a transcript of ``n`` requests to remember and ``n`` named retractions (``n`` = 250, 1,000, 4,000):

* ``named.nothing_shared``: each request then, at the end, each retraction naming what no request says (every
  retraction looks through every request: main read each one's words again, ``n`` × ``n``);
* ``named.all_shared``: the requests all about the deploy, then the retractions all naming the deploy (each
  cancels the latest one still standing);
* ``named.interleaved``: a request, a retraction naming it, and so on;
* ``adjacent``: a request, "Scratch that.", and so on (the adjacency rule: linear on both sides).

``main_s`` and ``this_s`` are seconds of one call, ``ratio`` main / this, ``growth_4000_over_1000`` this
checkout's time at 4,000 over its time at 1,000: about 4 for a cost growing with ``n``, about 16 for one growing
with its square. A side over ``--cap`` seconds (default 5) at one size is not run at the larger ones (``null``).
``--main``: a ``src`` directory of main (default: ``git archive main src`` into a temporary directory).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _ab import both, growth, rows, sized  # a sibling helper, not an installed module

SIZES = (250, 1000, 4000)


def said(case: str, n: int) -> list[str]:
    """The person's turns of ``case`` for ``n`` (an assistant's "ok" goes between each two)."""
    if case == "named.nothing_shared":
        return [f"Remember: service{k} listens on port {5000 + k}." for k in range(n)] + [
            f"Ignore what I said about the logo{k}." for k in range(n)]
    if case == "named.all_shared":
        return [f"Remember: the deploy uses host{k}." for k in range(n)] + [
            "Ignore what I said about the deploy." for _ in range(n)]
    if case == "named.interleaved":
        return [text for k in range(n) for text in (f"Remember: service{k} listens on port {5000 + k}.",
                                                     f"Ignore what I said about service{k}.")]
    return [text for k in range(n) for text in (f"Remember: service{k} listens on port {5000 + k}.", "Scratch that.")]


CASES = ("named.nothing_shared", "named.all_shared", "named.interleaved", "adjacent")


def child(cap: float) -> None:
    """Time every case with the ``memdir`` on ``sys.path``; one JSON object: case -> [[seconds, cancelled] or None]."""
    from memdir.consolidation.retraction import withdrawn
    from memdir.consolidation.transcripts import Transcript, Turn

    def cancelled(case: str, n: int) -> int:
        turns = []
        for text in said(case, n):
            turns += [Turn("user", text), Turn("assistant", "ok")]
        return len(withdrawn(Transcript(tuple(turns), "text", "digest")).cancelled())

    print(json.dumps({case: sized(SIZES, cap, lambda n, case=case: cancelled(case, n)) for case in CASES}))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--main", type=Path)
    parser.add_argument("--cap", type=float, default=5.0)
    parser.add_argument("--child", type=Path)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.child))
        child(args.cap)
        return
    before, after = both(__file__, args.main, ["--cap", str(args.cap)], "memdir-bench-withdrawn-")
    for case in CASES:
        for row, old, new in zip(rows(SIZES, before[case], after[case], args.cap), before[case], after[case]):
            print(json.dumps({"case": case, **row, "cancelled_main": None if old is None else old[1],
                              "cancelled_this": None if new is None else new[1]}), flush=True)
        print(json.dumps({"case": case, "growth_4000_over_1000": growth(after[case])}))


if __name__ == "__main__":
    main()
