"""The chat-loop example in docs/harness.md, run against a real local HTTP server
speaking the OpenAI chat-completions protocol (tests/llm_server.py: canned replies, every request kept)."""

from __future__ import annotations

import json
import re

import pytest

from memdir import Memory
from tests.conftest import REPO
from tests.llm_server import ChatServer

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

DOC = REPO / "docs" / "harness.md"


def _example_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return blocks[0]


def _run(code: str, namespace: dict) -> None:
    """Run a block of the doc in ``namespace`` (the example's names stay there for the next block)."""
    exec(compile(code, str(DOC), "exec"), namespace)


def _chat_loop(model: ChatServer, project, monkeypatch) -> dict:
    """The doc's chat-loop example run against ``model`` (its endpoint, key "test-key", model "fake-model") for
    ``project``: the namespace it leaves (``ask`` and the rest of its names)."""
    monkeypatch.setenv("OPENAI_BASE_URL", model.url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("MODEL", "fake-model")
    monkeypatch.setenv("PROJECT_DIR", str(project))
    namespace: dict = {"__name__": "harness_example"}
    _run(_example_code(), namespace)
    return namespace


def test_doc_chat_loop_writes_a_memory(isolated_home, project, monkeypatch, person):
    person.write("lang", "Prefers answers in English", "user", "", scope="user")
    with ChatServer() as model:
        model.replies += [{"message": {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function", "function": {"name": "memory_write", "arguments": json.dumps({
                "name": "db-port", "description": "Dev PostgreSQL listens on 5433", "type": "project",
                "body": "Moved on 2026-11-02."})}}]}},
            "Noted: the dev database is on 5433."]
        namespace = _chat_loop(model, project, monkeypatch)
        history: list[dict] = []
        answer = namespace["ask"](history, "Remember: the dev database now listens on 5433.")
    assert answer == "Noted: the dev database is on 5433."
    first, second = model.requests
    system = first["messages"][0]["content"]
    assert "<memory_context>" in system and "- [lang](lang.md) — Prefers answers in English" in system
    assert [t["function"]["name"] for t in first["tools"]][:3] == ["memory_write", "memory_edit", "memory_read"]
    tool_message = second["messages"][-1]
    assert tool_message == {"role": "tool", "tool_call_id": "call_1", "content": "Memory created: db-port (project)"}
    written = Memory.open(home=isolated_home, project=project).read("db-port", count=False).record
    assert written.description == "Dev PostgreSQL listens on 5433" and written.origin == "agent"


def test_doc_session_end_extraction_uses_the_same_endpoint(isolated_home, project, monkeypatch):
    """newuser33: the notes' session-end snippet, run after the chat loop in the same namespace, sends the
    conversation to the harness's endpoint and writes what it proposes (origin extracted). Control: the chat
    loop's own memory_write is there beside it, origin agent."""
    import textwrap

    snippet = re.findall(r"```py\n(.*?)```", DOC.read_text(encoding="utf-8"), re.DOTALL)
    assert len(snippet) == 1
    with ChatServer() as model:
        model.replies += [{"message": {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function", "function": {"name": "memory_write", "arguments": json.dumps({
                "name": "db-port", "description": "Dev PostgreSQL listens on 5433", "type": "project"})}}]}},
            "Noted.",
            json.dumps({"proposals": [{"action": "create", "name": "staging-vpn", "type": "project",
                                       "description": "Staging deploys need the VPN",
                                       "body": "Staging deploys need the VPN.",
                                       "evidence": "staging deploys need the VPN"}]})]
        namespace = _chat_loop(model, project, monkeypatch)
        history: list[dict] = []
        namespace["ask"](history, "Remember: the dev database listens on 5433, and staging deploys need the VPN.")
        namespace["history"] = history
        _run(textwrap.dedent(snippet[0]), namespace)
    report = namespace["report"]
    assert (report.status, report.applied, report.extractor, report.error) == ("ok", 1, "llm", None)
    assert model.requests[-1]["model"] == "fake-model" and {k.lower(): v for k, v in model.headers[-1].items()}["authorization"] == "Bearer test-key"
    mem = Memory.open(home=isolated_home, project=project)
    assert mem.read("staging-vpn", count=False).record.origin == "extracted"
    assert mem.read("db-port", count=False).record.origin == "agent"
