"""The chat-loop example in docs/harness.md, run against a real local HTTP server
speaking the OpenAI chat-completions protocol (canned replies, every request kept)."""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from memdir import Memory
from tests.conftest import REPO

pytestmark = pytest.mark.slow  # every test here takes seconds (real processes, real data)

DOC = REPO / "docs" / "harness.md"


class FakeModel:
    """A queue of canned chat-completion replies that records each request body."""

    def __init__(self, replies: list[dict]):
        self.replies = list(replies)
        self.requests: list[dict] = []
        model = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                model.requests.append(body)
                message = model.replies.pop(0)
                data = json.dumps({"id": "c1", "object": "chat.completion", "created": 0, "model": body["model"],
                                   "choices": [{"index": 0, "message": message,
                                                "finish_reason": "tool_calls" if message.get("tool_calls") else "stop"}]})
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data.encode())

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"


def _example_code() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1
    return blocks[0]


def test_doc_chat_loop_writes_a_memory(isolated_home, project, monkeypatch, person):
    person.write("lang", "Prefers answers in English", "user", "", scope="user")
    model = FakeModel([
        {"role": "assistant", "content": None, "tool_calls": [{
            "id": "call_1", "type": "function", "function": {"name": "memory_write", "arguments": json.dumps({
                "name": "db-port", "description": "Dev PostgreSQL listens on 5433", "type": "project",
                "body": "Moved on 2026-11-02."})}}]},
        {"role": "assistant", "content": "Noted: the dev database is on 5433."},
    ])
    monkeypatch.setenv("OPENAI_BASE_URL", model.url)
    monkeypatch.setenv("OPENAI_API_KEY", "test-key")
    monkeypatch.setenv("MODEL", "fake-model")
    monkeypatch.setenv("PROJECT_DIR", str(project))
    namespace: dict = {"__name__": "harness_example"}
    try:
        exec(compile(_example_code(), str(DOC), "exec"), namespace)
        history: list[dict] = []
        answer = namespace["ask"](history, "Remember: the dev database now listens on 5433.")
    finally:
        model.server.shutdown()
    assert answer == "Noted: the dev database is on 5433."
    first, second = model.requests
    system = first["messages"][0]["content"]
    assert "<memory_context>" in system and "- [lang](lang.md) — Prefers answers in English" in system
    assert [t["function"]["name"] for t in first["tools"]][:3] == ["memory_write", "memory_edit", "memory_read"]
    tool_message = second["messages"][-1]
    assert tool_message == {"role": "tool", "tool_call_id": "call_1", "content": "Memory created: db-port (project)"}
    written = Memory.open(home=isolated_home, project=project).read("db-port", count=False).record
    assert written.description == "Dev PostgreSQL listens on 5433" and written.origin == "agent"
