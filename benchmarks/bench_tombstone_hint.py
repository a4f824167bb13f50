"""What the "forgotten memory matches" hint of an explicit search costs (:func:`memdir.search.ranking.find`'s
``forgotten``, newuser46) in a store of many memories and many tombstones: main against this checkout, in one run.
Prints one JSON object per line.

    python benchmarks/bench_tombstone_hint.py [--main PATH] [--memories 1000] [--tombstones 200] [--repeat 15]
                                              [--rounds 3] [--store DIR]

One store is built (by this checkout; kept in ``--store`` when given, and used again when built there): ``--memories``
memories in the project layer and ``--tombstones`` more written then forgotten (three quarters in the project
layer, the rest in the user layer). Both sides then search it, each in its own process, warmed by one search, each
query ``--repeat`` times, the sides taking turns ``--rounds`` times (the machine's load moves between two runs; the
least median of the rounds is kept):

* ``hint``: the hint alone (``memdir.search.ranking._forgotten``: the tombstones read and compared with the query);
* ``api``: :meth:`memdir.Memory.search` (a first page: the hint is looked for);
* ``mcp``: the ``memory_search`` tool's handler as a running ``memdir mcp`` calls it
  (:func:`memdir.tools.handlers.run_tool`), rendering included.

Queries: ``every`` matches every tombstone (and the memories), ``one`` a single tombstone, ``none`` no tombstone
(the memories only). ``main_ms`` and ``this_ms`` are the median milliseconds of one search, ``ratio`` main / this,
``same`` whether both sides gave the same answer in every round (the forgotten ids for ``hint`` and ``api``, the text
for ``mcp``), ``forgotten`` how many tombstones the query matched (null for ``mcp``). ``--main``: a ``src`` directory of main (default: ``git
archive main src`` into a temporary directory).
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _ab import HERE, both  # a sibling helper, not an installed module

QUERIES = {"every": "staging port", "one": "svc7 port", "none": "lunch menu"}
PATHS = ("api", "mcp")


def build(base: Path, memories: int, tombstones: int) -> None:
    """The home and project under ``base``: ``memories`` memories kept, ``tombstones`` forgotten."""
    from memdir import Memory

    project = base / "project"
    (project / ".git").mkdir(parents=True, exist_ok=True)
    mem = Memory.open(home=base / "home", project=project, actor="human", search_vectors="off")
    for k in range(memories):
        mem.write(f"note-{k}", f"Service note {k}: the staging deploy of app{k} listens on port {7000 + k}",
                  "project", f"Runbook {k} for app{k}.", scope="project")
    for k in range(tombstones):
        scope = "user" if k % 4 == 3 else "project"
        mem.write(f"svc{k}-port", f"Service svc{k} listens on port {6000 + k} in staging", "project",
                  f"Old host of svc{k}.", scope=scope)
        mem.forget(f"svc{k}-port", scope=scope, reason="retired")


def child(base: Path, repeat: int) -> None:
    """Time every path and query with the ``memdir`` on ``sys.path``; one JSON object: "path query" ->
    [median seconds, answer digest, tombstones matched]."""
    os.environ["MEMDIR_SEARCH_VECTORS"] = "off"
    from memdir import Memory
    from memdir.search.ranking import _forgotten
    from memdir.tools.handlers import run_tool

    mem = Memory.open(home=base / "home", project=base / "project", search_vectors="off")

    def hint(query: str) -> tuple[str, int]:
        ids = [f["id"] for f in _forgotten(mem.session, query, None)]
        return json.dumps(ids), len(ids)

    def api(query: str) -> tuple[str, int]:
        ids = [f["id"] for f in mem.search(query, k=5).forgotten]
        return json.dumps(ids), len(ids)

    def mcp(query: str) -> tuple[str, int]:
        out = run_tool(mem.session, "memory_search", {"query": query, "k": 5})
        assert not out.is_error, out.text
        return out.text, None

    out = {}
    for path, call in (("hint", hint), ("api", api), ("mcp", mcp)):
        call("warm up the search")
        for case, query in QUERIES.items():
            times = []
            for _ in range(repeat):
                started = time.perf_counter()
                answer, matched = call(query)
                times.append(time.perf_counter() - started)
            out[f"{path} {case}"] = [statistics.median(times), hashlib.sha256(answer.encode()).hexdigest()[:16],
                                     matched]
    print(json.dumps(out))


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--main", type=Path)
    parser.add_argument("--memories", type=int, default=1000)
    parser.add_argument("--tombstones", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=15)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--child", type=Path)
    parser.add_argument("--store", type=Path)
    args = parser.parse_args()
    if args.child:
        sys.path.insert(0, str(args.child))
        child(args.store, args.repeat)
        return
    with tempfile.TemporaryDirectory(prefix="memdir-bench-tombstone-hint-") as tmp:
        store = args.store or Path(tmp)
        made = store / f"built-{args.memories}-{args.tombstones}"
        if not made.exists():
            sys.path.insert(0, str(HERE / "src"))
            started = time.perf_counter()
            build(store, args.memories, args.tombstones)
            made.write_text(f"{time.perf_counter() - started:.1f}\n")
        print(json.dumps({"built": {"memories": args.memories, "tombstones": args.tombstones,
                                    "seconds": float(made.read_text())}}), flush=True)
        runs = [both(__file__, args.main, ["--store", str(store), "--repeat", str(args.repeat)],
                     "memdir-bench-tombstone-hint-main-") for _ in range(args.rounds)]
    for key in runs[0][0]:
        path, case = key.split(" ")
        old = min(before[key][0] for before, _ in runs)
        new = min(after[key][0] for _, after in runs)
        same = all(before[key][1] == after[key][1] == runs[0][1][key][1] for before, after in runs)
        print(json.dumps({"path": path, "query": case, "main_ms": round(old * 1000, 2), "this_ms": round(new * 1000, 2),
                          "ratio": round(old / new, 2) if new else None, "same": same,
                          "forgotten": runs[0][1][key][2]}), flush=True)


if __name__ == "__main__":
    main()
