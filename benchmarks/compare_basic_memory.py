"""memdir and basic-memory side by side on one workload; prints JSON lines and the ratios.

    python benchmarks/compare_basic_memory.py [--sizes 1000,10000] [--needles 50]
    python benchmarks/compare_basic_memory.py --install [--python /path/to/python3.12+]

The notes are ``benchmarks/bench_recall.py``'s (``build``: 200–600 ordinary
English words each, ``--needles`` of them holding one unique fact, "the
<codename> cluster's backup key rotates every <n> days on <weekday>"),
written once as memdir memory files and converted, note for note, into
basic-memory's Markdown (frontmatter ``title``/``type``, a ``# title``
heading, the description, the body). Each system then runs, through its own
command line and its own MCP server driven by the MCP SDK's client:

* ``ingest_s``: index the N files already on disk — ``memdir reindex`` against
  ``bm project add`` (which indexes the folder and waits until it has settled);
  ``ingest_peak_rss_mb`` of that process;
* ``mcp_cold_ms``: spawn the MCP server and get its tool list (p50 of 3);
* ``search_p50_ms``/``search_p95_ms``: ``memory_search`` / ``search_notes``
  calls (k = 5) on the running server: each needle's question, each needle's
  keywords and 100 one-to-three-word queries of the notes' vocabulary;
* ``question_hit1``/``question_hit5``: share of needles first / in the top 5
  when asked in a sentence ("how often does the <codename> cluster backup key
  rotate?"); ``keyword_hit1``/``keyword_hit5``: asked as "<codename> backup key";
* ``write_ms``: one new note written through the MCP tool (p50 of 5);
* ``mcp_peak_rss_mb``: peak RSS of the server's process tree after all that;
* ``cli_cold_ms``: a fresh CLI process searching once (p50 of 3).

Both rank lexically: memdir with ``search_vectors = off``, basic-memory as it
runs on a machine where its embedding model cannot be fetched (it says
"keyword-only" and indexes no vectors). One line per system and size, then a
``"compare"`` line of ratios basic-memory / memdir (above 1: memdir is
faster or smaller) with both systems' hit rates.

basic-memory needs Python ≥ 3.12. ``--install`` makes the virtualenv
``.bench/basic-memory`` with the first of ``--python``, ``$BASIC_MEMORY_PYTHON``,
``python3.14``/``python3.13``/``python3.12`` on PATH, and installs
basic-memory ``--version`` into it from PyPI. Without that virtualenv (and
without ``--install``) the script prints one ``skipped`` line saying why and
exits 0. On Debian 12 (Python 3.11 only) a Python 3.13 can be built from
Debian's own source package (``apt-get source python3.13`` from a ``trixie``
deb-src entry, then ``./configure --prefix=DIR && make && make altinstall``).
"""

from __future__ import annotations

import argparse
import json
import os
import random
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

from bench_recall import WORDS, build, percentile  # noqa: E402  (memdir's note generator, reused)

VENV = REPO / ".bench" / "basic-memory"
PIN = "0.24.1"
QUIET_BM = {"FASTMCP_CHECK_FOR_UPDATES": "off", "FASTMCP_SHOW_SERVER_BANNER": "false",
            "BASIC_MEMORY_AUTO_UPDATE": "false", "HF_HUB_OFFLINE": "1", "NO_COLOR": "1", "COLUMNS": "200"}


def emit(**data) -> None:
    print(json.dumps(data), flush=True)


def ms(seconds: float) -> float:
    return round(seconds * 1000, 1)


# ------------------------------------------------------------------ install

def find_python(given: str | None) -> str | None:
    """An interpreter ≥ 3.12 for basic-memory: ``given``, ``$BASIC_MEMORY_PYTHON``, then PATH."""
    for candidate in (given, os.environ.get("BASIC_MEMORY_PYTHON"), *map(shutil.which, ("python3.14", "python3.13",
                                                                                       "python3.12"))):
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
    from memdir.files.memfile import parse

    project = base / "memdir-project"
    (project / ".git").mkdir(parents=True)
    mem = Memory.open(home=base / "memdir-home", project=project, search_vectors="off")
    layer = mem.session.layer("project").path
    questions = build(layer, notes, needles, random.Random(seed))
    folder = base / "bm-notes"
    folder.mkdir()
    for path in sorted(layer.glob("n*.md")):
        record = parse(path.read_text(encoding="utf-8"), path.stem).record
        (folder / path.name).write_text(f"---\ntitle: {record.name}\ntype: note\n---\n\n# {record.name}\n\n"
                                        f"{record.description}\n\n{record.body}\n", encoding="utf-8")
    out = []
    for name, question in questions:
        code = re.search(r"the (\S+) cluster", question).group(1)
        out.append((name, question, f"{code} backup key"))
    return project, folder, out


class System:
    """How one system is driven: its env, CLI and MCP commands, its tools' arguments."""

    def __init__(self, name: str, env: dict, cwd: Path, ingest: list[str], cli_search, mcp: list[str],
                 search_args, write_args, names_in):
        self.name, self.env, self.cwd, self.ingest, self.cli_search = name, env, cwd, ingest, cli_search
        self.mcp, self.search_args, self.write_args, self.names_in = mcp, search_args, write_args, names_in


def memdir_system(base: Path, project: Path) -> System:
    env = dict(os.environ, MEMDIR_HOME=str(base / "memdir-home"), MEMDIR_SEARCH_VECTORS="off",
               HOME=str(base / "memdir-user"), PYTHONPATH=str(REPO / "src"))
    py = sys.executable
    return System(
        "memdir", env, project, [py, "-m", "memdir.cli", "reindex", "--quiet"],
        lambda q: [py, "-m", "memdir.cli", "search", "-k", "5", q], [py, "-m", "memdir.cli", "mcp"],
        lambda q: ("memory_search", {"query": q, "k": 5}),
        lambda i: ("memory_write", {"name": f"written-{i}", "description": f"written note {i} about the cache",
                                    "type": "project", "body": "The cache is flushed on deploy."}),
        lambda text: list(dict.fromkeys(re.findall(r"\bn\d{5}\b", text))))


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
        lambda text: list(dict.fromkeys(re.findall(r"permalink: \S*?/?(n\d{5})\b", text))))


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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="1000,10000", help="comma list of note counts")
    parser.add_argument("--needles", type=int, default=50,
                        help="notes holding one unique fact each, queried for hit@1/@5 (default %(default)s)")
    parser.add_argument("--seed", type=int, default=11,
                        help="random seed of the generated notes and needles: same seed, same workload (default %(default)s)")
    parser.add_argument("--install", action="store_true", help="create the basic-memory virtualenv first")
    parser.add_argument("--python", help="interpreter ≥ 3.12 for the virtualenv (with --install)")
    parser.add_argument("--version", default=PIN, help="basic-memory version to install (default %(default)s)")
    parser.add_argument("--venv", type=Path, default=VENV, help="basic-memory's virtualenv (default %(default)s)")
    args = parser.parse_args(argv)
    sizes = [int(s) for s in args.sizes.split(",") if s.strip()]
    if args.install and not (args.venv / "bin" / "basic-memory").exists():
        python = find_python(args.python)
        if python is None:
            emit(skipped="basic-memory", reason="no Python >= 3.12 found (--python, $BASIC_MEMORY_PYTHON, "
                                                "python3.12/3.13/3.14 on PATH); basic-memory requires it")
            return 0
        print(f"installing basic-memory {args.version} into {args.venv} with {python}", file=sys.stderr)
        install(args.venv, python, args.version)
    if not (args.venv / "bin" / "basic-memory").exists():
        emit(skipped="basic-memory", reason=f"no virtualenv at {args.venv}; run with --install to create it")
        return 0
    version = subprocess.run([str(args.venv / "bin" / "basic-memory"), "--version"], capture_output=True,
                             text=True, env=dict(os.environ, **QUIET_BM)).stdout.strip().split(":")[-1].strip()
    for notes in sizes:
        needles = min(args.needles, max(1, notes // 10))
        with tempfile.TemporaryDirectory(prefix="memdir-vs-bm-") as tmp:
            base = Path(tmp)
            project, folder, needle_rows = workload(base, notes, needles, args.seed)
            rng = random.Random(args.seed + notes)
            vocabulary = [" ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 3))) for _ in range(100)]
            queries = [q for row in needle_rows for q in row[1:]] + vocabulary
            results = {}
            for system in (memdir_system(base, project), bm_system(base, folder, args.venv)):
                print(f"{system.name}: {notes} notes", file=sys.stderr, flush=True)
                results[system.name] = measure(system, queries, needle_rows, notes)
                if system.name == "basic-memory":
                    results[system.name]["version"] = version
                emit(**results[system.name])
            mine, theirs = results["memdir"], results["basic-memory"]
            ratios = {key: round(theirs[key] / mine[key], 2) if mine[key] else None
                      for key in ("ingest_s", "ingest_peak_rss_mb", "write_ms", "search_p50_ms", "search_p95_ms",
                                  "cli_cold_ms", "mcp_cold_ms", "mcp_peak_rss_mb")}
            hits = {f"{key}": [mine[key], theirs[key]]
                    for key in ("question_hit1", "question_hit5", "keyword_hit1", "keyword_hit5")}
            emit(compare="basic-memory/memdir", notes=notes, needles=needles, **ratios,
                 hits_memdir_vs_basic_memory=hits)
    return 0


if __name__ == "__main__":
    sys.exit(main())
