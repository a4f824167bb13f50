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
  since it gets no reply); so are a ``tools/call``'s ``arguments`` that are not
  an object (a string of JSON, an array), saying so;
* JSON nested deeper than Python's parser goes → ``-32700``; a string with a
  lone UTF-16 surrogate (``"\\ud800"``, not Unicode text) → ``-32602``;
  ``"id": null`` (MCP: an id is never null) → ``-32600`` with id null;
* a line over :data:`MAX_LINE_CHARS` → ``-32600`` with the id its first or
  last characters give (:func:`line_id`; null when neither does), read and
  dropped in chunks so it never sits in memory whole;
* bytes that are not UTF-8 inside a string (JSON text is UTF-8, RFC 8259
  §8.1; stdin is decoded with ``surrogateescape``, so they arrive as lone
  surrogates) → ``-32602`` with the request's id, never text with U+FFFD
  written in their place;
* a key twice in one object (``{"name": "a", "name": "b"}``: RFC 8259 leaves
  which one counts to the parser, and two parsers may disagree) → ``-32602``
  with the request's id.

A byte-order mark opening a line is dropped (RFC 8259 §8.1: a parser may
ignore it). A stdin that is a pipe or a socket is read by the event loop's
own thread once it polls readable (:func:`_polled_lines`), the lines the same
as a worker thread's ``readline`` gives (anything else is read that way). Anything else goes to the SDK unchanged. Replies are written to the same
stdout as the SDK's, one whole line at a time under one lock, so frames never
interleave. A client that stops reading (it exited, closed the pipe) ends the
server quietly: one line on stderr, no traceback (:meth:`GuardedStreams._client_gone`).
"""

from __future__ import annotations

import json
import os
import re

PARSE_ERROR, INVALID_REQUEST, INVALID_PARAMS = -32700, -32600, -32602
MAX_LINE_CHARS = 4 * 1024 * 1024
"""Characters of one JSON-RPC message: far above any tool call (a memory body
is at most 20,000 characters, a query 4,096) and small enough to parse at once."""
QUIET_SECONDS = 60.0
"""At the end of stdin, how long the wire waits for the next reply to a request it read before passing the end
on (:meth:`GuardedStreams.drained`): far above a tool call (a search of 10,000 memories takes about a second)."""
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
    arguments = (message.get("params") or {}).get("arguments")
    if message["method"] == "tools/call" and has_id and arguments is not None and not isinstance(arguments, dict):
        # the SDK's own reply says only "Invalid request parameters": say which, so the caller can fix it
        return _error(INVALID_PARAMS, f"Invalid params: tools/call arguments must be a JSON object, not "
                                      f"{_json_kind(arguments)} (send {{\"name\": …}}, not a string of JSON)", id)
    return None


def _json_kind(value) -> str:
    """What JSON calls ``value``'s type: a string, an array, a number, a boolean."""
    return ("a string" if isinstance(value, str) else "an array" if isinstance(value, list)
            else "a boolean" if isinstance(value, bool) else "a number")


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


# The id of a message too long to parse, where clients write it: first (or after "jsonrpc"), as the Python SDK
# does, or last, as the TypeScript SDK does ({...request, jsonrpc, id}). Inside a string a quote is escaped, so a
# quote after "," or "{" opens a key of an object, and a value followed by the line's one last "}" is the
# outermost object's.
_VALUE = r'(-?\d{1,18}|"(?:[^"\\\n]|\\.){0,200}")'
_HEAD_ID = re.compile(r'\s*\{\s*(?:"jsonrpc"\s*:\s*"2\.0"\s*,\s*)?"id"\s*:\s*' + _VALUE + r'\s*[,}]')
_TAIL_ID = re.compile(r'[,{]\s*"id"\s*:\s*' + _VALUE + r'\s*\}\s*$')


# A reply as the SDK writes it (pydantic's compact JSON, keys in the model's order): the id it answers is the
# outermost object's second key; what follows it is the result or the error, never read here.
_REPLY_HEAD = re.compile(r'\{"jsonrpc":"2\.0","id":' + _VALUE + r',"(?:result|error)":')


def line_id(head: str, tail: str):
    """The id of a message too long to parse (its first and last characters: ``head``, ``tail``), or None when
    neither end names one: the error reply then reaches the client's waiting call instead of leaving it
    waiting (an ``"id": null`` reply answers no call)."""
    for pattern, text in ((_HEAD_ID, head), (_TAIL_ID, tail)):
        found = pattern.match(text) if pattern is _HEAD_ID else pattern.search(text)
        if found:
            try:
                value = json.loads(found.group(1))
            except ValueError:
                continue
            if _usable_id(value):
                return value
    return None


def _too_long(size: int, id=None) -> dict:
    return _error(INVALID_REQUEST, f"Invalid Request: a message of {size} or more characters; "
                                   f"at most {MAX_LINE_CHARS} are read", id)


class GuardedStreams:
    """The stdin and stdout the SDK's :func:`mcp.server.stdio.stdio_server`
    serves, wrapped: :attr:`stdin` yields only lines :func:`check_line` lets
    through (answering the others itself), :attr:`stdout` writes whole lines
    under the lock the answers share. ``stdin``/``stdout``: anyio text files."""

    def __init__(self, stdin, stdout):
        import anyio

        # fast_acquire: a reply free to go is written at once, never after a turn of the event loop (anyio ≥ 4.5)
        self._in, self._out, self._lock = stdin, stdout, anyio.Lock(fast_acquire=True)
        self.stdin, self.stdout = _Lines(self), _Out(self)
        self.gone: OSError | None = None  # why the client can no longer be written to, once it cannot
        self._pipe: bool | None = None  # whether the wire's stdout is a pipe (known at the first write)
        self.waiting: set = set()  # the ids of the requests passed to the SDK and not yet answered
        self._answered = anyio.Event()  # set (and replaced) each time a reply answers one of them

    def asked(self, line: str) -> None:
        """Note the id of the request ``line`` (a line :func:`check_line` let through), if it is one."""
        if '"method"' in line and '"id"' in line:
            message = json.loads(line)
            if isinstance(message, dict) and "method" in message and _usable_id(message.get("id")):
                self.waiting.add(message["id"])

    def _replied(self, text: str) -> None:
        """Note the request ``text`` (a message the SDK writes) answers."""
        import anyio

        if not self.waiting:
            return
        head = _REPLY_HEAD.match(text)  # the SDK's compact reply: its id read from the head, the rest unparsed
        if head:
            id = json.loads(head.group(1))
        elif '"method"' in text[:200]:
            return
        else:
            try:
                message = json.loads(text)
            except ValueError:
                return
            if not isinstance(message, dict) or "method" in message:
                return
            id = message.get("id")
        if id in self.waiting:
            self.waiting.discard(id)
            self._answered.set()
            self._answered = anyio.Event()

    async def drained(self) -> None:
        """Wait until every request read has its reply, or none came for :data:`QUIET_SECONDS` (the rest
        never will), or the client is gone. At the end of stdin the SDK cancels the calls still running
        (their writes are done, their replies dropped), so a client that sends its calls and closes stdin
        (``memdir mcp < calls.jsonl``) would miss the last replies; stdin's end is passed on after this."""
        import anyio

        while self.waiting and self.gone is None:
            answered = self._answered
            with anyio.move_on_after(QUIET_SECONDS) as quiet:
                await answered.wait()
            if quiet.cancelled_caught:
                return

    async def write(self, text: str) -> None:
        """Write ``text`` (whole JSON-RPC lines) to the client, under the lock the replies share. What a pipe
        takes at once is written in this thread (:meth:`_write_ready`); the rest, in one trip to a worker thread.
        That trip was the costliest wait of a search's reply: at a load of 14 on 2 cores, 7.6 ms p50 of an 89 ms
        round trip (two threads woken in turn, each waiting for a core)."""
        import anyio

        async with self._lock:
            rest = self._write_ready(text.encode("utf-8"))
            if rest:  # a pipe that is full, or a stdout that is not a pipe: written where a block waits alone
                await anyio.to_thread.run_sync(self._write_now, rest)
        self._replied(text)

    def _write_ready(self, data: bytes) -> bytes:
        """Write to a pipe what it takes without blocking, while it polls writable: the first write as much as
        :func:`_room` says, then at most ``select.PIPE_BUF`` bytes at a time (Linux: writable is a free page in
        the pipe, so a write that size never blocks); return the rest.
        Anything but a pipe (a file, a terminal, a socket), or no ``poll`` (Windows): nothing written here. A
        client gone: said once (:meth:`_client_gone`), nothing left to write."""
        import select
        import stat

        out = self._out.wrapped
        try:
            fd = out.fileno()
            if self._pipe is None:
                self._pipe = hasattr(select, "poll") and stat.S_ISFIFO(os.fstat(fd).st_mode)  # not on Windows
            if not self._pipe:
                return data
            poller = select.poll()
            poller.register(fd, select.POLLOUT)
            room = _room(fd)
            while data and poller.poll(0):
                data = data[os.write(fd, data[:room]):]
                room = select.PIPE_BUF
        except OSError as exc:  # the client is gone (EPIPE): nobody reads a reply any more
            self._client_gone(out, exc)
            return b""
        return data

    def _write_now(self, data: bytes) -> None:
        out = self._out.wrapped
        try:
            fd = out.fileno()
            while data:
                data = data[os.write(fd, data):]
        except OSError as exc:  # the client is gone (EPIPE, ECONNRESET, ENOTCONN): nobody reads a reply any more
            self._client_gone(out, exc)

    def _client_gone(self, out, exc: OSError) -> None:
        """The client stopped reading stdout: said once on stderr; the wire's stdout then writes to the null
        device (what is buffered and every later reply goes nowhere, never a traceback at exit) and
        :attr:`stdin` ends after the line in hand, so the server stops. A call already running finishes
        whole (the gateway writes atomically); its reply is what is lost."""
        import logging

        if self.gone is None:
            self.gone = exc
            logging.getLogger("memdir.mcp").warning(
                "memdir mcp: the client closed its end of the connection (%s); stopping", exc.strerror or exc)
        null = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(null, out.fileno())
        finally:
            os.close(null)
        try:
            out.flush()  # what was buffered for the client, now to the null device
        except OSError:
            pass


def _room(fd: int) -> int:
    """Bytes one write to the pipe ``fd`` takes without blocking when it polls writable: its whole capacity
    while it is empty (Linux: ``FIONREAD`` 0, ``F_GETPIPE_SZ``), so a reply goes in one write and the client
    wakes once for it, not once per ``PIPE_BUF``; else (or elsewhere) ``select.PIPE_BUF``."""
    import select
    import sys

    try:
        import fcntl
        import termios

        if int.from_bytes(fcntl.ioctl(fd, termios.FIONREAD, bytes(4)), sys.byteorder) == 0:
            return max(select.PIPE_BUF, fcntl.fcntl(fd, fcntl.F_GETPIPE_SZ))
    except (ImportError, AttributeError, OSError):
        pass
    return select.PIPE_BUF


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
        reader = self._guard._in.wrapped
        fd = _pipe_fd(reader)
        raw = _polled_lines(fd, self._guard) if fd is not None else _threaded_lines(reader, self._guard)
        async for line, too_long in raw:
            if self._guard.gone is not None:
                return
            if too_long is not None:
                await self._guard.write(json.dumps(_too_long(*too_long)) + "\n")
                continue
            line = line.removeprefix("\ufeff")  # a byte-order mark: ignored, as RFC 8259 §8.1 allows
            verdict = check_line(line)
            if verdict is None:
                self._guard.asked(line)
                yield line
            elif verdict:
                await self._guard.write(json.dumps(verdict) + "\n")
        if self._guard.gone is None:
            await self._guard.drained()


def _pipe_fd(reader) -> int | None:
    """The file descriptor of ``reader`` (the wire's stdin) when it is a pipe or a socket on a system with
    ``poll``: read by the event loop's thread once it polls readable (:func:`_polled_lines`); else None."""
    import select
    import stat

    try:
        fd = reader.fileno()
        mode = os.fstat(fd).st_mode
    except (OSError, ValueError):
        return None
    return fd if hasattr(select, "poll") and (stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode)) else None


async def _threaded_lines(reader, guard):
    """``(line, None)`` for each line of ``reader`` (a text file of ``surrogateescape`` UTF-8), read in a worker
    thread; ``(None, (size, id))`` for a line over :data:`MAX_LINE_CHARS`, read and dropped a chunk at a time."""
    import anyio

    while guard.gone is None:
        line = await anyio.to_thread.run_sync(reader.readline, MAX_LINE_CHARS + 1)
        if not line:
            return
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            size, head, tail = len(line), line[:1024], line[-1024:]
            while line and not line.endswith("\n"):  # drop the rest of the line, a chunk at a time
                line = await anyio.to_thread.run_sync(reader.readline, MAX_LINE_CHARS)
                size += len(line)
                tail = (tail + line)[-1024:]
            yield None, (size, line_id(head, tail))
        else:
            yield line, None


async def _polled_lines(fd: int, guard):
    """What :func:`_threaded_lines` yields, read from the pipe or socket ``fd`` by this (the event loop's) thread:
    it waits for ``fd`` to poll readable, then takes what is there in one ``read`` (never blocking) and decodes
    it (UTF-8, ``surrogateescape``, universal newlines). A request wakes only the loop's thread, not a worker's and then the loop's:
    each wake-up waits for a core on a loaded machine, the read side of the trip :meth:`GuardedStreams.write`
    spares the replies. Lines are the same as the worker's: sizes in characters, the newline kept."""
    import codecs
    import io

    import anyio

    # as the text file over stdin decodes: \r\n and a lone \r end a line as \n does (universal newlines)
    decoder = io.IncrementalNewlineDecoder(codecs.getincrementaldecoder("utf-8")("surrogateescape"), translate=True)
    parts: list[str] = []  # the line in hand, not yet ended
    held = 0  # its characters
    dropping: list | None = None  # a line over the limit: [size, head, tail] while the rest of it is dropped
    while guard.gone is None:
        await anyio.wait_readable(fd)
        chunk = os.read(fd, 1 << 16)
        text = decoder.decode(chunk, final=not chunk)
        start = 0
        while True:
            end = text.find("\n", start) + 1
            piece = text[start:end] if end else text[start:]
            if dropping is not None:
                dropping[0] += len(piece)
                dropping[2] = (dropping[2] + piece)[-1024:]
                if end:
                    yield None, (dropping[0], line_id(dropping[1], dropping[2]))
                    dropping = None
            elif held + len(piece) - (1 if end else 0) > MAX_LINE_CHARS:
                line = "".join(parts) + piece
                dropping = [len(line), line[:1024], line[-1024:]]
                parts, held = [], 0
                if end:
                    yield None, (dropping[0], line_id(dropping[1], dropping[2]))
                    dropping = None
            elif end:
                line = "".join(parts) + piece
                parts, held = [], 0
                yield line, None
            elif piece:
                parts.append(piece)
                held += len(piece)
            if not end:
                break
            start = end
        if not chunk:  # the end of stdin: a last line without its newline is a line
            if dropping is not None:
                yield None, (dropping[0], line_id(dropping[1], dropping[2]))
            elif parts:
                yield "".join(parts), None
            return


__all__ = ["GuardedStreams", "check_line", "line_id", "INVALID_PARAMS", "INVALID_REQUEST", "PARSE_ERROR"]
