"""A FIFO for tests of readers that must never block on one.

:func:`fifo` makes the FIFO and, while the test runs, a writer that opens it
after ``after`` seconds and closes it at once: a reader that blocked on the
open (the fault under test) then reads end-of-file and returns, so the test
fails on its assertions instead of hanging the suite.
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
    """Make a FIFO at ``path``; yield it; a blocked reader is released after ``after`` seconds."""
    os.mkfifo(path)
    done = threading.Event()

    def release() -> None:
        if done.wait(after):
            return
        while not done.is_set():
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK))  # EOF for the reader that waits
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
