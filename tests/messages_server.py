"""A real local HTTP server speaking the Anthropic Messages API (streaming SSE), for driving the
real Claude Code headlessly (tests/integrations/clients). Every request body is recorded; each
reply comes from ``script(body)``: a string (a text answer) or a dict ``{"tool_use": name,
"input": {...}}`` (the model calls a tool)."""

from __future__ import annotations

import json

from tests.scripted_http import ScriptedHandler, ScriptedServer


def _events(body: dict, reply) -> list[tuple[str, dict]]:
    model = body.get("model", "claude-test")
    message = {"id": "msg_test", "type": "message", "role": "assistant", "model": model, "content": [],
               "stop_reason": None, "stop_sequence": None, "usage": {"input_tokens": 10, "output_tokens": 1}}
    out = [("message_start", {"type": "message_start", "message": message})]
    if isinstance(reply, dict) and reply.get("tool_use"):
        block = {"type": "tool_use", "id": "toolu_test_1", "name": reply["tool_use"], "input": {}}
        out += [("content_block_start", {"type": "content_block_start", "index": 0, "content_block": block}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {
                    "type": "input_json_delta", "partial_json": json.dumps(reply["input"])}})]
        stop = "tool_use"
    else:
        out += [("content_block_start", {"type": "content_block_start", "index": 0,
                                          "content_block": {"type": "text", "text": ""}}),
                ("content_block_delta", {"type": "content_block_delta", "index": 0,
                                         "delta": {"type": "text_delta", "text": str(reply)}})]
        stop = "end_turn"
    out += [("content_block_stop", {"type": "content_block_stop", "index": 0}),
            ("message_delta", {"type": "message_delta", "delta": {"stop_reason": stop, "stop_sequence": None},
                               "usage": {"output_tokens": 5}}),
            ("message_stop", {"type": "message_stop"})]
    return out


class MessagesServer(ScriptedServer):
    def __init__(self, script):
        self.requests: list[dict] = []
        server = self

        class Handler(ScriptedHandler):  # HTTP/1.0: the stream ends when the connection closes
            def do_POST(self):
                body = self.read_json()
                if "count_tokens" in self.path:
                    self.send_json({"input_tokens": 100})
                    return
                server.requests.append(body)
                reply = script(body)
                if not body.get("stream"):
                    content = ([{"type": "tool_use", "id": "toolu_test_1", "name": reply["tool_use"],
                                 "input": reply["input"]}] if isinstance(reply, dict)
                               else [{"type": "text", "text": str(reply)}])
                    self.send_json({"id": "msg_test", "type": "message", "role": "assistant", "model": body.get("model"),
                                "content": content, "stop_reason": "end_turn", "stop_sequence": None,
                                "usage": {"input_tokens": 10, "output_tokens": 5}})
                    return
                self.send_response(200)
                self.send_header("Content-Type", "text/event-stream")
                self.send_header("Cache-Control", "no-cache")
                self.end_headers()
                for name, data in _events(body, reply):
                    self.wfile.write(f"event: {name}\ndata: {json.dumps(data)}\n\n".encode())
                    self.wfile.flush()

        super().__init__(Handler)


def text_of(body: dict) -> str:
    """Everything a request shows the model (system and messages), as one string."""
    return json.dumps({"system": body.get("system"), "messages": body.get("messages")}, ensure_ascii=False)
