"""A name that normalizes to another memory's file never reaches that memory
(issue 10, trial item 3): read, delete, forget, history, restore, pin and mute
look names up by one rule (:func:`memdir.operations.lookup.find` with
:func:`memdir.text.names.same_name`), on the API, the CLI and the MCP tools."""

from __future__ import annotations

import re

import anyio
import pytest
from mcp import Client

from memdir import Memory
from memdir.errors import Conflict, NotFound
from memdir.integrations.mcp.server import MemoryServer, build_server
from tests.conftest import run_cli

OTHER = "its file name 'c-tips' belongs to the memory 'C++ tips' (c-tips), which is another name"


@pytest.fixture
def cpp(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("C++ tips", "Use RAII for every resource", "project", "destructors free")
    with pytest.raises(Conflict):
        mem.write("C# tips", "Use LINQ for queries", "project")
    return mem


@pytest.mark.parametrize("op", ["read", "delete", "forget", "history", "pin", "mute"])
def test_the_colliding_spelling_is_not_found_and_the_memory_is_untouched(cpp, op):
    seen = len(cpp.session.layer("project").journal.events())
    with pytest.raises(NotFound, match=re.escape(OTHER)):
        getattr(cpp, op)("C# tips")
    assert len(cpp.session.layer("project").journal.events()) == seen
    assert cpp.session.layer("project").tombstones() == []
    # Control: each spelling of the memory itself still reaches it.
    for spelled in ("C++ tips", "c-tips", "c++ Tips"):
        assert cpp.read(spelled, count=False).record.description == "Use RAII for every resource"


def test_restore_by_the_colliding_spelling_is_refused_and_by_its_own_name_works(cpp):
    cpp.write("c-tips", "Use RAII and smart pointers", "project", "destructors free")
    with pytest.raises(NotFound, match=re.escape(OTHER)):
        cpp.restore("C# tips", 1)
    assert cpp.restore("C++ tips", 1).operation == "updated"
    assert cpp.read("c-tips", count=False).record.description == "Use RAII for every resource"


@pytest.mark.slow
def test_cli_delete_of_the_colliding_name_fails_and_keeps_the_memory(cpp, project):
    out = run_cli("--project", project, "delete", "C# tips")
    assert out.returncode != 0 and OTHER in out.stderr
    assert run_cli("--project", project, "read", "C# tips").returncode != 0
    assert "Use RAII for every resource" in run_cli("--project", project, "read", "C++ tips").stdout
    assert run_cli("--project", project, "delete", "C++ tips").returncode == 0  # control
    assert cpp.list().memories == ()


def test_mcp_memory_delete_of_the_colliding_name_is_an_error(cpp, isolated_home, project):
    state = MemoryServer(home=isolated_home, project=project)

    async def main():
        async with Client(build_server(state)) as client:
            r = await client.call_tool("memory_delete", {"name": "C# tips"})
            assert r.is_error and OTHER in r.content[0].text
            r = await client.call_tool("memory_read", {"name": "C++ tips"})  # control
            assert not r.is_error and "Use RAII for every resource" in r.content[0].text

    anyio.run(main)
    assert [m.name for m in cpp.list().memories] == ["c-tips"]
