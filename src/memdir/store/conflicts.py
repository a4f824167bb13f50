"""Merge conflict markers in memory files (DESIGN §2, the team layer).

A memory file that git left with conflict markers — ``<<<<<<< ours``,
``=======`` (and ``||||||| base`` in diff3 style), ``>>>>>>> theirs`` at the
start of lines, in that order — is not a memory: the scan lists it with the
reason :data:`CONFLICT`, so it is never injected, searched or listed as a
memory, and no write replaces it (:meth:`memdir.store.layer.Transaction.apply`)
until a person settles it, by hand or with :func:`resolve`.
"""

from __future__ import annotations

import re

CONFLICT = "unresolved merge conflict"
_OPEN, _BASE, _SPLIT, _CLOSE = b"<<<<<<<", b"|||||||", b"=======", b">>>>>>>"
_MARKER = re.compile(rb"^(<{7}|\|{7}|={7}|>{7})(?:[ \t][^\r\n]*)?\r?$", re.M)


def has_conflict(data: bytes) -> bool:
    """True when ``data`` holds a whole conflict hunk: an opening, a
    separator and a closing marker line, in that order."""
    if _OPEN not in data:  # the common case costs one substring search
        return False
    seen = [m.group(1)[:1] for m in _MARKER.finditer(data)]
    try:
        start = seen.index(b"<")
        middle = seen.index(b"=", start)
        seen.index(b">", middle)
    except ValueError:
        return False
    return True


def resolve(data: bytes, side: str) -> bytes:
    """``data`` with every conflict hunk replaced by one side: ``"ours"``
    (the lines between ``<<<<<<<`` and ``|||||||``/``=======``) or
    ``"theirs"`` (between ``=======`` and ``>>>>>>>``). Text outside the
    hunks is kept byte for byte. Raises ValueError for another side or an
    unterminated hunk."""
    if side not in ("ours", "theirs"):
        raise ValueError(f"side must be 'ours' or 'theirs' (got {side!r})")
    out: list[bytes] = []
    state = None  # None outside a hunk; "ours", "base", "theirs" inside
    for line in data.splitlines(keepends=True):
        match = _MARKER.match(line)
        kind = match.group(1)[:1] if match else None
        if kind == b"<" and state is None:
            state = "ours"
        elif kind == b"|" and state == "ours":
            state = "base"
        elif kind == b"=" and state in ("ours", "base"):
            state = "theirs"
        elif kind == b">" and state == "theirs":
            state = None
        elif state is None or state == side:
            out.append(line)
    if state is not None:
        raise ValueError("a conflict hunk is not closed (no >>>>>>> line)")
    return b"".join(out)


def refuse_overwrite(state, path, action: str) -> None:
    """Refuse to replace or remove ``path`` while its scan ``state`` (a
    :class:`~memdir.store.scan.FileState` or None) says it holds an
    unresolved merge conflict; only ``action`` ``resolve`` may. Raises
    :class:`~memdir.store.errors.Conflict` saying how to settle it."""
    if state is not None and state.error == CONFLICT and action != "resolve":
        from .errors import Conflict

        name = str(path).replace("\\", "/").rsplit("/", 1)[-1][:-3]
        raise Conflict(f"{path} has an unresolved merge conflict; settle it first "
                       f"(memdir team resolve {name} --ours|--theirs, or edit it by hand)")


__all__ = ["CONFLICT", "has_conflict", "refuse_overwrite", "resolve"]
