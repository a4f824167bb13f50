"""A warm process runs prompt hooks and embeds prompts for fresh processes, over a local socket.

A fresh prompt hook pays for its imports (search, the layer, YAML, SQLite:
most of its ≈ 130 ms) and could not afford the model (≈ 110 ms to import
numpy, a second to load it). A long-lived process that already has them —
the MCP server of a Claude Code session (:mod:`memdir.integrations.mcp.server`),
or one of its own — serves them instead:

* :class:`WarmServer` listens on the home's Unix socket (:func:`socket_path`)
  (one server per home: a second one waits and takes over when the first
  is gone). It loads the model when first asked — a server whose home never
  sees a prompt hook costs nothing — and answers "not ready" (no cosines)
  until it has. Each connection sends one JSON
  line ``{"query": str, "layers": [layer key, …], "generation": int}`` (and
  ``"passages": true`` to have them) and gets one JSON line back:
  ``{"generation": int, "ids": [doc id, …], "cosines": [float, …]}`` — the
  dense cosine of every memory of those layers that has a current vector
  (:func:`memdir.search.similarity.similarities`), read from the same
  ``index.sqlite`` — with ``"passages": [[best cosine, passage number], …]``
  when asked (:func:`memdir.search.similarity.best_passages`).
* A process that embeds its own query — a fresh ``memdir search`` or ``memdir recall`` (``embed_query``
  True) — asks too when it has no model loaded and the socket exists (:func:`nearby`), and gets the
  answer it would compute itself: ``"exact": true`` (:func:`exact`) has the query embedded as
  :func:`memdir.search.dense.query_vectors` embeds it and every cosine sent unrounded (JSON keeps a
  float whole), and ``{"query": str, "layers": [], "tie": [text, …]}`` (:func:`tie_cosines`) gets
  ``{"tie": [cosine, …]}``, each text's cosine to the query as an explicit search's head tie measures it
  (:func:`memdir.search.warmanswer.tie_answer`). None answering (none listens, or its model is still
  loading), it embeds itself, as before: the same answers either way, the model never loaded here when
  one answers (a fresh ``memdir recall`` took 6.6 s loading it, 1.6 s asking: benchmarks/bench_cli_warm.py).
* When no MCP server runs, a warm process of its own serves instead:
  :func:`launch` starts ``python -m memdir.hooks --warm HOME`` (:data:`COMMAND`) detached
  (``os.posix_spawn``: its own session, stdin the null device, output
  appended to ``<home>/warm.log``) when none answers on the socket. The
  prompt hook that finds vectors but no warm process calls it — so the next
  prompt has its cosines — and so does the SessionStart hook of a home that
  has used vectors or has an index whose vectors are not built yet (:func:`launch_if_useful`,
  which then starts the background embedder too). The session's first prompt
  comes before that process has loaded its model (≈ 0.5–1.2 s on 2 cores), so
  a prompt hook waits for a process launched moments ago (:func:`run_hook`,
  bounded by :func:`memdir.runtime.starting_wait`, 3 s; never when none is starting).
  That process (:func:`main`) loads the model at once, holds
  ``<home>/warm.lock`` (one per home; a second exits at once, as does one
  that finds another server answering), and exits when idle, old, homeless,
  displaced from its socket, or asked (:func:`main`). Its starter reaps it
  from a daemon thread, or init does: no zombie either way.
* ``{"hook": {"client", "event", "input", "home", "environ"}, "wait": seconds}`` runs a whole
  prompt hook here for the thin client of :mod:`memdir.integrations.claude_code.hooks`
  (:func:`run_hook`; the server's ``hooks``: the same hook code, with the model's cosines
  once loaded — a model still loading is waited for, at most ``wait`` s), answered
  ``{"stdout": str, "stderr": str or null}``; the hook's process, once it has read it, sends
  ``{"delivered": true}`` (:data:`DELIVERED`), and only then are the changes of the session's state that answer
  gives made — the start text taken, the bodies and findings recorded as given, a warning as said
  (:mod:`memdir.prompt.delivery`): an answer the hook gave up waiting for changes nothing, and its own run gives it.
* ``{"probe": true}`` (:func:`look`; ``memdir doctor``) is answered with the server's state and nothing started —
  no model load, its idle time not reset: ``{"state": "ready" | "loading" | "failed" | "unloaded", "loading_for":
  seconds or null, "hooks": bool, "generation": the index generation it answers at, or null}``; what it means for
  the home is :func:`memdir.search.warmth.probe`'s.
* Every answer carries the code the server runs (``"code"``: :func:`memdir.version.code_identity`,
  taken when it started). A server whose code is not the asker's — memdir was upgraded, or its source
  edited, since it started — is not listened to: a request names the asker's code, and such a server
  answers it with nothing run (a hook run there would record the bodies it gave); :func:`request`
  returns None (the hook ranks by words, as with no server), and, when the asker runs the code now
  installed, asks the server to give its socket up (``{"stop": true, "code": …}``: a standalone one
  exits, an MCP server's stops serving the socket) and starts one of the code installed now (:func:`_replace`).
* :func:`request` sends one message and reads the answer (None when no server answers in time, or one
  left a hook unanswered moments ago: :func:`memdir.runtime.stalled`). :func:`ask` returns None — and
  the caller ranks lexically, never loading the model itself — when no server listens (connecting fails
  at once), when none answers within :data:`ANSWER_TIMEOUT`, when the server is still loading its model,
  or when the server's index generation is not the caller's (its doc ids might not be the caller's).

The server side — :class:`WarmServer`, :func:`serve`, :func:`main` — is :mod:`memdir.search.warm.server`, imported
when first named (a fresh prompt hook imports this module and serves nothing); what it computes is
:mod:`memdir.search.warmanswer`'s.

The socket lives where its path always fits ``sockaddr_un``, in a private
directory of this user (:mod:`memdir.runtime`, which also removes the
dead sockets of homes gone: when a warm process starts, and when a hook finds
its home's socket dead). A platform without Unix sockets has no warm process, and
recall there is lexical in a fresh process; :func:`memdir.search.warmth.why_off` says why the warm
path is off (``memdir doctor``; :mod:`memdir.search.warmth`). This module only moves cosines and hooks
between processes: the rules stay where they live.
"""

from __future__ import annotations

import errno
import os
import threading
import time

from ...paths import INDEX_DB
from ...runtime import (MAX_SOCKET_PATH, SHARED_TMP, SOCKET_SUFFIX, START_FILE, STARTING_WAIT, note_stall,
                       note_start, runtime_dir, socket_file, socket_path, stalled, starting, starting_wait, swept)
from ...text import json_c as json  # json's own C code: a session start that launches nothing loads no json (nor re)
from ...version import code_identity

TYPE_CHECKING = False  # typing's own constant, without importing typing (≈ 12M instructions of every session start)
if TYPE_CHECKING:  # the session-start hook imports this module and needs no socket (≈ 5 ms): imported late
    import socket
    from pathlib import Path

_serving = threading.local()  # .active in a thread that serves a socket (request() must not ask itself)
CONNECT_TIMEOUT = 0.05  # seconds for a local connect: a listening server accepts at once
ANSWER_TIMEOUT = 0.5  # seconds for the answer (one query embedding on a loaded machine)
RETRY_BIND = 10.0  # seconds between a waiting server's attempts to take the socket over
MAX_REQUEST = 8 * 1024 * 1024  # bytes of one request line (a hook's input: a prompt may hold a pasted file)
HOOK_TIMEOUT = 5.0  # seconds a fresh prompt hook waits for the warm process's whole answer
DELIVERED = b'{"delivered": true}'  # the hook's process has the answer: its changes are made (memdir.prompt.delivery)
DELIVERED_WAIT = 2.0  # seconds the warm process waits for it after answering (sent as soon as the answer is read)
IDLE_EXIT = 1800.0  # seconds without a request after which a standalone warm process exits
MAX_LIFETIME = 12 * 3600.0  # seconds a standalone warm process lives at most (a new one loads a fresh index view)
# What launch() runs: the hooks' entry point, which gives the process the hook code to serve (this
# package may not import it); ``python -m memdir.search.warm HOME`` serves cosines alone.
COMMAND = ("-m", "memdir.hooks", "--warm")
LOCK_FILE = "warm.lock"
LOCK_WAIT = 3.0  # seconds a new standalone process waits for the lock (one that runs older code is exiting)
LOG_FILE = "warm.log"
POLL = 0.02  # seconds between a waiting hook's looks at the socket


def listening(home: Path) -> bool:
    """True when something accepts connections on the socket of ``home``
    (a live warm process, loading or ready). Never raises."""
    path = socket_file(home)
    if path is None:
        return False
    try:
        _connect(path, CONNECT_TIMEOUT).close()
    except OSError:
        return False
    return True


def _connect(path: str, timeout: float):
    """A stream socket connected to the Unix socket ``path`` within ``timeout`` s, the caller's to close:
    the C module's (:mod:`_socket`), so a prompt hook's thin client loads no ``socket.py`` (nor ``enum``,
    ``selectors``: ≈ 3 ms of a fresh process). Raises :class:`OSError`."""
    import _socket

    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(timeout)
        sock.connect(path)
    except BaseException:
        sock.close()
        raise
    return sock


def launch(home: Path) -> int | None:
    """Start a detached standalone warm process for ``home`` (:func:`main`)
    unless one listens; returns its pid, or None (one listens, no socket
    directory, no ``posix_spawn``, or the start failed). Costs a fresh hook
    a failed connect and one ``posix_spawn`` (no ``subprocess`` import); never
    waits for the child and never raises. The child is reaped by a daemon
    thread of this process, or by init once this process has exited."""
    import sys
    from pathlib import Path  # here: a session start that launches no warm process loads no pathlib

    home = Path(home)
    if not hasattr(os, "posix_spawn") or not sys.executable or not home.is_dir() or socket_path(home) is None \
            or listening(home):
        return None
    launched = time.time()
    pid = spawn(home, [*COMMAND, str(home)], LOG_FILE)
    if pid is not None:
        note_start(home, pid, launched)
    return pid


def spawn(home: Path, args: list[str], log_name: str) -> int | None:
    """Start ``python ARGS`` (this interpreter) detached: its own session, stdin the null device, stdout and
    stderr appended to ``<home>/<log_name>`` (made 0600). Its pid, or None when ``posix_spawn`` is missing or
    the start failed. One ``posix_spawn`` (no ``subprocess`` import, for the hooks' fresh processes); the child
    is reaped by a daemon thread of this process, or by init once this process has exited. Never raises."""
    import sys

    if not hasattr(os, "posix_spawn") or not sys.executable:
        return None
    try:
        log = os.open(os.path.join(home, log_name), os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            try:
                actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, log, 1), (os.POSIX_SPAWN_DUP2, log, 2)]
                pid = os.posix_spawn(sys.executable, [sys.executable, *args], os.environ, file_actions=actions,
                                     setsid=True)
            finally:
                os.close(null)
        finally:
            os.close(log)
    except OSError:
        return None
    threading.Thread(target=_reap, args=(pid,), name="memdir-warm-reap", daemon=True).start()
    return pid


def run_hook(home: Path, hook: dict) -> dict | None:
    """Run a prompt hook in the warm process of ``home``: ``hook`` is the ``{"hook": …}`` request's
    object (module docstring); returns the answer (``{"stdout": str, "stderr": str or None}``, or
    ``{"error": …}``), or None when no warm process answers (:func:`request`, within
    :data:`HOOK_TIMEOUT`): the caller runs the hook itself, by words alone.

    The one rule of the session's first prompt: while a process :func:`launch` started for this home
    is :func:`starting`, wait for it — for its socket (looked at every :data:`POLL` s) and, as the
    request's ``"wait"``, for its model (:meth:`WarmServer._await_model`) — at most until
    :func:`starting_wait` s after its launch, less when it dies first (None at once then). With none
    starting nothing more is done than one failed open and the request as ever; a server still
    loading its model then waits at most :func:`starting_wait` s after it began. The whole call takes
    at most :data:`HOOK_TIMEOUT` s, longer by what starting_wait exceeds STARTING_WAIT (a server that never
    answers: then asked nothing for a while, :func:`memdir.runtime.note_stall`). Never raises."""
    began, left = time.monotonic(), starting(home)
    wait = bound = starting_wait()
    if left is not None:
        deadline = began + left
        while not listening(home):
            if time.monotonic() >= deadline or starting(home) is None:  # too slow, or gone before it listened
                return None
            time.sleep(POLL)
        wait = max(0.0, deadline - time.monotonic())
    timeout = max(ANSWER_TIMEOUT, HOOK_TIMEOUT + max(0.0, bound - STARTING_WAIT) - (time.monotonic() - began))
    return request(home, {"hook": hook, "wait": round(wait, 3)}, timeout=timeout)


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass


def has_used_vectors(home: Path) -> bool:
    """``home``'s index has held a vector (:func:`memdir.search.used.noted`), or a prompt hook of it
    started a warm process (``warm.log``). Two stats; never raises."""
    from ..used import noted
    return noted(home) or os.path.exists(os.path.join(home, LOG_FILE))


def has_index(home: Path) -> bool:
    """``home`` has a search index (``index.sqlite``: memories were indexed, with or without vectors). One
    stat, no SQLite opened; never raises."""
    return os.path.exists(os.path.join(home, INDEX_DB))


def worth_serving(home: Path) -> bool:
    """A warm process of ``home`` would have cosines to serve, now or once the background embedder has run:
    its index has held a vector (:func:`has_used_vectors`), or it has an index (:func:`has_index`), whose
    vectors :func:`launch_if_useful` has built. A home with no index (nothing indexed yet) is not.
    Three stats at most; never raises."""
    return has_used_vectors(home) or has_index(home)


def launch_if_useful(home: Path, settings) -> int | None:
    """The SessionStart hook's call, when dense retrieval is wanted (:func:`memdir.search.vectors.wanted`,
    nothing imported): :func:`launch` when the home is :func:`worth_serving`. A home whose index has never
    held a vector (a teammate's first session: the team's memories pulled and indexed, no vector built yet)
    also gets the background embedder (:func:`memdir.search.embedder.schedule`, detached; it exits at once
    when nothing lacks a vector), so the warm process answers the prompts with cosines as soon as the
    vectors land (and measures a few missing ones on the spot: :mod:`memdir.search.unembedded`); the hook
    itself never embeds. A home without an index gets no process (nothing to serve). Never raises."""
    from .. import vectors

    if not vectors.wanted(settings) or not worth_serving(home):
        return None
    if not has_used_vectors(home):
        from ..embedder import schedule

        schedule(home)  # never raises: one that fails to start leaves recall lexical, as before
    return launch(home)


def stop(home: Path) -> bool:
    """Ask the standalone warm process of ``home`` to exit (an MCP server's
    ignores it); True when one said it stops. Never raises."""
    answer = _exchange(home, {"stop": True}, ANSWER_TIMEOUT)
    return answer is not None and answer.get("stopping") is True


def look(home: Path, timeout: float) -> dict | None:
    """The warm process of ``home``'s answer to ``{"probe": true}`` within ``timeout`` s (its state, nothing
    started in it: :meth:`memdir.search.warm.server.WarmServer.state`, with its ``"code"``), or None when none
    answers then (or it left a hook unanswered moments ago: :func:`memdir.runtime.stalled`). The request names no
    code, so a server of other code answers it too and is not replaced (:func:`request` would replace it). What
    the answer means is :func:`memdir.search.warmth.probe`'s. Never raises."""
    return _exchange(home, {"probe": True}, timeout)


def _read_line(sock: socket.socket, limit: int, seconds: float) -> bytes:
    """The first line ``sock`` sends (no newline; all it sent when it closes first), whole within ``seconds`` (a peer
    that trickles bytes or sends endless ones hung a hook for good: break19), read in linear time. Raises ValueError
    over ``limit`` bytes, OSError (TimeoutError past ``seconds``)."""
    data, deadline = bytearray(), time.monotonic() + seconds
    while (end := data.find(b"\n", max(0, len(data) - 65536))) < 0:
        if (left := deadline - time.monotonic()) <= 0:
            raise TimeoutError("no whole line in time")
        sock.settimeout(left)
        chunk = sock.recv(65536)
        if not chunk:
            return bytes(data)
        data += chunk
        if len(data) > limit:
            raise ValueError("message too long")
    return bytes(data[:end])


def request(home: Path, message: dict, timeout: float = ANSWER_TIMEOUT) -> dict | None:
    """``message`` sent as one JSON line to the warm process of ``home``, its
    one-line JSON object answer; None when nothing listens, no whole answer
    comes within ``timeout`` s, a serving thread asks (it would wait for
    itself), or the server runs other code than this process
    (:func:`memdir.version.code_identity`; then :func:`_replace`). Never raises."""
    answer = _exchange(home, message, timeout, named=True)  # run by a server of this code only
    if answer is None or answer.get("code") == code_identity():
        return answer
    if code_identity() == code_identity(now=True):  # this process runs what is installed: the server is old
        _replace(home)
    return None  # a process that is itself older than the files leaves the server alone


def _replace(home: Path) -> int | None:
    """Ask the warm process of ``home``, which runs other code than this process, to give its socket
    up, and start one that runs this code (:func:`launch`); its pid, or None. Not waited for: this
    prompt ranks by words; the next one finds the new process. Never raises."""
    answer = _exchange(home, {"stop": True, "code": code_identity()}, ANSWER_TIMEOUT)
    if answer is None or answer.get("stopping") is not True:
        return None
    path = socket_path(home)
    try:
        if path is not None and answer.get("code") != code_identity():
            path.unlink()  # the old server is going: the new one binds at once (it never unlinks another's)
    except OSError:
        pass
    return launch(home)


def _exchange(home: Path, message: dict, timeout: float, named: bool = False) -> dict | None:
    """:func:`request` without the check of the server's code; ``named``: the message names this
    process's code (taken once connected: a hook with no warm process pays nothing for it)."""
    if getattr(_serving, "active", False):
        return None
    path = socket_file(home)
    if path is None or stalled(home, path):  # one that left a hook unanswered moments ago is not waited for again
        return None
    try:
        sock = _connect(path, CONNECT_TIMEOUT)
        try:
            sock.settimeout(timeout)
            message = {**message, "code": code_identity()} if named else message
            sock.sendall(json.dumps(message, ensure_ascii=False).encode("utf-8") + b"\n")
            # as text: json_c reads a str with the C scanner alone (bytes would load json, re and enum)
            answer = json.loads(_read_line(sock, 64 * 1024 * 1024, timeout).decode("utf-8"))
            if "hook" in message and isinstance(answer, dict):
                _say_delivered(sock)
        finally:
            sock.close()
    except (OSError, ValueError) as exc:  # UnicodeDecodeError is a ValueError
        if getattr(exc, "errno", None) == errno.ECONNREFUSED:
            swept()  # its process has gone: no dead socket stays in the directory
        elif isinstance(exc, TimeoutError) and "hook" in message:  # a whole hook's time and no answer: stopped, wedged
            note_stall(home, path)
        return None
    return answer if isinstance(answer, dict) else None


def _say_delivered(sock) -> None:
    """Tell the warm process this hook's process has its answer (:data:`DELIVERED`): only then does it make the
    changes that answer gives — the start text taken, the bodies recorded as given (:mod:`memdir.prompt.delivery`).
    One that never hears it (this process gave up first) makes none, and this process's own run gives them."""
    try:
        sock.sendall(DELIVERED + b"\n")
    except OSError:  # it stopped waiting: the answer is printed and its changes are not made (given again later)
        pass


def ask(home: Path, query: str, layers: list[str], generation: int, passages: bool = False, windows: bool = False):
    """``{doc id: cosine}`` (the head's, :func:`memdir.search.similarity.similarities`)
    from the warm process of ``home`` for ``query`` over ``layers`` at index
    ``generation`` — with ``passages``, ``{doc id: (best cosine, passage
    number)}`` instead (:func:`memdir.search.similarity.best_passages`); ``windows``: a long prompt's windows too
    (recall). None when no warm process answers in time or its index is at another generation. Never raises."""
    flags = {name: True for name, on in (("passages", passages), ("windows", windows)) if on}
    answer = request(home, {"query": query, "layers": list(layers), "generation": int(generation), **flags})
    try:
        if answer is None or answer.get("generation") != generation or "ids" not in answer:
            return None
        ids = [int(i) for i in answer["ids"]]
        if passages:
            return {i: (float(c), int(n)) for i, (c, n) in zip(ids, answer["passages"])}
        return dict(zip(ids, (float(c) for c in answer["cosines"])))
    except (ValueError, TypeError, AttributeError):
        return None


EXACT_TIMEOUT = 3.0  # seconds a search or recall waits for the warm process (loading the model itself takes 1-6 s)
_hosting = False  # this process runs a WarmServer (server.WarmServer.start): it embeds its own queries


def nearby(home: Path) -> bool:
    """Whether a query of ``home`` is worth asking the warm process for (:func:`exact`, :func:`tie_cosines`)
    rather than embedding it here: this process has not loaded the model (:mod:`memdir.search.encoder` not
    imported) and runs no warm server, and ``home``'s socket file exists. A stat, no connect; never raises."""
    import sys

    if _hosting or getattr(_serving, "active", False) or __package__.rpartition(".")[0] + ".encoder" in sys.modules:
        return False  # the model is here already (or will be: a server loads it): asking would only add a round trip
    path = socket_file(home)
    return path is not None and os.path.exists(path)


def exact(home: Path, query: str, layers: list[str], generation: int, windows: bool = False) -> dict[int, float] | None:
    """``{doc id: cosine}`` for ``query`` over ``layers`` at index ``generation``, as a process embedding its
    own query computes them (:func:`memdir.search.dense.cosines`: the same embedding, the memories written since
    the vectors were built measured on the spot, every float sent whole: :func:`memdir.search.warmanswer.cosines_answer`
    with ``"exact"``), from the warm process of ``home``; ``windows``: a long prompt's windows too (recall). None
    when none answers within :data:`EXACT_TIMEOUT` s, it is still loading its model, or its index is at another
    generation: the caller embeds the query itself. Never raises."""
    flags = {"windows": True} if windows else {}
    message = {"query": query, "layers": list(layers), "generation": int(generation), "exact": True, **flags}
    answer = request(home, message, timeout=EXACT_TIMEOUT)
    try:
        if answer is None or answer.get("generation") != generation or "ids" not in answer:
            return None
        return dict(zip((int(i) for i in answer["ids"]), (float(c) for c in answer["cosines"])))
    except (ValueError, TypeError, AttributeError):
        return None


def tie_cosines(home: Path, query: str, texts: list[str]) -> list[float] | None:
    """Each of ``texts``' cosine to ``query`` (floats, in order) as an explicit search breaking the tie at its
    head computes it (:func:`memdir.search.warmanswer.tie_answer`), from the warm process of ``home``; None when
    none answers within :data:`EXACT_TIMEOUT` s or it is still loading its model (the caller embeds them itself).
    Never raises."""
    answer = request(home, {"query": query, "layers": [], "tie": list(texts)}, timeout=EXACT_TIMEOUT)
    try:
        found = None if answer is None else [float(c) for c in answer["tie"]]
    except (KeyError, ValueError, TypeError):
        return None
    return found if found is not None and len(found) == len(texts) else None


def __getattr__(name: str):
    """The server side (:mod:`memdir.search.warm.server`: ``WarmServer``, ``serve``, ``main``, ``leave``), imported when first
    named: a fresh prompt hook imports this module and never serves."""
    if name in ("WarmServer", "leave", "main", "serve"):
        from . import server

        return getattr(server, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["ANSWER_TIMEOUT", "COMMAND", "HOOK_TIMEOUT", "MAX_SOCKET_PATH", "WarmServer", "IDLE_EXIT", "LOG_FILE", "MAX_LIFETIME",
           "START_FILE", "STARTING_WAIT", "ask", "exact", "has_index", "has_used_vectors", "launch", "launch_if_useful", "listening", "look", "main",
           "nearby", "request", "run_hook", "runtime_dir", "serve", "socket_path", "spawn", "starting", "stop", "tie_cosines",
           "worth_serving"]
