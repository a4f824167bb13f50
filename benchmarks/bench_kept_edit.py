"""An agent's update through a real MCP server, two source trees side by side, at 1,000 and 10,000 memories.

    python benchmarks/bench_kept_edit.py [--other SRC | --ref REF] [--sizes 1000 10000] [--writes 20]

A write that replaces a hand edit no read saw says so (:mod:`memdir.layer.lasts`) from the manifest's row
of the memory; this checks that costs the MCP write path nothing that grows with the store. For each size a
home is built per side (N memory files placed by hand, taken up by one scan of ``--other``'s tree: a journal
of N hand edits), and one ``memdir mcp`` server per side (this tree's ``src`` and
``--other``'s; by default ``--ref`` main, checked out apart by ``git archive``) gets, alternately, ``--writes``
updates of distinct memories: each first over its hand edit (``over_hand``: this tree says the sentence),
then again over the agent's own version (``over_agent``). The first write of a side (untimed in the
rest) is reported apart: this tree counts the rows from the journal there, once, for a manifest an older
memdir wrote. ``--copy`` builds one home and copies it per side instead, as before: a copy gives every file
and ``MEMORY.md`` a new inode and ctime, so the manifest's index keys and file rows no longer hold and that
first write renders ``MEMORY.md`` from every file parsed (~3.4 s at 10,000 memories, quiet) — a restored
or copied home's first write, not a session start's. Prints one JSON line per size and side: p50/p95 ms
per kind, the first write, and whether this tree's answers over a hand edit named the version, and the
median bytes the server read per write
(``rchar``: a journal read grows it with the store) and its mean CPU time per write (user + system: less
moved by other processes' load than the round trip). Linux; load shown (``os.getloadavg``).
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from contextlib import AsyncExitStack
from pathlib import Path

from compare_basic_memory import (
    _children_now as _children,  # the processes this one started
)

HERE = Path(__file__).resolve().parent
TREE = HERE.parent / "src"


def build(base: Path, size: int, src: Path, project: Path | None = None) -> tuple[Path, Path]:
    """A home whose project layer holds ``size`` memories placed by hand and taken up (one scan by ``src``);
    ``project``: the project directory (made when missing; default ``base/project``)."""
    home, project = base / "home", project or base / "project"
    project.mkdir(parents=True, exist_ok=True)
    code = ("import sys; from memdir import Memory; m = Memory.open(sys.argv[1], sys.argv[2], actor='human');"
            "print(m.session.layer_dir('project'))")
    env = dict(os.environ, PYTHONPATH=str(src))
    layer = Path(subprocess.run([sys.executable, "-c", code, str(home), str(project)], env=env, check=True,
                                capture_output=True, text=True).stdout.strip())
    layer.mkdir(parents=True, exist_ok=True)
    for i in range(size):
        (layer / f"note-{i:05d}.md").write_text(
            f"---\ndescription: Fact number {i} about the service\ntype: project\n---\nThe value of setting {i} "
            f"is {i * 7}.\n", encoding="utf-8")
    take_up = ("import sys; from memdir import Memory; m = Memory.open(sys.argv[1], sys.argv[2], actor='human');"
               "print(len(m.list().memories))")
    subprocess.run([sys.executable, "-c", take_up, str(home), str(project)], env=env, check=True,
                   capture_output=True, text=True)
    return home, project


def _read_bytes(pid: int) -> int:
    """Bytes process ``pid`` read so far (``rchar`` of ``/proc/PID/io``: files, pipes, SQLite pages)."""
    with open(f"/proc/{pid}/io", encoding="ascii") as file:
        return next(int(line.split()[1]) for line in file if line.startswith("rchar:"))


def _cpu_ms(pid: int) -> float:
    """User + system CPU ms of process ``pid`` so far (``/proc/PID/stat`` fields 14 and 15)."""
    with open(f"/proc/{pid}/stat", encoding="ascii") as file:
        fields = file.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 / os.sysconf("SC_CLK_TCK")


async def _side(stack, home: Path, project: Path, src: Path):
    from mcp import Client, StdioServerParameters

    env = dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_SEARCH_VECTORS="off", PYTHONPATH=str(src))
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"], env=env, cwd=str(project))
    client = await stack.enter_async_context(Client(params, mode="legacy"))
    await client.list_tools()
    return client


def run(size: int, writes: int, sources: dict[str, Path], base: Path, copy: bool = False) -> list[dict]:
    import anyio

    homes = {}
    if copy:  # one home copied per side: every file and MEMORY.md gets a new inode and ctime (see the docstring)
        home, project = build(base / "built", size, sources["other"])
        for side in sources:
            homes[side] = base / side / "home"
            shutil.copytree(home, homes[side], symlinks=True)
    else:  # one home built per side (one project: its layer's directory name is the project's)
        project = base / "project"
        for side in sources:
            homes[side], _ = build(base / side, size, sources["other"], project)

    async def main() -> list[dict]:
        out = []
        async with AsyncExitStack() as stack:
            clients, pids, seen = {}, {}, _children()
            for side, src in sources.items():
                clients[side] = await _side(stack, homes[side], project, src)
                started = _children() - seen
                seen |= started
                pids[side] = max(started)
            first, times, named = {}, {s: {"over_hand": [], "over_agent": []} for s in sources}, {s: 0 for s in sources}
            reads = {s: {"over_hand": [], "over_agent": []} for s in sources}
            cpus = {s: {"over_hand": [], "over_agent": []} for s in sources}
            for side, client in clients.items():  # the first write: a manifest an older tree wrote (this tree counts)
                began = time.perf_counter()
                await client.call_tool("memory_write", {"name": f"note-{size - 1:05d}", "body": "Warm up."})
                first[side] = (time.perf_counter() - began) * 1000
            for i in range(writes):
                for side in (list(sources) if i % 2 == 0 else list(sources)[::-1]):
                    for kind, body in (("over_hand", f"Changed {i}."), ("over_agent", f"Changed again {i}.")):
                        began, read, cpu = time.perf_counter(), _read_bytes(pids[side]), _cpu_ms(pids[side])
                        r = await clients[side].call_tool("memory_write", {"name": f"note-{i:05d}", "body": body})
                        times[side][kind].append((time.perf_counter() - began) * 1000)
                        reads[side][kind].append(_read_bytes(pids[side]) - read)
                        cpus[side][kind].append(_cpu_ms(pids[side]) - cpu)
                        named[side] += kind == "over_hand" and "kept as version 1" in r.content[0].text
            for side in sources:
                row = {"memories": size, "side": side, "writes": writes, "first_write_ms": round(first[side], 1), "copied": copy,
                       "over_hand_named_version": named[side], "load": [round(x, 2) for x in os.getloadavg()]}
                for kind, values in times[side].items():
                    values.sort()
                    row[f"{kind}_p50_ms"] = round(statistics.median(values), 2)
                    row[f"{kind}_p95_ms"] = round(values[min(len(values) - 1, int(0.95 * len(values)))], 2)
                    row[f"{kind}_read_kb"] = round(statistics.median(reads[side][kind]) / 1024, 1)
                    row[f"{kind}_cpu_ms"] = round(statistics.mean(cpus[side][kind]), 1)  # mean: 10 ms ticks
                out.append(row)
        return out

    return anyio.run(main)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--other", type=Path, help="another tree's src (default: --ref checked out apart)")
    parser.add_argument("--ref", default="main")
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000])
    parser.add_argument("--writes", type=int, default=20)
    parser.add_argument("--copy", action="store_true",
                        help="build one home and copy it per side (a restored or copied home: the first write "
                             "then parses every file)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        other = args.other
        if other is None:
            tree = Path(tmp) / "ref"
            tree.mkdir()
            archive = subprocess.run(["git", "-C", str(HERE.parent), "archive", args.ref, "src"], check=True,
                                     capture_output=True).stdout
            subprocess.run(["tar", "-x", "-C", str(tree)], input=archive, check=True)
            other = tree / "src"
        sources = {"other": other.resolve(), "tree": TREE}
        for size in args.sizes:
            for row in run(size, args.writes, sources, Path(tmp) / f"n{size}", args.copy):
                row["side"] = args.ref if row["side"] == "other" and args.other is None else row["side"]
                print(json.dumps(row), flush=True)


if __name__ == "__main__":
    main()
