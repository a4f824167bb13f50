"""How long `memdir mcp` takes to end on SIGINT (Claude Code's way of closing it; it waits 100 ms, then SIGTERM).
Prints one JSON object per line, one per source tree.

    python benchmarks/bench_mcp_signal.py [--runs N] [--src DIR ...]

Each run: a fresh home and project, `memdir mcp` started over stdio (PYTHONPATH = the tree's src), ``initialize``,
one ``memory_write`` answered (the server is up, its warm socket started when vectors are wanted), then SIGINT:
the seconds from the signal to the process's exit (p50, max) and its exit statuses.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent / "src"
PROTOCOL = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}


def one(src: Path) -> tuple[float, int]:
    """(seconds from SIGINT to exit, exit status) of one server."""
    with tempfile.TemporaryDirectory(prefix="mcps", dir="/tmp") as tmp:
        project = Path(tmp) / "p"
        (project / ".git").mkdir(parents=True)
        env = dict(os.environ, MEMDIR_HOME=str(Path(tmp) / "h"), PYTHONPATH=str(src))
        proc = subprocess.Popen([sys.executable, "-m", "memdir", "mcp", "--project", str(project)], env=env,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)

        def send(message: dict) -> None:
            proc.stdin.write((json.dumps(message) + "\n").encode())
            proc.stdin.flush()

        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": PROTOCOL})
        proc.stdout.readline()
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "memory_write", "arguments": {
            "name": "deploy-day", "description": "Deploys happen on Tuesdays", "type": "project"}}})
        assert b"deploy-day" in proc.stdout.readline()
        time.sleep(1.0)  # the warm-up thread under way or done, as in a session
        start = time.perf_counter()
        proc.send_signal(signal.SIGINT)
        status = proc.wait(timeout=60)
        return time.perf_counter() - start, status


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--src", type=Path, action="append", help="a src/ tree to run (repeatable; default: this one)")
    args = parser.parse_args()
    trees = args.src or [HERE]
    results: dict[Path, list[tuple[float, int]]] = {tree: [] for tree in trees}
    for _ in range(args.runs):  # interleaved: the machine's load falls on every tree alike
        for tree in trees:
            results[tree].append(one(tree.resolve()))
    for tree, runs in results.items():
        seconds = [s for s, _ in runs]
        print(json.dumps({"figure": "sigint_to_exit", "src": str(tree), "runs": args.runs,
                          "p50_s": round(statistics.median(seconds), 3), "max_s": round(max(seconds), 3),
                          "statuses": sorted({status for _, status in runs})}), flush=True)


if __name__ == "__main__":
    main()
