"""This user's private runtime directory: the warm processes' sockets (no dead one kept), and session records.

A socket path must fit ``sockaddr_un`` (about 100 bytes) whatever the home's
path, so the warm process of a home (:mod:`memdir.search.warm`) listens at
``$XDG_RUNTIME_DIR/memdir/<16 hex>.sock`` when that runtime directory is this
user's and private, else ``/tmp/memdir-<uid>/<16 hex>.sock``, else (that one
refused: another user's, a symbolic link, open to others) ``<user cache
dir>/memdir-run/<16 hex>.sock`` when that path is short enough — the hex a
SHA-256 of the home's real path. The directory is made 0700 and used only
while it is a real directory of this user that no one else may enter and
this process can make a socket in (not read-only: :func:`runtime_dir`); one
that is not is passed over for the next, never repaired. :func:`chosen` says
which is used and why each one before it was passed over (``memdir doctor``,
``memdir status``).

The hex does not say which home a socket served, so a home deleted or moved
leaves its socket behind once its process has gone; the directory would only
grow. :func:`swept` removes every socket there that nothing listens on
(a connect refused) and that is older than :data:`SWEEP_GRACE` (a server
binds before it listens); a socket a live process holds answers and stays.
A warm process sweeps when it starts, a hook when it finds its home's socket dead.

A warm process being started is said in its home: :func:`note_start` records the
launch (``warm.starting``: pid and wall-clock time), :func:`starting` tells how long a
prompt hook may still wait for it (:func:`starting_wait` after the launch, while the
process lives: :func:`alive`).
"""

from __future__ import annotations

import errno
import os
import time

SOCKET_SUFFIX = ".sock"
SHARED_TMP = "/tmp"  # not $TMPDIR: macOS gives every user a long one; /tmp/memdir-<uid>/ is short everywhere
MAX_SOCKET_PATH = 100  # bytes of a socket path: sockaddr_un holds 104 (macOS) or 108 (Linux) with the NUL
PROBE_TIMEOUT = 0.05  # seconds for a local connect: a listening server accepts at once
SWEEP_GRACE = 60.0  # seconds a socket is left alone after it was bound (its server may not listen yet)
START_FILE = "warm.starting"  # in a home: "<pid> <wall-clock time>" of the last warm process launched for it
# A prompt hook waits for a warm process launched less than this many seconds ago (and still alive) — its socket,
# then its model — rather than rank by words (memdir.search.warm.run_hook); a server waits as long after it began
# loading. Launch → model answers: 0.49 s p50, 0.66 s max on an idle 2-core machine, 1.19 s max with both cores
# busy (benchmarks/bench_first_prompt.py). The wait ends once the model answers or the process is gone.
STARTING_WAIT = 3.0
STALL_FILE = "warm.stalled"  # in a home: "<socket inode> <wall-clock time>" of a prompt hook's request left unanswered
# Seconds the prompt hooks of a home rank by words at once, asking nothing of the warm process on that socket, after
# one took a whole hook request and gave no answer within memdir.search.warm.HOOK_TIMEOUT: a stopped (SIGSTOP) or
# wedged process whose socket still accepts cost every prompt 5 s (break19: 6.1 s per prompt, 0.08 s warm).
STALL_SKIP = 60.0


def _refused_directory(path: str, others: int, may: str, *, follow: bool = False, absent: bool = False) -> str | None:
    """Why directory ``path`` is not this user's own (None when it is): it must be a directory (``follow``: a
    symbolic link to one is followed, else a link is refused), owned by this user, whose mode gives other users
    none of the bits ``others`` (``0o077``: no entering; ``0o022``: no writing), said as "may be ``may`` by other
    users". ``absent``: a path that does not exist is None (not a symbolic link to nothing, which ``follow`` names as
    one: break50a, a dangling ``~/.cache`` was read as absent, then said "cannot be read (No such file …)"). Never
    raises."""
    import stat

    try:
        st = os.stat(path) if follow else os.lstat(path)
    except OSError as exc:
        if isinstance(exc, FileNotFoundError) and follow and os.path.islink(path):  # break50a: said "No such file"
            try:
                return f"{path} is a symbolic link to {os.readlink(path)}, which does not exist"
            except OSError:
                return f"{path} is a symbolic link to a path that does not exist"
        if absent and isinstance(exc, FileNotFoundError):
            return None
        return f"{path} cannot be read ({exc.strerror or exc})"
    if stat.S_ISLNK(st.st_mode):  # even to a private directory: a link may be swapped (break48: said "not a directory")
        try:
            return f"{path} is a symbolic link (to {os.readlink(path)}), not a directory"
        except OSError:
            return f"{path} is a symbolic link, not a directory"
    if not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a directory"
    if st.st_uid != os.getuid():
        return f"{path} belongs to another user (uid {st.st_uid})"
    if st.st_mode & others:
        return f"{path} may be {may} by other users (mode {stat.S_IMODE(st.st_mode):o})"
    return None


def _private(path: str) -> str | None:
    """Why directory ``path`` may not hold the socket (None when it may): it
    must be a real directory (not a symlink), owned by this user, that no one
    else may enter (:func:`_refused_directory`)."""
    return _refused_directory(path, 0o077, "entered")


def _unwritable(path: str) -> str | None:
    """Why this process cannot make a socket in directory ``path`` (None when it can): it needs to
    write and enter it — a mode that does not let this user (``chmod 0500``) or a read-only file system."""
    import stat

    if os.access(path, os.W_OK | os.X_OK, effective_ids=os.access in os.supports_effective_ids):
        return None
    try:
        if os.statvfs(path).f_flag & getattr(os, "ST_RDONLY", 1):
            return f"{path} is on a read-only file system"
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except OSError as exc:
        return f"{path} cannot be read ({exc.strerror or exc})"
    return f"{path} cannot be written by this user (mode {mode:o})"


def _usable(path: str) -> str | None:
    """Why directory ``path`` may not hold this user's sockets (None when it may): :func:`_private`,
    then :func:`_unwritable` — a private directory no socket can be made in is passed over too."""
    return _private(path) or _unwritable(path)


CACHE_RUN = "memdir-run"  # in this user's cache directory: the last place for the sockets (after /tmp/memdir-<uid>)


def user_cache_dir() -> str | None:
    """This user's cache directory, as ``platformdirs.user_cache_dir`` names it (without importing it: a prompt
    hook's thin client loads neither it nor :mod:`pathlib`): ``$XDG_CACHE_HOME`` when set and absolute, else
    ``~/.cache`` — ``~/Library/Caches`` on macOS. None when there is no home directory to put it in. Never raises."""
    import sys

    if sys.platform == "darwin":
        base = os.path.expanduser("~/Library/Caches")
    else:
        base = os.environ.get("XDG_CACHE_HOME", "").strip()
        base = base if os.path.isabs(base) else os.path.expanduser("~/.cache")
    return base if os.path.isabs(base) else None


def _cache_refused(cache: str) -> str | None:
    """Why the cache directory ``cache`` may not hold :data:`CACHE_RUN` (None when it may): when it exists (a
    symbolic link to a directory is followed: a home's ``~/.cache`` often is one), it must be a directory of this
    user that no one else may write to — another could otherwise rename the private directory away and put theirs
    in its place (:func:`_refused_directory`; one not made yet is None: the first warm process makes it 0700)."""
    return _refused_directory(cache, 0o022, "written", follow=True, absent=True)


def _too_long(directory: str) -> bool:
    """Whether a socket in ``directory`` (``<16 hex>.sock``) would not fit :data:`MAX_SOCKET_PATH`."""
    return len(os.fsencode(os.path.join(directory, "0" * 16 + SOCKET_SUFFIX))) > MAX_SOCKET_PATH


def _candidates() -> list[tuple[str | None, str | None]]:
    """Directories the socket may live in, best first, each with why it is passed over at once (None:
    it is to be looked at): ``$XDG_RUNTIME_DIR/memdir`` when the runtime directory is set, absolute,
    private and short enough for a socket path, then ``/tmp/memdir-<uid>``, then ``<user cache dir>/memdir-run``
    (:func:`user_cache_dir`; its parent of this user and written by no one else, short enough). A directory of
    None is one that cannot even be named (the why says so)."""
    out: list[tuple[str | None, str | None]] = []
    runtime = os.environ.get("XDG_RUNTIME_DIR", "")
    if not runtime:
        out.append((None, "XDG_RUNTIME_DIR is not set"))
    elif not os.path.isabs(runtime):
        out.append((None, f"XDG_RUNTIME_DIR {runtime} is not an absolute path"))
    else:
        directory = os.path.join(runtime, "memdir")
        if _too_long(directory):
            out.append((directory, f"XDG_RUNTIME_DIR {runtime} is too long for a socket path"))
        else:
            why = _private(runtime)
            out.append((directory, f"XDG_RUNTIME_DIR: {why}" if why else None))
    out.append((os.path.join(SHARED_TMP, f"memdir-{os.getuid()}"), None))
    cache = user_cache_dir()
    if cache is None:
        out.append((None, "there is no home directory for a cache directory"))
    else:
        directory = os.path.join(cache, CACHE_RUN)
        if _too_long(directory):
            too_long = f"the cache directory {cache} is too long for a socket path (over {MAX_SOCKET_PATH} bytes)"
            out.append((directory, too_long))
        else:
            why = _cache_refused(cache)
            out.append((directory, f"cache directory: {why}" if why else None))
    return out


def _name(home: Path) -> str:
    from .paths import sha256  # CPython's own SHA-256: a prompt hook's thin client loads no hashlib (OpenSSL)

    real = os.path.realpath(os.fsencode(str(home)))
    return sha256(real).hexdigest()[:16] + SOCKET_SUFFIX


def runtime_dir(create: bool = False) -> tuple[str | None, str | None]:
    """``(directory, None)`` for the directory that holds the sockets of this
    user, or ``(None, why not)``: the first of ``$XDG_RUNTIME_DIR/memdir``,
    ``/tmp/memdir-<uid>`` and ``<user cache dir>/memdir-run`` (:func:`_candidates`) that is missing or usable (:func:`_usable`: private, and
    writable by this process — a read-only one, ``chmod 0500`` or a read-only
    mount, is passed over) — one rule for the server and its clients, so both
    name the same directory. With ``create`` (the server) a missing one is made
    0700; without (a client) a missing one is named all the same when it could be
    made — no server has bound there yet, so connecting fails at once. A
    directory that is not usable is passed over, never repaired. Never raises."""
    import _socket  # late, as everywhere here; the C module: a prompt hook's thin client loads no socket.py

    if not hasattr(_socket, "AF_UNIX") or not hasattr(os, "getuid"):
        return None, "this platform has no Unix sockets"
    return private_dir(create)


def private_dir(create: bool = False) -> tuple[str | None, str | None]:
    """:func:`runtime_dir` without asking for Unix sockets (what else this user keeps there: the
    session record of a home that cannot take it, :mod:`memdir.prompt.recalled`). The why of a
    ``(None, why)`` names every directory passed over and why, in order (``"XDG_RUNTIME_DIR is not set;
    /tmp/memdir-1000 belongs to another user (uid 0); /home/u/.cache/memdir-run is on a read-only file
    system"``). Never raises."""
    directory, passed = chosen(create)
    return (directory, None) if directory is not None else (None, "; ".join(passed))


def chosen(create: bool = False) -> tuple[str | None, list[str]]:
    """``(directory, passed)``: the directory :func:`private_dir` names (None: none) and why each one before it
    was passed over, in order (``[]`` when the first is used) — what ``memdir doctor`` and ``memdir status`` say of
    the warm process's socket. ``create`` as for :func:`runtime_dir`. Never raises."""
    if not hasattr(os, "getuid"):
        return None, ["this platform has no per-user runtime directory"]
    passed: list[str] = []
    for path, skipped in _candidates():
        if skipped or path is None:
            passed.append(skipped or f"{path} cannot be named")
            continue
        if not os.path.lexists(path):
            parent = os.path.dirname(path)
            if not create:
                # The one a server would make — when it can: connecting there fails at once until it does.
                why = _unwritable(_existing(parent))
                if why is None:
                    return path, passed
                passed.append(f"cannot create {path} ({why})")
                continue
            try:
                if path.endswith(os.sep + CACHE_RUN) and not os.path.isdir(parent):
                    os.makedirs(parent, 0o700, exist_ok=True)  # the cache directory: this user's, made as a user's is
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
            except OSError as exc:
                passed.append(f"cannot create {path} ({exc.strerror or exc})")
                continue
        why = _usable(path)
        if why is None:
            return path, passed
        passed.append(why)
    return None, passed


def _existing(path: str) -> str:
    """``path`` or its nearest ancestor that exists (what a ``makedirs`` of it would first write in)."""
    while not os.path.lexists(path) and os.path.dirname(path) != path:
        path = os.path.dirname(path)
    return path


def socket_path(home: Path, create: bool = False) -> Path | None:
    """The warm process's socket for ``home`` in :func:`runtime_dir` (made when
    ``create``), or None when there is no usable directory. Its length does
    not depend on the home's path. :func:`socket_file` as a :class:`~pathlib.Path`."""
    path = socket_file(home, create)
    if path is None:
        return None
    from pathlib import Path  # late: a session start that launches no warm process loads no pathlib

    return Path(path)


def socket_file(home: str | os.PathLike, create: bool = False) -> str | None:
    """:func:`socket_path` as a string (``<runtime directory>/<16 hex>.sock``), for the prompt hook's
    thin client, which connects and loads no :mod:`pathlib`; None when there is no usable directory."""
    directory, _why = runtime_dir(create)
    if directory is None:
        return None
    return os.path.join(directory, _name(home))  # ≤ MAX_SOCKET_PATH: a runtime directory too long is passed over


def dead(path: str | os.PathLike) -> bool:
    """True when ``path`` is a socket nothing listens on: a connect is refused
    (``ECONNREFUSED``), as it is once the process that bound it has gone. A
    socket that accepts, or whose connect only times out (a busy server's full
    queue), is not dead. Never raises."""
    import socket

    try:
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            probe.settimeout(PROBE_TIMEOUT)
            probe.connect(os.fspath(path))
    except OSError as exc:
        return exc.errno == errno.ECONNREFUSED
    return False


def in_the_way(path: str | os.PathLike) -> str | None:
    """Why no socket can be bound at ``path``: something that is not a socket sits there (a regular
    file, a directory, a symbolic link: never memdir's, and never removed by it); None when nothing
    or a socket is there. Never raises (a path that cannot be looked at is None: the bind says why)."""
    import stat

    try:
        mode = os.lstat(path).st_mode
    except OSError:
        return None
    if stat.S_ISSOCK(mode):
        return None
    # each kind by its name: the sentence says "not a socket" itself (a FIFO was "a file that is not a socket,
    # not a socket")
    kind = ("a regular file" if stat.S_ISREG(mode) else "a directory" if stat.S_ISDIR(mode)
            else "a symbolic link" if stat.S_ISLNK(mode) else "a named pipe (FIFO)" if stat.S_ISFIFO(mode)
            else "a device" if stat.S_ISCHR(mode) or stat.S_ISBLK(mode) else "a file of another kind")
    return (f"{os.fspath(path)} is {kind}, not a socket, so no warm process can listen there (memdir removes "
            "only a socket it left; move that file away)")


def cleared(path: str | os.PathLike) -> str | None:
    """Make ``path`` free for a warm process to bind: a socket left there (by a process that has gone:
    the caller found none answering) is removed; anything else stays, and its :func:`in_the_way` is
    returned (None: the path is free). Raises :class:`OSError` when the socket cannot be removed."""
    refusal = in_the_way(path)
    if refusal is None:
        try:
            os.unlink(path)
        except FileNotFoundError:
            pass
    return refusal


def swept(directory: str | None = None, now: float | None = None) -> list[str]:
    """Remove the dead sockets (:func:`dead`) of ``directory`` (default: this
    user's :func:`runtime_dir`, which must be private) older than
    :data:`SWEEP_GRACE`; returns the paths removed. Anything that is not a
    ``*.sock`` socket is left alone. Never raises."""
    import stat

    if directory is None:
        directory, _why = runtime_dir()
    if directory is None or _private(directory) is not None:
        return []
    now = time.time() if now is None else now
    removed = []
    try:
        names = os.listdir(directory)
    except OSError:
        return []
    for name in names:
        path = os.path.join(directory, name)
        try:
            st = os.lstat(path)
            if (not name.endswith(SOCKET_SUFFIX) or not stat.S_ISSOCK(st.st_mode)
                    or now - st.st_mtime < SWEEP_GRACE or not dead(path)):
                continue
            os.unlink(path)
        except OSError:
            continue
        removed.append(path)
    return removed


def note_start(home: str | os.PathLike, pid: int, launched: float) -> None:
    """Record the launch of warm process ``pid`` (or of the first-session build that starts it once the index is there:
    :func:`memdir.search.warm.first.start`) at wall-clock ``launched`` in ``<home>/warm.starting``
    (written whole, then renamed over the last one), for :func:`starting`; a record that cannot be written (a full
    disk) is none, and leaves no part file in ``home``. Never raises. ``home`` may be a str: the SessionStart hook's
    path has no pathlib."""
    part = os.path.join(home, f".{START_FILE}.{os.getpid()}")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(f"{pid} {launched:.3f}\n")
        os.replace(part, os.path.join(home, START_FILE))
    except OSError:
        try:
            os.unlink(part)  # a record that could not be written whole (a full disk) leaves no part behind (break44b)
        except OSError:
            pass


def alive(pid: int) -> bool:
    """True while process ``pid`` runs (not gone, not a zombie nobody reaped yet)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:  # another user's (a pid reused): not ours to wait for
        return False
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            return stat.read().rpartition(b")")[2].split()[:1] != [b"Z"]
    except OSError:  # no /proc (macOS): signal 0 is all there is
        return True


def starting(home: Path, now: float | None = None) -> float | None:
    """Seconds left of :func:`starting_wait` after the last :func:`memdir.search.warm.launch` for ``home`` (its
    ``warm.starting`` record, wall clock ``now`` by default), while the process it started lives;
    None when none was launched, the bound has passed (or the clock went back), or it has gone —
    exited, killed, a zombie. One failed open when nothing was launched; never raises."""
    try:
        with open(os.path.join(home, START_FILE), "rb") as record:
            pid, launched = record.read(64).split()
        pid, launched = int(pid), float(launched)
    except (OSError, ValueError):
        return None
    bound = starting_wait()
    left = launched + bound - (time.time() if now is None else now)
    return left if 0 < left <= bound and alive(pid) else None


def starting_wait() -> float:
    """Seconds a prompt hook waits for a warm process launched moments ago, and a server for its model
    (:func:`starting`, :func:`memdir.search.warm.run_hook`): :data:`STARTING_WAIT`, or the ``MEMDIR_STARTING_WAIT``
    environment variable when it holds a finite number ≥ 0 (a machine so loaded that the model takes longer to load;
    the tests that check the wait itself, not how fast this machine is). Read at each call; never raises."""
    raw = os.environ.get("MEMDIR_STARTING_WAIT")
    try:
        value = float(raw) if raw else -1.0
    except ValueError:
        value = -1.0
    return value if 0 <= value < float("inf") else STARTING_WAIT


def note_stall(home: str | os.PathLike, path: str) -> None:
    """Record in ``<home>/warm.stalled`` that the warm process on socket ``path`` took a prompt hook's request and
    gave no answer in time, for :func:`stalled`; marked by the socket's inode, so a new process (a new socket) is
    asked at once. Never raises; a mark that cannot be written or put in place (a directory in its way, a full
    disk) is none, and leaves no part file in ``home``."""
    part = os.path.join(home, f".{STALL_FILE}.{os.getpid()}")
    try:
        inode = os.stat(path).st_ino
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(f"{inode} {int(time.time())}\n")  # whole seconds, cut: never after a clock read later
        os.replace(part, os.path.join(home, STALL_FILE))
    except OSError:
        try:
            os.unlink(part)  # a mark that could not be put in place leaves no part behind (break20)
        except OSError:
            pass


def stalled(home: str | os.PathLike, path: str, now: float | None = None) -> bool:
    """True when the warm process on socket ``path`` left a prompt hook's request unanswered (:func:`note_stall`)
    less than :data:`STALL_SKIP` s ago (wall clock ``now`` by default) and still holds that socket: the caller
    asks it nothing and ranks by words. One failed open when none was marked; never raises."""
    try:
        with open(os.path.join(home, STALL_FILE), "rb") as record:
            inode, when = record.read(64).split()
        inode, when = int(inode), float(when)
        return 0 <= (time.time() if now is None else now) - when < STALL_SKIP and os.stat(path).st_ino == inode
    except (OSError, ValueError):
        return False


__all__ = ["CACHE_RUN", "MAX_SOCKET_PATH", "PROBE_TIMEOUT", "SHARED_TMP", "SOCKET_SUFFIX", "STALL_FILE", "STALL_SKIP", "START_FILE",
           "STARTING_WAIT", "SWEEP_GRACE", "alive", "chosen", "cleared", "dead", "in_the_way", "note_stall", "note_start",
           "private_dir", "runtime_dir", "socket_file", "socket_path", "stalled", "starting", "starting_wait", "swept", "user_cache_dir"]
