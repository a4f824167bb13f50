"""``server/discover`` (Claude Code 2.1's version probe, 3 s) is answered before the MCP SDK is imported.

The case: two of six real ``claude -p`` runs logged "the version negotiation probe timed out" for memdir's server
and restarted it: memdir answered the probe ("Method not found", as the SDK does) only once the SDK was imported,
3.7–6.4 s on a loaded machine. Here the SDK's import is held at a gate (a ``sitecustomize`` whose import hook waits
for a file), so "before the SDK" is a fact of the run, not a timing: the probe is answered while the gate is shut,
a ``tools/list`` sent meanwhile is not (the control), and once the gate opens the server answers as ever, a second
``server/discover`` by the SDK itself with the very same error.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys

from memdir.integrations.mcp.early import discover_answer

GATE = """import os, sys, time
class _Gate:
    def find_spec(self, name, path=None, target=None):
        if name == "mcp":
            while not os.path.exists(os.environ["MEMDIR_TEST_GATE"]):
                time.sleep(0.02)
        return None
sys.meta_path.insert(0, _Gate())
"""
WAIT = 120.0  # seconds allowed for an answer on a loaded machine (a bound on waiting, not a timed assertion)


def _line(proc, seconds: float) -> dict | None:
    """The next JSON line the server writes within ``seconds``, or None."""
    ready, _, _ = select.select([proc.stdout], [], [], seconds)
    return json.loads(proc.stdout.readline()) if ready else None


def _send(proc, message: dict) -> None:
    proc.stdin.write((json.dumps(message) + "\n").encode())
    proc.stdin.flush()


def test_discover_answered_while_the_sdk_is_still_importing(tmp_path):
    site, gate = tmp_path / "site", tmp_path / "gate"
    site.mkdir()
    (site / "sitecustomize.py").write_text(GATE)
    env = dict(os.environ, MEMDIR_HOME=str(tmp_path / "home"), MEMDIR_TEST_GATE=str(gate), MEMDIR_SEARCH_VECTORS="off",
               PYTHONPATH=os.pathsep.join(filter(None, [str(site), os.environ.get("PYTHONPATH")])))
    proc = subprocess.Popen([sys.executable, "-m", "memdir", "mcp"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=tmp_path)
    try:
        _send(proc, {"jsonrpc": "2.0", "id": 0, "method": "server/discover", "params": {}})
        early = _line(proc, WAIT)
        assert early == {"jsonrpc": "2.0", "id": 0,
                         "error": {"code": -32601, "message": "Method not found", "data": "server/discover"}}
        _send(proc, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}})
        assert _line(proc, 1.0) is None  # control: the gate holds the SDK, so initialize waits for it
        gate.touch()
        started = _line(proc, WAIT)
        assert started["id"] == 1 and started["result"]["serverInfo"]["name"] == "memdir"
        _send(proc, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        _send(proc, {"jsonrpc": "2.0", "id": "again", "method": "server/discover", "params": {}})
        _send(proc, {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {}})
        later = {answer["id"]: answer for answer in (_line(proc, WAIT), _line(proc, WAIT))}
        assert later["again"] == {**early, "id": "again"}  # the SDK's own answer: the one given early
        assert "memory_write" in [tool["name"] for tool in later[2]["result"]["tools"]]
    finally:
        proc.stdin.close()
        try:
            proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def test_discover_answer_is_the_sdks_error_for_a_request_alone():
    def said(line: str) -> dict | None:
        reply = discover_answer(line.encode())
        return None if reply is None else json.loads(reply)

    error = {"code": -32601, "message": "Method not found", "data": "server/discover"}
    assert said('{"jsonrpc": "2.0", "id": 7, "method": "server/discover"}') == {"jsonrpc": "2.0", "id": 7, "error": error}
    assert said('{"jsonrpc":"2.0","id":"p-1","method":"server/discover","params":{}}')["id"] == "p-1"
    # not answered early: a notification, an id that is no id, another method, a batch, not JSON, not JSON-RPC 2.0
    for line in ('{"jsonrpc": "2.0", "method": "server/discover"}',
                 '{"jsonrpc": "2.0", "id": true, "method": "server/discover"}',
                 '{"jsonrpc": "2.0", "id": null, "method": "server/discover"}',
                 '{"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"q": "server/discover"}}',
                 '[{"jsonrpc": "2.0", "id": 1, "method": "server/discover"}]', '{"server/discover"',
                 '{"id": 1, "method": "server/discover"}'):
        assert said(line) is None, line
