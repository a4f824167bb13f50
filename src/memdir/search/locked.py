"""Another process holding the search index's write lock (a long writer, a ``sqlite3`` shell left in a
transaction): met by a sync's write once SQLite's busy timeout is spent, then remembered, so the reader
answers from an in-memory copy brought up to date (:func:`memdir.search.sync.sync`) instead of waiting the
timeout again at every sync.

A process that meets the lock also marks the home (:data:`LOCK_MARK`), so a fresh one — a prompt hook, a
``memdir search`` — asks for the lock with a short busy timeout (:func:`waiting`) for :data:`MARK_SKIP` s
and falls back to the copy at once, not after the full timeout: a lock that lasts costs each later process
:data:`QUICK_WAIT` s, not 5. An agent's session (a hook, whose prompt waits on it) asks so always, the first
to meet the lock too, and so does a process answering an agent's tool calls (the MCP server:
:func:`serve_agent`). The copy holds what was written and deleted meanwhile, so the mark never makes
an answer stale; a mark outliving the lock only shortens the wait of a write that is then free at once.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager
from pathlib import Path

from .index import BUSY_CODES, db_path, explain

LOCKED_RETRY = 5.0  # seconds a process reads a copy before it waits for a lock another process holds again
_LOCKED: dict[str, tuple[float, str]] = {}  # index path -> (monotonic time of the busy write, why)
LOCK_MARK = "index.locked"  # in a home: the wall-clock second a process last met another's lock on the index
MARK_SKIP = 60.0  # seconds a mark makes a fresh process ask for the lock with QUICK_WAIT
QUICK_WAIT = 0.25  # seconds a sync's write waits for the lock while the home is marked (SQLite's busy timeout)
_SERVES_AGENT = [False]  # this process answers an agent's tool calls (serve_agent): every sync of it is quick


def locked_out(home: Path, exc: BaseException | None = None) -> str | None:
    """Why the index of ``home`` cannot be written now because another connection holds its write lock
    (SQLITE_BUSY, SQLITE_LOCKED once the 5 s busy timeout is spent: a long writer, a ``sqlite3`` shell left in
    a transaction), for a person; None when not so. With ``exc`` (a write's ``sqlite3.Error``): that error's
    word, noted. Without: the note while under :data:`LOCKED_RETRY` s old, so the caller reads a copy
    (:func:`memdir.search.sync.sync`) instead of waiting the busy timeout again at every sync of a search."""
    path = str(db_path(home))
    if exc is not None:
        if (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF not in BUSY_CODES:
            return None
        _LOCKED[path] = (time.monotonic(), f"the search index {path} is locked by another process ({explain(exc)})")
        _mark(home)
    noted = _LOCKED.get(path)
    return noted[1] if noted is not None and time.monotonic() - noted[0] < LOCKED_RETRY else None


def _mark(home: Path) -> None:
    """Write :data:`LOCK_MARK` in ``home`` (whole seconds, cut: never after a clock read later), through a part
    file put in place; a mark that cannot be written is none and leaves no part behind. Never raises."""
    part = os.path.join(home, f".{LOCK_MARK}.{os.getpid()}")
    try:
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(f"{int(time.time())}\n")
        os.replace(part, os.path.join(home, LOCK_MARK))
    except OSError:
        try:
            os.unlink(part)
        except OSError:
            pass


def marked(home: Path, now: float | None = None) -> bool:
    """True when a process met another's lock on the index of ``home`` less than :data:`MARK_SKIP` s ago by the
    wall clock (``now`` by default): its mark, :data:`LOCK_MARK`. A mark dated after ``now`` (a clock set back)
    is none. One failed open when none was marked; never raises."""
    try:
        with open(os.path.join(home, LOCK_MARK), "rb") as mark:
            when = float(mark.read(32))
    except (OSError, ValueError):
        return False
    return 0 <= (time.time() if now is None else now) - when < MARK_SKIP


def serve_agent() -> None:
    """This process answers an agent's tool calls from here on (the MCP server: ``memdir mcp``), so none of
    its syncs waits seconds for another process's lock (:func:`waiting`): an agent's tool call waits on it, as
    a prompt does on its hook, and the index as it is, brought up to date in a copy, answers as well. The
    hooks ask so per sync (their session's id); a server has no session id to ask by."""
    _SERVES_AGENT[0] = True


@contextmanager
def waiting(conn, home: Path, quick: bool = False):
    """Within the block, ``conn``'s writes wait :data:`QUICK_WAIT` s for the index's lock, not its own busy
    timeout, when ``home`` is :func:`marked` (another process met the lock moments ago: it is likely held
    still, and the caller has a copy to answer from) or ``quick`` (the caller may never wait seconds: an
    agent's prompt hook, whose prompt waits on it; every caller in a process that called :func:`serve_agent`);
    the timeout restored after, and the mark removed when the block wrote (the lock was free). None of
    these: nothing changes."""
    if not quick and not _SERVES_AGENT[0] and not marked(home):
        yield
        return
    waited, wrote = conn.execute("PRAGMA busy_timeout").fetchone()[0], conn.total_changes
    conn.execute(f"PRAGMA busy_timeout = {int(QUICK_WAIT * 1000)}")
    try:
        yield
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(waited)}")
    if conn.total_changes > wrote:  # it wrote: the lock is free again, the next process waits as usual
        try:
            os.unlink(os.path.join(home, LOCK_MARK))
        except OSError:
            pass


__all__ = ["LOCKED_RETRY", "LOCK_MARK", "MARK_SKIP", "QUICK_WAIT", "locked_out", "marked", "serve_agent", "waiting"]
