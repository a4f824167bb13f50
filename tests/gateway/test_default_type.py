"""A new memory written without a type gets its layer's (:func:`memdir.vocabulary.default_type`): ``user`` in
the user layer, ``project`` elsewhere — one rule, the gateway's, on every path. Before, ``memdir write`` and
``memory_write`` gave ``project`` even in the user layer while the memory tool's ``create`` under
/memories/user gave ``user`` (tools41). Each adapter: the CLI as a real subprocess, the MCP server through the
SDK's in-memory client, the memory tool; each with a project-layer control in the same setup."""

from __future__ import annotations

import json

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.tools.memory_directory import run
from memdir.vocabulary import default_type
from tests.conftest import run_cli


def test_the_rule():
    assert [default_type(scope) for scope in ("user", "team", "project")] == ["user", "project", "project"]


def _types(home, project) -> dict[str, tuple[str, str]]:
    person = Memory.open(home=home, project=project, actor="human", search_vectors="off")
    return {m.name: (m.scope, m.type) for m in person.list().memories}


@pytest.mark.slow
def test_cli_write_without_a_type_in_the_user_layer_is_user(isolated_home, project):
    out = run_cli("--project", project, "write", "tea", "-d", "Drinks green tea", "--scope", "user")
    assert out.returncode == 0 and out.stdout.strip() == "Memory created: tea (user)", out.stderr
    control = run_cli("--project", project, "write", "deploy-day", "-d", "Deploys go out on Tuesdays")
    assert control.returncode == 0 and control.stdout.strip() == "Memory created: deploy-day (project)"
    read = json.loads(run_cli("--project", project, "read", "tea", "--json").stdout)
    assert (read["scope"], read["type"]) == ("user", "user")
    assert _types(isolated_home, project) == {"tea": ("user", "user"), "deploy-day": ("project", "project")}


def test_mcp_memory_write_without_a_type_in_the_user_layer_is_user(isolated_home, project):
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            mine = await client.call_tool("memory_write", {"name": "tea", "description": "Drinks green tea",
                                                           "scope": "user"})
            assert not mine.is_error and mine.content[0].text == "Memory created: tea (user)"
            here = await client.call_tool("memory_write", {"name": "deploy-day",
                                                           "description": "Deploys go out on Tuesdays"})
            assert not here.is_error and here.content[0].text == "Memory created: deploy-day (project)"
            read = await client.call_tool("memory_read", {"name": "tea"})
            assert "type: user" in read.content[0].text

    anyio.run(main)
    assert _types(isolated_home, project) == {"tea": ("user", "user"), "deploy-day": ("project", "project")}


def test_memory_tool_create_without_a_type_in_the_user_layer_is_user(mem, isolated_home, project):
    for path, text in (("/memories/user/tea.md", "Drinks green tea"), ("/memories/project/deploy-day.md",
                                                                        "Deploys go out on Tuesdays")):
        told = run(mem.session, {"command": "create", "path": path, "file_text": text})
        assert not told.is_error and told.text.startswith(f"File created successfully at: {path}\n")
    assert _types(isolated_home, project) == {"tea": ("user", "user"), "deploy-day": ("project", "project")}


def test_api_and_an_update_keep_the_rule(mem, isolated_home, project):
    """The facade too; and an update without a type keeps the memory's, in either layer."""
    assert mem.write("tea", "Drinks green tea", scope="user").scope == "user"
    mem.write("deploy-day", "Deploys go out on Tuesdays")
    mem.write("tea", "Drinks green tea, no sugar", scope="user")  # no type: kept
    mem.write("deploy-day", "Deploys go out on Thursdays")
    assert _types(isolated_home, project) == {"tea": ("user", "user"), "deploy-day": ("project", "project")}
