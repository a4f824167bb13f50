"""A real local HTTP server speaking the OpenAI Responses API (``POST /v1/responses``, streaming
SSE), for driving the real Codex CLI headlessly (tests/integrations/clients). Every request body is
recorded; each reply comes from ``script(body)``: a string (a text answer), a dict
``{"function_call": name, "arguments": {...}}`` (the model calls a tool; ``"namespace"`` too for a
tool inside a namespace) or ``{"tool_search": {"query": ...}}`` (the model searches the deferred
tools, answered by the client). ``GET`` (the model list) answers an empty list."""

from __future__ import annotations

import json

from tests.scripted_http import ScriptedHandler, ScriptedServer

USAGE = {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0}, "output_tokens": 5,
         "output_tokens_details": {"reasoning_tokens": 0}, "total_tokens": 15}


def _events(number: int, reply) -> list[tuple[str, dict]]:
    """The SSE events of response ``number`` answering ``reply``."""
    response_id = f"resp_{number}"
    if isinstance(reply, dict) and reply.get("tool_search"):
        item = {"type": "tool_search_call", "id": f"ts_{number}", "call_id": f"call_{number}",
                "execution": "client", "arguments": reply["tool_search"], "status": "completed"}
        middle = []
        started = {**item, "status": "in_progress"}
    elif isinstance(reply, dict) and reply.get("function_call"):
        arguments = json.dumps(reply["arguments"])
        item = {"type": "function_call", "id": f"fc_{number}", "call_id": f"call_{number}",
                "name": reply["function_call"], "arguments": arguments, "status": "completed"}
        if reply.get("namespace"):
            item["namespace"] = reply["namespace"]
        middle = [("response.function_call_arguments.delta", {
            "type": "response.function_call_arguments.delta", "item_id": item["id"], "output_index": 0,
            "delta": arguments})]
        started = {**item, "arguments": "", "status": "in_progress"}
    else:
        text = str(reply)
        item = {"type": "message", "role": "assistant", "id": f"msg_{number}", "status": "completed",
                "content": [{"type": "output_text", "text": text, "annotations": []}]}
        middle = [("response.output_text.delta", {"type": "response.output_text.delta", "item_id": item["id"],
                                                  "output_index": 0, "content_index": 0, "delta": text})]
        started = {**item, "content": [], "status": "in_progress"}
    return [("response.created", {"type": "response.created", "response": {"id": response_id}}),
            ("response.output_item.added", {"type": "response.output_item.added", "output_index": 0,
                                            "item": started}),
            *middle,
            ("response.output_item.done", {"type": "response.output_item.done", "output_index": 0, "item": item}),
            ("response.completed", {"type": "response.completed",
                                    "response": {"id": response_id, "usage": USAGE}})]


class ResponsesServer(ScriptedServer):
    """``with ResponsesServer(script) as server:`` — ``server.url`` is the base URL (ending ``/v1``),
    ``server.requests`` every ``/responses`` body received, in order."""

    def __init__(self, script):
        self.requests: list[dict] = []
        server = self

        class Handler(ScriptedHandler):
            protocol_version = "HTTP/1.1"

            def do_GET(self):
                self.send("application/json", json.dumps({"object": "list", "data": []}).encode())

            def do_POST(self):
                body = self.read_json()
                server.requests.append(body)
                reply = script(body)
                events = _events(len(server.requests), reply)
                payload = "".join(f"event: {name}\ndata: {json.dumps(data)}\n\n" for name, data in events)
                self.send("text/event-stream", payload.encode())

        super().__init__(Handler, "/v1")


def input_text(body: dict) -> str:
    """Everything a request shows the model (instructions and input items), as one string."""
    return json.dumps({"instructions": body.get("instructions"), "input": body.get("input")}, ensure_ascii=False)


def tool_names(body: dict) -> list[str]:
    """The names of the tools a request offers (a namespace's tools as ``namespace.name``)."""
    names = []
    for tool in body.get("tools") or []:
        if tool.get("type") == "namespace":
            names += [f"{tool.get('name')}.{t.get('name')}" for t in tool.get("tools") or []]
        else:
            names.append(tool.get("name") or tool.get("type"))
    return names
