"""Where one ``memory_search`` call of a running MCP server spends its time.

    python benchmarks/profile_mcp_search.py [--notes 1000] [--dir DIR] [--hybrid] [--profile N] [--mcp]

Builds (once, in ``--dir`` when given, kept for the next run) a home holding
the benchmarks' corpus (``benchmarks/_corpus.py``) as project memories and
indexes it (``--hybrid``: with vectors, embedded in the foreground). Then,
in this process, as the MCP server runs a tool call (the server's
:class:`~memdir.integrations.mcp.server.MemoryServer` session, the tool's
handler with its rendering): one warm-up call, then the queries of
``benchmarks/compare_basic_memory.py`` (each needle's question and keywords,
100 vocabulary queries), timed one by one; prints p50/p95 as JSON. With
``--profile N`` the top ``N`` functions of a cProfile run over the same
queries (cumulative time) follow. With ``--mcp`` the same queries also go
through a real ``memdir mcp`` subprocess driven by the MCP SDK's client.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "src"))
sys.path.insert(0, str(HERE))

from _corpus import corpus, keywords, vocabulary_queries, write_notes  # noqa: E402


def build(base: Path, notes: int, hybrid: bool) -> tuple[Path, Path, list[str]]:
    """The home and project holding ``notes`` corpus notes, indexed; the queries."""
    home, project = base / "home", base / "project"
    notes_made, questions = corpus(notes, 11, facts=min(50, max(1, notes // 10)))
    queries = [q for question, _ in questions for q in (question, keywords(question))]
    queries += vocabulary_queries(100, 11 + notes)
    if not (base / "built").exists():
        from memdir import Memory
        from memdir.search.sync import reindex

        (project / ".git").mkdir(parents=True, exist_ok=True)
        mem = Memory.open(home=home, project=project, search_vectors="on" if hybrid else "off")
        write_notes(mem.session.layer("project").path, notes_made)
        reindex(home, mem.session.settings)
        (base / "built").write_text("")
    return home, project, queries


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def in_process(home: Path, project: Path, queries: list[str], hybrid: bool, top: int) -> None:
    os.environ["MEMDIR_SEARCH_VECTORS"] = "on" if hybrid else "off"
    from memdir.integrations.mcp.server import MemoryServer
    from memdir.tools.handlers import run_tool

    session = MemoryServer(home, project).fallback.session
    run_tool(session, "memory_search", {"query": "warm up the server", "k": 5})
    times = []
    for query in queries:
        t0 = time.perf_counter()
        out = run_tool(session, "memory_search", {"query": query, "k": 5})
        times.append(time.perf_counter() - t0)
        assert not out.is_error, out.text
    print(json.dumps({"where": "in-process", "hybrid": hybrid, "queries": len(times),
                      "p50_ms": round(statistics.median(times) * 1000, 2),
                      "p95_ms": round(percentile(times, 0.95) * 1000, 2)}), flush=True)
    if top:
        profile = cProfile.Profile()
        profile.enable()
        for query in queries:
            run_tool(session, "memory_search", {"query": query, "k": 5})
        profile.disable()
        pstats.Stats(profile, stream=sys.stdout).sort_stats("cumulative").print_stats(top)


def over_mcp(home: Path, project: Path, queries: list[str], hybrid: bool) -> None:
    import anyio
    from mcp import Client, StdioServerParameters

    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on" if hybrid else "off",
               PYTHONPATH=str(HERE.parent / "src"))
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                   cwd=str(project))

    async def run() -> list[float]:
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            await client.call_tool("memory_search", {"query": "warm up the server", "k": 5})
            times = []
            for query in queries:
                t0 = time.perf_counter()
                await client.call_tool("memory_search", {"query": query, "k": 5})
                times.append(time.perf_counter() - t0)
            return times

    times = anyio.run(run)
    print(json.dumps({"where": "mcp", "hybrid": hybrid, "queries": len(times),
                      "p50_ms": round(statistics.median(times) * 1000, 2),
                      "p95_ms": round(percentile(times, 0.95) * 1000, 2)}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, help="where the home is built and kept (default: a temporary one)")
    parser.add_argument("--hybrid", action="store_true", help="vectors on (embedded in the foreground)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the top N functions")
    parser.add_argument("--mcp", action="store_true", help="also time the queries through a memdir mcp subprocess")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memdir-profile-") as tmp:
        base = args.dir or Path(tmp)
        base.mkdir(parents=True, exist_ok=True)
        home, project, queries = build(base, args.notes, args.hybrid)
        os.chdir(project)
        in_process(home, project, queries, args.hybrid, args.profile)
        if args.mcp:
            over_mcp(home, project, queries, args.hybrid)
    return 0


if __name__ == "__main__":
    sys.exit(main())
