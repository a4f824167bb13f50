"""Over a real ``memdir mcp`` server (the SDK's client over stdio): a line of a hand-edited body holding a zero-width
space, copied from ``memory_read``, is what ``memory_edit`` replaces (break39; the rule: memdir.gateway.edits)."""

from __future__ import annotations

import os
import sys

import anyio
import pytest
from mcp import Client, StdioServerParameters

from memdir import Memory

pytestmark = pytest.mark.slow  # a real server process


def test_memory_edit_of_a_line_copied_from_memory_read(isolated_home, project):
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("notes", "Notes", "project", "x")
    path = next((isolated_home / "projects").iterdir()) / "notes.md"
    path.write_text("---\nname: notes\ndescription: Notes\ntype: project\n---\nport\u200b 5432 on db1\nhost db1\n",
                    encoding="utf-8")
    params = StdioServerParameters(command=sys.executable, args=["-m", "memdir.cli", "mcp"],
                                   env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"), cwd=str(project))

    async def main():
        async with Client(params, mode="legacy") as client:
            shown = (await client.call_tool("memory_read", {"name": "notes"})).content[0].text
            line = next(line for line in shown.splitlines() if "5432" in line)
            edited = await client.call_tool("memory_edit", {"name": "notes", "mode": "str_replace", "old_str": line,
                                                            "new_str": "> port 5433 on db1"})
            absent = await client.call_tool("memory_edit", {"name": "notes", "mode": "str_replace",
                                                            "old_str": "> port 9999", "new_str": "x"})
            return line, edited, absent

    line, edited, absent = anyio.run(main)
    assert line == "> port 5432 on db1"  # the zero-width space is not shown
    assert not edited.is_error, edited.content[0].text
    assert person.read("notes", count=False).record.body == "port 5433 on db1\nhost db1"
    # control: text the body does not show is refused, as before
    assert absent.is_error and absent.content[0].text == \
        "Error: no replacement was made: the old text does not appear verbatim in 'notes'"
