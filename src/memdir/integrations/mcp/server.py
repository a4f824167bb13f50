"""``memdir mcp``: the memory tools as an MCP server over stdio (DESIGN §10).

Built on the official ``mcp`` SDK's low-level :class:`mcp.server.Server`. The
tools, their schemas and their text come from :mod:`memdir.tools`, so MCP and
any other harness see the same thing. Tool calls run as actor ``agent``, in a
session built by :func:`memdir.session.open_session`.

Project root, in order (DESIGN §2; never from a tool argument):

1. the client's MCP roots, when the client declares the roots capability —
   asked on the first tool call and again after ``roots/list_changed``; the
   first ``file://`` root on this machine (no host, or ``localhost``) that is
   a usable project wins;
2. ``--project`` / ``MEMDIR_PROJECT``;
3. the launch directory, unless it is ``$HOME`` or ``/`` — then project tools
   answer with an error saying how to set one, and user-layer tools still work.

The server ``instructions`` carry the guidance alone
(:func:`memdir.tools.specs.instructions`: when to save, every tool, and to
call ``memory_list`` for the index) — the same for an empty store. Started with ``--hooks`` (what
``memdir install`` registers for a client it also gives memdir's session-start hook), they are two lines
pointing at the context block that hook injects, which carries the index and the same guidance. They are
sent before the client's roots are known, so an index there would be the
launch directory's, not the project the tool calls go to; Claude Code gets
the index from the SessionStart hook (DESIGN §10).

Roots are asked with the SDK's ``send_request(ListRootsRequest)`` (the
``list_roots`` helper is deprecated along with roots in the 2026-07-28
protocol, which asks for them through ``InputRequiredResult`` instead).

While it runs, the server is also the home's warm process
(:mod:`memdir.search.warm`): fresh prompt hooks ask it for the prompt's dense
cosines over its socket (:func:`memdir.search.warm.socket_path`) instead of loading the embedding model.

A client drops a server that answers ``initialize`` late (Claude Code's one-shot ``claude -p`` gave up after
3.8–5.3 s on a loaded machine), so that answer needs only the settings, the launch project and the tools'
static schemas: the facade, the store and search are imported by the first tool call, or before it by
:meth:`MemoryServer.warm_up`, which starts once ``initialize`` is answered (``notifications/initialized``,
else the first request): the warm socket, the agent's short lock waits and the embedding model with them.
The rest of the start is the MCP SDK's own import (``benchmarks/bench_mcp_start.py --importtime``).

Nothing but JSON-RPC reaches stdout: fd 1 points at stderr while serving and
the wire is a private copy of it; malformed JSON-RPC gets its error reply
(:mod:`.wire`); setup runs with ``sys.stdout`` redirected to stderr, and
logging goes to stderr.
"""

from __future__ import annotations

import contextlib
import gc
import logging
import os
import sys
import threading
from pathlib import Path
from urllib.parse import unquote_to_bytes, urlparse

import anyio
import mcp_types as types
from mcp.server import Server
from mcp_types.version import MODERN_PROTOCOL_VERSIONS

from ...errors import MemdirError, ScopeError
from ...session import open_session
from ...text.printable import well_formed
from ...tools.specs import instructions, tool_specs
from ...version import VERSION
from .ending import Ending

log = logging.getLogger("memdir.mcp")
ROOTS_TIMEOUT = 5.0  # seconds to wait for the client's roots/list answer
ROOTS_KEY = "memdir-roots"


def _root_path(uri: str) -> Path | None:
    """The local path of a ``file://`` root; None for any other scheme, and for a file URI naming
    another host (``file://build-server/etc``: RFC 8089 — a file there, not ``/etc`` here). The
    path's percent-escapes are bytes, decoded as the file system decodes names (a directory whose
    name is not UTF-8 is reached, not replaced by U+FFFD)."""
    parsed = urlparse(str(uri))
    if parsed.scheme != "file" or parsed.netloc.lower() not in ("", "localhost"):
        return None
    return Path(os.fsdecode(unquote_to_bytes(parsed.path)))


class MemoryServer:
    """The state behind one ``memdir mcp`` process: the home, the fallback
    project and the project learned from the client's roots.

    ``home``/``project`` as for :meth:`memdir.Memory.open`. Raises only
    :class:`MemdirError` (an unreadable config file).

    Answering ``initialize`` needs the settings, the launch project and the tools' static schemas alone
    (``session``): the facade (:mod:`memdir.api`), the store and search are imported by the first tool
    call, or before it by :meth:`warm_up` (a process of its own, ``serving``), which starts once the
    client has its answer.
    """

    def __init__(self, home: str | os.PathLike | None = None, project: str | os.PathLike | None = None,
                 hooks: bool = False):
        self.session = open_session(home, project, actor="agent")  # as Memory.open, without importing the facade
        self.hooks = hooks  # the client runs memdir's session-start hook too (`memdir mcp --hooks`)
        self._fallback = None
        self._from_roots = None
        self._roots_checked = False
        self._roots_lock = anyio.Lock()
        self._made = threading.Lock()  # the fallback Memory, made once (the warming thread or a tool call)
        self.freeze_heap = False  # a server in a process of its own (serve_stdio): the heap frozen once (_settled)
        self.serving = False  # a process of its own (serve_stdio): the warm socket and the warm-up are its
        self.warm = None  # the home's WarmServer (memdir.search.warm), once _warm started it
        self._warming: threading.Thread | None = None
        self.ending = None  # a process of its own (serve_stdio): how SIGINT and SIGTERM end it (.ending)

    @property
    def fallback(self):
        """The :class:`memdir.Memory` of the launch project (``--project``, ``MEMDIR_PROJECT``, the launch
        directory), made on first use: importing the facade is most of memdir's part of a start."""
        with self._made:
            if self._fallback is None:
                from ...api import Memory

                self._fallback = Memory(self.session)
            return self._fallback

    def warm_up(self) -> None:
        """In a process of its own (``serving``), once, after ``initialize`` is answered (or on the first
        request of a client without that handshake): a daemon thread imports what the first tool call runs,
        starts the home's warm socket (:func:`memdir.search.warm.serve`, which then answers the prompt hooks)
        and has it load the embedding model when the home has vectors to use
        (:meth:`memdir.search.warm.server.WarmServer.preload`). Off the reply path; answers are those a
        cold call gives. Never raises."""
        if not self.serving or self._warming is not None:
            return
        self._warming = threading.Thread(target=self._warm, name="memdir-mcp-warm", daemon=True)
        self._warming.start()

    def _warm(self) -> None:
        try:
            from ...search.locked import serve_agent

            serve_agent()  # the agent's tool calls wait on this process: a held index lock is waited 0.25 s, not 5
            # This long-lived process runs the prompt hooks of its home, the prompt embedded here (memdir.search.warm).
            from ...search.warm import serve
            from ..claude_code.hooks import answer_warm

            self.warm = serve(self.session.home, self.session.settings, hooks=answer_warm)
            from ...tools import handlers  # noqa: F401  (the first tool call's code: the store, search)

            _ = self.fallback  # the facade, made
            if self.warm is not None:
                self.warm.preload()
        except Exception:  # the tool calls import and load what they need themselves
            log.exception("memdir: warming up failed")

    def halt(self) -> None:
        """For a process that ends now (:mod:`.ending`): the warm socket stops serving once the request it may be
        answering is done (:meth:`memdir.search.warm.server.WarmServer.halt`). Never raises."""
        if self.warm is not None:
            self.warm.halt()

    def stop_warm(self) -> None:
        """End the warm-up (waited ≤ 10 s: a thread importing or starting a load) and the warm socket (the request
        it answers completed first: :meth:`memdir.search.warm.server.WarmServer.halt`). A model load under way is
        not waited for: :func:`serve_stdio` then ends the process without a teardown
        (:func:`memdir.search.warm.server.leave`)."""
        if self._warming is not None:
            self._warming.join(timeout=10.0)
        if self.warm is not None:
            self.warm.halt()

    def instructions(self) -> str:
        """Server instructions: the guidance (:func:`memdir.tools.specs.instructions`),
        never the index — two short lines when the client's session-start hook gives the guidance
        (``hooks``). Without a launch project, a line saying project
        memories wait for the client's roots or ``--project``."""
        text = instructions(self.session.settings, hooks=self.hooks)
        if self.session.project_root is None:
            text += ("\n\nProject memories are unavailable until the client's roots or --project name a "
                     f"project: {self.session.project_error}")
        return text

    def roots_changed(self) -> None:
        """Forget the roots answer; the next tool call asks again."""
        self._roots_checked = False

    async def memory_for(self, ctx, params=None):
        """The :class:`Memory` for a tool call: from the client's roots when it
        offers them, else the fallback. On the 2026-07-28 protocol, where a
        server cannot send requests of its own, the first call returns an
        ``InputRequiredResult`` asking for the roots; the client retries with
        them (``input_responses``)."""
        async with self._roots_lock:
            if not self._roots_checked:
                answer = (getattr(params, "input_responses", None) or {}).get(ROOTS_KEY)
                caps = ctx.session.client_capabilities
                offers_roots = caps is not None and caps.roots is not None
                if isinstance(answer, types.ListRootsResult):
                    self._from_roots = self._adopt(answer.roots)
                elif offers_roots and ctx.session.protocol_version in MODERN_PROTOCOL_VERSIONS:
                    return types.InputRequiredResult(input_requests={ROOTS_KEY: types.ListRootsRequest()})
                elif offers_roots and ctx.session.can_send_request:
                    self._from_roots = self._adopt(await self._ask_roots(ctx))
                self._roots_checked = True
        return self._from_roots or self.fallback

    async def _ask_roots(self, ctx) -> list:
        try:
            with anyio.fail_after(ROOTS_TIMEOUT):
                return (await ctx.session.send_request(types.ListRootsRequest(), types.ListRootsResult)).roots
        except Exception as exc:  # a client that fails roots/list leaves us on the fallback
            log.warning("memdir: roots/list failed (%s); using the launch project", exc)
            return []

    def _adopt(self, roots):
        for root in roots:
            path = _root_path(str(root.uri))
            if path is None:
                continue
            fb = self.session
            try:
                session = open_session(fb.home, path, actor="agent", settings=fb.settings, use_cwd=False)
            except ScopeError as exc:
                log.warning("memdir: ignoring root %s: %s", root.uri, exc)
                continue
            if session.project_root is None:
                log.warning("memdir: ignoring root %s: %s", root.uri, session.project_error)
                continue
            from ...api import Memory

            return Memory(session)
        return None

    async def call(self, ctx, params: types.CallToolRequestParams):
        """Run one tool. Domain errors and unexpected failures both come back
        as ``isError`` results (the latter logged with a traceback)."""
        from ...tools.handlers import run_tool

        self.warm_up()
        if self.serving:
            from ...search.locked import serve_agent

            serve_agent()  # before the warming thread has: the first call waits as every later one
        mem = await self.memory_for(ctx, params)
        if isinstance(mem, types.InputRequiredResult):
            return mem
        name, arguments = params.name, params.arguments
        try:
            # Run inline: calls on one connection are short, and the layers' scan
            # caches are not shared across threads.
            with self.ending.working() if self.ending is not None else contextlib.nullcontext():
                output = run_tool(mem.session, name, arguments or {})  # a signal meanwhile: ends once it returns
        except Exception as exc:  # a bug must not take the server down
            log.exception("memdir: %s failed", name)
            said = well_formed(f"Error: internal error in {name}: {type(exc).__name__}: {exc}")
            return types.CallToolResult(content=[types.TextContent(text=said)], is_error=True)
        if name == "memory_search" and self.freeze_heap:
            self._settled()
        return types.CallToolResult(content=[types.TextContent(text=output.text)], is_error=output.is_error)

    def _settled(self) -> None:
        """Once, after the first search (the model, the index's kept rows and the modules it needs loaded): collect
        and freeze the heap (``gc.freeze``), so the collector's full passes no longer walk the ≈ 100,000 objects
        that live as long as the server. A full pass then took 38 against 76 ms of a 1,000-note server's search
        (load 7 on 2 cores; about one pass in a hundred searches). Objects frozen are never collected: only those
        alive after a full collection are, and they are the process's own; only a server whose process is its own
        (:func:`serve_stdio`) does it, never one built inside another program (its heap is not the server's)."""
        self.freeze_heap = False
        gc.collect()
        gc.freeze()


def build_server(state: MemoryServer) -> Server:
    """The SDK :class:`Server` exposing the memory tools (:func:`memdir.tools.specs.tool_specs`,
    stating the session's limits) for ``state``."""
    tools = [types.Tool(name=t.name, title=t.title, description=t.description, input_schema=t.schema,
                        annotations=types.ToolAnnotations.model_validate(t.annotations()))
             for t in tool_specs(state.session.settings)]

    async def list_tools(ctx, params) -> types.ListToolsResult:
        state.warm_up()
        return types.ListToolsResult(tools=tools)

    async def call_tool(ctx, params: types.CallToolRequestParams) -> types.CallToolResult:
        return await state.call(ctx, params)

    async def roots_changed(ctx, params) -> None:
        state.roots_changed()

    async def initialized(ctx, params) -> None:
        state.warm_up()  # the client has initialize's answer: warming no longer delays it

    server = Server("memdir", version=VERSION, title="memdir memory",
                    instructions=state.instructions(), on_list_tools=list_tools, on_call_tool=call_tool)
    # Registered directly: the constructor keyword warns that roots are deprecated in the
    # 2026-07-28 protocol, but clients on the handshake protocol still send it.
    server.add_notification_handler("notifications/roots/list_changed", types.NotificationParams, roots_changed)
    server.add_notification_handler("notifications/initialized", types.NotificationParams, initialized)
    server.middleware.append(ToolsListed())  # inside the SDK's own (its OpenTelemetry span still sees each call)
    return server


class ToolsListed:
    """Server middleware (the SDK's ``Server.middleware``): a ``tools/list`` without params answered with the wire
    form the first such call made (the SDK's checked, serialized dict), one per protocol version, as a fresh dict.

    The tools are fixed for a server's life (:func:`build_server`), so the SDK's validating and dumping them again
    at each call remade the same dict: 1.6 against 0.97 ms of the server's CPU per listing a client asks (the
    eleven tools' 11.5 KB; ``benchmarks/profile_mcp_search.py --floor``, load 20 on 2 cores). A call with params (a cursor, ``_meta``), any other method and a
    failed call (before ``initialize``) go the SDK's whole way, and nothing is kept from them."""

    def __init__(self):
        self._kept: dict[str, dict] = {}  # protocol version -> the result's wire form

    async def __call__(self, ctx, call_next):
        if ctx.method != "tools/list" or ctx.params or ctx.request_id is None:
            return await call_next(ctx)
        kept = self._kept.get(ctx.protocol_version)
        if kept is None:
            result = await call_next(ctx)
            if not isinstance(result, dict):
                return result
            kept = self._kept[ctx.protocol_version] = result
        return dict(kept)  # the envelope the SDK adds goes around a dict of its own; the tools are only read


def serve_stdio(home: str | None = None, project: str | None = None, hooks: bool = False) -> int:
    """Run the server on stdin/stdout until the client closes stdin. Returns
    the exit code (1 when the store cannot be opened). ``hooks``: the client runs memdir's hooks too
    (``memdir mcp --hooks``, written by ``memdir install``): short instructions (:meth:`MemoryServer.instructions`)."""
    logging.basicConfig(stream=sys.stderr, level=os.environ.get("MEMDIR_LOG_LEVEL", "WARNING").upper(),
                        format="%(levelname)s %(name)s: %(message)s")
    with contextlib.redirect_stdout(sys.stderr):
        try:
            state = MemoryServer(home, project, hooks=hooks)
            state.freeze_heap = state.serving = True
            state.ending = Ending(state.halt)
            state.ending.install()  # SIGINT (Claude Code's exit), SIGTERM: at once, never in a write
            server = build_server(state)
        except MemdirError as exc:
            print(f"memdir mcp: {exc}", file=sys.stderr)
            return 1

    async def main() -> None:
        from mcp.server.stdio import stdio_server

        from .wire import GuardedStreams

        wire = GuardedStreams(*_claim_stdio())
        async with stdio_server(wire.stdin, wire.stdout) as (read_stream, write_stream):
            await server.run(read_stream, write_stream, server.create_initialization_options())

    try:
        anyio.run(main)  # the warm socket, the agent's lock waits and the imports follow initialize (warm_up)
    finally:
        state.stop_warm()
    if state.warm is None and state._warming is None:  # the warm path never began (the client never initialized)
        return 0
    from ...search.warm.server import leave

    # a model load still under way, or a warm-up that may start one: os._exit(0), no teardown (it aborted: SIGABRT)
    return leave(0, state._warming)


def _claim_stdio():
    """The wire's stdin and stdout as anyio text files on private copies of
    fds 0 and 1 (stdin through :mod:`.early`'s pipe when ``memdir mcp`` started it); fd 0 then reads the null device and fd 1 writes to stderr,
    so a stray print or a child process cannot corrupt the JSON-RPC stream."""
    import io

    from . import early

    early.take_over()  # server/discover is the SDK's to answer from now on; stdin read through the early pipe if any
    wire_in, wire_out = early.stdin_fd(), os.dup(1)
    wire_in = os.dup(0) if wire_in is None else wire_in
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    # surrogateescape: a byte that is not UTF-8 reaches the wire's check as itself and is refused there,
    # never silently replaced by U+FFFD and written into a memory (wire.check_line)
    stdin = io.TextIOWrapper(os.fdopen(wire_in, "rb"), encoding="utf-8", errors="surrogateescape")
    stdout = io.TextIOWrapper(os.fdopen(wire_out, "wb"), encoding="utf-8", newline="\n")
    return anyio.wrap_file(stdin), anyio.wrap_file(stdout)


__all__ = ["MemoryServer", "ToolsListed", "build_server", "serve_stdio"]
