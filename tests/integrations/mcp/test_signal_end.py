"""`memdir mcp` ends on SIGINT (Claude Code's way of closing a stdio server) at once, and never in a write.

Before, SIGINT raised KeyboardInterrupt wherever the main thread was, a tool call's write included, and the unwinding
waited for the warm socket's thread and any model load (0.5-2.5 s; Claude Code waits 100 ms, then SIGTERM). Now
(:mod:`memdir.integrations.mcp.ending`) an idle server exits at once with status 130, and a signal that comes during
a tool call lets the call complete first. Real processes: `memdir mcp` over stdio, the layer lock held by this test.
"""

from __future__ import annotations

import os
import signal
import time

import pytest

from memdir import Memory
from tests.integrations.mcp.test_stdio import RawSession

pytestmark = pytest.mark.slow  # real processes

WAIT = 30.0  # seconds allowed for the process to end (a bound, not a speed claim: it ends in milliseconds)
PROTOCOL = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}


def _server(isolated_home, project) -> RawSession:
    env = {**os.environ, "MEMDIR_HOME": str(isolated_home), "MEMDIR_SEARCH_VECTORS": "off"}
    server = RawSession(project, env)
    assert "result" in server.request("initialize", PROTOCOL)
    server.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return server


def _write(server: RawSession, name: str) -> dict:
    return server.request("tools/call", {"name": "memory_write", "arguments": {
        "name": name, "description": f"The {name} fact", "type": "project", "body": f"About {name}."}})


def _ended(server: RawSession) -> int:
    server.proc.wait(timeout=WAIT)
    return server.proc.returncode


def test_sigint_ends_an_idle_server_at_once_with_status_130(isolated_home, project):
    server = _server(isolated_home, project)
    try:
        answer = _write(server, "deploy-day")  # control: the running server answers before the signal
        assert answer["result"]["content"][0]["text"] == "Memory created: deploy-day (project)"
        server.proc.send_signal(signal.SIGINT)
        assert _ended(server) == 130
        assert b"interrupted" not in server.proc.stderr.read()  # ended by its handler, not by KeyboardInterrupt
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
    assert Memory.open(home=isolated_home, project=project).read("deploy-day").record.description == "The deploy-day fact"


def test_a_signal_during_a_write_lets_the_write_complete_then_ends(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("first", "The first fact", "project", "The layer and its lock exist.")
    layer = person.session.layer("project")
    server = _server(isolated_home, project)
    try:
        with layer.locked():  # the server's write waits for this lock: the signal comes while it is in the write
            server.send({"jsonrpc": "2.0", "id": 99, "method": "tools/call", "params": {"name": "memory_write",
                         "arguments": {"name": "second", "description": "The second fact", "type": "project",
                                       "body": "Written though a signal came."}}})
            deadline = time.monotonic() + WAIT
            while not _waits_in_line(server.proc.pid, layer.meta):  # its place in the lock's line: in the write
                assert server.proc.poll() is None and time.monotonic() < deadline, "the write never waited"
                time.sleep(0.01)
            server.proc.send_signal(signal.SIGINT)
            time.sleep(0.2)
            assert server.proc.poll() is None  # not ended in the middle of the write
        assert _ended(server) == 130  # the lock released: the write completes, then the server ends
    finally:
        if server.proc.poll() is None:
            server.proc.kill()
            server.proc.wait()
    fresh = Memory.open(home=isolated_home, project=project)
    assert fresh.read("second").record.description == "The second fact"  # the write completed, whole
    assert fresh.read("first").record.description == "The first fact"  # control: what was there stays
    assert len(fresh.history("second").versions) == 1  # journaled, once


def _waits_in_line(pid: int, meta) -> bool:
    """Whether process ``pid`` holds the layer's lock line file open (:mod:`memdir.layer.waiting`)."""
    folder = f"/proc/{pid}/fd"
    try:
        links = [os.readlink(os.path.join(folder, fd)) for fd in os.listdir(folder)]
    except OSError:
        return False
    return any(link.startswith(str(meta)) and link.endswith(".queue") for link in links)
