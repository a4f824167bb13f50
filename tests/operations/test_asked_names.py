"""A "not found" names the memory as it was asked and, where that differs, what it was read as
(text.names.asked_name), on every path: the CLI, the API, the tools (MCP's handlers), a rename,
a supersede, a deleted memory. A name asked as it is stored is named alone."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from memdir.errors import NotFound
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.text.names import asked_name
from tests.conftest import run_cli


def test_asked_name_rule():
    assert asked_name("Deploy Notes") == '"Deploy Notes" (read as "deploy-notes")'
    assert asked_name("deploy-notes.md") == '"deploy-notes.md" (read as "deploy-notes")'
    assert asked_name("部署流程") == '"部署流程" (read as "m-c3f8ff75a0")'
    assert asked_name("deploy\u200bnotes") == '"deploy\\u200bnotes" (read as "deploynotes")'  # the hidden one shown
    assert asked_name("  deploy-notes ") == '"deploy-notes"'  # control: asked as stored, named alone


def test_cli_read_names_what_was_typed(project, mem):
    mem.write("other-note", description="something else")
    typed = run_cli("--project", project, "read", "Deploy Notes")
    assert typed.returncode == 1 and typed.stderr == (
        'memdir: memory not found: "Deploy Notes" (read as "deploy-notes") in any layer'
        " — `memdir list` shows the names\n")
    stored = run_cli("--project", project, "read", "deploy-notes")  # control: no "read as" to add
    assert stored.returncode == 1 and stored.stderr == (
        'memdir: memory not found: "deploy-notes" in any layer — `memdir list` shows the names\n')
    mem.write("deploy-notes", description="Deploys go out on Tuesdays")
    found = run_cli("--project", project, "read", "Deploy Notes")  # control: the name as typed finds it
    assert found.returncode == 0 and "Deploys go out on Tuesdays" in found.stdout


def test_every_path_says_the_same(project, mem):
    said = 'memory not found: "Deploy Notes" (read as "deploy-notes") in any layer'
    with pytest.raises(NotFound) as api:
        mem.read("Deploy Notes")
    assert str(api.value) == said
    assert mem.call_tool("memory_read", {"name": "Deploy Notes"}) == f"Error: {said} — call memory_list to see the names"
    assert mem.call_tool("memory_delete", {"name": "Deploy Notes"}).startswith(f"Error: {said}")
    with pytest.raises(NotFound, match=r'^cannot rename "Deploy Notes" \(read as "deploy-notes"\): no such memory'):
        mem.write("new-notes", rename_from="Deploy Notes")
    with pytest.raises(NotFound, match=r'^cannot supersede "Deploy Notes" \(read as "deploy-notes"\): no such'):
        mem.write("new-notes", description="d", supersedes="Deploy Notes")


def test_mcp_client_sees_the_name_as_asked(isolated_home, project):
    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as c:
            missing = await c.call_tool("memory_read", {"name": "Deploy Notes"})
            await c.call_tool("memory_write", {"name": "Deploy Notes", "description": "d", "type": "project"})
            found = await c.call_tool("memory_read", {"name": "Deploy Notes"})
            return missing, found

    missing, found = anyio.run(main)
    assert missing.is_error and missing.content[0].text.startswith(
        'Error: memory not found: "Deploy Notes" (read as "deploy-notes") in any layer')
    assert not found.is_error  # control: written and read by the same spelling


def test_a_deleted_memory_is_named_as_asked(project, mem):
    mem.write("beta-note", description="b")
    mem.delete("beta-note")
    with pytest.raises(NotFound) as gone:
        mem.read("Beta Note")
    assert str(gone.value).startswith('memory "Beta Note" (read as "beta-note") was deleted from the project layer')
    with pytest.raises(NotFound) as plain:
        mem.read("beta-note")  # control: asked as stored
    assert str(plain.value).startswith('memory "beta-note" was deleted from the project layer')
