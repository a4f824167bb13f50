"""The first answer of ``memdir mcp``: ``server/discover`` answered before the MCP SDK is imported.

Claude Code 2.1 opens a stdio server with a ``server/discover`` request (the 2026-07-28 protocol's version
probe) and waits 3 s for an answer; a server that answers "Method not found" is one of the protocol before it,
and gets ``initialize`` next, on the same process. memdir's server answered it as the SDK does, "Method not
found", but only once the SDK was imported: 3.7–6.4 s on a loaded 2-core machine (load 20–25), past the probe's 3 s.
Claude Code then logged "the version negotiation probe timed out" and restarted the server without the probe
(two of six real ``claude -p`` runs), a second start on the session's way to its tools.

So ``memdir mcp`` calls :func:`start` before that import: a thread reads the process's stdin and answers each
``server/discover`` request at once, on stdout, with the error the SDK gives (:func:`discover_answer`), until the
server takes stdin over (:func:`take_over`); every other line goes on to the server, unchanged and in order,
through a pipe (:func:`stdin_fd`), and once it took over every byte does, unread. The answer is the one the
server would give, sooner: the SDK has no ``server/discover`` handler. Imports only the standard library's
``os`` and ``threading`` and memdir's :mod:`memdir.text.json_c`.
"""

from __future__ import annotations

import os
import threading

from ...text import json_c

EARLY_LINE_MAX = 64 * 1024  # bytes of a line looked at before the server takes over; a longer one passes unread
_state: dict = {}  # "read": the pipe's read end (the server's stdin); "early": the event cleared at take_over
_write_lock = threading.Lock()


def discover_answer(line: bytes) -> bytes | None:
    """The reply to ``line`` (one JSON-RPC message, no newline) when it is a ``server/discover`` request with a
    usable id (a string or an integer): the SDK's own "Method not found" error for it, one line with its newline.
    None for anything else (a notification, another method, a line that is not JSON). Pure."""
    if b"server/discover" not in line:
        return None
    try:
        message = json_c.loads(line.decode("utf-8"))
    except ValueError:  # UnicodeDecodeError is one
        return None
    if not isinstance(message, dict) or message.get("method") != "server/discover" or message.get("jsonrpc") != "2.0":
        return None
    ident = message.get("id")
    if isinstance(ident, bool) or not isinstance(ident, (str, int)):
        return None
    error = {"code": -32601, "message": "Method not found", "data": "server/discover"}
    return (json_c.dumps({"jsonrpc": "2.0", "id": ident, "error": error}) + "\n").encode("utf-8")


def start() -> None:
    """Start answering ``server/discover`` on stdin/stdout (see the module docstring): fds 0 and 1 are kept as
    they are (the pump reads a copy of fd 0 and answers on a copy of fd 1); the server reads :func:`stdin_fd`.
    Once per process; never raises (a process that cannot make the pipe serves stdin directly, as before)."""
    if _state:
        return
    try:
        source, answers = os.dup(0), os.dup(1)
        read, write = os.pipe()
    except OSError:
        return
    early = threading.Event()
    early.set()
    _state.update(read=read, early=early)
    threading.Thread(target=_pump, args=(source, answers, write, early), name="memdir-mcp-early",
                     daemon=True).start()


def stdin_fd() -> int | None:
    """The fd the server reads its stdin from once :func:`start` ran (the pipe's read end; the caller's to
    close), else None (read fd 0 as ever)."""
    return _state.get("read")


def take_over() -> None:
    """The server reads stdin from now on: no more ``server/discover`` is answered early (the SDK answers it, its
    replies and the early ones never share the pipe of stdout); the pump passes every byte on as it comes."""
    early = _state.get("early")
    if early is not None:
        with _write_lock:  # an answer being written finishes first
            early.clear()


def _pump(source: int, answers: int, write: int, early: threading.Event) -> None:
    """Copy ``source`` to ``write`` until its end (then close ``write``: the server sees the end of stdin),
    answering ``server/discover`` on ``answers`` while ``early`` is set."""
    pending, passing = b"", False  # passing: the line being read is long, its start passed on unread
    try:
        while chunk := os.read(source, 65536):
            if not early.is_set():
                _write_all(write, pending + chunk)
                pending = b""
                continue
            pending += chunk
            while (end := pending.find(b"\n")) >= 0:
                line, pending = pending[:end + 1], pending[end + 1:]
                reply = None if passing else discover_answer(line.rstrip(b"\r\n"))
                passing = False
                with _write_lock:
                    answered = reply is not None and early.is_set()
                    if answered:
                        _write_all(answers, reply)
                if not answered:
                    _write_all(write, line)
            if len(pending) > EARLY_LINE_MAX:  # a long line: passed on as it comes, not held here
                _write_all(write, pending)
                pending, passing = b"", True
        _write_all(write, pending)
    except OSError:  # the server closed its end, or the client ours: nothing left to pass on
        pass
    finally:
        for fd in (source, answers, write):
            try:
                os.close(fd)
            except OSError:
                pass


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


__all__ = ["EARLY_LINE_MAX", "discover_answer", "start", "stdin_fd", "take_over"]
