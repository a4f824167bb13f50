"""A body the prompt hook's recall block gave the agent counts as a read (issue 28 leftovers; DESIGN §4: index order
uses the days since the later of the last read and the last update). The prompt hook only records the giving in
the session's record (:mod:`memdir.prompt.recalled`, no YAML, no usage file); the session's end counts it
(:func:`memdir.integrations.claude_code.moments.count_given`), once, by the rule a ``memory_read`` counts by.

Real hooks in this process (``hooks.run``), real files, a real index and a real session record."""

from __future__ import annotations

import io
import json

import pytest

from memdir.integrations.claude_code import hooks
from memdir.layer.journal import now_utc
from memdir.prompt import recalled
from memdir.session import open_session
from memdir.tools.handlers import run_tool
from tests.integrations.claude_code.conftest import BODY, PROMPT, STYLE


def _event(project, event: str, session_id: str, client: str = "claude-code", **fields) -> str:
    payload = {"cwd": str(project), "hook_event_name": event, "session_id": session_id, **fields}
    try:
        return hooks.run(event, stdin=io.StringIO(json.dumps(payload)), client=client)
    except hooks.HookSkip as skip:  # no transcript to queue: said after the count
        return f"skip: {skip}"


def _prompt(project, session_id: str, prompt: str = PROMPT, client: str = "claude-code") -> str:
    event = "BeforeAgent" if client == "gemini" else "UserPromptSubmit"
    out = _event(project, event, session_id, client, prompt=prompt)
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""


def _usage(project) -> dict:
    """name -> (reads, last read) as the project layer records them."""
    return dict(open_session(project=project, use_cwd=False).layer("project").usage.counts())


def _usage_file(project):
    return open_session(project=project, use_cwd=False).layer("project").usage.path


@pytest.mark.parametrize("client, end", [("claude-code", "SessionEnd"), ("codex", "Stop"), ("gemini", "SessionEnd")])
def test_a_recalled_body_counts_as_one_read_at_the_sessions_end(store, project, client, end):
    assert BODY in _prompt(project, "s-1", client=client)
    assert _usage(project) == {}  # the prompt hook wrote no usage
    assert not _usage_file(project).exists()
    assert recalled.shown(store.session.home, "s-1", store.session.root_path)  # control: it recorded what it gave
    _event(project, end, "s-1", client)
    reads, last = _usage(project)["db-port"]
    assert reads == 1 and last.date() == now_utc().date()
    assert "style" not in _usage(project)  # control: a memory recall did not give is not counted
    _event(project, end, "s-1", client)  # a second end (Codex: every turn) counts nothing again
    assert _usage(project)["db-port"][0] == 1


def test_a_named_body_is_not_counted_again_and_each_giving_counts(store, project):
    assert BODY in _prompt(project, "s-1")
    assert BODY not in _prompt(project, "s-1")  # only named the second time: not given, not a read
    _event(project, "PreCompact", "s-1")  # a compaction counts the givings so far, then clears the record
    assert _usage(project)["db-port"][0] == 1
    assert BODY in _prompt(project, "s-1")  # given again after the compaction
    _event(project, "SessionEnd", "s-1")
    assert _usage(project)["db-port"][0] == 2


def test_a_body_the_agent_read_through_the_tool_is_counted_by_that_read_alone(store, project):
    session = open_session(project=project, session_id=None, use_cwd=False)
    output = run_tool(session, "memory_read", {"name": "db-port"})
    assert not output.is_error
    assert _usage(project)["db-port"][0] == 1  # the tool's read counted
    payload = {"tool_name": "mcp__memdir__memory_read", "tool_input": {"name": "db-port"},
               "tool_response": [{"type": "text", "text": output.text}]}
    reads_now = 1
    assert _event(project, "PostToolUse", "s-1", **payload) == ""
    assert BODY not in _prompt(project, "s-1")  # named only: the conversation holds it
    assert STYLE in _prompt(project, "s-1", "should I indent with tabs?")  # control: given by recall
    _event(project, "SessionEnd", "s-1")
    usage = _usage(project)
    assert usage["db-port"][0] == reads_now and usage["style"][0] == 1


def test_a_clear_keeps_the_givings_not_yet_counted(isolated_home):
    recalled.record(isolated_home, "s-1", {"project/db-port": ("a" * 16, "b" * 16)}, project=None, unread=True)
    recalled.record(isolated_home, "s-1", {"project/db-port": ("c" * 16, "d" * 16)}, project=None, unread=True)
    recalled.record(isolated_home, "s-1", {"project/style": ("e" * 16, "f" * 16)}, project=None)  # a tool's: no read to count
    recalled.clear(isolated_home, "s-1", None)
    assert recalled.shown(isolated_home, "s-1", None) == {}  # cleared: recall may give the bodies again
    assert recalled.take_unread(isolated_home, "s-1", None) == {"project/db-port": 2}
    assert recalled.take_unread(isolated_home, "s-1", None) == {}  # taken once
    assert recalled.take_unread(isolated_home, "s-2", None) == {}  # control: another session has none
