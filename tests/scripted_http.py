"""The real local HTTP server the scripted model endpoints share (tests/messages_server.py,
responses_server.py, gemini_server.py): a thread serving 127.0.0.1 on a free port, each request body
read as JSON, replies sent whole or streamed by the endpoint's own handler."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


class ScriptedHandler(BaseHTTPRequestHandler):
    """A quiet handler with the two helpers every scripted endpoint needs."""

    def log_message(self, *args):
        pass

    def read_json(self) -> dict:
        """The request body as JSON; ``{}`` for an empty or unreadable one."""
        length = int(self.headers.get("Content-Length") or 0)
        try:
            return json.loads(self.rfile.read(length) or b"{}")
        except ValueError:
            return {}

    def send(self, kind: str, payload: bytes) -> None:
        """A 200 reply of ``payload`` bytes with Content-Type ``kind``."""
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(payload)))
        self.end_headers()
        self.wfile.write(payload)

    def send_json(self, data) -> None:
        self.send("application/json", json.dumps(data).encode())


class ScriptedServer:
    """``with Server(...) as server:`` serves ``handler`` (a :class:`ScriptedHandler`) on a free local
    port until the block ends; ``server.url`` is its base URL, ``path`` appended."""

    def __init__(self, handler: type[ScriptedHandler], path: str = ""):
        self.httpd = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self.httpd.daemon_threads = True
        self.url = f"http://127.0.0.1:{self.httpd.server_address[1]}{path}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.httpd.shutdown()
        self.httpd.server_close()
