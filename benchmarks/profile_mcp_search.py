"""Where one ``memory_search`` call of a running MCP server spends its time.

    python benchmarks/profile_mcp_search.py [--notes 1000] [--dir DIR] [--hybrid] [--profile N] [--stages] [--mcp]
                                            [--server-profile N] [--sdk] [--ties] [--floor N --src SRC …]

Builds (once, in ``--dir`` when given, kept for the next run) a home holding
the benchmarks' corpus (``benchmarks/_corpus.py``) as project memories and
indexes it (``--hybrid``: with vectors, embedded in the foreground). Then,
in this process, as the MCP server runs a tool call (the server's
:class:`~memdir.integrations.mcp.server.MemoryServer` session, the tool's
handler with its rendering): one warm-up call, then the queries of
``benchmarks/compare_basic_memory.py`` (each needle's question and keywords,
100 vocabulary queries, each distinct query once), timed one by one; prints p50/p95 as JSON. With
``--profile N`` the top ``N`` functions of a cProfile run over the same
queries (cumulative time) follow. With ``--stages`` the same queries run
again with a timer around each stage of a search (syncing, FTS5, the
sentence pass, loading rows, the query's embedding, the cosines, the
evidence, ties, snippets, rendering; the rest is the ranking's own glue)
and the mean milliseconds of each are printed: CPU time of the calling
thread (``time.thread_time``), so a loaded machine inflates them little;
the query's embedding runs in a worker thread while the words are read
(:mod:`memdir.search.dense`), so its line is that thread's CPU and the
calling thread's wait for it is "waiting for the query vector" (its CPU;
``waiting_wall_ms``: the wall time of those waits, mean per search and p50/p95 per wait). With
``--mcp`` the same queries also go through a real ``memdir mcp`` subprocess
driven by the MCP SDK's client, and the round trip of a call that does no
search (an empty query, refused) is timed: the SDK's and JSON-RPC's share;
the server's CPU ms per pair of calls follows, per thread (``/proc``: the
main thread runs the event loop, the SDK and the tool call; the query's
embedding has a worker of its own). With ``--server-profile N`` (and
``--mcp``; the in-process pass is skipped) that server runs under cProfile
(``benchmarks/_profiled_mcp.py``, the main thread's CPU time) over the timed
calls, and its top ``N`` functions by own and by cumulative time follow.
With ``--floor N`` alone: a ``memdir mcp`` of each ``--src`` tree (default
this one), started together and asked in turn, answers rounds of ``N``
``tools/list`` and ``N`` refused searches; per tree and kind, the server's CPU
ms per call and the p50: what a call costs around the search, tree against tree.
With ``--sdk`` each query runs, in this process and alternately, as a direct
tool call and through the MCP SDK's server (:func:`~memdir.integrations.mcp.
server.build_server`) driven by its in-process client (no pipe, no second
process), the answers compared, and an empty query each way: the SDK's own
dispatch cost per call, apart from the stdio pipe's. With ``--ties`` (and
``--hybrid``) the queries run twice more in this process, the kept sentence
vectors emptied first (:func:`memdir.search.vectors.sentence_vectors`) and the
kept query vectors before each query: how many queries embed a tie's sentences,
how many sentences they ask and how many were kept already, and the p50/p95 of
the queries that embed some and of those that do not; the second pass shows what
the kept sentences spare a server asked the same subjects again.
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
from compare_basic_memory import (
    _children_now,  # (the servers this process started, as tail_mcp_search)
)


def build(base: Path, notes: int, hybrid: bool) -> tuple[Path, Path, list[str]]:
    """The home and project holding ``notes`` corpus notes, indexed; the queries."""
    home, project = base / "home", base / "project"
    notes_made, questions = corpus(notes, 11, facts=min(50, max(1, notes // 10)))
    queries = [q for question, _ in questions for q in (question, keywords(question))]
    queries = list(dict.fromkeys(queries + vocabulary_queries(100, 11 + notes)))  # each once
    if not (base / "built").exists():
        from memdir import Memory
        from memdir.search.reindex import reindex

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


STAGES = (  # (module, function, stage): the functions a search calls, timed where they are looked up
    ("memdir.search.ranking", "sync", "sync (two stats per layer)"),
    ("memdir.search.ranking", "doc_freq", "term counts, compounds"),
    ("memdir.search.ranking", "find_compounds", "term counts, compounds"),
    ("memdir.search.ranking", "add_phrase_freq", "term counts, compounds"),
    ("memdir.search.ranking", "read_near", "term counts, compounds"),
    ("memdir.search.visible", "bm25_rows", "FTS5 BM25"),
    ("memdir.search.ranking", "near_rows", "sentence pass (FTS5 NEAR)"),
    ("memdir.search.visible", "load", "loading rows"),
    ("memdir.search.visible", "rows_by_id", "loading rows"),
    ("memdir.search.visible", "shown_rows", "loading rows"),
    ("memdir.search.ranking", "_evidence", "evidence (words)"),
    ("memdir.search.ranking", "_with_cosines", "evidence (cosines)"),
    ("memdir.search.dense", "_kept", "waiting for the query vector"),  # query_vector(s): the search's and ties' ask
    ("memdir.search.vectors", "similarities", "cosines (matrix product)"),
    ("memdir.search.ranking", "_dense", "dense side, other"),
    ("memdir.search.concepts", "met", "concepts (met, instances)"),
    ("memdir.search.concepts", "instances_met", "concepts (met, instances)"),
    ("memdir.search.concepts", "lifted", "concepts (met, instances)"),
    ("memdir.search.ties", "lexical_first", "ties: order (lexical_first, order_key)"),
    ("memdir.search.ties", "order_key", "ties: order (lexical_first, order_key)"),
    ("memdir.search.relevance", "stated", "stated"),
    ("memdir.search.relevance", "score", "relevance.score, returned"),
    ("memdir.search.relevance", "returned", "relevance.score, returned"),
    ("memdir.search.vectors", "sentence_vectors", "ties: embedding sentences"),
    ("memdir.search.ranking", "_ties_broken", "ties: other"),
    ("memdir.search.ranking", "_fallen", "fallen, tie cut"),
    ("memdir.search.ranking", "_tie_cut", "fallen, tie cut"),
    ("memdir.search.ranking", "_result", "results, snippets"),
    ("memdir.tools.handlers.render", "search", "rendering the text"),
    ("memdir.tools.handlers", "answer", "escaping, bounding"),
    ("memdir.tools.handlers", "check_arguments", "checking arguments"),
)


def stages(home: Path, project: Path, queries: list[str], hybrid: bool) -> None:
    """Mean CPU milliseconds per stage of a search (see the module docstring)."""
    import importlib
    import threading
    from collections import defaultdict

    os.environ["MEMDIR_SEARCH_VECTORS"] = "on" if hybrid else "off"
    from memdir.integrations.mcp.server import MemoryServer
    from memdir.search import dense, vectors
    from memdir.tools.handlers import run_tool

    spent: dict[str, float] = defaultdict(float)
    waited: list[float] = []  # wall seconds of each wait for the query vector (a blocked wait takes no CPU)
    inner: list[float] = []
    main = threading.get_ident()

    def timed(function, stage):
        def run(*args, **kwargs):
            if threading.get_ident() != main:  # the query's embedding, in the worker thread
                t0 = time.thread_time()
                try:
                    return function(*args, **kwargs)
                finally:
                    spent["query embedding (worker thread CPU)"] += time.thread_time() - t0
            t0, w0 = time.thread_time(), time.perf_counter()
            inner.append(0.0)
            try:
                return function(*args, **kwargs)
            finally:
                if stage.startswith("waiting"):
                    waited.append(time.perf_counter() - w0)
                took, nested = time.thread_time() - t0, inner.pop()
                spent[stage] += took - nested
                if inner:
                    inner[-1] += took
        return run

    for module, name, stage in STAGES:
        target = importlib.import_module(module) if not module.endswith(".render") else \
            importlib.import_module(module.rsplit(".", 1)[0]).render
        setattr(target, name, timed(getattr(target, name), stage))
    vectors.query_vector = timed(vectors.query_vector, "query embedding (in line)")
    session = MemoryServer(home, project).fallback.session
    run_tool(session, "memory_search", {"query": "warm up the server", "k": 5})
    vectors._sentences.clear()  # the sentences of ties embedded afresh, as in a server's first pass over them
    spent.clear()
    waited.clear()
    total = 0.0
    for query in queries:
        dense._vectors.clear()
        t0 = time.thread_time()
        run_tool(session, "memory_search", {"query": query, "k": 5})
        total += time.thread_time() - t0
    n = len(queries)
    out = {stage: round(ms / n * 1000, 2) for stage, ms in sorted(spent.items(), key=lambda kv: -kv[1])}
    calling = sum(v for k, v in spent.items() if "worker" not in k)
    out["ranking's own glue"] = round((total - calling) / n * 1000, 2)
    print(json.dumps({"where": "stages", "hybrid": hybrid, "queries": n, "clock": "thread_time",
                      "calling_thread_ms": round(total / n * 1000, 2), "mean_ms": out,
                      "waiting_wall_ms": {"mean": round(sum(waited) / n * 1000, 2),
                                          "p50": round(percentile(waited, 0.5) * 1000, 3) if waited else 0.0,
                                          "p95": round(percentile(waited, 0.95) * 1000, 3) if waited else 0.0},
                      "load": round(os.getloadavg()[0], 1)}), flush=True)  # one JSON line


def ties_report(home: Path, project: Path, queries: list[str]) -> None:
    """Per pass: the queries embedding a tie's sentences, the sentences asked and kept, p50/p95 ms either way."""
    os.environ["MEMDIR_SEARCH_VECTORS"] = "on"
    from memdir.integrations.mcp.server import MemoryServer
    from memdir.search import dense, vectors
    from memdir.tools.handlers import run_tool

    session = MemoryServer(home, project).fallback.session
    run_tool(session, "memory_search", {"query": "warm up the server", "k": 5})
    asked: list[tuple[int, int]] = []  # (sentences asked, kept already) per call of this query
    keep = vectors.sentence_vectors

    def counted(sentences):
        kept = sum(1 for s in sentences if (vectors.MODEL_ID, s) in vectors._sentences)
        asked.append((len(sentences), kept))
        return keep(sentences)

    vectors.sentence_vectors = counted
    vectors._sentences.clear()
    try:
        for run in ("first", "again"):
            embedding, other, total, kept, tied = [], [], 0, 0, 0
            for query in queries:
                dense._vectors.clear()
                asked.clear()
                t0 = time.perf_counter()
                run_tool(session, "memory_search", {"query": query, "k": 5})
                took = time.perf_counter() - t0
                total += sum(n for n, _ in asked)
                kept += sum(k for _, k in asked)
                tied += bool(asked)
                (embedding if any(n > k for n, k in asked) else other).append(took)
            print(json.dumps({"where": "ties", "pass": run, "queries": len(queries), "tie_by_sentences": tied,
                              "embedding_sentences": len(embedding), "sentences_asked": total,
                              "kept_already": kept, **{f"{name}_p{q}_ms": round(percentile(t, q / 100) * 1000, 2)
                                                       for name, t in (("embedding", embedding), ("other", other))
                                                       if t for q in (50, 95)}}), flush=True)
    finally:
        vectors.sentence_vectors = keep


def over_mcp(home: Path, project: Path, queries: list[str], hybrid: bool, top: int = 0) -> None:
    import signal

    import anyio
    from mcp import Client, StdioServerParameters

    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on" if hybrid else "off",
               PYTHONPATH=str(HERE.parent / "src"))
    stats_file = Path(tempfile.mkdtemp(prefix="memdir-mcp-profile-")) / "server.prof"
    args = [str(HERE / "_profiled_mcp.py"), str(stats_file)] if top else ["-m", "memdir.cli", "mcp"]
    params = StdioServerParameters(command=sys.executable, args=args, env=env, cwd=str(project))

    async def run() -> list[float]:
        seen = _children_now()
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            await client.call_tool("memory_search", {"query": "warm up the server", "k": 5})
            pid = max(_children_now() - seen)
            before = _thread_seconds(pid)
            if top:
                os.kill(pid, signal.SIGUSR1)
                await client.list_tools()  # the signal handled before the first timed call
            times, refused = [], []
            for query in queries:
                t0 = time.perf_counter()
                await client.call_tool("memory_search", {"query": query, "k": 5})
                times.append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await client.call_tool("memory_search", {"query": " ", "k": 5})  # refused before any search
                refused.append(time.perf_counter() - t0)
            after = _thread_seconds(pid)
            if top:
                os.kill(pid, signal.SIGUSR2)
                await client.list_tools()
            return times, refused, before, after, pid

    times, refused, before, after, pid = anyio.run(run)
    threads = {("main" if tid == pid else str(tid)): round((after[tid] - before.get(tid, 0.0)) / len(times) * 1000, 2)
               for tid in after}
    print(json.dumps({"where": "mcp", "hybrid": hybrid, "queries": len(times),
                      "p50_ms": round(statistics.median(times) * 1000, 2),
                      "p95_ms": round(percentile(times, 0.95) * 1000, 2),
                      "round_trip_no_search_p50_ms": round(statistics.median(refused) * 1000, 2),
                      "server_cpu_ms_per_pair": round(sum(threads.values()), 2),
                      "server_thread_cpu_ms_per_pair": {t: ms for t, ms in threads.items() if ms}}), flush=True)
    if top:
        for _ in range(100):
            if stats_file.exists():
                break
            time.sleep(0.05)
        for order in ("tottime", "cumulative"):
            pstats.Stats(str(stats_file), stream=sys.stdout).sort_stats(order).print_stats(top)


def floor(home: Path, project: Path, sources: list[Path], calls: int) -> None:
    """For each tree of ``sources`` (its ``src``), a ``memdir mcp`` of that tree, all started at once and asked in
    turn (the first asked rotating), rounds of ``calls`` ``tools/list`` and ``calls`` refused searches (an empty query: no search runs), twice:
    per kind and tree the server's CPU ms per call (every thread, and the main thread's) and the round trip's p50.
    What a call costs around the search itself, tree against tree in one run."""
    from contextlib import AsyncExitStack

    import anyio
    from mcp import Client, StdioServerParameters

    async def run() -> dict:
        async with AsyncExitStack() as stack:
            clients, pids = [], []
            for src in sources:
                env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="off", PYTHONPATH=str(src))
                params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                               cwd=str(project))
                seen = _children_now()
                client = await stack.enter_async_context(Client(params, mode="legacy"))
                await client.list_tools()
                await client.call_tool("memory_search", {"query": " ", "k": 5})
                clients.append(client)
                pids.append(max(_children_now() - seen))
            spent = {(src, kind): [0.0, 0.0, []] for src in sources for kind in ("tools_list", "refused")}
            for kind in ("tools_list", "refused") * 2:
                for i in range(calls):
                    turn = i % len(sources)  # the first asked rotating
                    for src, client, pid in [*zip(sources, clients, pids)][turn:] + [*zip(sources, clients, pids)][:turn]:
                        before = _thread_seconds(pid)
                        t0 = time.perf_counter()
                        if kind == "tools_list":
                            await client.list_tools()
                        else:
                            await client.call_tool("memory_search", {"query": " ", "k": 5})
                        wall = time.perf_counter() - t0
                        after = _thread_seconds(pid)
                        row = spent[(src, kind)]
                        row[0] += sum(after[t] - before.get(t, 0.0) for t in after)
                        row[1] += after[pid] - before[pid]
                        row[2].append(wall)
            return spent

    for (src, kind), (cpu, main_cpu, walls) in anyio.run(run).items():
        print(json.dumps({"where": "mcp-floor", "src": str(src), "call": kind, "calls": len(walls),
                          "server_cpu_ms_per_call": round(cpu / len(walls) * 1000, 3),
                          "server_main_thread_ms_per_call": round(main_cpu / len(walls) * 1000, 3),
                          "p50_ms": round(statistics.median(walls) * 1000, 2)}), flush=True)


def _thread_seconds(pid: int) -> dict[int, float]:
    """User + system CPU seconds of each thread of ``pid`` (``/proc/PID/task/TID/stat`` fields 14–15)."""
    seconds = {}
    for task in os.listdir(f"/proc/{pid}/task"):
        try:
            fields = Path(f"/proc/{pid}/task/{task}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        seconds[int(task)] = sum(int(f) for f in fields[11:13]) / os.sysconf("SC_CLK_TCK")
    return seconds


def through_sdk(home: Path, project: Path, queries: list[str], hybrid: bool) -> None:
    """p50/p95 ms of each query as a direct tool call and through the SDK's server in this process."""
    import anyio
    from mcp import Client

    os.environ["MEMDIR_SEARCH_VECTORS"] = "on" if hybrid else "off"
    from memdir.integrations.mcp.server import MemoryServer, build_server
    from memdir.search import dense
    from memdir.tools.handlers import run_tool

    state = MemoryServer(home, project)
    session = state.fallback.session

    async def run() -> dict[str, list[float]]:
        times: dict[str, list[float]] = {"direct": [], "sdk": [], "direct_refused": [], "sdk_refused": []}
        async with Client(build_server(state)) as client:
            await client.call_tool("memory_search", {"query": "warm up the server", "k": 5})
            for query in queries:
                dense._vectors.clear()  # each way embeds the query
                t0 = time.perf_counter()
                direct = run_tool(session, "memory_search", {"query": query, "k": 5})
                times["direct"].append(time.perf_counter() - t0)
                dense._vectors.clear()
                t0 = time.perf_counter()
                via = await client.call_tool("memory_search", {"query": query, "k": 5})
                times["sdk"].append(time.perf_counter() - t0)
                assert via.content[0].text == direct.text, query
                t0 = time.perf_counter()
                run_tool(session, "memory_search", {"query": " ", "k": 5})  # refused before any search
                times["direct_refused"].append(time.perf_counter() - t0)
                t0 = time.perf_counter()
                await client.call_tool("memory_search", {"query": " ", "k": 5})
                times["sdk_refused"].append(time.perf_counter() - t0)
        return times

    times = anyio.run(run)
    print(json.dumps({"where": "sdk-in-process", "hybrid": hybrid, "queries": len(queries),
                      **{f"{way}_p50_ms": round(statistics.median(t) * 1000, 2) for way, t in times.items()},
                      **{f"{way}_p95_ms": round(percentile(t, 0.95) * 1000, 2) for way, t in times.items()
                         if "refused" not in way}}), flush=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, help="where the home is built and kept (default: a temporary one)")
    parser.add_argument("--hybrid", action="store_true", help="vectors on (embedded in the foreground)")
    parser.add_argument("--profile", type=int, default=0, metavar="N", help="print the top N functions")
    parser.add_argument("--stages", action="store_true", help="print the mean CPU milliseconds of each stage")
    parser.add_argument("--mcp", action="store_true", help="also time the queries through a memdir mcp subprocess")
    parser.add_argument("--server-profile", type=int, default=0, metavar="N",
                        help="with --mcp: the server's top N functions (cProfile of its main thread, by own and by "
                             "cumulative time) over the timed calls")
    parser.add_argument("--floor", type=int, default=0, metavar="N",
                        help="only: N tools/list and N refused searches per round through a memdir mcp of each --src")
    parser.add_argument("--src", type=Path, action="append", default=[],
                        help="a tree's src for --floor (repeat; default this tree's)")
    parser.add_argument("--sdk", action="store_true", help="also time them through the SDK's server in this process")
    parser.add_argument("--ties", action="store_true", help="count the ties' sentences embedded and kept (--hybrid)")
    args = parser.parse_args()
    args.src = [src.resolve() for src in args.src]  # before the chdir below
    with tempfile.TemporaryDirectory(prefix="memdir-profile-") as tmp:
        base = args.dir.resolve() if args.dir else Path(tmp)  # memdir refuses a relative home
        base.mkdir(parents=True, exist_ok=True)
        home, project, queries = build(base, args.notes, args.hybrid)
        os.chdir(project)
        if args.floor:
            floor(home, project, args.src or [HERE.parent / "src"], args.floor)
            return 0
        if not args.server_profile:
            in_process(home, project, queries, args.hybrid, args.profile)
        if args.stages:
            stages(home, project, queries, args.hybrid)
        if args.ties and args.hybrid:
            ties_report(home, project, queries)
        if args.sdk:
            through_sdk(home, project, queries, args.hybrid)
        if args.mcp:
            over_mcp(home, project, queries, args.hybrid, args.server_profile)
    return 0


if __name__ == "__main__":
    sys.exit(main())
