"""How soon a fresh ``memdir mcp`` answers ``initialize``, and its first tool call after it.

A client (Claude Code) spawns the server and waits for ``initialize``'s answer a few seconds at most; a
server that answers late is dropped for the session. Each round spawns, for each source tree
(``--src``: this checkout by default; give another to compare in one run, the trees taken in turn so
a loaded machine slows both alike), ``python -c 'serve_stdio(...)'`` on one seeded home and times over
its stdio pipes, as a client sees them:

* ``initialize_ms``: spawn → the ``initialize`` answer (the whole start: interpreter, imports, the store);
* ``tools_list_ms``: ``notifications/initialized`` + ``tools/list`` sent → its answer;
* ``first_call_ms``: after ``--think`` s (the model's turn before it calls a tool), ``tools/call
  memory_search`` sent → its answer;
* ``answer_sha``: the first call's text, hashed (both trees must agree).

One JSON line per (tree, round), then one line per tree with the medians and, with two trees, one
line of ratios (second tree over first). ``--importtime``: instead, one line per tree with the medians over
the rounds of the cumulative ``-X importtime`` figures (µs) of the modules that dominate the start, and
``memdir_part``: the server module's import less the SDK's (``mcp_types``, ``mcp``).

    python benchmarks/bench_mcp_start.py --src /work/main/src --src src --rounds 5
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import select
import shutil
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _corpus import corpus, write_notes

SERVE = "import sys; from memdir.integrations.mcp.server import serve_stdio; sys.exit(serve_stdio(sys.argv[1], sys.argv[2]))"
SEED = textwrap.dedent("""
    import shutil, sys
    from pathlib import Path
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    layer = mem.session.layer("project")
    layer.path.mkdir(parents=True, exist_ok=True)
    for path in Path(sys.argv[3]).iterdir():
        shutil.copyfile(path, layer.path / path.name)
    layer.refresh_index()
""")
WATCHED = ("mcp", "mcp_types", "mcp.client", "mcp.server", "memdir.api", "memdir.tools.handlers",
           "memdir.integrations.mcp.server", "memdir.search.locked", "memdir.integrations.claude_code.hooks")


def _env(src: Path, home: Path, base: Path, vectors: bool) -> dict:
    env = dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=str(src), HOME=str(base))
    if not vectors:
        env["MEMDIR_SEARCH_VECTORS"] = "off"
    return env


def _send(proc, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def _answer(proc, id: int, timeout: float = 120.0) -> dict:
    """The reply to request ``id`` (notifications and other lines skipped)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        ready, _, _ = select.select([proc.stdout], [], [], deadline - time.monotonic())
        if not ready:
            break
        line = proc.stdout.readline()
        if not line:
            raise RuntimeError(f"server exited: {proc.stderr.read().decode(errors='replace')[-2000:]}")
        message = json.loads(line)
        if message.get("id") == id:
            return message
    raise TimeoutError(f"no answer to {id}")


def one_start(src: Path, home: Path, project: Path, base: Path, think: float, vectors: bool) -> dict:
    """Spawn one server of ``src`` and time the three answers (module docstring)."""
    began = time.monotonic()
    proc = subprocess.Popen([sys.executable, "-c", SERVE, str(home), str(project)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=project,
                            env=_env(src, home, base, vectors))
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}})
        _answer(proc, 1)
        initialize = time.monotonic() - began
        sent = time.monotonic()
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        tools = _answer(proc, 2)["result"]["tools"]
        listed = time.monotonic() - sent
        time.sleep(think)
        sent = time.monotonic()
        _send(proc, {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {
            "name": "memory_search", "arguments": {"query": "staging redis port of billing"}}})
        result = _answer(proc, 3)["result"]
        first = time.monotonic() - sent
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        proc.stdout.close()
        proc.stderr.close()
    text = "".join(c.get("text", "") for c in result["content"])
    return {"initialize_ms": round(initialize * 1000, 1), "tools_list_ms": round(listed * 1000, 1),
            "first_call_ms": round(first * 1000, 1), "tools": len(tools),
            "answer_sha": hashlib.sha256(text.encode()).hexdigest()[:12]}


def import_split(src: Path, home: Path, project: Path, base: Path) -> dict:
    """Cumulative ``-X importtime`` µs of :data:`WATCHED` for ``import memdir.integrations.mcp.server``."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", "import memdir.integrations.mcp.server"],
                          check=False, capture_output=True, text=True, env=_env(src, home, base, True), cwd=project)
    cumulative = {}
    for line in done.stderr.splitlines():
        parts = line.split("|")
        if len(parts) == 3 and parts[2].strip() in WATCHED:
            cumulative[parts[2].strip()] = int(parts[1])
    # the server module's whole import less the SDK's (mcp_types, then mcp: both imported at its top, in that order)
    cumulative["memdir_part"] = cumulative["memdir.integrations.mcp.server"] - cumulative["mcp_types"] - cumulative["mcp"]
    return cumulative


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--src", action="append", type=Path, help="a source tree (its src/); repeat to compare")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--notes", type=int, default=60, help="memories in the project (embedded unless --no-vectors)")
    parser.add_argument("--think", type=float, default=1.5, help="seconds between tools/list and the first call")
    parser.add_argument("--no-vectors", action="store_true", help="MEMDIR_SEARCH_VECTORS=off")
    parser.add_argument("--importtime", action="store_true", help="the import split instead of timings")
    args = parser.parse_args(argv)
    srcs = [s.resolve() for s in (args.src or [Path(__file__).resolve().parents[1] / "src"])]
    vectors = not args.no_vectors
    base = Path(tempfile.mkdtemp(prefix="bench-mcp-start-"))
    try:
        notes_dir, project, home = base / "notes", base / "project", base / "home"
        for folder in (notes_dir, project, home):
            folder.mkdir()
        write_notes(notes_dir, corpus(args.notes, 7)[0], stamp="2026-11-01T00:00:00Z")
        env = _env(srcs[0], home, base, vectors)
        subprocess.run([sys.executable, "-c", SEED, str(home), str(project), str(notes_dir)], check=True, env=env,
                       cwd=project)
        if vectors:  # the index as a session finds it after the embedder ran: every vector there
            subprocess.run([sys.executable, "-m", "memdir", "--project", str(project), "reindex"], check=True,
                           env=env, cwd=project, capture_output=True)
        if args.importtime:
            split: dict[Path, list[dict]] = {src: [] for src in srcs}
            for _ in range(args.rounds):
                for src in srcs:
                    split[src].append(import_split(src, home, project, base))
            for src in srcs:
                keys = sorted({k for row in split[src] for k in row})
                print(json.dumps({"src": str(src), "rounds": args.rounds, "importtime_us_median": {
                    k: statistics.median(row[k] for row in split[src] if k in row) for k in keys}}))
            return 0
        rows: dict[Path, list[dict]] = {src: [] for src in srcs}
        for n in range(args.rounds):
            for src in srcs:
                row = one_start(src, home, project, base, args.think, vectors)
                rows[src].append(row)
                print(json.dumps({"src": str(src), "round": n, **row}), flush=True)
        medians = {}
        for src in srcs:
            medians[src] = {key: statistics.median(r[key] for r in rows[src])
                            for key in ("initialize_ms", "tools_list_ms", "first_call_ms")}
            print(json.dumps({"src": str(src), "median": medians[src], "vectors": vectors, "notes": args.notes,
                              "think_s": args.think, "answers": sorted({r["answer_sha"] for r in rows[src]})}))
        if len(srcs) == 2:
            a, b = (medians[s] for s in srcs)
            print(json.dumps({"ratio": {k: round(b[k] / a[k], 3) for k in a}, "of": str(srcs[1]), "over": str(srcs[0])}))
    finally:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
