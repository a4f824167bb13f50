"""A real local HTTP server speaking the Gemini API's ``generateContent`` (JSON) and
``streamGenerateContent`` (SSE, ``alt=sse``), for driving the real Gemini CLI headlessly
(tests/integrations/clients). Every request body is recorded with its path; each reply is what
``script(body)`` returns: a text, or ``{"function_call": name, "args": {...}}`` (a tool call). ``countTokens`` answers a fixed count."""

from __future__ import annotations

import json

from tests.scripted_http import ScriptedHandler, ScriptedServer

USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def _answer(reply) -> dict:
    """The response to ``reply``: a text, or ``{"function_call": name, "args": {...}}`` (the model calls a tool)."""
    part = ({"functionCall": {"name": reply["function_call"], "args": reply.get("args") or {}}}
            if isinstance(reply, dict) else {"text": str(reply)})
    return {"candidates": [{"content": {"role": "model", "parts": [part]}, "finishReason": "STOP",
                            "index": 0}], "usageMetadata": USAGE, "modelVersion": "gemini-test"}


class GeminiServer(ScriptedServer):
    """``with GeminiServer(script) as server:`` — ``server.url`` is the base URL,
    ``server.requests`` every ``(path, body)`` of a generate call, in order."""

    def __init__(self, script):
        self.requests: list[tuple[str, dict]] = []
        server = self

        class Handler(ScriptedHandler):
            protocol_version = "HTTP/1.1"

            def do_POST(self):
                body = self.read_json()
                if ":countTokens" in self.path:
                    self.send("application/json", json.dumps({"totalTokens": 10}).encode())
                    return
                server.requests.append((self.path, body))
                answer = _answer(script(body))
                if ":streamGenerateContent" in self.path:
                    self.send("text/event-stream", f"data: {json.dumps(answer)}\r\n\r\n".encode())
                else:
                    self.send("application/json", json.dumps(answer).encode())

            def do_GET(self):
                self.send("application/json", b"{}")

        super().__init__(Handler)


def request_text(body: dict) -> str:
    """Everything a request shows the model (system instruction and contents), as one string."""
    return json.dumps({"system": body.get("systemInstruction"), "contents": body.get("contents")}, ensure_ascii=False)
