"""Two source trees of memdir side by side through real MCP servers, their queries alternated.

    python benchmarks/ab_mcp_search.py [--other SRC | --ref REF] [--hybrid] [--notes 1000] [--dir DIR]

On a machine whose cores are shared, two runs minutes apart differ more than
two commits do (``compare_basic_memory.py`` on one commit: hybrid p50 15.6
and 24.3 ms, 1,000 notes, load 1–4 on 2 cores). So this starts one ``memdir
mcp`` server from this tree's ``src`` and one from ``--other`` (another
checkout's ``src``; by default ``--ref``, HEAD, checked out apart by ``git archive``), both over one
home holding the benchmarks' corpus (``profile_mcp_search.build``, kept in
``--dir`` when given), warms each up, and sends each query of
``compare_basic_memory.py`` to both, in turn (which goes first alternates),
through the MCP SDK's client. Each distinct query once: a server keeps the
vectors of the queries it embedded. Prints one JSON line per side — p50/p95
of the round trip in ms and the server's CPU time (user + system, from
``/proc``) per call — and one line saying whether both answered every query
with the same text (and how many queries did not; the first three's differing lines go to stderr).
Linux only (``/proc``).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from profile_mcp_search import build, percentile  # noqa: E402


def _children() -> set[int]:
    found = set()
    for task in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{task}/children", encoding="ascii") as file:
                found |= {int(pid) for pid in file.read().split()}
        except OSError:
            pass
    return found


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of process ``pid`` so far (``/proc/PID/stat`` fields 14 and 15)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def compare(home: Path, project: Path, queries: list[str], sources: dict[str, Path], hybrid: bool) -> list[dict]:
    """One result per side of ``sources`` (name → a tree's ``src``), then ``{"same_text": bool}``."""
    import anyio
    from mcp import Client, StdioServerParameters

    async def run() -> list[dict]:
        clients, pids, seen = {}, {}, _children()
        async with AsyncExitStack() as stack:
            for side, src in sources.items():
                env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on" if hybrid else "off",
                           PYTHONPATH=str(src))
                params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env,
                                               cwd=str(project))
                client = await stack.enter_async_context(Client(params, mode="legacy"))
                await client.list_tools()
                await client.call_tool("memory_search", {"query": "warm up the server", "k": 5})
                started = _children() - seen
                seen |= started
                clients[side], pids[side] = client, max(started)
            times = {side: [] for side in sources}
            texts = {side: [] for side in sources}
            before = {side: _cpu_seconds(pid) for side, pid in pids.items()}
            for i, query in enumerate(queries):
                for side in (list(sources) if i % 2 == 0 else list(sources)[::-1]):
                    t0 = time.perf_counter()
                    out = await clients[side].call_tool("memory_search", {"query": query, "k": 5})
                    times[side].append(time.perf_counter() - t0)
                    texts[side].append(out.content[0].text)
            after = {side: _cpu_seconds(pid) for side, pid in pids.items()}
        lines = [{"side": side, "src": str(sources[side]), "hybrid": hybrid, "queries": len(times[side]),
                  "p50_ms": round(statistics.median(times[side]) * 1000, 2),
                  "p95_ms": round(percentile(times[side], 0.95) * 1000, 2),
                  "server_cpu_ms_per_call": round((after[side] - before[side]) / len(times[side]) * 1000, 2)}
                 for side in sources]
        first, *rest = texts.values()
        differing = [i for i in range(len(queries)) if any(other[i] != first[i] for other in rest)]
        for i in differing[:3]:  # what differs, on stderr: the query and the lines of each side that differ
            import difflib

            print(json.dumps({"query": queries[i], "diff": list(difflib.unified_diff(
                first[i].splitlines(), rest[0][i].splitlines(), lineterm="", n=0))[2:]}), file=sys.stderr)
        return lines + [{"same_text": not differing, "differing_queries": len(differing)}]

    return anyio.run(run)


def checked_out(ref: str, into: Path) -> Path:
    """The ``src`` directory of ``ref`` of this repository, written under ``into`` (``git archive``). Raises
    ``subprocess.CalledProcessError`` for a ref git does not know."""
    import subprocess

    into.mkdir(parents=True)
    archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", ref, "src"], capture_output=True, check=True)
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)
    return into / "src"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--other", type=Path,
                        help="the other tree's src directory (default: this repository's --ref, checked out apart)")
    parser.add_argument("--ref", default="HEAD", help="the commit --other defaults to (default %(default)s: with a "
                        "clean tree, both sides are one commit and the figures are the machine's noise)")
    parser.add_argument("--hybrid", action="store_true", help="vectors on (embedded in the foreground once)")
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--dir", type=Path, help="where the home is built and kept (default: a temporary one)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="memdir-ab-") as tmp:
        other = args.other.resolve() if args.other else checked_out(args.ref, Path(tmp) / "other")
        sources = {"this": HERE.parent / "src", "other": other}
        base = args.dir.resolve() if args.dir else Path(tmp)  # memdir refuses a relative home
        base.mkdir(parents=True, exist_ok=True)
        home, project, queries = build(base, args.notes, args.hybrid)
        for line in compare(home, project, queries, sources, args.hybrid):
            print(json.dumps(line), flush=True)
    with open("/proc/loadavg", encoding="ascii") as file:
        print(json.dumps({"loadavg": file.read().split()[:3]}))
    return 0


if __name__ == "__main__":
    sys.exit(main())
