"""An MCP server's search answers from the index as it is after a short wait when another process holds the
index's write lock (:func:`memdir.search.locked.serve_agent`): its first search waited SQLite's whole 5 s busy
timeout (an agent's hooks wait :data:`memdir.search.locked.QUICK_WAIT` since session 61; the server has no
session id to ask by). The wait itself is measured by ``benchmarks/bench_index_lock.py --mcp``; here: the busy
timeout a process's sync sets (the value), and a real ``memdir mcp`` over stdio answering, while a real holder
keeps the lock, with the memory written during it."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from tests.conftest import run_cli

HOLD = ("import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); "
        "c.execute('BEGIN IMMEDIATE'); print('locked', flush=True); sys.stdin.read()")

PROBE = """
import sqlite3, sys
from pathlib import Path
from memdir.search import locked
home = Path(sys.argv[1]); home.mkdir(parents=True, exist_ok=True)
conn = sqlite3.connect(':memory:'); conn.execute('PRAGMA busy_timeout = 5000')
if sys.argv[2] == 'serve':
    locked.serve_agent()
with locked.waiting(conn, home):
    inside = conn.execute('PRAGMA busy_timeout').fetchone()[0]
print(inside, conn.execute('PRAGMA busy_timeout').fetchone()[0])
"""


def test_a_process_serving_an_agent_waits_the_quick_wait_and_restores_the_timeout(tmp_path):
    for how, expected in (("serve", "250 5000"), ("plain", "5000 5000")):  # control: a person's process
        done = subprocess.run([sys.executable, "-c", PROBE, str(tmp_path / how), how], capture_output=True,
                              text=True, timeout=60, check=False)
        assert done.returncode == 0, done.stderr
        assert done.stdout.split() == expected.split(), (how, done.stdout)


def _rpc(proc, message: dict) -> dict | None:
    proc.stdin.write(json.dumps(message) + "\n")
    proc.stdin.flush()
    if "id" not in message:
        return None
    while True:
        reply = json.loads(proc.stdout.readline())
        if reply.get("id") == message["id"]:
            return reply


@pytest.mark.slow
def test_an_mcp_search_under_a_held_lock_answers_with_what_was_written_meanwhile(isolated_home, project):
    env = {"MEMDIR_SEARCH_VECTORS": "off"}
    for i in range(3):
        done = run_cli("--project", project, "write", f"note-{i}", "-d", f"service{i} listens on port {5000 + i}",
                       "--body", f"service{i} port", env=env)
        assert done.returncode == 0, done.stderr
    assert run_cli("--project", project, "search", "service1", env=env).returncode == 0  # indexed before the lock
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(isolated_home / "index.sqlite")],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    server = None
    try:
        assert holder.stdout.readline() == "locked\n"
        done = run_cli("--project", project, "write", "late-etcd", "-d", "etcd of the project listens on 2379",
                       "--body", "etcd port", env=env)
        assert done.returncode == 0, done.stderr
        server = subprocess.Popen([sys.executable, "-m", "memdir", "mcp"], cwd=project, stdin=subprocess.PIPE,
                                  stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                  env={**os.environ, **env, "MEMDIR_PROJECT": str(project)})
        _rpc(server, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "test", "version": "0"}}})
        _rpc(server, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        for query, name in (("etcd", "late-etcd"), ("service2", "note-2")):  # the new memory, and an indexed one
            reply = _rpc(server, {"jsonrpc": "2.0", "id": 2, "method": "tools/call",
                                  "params": {"name": "memory_search", "arguments": {"query": query}}})
            text = reply["result"]["content"][0]["text"]
            assert not reply["result"].get("isError") and name in text, text
        with pytest.raises(sqlite3.OperationalError, match="locked"):  # the lock was held throughout
            sqlite3.connect(isolated_home / "index.sqlite", timeout=0).execute("BEGIN IMMEDIATE")
    finally:
        if server is not None:
            server.stdin.close()
            server.wait(timeout=60)
        holder.stdin.close()
        holder.wait(timeout=30)
