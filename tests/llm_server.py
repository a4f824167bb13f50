"""A real local HTTP server speaking the chat completions API (the llm extractor's tests; the
Messages API is tests/messages_server.py).

Replies are queued: a string is the assistant's content; a dict may give
``content`` or ``message`` (a whole assistant message, e.g. with ``tool_calls``), ``status`` (an HTTP error code), ``sleep`` (seconds before
answering), ``drip`` (seconds between the answer's bytes, each sent alone), ``pad`` (bytes of
whitespace before the answer's JSON), ``finish_reason`` and ``before`` (a callable run when the request
arrives, e.g. another process writing). Every request body is recorded with
its headers, so tests can read the prompt the product sent.
"""

from __future__ import annotations

import json
import time

from tests.scripted_http import ScriptedHandler, ScriptedServer


class ChatServer(ScriptedServer):
    """``with ChatServer() as server:`` — ``server.url`` is the base URL (ending ``/v1``),
    ``server.replies`` the queue, ``server.requests`` and ``server.headers`` what arrived, in order."""

    def __init__(self):
        self.replies: list = []
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        server = self

        class Handler(ScriptedHandler):
            def do_POST(self):
                body = self.read_json()
                server.requests.append(body)
                server.headers.append(dict(self.headers))
                reply = server.replies.pop(0) if server.replies else {"content": '{"proposals": []}'}
                if isinstance(reply, str):
                    reply = {"content": reply}
                if reply.get("before"):
                    reply["before"]()
                if reply.get("sleep"):
                    time.sleep(reply["sleep"])
                error = {"error": {"message": "boom", "type": "server_error"}}
                message = reply.get("message") or {"role": "assistant", "content": reply.get("content", "")}
                finish = reply.get("finish_reason") or ("tool_calls" if message.get("tool_calls") else "stop")
                try:
                    if reply.get("status"):
                        self.send_json(error, reply["status"])
                    else:
                        answer = {
                            "id": "chatcmpl-test", "object": "chat.completion", "created": 0,
                            "model": body.get("model", "test-model"),
                            "choices": [{"index": 0, "finish_reason": finish, "message": message}],
                            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                        }
                        if reply.get("drip") or reply.get("pad"):
                            self.send_slowly(b" " * reply.get("pad", 0) + json.dumps(answer).encode(),
                                             reply.get("drip", 0))
                        else:
                            self.send_json(answer)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (timeout test)

            def send_slowly(self, payload: bytes, drip: float) -> None:
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                if not drip:
                    self.wfile.write(payload)
                for index in range(len(payload) if drip else 0):
                    self.wfile.write(payload[index:index + 1])
                    self.wfile.flush()
                    time.sleep(drip)

        super().__init__(Handler, "/v1")

    def prompt(self, index: int = -1) -> str:
        """The user message of request ``index``."""
        return "\n".join(m["content"] for m in self.requests[index]["messages"] if m["role"] == "user")
