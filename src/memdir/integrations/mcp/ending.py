"""How ``memdir mcp`` ends on SIGINT or SIGTERM: at once, and never in the middle of a write.

Claude Code ends a stdio server it no longer needs with SIGINT and, when the process is still there 100 ms later,
SIGTERM. Python's default SIGINT raised KeyboardInterrupt wherever the main thread was — inside a tool call's write
too, which runs there (:meth:`memdir.integrations.mcp.server.MemoryServer.call`) — and the unwinding then waited for
the warm socket's serving thread (its ``accept`` wakes every 0.5 s) and for a model load: 0.5–2.5 s, past Claude's
100 ms. SIGTERM killed the process wherever it was.

Now both are :meth:`Ending.signalled`: with no tool call running (:meth:`Ending.working`) the server ends at once —
the warm socket stops serving once the request it may be answering is done (a prompt hook's changes made or not
begun: :meth:`memdir.search.warm.server.WarmServer.halt`), its file removed — with ``os._exit``: no thread is
waited for, no interpreter teardown runs (a model load under way then cannot abort the process either). A signal
during a tool call is kept: the call completes (its write whole, journaled), and the server ends as it returns.
Exit status 128 + the signal's number (130, 143), as a shell reports a process a signal ended.
"""

from __future__ import annotations

import os
import signal
import sys
from contextlib import contextmanager

SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Ending:
    """The signals of a server in a process of its own: ``halt()`` (no arguments; never raises) stops what serves
    besides the tool calls (the warm socket), then the process exits. :meth:`install` once, in the main thread."""

    def __init__(self, halt):
        self._halt = halt
        self.busy = 0  # tool calls running (in the main thread, as the signal handler)
        self.asked: int | None = None  # the signal received, once one was
        self._ending = False

    def install(self) -> None:
        """Handle SIGINT and SIGTERM (:meth:`signalled`). Raises ValueError outside the main thread."""
        for number in SIGNALS:
            signal.signal(number, self.signalled)

    def signalled(self, number: int, _frame=None) -> None:
        """A signal handler: end now, or — a tool call running — once it returns (:meth:`working`)."""
        self.asked = self.asked or number
        if not self.busy:
            self.end()

    @contextmanager
    def working(self):
        """Around a tool call: a signal that comes meanwhile ends the process once the call is done, never in it."""
        self.busy += 1
        try:
            yield
        finally:
            self.busy -= 1
            if self.asked is not None and not self.busy:
                self.end()  # its result is not sent: the client that asked is going away

    def end(self) -> None:
        """Stop serving (``halt``) and exit with status 128 + the signal's number. Never returns; a second signal
        while it halts changes nothing."""
        if self._ending:
            return
        self._ending = True
        try:
            self._halt()
        finally:
            for stream in (sys.stdout, sys.stderr):
                try:
                    stream.flush()
                except (OSError, ValueError):
                    pass
            os._exit(128 + int(self.asked or signal.SIGINT))


__all__ = ["SIGNALS", "Ending"]
