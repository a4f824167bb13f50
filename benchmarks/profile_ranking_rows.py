"""What a hybrid search's per-row work costs, stage by stage, replayed without timers around each call. JSON lines.

    python benchmarks/profile_ranking_rows.py [--notes 1000] [--dir DIR] [--rounds 3] [--src SRC ...]

Builds (once, in ``--dir`` when given) the home of ``benchmarks/profile_mcp_search.py`` (its corpus, vectors on,
embedded in the foreground). Then, for each ``--src`` tree (default this one) in a fresh process: every query of
that benchmark runs once through the MCP tool's handler (the warm server's session) while the inputs of the
per-row stages are recorded; then each stage is replayed over those inputs alone and timed as a whole (the calling
thread's CPU, ``time.thread_time``; the best of ``--repeats``), so no timer sits around each of the ≈ 100 calls a
search makes per stage (``profile_mcp_search.py --stages`` wraps each call: ≈ 2 ms of a search is its timers).
Milliseconds per search, per stage:

* ``search``: one whole search through the tool (the calling thread; the query's embedding runs in a worker
  thread and is not in it), the figure the others are shares of;
* ``row_evidence``: :func:`memdir.search.ranking._evidence` over the search's candidates (its two calls);
* ``reading``: each candidate's body read as the query's terms (``Row.read``), part of ``row_evidence``;
* ``evidence``: :func:`memdir.search.relevance.evidence` (windows, held, complete), part of ``row_evidence``;
* ``windows``: :func:`memdir.search.windows.passages` (the two windows slid), part of ``evidence``;
* ``scores``: :func:`memdir.search.relevance.score` and :func:`~memdir.search.relevance.returned` of each hit;
* ``order``: :func:`memdir.search.ties.lexical_first` and the sort by :func:`~memdir.search.ties.order_key`.

A stage whose function a tree lacks is left out of its line. With more than one ``--src``, the trees run in turn
``--rounds`` times (which goes first alternating), each figure the best of its rounds, and a ``"compare"`` line
gives each stage's ratio of the first tree to each other (above 1: the other is cheaper).
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def child(src: str, base: Path, notes: int, repeats: int) -> dict:
    """One tree's line: record the stages' inputs over every query, then replay each stage (see the docstring)."""
    sys.path.insert(0, src)
    sys.path.insert(1, str(HERE))
    from profile_mcp_search import build

    home, project, queries = build(base, notes, True)
    os.environ["MEMDIR_SEARCH_VECTORS"] = "on"
    from memdir.integrations.mcp.server import MemoryServer
    from memdir.search import dense, ranking, relevance, rowwords, ties, windows
    from memdir.tools.handlers import run_tool

    recorded: dict[str, list] = {"row_evidence": [], "reading": [], "evidence": [], "hits": []}

    def recording(owner, name, into, keep=lambda args, kwargs, out: (args, kwargs)):
        function = getattr(owner, name)

        def run(*args, **kwargs):
            out = function(*args, **kwargs)
            recorded[into].append(keep(args, kwargs, out))
            return out
        setattr(owner, name, run)
        return function

    session = MemoryServer(home, project).fallback.session
    run_tool(session, "memory_search", {"query": "warm up the server", "k": 5})
    search_cpu = []
    for query in queries:  # the whole search, untouched (the first pass reads each row's words as a server would)
        dense._vectors.clear()
        t0 = time.thread_time()
        run_tool(session, "memory_search", {"query": query, "k": 5})
        search_cpu.append(time.thread_time() - t0)
    originals = {
        "row_evidence": recording(ranking, "_evidence", "row_evidence"),
        "reading": recording(rowwords.Row, "read", "reading"),
        "evidence": recording(relevance, "evidence", "evidence"),
        "hits": recording(ties, "lexical_first", "hits", lambda args, kwargs, out: list(args[0])),
    }
    for query in queries:
        run_tool(session, "memory_search", {"query": query, "k": 5})
    ranking._evidence, rowwords.Row.read = originals["row_evidence"], originals["reading"]
    relevance.evidence, ties.lexical_first = originals["evidence"], originals["hits"]

    def best(replay) -> float:
        took = []
        for _ in range(repeats):
            t0 = time.thread_time()
            replay()
            took.append(time.thread_time() - t0)
        return round(min(took) / len(queries) * 1000, 3)

    conn = recorded["row_evidence"][0][0][0] if recorded["row_evidence"] else None
    now = time.time()
    stages = {
        "row_evidence": lambda: [originals["row_evidence"](*a, **k) for a, k in recorded["row_evidence"]],
        "reading": lambda: [originals["reading"](*a, **k) for a, k in recorded["reading"]],
        "evidence": lambda: [originals["evidence"](*a, **k) for a, k in recorded["evidence"]],
        "windows": lambda: [windows.passages(a[2], a[0]) for a, _ in recorded["evidence"]],
        "scores": lambda: [relevance.returned(h.evidence, relevance.score(h.evidence), relevance.THRESHOLD, True)
                           for hits in recorded["hits"] for h in hits],
        "order": lambda: [sorted(originals["hits"](hits), key=lambda h: ties.order_key(h, True, now))
                          for hits in recorded["hits"]],
    }
    out = {"where": "rows", "src": src, "notes": notes, "queries": len(queries),
           "rows_per_search": round(len(recorded["evidence"]) / len(queries), 1),
           "search": round(sorted(search_cpu)[len(search_cpu) // 2] * 1000, 3), "search_is": "p50 calling-thread ms"}
    if conn is not None:
        conn.execute("BEGIN")  # _evidence reads the index (its rows, kept per generation) as a search does
    try:
        for stage, replay in stages.items():
            try:
                out[stage] = best(replay)
            except (AttributeError, TypeError):  # a tree without this stage's function (or its signature)
                continue
    finally:
        if conn is not None:
            conn.execute("COMMIT")
    out["load"] = round(os.getloadavg()[0], 1)
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, help="where the home is built and kept (default: a temporary one)")
    parser.add_argument("--src", action="append", help="a tree's src directory (default: this one)")
    parser.add_argument("--rounds", type=int, default=3, help="turns of every tree (with more than one --src)")
    parser.add_argument("--repeats", type=int, default=5, help="replays of each stage, the best kept")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    base = args.dir or Path(tempfile.mkdtemp(prefix="memdir-rows-"))
    if args.child:
        print(json.dumps(child(args.child, base, args.notes, args.repeats)), flush=True)
        return 0
    trees = [str(Path(s).resolve()) for s in (args.src or [str(HERE.parent / "src")])]
    rounds = args.rounds if len(trees) > 1 else 1
    best: dict[str, dict] = {}
    for turn in range(rounds):
        for src in trees if turn % 2 == 0 else trees[::-1]:
            run = subprocess.run([sys.executable, __file__, "--child", src, "--dir", str(base), "--notes",
                                  str(args.notes), "--repeats", str(args.repeats)],
                                 capture_output=True, text=True, check=True)
            line = json.loads(run.stdout.strip().splitlines()[-1])
            kept = best.setdefault(src, line)
            for key, value in line.items():
                if isinstance(value, float) and key not in ("load",):
                    kept[key] = min(kept.get(key, value), value)
    for src in trees:
        print(json.dumps({**best[src], "rounds": rounds}), flush=True)
    first = best[trees[0]]
    for src in trees[1:]:
        other = best[src]
        print(json.dumps({"where": "compare", "first": trees[0], "other": src, "ratio_first_over_other": {
            key: round(first[key] / other[key], 3) for key in first
            if key in other and isinstance(first[key], float) and key != "load" and other[key]}}), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
