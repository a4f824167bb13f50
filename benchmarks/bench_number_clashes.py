"""What reading a candidate's dotted numbers for a query's number costs (num42), JSON lines.

    python benchmarks/bench_number_clashes.py [--notes 300] [--rounds 5]

A store of ``--notes`` notes (vectors off), each a few sentences holding a node version, a host address and a port.
Its rows read as a search reads them (:func:`memdir.search.rowwords.rows`); then, for a query writing two dotted
numbers, :func:`memdir.search.versions.clashes` of every row against (``split``) the row's head and whole body split
into its terms each time, and (``kept``) :meth:`memdir.search.rowwords.Row.numbers`, read once per row and kept.
Milliseconds for all rows, the best of ``--rounds`` (``time.perf_counter``), and a ``compare`` line with the ratio
``split / kept``; the two must find the same clashes (``same``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import tempfile
import time
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    from memdir import Memory
    from memdir.search import index, rowwords
    from memdir.search.tokenize import query_terms
    from memdir.search.versions import clashes

    with tempfile.TemporaryDirectory() as tmp:
        project = Path(tmp) / "proj"
        project.mkdir()
        subprocess.run(["git", "init", "-q", str(project)], check=True)
        mem = Memory.open(home=Path(tmp) / "home", project=project, actor="human", search_vectors="off")
        for i in range(args.notes):
            mem.write(f"note-{i}", f"Service {i} runtime", "project",
                      f"Service {i} runs node 18.{i % 20}.{i % 7} on host 10.0.{i % 5}.{i % 250} port {6000 + i}. "
                      + "More words about the deploy and its config. " * 20)
        mem.search("warm up")  # the index built
        conn = index.connect(mem.home)
        ids = [row[0] for row in conn.execute("SELECT id FROM docs")]
        rows = list(rowwords.rows(conn, ids).values())
        terms = query_terms("which host 10.0.0.13 runs node 18.17.2")
        timings: dict[str, float] = {}
        found: dict[str, list] = {}
        for label, held in (("split", lambda r: {*r.head, *r.body().split()}), ("kept", lambda r: r.numbers())):
            best = float("inf")
            for _ in range(args.rounds):
                start = time.perf_counter()
                found[label] = [clashes(terms, held(r)) for r in rows]
                best = min(best, time.perf_counter() - start)
            timings[label] = best * 1000
            print(json.dumps({"bench": "number_clashes", "variant": label, "rows": len(rows),
                              "ms": round(timings[label], 3)}))
        print(json.dumps({"bench": "number_clashes", "compare": "split/kept",
                          "ratio": round(timings["split"] / timings["kept"], 1), "same": found["split"] == found["kept"],
                          "clashing_rows": sum(1 for c in found["kept"] if c)}))
        index.close_all()


if __name__ == "__main__":
    main()
