"""A home for the panel's tests: a user layer, a project layer, and two
candidates that a real consolidation run (the llm extractor against the
local chat server of :mod:`tests.llm_server`) proposed for memories the
agent wrote."""

from __future__ import annotations

import json

from memdir import Memory
from tests.llm_server import ChatServer

# (name, description, type, body) written by the agent before consolidation runs.
AGENT_MEMORIES = (
    ("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02."),
    ("indent-style", "Indent with tabs", "feedback", "Use tabs for indentation."),
    ("ci-runner", "CI runs on the self-hosted runner", "project", "Label: self-hosted-x64."),
)
USER_MEMORY = ("editor", "Uses Neovim with LSP", "user", "Neovim 0.11, LSP for Python.")


def build(home, project, monkeypatch) -> Memory:
    """Fill ``home``: one user memory, three agent memories in ``project``'s
    layer, and two candidates from consolidation (``indent-style-candidate``
    for ``indent-style``, ``db-port-candidate`` for ``db-port``). Returns the
    facade as a person sees it."""
    monkeypatch.setenv("OPENAI_API_KEY", "test-key-123")
    person = Memory.open(home=home, project=project, actor="human")
    agent = person.as_actor("agent")
    agent.write(*USER_MEMORY)
    for name, description, kind, body in AGENT_MEMORIES:
        agent.write(name, description, kind, body)
    with ChatServer() as server:
        server.replies.append(json.dumps({"proposals": [
            {"action": "update", "target": "indent-style", "type": "feedback",
             "description": "Indent with 4 spaces, not tabs", "body": "Use 4 spaces, not tabs.",
             "evidence": "Use 4 spaces, not tabs"},
            {"action": "update", "target": "db-port", "type": "project",
             "description": "Dev PostgreSQL listens on 6543", "body": "Moved again, to 6543.",
             "evidence": "the dev database is on 6543 now"}]}))
        llm = Memory.open(home=home, project=project, actor="human", llm_base_url=server.url,
                          llm_model="test-model", llm_timeout=10, consolidation_extractor="llm")
        report = llm.consolidate([{"role": "user", "content": "Use 4 spaces, not tabs. "
                                   "Also the dev database is on 6543 now, remember that."}])
    assert [(o.result, o.name) for o in report.outcomes] == [
        ("candidate", "indent-style-candidate"), ("candidate", "db-port-candidate")], report.outcomes
    return person
