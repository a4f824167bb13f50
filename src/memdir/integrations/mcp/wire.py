"""The stdio wire of ``memdir mcp``: a thin layer around the MCP SDK's transport
that answers malformed JSON-RPC instead of dropping it.

The SDK's stdio reader turns a line it cannot validate into an exception that
no one answers, so a client waiting on that id hangs. :func:`check_line`
decides, from the raw line, what JSON-RPC 2.0 calls for (§5.1 error codes):

* not JSON → ``-32700`` (id null);
* a batch (an array; MCP since 2025-06-18 has no batches), a non-object,
  ``"jsonrpc"`` other than ``"2.0"``, an id that is neither a string nor an
  integer, or no ``method`` on something that is not a response → ``-32600``
  (with the request's id when it has a usable one; a batch gets an array,
  one error per element);
* ``params`` that is not an object → ``-32602`` (a notification: dropped,
  since it gets no reply);
* JSON nested deeper than Python's parser goes → ``-32700``; a string with a
  lone UTF-16 surrogate (``"\\ud800"``, not Unicode text) → ``-32602``;
  ``"id": null`` (MCP: an id is never null) → ``-32600`` with id null;
* a line over :data:`MAX_LINE_CHARS` → ``-32600`` (id null), read and
  dropped in chunks so it never sits in memory whole;
* bytes that are not UTF-8 inside a string (JSON text is UTF-8, RFC 8259
  §8.1; stdin is decoded with ``surrogateescape``, so they arrive as lone
  surrogates) → ``-32602`` with the request's id, never text with U+FFFD
  written in their place;
* a key twice in one object (``{"name": "a", "name": "b"}``: RFC 8259 leaves
  which one counts to the parser, and two parsers may disagree) → ``-32602``
  with the request's id.

A byte-order mark opening a line is dropped (RFC 8259 §8.1: a parser may
ignore it). Anything else goes to the SDK unchanged. Replies are written to the same
stdout as the SDK's, one whole line at a time under one lock, so frames never
interleave.
"""

from __future__ import annotations

import json
import re

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
MAX_LINE_CHARS = 4 * 1024 * 1024
"""Characters of one JSON-RPC message: far above any tool call (a memory body
is at most 20,000 characters, a query 4,096) and small enough to parse at once."""
_NOT_UTF8 = re.compile("[\udc80-\udcff]")  # a byte that is not UTF-8, as surrogateescape decodes it


def _error(code: int, message: str, id=None) -> dict:
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def _usable_id(value) -> bool:
    return isinstance(value, str) or (isinstance(value, int) and not isinstance(value, bool))


def _check(message) -> dict | None:
    """The error reply one decoded message calls for, or None when it may go on."""
    if not isinstance(message, dict):
        return _error(INVALID_REQUEST, "Invalid Request: a JSON-RPC message is a JSON object")
    has_id = "id" in message
    id = message.get("id") if has_id and _usable_id(message.get("id")) else None
    if message.get("jsonrpc") != "2.0":
        return _error(INVALID_REQUEST, f"Invalid Request: jsonrpc must be \"2.0\", not {message.get('jsonrpc')!r}", id)
    if has_id and message["id"] is not None and not _usable_id(message["id"]):
        return _error(INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
    if "method" not in message:
        if has_id and ("result" in message or "error" in message):
            return None if message["id"] is not None else ""  # a response (to a request of ours, or to nothing)
        return _error(INVALID_REQUEST, "Invalid Request: no method", id)
    if has_id and message["id"] is None:
        return _error(INVALID_REQUEST, "Invalid Request: id must be a string or an integer, not null")
    if not isinstance(message["method"], str):
        return _error(INVALID_REQUEST, "Invalid Request: method must be a string", id)
    if "params" in message and not isinstance(message["params"], dict):
        if not has_id:
            return {}  # a notification gets no reply, even an error
        return _error(INVALID_PARAMS, "Invalid params: params must be an object", id)
    return None


def _pairs(twice: list):
    """A ``json.loads`` object hook that notes, in ``twice``, each key an object holds more than once."""
    def hook(pairs):
        out = dict(pairs)
        if len(out) < len(pairs):
            seen = set()
            twice.extend(k for k, _ in pairs if k in seen or seen.add(k))
        return out
    return hook


def _unreadable(message, text: str):
    """The ``-32602`` reply to a message that parsed but holds no valid text (``""`` for a notification)."""
    if isinstance(message, dict) and "id" not in message:
        return ""  # a notification gets no reply
    id = message.get("id") if isinstance(message, dict) and _usable_id(message.get("id")) else None
    return _error(INVALID_PARAMS, f"Invalid params: {text}", id)


def check_line(line: str):
    """What to do with one raw stdin line: None to pass it to the SDK, ``{}``
    or ``""`` to drop it, else the reply (a dict, or a list for a batch).
    ``line`` is read with ``surrogateescape``: a byte that is not UTF-8 is a
    lone surrogate U+DC80–U+DCFF in it."""
    if not line.strip():
        return ""
    if len(line) > MAX_LINE_CHARS:
        return _too_long(len(line))
    twice: list = []
    try:
        message = json.loads(line, object_pairs_hook=_pairs(twice))
    except ValueError as exc:
        return _error(PARSE_ERROR, f"Parse error: {exc}")
    except RecursionError:
        return _error(PARSE_ERROR, "Parse error: the JSON is nested too deeply")
    try:
        json.dumps(message, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        if _NOT_UTF8.search(line):
            return _unreadable(message, "the message holds bytes that are not UTF-8 (JSON text is UTF-8); "
                                        "nothing was done")
        return _unreadable(message, "a string holds a lone UTF-16 surrogate (such as \\ud800), which is not "
                                    "Unicode text")
    except RecursionError:
        return _error(PARSE_ERROR, "Parse error: the JSON is nested too deeply")
    if twice:
        return _unreadable(message, f"the key {twice[0]!r} appears twice in one object; send it once")
    if isinstance(message, list):
        if not message:
            return _error(INVALID_REQUEST, "Invalid Request: empty batch")
        replies = []
        for item in message:
            reply = _check(item) or _error(INVALID_REQUEST, "Invalid Request: batches are not supported",
                                           item.get("id") if isinstance(item, dict) and _usable_id(item.get("id"))
                                           else None)
            if reply and (not isinstance(item, dict) or "id" in item):
                replies.append(reply)
        return replies or ""
    return _check(message)


def _too_long(size: int) -> dict:
    return _error(INVALID_REQUEST, f"Invalid Request: a message of {size} or more characters; "
                                   f"at most {MAX_LINE_CHARS} are read")


class GuardedStreams:
    """The stdin and stdout the SDK's :func:`mcp.server.stdio.stdio_server`
    serves, wrapped: :attr:`stdin` yields only lines :func:`check_line` lets
    through (answering the others itself), :attr:`stdout` writes whole lines
    under the lock the answers share. ``stdin``/``stdout``: anyio text files."""

    def __init__(self, stdin, stdout):
        import anyio

        self._in, self._out, self._lock = stdin, stdout, anyio.Lock()
        self.stdin, self.stdout = _Lines(self), _Out(self)

    async def write(self, text: str) -> None:
        import anyio

        async with self._lock:  # written and flushed in one trip to a worker thread, not two
            await anyio.to_thread.run_sync(self._write_now, text)

    def _write_now(self, text: str) -> None:
        out = self._out.wrapped
        out.write(text)
        out.flush()


class _Out:
    def __init__(self, guard: GuardedStreams):
        self._guard = guard

    async def write(self, text: str) -> None:
        await self._guard.write(text)

    async def flush(self) -> None:
        return None  # every write was flushed under the lock


class _Lines:
    def __init__(self, guard: GuardedStreams):
        self._guard = guard

    def __aiter__(self):
        return self._lines()

    async def _lines(self):
        import anyio

        reader = self._guard._in.wrapped
        while True:
            line = await anyio.to_thread.run_sync(reader.readline, MAX_LINE_CHARS + 1)
            if not line:
                return
            if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                size = len(line)
                while line and not line.endswith("\n"):  # drop the rest of the line, a chunk at a time
                    line = await anyio.to_thread.run_sync(reader.readline, MAX_LINE_CHARS)
                    size += len(line)
                await self._guard.write(json.dumps(_too_long(size)) + "\n")
                continue
            line = line.removeprefix("\ufeff")  # a byte-order mark: ignored, as RFC 8259 §8.1 allows
            verdict = check_line(line)
            if verdict is None:
                yield line
            elif verdict:
                await self._guard.write(json.dumps(verdict) + "\n")


__all__ = ["GuardedStreams", "check_line", "INVALID_PARAMS", "INVALID_REQUEST", "PARSE_ERROR"]
