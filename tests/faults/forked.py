"""A writer process to SIGKILL (tests/faults/test_crash.py, test_leftovers.py): forked from the test's own
process, which has memdir imported already, so a kill costs no interpreter start-up (30 and 50 of them were most
of those tests' time). A real process, killed by a real signal in the middle of its writes."""

from __future__ import annotations

import itertools
import os
import signal
from contextlib import suppress

from memdir import Memory
from memdir.errors import NotFound


def writer(home, project) -> tuple[int, int]:
    """Fork a writer of ``project``'s layer under ``home``: one acknowledged write (``first``), then writes and
    deletes of ``note-0`` … ``note-6`` until killed. Returns ``(pid, fd)``: the fd gives ``ready`` once the first
    write is done. Reap it with :func:`killed`."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        try:
            os.close(read_end)
            mem = Memory.open(home=home, project=project)
            mem.write("first", f"the first write of {os.getpid()}", "project")
            os.write(write_end, b"ready\n")
            for i in itertools.count():
                mem.write(f"note-{i % 7}", f"note {i % 7} revision {i} of {os.getpid()}", "project", "body " * (i % 50))
                if i % 5 == 0:
                    with suppress(NotFound):  # deleted already
                        mem.delete(f"note-{(i + 3) % 7}")
        finally:
            os._exit(3)
    os.close(write_end)
    return pid, read_end


def killed(rng, home, project, most: float) -> bool:
    """Start a :func:`writer`, wait for its first write, let it write for ``rng.uniform(0, most)`` seconds, SIGKILL
    it and reap it; True when the signal ended it (not its own end)."""
    import time

    pid, ready = writer(home, project)
    with os.fdopen(ready, "rb") as said:
        assert said.readline() == b"ready\n"
        time.sleep(rng.uniform(0.0, most))
        os.kill(pid, signal.SIGKILL)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


def in_window(target, attribute: str, act, during, *, after: bool = False) -> tuple[int, str]:
    """Fork a child that runs ``act()`` (a memdir operation returning the text to report) with ``target.attribute``
    (a module's function) wrapped so that the child stops at its call — before it, or with ``after`` once it
    returned — while ``during()`` runs in this process; then let the child go. Returns ``(exit code, text)``: 0 and
    ``act()``'s text, or 4 and a :class:`~memdir.errors.MemdirError`'s text (3: the child failed otherwise).
    A real process stopped in a real window (tests/faults/test_forget_race.py, test_promote_forget_race.py)."""
    from memdir.errors import MemdirError

    stop_r, stop_w = os.pipe()
    go_r, go_w = os.pipe()
    said_r, said_w = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        code = 3
        try:
            for fd in (stop_r, go_w, said_r):
                os.close(fd)
            original = getattr(target, attribute)

            def stopped(*args, **kwargs):
                found = original(*args, **kwargs) if after else None
                os.write(stop_w, b"stopped\n")
                os.read(go_r, 3)
                return found if after else original(*args, **kwargs)

            setattr(target, attribute, stopped)
            try:
                os.write(said_w, act().encode())
                code = 0
            except MemdirError as exc:
                os.write(said_w, str(exc).encode())
                code = 4
        finally:
            os._exit(code)
    for fd in (stop_w, go_r, said_w):
        os.close(fd)
    with os.fdopen(stop_r, "rb") as stop:
        assert stop.readline() == b"stopped\n"
        during()
    os.write(go_w, b"go\n")
    os.close(go_w)
    with os.fdopen(said_r, "rb") as said:
        text = said.read().decode()
    _, status = os.waitpid(pid, 0)
    return os.waitstatus_to_exitcode(status), text
