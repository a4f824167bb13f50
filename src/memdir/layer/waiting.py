"""How a writer waits its turn for a layer's lock: in the kernel, in a line, within the lock timeout.

The layer's lock (:meth:`memdir.layer.layer.Layer.locked`, ``.memdir/lock``) is a :mod:`filelock`
lock, which never blocks in the kernel: a waiter tries ``flock(LOCK_NB)`` and sleeps between tries.
Under contention that is unfair — the writer that just released the lock tries again at once and
usually wins, while one that sleeps misses every window. Seven writer processes on a machine at load
14-23 left one waiting 8-8.5 s, and at times past the 10 s lock timeout: a write refused
(``LockTimeout``) under ordinary contention.

So a waiter first takes its place in a line: a blocking ``flock`` on ``.memdir/lock.queue``
(:data:`memdir.files.layout.QUEUE_FILE`), where the kernel wakes it the moment the place ahead is
free, instead of a sleeper's luck. Only the one at the head of the line polls for the lock itself,
and it leaves the line as soon as it holds it; a writer coming back for the lock joins the line
behind the others, so none takes the lock twice while another has been waiting.

A waiter in line also tries the lock itself once a second (:data:`STUCK_SECONDS`): a head of the
line that does not move — its process stopped (Ctrl-Z) while waiting — delays the others by that
much and never holds up the layer. The timeout holds throughout: the blocking ``flock`` runs in a helper thread and the caller waits
for it at most until the deadline (no signal, so it is safe in any thread). A caller that gives up
leaves the file descriptor to that thread, which, once it reaches the head of the line, leaves it
at once (closing the descriptor releases the place); a thread never outlives the wait of the one
ahead of it, which is bounded by that one's own timeout. A killed waiter's place goes with its
process (the kernel drops its ``flock``).

Where there is no ``flock`` (Windows) or the line's file cannot be opened (a read-only home),
:func:`turn` yields at once and the caller polls as before: the line is for fairness, never a
condition of writing.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # Windows: no flock; the lock is polled (filelock's msvcrt lock)
    fcntl = None  # type: ignore[assignment]

_FLAGS = os.O_RDWR | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_CLOEXEC", 0)


STUCK_SECONDS = 1.0  # how often a waiter in line tries the lock itself, past a head that does not move
_HEAD, _TOOK = object(), object()  # what _wait came to: the head of the line, or the lock itself


class TurnTimeout(TimeoutError):
    """The deadline passed before this waiter reached the head of the line."""


@contextmanager
def turn(path: Path, deadline: float, try_lock: Callable[[], bool]) -> Iterator[bool]:
    """Hold the head of the line kept on the file ``path`` while the body runs (the caller's poll
    for the lock itself), waiting in the kernel until then, at most until ``deadline``
    (:func:`time.monotonic` seconds). Yields False then; True when ``try_lock`` (one try of the lock,
    True: taken) took the lock while waiting — it is tried every :data:`STUCK_SECONDS` in line, so a
    head that does not move (a process stopped, Ctrl-Z) delays the others by that much, never stops
    them. Raises :class:`TurnTimeout` when the deadline passes first. Without ``flock``, or when
    ``path`` cannot be opened, the body runs at once (no line)."""
    fd = _open(path)
    if fd is None:
        yield False
        return
    if not _try(fd):
        reached = _wait(fd, deadline, try_lock)
        if reached is None:
            raise TurnTimeout(f"no turn at {path} before the deadline")  # the fd is the helper thread's now
        if reached is _TOOK:
            yield True  # the place is left to the helper thread, which leaves it when it gets there
            return
    try:
        yield False
    finally:
        os.close(fd)  # releases the place: the next in line is woken


def _open(path: Path) -> int | None:
    if fcntl is None:
        return None
    try:
        return os.open(path, _FLAGS, 0o600)
    except OSError:  # read-only home, a symlink there (refused by the layer's own check): no line, only the poll
        return None


def _try(fd: int) -> bool:
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    except OSError:  # no flock on this file system: no line
        return True


def _wait(fd: int, deadline: float, try_lock: Callable[[], bool]) -> object | None:
    """Block in ``flock`` in a helper thread until the place is ours (:data:`_HEAD`), ``try_lock`` took
    the lock meanwhile (:data:`_TOOK`) or ``deadline`` passes (None). But for ``_HEAD``, the thread owns
    ``fd`` from then on and closes it when its ``flock`` returns (leaving the line at once)."""
    guard, reached = threading.Lock(), threading.Event()
    state = {"abandoned": False}

    def wait_in_kernel() -> None:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
        except OSError:
            pass  # no flock after all: the caller polls without a line
        with guard:
            if state["abandoned"]:
                os.close(fd)  # the caller gave up or took the lock: leave the line at once
                return
            reached.set()

    threading.Thread(target=wait_in_kernel, name="memdir-lock-line", daemon=True).start()
    outcome = None
    try:
        while not reached.wait(max(0.0, min(STUCK_SECONDS, deadline - time.monotonic()))):
            if try_lock():  # the head of the line has not taken the lock for a while: stopped, or gone
                outcome = _TOOK
                break
            if time.monotonic() >= deadline:
                break
    except BaseException:  # interrupted (KeyboardInterrupt): never leave a place held for nobody
        with guard:
            if reached.is_set():
                os.close(fd)
            else:
                state["abandoned"] = True
        raise
    with guard:
        if reached.is_set() and outcome is None:
            return _HEAD
        if reached.is_set():
            os.close(fd)  # reached the head just as try_lock took the lock: the place is not needed
        else:
            state["abandoned"] = True
        return outcome
