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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
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

    out = {}
    for case in CASES:
        times: list = []
        for n in SIZES:
            if times and (times[-1] is None or times[-1][0] > cap):
                times.append(None)
                continue
            turns = []
            for text in said(case, n):
                turns += [Turn("user", text), Turn("assistant", "ok")]
            transcript = Transcript(tuple(turns), "text", "digest")
            started = time.perf_counter()
            result = withdrawn(transcript)
            times.append([time.perf_counter() - started, len(result.cancelled())])
        out[case] = times
    print(json.dumps(out))


def _run(src: Path, cap: float) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", str(src), "--cap", str(cap)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


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
    with tempfile.TemporaryDirectory(prefix="memdir-bench-withdrawn-") as tmp:
        main_src = args.main
        if main_src is None:
            archive = subprocess.run(["git", "-C", str(HERE), "archive", "main", "src"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            main_src = Path(tmp) / "src"
        before, after = _run(main_src, args.cap), _run(HERE / "src", args.cap)
    for case in CASES:
        for n, old, new in zip(SIZES, before[case], after[case]):
            row = {"case": case, "n": n, "main_s": None if old is None else round(old[0], 4),
                   "this_s": None if new is None else round(new[0], 4),
                   "ratio": round(old[0] / new[0], 1) if old is not None and new and new[0] else None,
                   "cancelled_main": None if old is None else old[1], "cancelled_this": None if new is None else new[1]}
            if old is None or new is None:
                row["skipped"] = f"over {args.cap} s at a smaller n"
            print(json.dumps(row), flush=True)
        last, before_last = after[case][-1], after[case][-2]
        print(json.dumps({"case": case, "growth_4000_over_1000": round(last[0] / before_last[0], 1)
                          if last and before_last and before_last[0] else None}))


if __name__ == "__main__":
    main()
