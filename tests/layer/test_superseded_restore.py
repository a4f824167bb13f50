"""The superseded rule holds for restore, pin and mute (issue 10, trial item
4): restoring an old, active version over a superseded memory needs
``--reactivate`` / ``reactivate=true``; pinning or muting it is refused with
its successor named. API, CLI and the MCP tool."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.errors import Refused
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli

SAYS = "memory 'pm2' was superseded by 'pm2-v2'"


@pytest.fixture
def retired(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("pm2", "Processes run under pm2", "project", "pm2 start")
    mem.write("pm2-v2", "Processes run under systemd", "project", "units", supersedes="pm2")
    assert mem.read("pm2", count=False).record.status == "superseded"
    return mem


def test_restore_of_an_old_version_needs_reactivate(retired):
    with pytest.raises(Refused, match=SAYS + ": restore a version of 'pm2-v2' instead, or reactivate 'pm2'"):
        retired.restore("pm2", 1)
    assert retired.read("pm2", count=False).record.status == "superseded"
    # Control: asked for explicitly, it is active again.
    assert retired.restore("pm2", 1, reactivate=True).operation == "updated"
    assert retired.read("pm2", count=False).record.status == "active"


@pytest.mark.parametrize("op", ["pin", "mute"])
def test_pin_and_mute_of_a_superseded_memory_are_refused(retired, op):
    with pytest.raises(Refused, match=f"{SAYS}: {op} 'pm2-v2' instead"):
        getattr(retired, op)("pm2")
    record = retired.read("pm2", count=False).record
    assert (record.pinned, record.disabled) == (False, False)
    assert getattr(retired, op)("pm2-v2").changed is True  # control: the successor takes it


@pytest.mark.slow
def test_cli_and_mcp_restore_say_what_to_do(retired, isolated_home, project):
    out = run_cli("--project", project, "restore", "pm2", "--version", "1")
    assert out.returncode != 0 and SAYS in out.stderr and "--reactivate" in out.stderr
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_restore", {"name": "pm2", "version": 1})
            assert r.is_error and SAYS in r.content[0].text
            r = await client.call_tool("memory_restore", {"name": "pm2", "version": 1, "reactivate": True})
            assert not r.is_error, r.content[0].text

    anyio.run(main)
    assert retired.read("pm2", count=False).record.status == "active"


def test_approving_a_change_to_a_superseded_memory_is_refused(isolated_home, project, person):
    agent = Memory.open(home=isolated_home, project=project, actor="agent")
    person.write("pm2", "Processes run under pm2", "project", "pm2 start")
    proposed = agent.write("pm2", "Processes run under pm2 in cluster mode", "project", "pm2 start -i max",
                           status="candidate")
    assert proposed.name == "pm2-candidate" and proposed.status == "candidate"
    person.write("pm2-v2", "Processes run under systemd", "project", "units", supersedes="pm2")
    with pytest.raises(Refused, match=SAYS + ": approve a change to 'pm2-v2' instead"):
        person.approve("pm2-candidate")
    assert person.read("pm2", count=False).record.status == "superseded"
    assert person.read("pm2-candidate", count=False).record.status == "candidate"  # still waiting for review
