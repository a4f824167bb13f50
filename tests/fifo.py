"""A FIFO for tests of readers that must never block on one.

:func:`fifo` makes the FIFO and, while the test runs, a writer that opens it
after ``after`` seconds and closes it at once: a reader that blocked on the
open (the fault under test) then reads end-of-file and returns, and the block
fails with AssertionError when it ends, instead of hanging the suite. The
check is whether a reader held the FIFO open, not a wall-clock limit, so a
slow machine cannot fail it and a fast blocked reader cannot pass it.
"""

from __future__ import annotations

import errno
import os
import threading
import time
from contextlib import contextmanager
from pathlib import Path


@contextmanager
def fifo(path: Path, after: float = 3.0):
    """Make a FIFO at ``path``; yield it; a blocked reader is released after ``after`` seconds and the block
    then raises AssertionError naming ``path``."""
    os.mkfifo(path)
    done = threading.Event()
    released = []

    def release() -> None:
        if done.wait(after):
            return
        while not done.is_set():
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # EOF for the reader that waits
                released.append(path)  # the open succeeds only while a reader holds the FIFO
            except OSError as exc:
                if exc.errno not in (errno.ENXIO, errno.ENOENT):  # ENXIO: no reader yet
                    return
            time.sleep(0.05)

    writer = threading.Thread(target=release, daemon=True)
    writer.start()
    try:
        yield path
    finally:
        done.set()
        writer.join(5)
    assert not released, f"a reader blocked on the FIFO {path} until it was released"
