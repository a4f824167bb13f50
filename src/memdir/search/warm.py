"""A warm process embeds prompts for fresh ones, over a local socket.

Loading numpy and the embedding model costs a fresh process far more than
the rest of a prompt hook (≈ 110 ms to import numpy, 1.5 s to load the
model, 10–50 ms per query on a loaded 2-core machine). A long-lived process
that already has them — the MCP server of a Claude Code session
(:mod:`memdir.integrations.mcp.server`) — serves them instead:

* :class:`WarmServer` listens on the home's Unix socket (:func:`socket_path`)
  (one server per home: a second one waits and takes over when the first
  is gone). It loads the model when first asked — a server whose home never
  sees a prompt hook costs nothing — and answers "not ready" (no cosines)
  until it has. Each connection sends one JSON
  line ``{"query": str, "layers": [layer key, …], "generation": int}`` (and
  ``"passages": true`` to have them) and gets one JSON line back:
  ``{"generation": int, "ids": [doc id, …], "cosines": [float, …]}`` — the
  dense cosine of every memory of those layers that has a current vector
  (:func:`memdir.search.vectors.similarities`), read from the same
  ``index.sqlite`` — with ``"passages": [[best cosine, passage number], …]``
  when asked (:func:`memdir.search.vectors.best_passages`).
* When no MCP server runs, a warm process of its own serves instead:
  :func:`launch` starts ``python -m memdir.search.warm HOME`` detached
  (``os.posix_spawn``: its own session, stdin the null device, output
  appended to ``<home>/warm.log``) when none answers on the socket. The
  prompt hook that finds vectors but no warm process calls it — so the next
  prompt has its cosines — and so does the SessionStart hook once a prompt
  hook of the home has done so (:func:`launch_if_useful`).
  That process (:func:`main`) loads the model at once, holds
  ``<home>/warm.lock`` (one per home; a second exits at once, and so does
  one that finds another server answering), and exits after
  :data:`IDLE_EXIT` seconds without a request, after :data:`MAX_LIFETIME`,
  when its home is gone, when its socket was taken over, on SIGTERM, or
  when asked (:func:`stop`). The process that started it reaps it from a
  daemon thread; a hook exits first and the orphan is reaped by init — no
  zombie either way.
* :func:`ask` is the fresh process's side. It returns None — and the caller
  ranks lexically, never loading the model itself — when no server listens
  (connecting fails at once), when none answers within
  :data:`ANSWER_TIMEOUT`, when the server is still loading its model, or
  when the server's index generation is not the caller's (its doc ids
  might not be the caller's).

The socket lives where its path always fits ``sockaddr_un`` (about 100
bytes), whatever the home's path: ``$XDG_RUNTIME_DIR/memdir/<16 hex>.sock``
when that runtime directory is this user's and private, else
``/tmp/memdir-<uid>/<16 hex>.sock`` — the hex a SHA-256 of the home's real
path, so each home has its own. The directory is made 0700 and used only
while it is a real directory of this user that no one else may enter
(:func:`runtime_dir`): another user's socket there could feed a prompt hook
made-up cosines. A platform without Unix sockets has no warm process, and
recall there is lexical in a fresh process; :func:`why_off` says why the warm
path is off (``memdir doctor``). The ranking rule stays :mod:`memdir.search.relevance`'s:
this module only moves cosines between processes.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
from pathlib import Path

SOCKET_SUFFIX = ".sock"
SHARED_TMP = "/tmp"  # not $TMPDIR: macOS gives every user a long one; /tmp/memdir-<uid>/ is short everywhere
MAX_SOCKET_PATH = 100  # bytes of a socket path: sockaddr_un holds 104 (macOS) or 108 (Linux) with the NUL
CONNECT_TIMEOUT = 0.05  # seconds for a local connect: a listening server accepts at once
ANSWER_TIMEOUT = 0.5  # seconds for the answer (one query embedding on a loaded machine)
RETRY_BIND = 10.0  # seconds between a waiting server's attempts to take the socket over
MAX_REQUEST = 64 * 1024  # bytes of one request line
IDLE_EXIT = 1800.0  # seconds without a request after which a standalone warm process exits
MAX_LIFETIME = 12 * 3600.0  # seconds a standalone warm process lives at most (a new one loads a fresh index view)
LOCK_FILE = "warm.lock"
LOG_FILE = "warm.log"


def _private(path: str) -> str | None:
    """Why directory ``path`` may not hold the socket (None when it may): it
    must be a real directory (not a symlink), owned by this user, that no one
    else may enter."""
    import stat

    try:
        st = os.lstat(path)
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a directory"
    if st.st_uid != os.getuid():
        return f"{path} belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o077:
        return f"{path} may be entered by other users (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _candidates() -> list[str]:
    """Directories the socket may live in, best first: ``$XDG_RUNTIME_DIR/memdir``
    when the runtime directory is set, absolute, private and short enough for
    a socket path, then ``/tmp/memdir-<uid>``."""
    out = []
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if runtime and os.path.isabs(runtime) and _private(runtime) is None:
        directory = os.path.join(runtime, "memdir")
        if len(os.fsencode(os.path.join(directory, "0" * 16 + SOCKET_SUFFIX))) <= MAX_SOCKET_PATH:
            out.append(directory)
    out.append(os.path.join(SHARED_TMP, f"memdir-{os.getuid()}"))
    return out


def _name(home: Path) -> str:
    import hashlib

    real = os.path.realpath(os.fsencode(str(home)))
    return hashlib.sha256(real).hexdigest()[:16] + SOCKET_SUFFIX


def runtime_dir(create: bool = False) -> tuple[str | None, str | None]:
    """``(directory, None)`` for the directory that holds the sockets of this
    user, or ``(None, why not)``: the first of ``$XDG_RUNTIME_DIR/memdir`` and
    ``/tmp/memdir-<uid>`` that exists and is private (:func:`_private`). With
    ``create`` (the server) a missing one is made 0700 first; without (a
    client), when none exists yet the first is named — no server has bound
    there yet, so connecting fails at once. A directory that is not private
    is passed over, never repaired. Never raises."""
    if not hasattr(socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return None, "this platform has no Unix sockets"
    candidates = _candidates()
    why = None
    for path in candidates:
        if create and not os.path.lexists(path):
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
            except OSError as exc:
                why = f"cannot create {path} ({exc.strerror or exc})"
                continue
        if not os.path.lexists(path):
            continue
        why = _private(path)
        if why is None:
            return path, None
    if not create and not any(os.path.lexists(path) for path in candidates):
        return candidates[0], None
    return None, why


def socket_path(home: Path, create: bool = False) -> Path | None:
    """The warm process's socket for ``home`` in :func:`runtime_dir` (made when
    ``create``), or None when there is no usable directory. Its length does
    not depend on the home's path."""
    directory, _why = runtime_dir(create)
    if directory is None:
        return None
    return Path(directory, _name(home))  # ≤ MAX_SOCKET_PATH: a runtime directory too long is passed over


def why_off(home: Path, settings) -> str | None:
    """Why a fresh prompt hook of ``home`` gets no cosines from a warm process
    although dense retrieval is wanted, or None: when one answers at
    :func:`socket_path`, and when dense retrieval is not wanted (``search_vectors
    = off``, or ``auto`` without the extra: the search mode already says
    ``bm25``). The reasons: ``on`` without the extra, no usable socket
    directory, no process listening (with the last line of ``warm.log``: why
    the last standalone one ended), a process that cannot load the model.
    For ``memdir doctor``. Never raises."""
    from . import vectors

    setting = getattr(settings, "search_vectors", "auto")
    if setting == "off" or (setting != "on" and not vectors.installed()):
        return None
    if not vectors.installed():
        return ("the warm search process is off: search_vectors = on but the vectors extra is not installed "
                "(recall ranks by words alone)")
    directory, why = runtime_dir()
    if directory is None:
        return f"the warm search process is off: no socket directory ({why}); recall ranks by words alone"
    path = socket_path(home)
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(CONNECT_TIMEOUT)
            probe.connect(str(path))
            probe.settimeout(ANSWER_TIMEOUT)
            # No layers: a warm server answers at once with its generation, without embedding anything.
            probe.sendall(b'{"query": "", "layers": [], "generation": -1}\n')
            answer = json.loads(_read_line(probe, MAX_REQUEST))
    except (OSError, ValueError):
        answer = None
        last = _last_log_line(Path(home))
        return (f"no warm search process listens at {path} (a running `memdir mcp` serves it, or the one the next "
                "session start or prompt hook starts); until one does, a fresh prompt hook recalls by words alone"
                + (f"; last line of {Path(home) / LOG_FILE}: {last}" if last else ""))
    if isinstance(answer, dict) and answer.get("error") == "model not loaded":
        return (f"the warm search process at {path} cannot load the embedding model; a fresh prompt hook "
                f"recalls by words alone (see {Path(home) / LOG_FILE} or `memdir mcp`'s output)")
    return None


def _last_log_line(home: Path) -> str | None:
    try:
        with open(home / LOG_FILE, "rb") as log:
            log.seek(0, os.SEEK_END)
            log.seek(max(0, log.tell() - 4096))
            lines = log.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return None
    return lines[-1][:300] if lines else None


def listening(home: Path) -> bool:
    """True when something accepts connections on the socket of ``home``
    (a live warm process, loading or ready). Never raises."""
    path = socket_path(home)
    if path is None:
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(CONNECT_TIMEOUT)
            probe.connect(str(path))
    except OSError:
        return False
    return True


def launch(home: Path) -> int | None:
    """Start a detached standalone warm process for ``home`` (:func:`main`)
    unless one listens; returns its pid, or None (one listens, no socket
    directory, no ``posix_spawn``, or the start failed). Costs a fresh hook
    a failed connect and one ``posix_spawn`` (no ``subprocess`` import); never
    waits for the child and never raises. The child is reaped by a daemon
    thread of this process, or by init once this process has exited."""
    import sys

    home = Path(home)
    if not hasattr(os, "posix_spawn") or not sys.executable or not home.is_dir():
        return None
    if socket_path(home) is None or listening(home):
        return None
    try:
        log = os.open(home / LOG_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            null = os.open(os.devnull, os.O_RDONLY)
            try:
                actions = [(os.POSIX_SPAWN_DUP2, null, 0), (os.POSIX_SPAWN_DUP2, log, 1),
                           (os.POSIX_SPAWN_DUP2, log, 2)]
                pid = os.posix_spawn(sys.executable, [sys.executable, "-m", "memdir.search.warm", str(home)],
                                     os.environ, file_actions=actions, setsid=True)
            finally:
                os.close(null)
        finally:
            os.close(log)
    except OSError:
        return None
    threading.Thread(target=_reap, args=(pid,), name="memdir-warm-reap", daemon=True).start()
    return pid


def _reap(pid: int) -> None:
    try:
        os.waitpid(pid, 0)
    except OSError:
        pass


def launch_if_useful(home: Path, settings) -> int | None:
    """:func:`launch` when dense retrieval is wanted (:func:`memdir.search.vectors.wanted`,
    nothing imported) and a prompt hook of ``home`` has had vectors to rank
    with before — it left ``<home>/warm.log`` when it started a warm process
    (a home that never had vectors gets no process: nothing to serve). The
    SessionStart hook's call. Never raises."""
    from . import vectors

    if not vectors.wanted(settings) or not (Path(home) / LOG_FILE).exists():
        return None
    return launch(home)


def stop(home: Path) -> bool:
    """Ask the standalone warm process of ``home`` to exit (an MCP server's
    warm thread ignores it); True when one said it stops. Never raises."""
    path = socket_path(home)
    if path is None or not path.exists():
        return False
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT)
            sock.connect(str(path))
            sock.settimeout(ANSWER_TIMEOUT)
            sock.sendall(b'{"stop": true}\n')
            return json.loads(_read_line(sock, MAX_REQUEST)).get("stopping") is True
    except (OSError, ValueError, AttributeError):
        return False


def _read_line(sock: socket.socket, limit: int) -> bytes:
    data = b""
    while b"\n" not in data:
        chunk = sock.recv(65536)
        if not chunk:
            break
        data += chunk
        if len(data) > limit:
            raise ValueError("message too long")
    return data.split(b"\n", 1)[0]


def ask(home: Path, query: str, layers: list[str], generation: int, passages: bool = False):
    """``{doc id: cosine}`` (the head's, :func:`memdir.search.vectors.similarities`)
    from the warm process of ``home`` for ``query`` over ``layers`` at index
    ``generation`` — with ``passages``, ``{doc id: (best cosine, passage
    number)}`` instead (:func:`memdir.search.vectors.best_passages`); None when no warm
    process answers in time or its index is at another generation. Never raises."""
    path = socket_path(home)
    if path is None:
        return None
    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
            sock.settimeout(CONNECT_TIMEOUT)
            sock.connect(str(path))
            sock.settimeout(ANSWER_TIMEOUT)
            request = {"query": query, "layers": list(layers), "generation": int(generation),
                       **({"passages": True} if passages else {})}
            sock.sendall(json.dumps(request).encode("utf-8") + b"\n")
            answer = json.loads(_read_line(sock, 64 * 1024 * 1024))
        if answer.get("generation") != generation or "ids" not in answer:
            return None
        ids = [int(i) for i in answer["ids"]]
        if passages:
            return {i: (float(c), int(n)) for i, (c, n) in zip(ids, answer["passages"])}
        return dict(zip(ids, (float(c) for c in answer["cosines"])))
    except (OSError, ValueError, TypeError, AttributeError):
        return None


def _answer(home: Path, request: dict) -> dict:
    """The answer to one request (runs in the server's thread, model loaded)."""
    from . import vectors
    from .index import connect

    query, layers = request.get("query"), request.get("layers")
    conn = connect(home)
    conn.execute("BEGIN")
    try:
        generation = conn.execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
        if generation != request.get("generation") or not layers:
            return {"generation": generation}
        query_vec = vectors.query_vector(query)
        cosines = vectors.similarities(conn, home, query_vec, layers)
        best = vectors.best_passages(conn, home, query_vec, layers) if request.get("passages") else None
    finally:
        conn.execute("COMMIT")
    answer = {"generation": generation, "ids": list(cosines), "cosines": [round(c, 6) for c in cosines.values()]}
    if best is not None:
        answer["passages"] = [[round(best[i][0], 6), best[i][1]] for i in cosines]
    return answer


class WarmServer:
    """Serves query cosines for ``home`` on its socket from a daemon thread.

    :meth:`start` returns at once; the thread binds (or, while another live
    server holds the socket, retries every :data:`RETRY_BIND` s) and sets
    ``listening``; the first request starts loading the model in another
    thread, which sets ``warm`` when done (``failed`` when the engine cannot
    load: the server then answers nothing). :meth:`close` stops it and
    removes the socket if it is still this server's.

    ``standalone`` (the process of :func:`main`): the model loads as soon as
    the socket is bound, a server already answering means this one stops
    (``done`` is set) instead of waiting, and a ``{"stop": true}`` request
    (:func:`stop`) sets ``done``. ``last_request`` is the monotonic time of
    the last request (or of the start)."""

    def __init__(self, home: Path, standalone: bool = False):
        self.home = Path(home)
        self.path = socket_path(self.home, create=True)
        self.standalone = standalone
        self.listening = threading.Event()
        self.warm = threading.Event()
        self.done = threading.Event()
        self.failed = False
        self.answered = 0  # requests answered with cosines
        self.last_request = time.monotonic()
        self._loader: threading.Thread | None = None
        self._stop = threading.Event()
        self._sock: socket.socket | None = None
        self._inode: int | None = None
        self._thread: threading.Thread | None = None

    def start(self) -> "WarmServer":
        """Start the serving thread (nothing when there is no socket path)."""
        if self.path is not None:
            self._thread = threading.Thread(target=self._run, name="memdir-warm", daemon=True)
            self._thread.start()
        return self

    def _bind(self) -> bool:
        runtime_dir(create=True)  # again: a /tmp cleaner may have removed it since
        try:
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
                probe.settimeout(CONNECT_TIMEOUT)
                probe.connect(str(self.path))
            return False  # another server answers
        except OSError:
            pass
        try:
            self.path.unlink(missing_ok=True)  # a socket left by a process that died
            sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
            sock.bind(str(self.path))
            sock.listen(16)
            sock.settimeout(0.5)
            self._inode = os.stat(self.path).st_ino
        except OSError:
            return False
        self._sock = sock
        self.listening.set()
        return True

    def _load(self) -> None:
        from . import vectors

        try:
            if vectors.importable():
                vectors.query_vector("warm up")
                self.warm.set()
                return
        except Exception:  # no engine: fresh processes rank lexically
            pass
        self.failed = True

    def _start_loading(self) -> None:
        if self._loader is None:
            self._loader = threading.Thread(target=self._load, name="memdir-warm-load", daemon=True)
            self._loader.start()

    def stolen(self) -> bool:
        """True when the socket file is no longer the one this server bound
        (another server took the path over, or it was removed)."""
        try:
            return self._inode is not None and os.stat(self.path).st_ino != self._inode
        except OSError:
            return True

    def _run(self) -> None:
        while not self._stop.is_set() and not self._bind():
            if self.standalone:  # another server answers for this home: nothing for this process to do
                self.done.set()
                return
            self._stop.wait(RETRY_BIND)
        if self.standalone:
            self._start_loading()
        while not self._stop.is_set():
            try:
                client, _ = self._sock.accept()
            except TimeoutError:
                continue
            except OSError:
                break
            with client:
                self._serve_one(client)

    def _serve_one(self, client: socket.socket) -> None:
        try:
            client.settimeout(1.0)
            request = json.loads(_read_line(client, MAX_REQUEST))
            self.last_request = time.monotonic()
            query, layers = request.get("query"), request.get("layers")
            if request.get("stop") is True:
                answer = {"stopping": self.standalone}
                if self.standalone:
                    self.done.set()
            elif not isinstance(query, str) or not isinstance(layers, list) or not all(
                    isinstance(x, str) for x in layers):
                answer = {"error": "bad request"}
            elif not self.warm.is_set():
                self._start_loading()
                answer = {"error": "model not loaded" if self.failed else "loading the model"}
            else:
                answer = _answer(self.home, request)
                self.answered += "ids" in answer
            client.sendall(json.dumps(answer).encode("utf-8") + b"\n")
        except Exception:  # one bad or broken request must not stop the server
            return

    def close(self) -> None:
        """Stop serving and remove the socket file if it is still this server's."""
        self._stop.set()
        if self._sock is not None:
            self._sock.close()
            try:
                if os.stat(self.path).st_ino == self._inode:
                    self.path.unlink()
            except OSError:
                pass
        if self._thread is not None:
            self._thread.join(timeout=2.0)


def serve(home: Path, settings) -> WarmServer | None:
    """Start a :class:`WarmServer` for ``home`` when dense retrieval is
    installed and not turned off in ``settings`` (:func:`memdir.search.vectors.wanted`;
    nothing is imported otherwise); returns it, or None."""
    from . import vectors

    if not vectors.wanted(settings) or socket_path(home, create=True) is None:
        return None
    return WarmServer(home).start()


def main(argv: list[str] | None = None) -> int:
    """``python -m memdir.search.warm HOME [--idle SECONDS]``: a standalone
    warm process for ``HOME`` (see the module docstring) until it is idle
    for ``--idle`` seconds (default :data:`IDLE_EXIT`), lived
    :data:`MAX_LIFETIME`, lost its home or socket, is asked to stop or gets
    SIGTERM. Exit 0, one line on stdout when it ends."""
    import signal
    import sys

    from filelock import FileLock, Timeout

    args = sys.argv[1:] if argv is None else argv
    idle = IDLE_EXIT
    if len(args) == 3 and args[1] == "--idle":
        idle, args = float(args[2]), args[:1]
    if len(args) != 1:
        print("usage: python -m memdir.search.warm HOME [--idle SECONDS]", file=sys.stderr)
        return 2
    home = Path(args[0])
    lock = FileLock(str(home / LOCK_FILE), mode=0o600)
    try:
        lock.acquire(timeout=0)
    except (Timeout, OSError):
        return 0  # another warm process of this home is starting or running
    started = time.monotonic()
    server = WarmServer(home, standalone=True)
    signal.signal(signal.SIGTERM, lambda *_: server.done.set())
    why = "no socket directory"
    try:
        if server.path is not None:
            server.start()
            while True:
                if server.done.wait(1.0):
                    why = "stopped (asked, SIGTERM, or another server answers)"
                    break
                now = time.monotonic()
                why = ("home is gone" if not home.is_dir() else "socket taken over" if server.listening.is_set()
                       and server.stolen() else f"idle {idle:.0f} s" if now - server.last_request > idle
                       else "lifetime reached" if now - started > MAX_LIFETIME else "")
                if why:
                    break
    finally:
        server.close()
        lock.release()
    print(f"warm: pid {os.getpid()} exits after {time.monotonic() - started:.0f} s, {server.answered} answered: "
          f"{why}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


__all__ = ["ANSWER_TIMEOUT", "MAX_SOCKET_PATH", "WarmServer", "IDLE_EXIT", "LOG_FILE", "MAX_LIFETIME", "ask", "launch", "launch_if_useful",
           "listening", "main", "runtime_dir", "serve", "socket_path", "stop", "why_off"]
