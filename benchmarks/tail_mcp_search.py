"""Which ``memory_search`` calls through MCP make the p95, and why: each query's round trip and server CPU, first
seen and asked again, with the sentence vectors the call embedded; prints JSON lines.

    python benchmarks/tail_mcp_search.py [--notes 1000] [--seed 11] [--src SRC] [--dir DIR] [--top 15]

The workload is ``compare_basic_memory.py``'s (its corpus at ``--notes`` and ``--seed``, its queries: each needle's
question and keywords, then 100 of the domain's words, each once), indexed with vectors by ``--src``'s tree and kept
in ``--dir`` (default: a temporary one). One ``memdir mcp`` server of ``--src`` (vectors on) is started on a fresh
copy of that index and asked every query twice over: pass ``first`` (every query new to the server and to the
index) then pass ``again`` (the same queries, same order, same server). After ``memdir reindex`` builds the
index, the background embedder is run to its end, as the first search would start it (a ``built`` line: its
seconds). Per call it reads from ``/proc`` the
server's CPU in nanoseconds (``schedstat`` of every thread; the main thread's alone) and, from the index, how many
rows the ``sentence_vectors`` table gained: a search whose first hits tie embeds a sentence of each tied memory
(:mod:`memdir.search.ties`) and keeps its vector there (:mod:`memdir.search.sentencestore`), so a tie met first
costs the embedding and one met again reads it.

Lines: one per pass (``p50_ms``/``p95_ms`` of the round trip, the server's CPU per call and its main thread's share,
how many calls embedded sentences and how many); one per query of the first pass's slowest ``--top`` (its round
trip, CPU and sentences first, its round trip and CPU again); one ``"tail"`` line: of the first pass's calls at or
over its p95, how many embedded sentences, and the first pass's p95 over the calls that embedded none. Timing is
whatever the machine gives (``load`` on each line): compare trees with ``compare_basic_memory.py --src A --src B``.
Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sqlite3
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent


def _args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=11, help="compare_basic_memory.py's seed (default 11)")
    parser.add_argument("--needles", type=int, default=50)
    parser.add_argument("--src", type=Path, default=HERE.parent / "src", help="the tree's src the server imports")
    parser.add_argument("--dir", type=Path, help="where the indexed workload is built and kept between runs")
    parser.add_argument("--top", type=int, default=15, help="slowest first-seen calls printed one by one")
    return parser.parse_args(argv)


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def cpu_ns(pid: int) -> tuple[int, int]:
    """``(every thread's, the main thread's)`` CPU time of ``pid`` in nanoseconds (``/proc/PID/task/*/schedstat``,
    first field); a thread gone between the listing and the read counts 0."""
    total = main = 0
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            ran = int(Path(f"/proc/{pid}/task/{task}/schedstat").read_text().split()[0])
        except (OSError, ValueError, IndexError):
            continue
        total += ran
        main += ran if task == str(pid) else 0
    return total, main


def kept_sentences(index: Path) -> int:
    """Rows of the index's ``sentence_vectors`` table (0 before the first tie makes it), read-only."""
    try:
        conn = sqlite3.connect(f"file:{index}?mode=ro", uri=True)
        try:
            return conn.execute("SELECT count(*) FROM sentence_vectors").fetchone()[0]
        finally:
            conn.close()
    except sqlite3.Error:
        return 0


def build(base: Path, args) -> tuple[Path, Path, list[str]]:
    """The workload indexed with vectors under ``base`` (kept: built once); ``(hybrid home, project, queries)``."""
    import compare_basic_memory as cb

    if not (base / "built.json").exists():
        shutil.rmtree(base, ignore_errors=True)
        base.mkdir(parents=True)
        project, _, rows = cb.workload(base, args.notes, min(args.needles, max(1, args.notes // 10)), args.seed)
        system = cb.memdir_system(base, project, hybrid=True)
        system.env["PYTHONPATH"] = str(args.src.resolve())
        print(f"indexing {args.notes} notes with vectors", file=sys.stderr, flush=True)
        cb.timed_process(system.ingest, system.env, system.cwd)
        # What a search would start next (memdir reindex embeds the heads): the background embedder, to its end —
        # a tree that embeds the sentences a tie may pick ahead (memdir.search.sentencestore.fill) does it here.
        home = base / "memdir-hybrid-home"
        started = time.perf_counter()
        cb.timed_process([sys.executable, "-m", "memdir.search.embedder", str(home)], system.env, system.cwd)
        emit(built="embedder", seconds=round(time.perf_counter() - started, 1), load=os.getloadavg()[0])
        (base / "built.json").write_text(json.dumps([str(project), rows]))
    project, rows = json.loads((base / "built.json").read_text())
    queries = list(dict.fromkeys([q for row in rows for q in row[1:]]
                                 + cb.vocabulary_queries(100, args.seed + args.notes)))
    return base / "memdir-hybrid-home", Path(project), queries


def run(home: Path, project: Path, queries: list[str], src: Path, user: Path) -> list[dict]:
    """Every query asked twice of one server on ``home``: a dict per call (pass, query, wall/cpu/main ms,
    sentences)."""
    import anyio
    from compare_basic_memory import _children_now
    from mcp import Client, StdioServerParameters

    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on", HOME=str(user),
               PYTHONPATH=str(src.resolve()))
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                   cwd=str(project))
    index = home / "index.sqlite"

    async def ask() -> list[dict]:
        calls = []
        seen = _children_now()
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            pid = max(_children_now() - seen)
            await client.call_tool("memory_search", {"query": "warm up the server", "k": 5})
            for name in ("first", "again"):
                for query in queries:
                    kept, (cpu0, main0) = kept_sentences(index), cpu_ns(pid)
                    t0 = time.perf_counter()
                    result = await client.call_tool("memory_search", {"query": query, "k": 5})
                    wall = time.perf_counter() - t0
                    cpu1, main1 = cpu_ns(pid)
                    if getattr(result, "is_error", False) or getattr(result, "isError", False):
                        raise SystemExit(f"search {query!r} failed: {result.content}")
                    calls.append({"pass": name, "query": query, "wall_ms": round(wall * 1000, 2),
                                  "cpu_ms": round((cpu1 - cpu0) / 1e6, 2), "main_ms": round((main1 - main0) / 1e6, 2),
                                  "sentences": kept_sentences(index) - kept})
        return calls

    return anyio.run(ask)


def percentile(values: list[float], q: float) -> float:
    from compare_basic_memory import percentile as of

    return of(values, q)


def report(calls: list[dict], top: int) -> None:
    """The module docstring's lines from ``calls``."""
    load = os.getloadavg()[0]
    for name in ("first", "again"):
        own = [c for c in calls if c["pass"] == name]
        walls = [c["wall_ms"] for c in own]
        emit(**{"pass": name, "queries": len(own), "p50_ms": round(statistics.median(walls), 1),
                "p95_ms": round(percentile(walls, 0.95), 1),
                "server_cpu_ms_per_call": round(statistics.mean(c["cpu_ms"] for c in own), 2),
                "server_main_thread_ms_per_call": round(statistics.mean(c["main_ms"] for c in own), 2),
                "calls_embedding_sentences": sum(c["sentences"] > 0 for c in own),
                "sentences_embedded": sum(c["sentences"] for c in own), "load": load})
    first = [c for c in calls if c["pass"] == "first"]
    again = {c["query"]: c for c in calls if c["pass"] == "again"}
    for c in sorted(first, key=lambda c: -c["wall_ms"])[:top]:
        emit(query=c["query"], wall_ms=c["wall_ms"], cpu_ms=c["cpu_ms"], main_ms=c["main_ms"],
             sentences=c["sentences"], again_wall_ms=again[c["query"]]["wall_ms"],
             again_cpu_ms=again[c["query"]]["cpu_ms"])
    p95 = percentile([c["wall_ms"] for c in first], 0.95)
    tail = [c for c in first if c["wall_ms"] >= p95]
    plain = [c["wall_ms"] for c in first if c["sentences"] == 0]
    emit(tail=len(tail), tail_embedding_sentences=sum(c["sentences"] > 0 for c in tail),
         tail_cpu_ms_mean=round(statistics.mean(c["cpu_ms"] for c in tail), 1),
         first_p95_ms=round(p95, 1), first_p95_without_sentences_ms=round(percentile(plain, 0.95), 1) if plain else None,
         load=os.getloadavg()[0])


def main(argv: list[str] | None = None) -> int:
    args = _args(argv)
    sys.path.insert(0, str(args.src.resolve()))
    sys.path.insert(1, str(HERE))
    with tempfile.TemporaryDirectory(prefix="memdir-tail-") as tmp:
        base = args.dir.resolve() if args.dir else Path(tmp) / "kept"
        home, project, queries = build(base, args)
        fresh = Path(tmp) / "home"  # a copy: every run starts with no sentence vectors kept
        shutil.copytree(home, fresh, symlinks=True)
        calls = run(fresh, project, queries, args.src, base / "memdir-user")
        report(calls, args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())
