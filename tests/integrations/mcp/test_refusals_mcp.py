"""Through the real MCP SDK client: the agent's memory_write of an exact copy of another memory is refused
naming it (a near-but-different one is written), and memory_status lists the copies a person made; a value
a person rejected for the team is refused naming a tombstone `memdir tombstones` lists, and once
`memdir tombstone lift ID` lifted it the same write goes through (issue 24 §2, §5)."""

from __future__ import annotations

import re

import anyio
import pytest
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli
from tests.teamgit import shared_repository


def _text(result) -> str:
    return result.content[0].text


@pytest.mark.slow
def test_an_exact_copy_is_refused_naming_the_memory_and_status_lists_a_persons_copy(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    person.write("editor", "Prefers tabs", "user", "Tabs, width 4.")
    state = MemoryServer(home=isolated_home, project=project)
    copy = {"name": "pg-port", "description": "Dev PostgreSQL listens on 5433", "type": "project",
            "body": "Moved from 5432."}

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_write", copy)
            assert r.is_error and "memory 'db-port' (project) already holds this description and body" in _text(r)
            r = await client.call_tool("memory_write", {"name": "indent", "description": "Prefers tabs",
                                                        "type": "project", "body": "Tabs, width 4."})
            assert r.is_error and "memory 'editor' (user) already holds" in _text(r)  # another layer's
            r = await client.call_tool("memory_write", {**copy, "body": "Moved from 5432 in November."})
            assert not r.is_error and _text(r).startswith("Memory created: pg-port (project)")  # control
            r = await client.call_tool("memory_status", {})
            assert "duplicates:" not in _text(r)  # control for the listing below
            person.write("tabs", "Prefers tabs", "project", "Tabs, width 4.")  # a person's copy: warned, written
            r = await client.call_tool("memory_status", {})
            assert "duplicates: user:editor = project:tabs (the same description and body)" in _text(r)

    anyio.run(main)


@pytest.mark.slow
def test_a_value_rejected_for_the_team_is_refused_naming_a_listed_tombstone_that_lift_lets_through(tmp_path):
    _, b = shared_repository(tmp_path)
    cli = ("--home", b.home, "--project", b.root)
    proposal = {"name": "freeze", "description": "Merge freeze all of December", "type": "project",
                "body": "No merges to main.", "scope": "team"}

    async def write(arguments):
        async with Client(build_server(MemoryServer(home=b.home, project=b.root))) as client:
            r = await client.call_tool("memory_write", arguments)
            return r.is_error, _text(r)

    failed, text = anyio.run(write, proposal)
    assert not failed and text.startswith("Candidate created: freeze (team)")
    rejected = run_cli(*cli, "reject", "freeze", "--scope", "team")
    assert rejected.returncode == 0, rejected.stderr
    failed, text = anyio.run(write, proposal)
    assert failed and "matches a forgotten value" in text
    (stone,) = re.findall(r"tombstone (t-[0-9a-f]+)", text)
    assert f"memdir tombstone lift {stone}" in text
    listed = run_cli(*cli, "tombstones")
    assert listed.returncode == 0 and listed.stdout.startswith(f"{stone}  team (your rejections, in your home) freeze")
    failed, text = anyio.run(write, {**proposal, "name": "deploys", "description": "Deploys run on Tuesdays"})
    assert not failed, text  # control: another value is proposed while the tombstone stands
    lifted = run_cli(*cli, "tombstone", "lift", stone)
    assert lifted.returncode == 0, lifted.stderr
    assert stone not in run_cli(*cli, "tombstones").stdout
    failed, text = anyio.run(write, proposal)
    assert not failed and text.startswith("Candidate created: freeze (team)"), text
