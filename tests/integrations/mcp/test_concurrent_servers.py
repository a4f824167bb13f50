"""Two `memdir mcp` processes (two agents' sessions on one project) writing at once, one memory
rewritten by both: every acknowledged write is found, each rewrite kept one version, the store
verifies clean. Real subprocesses, raw JSON-RPC."""

from __future__ import annotations

import os

import pytest

from memdir import Memory
from tests.conftest import run_cli
from tests.integrations.mcp.test_killed_write import Server, _acknowledged

pytestmark = pytest.mark.slow  # real processes


def test_two_servers_rewriting_one_memory_lose_nothing(isolated_home, project):
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off", MEMDIR_HOME=str(isolated_home))
    env.pop("MEMDIR_PROJECT", None)
    servers = [Server(project, env), Server(project, env)]
    plans = []
    for s, server in enumerate(servers):
        plan = {i: (f"own-{s}-{i}", f"Server {s} fact {i}.") if i % 2 else ("shared", f"Shared by {s}, write {i}.")
                for i in range(1, 21)}
        plans.append(plan)
    for i in range(1, 21):  # interleaved: both servers have writes in flight at once
        for server, plan in zip(servers, plans):
            server.write(i, *plan[i])
    answers = [_acknowledged(server, 20) for server in servers]
    for server in servers:
        server.proc.stdin.close()
        server.proc.wait(timeout=60)
    assert [len(a) for a in answers] == [20, 20]
    assert all(a["result"]["isError"] is False for got in answers for a in got.values())
    assert run_cli("verify", "--project", project).returncode == 0
    mem = Memory.open(home=isolated_home, project=project)
    for plan in plans:
        for name, body in plan.values():
            if name != "shared":
                assert mem.read(name, count=False).record.body == body
    shared = [body for plan in plans for name, body in plan.values() if name == "shared"]
    versions = mem.history("shared").versions
    assert len(versions) == len(shared) == 20  # a create and 19 updates: no rewrite overwrote another unkept
    assert mem.read("shared", count=False).record.body in shared
