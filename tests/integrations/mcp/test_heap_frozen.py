"""A `memdir mcp` process freezes its heap once, after its first search; a server built inside another program never.

Each case runs in a fresh Python process (the server driven by the MCP SDK's in-process client): ``gc.freeze``
is process-wide, and this test process's heap must stay as it is.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

pytestmark = pytest.mark.slow  # a fresh process per case

CASE = r"""
import gc, json, sys
import anyio
from mcp import Client
from memdir.integrations.mcp.server import MemoryServer, build_server

state = MemoryServer(sys.argv[1], sys.argv[2])
state.freeze_heap = sys.argv[3] == "on"
seen = {}

async def main():
    async with Client(build_server(state)) as client:
        await client.call_tool("memory_write", {"name": "db-port", "type": "project", "body": "",
                                                "description": "Dev PostgreSQL listens on 5433"})
        seen["after_write"] = gc.get_freeze_count()
        first = await client.call_tool("memory_search", {"query": "postgresql port", "k": 5})
        seen["after_search"] = gc.get_freeze_count()
        seen["first"] = first.content[0].text
        again = await client.call_tool("memory_search", {"query": "postgresql port", "k": 5})
        seen["again"] = again.content[0].text
        seen["still_asked"] = state.freeze_heap

anyio.run(main)
print(json.dumps(seen))
"""


def _run(tmp_path, freeze: str) -> dict:
    project = tmp_path / f"project-{freeze}"
    (project / ".git").mkdir(parents=True)
    env = dict(os.environ, MEMDIR_SEARCH_VECTORS="off")
    done = subprocess.run([sys.executable, "-c", CASE, str(tmp_path / f"home-{freeze}"), str(project), freeze],
                          capture_output=True, text=True, timeout=120, env=env, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout.strip().splitlines()[-1])


def test_the_heap_is_frozen_after_the_first_search_only_when_asked(tmp_path):
    frozen = _run(tmp_path, "on")
    assert frozen["after_write"] == 0  # a write is no search: nothing frozen yet
    assert frozen["after_search"] > 10_000  # the server's modules, session and kept rows
    assert frozen["still_asked"] is False  # once
    assert "db-port" in frozen["first"] and frozen["again"] == frozen["first"]  # the answers as ever
    control = _run(tmp_path, "off")  # a server built inside another program: its heap is not the server's
    assert control["after_write"] == 0 and control["after_search"] == 0
    assert control["first"] == frozen["first"]
