"""memdir and basic-memory side by side on one workload; prints JSON lines and the ratios.

    python benchmarks/compare_basic_memory.py [--sizes 1000,10000] [--needles 50] [--hybrid-max 1000]
    python benchmarks/compare_basic_memory.py --install [--python /path/to/python3.12+]
    python benchmarks/compare_basic_memory.py --sizes 1000 --src /work/main/src --src src

With ``--src`` (given once or more: a tree's ``src``), a paired run measures search alone: the hybrid home is
indexed once (by the first tree, then each tree's background embedder run to its end), one ``memory_search`` server per tree and basic-memory's ``search_notes``
server run at once over the same notes, and each query goes to every server in turn (the order rotating query by
query), so a loaded machine weighs on every side alike; one line per server (p50/p95 of the round trip, the
server's CPU per call from ``/proc`` — all of it, and ``server_main_thread_ms_per_call``: its main thread's share, the
rest being its other threads' (memdir's query embedding runs in one) — and ``tools_list_p50_ms``: the round trip of a ``tools/list`` request sent
after each query, which searches nothing — the floor of the transport, the SDK and the client on each side), and
a ``"compare"`` line per tree of ratios basic-memory / memdir. Every tree must read the first one's index schema.
Linux only (``/proc``).

The notes are the benchmarks' corpus (``benchmarks/_corpus.py``: technical
notes of 100–400 words of one company's services, stores, environments and
people, repeated across notes, ``--needles`` of them holding one planted
one-sentence fact, "The staging Redis instance for billing listens on port
6391.", while other notes state the same kinds of settings for other
triples), written once as memdir memory files and converted, note for note,
into basic-memory's Markdown (frontmatter ``title``/``type``, a ``# title``
heading, the description, the body). Each system then runs, through its own
command line and its own MCP server driven by the MCP SDK's client:

* ``ingest_s``: index the N files already on disk — ``memdir reindex`` against
  ``bm project add`` (which indexes the folder and waits until it has settled);
  ``ingest_peak_rss_mb`` of that process;
* ``mcp_cold_ms``: spawn the MCP server and get its tool list (p50 of 3);
* ``search_p50_ms``/``search_p95_ms``: ``memory_search`` / ``search_notes``
  calls (k = 5) on the running server, after one warm-up call: each needle's
  question, each needle's keywords and 100 one-to-three-word queries of the
  domain's vocabulary, each distinct query once (memdir keeps the vectors of
  the queries it embedded: a repeated one would skip its embedding);
* ``question_hit1``/``question_hit5``: share of needles first / in the top 5
  when asked as a plain question ("What is the port of the staging Redis
  instance for billing?"); ``keyword_hit1``/``keyword_hit5``: asked as its
  content words ("port staging Redis instance billing");
* ``write_ms``: one new note written through the MCP tool (p50 of 5);
* ``mcp_peak_rss_mb``: peak RSS of the server's process tree after all that;
* ``cli_cold_ms``: a fresh CLI process searching once (p50 of 3).

memdir runs twice, each on its own copy of the home: ``memdir`` ranks
lexically (``search_vectors = off``); ``memdir-hybrid`` with vectors on —
``memdir reindex`` embeds every note in the foreground (so its ``ingest_s``
includes the embedding), and the MCP server, warm after its first call,
ranks by words and meaning. The hybrid run is left out above
``--hybrid-max`` notes (embedding 10,000 notes takes a quarter of an hour
on 2 cores) and when the ``vectors`` extra is not installed. basic-memory
runs as it does on a machine where its embedding model cannot be fetched
(it says "keyword-only" and indexes no vectors). Each system's hits are the
note names of its answer's result lines (:func:`memdir_names`,
:func:`bm_names`: basic-memory's ``- permalink:`` lines); a search that fails
stops the run rather than counting as a miss. basic-memory's low hit rates
on this corpus are its ranking's, read correctly: keyword-only, it searches
with SQLite FTS5, which needs every word of the query in a note (a needle's note
often lacks one, "what", "is" or "owns" beside "is owned by", and then drops
out unless nothing at all matches) and ranks by bm25, whose IDF FTS5 floors at 1e-6 for a word in
more than half of the notes — every content word of a needle's query is
(e.g. 147–169 of 200 notes), so every score prints as -0.0000 and the order
is term frequency and note length alone. One line per system and
size, then a ``"compare"`` line per memdir mode of ratios basic-memory /
memdir (above 1: memdir is faster or smaller) with both systems' hit rates.

basic-memory needs Python ≥ 3.12. ``--install`` makes the virtualenv
``.bench/basic-memory`` with the first of ``--python``, ``$BASIC_MEMORY_PYTHON``,
``python3.14``/``python3.13``/``python3.12`` on PATH and pyenv's 3.12+
(``$PYENV_ROOT/versions``), and installs basic-memory ``--version`` into it
from PyPI. Without that virtualenv (and without ``--install``) the script
prints one ``skipped`` line saying why and exits 0. On Debian 12 (Python 3.11
only) without pyenv, a Python 3.13 can be built from Debian's own source
package (``apt-get source python3.13`` from a ``trixie`` deb-src entry, then
``./configure --prefix=DIR && make && make altinstall``).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(REPO / "src"))
sys.path.insert(0, str(HERE))

from _corpus import corpus, keywords, vocabulary_queries, write_notes  # noqa: E402  (the benchmarks' corpus)

VENV = REPO / ".bench" / "basic-memory"
PIN = "0.24.1"
QUIET_BM = {"FASTMCP_CHECK_FOR_UPDATES": "off", "FASTMCP_SHOW_SERVER_BANNER": "false",
            "BASIC_MEMORY_AUTO_UPDATE": "false", "HF_HUB_OFFLINE": "1", "NO_COLOR": "1", "COLUMNS": "200"}


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# ------------------------------------------------------------------ install

def pyenv_pythons() -> list[str]:
    """pyenv's interpreters 3.12 and later (``$PYENV_ROOT``, else ``~/.pyenv``), newest first."""
    root = Path(os.environ.get("PYENV_ROOT") or Path.home() / ".pyenv") / "versions"
    found = []
    for path in root.glob("3.*/bin/python3"):
        parts = path.parent.parent.name.split(".")
        if len(parts) >= 2 and parts[1].isdigit() and int(parts[1]) >= 12:
            found.append((int(parts[1]), str(path)))
    return [path for _minor, path in sorted(found, reverse=True)]


def find_python(given: str | None) -> str | None:
    """An interpreter ≥ 3.12 for basic-memory: ``given``, ``$BASIC_MEMORY_PYTHON``, PATH, then pyenv's."""
    for candidate in (given, os.environ.get("BASIC_MEMORY_PYTHON"), *map(shutil.which, ("python3.14", "python3.13",
                                                                                       "python3.12")),
                      *pyenv_pythons()):
        if not candidate:
            continue
        done = subprocess.run([candidate, "-c", "import sys; print(sys.version_info >= (3, 12))"],
                              capture_output=True, text=True)
        if done.returncode == 0 and done.stdout.strip() == "True":
            return candidate
    return None


def install(venv: Path, python: str, version: str) -> None:
    """Create ``venv`` with ``python`` and pip-install basic-memory ``version`` into it."""
    subprocess.run([python, "-m", "venv", str(venv)], check=True)
    subprocess.run([str(venv / "bin" / "python"), "-m", "pip", "install", "--quiet", f"basic-memory=={version}"],
                   check=True)


# ------------------------------------------------------------------ workload

def workload(base: Path, notes: int, needles: int, seed: int) -> tuple[Path, Path, list[tuple[str, str, str]]]:
    """memdir's project layer and basic-memory's folder holding the same
    notes; returns them and ``(needle name, question, keywords)``."""
    from memdir import Memory

    project = base / "memdir-project"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "memdir-home", project=project, search_vectors="off")
    notes_made, questions = corpus(notes, seed, facts=needles)
    write_notes(mem.session.layer("project").path, notes_made)
    folder = base / "bm-notes"
    folder.mkdir()
    for name, description, body in notes_made:
        (folder / f"{name}.md").write_text(f"---\ntitle: {name}\ntype: note\n---\n\n# {name}\n\n"
                                           f"{description}\n\n{body}\n", encoding="utf-8")
    return project, folder, [(name, question, keywords(question)) for question, name in questions]


class System:
    """How one system is driven: its env, CLI and MCP commands, its tools' arguments."""

    def __init__(self, name: str, env: dict, cwd: Path, ingest: list[str], cli_search, mcp: list[str],
                 search_args, write_args, names_in):
        self.name, self.env, self.cwd, self.ingest, self.cli_search = name, env, cwd, ingest, cli_search
        self.mcp, self.search_args, self.write_args, self.names_in = mcp, search_args, write_args, names_in


NAME = r"note-\d{5}[\w-]*"


def memdir_names(text: str) -> list[str]:
    """Corpus note names in rank order from one ``memory_search`` answer: the
    name opening each result line ("- note-00011-… (type: project; …)"); a name
    quoted inside a snippet is not a result. ``[]`` for an answer without results."""
    return list(dict.fromkeys(re.findall(rf"^- ({NAME}) \(", text, re.MULTILINE)))


BM_NO_RESULTS = ("No results found for ", "# Search Complete - No Results Found")


def bm_names(text: str) -> list[str]:
    """Corpus note names in rank order from one basic-memory ``search_notes``
    answer (0.24's Markdown page: "# Search Results: <query>", then per hit a
    "### <title>" heading and a "- permalink: <project>/<name>" line); ``[]`` for
    its no-results answers. Raises ValueError on any other page (e.g. "# Search
    Failed - …" when the search type cannot run here), so a failed search is
    never scored as a miss."""
    if text.startswith(BM_NO_RESULTS):
        return []
    if not text.startswith("# Search Results"):
        raise ValueError(f"basic-memory answered no result page: {text[:300]!r}")
    return list(dict.fromkeys(re.findall(rf"^- permalink: (?:[^/\s]+/)*({NAME})$", text, re.MULTILINE)))


def memdir_system(base: Path, project: Path, hybrid: bool = False) -> System:
    """memdir lexical (``memdir-home``) or, with ``hybrid``, vectors on in a
    copy of that home made before either indexes (``memdir-hybrid-home``)."""
    home = base / ("memdir-hybrid-home" if hybrid else "memdir-home")
    if hybrid and not home.exists():
        shutil.copytree(base / "memdir-home", home, symlinks=True)
    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="on" if hybrid else "off",
               HOME=str(base / "memdir-user"), PYTHONPATH=str(REPO / "src"))
    py = sys.executable
    return System(
        "memdir-hybrid" if hybrid else "memdir", env, project, [py, "-m", "memdir.cli", "reindex", "--quiet"],
        lambda q: [py, "-m", "memdir.cli", "search", "-k", "5", q], [py, "-m", "memdir.cli", "mcp"],
        lambda q: ("memory_search", {"query": q, "k": 5}),
        lambda i: ("memory_write", {"name": f"written-{i}", "description": f"written note {i} about the cache",
                                    "type": "project", "body": "The cache is flushed on deploy."}),
        memdir_names)


def bm_system(base: Path, folder: Path, venv: Path) -> System:
    env = dict(os.environ, HOME=str(base / "bm-user"), BASIC_MEMORY_CONFIG_DIR=str(base / "bm-config"),
               BASIC_MEMORY_HOME=str(base / "bm-main"), **QUIET_BM)
    env.pop("PYTHONPATH", None)
    bm = str(venv / "bin" / "basic-memory")
    return System(
        "basic-memory", env, base, [bm, "project", "add", "bench", str(folder), "--default"],
        lambda q: [bm, "tool", "search-notes", q, "--project", "bench", "--json", "--page-size", "5"],
        [bm, "mcp"],
        lambda q: ("search_notes", {"query": q, "project": "bench", "page_size": 5}),
        lambda i: ("write_note", {"title": f"written-{i}", "directory": "written", "project": "bench",
                                  "content": f"# written-{i}\n\nwritten note {i} about the cache. "
                                             "The cache is flushed on deploy."}),
        bm_names)


# ------------------------------------------------------------------ measuring

RUN_ALONE = ("import json, resource, subprocess, sys, time; argv = json.loads(sys.argv[1]); "
             "t = time.perf_counter(); done = subprocess.run(argv, capture_output=True, text=True); "
             "t = time.perf_counter() - t; "
             "print(json.dumps({'seconds': t, 'maxrss_kib': resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, "
             "'code': done.returncode, 'stderr': done.stderr[-2000:]}))")


def timed_process(argv: list[str], env: dict, cwd: Path) -> tuple[float, float]:
    """Run ``argv`` to its end under a fresh Python parent (so the peak is
    this process's alone): (seconds, peak RSS in MB of it and its children)."""
    done = subprocess.run([sys.executable, "-c", RUN_ALONE, json.dumps(argv)], env=env, cwd=cwd,
                          capture_output=True, text=True)
    if done.returncode:
        raise SystemExit(f"measuring {argv[:4]} failed: {done.stderr[-2000:]}")
    report = json.loads(done.stdout.strip().splitlines()[-1])
    if report["code"]:
        raise SystemExit(f"{argv[:4]} failed ({report['code']}): {report['stderr']}")
    return report["seconds"], round(report["maxrss_kib"] / 1024, 1)


def tree_peak_rss_mb(root_pid: int) -> float:
    """Sum of VmHWM (peak resident set) of ``root_pid``'s descendants, from /proc."""
    parents: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
                parents[int(entry.name)] = int(stat.rsplit(")", 1)[1].split()[1])
            except (OSError, ValueError, IndexError):
                pass
    tree, frontier = set(), {root_pid}
    while frontier:
        tree |= frontier
        frontier = {pid for pid, ppid in parents.items() if ppid in frontier and pid not in tree}
    total = 0
    for pid in tree - {root_pid}:
        try:
            total += next(int(line.split()[1]) for line in Path(f"/proc/{pid}/status").read_text().splitlines()
                          if line.startswith("VmHWM:"))
        except (OSError, StopIteration):
            pass
    return round(total / 1024, 1)


def mcp_session(system: System, queries: list[str], needles, writes: int) -> dict:
    """One server: cold start, the queries (latency, needle ranks), the writes, peak RSS."""
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=system.mcp[0], args=system.mcp[1:], env=system.env, cwd=str(system.cwd))

    async def run() -> dict:
        started = time.perf_counter()
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            cold = time.perf_counter() - started
            tool, args = system.search_args("warm up the server")
            await client.call_tool(tool, args)
            latencies, ranks = [], {}
            for query in queries:
                tool, args = system.search_args(query)
                t0 = time.perf_counter()
                result = await client.call_tool(tool, args)
                latencies.append(time.perf_counter() - t0)
                if getattr(result, "is_error", False) or getattr(result, "isError", False):
                    raise SystemExit(f"{system.name} search {query!r} failed: {result.content}")
                ranks[query] = system.names_in("\n".join(getattr(c, "text", "") for c in result.content))
            write_times = []
            for i in range(writes):
                tool, args = system.write_args(i)
                t0 = time.perf_counter()
                result = await client.call_tool(tool, args)
                write_times.append(time.perf_counter() - t0)
                if getattr(result, "is_error", False) or getattr(result, "isError", False):
                    raise SystemExit(f"{system.name} write failed: {result.content}")
            rss = tree_peak_rss_mb(os.getpid())
        out = {"mcp_cold_ms": ms(cold), "search_p50_ms": ms(statistics.median(latencies)),
               "search_p95_ms": ms(percentile(latencies, 0.95)), "queries": len(queries),
               "write_ms": ms(statistics.median(write_times)), "mcp_peak_rss_mb": rss}
        for kind, at in (("question", 1), ("keyword", 2)):
            got = [ranks[needle[at]] for needle in needles]
            out[f"{kind}_hit1"] = round(sum(r[:1] == [n[0]] for r, n in zip(got, needles)) / len(needles), 3)
            out[f"{kind}_hit5"] = round(sum(n[0] in r[:5] for r, n in zip(got, needles)) / len(needles), 3)
        return out

    return anyio.run(run)


def mcp_cold(system: System) -> float:
    import anyio
    from mcp import Client, StdioServerParameters

    params = StdioServerParameters(command=system.mcp[0], args=system.mcp[1:], env=system.env, cwd=str(system.cwd))

    async def run() -> float:
        started = time.perf_counter()
        async with Client(params, mode="legacy") as client:
            await client.list_tools()
            return time.perf_counter() - started

    return anyio.run(run)


def measure(system: System, queries: list[str], needles, notes: int) -> dict:
    """Every figure of the module docstring for ``system``."""
    ingest_s, ingest_rss = timed_process(system.ingest, system.env, system.cwd)
    figures = {"system": system.name, "notes": notes, "ingest_s": round(ingest_s, 2),
               "ingest_peak_rss_mb": ingest_rss}
    figures.update(mcp_session(system, queries, needles, writes=5))
    colds = [figures["mcp_cold_ms"]] + [ms(mcp_cold(system)) for _ in range(2)]
    figures["mcp_cold_ms"] = statistics.median(colds)
    cli = [timed_process(system.cli_search(needles[i % len(needles)][2]), system.env, system.cwd)[0]
           for i in range(3)]
    figures["cli_cold_ms"] = ms(statistics.median(cli))
    return figures


def _children_now() -> set[int]:
    """The processes this one started (the children of each of its threads), from ``/proc``."""
    found = set()
    for task in os.listdir("/proc/self/task"):
        try:
            found |= {int(p) for p in Path(f"/proc/self/task/{task}/children").read_text().split()}
        except OSError:
            pass
    return found


def _cpu_seconds(pid: int) -> float:
    """User + system CPU seconds of ``pid`` and its waited-for children (``/proc/PID/stat`` fields 14–17)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:15]) / os.sysconf("SC_CLK_TCK")


def _main_thread_seconds(pid: int) -> float:
    """User + system CPU seconds of the main thread of ``pid`` (``/proc/PID/task/PID/stat`` fields 14–15)."""
    fields = Path(f"/proc/{pid}/task/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return sum(int(f) for f in fields[11:13]) / os.sysconf("SC_CLK_TCK")


def paired(systems: list[System], queries: list[str]) -> dict[str, dict]:
    """Search p50/p95 (ms) of every system of ``systems``, their servers running at once and each query sent to
    each in turn (the first to be asked rotating); per system also its server's CPU ms per call and the p50 of a
    ``tools/list`` round trip (no search). Raises SystemExit when a search fails."""
    from contextlib import AsyncExitStack

    import anyio
    from mcp import Client, StdioServerParameters

    async def run() -> dict[str, dict]:
        clients, pids = {}, {}
        async with AsyncExitStack() as stack:
            for system in systems:
                seen = _children_now()
                params = StdioServerParameters(command=system.mcp[0], args=system.mcp[1:], env=system.env,
                                               cwd=str(system.cwd))
                client = await stack.enter_async_context(Client(params, mode="legacy"))
                await client.list_tools()
                tool, args = system.search_args("warm up the server")
                await client.call_tool(tool, args)
                clients[system.name], pids[system.name] = client, max(_children_now() - seen)
            times = {s.name: [] for s in systems}
            floor = {s.name: [] for s in systems}
            before = {name: _cpu_seconds(pid) for name, pid in pids.items()}
            main_before = {name: _main_thread_seconds(pid) for name, pid in pids.items()}
            for i, query in enumerate(queries):
                turn = i % len(systems)
                for system in systems[turn:] + systems[:turn]:
                    tool, args = system.search_args(query)
                    t0 = time.perf_counter()
                    result = await clients[system.name].call_tool(tool, args)
                    times[system.name].append(time.perf_counter() - t0)
                    if getattr(result, "is_error", False) or getattr(result, "isError", False):
                        raise SystemExit(f"{system.name} search {query!r} failed: {result.content}")
                    t0 = time.perf_counter()
                    await clients[system.name].list_tools()
                    floor[system.name].append(time.perf_counter() - t0)
            after = {name: _cpu_seconds(pid) for name, pid in pids.items()}
            main_after = {name: _main_thread_seconds(pid) for name, pid in pids.items()}
        return {name: {"search_p50_ms": ms(statistics.median(t)), "search_p95_ms": ms(percentile(t, 0.95)),
                       "tools_list_p50_ms": ms(statistics.median(floor[name])),
                       "server_cpu_ms_per_call": round((after[name] - before[name]) / len(t) * 1000, 2),
                       "server_main_thread_ms_per_call": round((main_after[name] - main_before[name]) / len(t) * 1000,
                                                               2),
                       "queries": len(t)} for name, t in times.items()}

    return anyio.run(run)


def run_paired(notes: int, args, sources: list[Path]) -> None:
    """The ``--src`` run of the module docstring at ``notes`` notes."""
    needles = min(args.needles, max(1, notes // 10))
    with tempfile.TemporaryDirectory(prefix="memdir-vs-bm-") as tmp:
        base = Path(tmp)
        project, folder, needle_rows = workload(base, notes, needles, args.seed)
        queries = list(dict.fromkeys([q for row in needle_rows for q in row[1:]]
                                     + vocabulary_queries(100, args.seed + notes)))
        systems = []
        for n, src in enumerate(sources):
            system = memdir_system(base, project, hybrid=True)
            if n == 0:
                system.env["PYTHONPATH"] = str(src)
                print(f"indexing {notes} notes with vectors ({src})", file=sys.stderr, flush=True)
                timed_process(system.ingest, system.env, system.cwd)
                # Each tree's background embedder to its end, as a first search would start it: the servers are
                # timed at rest, not beside an embedder (one tree's may embed the sentences a tie may pick ahead,
                # memdir.search.sentencestore; an older tree's has nothing left to do).
                for other in sources:
                    timed_process([sys.executable, "-m", "memdir.search.embedder", str(base / "memdir-hybrid-home")],
                                  dict(system.env, PYTHONPATH=str(other)), system.cwd)
            else:  # the same index, copied: every tree reads one basis
                home = base / f"memdir-hybrid-home-{n}"
                shutil.copytree(base / "memdir-hybrid-home", home, symlinks=True)
                system.env["MEMDIR_HOME"] = str(home)
            system.env["PYTHONPATH"] = str(src)
            system.name = f"memdir-hybrid[{n}]"
            systems.append(system)
        if not args.no_basic_memory:
            bm = bm_system(base, folder, args.venv)
            print(f"basic-memory: indexing {notes} notes", file=sys.stderr, flush=True)
            timed_process(bm.ingest, bm.env, bm.cwd)
            systems.append(bm)
        results = paired(systems, queries)
        for n, system in enumerate(systems):
            emit(system=system.name, notes=notes, paired=True, load=os.getloadavg()[0],
                 **({"src": str(sources[n])} if n < len(sources) else {}), **results[system.name])
        if args.no_basic_memory:  # each tree against the first
            for n in range(1, len(sources)):
                emit(compare=f"memdir-hybrid[0]/memdir-hybrid[{n}]", notes=notes, src=str(sources[n]), paired=True,
                     **{key: round(results["memdir-hybrid[0]"][key] / results[f"memdir-hybrid[{n}]"][key], 2)
                        for key in ("search_p50_ms", "search_p95_ms", "tools_list_p50_ms", "server_cpu_ms_per_call",
                                    "server_main_thread_ms_per_call")})
            return
        theirs = results["basic-memory"]
        for n in range(len(sources)):
            mine = results[f"memdir-hybrid[{n}]"]
            emit(compare=f"basic-memory/memdir-hybrid[{n}]", notes=notes, src=str(sources[n]), paired=True,
                 **{key: round(theirs[key] / mine[key], 2) for key in ("search_p50_ms", "search_p95_ms",
                                                                       "tools_list_p50_ms")})


def hybrid_available() -> bool:
    """Whether memdir's ``vectors`` extra (the embedder) is installed here."""
    from memdir.search import vectors

    return vectors.importable()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma list of note counts")
    parser.add_argument("--needles", type=int, default=50,
                        help="notes holding one planted fact each, queried for hit@1/@5 (default %(default)s)")
    parser.add_argument("--seed", type=int, default=11,
                        help="random seed of the generated notes and needles: same seed, same workload (default %(default)s)")
    parser.add_argument("--hybrid-max", type=int, default=1000,
                        help="largest note count memdir-hybrid runs at; 0: never (default %(default)s)")
    parser.add_argument("--install", action="store_true", help="create the basic-memory virtualenv first")
    parser.add_argument("--python", help="interpreter ≥ 3.12 for the virtualenv (with --install)")
    parser.add_argument("--version", default=PIN, help="basic-memory version to install (default %(default)s)")
    parser.add_argument("--venv", type=Path, default=VENV, help="basic-memory's virtualenv (default %(default)s)")
    parser.add_argument("--src", type=Path, action="append", default=[],
                        help="a tree's src: search alone, paired with basic-memory (repeat for several trees)")
    parser.add_argument("--no-basic-memory", action="store_true",
                        help="with --src: the trees against each other alone (no basic-memory virtualenv needed)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.install and not (args.venv / "bin" / "basic-memory").exists():
        python = find_python(args.python)
        if python is None:
            emit(skipped="basic-memory", reason="no Python >= 3.12 found (--python, $BASIC_MEMORY_PYTHON, "
                                                "python3.12/3.13/3.14 on PATH, pyenv); basic-memory requires it")
            return 0
        print(f"installing basic-memory {args.version} into {args.venv} with {python}", file=sys.stderr)
        install(args.venv, python, args.version)
    if args.src and args.no_basic_memory:
        if not hybrid_available():
            emit(skipped="paired", reason="the vectors extra is not installed")
            return 0
        for notes in sizes:
            run_paired(notes, args, [src.resolve() for src in args.src])
        return 0
    if not (args.venv / "bin" / "basic-memory").exists():
        emit(skipped="basic-memory", reason=f"no virtualenv at {args.venv}; run with --install to create it")
        return 0
    version = subprocess.run([str(args.venv / "bin" / "basic-memory"), "--version"], capture_output=True,
                             text=True, env=dict(os.environ, **QUIET_BM)).stdout.strip().split(":")[-1].strip()
    hybrid = hybrid_available()
    if args.src:
        if not hybrid:
            emit(skipped="paired", reason="the vectors extra is not installed")
            return 0
        for notes in sizes:
            run_paired(notes, args, [src.resolve() for src in args.src])
        return 0
    for notes in sizes:
        needles = min(args.needles, max(1, notes // 10))
        with tempfile.TemporaryDirectory(prefix="memdir-vs-bm-") as tmp:
            base = Path(tmp)
            project, folder, needle_rows = workload(base, notes, needles, args.seed)
            # Each query once: memdir keeps the vectors of queries it embedded (memdir.search.dense), and a
            # repeated query would be timed without its embedding (at 1,000 notes, seed 11: 194 of 200 distinct).
            queries = list(dict.fromkeys([q for row in needle_rows for q in row[1:]]
                                         + vocabulary_queries(100, args.seed + notes)))
            systems = [memdir_system(base, project)]
            if hybrid and notes <= args.hybrid_max:
                systems.append(memdir_system(base, project, hybrid=True))
            else:
                emit(skipped="memdir-hybrid", notes=notes,
                     reason="the vectors extra is not installed" if not hybrid
                     else f"{notes} notes > --hybrid-max {args.hybrid_max}")
            systems.append(bm_system(base, folder, args.venv))
            results = {}
            for system in systems:
                print(f"{system.name}: {notes} notes", file=sys.stderr, flush=True)
                results[system.name] = measure(system, queries, needle_rows, notes)
                if system.name == "basic-memory":
                    results[system.name]["version"] = version
                emit(**results[system.name])
            theirs = results["basic-memory"]
            for mode in ("memdir", "memdir-hybrid"):
                if mode not in results:
                    continue
                mine = results[mode]
                ratios = {key: round(theirs[key] / mine[key], 2) if mine[key] else None
                          for key in ("ingest_s", "ingest_peak_rss_mb", "write_ms", "search_p50_ms", "search_p95_ms",
                                      "cli_cold_ms", "mcp_cold_ms", "mcp_peak_rss_mb")}
                hits = {key: [mine[key], theirs[key]]
                        for key in ("question_hit1", "question_hit5", "keyword_hit1", "keyword_hit5")}
                emit(compare=f"basic-memory/{mode}", notes=notes, needles=needles, **ratios,
                     **{f"hits_{mode.replace('-', '_')}_vs_basic_memory": hits})
    return 0


if __name__ == "__main__":
    sys.exit(main())
