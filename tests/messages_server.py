"""A real local HTTP server speaking Anthropic's Messages API (``POST /v1/messages``), whole JSON or
streamed SSE as the request asks. One scripted endpoint for every Messages API client the tests
drive: the real Claude Code and OpenCode headlessly (tests/integrations/clients) and the anthropic
SDK's own tool runner (tests/integrations/anthropic_sdk).

Replies come from ``script``: a callable ``script(body)`` or a list popped in order (``"done"`` once
it is empty). A reply is a string (one text block), a dict ``{"tool_use": name, "input": {...}}``
(the model calls one tool) or a list of content blocks as the API spells them (``{"type": "text",
"text": ...}``, ``{"type": "tool_use", "name": ..., "input": ...}``). Each ``tool_use`` block gets
an ``id`` when it has none, and a reply holding one stops with ``tool_use``, else ``end_turn``.
Every request body is recorded (``count_tokens`` calls are answered, not recorded)."""

from __future__ import annotations

import json

from tests.scripted_http import ScriptedHandler, ScriptedServer


def blocks_of(reply, number: int) -> list[dict]:
    """The content blocks of ``reply`` (see the module docstring) in request ``number``."""
    if isinstance(reply, str):
        blocks = [{"type": "text", "text": reply}]
    elif isinstance(reply, dict):
        blocks = [{"type": "tool_use", "name": reply["tool_use"], "input": reply["input"]}]
    else:
        blocks = [dict(block) for block in reply]
    for index, block in enumerate(blocks):
        if block["type"] == "tool_use":
            block.setdefault("id", f"toolu_{number}_{index}")
    return blocks


def _message(body: dict, number: int, blocks: list[dict]) -> dict:
    stop = "tool_use" if any(b["type"] == "tool_use" for b in blocks) else "end_turn"
    return {"id": f"msg_{number}", "type": "message", "role": "assistant", "model": body.get("model", "claude-test"),
            "content": blocks, "stop_reason": stop, "stop_sequence": None,
            "usage": {"input_tokens": 10, "output_tokens": 5}}


def _events(message: dict) -> list[tuple[str, dict]]:
    """The SSE events that stream ``message`` one block at a time."""
    start = {**message, "content": [], "stop_reason": None}
    out = [("message_start", {"type": "message_start", "message": start})]
    for index, block in enumerate(message["content"]):
        if block["type"] == "tool_use":
            opening = {**block, "input": {}}
            delta = {"type": "input_json_delta", "partial_json": json.dumps(block["input"])}
        else:
            opening = {**block, "text": ""}
            delta = {"type": "text_delta", "text": block["text"]}
        out += [("content_block_start", {"type": "content_block_start", "index": index, "content_block": opening}),
                ("content_block_delta", {"type": "content_block_delta", "index": index, "delta": delta}),
                ("content_block_stop", {"type": "content_block_stop", "index": index})]
    return out + [
        ("message_delta", {"type": "message_delta", "usage": {"output_tokens": 5},
                           "delta": {"stop_reason": message["stop_reason"], "stop_sequence": None}}),
        ("message_stop", {"type": "message_stop"})]


class MessagesServer(ScriptedServer):
    """``with MessagesServer(script) as server:`` — ``server.url`` is the base URL (the clients add
    ``/v1/messages``), ``server.requests`` every message body received, in order."""

    def __init__(self, script=None):
        self.requests: list[dict] = []
        self.replies: list = [] if callable(script) else list(script or [])
        server = self

        def next_reply(body: dict):
            if callable(script):
                return script(body)
            return server.replies.pop(0) if server.replies else "done"

        class Handler(ScriptedHandler):  # HTTP/1.0: a stream ends when the connection closes
            def do_POST(self):
                body = self.read_json()
                if "count_tokens" in self.path:
                    self.send_json({"input_tokens": 100})
                    return
                server.requests.append(body)
                number = len(server.requests)
                message = _message(body, number, blocks_of(next_reply(body), number))
                if not body.get("stream"):
                    self.send_json(message)
                    return
                stream = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in _events(message))
                self.send("text/event-stream", stream.encode())

        super().__init__(Handler)

    def tool_results(self, index: int = -1) -> list[dict]:
        """The ``tool_result`` blocks of request ``index``'s last message."""
        content = self.requests[index]["messages"][-1]["content"]
        return [block for block in content if isinstance(block, dict) and block.get("type") == "tool_result"]


def text_of(body: dict) -> str:
    """Everything a request shows the model (system and messages), as one string."""
    return json.dumps({"system": body.get("system"), "messages": body.get("messages")}, ensure_ascii=False)
