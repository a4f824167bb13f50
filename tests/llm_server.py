"""Real local HTTP servers speaking a model API: chat completions (the llm extractor's tests) and
Anthropic's Messages API (the memory tool's tests, :class:`MessagesServer`).

Replies are queued: a string is the assistant's content; a dict may give
``content``, ``status`` (an HTTP error code), ``sleep`` (seconds before
answering), ``finish_reason`` and ``before`` (a callable run when the request
arrives, e.g. another process writing). Every request body is recorded with
its headers, so tests can read the prompt the product sent.
"""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ChatServer:
    def __init__(self):
        self.replies: list = []
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                reply = server.replies.pop(0) if server.replies else {"content": '{"proposals": []}'}
                if isinstance(reply, str):
                    reply = {"content": reply}
                if reply.get("before"):
                    reply["before"]()
                if reply.get("sleep"):
                    time.sleep(reply["sleep"])
                if reply.get("status"):
                    payload = json.dumps({"error": {"message": "boom", "type": "server_error"}}).encode()
                    self.send_response(reply["status"])
                else:
                    payload = json.dumps({
                        "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                        "model": body.get("model", "test-model"),
                        "choices": [{"index": 0, "finish_reason": reply.get("finish_reason", "stop"),
                                     "message": {"role": "assistant", "content": reply.get("content", "")}}],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    }).encode()
                    self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                try:
                    self.wfile.write(payload)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)

    def __enter__(self) -> "ChatServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def prompt(self, index: int = -1) -> str:
        """The user message of request ``index``."""
        return "\n".join(m["content"] for m in self.requests[index]["messages"] if m["role"] == "user")


class MessagesServer:
    """A real local HTTP server speaking Anthropic's Messages API (``POST /v1/messages``,
    non-streaming), for the SDK's own tool runner. Replies are queued: each is a list of
    content blocks (``{"type": "text", "text": …}``, ``{"type": "tool_use", "name": …,
    "input": …}``; a ``tool_use`` block gets an ``id`` when it has none) or a string (one
    text block). A reply holding a ``tool_use`` block stops with ``tool_use``, else with
    ``end_turn``; an empty queue answers ``done``. Every request body is recorded."""

    def __init__(self):
        self.replies: list = []
        self.requests: list[dict] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args):  # quiet
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                server.requests.append(body)
                reply = server.replies.pop(0) if server.replies else "done"
                blocks = [{"type": "text", "text": reply}] if isinstance(reply, str) else [dict(b) for b in reply]
                for index, block in enumerate(blocks):
                    if block["type"] == "tool_use":
                        block.setdefault("id", f"toolu_{len(server.requests)}_{index}")
                payload = json.dumps({
                    "id": f"msg_{len(server.requests)}", "type": "message", "role": "assistant",
                    "model": body.get("model", "test-model"), "content": blocks,
                    "stop_reason": "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn",
                    "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1},
                }).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05},
                                       daemon=True)

    def __enter__(self) -> "MessagesServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()

    def tool_results(self, index: int = -1) -> list[dict]:
        """The ``tool_result`` blocks of request ``index``'s last message."""
        content = self.requests[index]["messages"][-1]["content"]
        return [block for block in content if isinstance(block, dict) and block.get("type") == "tool_result"]
