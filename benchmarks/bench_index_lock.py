"""Fresh processes while another process holds the search index's write lock (a ``sqlite3`` shell left in
``BEGIN EXCLUSIVE``): how long each waits before answering from an in-memory copy (memdir.search.sync,
memdir.search.locked), and whether the answer holds the memory written during the lock.

One home per source tree (``--src``, repeatable: main and a branch in one run, alternating): 20 project
memories, indexed, then the lock taken and held through every round. Each round writes one memory
(``memdir write``: no index write) and times, in fresh processes, ``memdir search`` for it, the
UserPromptSubmit hook asking for an older one and the SessionStart hook (which does not open the index). One
JSON line per (tree, round): seconds per command and whether each found what it should.

    python benchmarks/bench_index_lock.py --src /work/main/src --src src --rounds 3
    python benchmarks/bench_index_lock.py --src /work/main/src --src src --hold IMMEDIATE --hook-first

``--hook-first`` runs the hook before the search, so the hook is the first process to meet the lock (the
search's wait otherwise marks the home and every later process asks with a short wait); ``--hold IMMEDIATE``
takes the write lock alone, as a long writer does, so readers read on. ``--mcp`` times, first in each round,
a ``memory_search`` through a ``memdir mcp`` server started with the rounds (stdio JSON-RPC, the server's
process the first to meet the lock in round 0): ``mcp_search`` s, ``mcp_found``.

    python benchmarks/bench_index_lock.py --src /work/main/src --src src --hold IMMEDIATE --mcp --rounds 2
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

HOLD = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute(f'BEGIN {sys.argv[2]}'); print('locked', flush=True); sys.stdin.read()")


def _run(env: dict, argv: list[str], stdin: str | None = None) -> tuple[float, subprocess.CompletedProcess]:
    started = time.monotonic()
    done = subprocess.run([sys.executable, *argv], input=stdin, capture_output=True, text=True, env=env,  # noqa: PLW1510
                          cwd=env["BENCH_PROJECT"], timeout=120)
    return time.monotonic() - started, done


class _Server:
    """A ``memdir mcp`` process spoken to over stdio (newline-delimited JSON-RPC), initialized."""

    def __init__(self, env: dict):
        self.proc = subprocess.Popen([sys.executable, "-m", "memdir", "mcp"], cwd=env["BENCH_PROJECT"], env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                     text=True)
        self.next = 0
        self.call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                                 "clientInfo": {"name": "bench", "version": "0"}})
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}) + "\n")
        self.proc.stdin.flush()

    def call(self, method: str, params: dict) -> dict:
        self.next += 1
        self.proc.stdin.write(json.dumps({"jsonrpc": "2.0", "id": self.next, "method": method, "params": params})
                              + "\n")
        self.proc.stdin.flush()
        while True:
            reply = json.loads(self.proc.stdout.readline())
            if reply.get("id") == self.next:
                return reply

    def search(self, query: str) -> tuple[float, str]:
        started = time.monotonic()
        reply = self.call("tools/call", {"name": "memory_search", "arguments": {"query": query}})
        return time.monotonic() - started, reply["result"]["content"][0]["text"]

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def _home(src: str) -> tuple[dict, Path, Path]:
    base = Path(tempfile.mkdtemp(prefix="bench-index-lock-"))
    home, project = base / "home", base / "project"
    (project / ".git").mkdir(parents=True)
    env = dict(os.environ, MEMDIR_HOME=str(home), PYTHONPATH=src, HOME=str(base), MEMDIR_SEARCH_VECTORS="off",
               BENCH_PROJECT=str(project))
    for i in range(20):
        _, done = _run(env, ["-m", "memdir", "write", f"note-{i}", "-d", f"service{i} listens on port {5000 + i}",
                   "--body", f"The service{i} of the benchmark listens on port {5000 + i}."])
        assert done.returncode == 0, done.stderr
    _run(env, ["-m", "memdir", "search", "service3"])  # indexed before the lock
    return env, home, project


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--src", action="append", required=True, help="a source tree's src directory")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--hold", choices=("EXCLUSIVE", "IMMEDIATE"), default="EXCLUSIVE",
                        help="the holder's transaction (IMMEDIATE: the write lock alone, readers read on)")
    parser.add_argument("--hook-first", action="store_true",
                        help="the prompt hook before the search each round: the first process to meet the lock")
    parser.add_argument("--mcp", action="store_true", help="an MCP server's memory_search first in each round")
    args = parser.parse_args()
    trees = []
    for src in map(os.path.abspath, args.src):  # PYTHONPATH is read in the project directory: a relative one missed
        env, home, project = _home(src)
        holder = subprocess.Popen([sys.executable, "-c", HOLD, str(home / "index.sqlite"), args.hold], stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, text=True)
        assert holder.stdout.readline() == "locked\n"
        trees.append((src, env, project, holder, _Server(env) if args.mcp else None))
    start = {"session_id": "bench", "transcript_path": "/nonexistent/t.jsonl", "hook_event_name": "SessionStart",
             "source": "startup"}
    try:
        for r in range(args.rounds):
            for src, env, project, _, server in trees:
                hook = {**start, "cwd": str(project), "session_id": f"bench-{r}"}  # recall gives a memory once
                prompt = {**hook, "hook_event_name": "UserPromptSubmit", "prompt": "which port does service7 use?"}
                out = {"src": src, "round": r}
                _run(env, ["-m", "memdir", "write", f"late-{r}", "-d", f"etcd{r} of the benchmark", "--body",
                           f"etcd{r} listens on 2379."])
                if server is not None:
                    out["mcp_search"], text = server.search(f"etcd{r}")
                    out["mcp_found"] = f"late-{r}" in text
                for step in (("hook", "search") if args.hook_first else ("search", "hook")):
                    if step == "search":
                        out["search"], done = _run(env, ["-m", "memdir", "search", f"etcd{r}"])
                        out["search_found"] = f"late-{r}" in done.stdout
                        continue
                    out["prompt_hook"], done = _run(env, ["-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                                                    json.dumps(prompt))
                    out["prompt_found"] = "note-7" in done.stdout
                    out["prompt_warned"] = "locked by another process" in done.stderr
                    if not out["prompt_found"]:
                        print(done.stdout, done.stderr, file=sys.stderr)
                out["session_start"], done = _run(env, ["-m", "memdir.hooks", "claude-code", "SessionStart"],
                                                  json.dumps(hook))
                out["start_found"] = f"late-{r}" in done.stdout
                print(json.dumps({k: round(v, 2) if isinstance(v, float) else v for k, v in out.items()}), flush=True)
    finally:
        for *_, holder, server in trees:
            if server is not None:
                server.close()
            holder.stdin.close()
            holder.wait(timeout=30)


if __name__ == "__main__":
    main()
