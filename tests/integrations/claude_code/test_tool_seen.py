"""Once per session, counting what the model read or wrote itself (issue 28 item 3; trial16): after a
``memory_read`` of a whole body, or a ``memory_write`` of the body stored, the PostToolUse hook records the memory
as given in the session, so the next prompt's recall names it instead of sending the body a second time.

The hooks and the tools run in this process (``hooks.run``, ``run_tool``) on real files, a real index and a real
session record."""

from __future__ import annotations

import io
import json
import os

import pytest

from memdir.integrations.claude_code import hooks, install
from memdir.integrations.clients import codex, gemini
from memdir.session import open_session
from memdir.tools.handlers import run_tool
from tests.integrations.claude_code.conftest import BODY, PROMPT, STYLE, recalled_text

_prompt = recalled_text  # the prompt hook's recall (claude_code/conftest.py)


def _used(project, session_id: str, tool: str, arguments: dict, between=None, client: str = "claude-code") -> str:
    """Run ``tool`` as the MCP server would, then (after ``between()``, when given) the PostToolUse hook as
    ``client`` would: Claude Code (its tool name, the output as content blocks), Codex 0.171 (the input read from
    the real binary: the same tool name, the MCP result ``{"content": [...], "isError": false}`` and fields of its
    own) or Gemini CLI 0.61 (its AfterTool: ``mcp_memdir_memory_read``, ``mcp_context``, ``llmContent``); the
    hook's skip reason, or "" when it recorded."""
    session = open_session(project=project, session_id=None, use_cwd=False)  # the MCP server knows no session
    output = run_tool(session, tool, arguments)
    assert not output.is_error
    if between is not None:
        between()
    payload = {"cwd": str(project), "hook_event_name": "PostToolUse", "session_id": session_id,
               "tool_name": f"mcp__memdir__{tool}", "tool_input": arguments,
               "tool_response": [{"type": "text", "text": output.text}]}
    if client == "codex":
        payload.update(turn_id="t-1", model="gpt-5.5", permission_mode="bypassPermissions", tool_use_id="call_2",
                       tool_response={"content": [{"type": "text", "text": output.text}], "isError": False})
    if client == "gemini":  # Gemini CLI 0.61's AfterTool input, read from the real binary
        payload.update(hook_event_name="AfterTool", tool_name=f"mcp_memdir_{tool}", timestamp="2026-12-04T12:30:01Z",
                       tool_response={"llmContent": [{"text": f"<untrusted_context>\n{output.text}\n</untrusted_context>"}],
                                      "returnDisplay": output.text},
                       mcp_context={"server_name": "memdir", "tool_name": tool, "command": "python", "args": []})
    try:
        assert hooks.run(payload["hook_event_name"], stdin=io.StringIO(json.dumps(payload)), client=client) == ""
    except hooks.HookSkip as skip:
        return str(skip)
    return ""


@pytest.mark.parametrize("client", ["claude-code", "codex", "gemini"])
def test_a_memory_the_model_read_whole_is_only_named_by_recall(store, project, client):
    assert _used(project, "s-1", "memory_read", {"name": "db-port"}, client=client) == ""
    block = _prompt(project, "s-1")
    assert BODY not in block and "(given earlier in this session, unchanged: db-port" in block
    assert STYLE in _prompt(project, "s-1", "should I indent with tabs?")  # control: one it did not read
    assert BODY in _prompt(project, "s-2")  # control: another session was not told


def test_a_memory_the_model_wrote_is_only_named_and_given_again_once_changed(store, project, mem):
    written = {"name": "db-port", "description": "Dev PostgreSQL listens on 5433", "type": "project",
               "body": BODY + " Ask ops before moving it."}
    assert _used(project, "s-1", "memory_write", written) == ""
    block = _prompt(project, "s-1")
    assert "Ask ops before moving it." not in block and "unchanged: db-port" in block
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY + " Changed by someone else.")
    assert "Changed by someone else." in _prompt(project, "s-1")  # it changed: given again


def test_a_read_in_parts_or_a_write_that_kept_the_body_records_nothing(store, project):
    assert _used(project, "s-1", "memory_read", {"name": "db-port", "offset": 10}) == (
        "mcp__memdir__memory_read showed db-port in parts; recall may give it")
    assert _used(project, "s-1", "memory_write", {"name": "db-port", "description": "Dev PostgreSQL port 5433"}) == (
        "the body of db-port stored is not the one mcp__memdir__memory_write was given; recall may give it")
    assert _used(project, "s-1", "memory_search", {"query": "postgres"}) == (
        "mcp__memdir__memory_search shows no memory's body whole; recall may give it")
    assert BODY in _prompt(project, "s-1")  # none of them put the body in the conversation


def test_install_registers_the_hook_for_the_read_and_write_tools_only():
    settings = install.merge_hooks({}, python="/usr/bin/python3")
    [group] = settings["hooks"]["PostToolUse"]
    assert group["matcher"] == "mcp__memdir__memory_(read|write)"
    assert group["hooks"][0]["command"] == "/usr/bin/python3 -m memdir.hooks claude-code PostToolUse"
    assert set(settings["hooks"]) == {"SessionStart", "UserPromptSubmit", "PreCompact", "SessionEnd", "PostToolUse"}


def test_codex_install_registers_the_same_hook(tmp_path):
    """Codex 0.171 names memdir's tools as Claude Code does and takes the matcher as a regular expression (read
    from the real binary: tests/integrations/clients/test_codex_session.py runs it)."""
    codex.install("user", tmp_path / "mem", user_home=tmp_path / "user", python="/usr/bin/python3")
    settings = json.loads((tmp_path / "user" / ".codex" / "hooks.json").read_text())
    [group] = settings["hooks"]["PostToolUse"]
    assert group["matcher"] == "mcp__memdir__memory_(read|write)"
    assert group["hooks"][0] == {"type": "command", "command": "/usr/bin/python3 -m memdir.hooks codex PostToolUse",
                                 "timeout": 5}
    assert hooks.DIALECTS["codex"]["PostToolUse"] == "tool"  # control: the hook it runs is one memdir handles


def test_gemini_install_registers_after_tool_under_its_own_tool_names(tmp_path):
    """Gemini CLI 0.61 names an MCP tool mcp_SERVER_TOOL and takes the matcher as a regular expression (read
    from the real binary: tests/integrations/clients/test_gemini_session.py runs it); timeouts in milliseconds."""
    settings = gemini.merge({}, python="/usr/bin/python3")
    [group] = settings["hooks"]["AfterTool"]
    assert group["matcher"] == "mcp_memdir_memory_(read|write)"
    assert group["hooks"][0] == {"type": "command", "name": "memdir-AfterTool", "timeout": 5000,
                                 "command": "/usr/bin/python3 -m memdir.hooks gemini AfterTool"}
    assert hooks.DIALECTS["gemini"]["AfterTool"] == "tool"


def test_gemini_s_prompt_is_read_without_the_context_block_it_puts_first(store, project):
    """Gemini CLI 0.61 hands BeforeAgent the prompt with SessionStart's block before it (seen with the real
    binary): recall would search the index's descriptions and the guidance. The prompt alone recalls nothing here;
    control: a prompt that bears on a memory, after the same block, recalls it."""
    block = "<hook_context>&lt;memory_context&gt;\n- [db-port](db-port.md) — Dev PostgreSQL listens on 5433\n" \
            "- [style](style.md) — Indent with tabs\n&lt;/memory_context&gt;</hook_context>\n\n"

    def recall(prompt: str) -> str:
        payload = {"cwd": str(project), "hook_event_name": "BeforeAgent", "session_id": "g-1", "prompt": prompt}
        out = hooks.run("BeforeAgent", stdin=io.StringIO(json.dumps(payload)), client="gemini")
        return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""

    assert recall(block + "Open the first entry, please.") == ""
    given = recall(block + PROMPT)
    assert BODY in given and STYLE not in given


def test_a_read_the_memory_changed_after_records_nothing(store, project, mem):
    """break16: the hook ran after another session changed the memory; the body it would record was never shown."""
    changed = BODY + " Changed before the hook ran."
    assert _used(project, "s-1", "memory_read", {"name": "db-port"},
                 between=lambda: mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", changed)) == (
        "mcp__memdir__memory_read's output does not show the body of db-port stored now; recall may give it")
    assert changed in _prompt(project, "s-1")  # the body stored now is given
    assert _used(project, "s-2", "memory_read", {"name": "db-port"}) == ""  # control: read unchanged, recorded
    assert changed not in _prompt(project, "s-2")


LONG = "\n".join(f"行{i:03d} 依存関係は uv で固定し、pip はロックファイルを壊す。" for i in range(150))


@pytest.mark.parametrize("client", ["codex", "claude-code"])
def test_a_read_longer_than_codex_keeps_is_not_given_on_codex(store, project, person, client, monkeypatch):
    """Codex cuts the middle out of a tool output over about 12,000 bytes (its default for a model outside its
    catalog; the real binary gave the model 142 of 220 lines, break17) while its PostToolUse input holds it whole.
    memory_read now keeps an output within tool_output_max_bytes (11,900 by default, trial19), so the default never
    reaches Codex's cut; for a person who raised it to 20,000: a read of 5,399 characters (12,299 bytes; 12,599
    quoted) of body is not given on Codex, and recall gives the body again (cut to its room).
    Control: the same read on Claude Code (which keeps it) records it."""
    monkeypatch.setenv("MEMDIR_TOOL_OUTPUT_MAX_BYTES", "20000")
    person.write("uv-ja", "uv の使い方", "project", LONG)
    assert (len(LONG), len(LONG.encode())) == (5399, 12299)
    why = _used(project, "s-1", "memory_read", {"name": "uv-ja"}, client=client)
    block = _prompt(project, "s-1", "uv の使い方 依存関係")
    if client == "codex":
        assert why.endswith("'s output of uv-ja is over the 11900 bytes the client keeps whole; recall may give it")
        assert "> 行000 依存関係は uv で固定し" in block and "(given earlier in this session" not in block
    else:
        assert why == "" and "行000" not in block and "(given earlier in this session, unchanged: uv-ja" in block


@pytest.mark.parametrize("client", ["codex", "claude-code"])
def test_a_read_in_parts_is_not_given_on_any_client(store, project, person, client):
    """The default budget (11,900 bytes): the same read comes in two parts, the first of 138 lines, so no output
    shows the body whole and it is not recorded on either client; recall gives it again. Control: a read that
    fits (db-port) is recorded (test_a_memory_the_model_read_whole_is_only_named_by_recall)."""
    person.write("uv-ja", "uv の使い方", "project", LONG)
    why = _used(project, "s-1", "memory_read", {"name": "uv-ja"}, client=client)
    assert why == "mcp__memdir__memory_read showed uv-ja in parts; recall may give it"
    assert "> 行000 依存関係は uv で固定し" in _prompt(project, "s-1", "uv の使い方 依存関係")


SESSION_START_BLOCK = ("<hook_context>&lt;memory_context&gt;\n- [style](style.md) — Indent with tabs\n"
                       "&lt;/memory_context&gt;</hook_context>\n\n")


@pytest.mark.parametrize("before", ["", SESSION_START_BLOCK])
def test_a_gemini_prompt_that_opens_with_the_tag_itself_is_the_person_s(store, project, before):
    """break17: a person's own prompt opening with ``<hook_context>`` (typed, or after SessionStart's block in a
    headless first prompt) lost its text to the translation, so recall missed it. Only SessionStart's one block,
    followed by two newlines, is dropped; the person's tagged text is read: db-port is recalled. Control: the
    block with nothing after it is a prompt of nothing, and with text after it on its line it is the person's
    (its index line recalls style)."""
    def recall(prompt: str) -> str:
        payload = {"cwd": str(project), "hook_event_name": "BeforeAgent", "session_id": "g-1", "prompt": prompt}
        out = hooks.run("BeforeAgent", stdin=io.StringIO(json.dumps(payload)), client="gemini")
        return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""

    given = recall(f"{before}<hook_context>{PROMPT}</hook_context> answer briefly")
    assert BODY in given and STYLE not in given
    if before:
        assert recall(before.rstrip("\n")) == ""
        assert STYLE in recall(before.rstrip("\n") + " answer briefly")  # not SessionStart's: kept, and read


@pytest.mark.parametrize("client, event, tool", [("gemini", "AfterTool", "mcp_memdir_memory_write"),
                                                 ("claude-code", "PostToolUse", "mcp__memdir__memory_write")])
def test_a_write_without_a_body_of_a_memory_without_one_says_nothing(store, project, client, event, tool):
    """trial28: Gemini CLI shows a hook's stderr to the person ("Hook system message: …"), and each memory_write
    of a description alone (a memory without a body) made memdir's AfterTool hook say "the body of web-e2e stored
    is not the one … was given; recall may give it" — though recall never gives a memory without a body. The real
    hook process now records it and says nothing; control: a description-only update of a memory that has a body
    (the body is not in the conversation) still says so."""
    import subprocess
    import sys

    session = open_session(project=project, session_id=None, use_cwd=False)

    def hook(arguments: dict, **env) -> subprocess.CompletedProcess:
        output = run_tool(session, "memory_write", arguments)
        assert not output.is_error, output.text
        payload = {"cwd": str(project), "hook_event_name": event, "session_id": "s-1", "tool_name": tool,
                   "tool_input": arguments, "tool_response": [{"type": "text", "text": output.text}]}
        if client == "gemini":  # Gemini CLI 0.61's AfterTool input, as _used gives it
            payload.update(mcp_context={"server_name": "memdir", "tool_name": "memory_write", "command": "python",
                                        "args": []})
        return subprocess.run([sys.executable, "-m", "memdir.hooks", client, event], input=json.dumps(payload),
                              capture_output=True, text=True, timeout=60, env={**os.environ, **env})

    done = hook({"name": "web-e2e", "type": "project", "description": "E2E tests run with Playwright: pnpm e2e"})
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    kept = hook({"name": "db-port", "description": "Dev PostgreSQL listens on 5433 (not 5432)"})
    # a routine skip (nothing wrong) is said only when asked (left29: Gemini CLI shows every stderr line)
    assert (kept.returncode, kept.stdout, kept.stderr) == (0, "", "")
    said = hook({"name": "db-port", "description": "Dev PostgreSQL listens on 5433 (not 5432)"},
                MEMDIR_LOG_LEVEL="info")
    assert said.stderr == (f"memdir hook {event}: the body of db-port stored is not the one "
                           "mcp__memdir__memory_write was given; "
                           "recall may give it\n")
    assert BODY in _prompt(project, "s-1")  # the kept body was never in the conversation: recall gives it
