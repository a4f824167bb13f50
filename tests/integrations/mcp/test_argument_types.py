"""One rule for the types of every MCP tool argument (``memdir.tools.specs.as_json_type``): the tool's JSON
schema's type, with a scalar a model quoted read as what it says — ``"5"`` is 5 and ``"true"`` is true (once the
first was read and the second refused); a boolean is never a number nor a number a boolean. A refusal names the
tool, the argument, the type wanted and the type sent. Driven through the SDK's in-memory client."""

from __future__ import annotations

import anyio
import pytest
from mcp import Client

from memdir.integrations.mcp.server import MemoryServer, build_server
from memdir.settings import Settings
from memdir.tools.specs import tool_specs

# A valid value of each required argument, so only the argument under test can be wrong.
REQUIRED = {"name": "db-port", "query": "port", "older_than_days": 400, "version": 1, "mode": "insert",
            "insert_line": 0, "insert_text": "more", "confirm": False}
RIGHT = {"integer": 1, "boolean": False, "string": "x", "version": 1}


def _kind(prop: dict) -> str:
    """The JSON type an argument's schema names; ``version`` for a version number (an integer or "v3":
    ``memdir.layer.history.version_number`` reads it, the one rule for every path that takes a version)."""
    return prop.get("type") or ("version" if {"integer", "string"} == {a["type"] for a in prop["anyOf"]} else "?")


def _wrong(kind: str, key: str, spec_name: str) -> list[tuple[object, str]]:
    """(value sent, the error's end) for each wrong value of an argument of JSON type ``kind``."""
    if kind == "version":
        said = "Error: a version is a number the memory's history lists, as 3 or v3 (got "
        return [(v, f"{said}{v!r})") for v in ("one", "1_0", "v-1", "\u0665", True, 1.5, [1])]
    head = f"Error: {spec_name}: {key!r} must be {'an integer' if kind == 'integer' else 'a ' + kind}, got "
    if kind == "integer":
        return [("one", head + "str"), ("1_0", head + "str"), ("\u0665", head + "str"), (True, head + "bool"),
                (1.5, head + "float"), ([1], head + "list")]
    if kind == "boolean":
        return [("yes", head + "str"), ("1", head + "str"), (1, head + "int"),
                (0, head + "int"), ({"v": True}, head + "dict")]
    return [(5, head + "int"), (True, head + "bool"), (["x"], head + "list")]


def _cases():
    for spec in tool_specs(Settings()):
        for key, prop in spec.schema["properties"].items():
            for value, error in _wrong(_kind(prop), key, spec.name):
                yield spec.name, key, prop, value, error


CASES = list(_cases())


def test_every_argument_of_every_tool_is_covered():
    covered = {(tool, key) for tool, key, *_ in CASES}
    every = {(spec.name, key) for spec in tool_specs(Settings()) for key in spec.schema["properties"]}
    assert covered == every and len(every) == 47
    kinds = {_kind(prop) for _, _, prop, _, _ in CASES}
    assert kinds == {"integer", "boolean", "string", "version"}


def test_wrong_json_types_are_refused_by_name_and_right_ones_pass(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")

    async def main():
        out = []
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            for tool, key, prop, value, error in CASES:
                args = {k: v for k, v in REQUIRED.items()
                        if k in next(s for s in tool_specs(Settings()) if s.name == tool).schema["required"]}
                wrong = await client.call_tool(tool, {**args, key: value})
                right_value = prop["enum"][0] if "enum" in prop else REQUIRED.get(key, RIGHT[_kind(prop)])
                right = await client.call_tool(tool, {**args, key: right_value})
                out.append((tool, key, value, error, wrong.is_error, wrong.content[0].text, right.content[0].text))
        return out

    for tool, key, value, error, is_error, text, control in anyio.run(main):
        assert (is_error, text) == (True, error), (tool, key, value)
        assert f"{key!r} must be" not in control, (tool, key, control)  # control: the right type is taken


def test_a_refused_write_writes_nothing_and_a_quoted_scalar_is_read(isolated_home, project, mem):
    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            args = {"name": "fresh", "description": "A fresh note", "type": "project", "body": "text"}
            refused = await client.call_tool("memory_write", {**args, "pinned": "yes"})
            absent = [m.name for m in mem.list().memories]
            written = await client.call_tool("memory_write", {**args, "pinned": "True"})  # control: read as true
            return refused, absent, written

    refused, absent, written = anyio.run(main)
    assert (refused.is_error, refused.content[0].text) == (
        True, "Error: memory_write: 'pinned' must be a boolean, got str")
    assert absent == []
    assert (written.is_error, written.content[0].text) == (False, "Memory created: fresh (project, pinned)")
    assert [(m.name, m.pinned) for m in mem.list().memories] == [("fresh", True)]


@pytest.mark.parametrize("value", [2, 2.0, 100.0, "2", " 100 "])
def test_an_integral_json_number_is_an_integer_as_json_schema_says(isolated_home, project, person, value):
    for n in range(3):
        person.write(f"note-{n}", f"Note number {n}", "project", "body")

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            return await client.call_tool("memory_list", {"limit": value})

    r = anyio.run(main)
    shown = min(int(value), 3)  # "2" is 2: a quoted number is that number
    assert not r.is_error and r.content[0].text.splitlines()[0] == f"Memories 1–{shown} of 3:"
    assert r.content[0].text.count("\n- note-") == shown


def test_null_is_an_argument_left_out(isolated_home, project, person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            kept = await client.call_tool("memory_write", {"name": "db-port", "body": None, "pinned": None,
                                                           "description": "Dev PostgreSQL listens on 5434"})
            read = await client.call_tool("memory_read", {"name": "db-port", "offset": None})
            missing = await client.call_tool("memory_read", {"name": None})
            return kept, read, missing

    kept, read, missing = anyio.run(main)
    assert (kept.is_error, kept.content[0].text) == (False, "Memory updated: db-port (project)")
    assert "description: Dev PostgreSQL listens on 5434" in read.content[0].text
    assert "> Moved on 2026-11-02." in read.content[0].text  # the body left out (null) was kept
    assert (missing.is_error, missing.content[0].text) == (True, "Error: memory_read: missing required argument 'name'")


def test_an_edit_that_changes_nothing_does_not_say_a_line_changed(isolated_home, project, mem):
    mem.write("notes", "Notes", "project", "line one\nline two")

    async def main():
        async with Client(build_server(MemoryServer(home=isolated_home, project=project))) as client:
            same = await client.call_tool("memory_edit", {"name": "notes", "mode": "insert", "insert_line": 0,
                                                          "insert_text": "\x00\u202e"})
            real = await client.call_tool("memory_edit", {"name": "notes", "mode": "insert", "insert_line": 0,
                                                          "insert_text": "line zero"})
            return same.content[0].text, real.content[0].text

    same, real = anyio.run(main)
    assert same == ("Memory unchanged: notes (project)\n"
                    "warning: 2 control or bidi character(s) removed from the body")
    assert real == ("Memory updated: notes (project)\n"
                    "The body changed from line 1; memory_read shows it whole.")  # control
