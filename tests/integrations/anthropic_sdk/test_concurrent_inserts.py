"""Many inserts at once through one memory tool (the SDK's async runner runs each command in a worker thread).

Before, an edit read the body, made the insert and wrote under compare-and-set, up to three reads: 40 inserts
at once through one tool lost 1-2 of them to "changed since it was read" (said, not silent, but the model's text
not saved). Now the last attempt reads and writes holding the layer's lock (memdir.gateway.edits.edit): every
insert lands, each at its line of the body as it is when it is made, as if the commands had come one by one.
"""

from __future__ import annotations

import asyncio

import pytest

anthropic = pytest.importorskip("anthropic", reason="the anthropic extra is not installed (pip install memdir[anthropic])")

from anthropic.lib.tools import ToolError  # noqa: E402

from memdir.integrations.anthropic_sdk.memory_tool import AsyncMemdirMemoryTool, MemdirMemoryTool  # noqa: E402

PATH = "/memories/project/notes.md"


@pytest.mark.slow
def test_forty_inserts_at_once_through_one_tool_all_land_at_their_line(mem):
    tool = AsyncMemdirMemoryTool(mem)
    assert MemdirMemoryTool(mem).call({"command": "create", "path": PATH, "file_text": "# Notes\nline two\nline three\n"}
                                      ).splitlines()[0] == f"File created successfully at: {PATH}"
    items = [f"item-{n:02d}" for n in range(40)]

    async def insert(item: str) -> str:
        try:
            return await tool.call({"command": "insert", "path": PATH, "insert_line": 1, "insert_text": item})
        except ToolError as exc:
            return f"ToolError: {exc}"

    async def all_at_once() -> list[str]:
        return await asyncio.gather(*(insert(item) for item in items))

    said = asyncio.run(all_at_once())
    assert said == [f"The file {PATH} has been edited."] * 40
    lines = mem.read("notes").record.body.split("\n")
    # Each after line 1 of the body as it was then: the 40 together, after the title, before the lines that were there.
    assert lines[0] == "# Notes" and lines[41:] == ["line two", "line three"]
    assert sorted(lines[1:41]) == items
    assert [v.action for v in mem.history("notes").versions] == ["create"] + ["update"] * 40


def _another_writer_between_read_and_write(monkeypatch, isolated_home, project, change) -> None:
    """The first write of the next edit finds the memory changed by another writer (a real write, through a
    session of its own) after the edit read it: the race of many writers, made to happen once, every time."""
    from memdir import BodyEdit, Memory
    from memdir.gateway import edits

    real, raced = edits.write, []

    def write(*args, **kwargs):
        if not raced:
            raced.append(change)
            Memory.open(home=isolated_home, project=project, actor="human").edit("notes", BodyEdit(**change))
        return real(*args, **kwargs)

    monkeypatch.setattr(edits, "write", write)


@pytest.mark.parametrize(("other", "said", "body"), [
    # Below the insert's line: its anchor (the lines above it) is as read: made again there, nothing lost.
    ({"old": "line three", "new": "line three, changed"}, f"The file {PATH} has been edited.",
     "# Notes\nline two\ninserted\nline three, changed"),
    # Above it: the line number would point elsewhere now: refused, said, the other writer's text kept.
    ({"line": 0, "text": "above"}, ("ToolError: memory 'notes' changed above line 2 since it was read; the insert "
                                    "was not made: view it again for its line numbers"),
     "above\n# Notes\nline two\nline three"),
])
def test_an_insert_raced_by_another_writer_lands_at_its_anchor_or_is_refused(mem, isolated_home, project, monkeypatch,
                                                                               other, said, body):
    tool = MemdirMemoryTool(mem)
    tool.call({"command": "create", "path": PATH, "file_text": "# Notes\nline two\nline three\n"})
    _another_writer_between_read_and_write(monkeypatch, isolated_home, project, other)
    try:
        answer = tool.call({"command": "insert", "path": PATH, "insert_line": 2, "insert_text": "inserted"})
    except ToolError as exc:
        answer = f"ToolError: {exc}"
    assert answer == said
    assert mem.read("notes").record.body == body
