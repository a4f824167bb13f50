"""A real local HTTP server speaking the Gemini API's ``generateContent`` (JSON) and
``streamGenerateContent`` (SSE, ``alt=sse``), for driving the real Gemini CLI headlessly
(tests/integrations/clients). Every request body is recorded with its path; each reply is the text
``script(body)`` returns. ``countTokens`` answers a fixed count."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

USAGE = {"promptTokenCount": 10, "candidatesTokenCount": 5, "totalTokenCount": 15}


def _answer(text: str) -> dict:
    return {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]}, "finishReason": "STOP",
                            "index": 0}], "usageMetadata": USAGE, "modelVersion": "gemini-test"}


class GeminiServer:
    """``with GeminiServer(script) as server:`` — ``server.url`` is the base URL,
    ``server.requests`` every ``(path, body)`` of a generate call, in order."""

    def __init__(self, script):
        self.requests: list[tuple[str, dict]] = []
        server = self

        class Handler(BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def do_POST(self):
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if ":countTokens" in self.path:
                    self._send("application/json", json.dumps({"totalTokens": 10}).encode())
                    return
                server.requests.append((self.path, body))
                answer = _answer(str(script(body)))
                if ":streamGenerateContent" in self.path:
                    self._send("text/event-stream", f"data: {json.dumps(answer)}\r\n\r\n".encode())
                else:
                    self._send("application/json", json.dumps(answer).encode())

            def do_GET(self):
                self._send("application/json", b"{}")

            def _send(self, kind: str, payload: bytes):
                self.send_response(200)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(payload)))
                self.end_headers()
                self.wfile.write(payload)

        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self) -> "GeminiServer":
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()


def request_text(body: dict) -> str:
    """Everything a request shows the model (system instruction and contents), as one string."""
    return json.dumps({"system": body.get("systemInstruction"), "contents": body.get("contents")}, ensure_ascii=False)
