"""What a background job may write: only into a home and layer directories that exist (DESIGN §1).

A home or a layer directory is made by a person's or an agent's write through the gateway
(:meth:`memdir.layer.layer.Layer.locked`, the first write of a layer; ``memdir team init``), in the foreground. A
process that runs on its own — the first-session build (:mod:`memdir.search.warm.first`), the background embedder
(:mod:`memdir.search.embedder`), the sweeper (:mod:`memdir.search.sweeper`), a standalone warm process's own
lock (:mod:`memdir.search.warm.server`) — and a reader's take-up of hand edits (:meth:`memdir.layer.layer.Layer.take_up`,
a write nobody asked for) never make one: a directory removed under them (a repository deleted, a home cleared
while a build still ran) stays removed. Before, a first-session build still running when its repository was
deleted and made again at the same path recreated ``<repo>/.claude/memory`` in the new one (its take-up of the
vanished team layer took the layer lock, whose directory it made), and the person's ``mkdir`` met FileExistsError.

The rule is :func:`require`, called where such a job would make a directory or a file whose parent it would make:
the layer lock, the search index, the embedder's lock, the record of read team tombstones. It refuses with a
:class:`~memdir.errors.StoreError` (the job's own catch ends it quietly); the next foreground action builds what the
job would have. A lock such a job takes is :func:`memdir.layer.joblock.lock` (filelock, whose acquire would make the
home again: the layer unit is the one that locks). Nothing here is imported on a prompt's path beyond this module (the
standard library only).
"""

from __future__ import annotations

import os
import threading
from contextlib import contextmanager

from ..errors import StoreError


class Gone(StoreError):
    """A directory a background job needed is not there (:func:`require`): the job leaves it be. Not a lasting state
    of the layer (a write makes it), so a reader tries its take-up again next time."""


_process = False  # this whole process is a background job (its entry point said so: enter())
_scoped = threading.local()  # .depth: this thread runs background work inside a foreground process (scope())


def enter() -> None:
    """Mark this process a background job from now on (the first call of its entry point's ``main``): every
    :func:`require` of it refuses a directory that is not there. Not undone (the process is one)."""
    global _process
    _process = True


@contextmanager
def scope():
    """Within the block, this thread does background work (a take-up of hand edits, a warm process's own lock):
    :func:`require` refuses as in a background job. Re-entrant; undone on exit, also on an exception."""
    _scoped.depth = getattr(_scoped, "depth", 0) + 1
    try:
        yield
    finally:
        _scoped.depth -= 1


def active() -> bool:
    """True in a background job (:func:`enter`) or within :func:`scope` in this thread."""
    return _process or getattr(_scoped, "depth", 0) > 0


def require(*directories: str | os.PathLike, home: str | os.PathLike | None = None) -> None:
    """In a background job (:func:`active`), raise :class:`Gone` (a :class:`~memdir.errors.StoreError`) unless each of ``directories``
    (a home, a layer directory) is a directory now: the job writes only into what exists, and makes none of them (nor
    their parents). ``home``, the home a layer's side lies in when it is not inside ``directories`` (the team layer's
    ``<home>/team/<key>``), is required only of a background process (:func:`enter`): a person's own process may make
    the home it was opened on (its first read of a new home takes up the team layer), never a layer directory. In the
    foreground, nothing (the gateway makes what a write needs). One stat per directory in a background job, none
    otherwise."""
    if not active():
        return
    needed = (*directories, home) if _process and home is not None else directories
    for directory in needed:
        if not os.path.isdir(directory):
            raise Gone(f"{os.fspath(directory)} is gone; a background job does not make it again (the next "
                             "write through memdir does)")


__all__ = ["Gone", "active", "enter", "require", "scope"]
