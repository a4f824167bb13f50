"""``memdir mcp`` answers ``initialize`` before it imports the facade, the store or search.

Claude Code's one-shot ``claude -p`` dropped a server that answered ``initialize`` after 3.8–5.3 s on a loaded
machine, and memdir's own imports were ≈ 0.8 s of a 2.5 s start. What ``initialize`` needs is the settings, the
launch project and the tools' static schemas; the rest comes with the first tool call, or before it from the
warm-up that starts once ``initialize`` is answered (:meth:`memdir.integrations.mcp.server.MemoryServer.warm_up`).
Real fresh interpreters (what a module imports is only seen in one that has not loaded it).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

LATE = ("memdir.api", "memdir.tools.handlers", "memdir.search.index", "memdir.layer.layer", "memdir.search.warm")

PROBE = textwrap.dedent("""
    import json, sys
    from memdir.integrations.mcp.server import MemoryServer, build_server
    state = MemoryServer(sys.argv[1], sys.argv[2])
    server = build_server(state)
    before = sorted(m for m in json.loads(sys.argv[3]) if m in sys.modules)
    options = server.create_initialization_options()  # what the initialize answer is made of
    text = state.instructions()
    from memdir.tools.handlers import run_tool
    found = run_tool(state.fallback.session, "memory_search", {"query": "postgres"}).text  # a first tool call
    after = sorted(m for m in json.loads(sys.argv[3]) if m in sys.modules)
    print(json.dumps({"before": before, "after": after, "name": options.server_name, "instructions": len(text) > 0,
                      "found": found}))
""")


def test_the_initialize_answer_needs_no_store_nor_search(isolated_home, project):
    done = subprocess.run([sys.executable, "-c", PROBE, str(isolated_home), str(project), json.dumps(LATE)],
                          capture_output=True, text=True, timeout=120, check=False,
                          env=dict(os.environ, MEMDIR_HOME=str(isolated_home)))
    assert done.returncode == 0, done.stderr
    got = json.loads(done.stdout)
    assert got["before"] == [] and got["name"] == "memdir" and got["instructions"]
    # the control: the same process imports them for the first tool call (the warm process is the warm-up's)
    assert got["after"] == sorted(LATE) and got["found"] == "No memories match 'postgres'."


def _line(proc) -> dict:
    return json.loads(proc.stdout.readline())


def test_the_warm_up_starts_after_initialize_and_the_first_call_answers_as_ever(isolated_home, project):
    """A real ``memdir mcp``: its initialize answer, then (the warm-up under way) a write and a read whose answers
    are the tools' own."""
    proc = subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp", "--project", str(project)], cwd=project,
                            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=dict(os.environ, MEMDIR_HOME=str(isolated_home), MEMDIR_SEARCH_VECTORS="off"))
    try:
        def send(message: dict) -> None:
            proc.stdin.write(json.dumps(message) + "\n")
            proc.stdin.flush()

        send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        answer = _line(proc)
        assert answer["id"] == 1 and answer["result"]["serverInfo"]["name"] == "memdir"
        send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        send({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "memory_write", "arguments": {
            "name": "db-port", "type": "project", "description": "Dev PostgreSQL listens on 5433",
            "body": "Moved on 2026-11-02."}}})
        wrote = _line(proc)["result"]
        assert not wrote.get("isError") and "db-port" in wrote["content"][0]["text"]
        send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "memory_read",
                                                                            "arguments": {"name": "db-port"}}})
        read = _line(proc)["result"]
        assert not read.get("isError") and "Moved on 2026-11-02." in read["content"][0]["text"]
    finally:
        proc.stdin.close()
        proc.wait(timeout=60)
        proc.stdout.close()
        proc.stderr.close()
    assert proc.returncode == 0
