"""Over MCP, a proposal for the team (a change and a new memory, before the team layer has any memory)
is listed with the candidates and counted by memory_status; a proposal a person dismissed is not proposed
again, and the tool result says so (issue 24)."""

from __future__ import annotations

import anyio
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.teamgit import shared_repository


def _text(result) -> str:
    return result.content[0].text


def test_team_candidates_are_listed_and_counted_and_a_dismissed_proposal_is_said_so(tmp_path):
    _, b = shared_repository(tmp_path)
    state = MemoryServer(home=b.home, project=b.root)

    async def main():
        async with Client(build_server(state)) as client:
            call = client.call_tool
            r = await call("memory_write", {"name": "deploy-day", "description": "Deploys happen on Tuesdays",
                                            "type": "project", "body": "Never on Fridays.", "scope": "team"})
            assert not r.is_error and _text(r).startswith("Candidate created: deploy-day (team)")
            r = await call("memory_list", {"include_all": True})
            assert "deploy-day" in _text(r) and "[candidate]" in _text(r)
            r = await call("memory_list", {})
            assert "deploy-day" not in _text(r)  # control: withheld from the index until approved
            r = await call("memory_status", {})
            assert "team: 0 memories" in _text(r) and "1 candidate," in _text(r)
            person = b.memory()
            (shown,) = person.review().candidates
            person.dismiss("deploy-day", "team", digest=shown.digest)
            r = await call("memory_write", {"name": "deploy-day", "description": "Deploys happen on Tuesdays",
                                            "type": "project", "body": "Never on Fridays.", "scope": "team"})
            assert not r.is_error and _text(r).startswith("Not proposed: deploy-day (team); a person dismissed")
            assert "dismissed this exact proposal" in _text(r) and "waits for" not in _text(r)
            r = await call("memory_write", {"name": "deploy-day", "description": "Deploys happen on Wednesdays",
                                            "type": "project", "body": "Never on Fridays.", "scope": "team"})
            assert _text(r).startswith("Candidate created: deploy-day (team)")  # control: a new proposal

    anyio.run(main)
