"""A real local HTTP server speaking the Anthropic Messages API (streaming SSE), for driving the
real Claude Code headlessly (tests/integrations/clients). Every request body is recorded; each
reply comes from ``script(body)``: a string (a text answer) or a dict ``{"tool_use": name,
"input": {...}}`` (the model calls a tool)."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


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


class MessagesServer:
    def __init__(self, script):
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if "count_tokens" in self.path:
                    self._json({"input_tokens": 100})
                    return
                server.requests.append(body)
                reply = script(body)
                if not body.get("stream"):
                    content = ([{"type": "tool_use", "id": "toolu_test_1", "name": reply["tool_use"],
                                 "input": reply["input"]}] if isinstance(reply, dict)
                               else [{"type": "text", "text": str(reply)}])
                    self._json({"id": "msg_test", "type": "message", "role": "assistant", "model": body.get("model"),
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

            def _json(self, data):
                payload = json.dumps(data).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> "MessagesServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def text_of(body: dict) -> str:
    """Everything a request shows the model (system and messages), as one string."""
    return json.dumps({"system": body.get("system"), "messages": body.get("messages")}, ensure_ascii=False)
