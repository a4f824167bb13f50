"""Saying that the search index is read as it is (a full disk, a read-only home, another process's lock), once.

:func:`memdir.search.sync.sync` answers from a copy of an index it cannot write and says so on stderr:
once per index and process, and for an agent's session once per session and cause
(:func:`warn_stale`); a warm process running a prompt hook for a fresh process hands the lines back
to that process, whose stderr a person sees (:func:`warnings_handed_back`).
"""

from __future__ import annotations

import contextlib
import os
import threading
from pathlib import Path

from ..prompt.delivery import when_delivered
from .index import db_path, warn

_warned: set[str] = set()  # '<index path>\0<session id or empty>\0<project or empty>' this process warned of


def warn_stale(home: Path, cause: str, why: str, session_id: str | None = None,
               project: str | os.PathLike | None = None) -> None:
    """``why`` (the index is read as it is, and why) on stderr, once per index and process — and,
    for an agent's session (``session_id``) in ``project`` (its root, or None), once per session, project and
    ``cause``: each hook is a process of its own, and a read-only home or a full disk stays so from prompt to
    prompt, so only the first prompt of the session in that project says it
    (:func:`memdir.prompt.recalled.first_time`, kept under the session's record, :func:`memdir.prompt.recalled.record_id`,
    in the per-user runtime directory when the home cannot take it): one session id in two projects is two
    conversations, each told once. A person's command (no session) is always told."""
    from ..prompt import recalled

    key = f"{db_path(home)}\0{session_id or ''}\0{os.fspath(project) if project else ''}"  # a warm process serves many
    if key in _warned:
        return
    when_delivered(lambda: _warned.add(key))  # a warm process's answer not delivered said nothing
    if recalled.first_time(home, session_id, cause, project):
        kept = getattr(_handed_back, "lines", None)
        if kept is None:
            warn(why)
        elif f"memdir: warning: {why}" not in kept:
            kept.append(f"memdir: warning: {why}")


_handed_back = threading.local()  # .lines: the warnings of a hook a warm process runs, for the hook's process


@contextlib.contextmanager
def warnings_handed_back():
    """Within it, this thread's stale-index warnings (:func:`warn_stale`) are kept in the list it
    yields (``memdir: warning: …`` lines), not written to this process's stderr: a warm process runs a
    prompt hook for a fresh process, whose stderr is the one a person sees
    (:func:`memdir.integrations.claude_code.hooks.answer_warm`)."""
    kept: list[str] = []
    _handed_back.lines = kept
    try:
        yield kept
    finally:
        _handed_back.lines = None


__all__ = ["warn_stale", "warnings_handed_back"]
