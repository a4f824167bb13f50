"""Shared setup of the Claude Code hook tests: ``store``, the two memories a prompt's recall is checked against
(a file that needs another store defines its own), the texts the tests assert on, and :func:`recalled_text`, the
prompt hook's recall as the agent is given it."""

from __future__ import annotations

import io
import json

import pytest

BODY = "Moved from 5432 on 2026-11-02 because the system cluster took it."  # db-port's body
STYLE = "The linter enforces tabs in every file."  # style's body
PROMPT = "which port does the dev postgresql listen on?"  # recalls db-port, not style


@pytest.fixture
def store(mem):
    """``mem`` (the agent's facade on the test's home and project) after writing two memories: the project memory
    db-port ("Dev PostgreSQL listens on 5433", :data:`BODY`) and the feedback memory style ("Indent with tabs",
    :data:`STYLE`)."""
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", BODY)
    mem.write("style", "Indent with tabs", "feedback", STYLE)
    return mem


def recalled_text(project, session_id: str | None, prompt: str = PROMPT) -> str:
    """The text the UserPromptSubmit hook, run in this process (``hooks.run``), gives the agent for ``prompt`` in
    ``project`` (its ``additionalContext``), ``""`` when it gives nothing; ``session_id`` None: a payload without
    one."""
    from memdir.integrations.claude_code import hooks

    payload = {"cwd": str(project), "hook_event_name": "UserPromptSubmit", "prompt": prompt}
    if session_id is not None:
        payload["session_id"] = session_id
    out = hooks.run("UserPromptSubmit", stdin=io.StringIO(json.dumps(payload)))
    return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out else ""
