"""The server side of the warm process (:mod:`memdir.search.warm`, whose docstring has the protocol): the socket
served from a daemon thread (:class:`WarmServer`), an MCP server's (:func:`serve`) and the standalone process
(:func:`main`, ``python -m memdir.search.warm HOME``). What it computes for a request is
:mod:`memdir.search.warmanswer`'s; the client side (ask, request, launch) stays in :mod:`memdir.search.warm`, which
a fresh prompt hook imports without this module.
"""

from __future__ import annotations

import os
import threading
import time

from ...prompt.delivery import Held
from ...runtime import cleared, runtime_dir, socket_path, starting_wait, swept
from ...text import json_c as json
from ...version import code_identity
from .. import warm

TYPE_CHECKING = False
if TYPE_CHECKING:
    import socket
    from pathlib import Path

# The threads of this process's warm servers — serving, loading the model — which may be inside ONNX Runtime: an
# interpreter teardown while one is aborts the process (SIGABRT, "terminate called without an active exception"),
# so a process whose server ends exits through leave().
_threads: list[threading.Thread] = []


class WarmServer:
    """Serves query cosines for ``home`` on its socket from a daemon thread.

    :meth:`start` returns at once; the thread binds (or, while another live
    server holds the socket, retries every :data:`RETRY_BIND` s) and sets
    ``listening``; the first request starts loading the model in another
    thread, which sets ``warm`` when done (``failed`` when the engine cannot
    load: the server then answers nothing). :meth:`close` stops it and
    removes the socket if it is still this server's.

    ``hooks`` (``hooks(hook: dict, dense: bool) -> dict``) answers a
    ``{"hook": …}`` request (see the module docstring) in the serving thread;
    ``dense`` is True once the model is loaded (until then the hook ranks by
    words alone: no request made from this thread reaches the socket).

    ``standalone`` (the process of :func:`main`): the model loads as soon as the socket is bound, a server
    already answering means this one stops (``done`` is set) instead of waiting, and a ``{"stop": true}``
    request (:func:`stop`) sets ``done``. ``last_request``: the monotonic time of the last request (or start)."""

    def __init__(self, home: Path, standalone: bool = False, hooks=None):
        from pathlib import Path  # here, as in launch: a hook's process that serves nothing loads no pathlib
        self.home = Path(home)
        self.hooks = hooks
        self.path = socket_path(self.home, create=True)
        self.standalone = standalone
        self.listening = threading.Event()
        self.warm = threading.Event()
        self.done = threading.Event()
        self.failed = False
        self.refused: str | None = None  # why the socket path cannot be bound (runtime.cleared, the bind), when so
        self.code = code_identity()  # the code this server runs, in every answer
        self.outdated = False  # a process of newer code asked for the socket (an MCP server's gives it up)
        self.answered = 0  # requests answered with cosines
        self.last_request = time.monotonic()
        self._loader: threading.Thread | None = None
        self._loader_made = threading.Lock()  # the serving thread and preload() may both start the load
        self._load_began = 0.0  # monotonic time the model began loading
        self._loaded = threading.Event()  # the load ended: warm, or failed
        self.frozen = False  # the objects of the loaded model and the code it answers with are frozen (_settle)
        self._stop = threading.Event()
        self._sock: socket.socket | None = None
        self._inode: int | None = None
        self._thread: threading.Thread | None = None
        self._answering = threading.Lock()  # held while one request is answered (halt waits for it)

    def start(self) -> "WarmServer":
        """Start the serving thread (nothing when there is no socket path)."""
        if self.path is not None:
            warm._hosting = True  # this process embeds its own queries (warm.nearby)
            self._thread = threading.Thread(target=self._run, name="memdir-warm", daemon=True)
            _threads.append(self._thread)
            self._thread.start()
        return self

    def _bind(self) -> bool:
        import socket

        runtime_dir(create=True)  # again: a /tmp cleaner may have removed it since
        if warm.listening(self.home):
            return False  # another server answers
        try:
            self.refused = cleared(self.path)  # a socket left by a process that died goes; anything else stays
            if self.refused is not None:
                return False
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        except OSError:
            return False
        try:
            sock.bind(str(self.path))
            sock.listen(16)
            sock.settimeout(0.5)
            self._inode = os.stat(self.path).st_ino
        except OSError as exc:  # said in the log's last line (main), which doctor quotes
            sock.close()
            self.refused = f"cannot listen at {self.path} ({exc.strerror or exc})"
            return False
        swept()  # the sockets of homes whose process has gone (this one listens now: it stays)
        self._sock = sock
        self.listening.set()
        return True

    def _load(self) -> None:
        from .. import vectors

        try:
            if vectors.importable():
                vectors.query_vector("warm up")
                self.warm.set()
                return
        except Exception:  # no engine: fresh processes rank lexically
            pass
        finally:
            self.failed = not self.warm.is_set()
            self._loaded.set()

    def _start_loading(self) -> None:
        with self._loader_made:
            if self._loader is not None:
                return
            self._load_began = time.monotonic()
            self._loader = threading.Thread(target=self._load, name="memdir-warm-load", daemon=True)
            _threads.append(self._loader)
            self._loader.start()

    def loading(self) -> bool:
        """True while the model's load has begun and not ended (neither ``warm`` nor ``failed`` yet)."""
        return self._loader is not None and not self._loaded.is_set()

    def state(self) -> dict:
        """What a ``{"probe": true}`` request is answered (``memdir doctor``: :func:`memdir.search.warmth.probe`),
        with nothing started: ``{"state": "ready" | "loading" | "failed" | "unloaded", "loading_for": seconds the
        load has run (a float, rounded to 0.1) or None, "hooks": whether it runs prompt hooks, "generation": the
        home's index generation a query is answered at, or None with no readable index
        (:func:`memdir.search.warmanswer.index_generation`: a read-only look, nothing created)}``. ``unloaded``:
        no load began (the first request that needs the model starts it)."""
        from ..warmanswer import index_generation

        state = ("ready" if self.warm.is_set() else "failed" if self._loaded.is_set() else
                 "loading" if self._loader is not None else "unloaded")
        since = round(time.monotonic() - self._load_began, 1) if state == "loading" else None
        return {"state": state, "loading_for": since, "hooks": self.hooks is not None,
                "generation": index_generation(self.home)}

    def preload(self) -> None:
        """Start loading the model now, in its own thread, when the home has vectors to use or to build
        (:func:`memdir.search.warm.worth_serving`; stats): an MCP server's first search and the session's
        first prompt hook find it loaded or loading. A home with no index loads nothing."""
        if warm.worth_serving(self.home):
            self._start_loading()

    def stolen(self) -> bool:
        """True when the socket file is no longer the one this server bound (another server took it, or it went)."""
        try:
            return self._inode is not None and os.stat(self.path).st_ino != self._inode
        except OSError:
            return True

    def _run(self) -> None:
        warm._serving.active = True
        while not self._stop.is_set() and not self._bind():
            if self.standalone:  # another server answers for this home, or its path is refused: nothing to do
                self.done.set()
                return
            self._stop.wait(warm.RETRY_BIND)
        if self.standalone:
            self._start_loading()
        while not self._stop.is_set():
            try:
                client, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            with client, self._answering:
                if self._stop.is_set():  # halted while this one waited: not begun
                    break
                self._serve_one(client)
        if self.outdated:  # the socket is the newer process's to bind
            self._release()

    def _serve_one(self, client: socket.socket) -> None:
        try:
            request = json.loads(warm._read_line(client, warm.MAX_REQUEST, warm.HOOK_TIMEOUT))  # the asker waits no longer
            if request.get("probe") is True:  # doctor's look: no load started, no idle time reset (nothing served)
                client.sendall(json.dumps({**self.state(), "code": self.code}).encode("utf-8") + b"\n")
                return
            self.last_request = time.monotonic()
            query, layers, held = request.get("query"), request.get("layers"), None
            if request.get("stop") is not True and request.get("code", self.code) != self.code:
                answer = {"error": "other code"}  # the asker ignores what this code would answer: nothing is run
            elif isinstance(request.get("hook"), dict):
                answer, held = self._hook(request["hook"], request.get("wait"))
            elif request.get("stop") is True:
                newer = isinstance(request.get("code"), str) and request["code"] != self.code
                answer = {"stopping": self.standalone or newer}
                if self.standalone:
                    self.done.set()
                elif newer:  # an MCP server of older code: serve no more prompt hooks (its tools still work)
                    self.outdated = True
                    self._stop.set()
            elif not isinstance(query, str) or not isinstance(layers, list) or not all(
                    isinstance(x, str) for x in layers) or not _texts(request.get("tie", [])):
                answer = {"error": "bad request"}
            elif not self.warm.is_set():
                self._start_loading()
                answer = {"error": "model not loaded" if self.failed else "loading the model"}
            elif "tie" in request:  # a search's tie at its head (memdir.search.warm.tie_cosines)
                from ..warmanswer import tie_answer

                answer = tie_answer(self.home, request)
            else:
                from ..warmanswer import cosines_answer

                answer = {**cosines_answer(self.home, request), "hooks": self.hooks is not None}
                self.answered += "ids" in answer
            client.sendall(json.dumps({**answer, "code": self.code}).encode("utf-8") + b"\n")
            if held is not None and held.changes and _delivered(client):
                held.commit()  # the hook's process has the answer: what it gives is given (memdir.prompt.delivery)
        except Exception:  # one bad or broken request must not stop the server (and commits nothing)
            return
        self._settle()

    def _settle(self) -> None:
        """Once, after the first answer with the model loaded (sent: no asker waits for this), collect and
        :func:`gc.freeze` what the process holds — the model, numpy, the code that answered and what it keeps — so
        the cyclic collector never walks them again: a full collection of them in the middle of a prompt's answer
        took ≈ 20 ms. What a request leaves behind later is collected as ever."""
        if self.frozen or not self.warm.is_set():
            return
        import gc

        gc.collect()
        gc.freeze()
        self.frozen = True

    def _hook(self, hook: dict, wait=None) -> tuple[dict, Held | None]:
        """``(answer, the changes of the session's state it holds)``: the hook's changes are made once its
        process says it has the answer (:func:`_delivered`), never for one it gave up on
        (:mod:`memdir.prompt.delivery`); None for an answer that runs no hook."""
        if self.hooks is None:
            return {"error": "no hooks"}, None
        home = hook.get("home")
        if not isinstance(home, str) or os.path.realpath(home) != os.path.realpath(self.home):
            return {"error": "another home"}, None  # its socket name says it is this one; its settings may not be
        from ..warmanswer import wants_vectors

        if not self.warm.is_set() and wants_vectors(self.home, hook.get("environ")):
            self._start_loading()
            self._await_model(wait)  # the session's first prompt: its cosines, unless the load takes too long
        with Held() as held:
            answer = self.hooks(hook, dense=self.warm.is_set())
        self.answered += 1
        return answer, (held if isinstance(answer.get("stdout"), str) else None)  # an error: the hook runs it

    def _await_model(self, wait) -> None:
        """Wait until the model has loaded (or failed to): at most ``wait`` s (the asker's
        :func:`run_hook` budget; none when not a number) and until :func:`starting_wait` s after the
        load began; the hook then ranks by words alone."""
        if not isinstance(wait, (int, float)) or isinstance(wait, bool):
            return
        limit = min(float(wait), self._load_began + starting_wait() - time.monotonic())
        if limit > 0:
            self._loaded.wait(limit)

    def _release(self) -> None:
        """Close the socket and remove its file while it is still this server's (same inode)."""
        self._sock.close()
        try:
            if os.stat(self.path).st_ino == self._inode:
                self.path.unlink()
        except OSError:
            pass

    def halt(self, wait: float = warm.HOOK_TIMEOUT + warm.DELIVERED_WAIT) -> None:
        """Stop serving for a process that ends now (:mod:`memdir.integrations.mcp.ending`): no request is begun
        from now on, the one being answered completes first (a prompt hook's changes made, or never begun; waited
        at most ``wait`` s; a hook wedged past that: its asker has gone), and the socket file goes while it is still
        this server's. Neither the serving thread nor a model load is waited for: the caller exits with ``os._exit``
        (:func:`leave`). Never raises."""
        self._stop.set()
        self._answering.acquire(timeout=wait)  # held from now on: no request is begun
        if self._sock is not None:
            self._release()

    def close(self) -> None:
        """Stop serving and remove the socket file if it is still this server's; wait (≤ 10 s) for a model
        load under way: a process exiting while ONNX Runtime builds its session aborts (SIGABRT, C++ terminate)."""
        self._stop.set()
        if self._sock is not None:
            self._release()
        for thread, wait in ((self._thread, 2.0), (self._loader, 10.0)):
            if thread is not None:
                thread.join(timeout=wait)


def running(*others: threading.Thread | None) -> bool:
    """True while a thread of a warm server of this process (serving a request, loading the model) still runs, or
    one of ``others`` (a caller's thread that may start one: ``memdir mcp``'s warm-up; None ignored)."""
    return any(thread is not None and thread.is_alive() for thread in (*_threads, *others))


def leave(code: int, *others: threading.Thread | None) -> int:
    """How a process that ran a warm server ends with exit status ``code`` (the standalone process's entry points,
    ``memdir mcp`` once its client closed stdin): ``code`` returned, for ``sys.exit``, when no thread of a warm
    server, nor one of ``others``, still runs (:func:`running`); else stdout and stderr flushed and the process
    ended at once with ``os._exit(code)``: no interpreter teardown, which aborts a process whose thread is inside
    ONNX Runtime (a model load under way: SIGABRT, exit -6, a core dump). The caller has removed what it must
    (socket file, lock) first."""
    if not running(*others):
        return code
    import sys

    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError):
            pass
    os._exit(code)


def _delivered(client: socket.socket) -> bool:
    """True when the hook's process said it has the hook's answer (:data:`memdir.search.warm.DELIVERED`) within
    :data:`memdir.search.warm.DELIVERED_WAIT` s; False when it closed first (it gave up: it runs the hook itself)
    or said nothing in time (the answer's changes are dropped: given again later, the safe side)."""
    try:
        return warm._read_line(client, 64, warm.DELIVERED_WAIT) == warm.DELIVERED
    except (OSError, ValueError):
        return False


def _texts(texts) -> bool:
    """A request's ``"tie"``: a list of at most :data:`memdir.search.ties.TIE_MAX` texts."""
    from ..ties import TIE_MAX

    return isinstance(texts, list) and len(texts) <= TIE_MAX and all(isinstance(t, str) for t in texts)


def serve(home: Path, settings, hooks=None) -> WarmServer | None:
    """Start a :class:`WarmServer` for ``home`` (serving ``hooks``, see there) when dense retrieval is installed
    and not turned off in ``settings`` (:func:`memdir.search.vectors.wanted`; nothing is imported otherwise);
    returns it, or None."""
    from .. import vectors

    if not vectors.wanted(settings) or socket_path(home, create=True) is None:
        return None
    return WarmServer(home, hooks=hooks).start()


def main(argv: list[str] | None = None, hooks=None) -> int:
    """``python -m memdir.search.warm HOME [--idle SECONDS]``: a standalone
    warm process for ``HOME`` (see the module docstring), serving ``hooks``
    (:class:`WarmServer`; ``python -m memdir.hooks --warm HOME`` gives the
    prompt hook's, what :func:`launch` starts) until it is idle
    for ``--idle`` seconds (default :data:`IDLE_EXIT`), lived
    :data:`MAX_LIFETIME`, lost its home or socket, is asked to stop or gets
    SIGTERM. Returns 0, one line on stdout when it ends (saying so when the model was still loading); the socket
    file is gone and the lock released (its file stays, as filelock leaves it). A model load under way is not waited
    for: its entry points exit through :func:`leave`, which ends such a process with ``os._exit`` (a teardown then
    aborted it: SIGABRT)."""
    import signal
    import sys
    from pathlib import Path

    args = sys.argv[1:] if argv is None else argv
    idle = warm.IDLE_EXIT
    if len(args) == 3 and args[1] == "--idle":
        idle, args = float(args[2]), args[:1]
    home = Path(args[0]) if len(args) == 1 else None
    if home is None or not home.is_dir():  # launch starts one only for a home that is; none is made here ("--help")
        asked = args[:1] in (["-h"], ["--help"])
        print("usage: python -m memdir.search.warm HOME [--idle SECONDS]" + ("" if asked or home is None else
              f": HOME {home} is not a directory"), file=sys.stderr)
        return 0 if asked else 2
    from ...errors import StoreError
    from ...layer import joblock

    try:  # filelock's lock, never making a home removed meanwhile (joblock.lock), waited for up to LOCK_WAIT s
        lock = joblock.lock(home, warm.LOCK_FILE, warm.LOCK_WAIT)
    except (StoreError, OSError):  # the home went (Gone), or it takes no lock file: nothing to serve
        lock = None
    if lock is None:
        return 0  # another warm process of this home is starting or running, or the home went
    started = time.monotonic()
    server = WarmServer(home, standalone=True, hooks=hooks)
    previous = signal.signal(signal.SIGTERM, lambda *_: server.done.set())  # put back when it returns (a test calls it)
    why = "no socket directory"
    try:
        if server.path is not None:
            server.start()
            while True:
                if server.done.wait(1.0):
                    why = server.refused or "stopped (asked, SIGTERM, or another server answers)"
                    break
                now = time.monotonic()
                why = ("home is gone" if not home.is_dir() else "socket taken over" if server.listening.is_set()
                       and server.stolen() else f"idle {idle:.0f} s" if now - server.last_request > idle
                       else "lifetime reached" if now - started > warm.MAX_LIFETIME else "")
                if why:
                    break
    finally:
        loading = server.loading()
        server.halt()  # the request under way answered (a hook's changes made or not begun), the socket file gone
        if server._thread is not None:  # it sees the stop within 0.5 s: a process with no load under way then ends
            server._thread.join(1.0)  # with its teardown (leave returns), not os._exit
        lock.release()
        signal.signal(signal.SIGTERM, previous)
    print(f"warm: pid {os.getpid()} exits after {time.monotonic() - started:.0f} s, {server.answered} answered: "
          f"{why}" + ("; the model was still loading (not waited for)" if loading else ""), flush=True)
    return 0


__all__ = ["WarmServer", "leave", "main", "running", "serve"]
