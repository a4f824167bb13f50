"""`memdir mcp` killed with SIGKILL in the middle of a stream of writes (a real subprocess, raw
JSON-RPC on its stdio): the store verifies clean afterwards, every write the server acknowledged
is found with the body it acknowledged, and a new server carries on."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time

import pytest

from memdir import Memory
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real processes

TIMEOUT = 60


class Server:
    """`memdir mcp` launched in the project; requests pipelined, answers collected by id."""

    def __init__(self, project, env):
        self.proc = subprocess.Popen([sys.executable, "-m", "memdir.cli", "mcp"], cwd=project, env=env,
                                     stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
        self.answers: queue.Queue = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        self.send({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {
            "protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "kill-test", "version": "0"}}})
        assert self.answers.get(timeout=TIMEOUT)["id"] == 0
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})

    def _pump(self):
        for raw in self.proc.stdout:
            self.answers.put(json.loads(raw))

    def send(self, message: dict) -> None:
        self.proc.stdin.write((json.dumps(message) + "\n").encode())
        self.proc.stdin.flush()

    def write(self, id: int, name: str, body: str) -> None:
        self.send({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": "memory_write", "arguments": {
            "name": name, "description": f"Fact number {id}", "type": "project", "body": body}}})


def _acknowledged(server: Server, want: int) -> dict[int, dict]:
    got: dict[int, dict] = {}
    deadline = time.monotonic() + TIMEOUT
    while len(got) < want and time.monotonic() < deadline:
        try:
            answer = server.answers.get(timeout=1)
        except queue.Empty:
            continue
        got[answer["id"]] = answer
    return got


@pytest.mark.parametrize("after", [1, 5, 12])
def test_sigkill_mid_stream_loses_no_acknowledged_write(isolated_home, project, after):
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off", MEMDIR_HOME=str(isolated_home))
    env.pop("MEMDIR_PROJECT", None)
    server = Server(project, env)
    # 40 writes: new memories, and rewrites of one memory (each must keep the version before it)
    plan = {i: (f"fact-{i}", f"Body of fact {i}.") if i % 3 else ("hot", f"Hot body, version {i}.")
            for i in range(1, 41)}
    for i, (name, body) in plan.items():
        server.write(i, name, body)
    acked = _acknowledged(server, after)
    server.proc.send_signal(signal.SIGKILL)  # mid-stream: later writes are in flight, or not started
    server.proc.wait(timeout=TIMEOUT)
    assert server.proc.returncode == -signal.SIGKILL
    while not server.answers.empty():  # answers written before the kill count as acknowledged too
        answer = server.answers.get()
        acked[answer["id"]] = answer
    assert after <= len(acked) < len(plan)  # killed mid-stream: some writes were never answered
    assert all(a["result"]["isError"] is False for a in acked.values()), acked

    verified = run_cli("verify", "--project", project)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    mem = Memory.open(home=isolated_home, project=project)
    names = {m.name for m in mem.list(include_all=True).memories}
    for i in acked:
        name, body = plan[i]
        assert name in names, (i, name)
        if name != "hot":
            assert mem.read(name, count=False).record.body == body
    hot = [i for i in acked if plan[i][0] == "hot"]
    if hot:  # the last acknowledged version of the rewritten memory, or one acknowledged after it (in flight)
        body = mem.read("hot", count=False).record.body
        assert int(body.rsplit(" ", 1)[1].rstrip(".")) >= max(hot)
        versions = [v.action for v in mem.history("hot").versions]
        assert versions[0] == "create" and len(versions) >= len(hot)
    # a new server carries on over the same store: a write and its read
    again = Server(project, env)
    again.write(100, "after-kill", "Written by the next server.")
    answer = _acknowledged(again, 1)[100]
    assert answer["result"]["isError"] is False and answer["result"]["content"][0]["text"] == (
        "Memory created: after-kill (project)")
    again.proc.stdin.close()
    again.proc.wait(timeout=TIMEOUT)
    assert Memory.open(home=isolated_home, project=project).read("after-kill", count=False).record.body == (
        "Written by the next server.")
    assert run_cli("verify", "--project", project).returncode == 0
