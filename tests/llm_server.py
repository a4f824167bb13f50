"""A real local HTTP server speaking the chat-completions API, for the llm extractor's tests.

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
