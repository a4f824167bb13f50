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
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
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

    out = {}
    for case in CASES:
        for path in PATHS:
            times: list = []
            for n in SIZES:
                if times and (times[-1] is None or times[-1][0] > cap):
                    times.append(None)
                    continue
                text = turn(case, n)
                started = time.perf_counter()
                if path == "gate":
                    answer = said_hits(text)
                else:
                    found = RulesExtractor().extract(Transcript((Turn("user", text),), "text", "digest"),
                                                     ExtractionContext())
                    answer = [(p.description, p.evidence) for p in found.proposals]
                took = time.perf_counter() - started
                times.append([took, hashlib.sha256(json.dumps(answer).encode()).hexdigest()[:16]])
            out[f"{case} {path}"] = times
    print(json.dumps(out))


def _run(src: Path, cap: float) -> dict:
    done = subprocess.run([sys.executable, __file__, "--child", str(src), "--cap", str(cap)],
                          capture_output=True, text=True, check=True)
    return json.loads(done.stdout)


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
    with tempfile.TemporaryDirectory(prefix="memdir-bench-said-before-") as tmp:
        main_src = args.main
        if main_src is None:
            archive = subprocess.run(["git", "-C", str(HERE), "archive", "main", "src"], capture_output=True, check=True)
            subprocess.run(["tar", "-x", "-C", tmp], input=archive.stdout, check=True)
            main_src = Path(tmp) / "src"
        before, after = _run(main_src, args.cap), _run(HERE / "src", args.cap)
    for key in before:
        case, path = key.split(" ")
        for n, old, new in zip(SIZES, before[key], after[key]):
            row = {"case": case, "path": path, "n": n, "main_s": None if old is None else round(old[0], 4),
                   "this_s": None if new is None else round(new[0], 4),
                   "ratio": round(old[0] / new[0], 1) if old is not None and new and new[0] else None,
                   "same": None if old is None or new is None else old[1] == new[1]}
            if old is None or new is None:
                row["skipped"] = f"over {args.cap} s at a smaller n"
            print(json.dumps(row), flush=True)
        last, before_last = after[key][-1], after[key][-2]
        print(json.dumps({"case": case, "path": path, "growth_4000_over_1000": round(last[0] / before_last[0], 1)
                          if last and before_last and before_last[0] else None}))


if __name__ == "__main__":
    main()
