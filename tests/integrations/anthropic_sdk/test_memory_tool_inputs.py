"""The memory tool's commands with hostile arguments, as the anthropic SDK's tool runner hands them
over (``tool.call(tool_use.input)``, the input as the API sent it): every argument of every command
is read as its JSON type by memdir's one rule for tool arguments (``memdir.tools.specs.as_json_type``: the
SDK's own model would read ``true`` as line number 1; a quoted number is read as that number, as every
MCP tool argument is), and an error names the path as it was given, control characters shown, never
stripped."""

from __future__ import annotations

import pytest

anthropic = pytest.importorskip("anthropic", reason="the anthropic extra is not installed (pip install memdir[anthropic])")

from anthropic.lib.tools import ToolError  # noqa: E402

from memdir.integrations.anthropic_sdk.memory_tool import (  # noqa: E402
    AsyncMemdirMemoryTool,
    MemdirMemoryTool,
)
from tests.messages_server import MessagesServer  # noqa: E402

PATH = "/memories/project/notes.md"


def _call(tool, command: dict) -> tuple[bool, str]:
    try:
        return False, tool.call(command)
    except ToolError as exc:
        return True, str(exc)


@pytest.fixture
def tool(mem):
    tool = MemdirMemoryTool(mem)
    created = _call(tool, {"command": "create", "path": PATH, "file_text": "# Notes\nline two\nline three\n"})
    assert (created[0], created[1].splitlines()[0]) == (False, f"File created successfully at: {PATH}")
    return tool


def test_a_nul_in_a_path_is_named_as_given(tool):
    assert _call(tool, {"command": "view", "path": "/memories/project/no\x00tes.md"}) == (
        True, "Path /memories/project/no\\x00tes.md is not a path inside /memories")
    assert _call(tool, {"command": "view", "path": "/memories/project/notes.md\x00"}) == (
        True, "Path /memories/project/notes.md\\x00 is not a path inside /memories")
    # control: the same path without the NUL is read
    ok, text = _call(tool, {"command": "view", "path": PATH})
    assert not ok and text.splitlines()[1:] == ["     1\t# Notes", "     2\tline two", "     3\tline three"]


@pytest.mark.parametrize("path, shown", [
    ("/memories/project/a\nb.md", "memory name must not contain control characters or line breaks "
                                   "(got 'a\\nb')"),
    ("/memories/project/a.md\n", "The path /memories/project/a.md\\n is not a memory"),
    ("/memories/pro\x1b[31mject/x.md", "/memories/pro\\x1b[31mject/x.md"),
    ("/memories/project/\u202egnp.md/x", "/memories/project/\\u202egnp.md/x"),
    ("/etc/pass\x00wd", "/etc/pass\\x00wd"),
])
def test_control_characters_in_a_path_are_shown_in_the_error(tool, path, shown):
    failed, text = _call(tool, {"command": "view", "path": path})
    assert failed and shown in text, text
    assert "\n" not in text and "\x1b" not in text and "\u202e" not in text


@pytest.mark.parametrize("span", [[True, 2], [1, False], ["one", "2"], [1.5, 2], [1, "2.0"], [1, None], "1,2",
                                  [1, 2, 3], [1], {"start": 1}])
def test_view_range_takes_two_integers_only(tool, span):
    assert _call(tool, {"command": "view", "path": PATH, "view_range": span}) == (
        True, "view_range must be two line numbers [start, end] (end -1: to the last line), "
              f"got {span!r}".replace("\n", ""))


@pytest.mark.parametrize("span", [[2, -1], ["2", "-1"], [2.0, -1]])
def test_view_range_of_integers_is_read(tool, span):  # the control of the refusals above
    assert _call(tool, {"command": "view", "path": PATH, "view_range": span}) == (
        False, f"Here's the content of {PATH} with line numbers:\n     2\tline two\n     3\tline three")
    assert _call(tool, {"command": "view", "path": PATH, "view_range": [1, 1]})[1].endswith("     1\t# Notes")


ARGUMENTS = {  # command → (a valid command, {argument: JSON type})
    "view": ({"path": PATH}, {"path": "text"}),
    "create": ({"path": "/memories/project/new.md", "file_text": "New note"}, {"path": "text", "file_text": "text"}),
    "str_replace": ({"path": PATH, "old_str": "line two", "new_str": "line 2"},
                    {"path": "text", "old_str": "text", "new_str": "text"}),
    "insert": ({"path": PATH, "insert_line": 1, "insert_text": "inserted"},
               {"path": "text", "insert_line": "an integer", "insert_text": "text"}),
    "delete": ({"path": PATH}, {"path": "text"}),
    "rename": ({"old_path": PATH, "new_path": "/memories/project/renamed.md"}, {"old_path": "text", "new_path": "text"}),
}
WRONG = {"text": [5, True, None, ["/memories"], {"p": 1}], "an integer": [True, False, "one", 1.5, None, [1]]}


@pytest.mark.parametrize("command", ARGUMENTS)
def test_every_argument_of_every_command_has_its_json_type(tool, mem, command):
    valid, kinds = ARGUMENTS[command]
    for key, kind in kinds.items():
        for value in WRONG[kind]:
            sent = {"command": command, **valid, key: value}
            if value is None:
                del sent[key]
                want = f"{command}: {key} is required ({kind})"
            else:
                want = f"{command}: {key} must be {kind}, got {type(value).__name__}"
            assert _call(tool, sent) == (True, want), (key, value)
    assert [m.name for m in mem.list().memories] == ["notes"]  # nothing was changed by a refusal
    failed, text = _call(tool, {"command": command, **valid})  # control: the valid command runs
    assert not failed, text


@pytest.mark.parametrize("sent, want", [
    ("view", "the memory tool's input must be a JSON object, got str"),
    (["view"], "the memory tool's input must be a JSON object, got list"),
    ({"command": 5, "path": PATH}, "unknown memory tool command 5; the commands are view, create, str_replace, "
                                   "insert, delete, rename"),
    ({"command": "VIEW", "path": PATH}, "unknown memory tool command 'VIEW'; the commands are view, create, "
                                        "str_replace, insert, delete, rename"),
    ({"path": PATH}, "unknown memory tool command None; the commands are view, create, str_replace, insert, "
                     "delete, rename"),
])
def test_a_malformed_command_is_a_tool_error(tool, sent, want):
    assert _call(tool, sent) == (True, want)


@pytest.mark.slow
def test_the_runner_sends_the_refusals_back_and_the_async_tool_agrees(mem):
    import asyncio

    calls = [{"command": "create", "path": PATH, "file_text": "# Notes\nline two\n"},
             {"command": "insert", "path": PATH, "insert_line": True, "insert_text": "by a bool"},
             {"command": "view", "path": PATH, "view_range": [True, 2]},
             {"command": "view", "path": "/memories/project/no\x00tes.md"},
             {"command": "view", "path": PATH}]
    with MessagesServer() as server:
        server.replies += [[{"type": "tool_use", "name": "memory", "input": c}] for c in calls] + ["done"]
        client = anthropic.Anthropic(base_url=server.url, api_key="dummy", max_retries=0)
        client.beta.messages.tool_runner(model="claude-test", max_tokens=256, tools=[MemdirMemoryTool(mem)],
                                         messages=[{"role": "user", "content": "notes"}]).until_done()
        results = [server.tool_results(i)[0] for i in range(1, 6)]

    def text(block):
        return block["content"] if isinstance(block["content"], str) else "".join(p["text"] for p in block["content"])

    assert [bool(r.get("is_error")) for r in results] == [False, True, True, True, False]
    assert text(results[1]) == "insert: insert_line must be an integer, got bool"
    assert text(results[2]) == ("view_range must be two line numbers [start, end] (end -1: to the last line), "
                                "got [True, 2]")
    assert text(results[3]) == "Path /memories/project/no\\x00tes.md is not a path inside /memories"
    assert text(results[4]).splitlines()[1:] == ["     1\t# Notes", "     2\tline two"]

    async def async_call():
        try:
            return await AsyncMemdirMemoryTool(mem).call({"command": "view", "path": PATH, "view_range": [1, True]})
        except ToolError as exc:
            return f"ToolError: {exc}"
    assert asyncio.run(async_call()) == ("ToolError: view_range must be two line numbers [start, end] "
                                         "(end -1: to the last line), got [1, True]")


def test_an_edit_that_changes_nothing_says_so(tool, mem):
    assert _call(tool, {"command": "insert", "path": PATH, "insert_line": 0, "insert_text": "\x00\u202e"}) == (
        False, f"The file {PATH} is unchanged: the edit left its text as it was.\n"
               "note: 2 control or bidi character(s) removed from the body")
    assert _call(tool, {"command": "str_replace", "path": PATH, "old_str": "line two", "new_str": "line two"}) == (
        False, f"The file {PATH} is unchanged: the edit left its text as it was.")
    assert [v.action for v in mem.history("notes").versions] == ["create"]
    assert _call(tool, {"command": "insert", "path": PATH, "insert_line": 0, "insert_text": "top"}) == (
        False, f"The file {PATH} has been edited.")  # control
    assert [v.action for v in mem.history("notes").versions] == ["create", "update"]
