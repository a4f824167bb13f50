"""The calling thread's CPU of one ``memory_search`` tool call, the query's embedding aside, tree against tree.

    python benchmarks/bench_search_cpu.py [--src SRC …] [--notes 1000] [--dir DIR] [--rounds 3] [--k 5]

For each ``--src`` tree (default this one's ``src``; give two, e.g. a snapshot of main and this one, for a ratio
from one run) a fresh process imports that tree, opens the home of ``benchmarks/profile_mcp_search.py`` (built
once with vectors, kept in ``--dir``), answers each query of ``compare_basic_memory.py`` once as a tool call (the
MCP server's session, the handler and its rendering: :func:`memdir.tools.handlers.run_tool`) to warm up, then
times each again by ``time.thread_time``. The second pass finds every query's vector kept from the first
(:mod:`memdir.search.dense`), so what is timed is the search's own work on the server's thread: SQL, evidence,
ranking, rendering (the query's embedding is another benchmark's, ``bench_query_embedding.py``). CPU time of the
thread, not wall time, so a loaded machine inflates it little; the trees run in turn, ``--rounds`` times, and a
query's figure is its least over the rounds. ``--dir``: a home this script (or ``profile_mcp_search.py``) built
there, never a copy moved from elsewhere (its layer is keyed by its path: a moved one is indexed anew, unembedded).
Prints one JSON line per tree (mean and p50 ms per call) and one with
each tree's mean against the first's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _one(src: Path, base: Path, notes: int, k: int) -> list[float]:
    """In this process (a child): each query's thread CPU seconds, ``src``'s tree imported."""
    sys.path.insert(0, str(HERE))
    # profile_mcp_search puts this tree's src on the path: the asked one goes first, below
    from profile_mcp_search import build

    sys.path.insert(0, str(src.resolve()))
    home, project, queries = build(base, notes, True)
    os.environ["MEMDIR_SEARCH_VECTORS"] = "on"
    import time

    from memdir.integrations.mcp.server import MemoryServer
    from memdir.tools.handlers import run_tool

    session = MemoryServer(home, project).fallback.session
    for query in queries:  # warm: rows, vectors and each query's embedding kept
        run_tool(session, "memory_search", {"query": query, "k": k})
    took = []
    for query in queries:
        t0 = time.thread_time()
        out = run_tool(session, "memory_search", {"query": query, "k": k})
        took.append(time.thread_time() - t0)
        assert not out.is_error, out.text
    return took


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", type=Path, action="append", help="a tree's src (repeatable; default this one's)")
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, default=Path("/tmp/memdir-bench-search-cpu"),
                        help="where the home is built and kept")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--k", type=int, default=5)
    parser.add_argument("--child", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        print(json.dumps(_one(args.child, args.dir, args.notes, args.k)))
        return
    trees = args.src or [HERE.parent / "src"]
    if not (args.dir / "built").exists():  # built once, by the first tree, before any timing
        subprocess.run([sys.executable, __file__, "--child", str(trees[0]), "--dir", str(args.dir), "--notes",
                        str(args.notes), "--k", str(args.k)], check=True, stdout=subprocess.DEVNULL)
    best: dict[int, list[float]] = {}
    for _ in range(args.rounds):
        for i, src in enumerate(trees):
            out = subprocess.run([sys.executable, __file__, "--child", str(src), "--dir", str(args.dir), "--notes",
                                  str(args.notes), "--k", str(args.k)], check=True, capture_output=True, text=True)
            took = json.loads(out.stdout.splitlines()[-1])
            best[i] = took if i not in best else [min(a, b) for a, b in zip(best[i], took)]
    means = {}
    for i, src in enumerate(trees):
        means[i] = statistics.mean(best[i]) * 1000
        print(json.dumps({"src": str(src), "queries": len(best[i]), "cpu_mean_ms": round(means[i], 3),
                          "cpu_p50_ms": round(statistics.median(best[i]) * 1000, 3), "rounds": args.rounds}))
    print(json.dumps({"ratio_to_first": {str(src): round(means[i] / means[0], 3) for i, src in enumerate(trees)},
                      "load": os.getloadavg()[0]}))


if __name__ == "__main__":
    main()
