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
