"""Merge conflict markers in memory files (DESIGN §2, the team layer).

A memory file that git left with conflict markers — ``<<<<<<< ours``,
``=======`` (and ``||||||| base`` in diff3 style), ``>>>>>>> theirs`` at the
start of lines — is not a memory: the scan lists it with the reason
:data:`CONFLICT`, so it is never injected, searched or listed as a memory,
and no write replaces it (:meth:`memdir.layer.layer.Transaction.apply`)
until a person settles it, by hand or with :func:`resolve`.

Markers count at the start of a line and outside fenced code (a line
opening with three or more backticks or tildes, up to three spaces in,
toggles a fence; lines inside a conflict hunk do not): a memory that shows
conflict markers in a code block is a memory. An opening or closing marker
line (``<<<<<<<``/``>>>>>>>``) outside fences marks the file as conflicted
even without the rest of its hunk (a half-settled file is not a memory
either); a lone ``=======`` is a Markdown heading underline, not a marker.
:func:`resolve` settles only what parses as whole, non-nested hunks and
says why otherwise.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..errors import InvalidInput

CONFLICT = "unresolved merge conflict"
MARKER_SIZE = 7  # git's conflict markers: 7 characters unless a `conflict-marker-size` attribute says otherwise
# The smallest size read from a file's text alone. git takes any conflict-marker-size from 1 up (ll-merge.c), but
# runs of one or two are Markdown's own lines — a `> quote`, a `>> nested quote`, a `=`/`==` heading underline,
# a `<< EOF` heredoc — so a clean memory holding them read as a conflict and was hidden (misc42). Markers of 1 or
# 2 still count where git's attribute gives the size (`team status`).
MIN_GUESSED_SIZE = 3
_FENCE = re.compile(rb"^ {0,3}(`{3,}|~{3,})")
_OPENING = re.compile(rb"^(<{%d,})[ \t]" % MIN_GUESSED_SIZE)  # a hunk's opening line, with its label


def _marker(size: int) -> re.Pattern:
    """A marker line of ``size`` characters: the run alone, or followed by a blank and a label (re's cache keeps
    the compiled pattern)."""
    return re.compile(rb"^(<{%d}|\|{%d}|={%d}|>{%d})(?:[ \t][^\r\n]*)?\r?\n?$" % (size, size, size, size))


def marker_size(data: bytes) -> int:
    """The size of the conflict markers git wrote in ``data`` when nobody asked git for it (the scan reads
    files without running git): the size of the first whole hunk in ``data`` — an opening ``<`` run of ``n``
    followed by a label, then ``=`` and ``>`` lines of ``n`` — what git's line merge writes for a path whose
    ``conflict-marker-size`` attribute is ``n``, longer than git's 7 (team40: markers of 10 went unseen, the file
    read as a memory) or shorter (team41: markers of 5 were seen by ``team status`` alone, and the file read as a
    memory everywhere else), down to :data:`MIN_GUESSED_SIZE`; :data:`MARKER_SIZE` when there is none. Only a
    whole hunk counts: a line of ten ``=`` or ``<`` alone is text, and so are runs of one or two (``< a``, ``=``,
    ``> quote``: Markdown, not markers). The one rule of every reader of a memory file (:func:`has_conflict` and
    the rest here, given no size)."""
    opening = b"<" * MIN_GUESSED_SIZE
    if not (data.startswith(opening) or b"\n" + opening in data):  # no line opens with '<<<': no hunk to size
        return MARKER_SIZE
    lines = data.splitlines(keepends=True)
    for number, line in enumerate(lines):
        opened = _OPENING.match(line)
        if opened is None:
            continue
        size = len(opened.group(1))
        kinds = [m.group(1)[:1] for m in map(_marker(size).match, lines[number + 1:]) if m]
        if b"=" in kinds and b">" in kinds[kinds.index(b"="):]:
            return size
    return MARKER_SIZE


def _lines(data: bytes, size: int | None = None):
    """``(line, marker kind or None)`` for every line of ``data``, where the
    kind is ``b"<"``, ``b"|"``, ``b"="`` or ``b">"`` for a marker line of ``size`` characters (None:
    :func:`marker_size`) that counts (see the module docstring). Fences toggle only outside hunks."""
    marker = _marker(marker_size(data) if size is None else size)
    fence = None  # the fence opener's character run while inside fenced code
    in_hunk = False
    for line in data.splitlines(keepends=True):
        match = marker.match(line)
        kind = match.group(1)[:1] if match else None
        if fence is not None and not in_hunk:
            opened = _FENCE.match(line)
            if opened and opened.group(1)[:1] == fence[:1] and len(opened.group(1)) >= len(fence) \
                    and not line.strip().lstrip(b"`~"):
                fence = None
            yield line, None
            continue
        if kind == b"<":
            in_hunk = True
        elif kind == b">":
            in_hunk = False
        elif kind is None and not in_hunk:
            opened = _FENCE.match(line)
            if opened:
                fence = opened.group(1)
        yield line, kind


def has_conflict(data: bytes, size: int | None = None) -> bool:
    """True when ``data`` holds an opening (``<<<<<<<``) or closing
    (``>>>>>>>``) conflict marker line outside fenced code. ``size``: the markers' size, as git gives the path's
    ``conflict-marker-size`` attribute (:func:`memdir.git.attributes`); None: :func:`marker_size`."""
    if size is None:
        if b"<<<<<<<" not in data and b">>>>>>>" not in data:  # the common case: three substring searches
            size = marker_size(data)
            if size == MARKER_SIZE:
                return False
    elif b"<" * size not in data and b">" * size not in data:
        return False
    return any(kind in (b"<", b">") for _, kind in _lines(data, size))


def fenced_markers(data: bytes, size: int | None = None) -> bool:
    """True when ``data`` holds an opening and a closing conflict marker line (of ``size`` characters, None:
    :func:`marker_size`) inside fenced code, where
    :func:`has_conflict` reads them as text: what git's own line merge leaves when both sides changed a
    line of a code block (a clone without memdir's driver). The scan cannot tell that from a memory that
    shows markers in a code block; git's index can: a file git still calls conflicted that holds such
    lines is no settled merge (``memdir team status``)."""
    size = marker_size(data) if size is None else size
    if b"<" * size not in data or b">" * size not in data:
        return False
    kinds = {match.group(1)[:1] for match in map(_marker(size).match, data.splitlines(keepends=True)) if match}
    return {b"<", b">"} <= kinds


class Hunk(NamedTuple):
    """One conflict hunk: the lines of each side (``base`` None without a
    ``|||||||`` section), marker lines left out."""

    ours: bytes
    base: bytes | None
    theirs: bytes


def segments(data: bytes, size: int | None = None) -> list[bytes | Hunk]:
    """``data`` cut into text outside conflict hunks (bytes, kept byte for
    byte, fenced code included) and the hunks (:class:`Hunk`), in order.
    Raises ValueError for markers that do not make whole hunks: a hunk
    opened inside another (nested markers), a separator or closing marker
    out of order, a hunk never closed — such a file is settled by hand. ``size``: the markers' size (None:
    :func:`marker_size`)."""
    out: list[bytes | Hunk] = []
    outside: list[bytes] = []
    sides: dict[str, list[bytes]] = {}
    state = None  # None outside a hunk; "ours", "base", "theirs" inside
    marks = marker_size(data) if size is None else size
    for number, (line, kind) in enumerate(_lines(data, marks), 1):
        if kind == b"<" and state is None:
            state, sides = "ours", {"ours": [], "theirs": []}
            if outside:
                out.append(b"".join(outside))
                outside = []
        elif kind == b"<":
            raise ValueError(f"line {number}: a conflict hunk opens inside another (nested markers)")
        elif kind == b"|" and state == "ours":
            state, sides["base"] = "base", []
        elif kind == b"=" and state in ("ours", "base"):
            state = "theirs"
        elif kind == b">" and state == "theirs":
            state = None
            base = sides.get("base")
            out.append(Hunk(b"".join(sides["ours"]), None if base is None else b"".join(base),
                            b"".join(sides["theirs"])))
        elif kind in (b"|", b">") or (kind == b"=" and state is not None):
            raise ValueError(f"line {number}: a {kind.decode() * marks} marker out of order")
        elif state is None:
            outside.append(line)
        else:
            sides[state].append(line)
    if state is not None:
        raise ValueError(f"a conflict hunk is not closed (no {'>' * marks} line)")
    if outside:
        out.append(b"".join(outside))
    return out


def resolve(data: bytes, side: str) -> bytes:
    """``data`` with every conflict hunk replaced by one side: ``"ours"``
    (the lines between ``<<<<<<<`` and ``|||||||``/``=======``) or
    ``"theirs"`` (between ``=======`` and ``>>>>>>>``). Text outside the
    hunks (fenced code included) is kept byte for byte. Raises ValueError
    for another side, or for markers that do not make whole hunks
    (:func:`segments`). Per field: :func:`memdir.files.merge.resolve_fields`."""
    if side not in ("ours", "theirs"):
        raise ValueError(f"side must be 'ours' or 'theirs' (got {side!r})")
    return b"".join(part if isinstance(part, bytes) else getattr(part, side) for part in segments(data))


def refuse_overwrite(state, path, action: str) -> None:
    """Refuse to replace or remove ``path`` while its scan ``state`` (a
    :class:`~memdir.files.scan.FileState` or None) says it holds an
    unresolved merge conflict; only ``action`` ``resolve`` may. Raises
    :class:`~memdir.errors.Conflict` saying how to settle it."""
    if state is not None and state.error == CONFLICT and action != "resolve":
        from ..errors import Conflict

        raise Conflict(unsettled(path))


def unsettled(path) -> str:
    """What is said of the memory file ``path`` that holds an unresolved merge conflict, wherever it
    is met (a write, a read by name): it is no memory until a person settles it, and how."""
    name = str(path).replace("\\", "/").rsplit("/", 1)[-1][:-3]
    return (f"{path} has an unresolved merge conflict; settle it first "
            f"(memdir team resolve {name} --ours|--theirs, or edit it by hand)")


def refuse_markers(payload: bytes, name: str) -> bytes:
    """``payload`` (the bytes about to become memory ``name``'s file) when it
    holds no conflict marker that counts (:func:`has_conflict`); else raises
    :class:`~memdir.errors.InvalidInput`: such a file would be read back
    as an unresolved merge conflict, not as the memory a write acknowledged
    (issue 13). Markers inside fenced code are text and pass."""
    if has_conflict(payload):
        raise InvalidInput(f"the text of {name!r} holds a merge conflict marker line (<<<<<<< or >>>>>>> at the "
                           "start of a line, outside fenced code): a file with one is not a memory; put the "
                           "lines in a fenced code block (```) or indent them")
    return payload


__all__ = ["CONFLICT", "MARKER_SIZE", "MIN_GUESSED_SIZE", "Hunk", "fenced_markers", "has_conflict", "marker_size",
           "refuse_markers", "refuse_overwrite", "resolve", "segments", "unsettled"]
