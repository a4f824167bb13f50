"""What a hook records as given to the agent is recorded once the agent has it: the one rule of when a prompt
hook's changes of the session's state are made.

A prompt hook changes state as it gives: it takes the session start's held text off disk
(:func:`memdir.prompt.recalled.take_start`), records the context block and the recalled bodies as given
(:func:`~memdir.prompt.recalled.record_start`, :func:`~memdir.prompt.recalled.record`), the findings as shown
(:func:`memdir.prompt.pending.mark_shown`) and a warning as said (:func:`~memdir.prompt.recalled.first_time`).
Each of those is made through :func:`when_delivered`: in the hook's own process at once, as before (what it
prints, it prints). A warm process runs a prompt hook for a fresh hook process that waits a bounded time
(:func:`memdir.search.warm.run_hook`); one that answered after that wait ran out had changed the state for an
answer nobody printed, and the hook process's own run found the start text taken and the bodies given: both
lost (a Gemini CLI session's first prompt, the warm process slow). So the warm process runs the hook inside
:class:`Held`, which keeps those changes, and makes them only when the hook process says it has the answer
(:meth:`Held.commit`); otherwise they are dropped and the hook process's own run finds everything as it was.

Hot path: the interpreter's own ``_thread`` only (not :mod:`threading`: ≈ 4M instructions of ``memdir
context``, which imports the session's record). The changes kept are one thread's: a warm process's other
threads, an MCP server's tool calls, change the state as they always did.
"""

from __future__ import annotations

from _thread import _local

_held = _local()  # .changes: the list the Held of this thread keeps, or None


def when_delivered(change) -> None:
    """Make ``change()`` (a change of the session's state that says something was given to the agent; it never
    raises) now — or, inside a :class:`Held` of this thread, once the answer that gives it is delivered
    (:meth:`Held.commit`)."""
    changes = getattr(_held, "changes", None)
    if changes is None:
        change()
    else:
        changes.append(change)


def holding() -> bool:
    """True inside a :class:`Held` of this thread: a change asked now is made later, or never."""
    return getattr(_held, "changes", None) is not None


class Held:
    """``with Held() as held:`` — the changes asked in the block (:func:`when_delivered`) are kept, not made;
    :meth:`commit` makes them, in order, once the answer was delivered; without it they are dropped."""

    def __init__(self) -> None:
        self.changes: list = []

    def __enter__(self):
        self._outer = getattr(_held, "changes", None)
        _held.changes = self.changes
        return self

    def __exit__(self, *exc) -> None:
        _held.changes = self._outer

    def commit(self) -> int:
        """Make the kept changes (each at most once); how many. A change that raises is skipped, the rest made."""
        from contextlib import (
            suppress,  # here: a hook's own process never commits (its changes are made at once)
        )

        changes, self.changes = self.changes, []
        for change in changes:
            with suppress(Exception):  # each is best effort (never raises by contract): the rest are still made
                change()
        return len(changes)


__all__ = ["Held", "holding", "when_delivered"]
