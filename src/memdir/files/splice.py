"""``MEMORY.md`` rewritten from its outline and the lines that changed (issue 28 §7: a write's upkeep
of the index proportional to what changed, not to the layer).

A write moves a few lines of a layer's ``MEMORY.md`` (:meth:`memdir.layer.index.IndexBuilder.edits`).
:func:`splice_index` writes the new file from the old one without reading it: the runs of unchanged
lines are copied by their byte spans in the old file's :class:`memdir.files.outline.Outline`
(``os.copy_file_range``: in the kernel, no byte through this process; where the system has none, read
and written), the new lines written, and the result put in place atomically as a whole write is
(a temporary file renamed over it: a reader sees the old file or the new one). The old file's stat is
checked before and after the copy (size, mtime, inode, ctime: as the outline's reader checks it), so a
hand edit between restore and write is never overwritten by a splice — the caller then renders the
whole text, keeping the edited copy aside. The new outline is stepped from the old tables, not made
from the text.
"""

from __future__ import annotations

import os
from bisect import bisect_left
from itertools import accumulate
from pathlib import Path

from ..text.printable import are_clean_lines
from ..vocabulary import PIN_MARK
from .fsio import TEMP_SUFFIX
from .layout import index_state
from .outline import Outline, store_outline


def _plan(before: Outline, edits: list[tuple[int, str | None]]) -> list | None:
    """The new file's lines by origin, as runs: a ``(first, last)`` pair (the old lines ``[first, last)``,
    in order) or a str (a new line), after ``edits`` applied in order to ``before``'s lines; None when an
    edit lies outside them. As many runs as edits, not lines: a write's few edits to a layer of 10,000
    lines step through a handful of runs, never a list of every line."""
    runs: list = [(0, before.count)] if before.count else []
    size = before.count
    for at, line in edits:
        if line is None:
            if not 0 <= at < size:
                return None
        elif not 0 <= at <= size or "\n" in line or not line.strip():
            return None
        i, seen = 0, 0  # the run holding line ``at`` (or where a line inserted at ``at`` goes) and its first line
        while i < len(runs):
            width = 1 if isinstance(runs[i], str) else runs[i][1] - runs[i][0]
            if seen + width > at:
                break
            seen, i = seen + width, i + 1
        if i < len(runs) and not isinstance(runs[i], str):  # split the run of old lines at ``at``
            first, last = runs[i]
            cut = first + at - seen
            runs[i:i + 1] = [r for r in ((first, cut), (cut, last)) if r[1] > r[0]]
            i += 1 if cut > first else 0
        if line is None:
            run = runs[i]
            runs[i:i + 1] = [] if isinstance(run, str) else ([(run[0] + 1, run[1])] if run[1] > run[0] + 1 else [])
            size -= 1
        else:
            runs.insert(i, line)
            size += 1
    return runs


def _copy(source: int, target: int, start: int, length: int, at: int) -> int:
    """``length`` bytes of ``source`` from ``start`` to ``target`` at ``at`` (in the kernel when it can);
    returns the bytes that went through this process (0 when copied in the kernel)."""
    through = 0
    while length > 0:
        try:
            done = os.copy_file_range(source, target, length, start, at)
        except (AttributeError, OSError):  # no copy_file_range (another system, a filesystem refusing it)
            chunk = os.pread(source, min(length, 1 << 20), start)
            done = os.pwrite(target, chunk, at) if chunk else 0
            through += 2 * done
        if done <= 0:
            raise OSError(f"short copy at byte {start}")
        start, at, length = start + done, at + done, length - done
    return through


def splice_index(index_path: Path, meta_dir: Path, before: Outline,
                 edits: list[tuple[int, str | None]]) -> tuple[Outline, os.stat_result, int] | None:
    """Write ``index_path`` (a ``MEMORY.md`` that ``before`` outlines) as ``edits`` change it, and its
    outline into ``meta_dir``; returns ``(the new file's Outline, its lstat, bytes of it that went
    through this process)`` — the new lines' bytes, plus the copied ones only where the kernel could not
    copy them. None when the file is no longer the one outlined (edited by hand, rewritten since: it is
    left as it is), the edits do not fit it, no line would be left (the caller removes the file), or
    the disk refuses the file or its outline: the caller then writes the whole text. Never raises."""
    origin = _plan(before, edits)
    if not origin:
        return None
    starts, ends = before._starts, before._ends
    expected = before.state
    index_path = Path(index_path)
    temp = None
    try:
        fd = os.open(index_path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        try:
            if index_state(os.fstat(fd)) != expected:
                return None
            import tempfile  # a write's: loaded by the first one

            out, temp = tempfile.mkstemp(prefix=f".{index_path.name}.", suffix=TEMP_SUFFIX, dir=index_path.parent)
            try:
                new_starts, new_ends, at, through = [], [], 0, 0
                for run in origin:
                    if isinstance(run, tuple):  # a run of consecutive old lines [first, last): one copy
                        first, last = run
                        length = ends[last - 1] + 1 - starts[first]
                        through += _copy(fd, out, starts[first], length, at)
                        shift = at - starts[first]
                        new_starts += map(shift.__add__, starts[first:last])
                        new_ends += map(shift.__add__, ends[first:last])
                        at += length
                    else:
                        data = run.encode("utf-8") + b"\n"
                        new_starts.append(at)
                        new_ends.append(at + len(data) - 1)
                        at += os.pwrite(out, data, at)
                        through += len(data)
                # the same as before the copy: no write came between
                if os.fstat(out).st_size != at or index_state(os.fstat(fd)) != expected:
                    raise OSError("the index changed while it was copied")
                os.fchmod(out, 0o600)
            finally:
                os.close(out)
            os.replace(temp, index_path)
            temp = None
        finally:
            os.close(fd)
            if temp is not None:
                try:
                    os.unlink(temp)
                except OSError:
                    pass
        on_disk = os.lstat(index_path)
    except OSError:
        return None
    new = [run for run in origin if isinstance(run, str)]
    clean = before.clean and are_clean_lines("\n".join(new))
    least: list[int] = []
    if clean:
        old_least = before.least
        for run in origin:
            if isinstance(run, tuple):
                least += old_least[run[0]:run[1]]
            else:
                least.append(len(run.strip()))
        total = sum(least) + len(least)
    else:
        least, total = [0] * len(new_starts), 0
    after = list(accumulate(reversed(least), min))[::-1]
    pinned, pins, line = before.pins, [], 0  # the old pins (sorted) where their runs put them, and new pinned lines
    for run in origin:
        if isinstance(run, tuple):
            first, last = run
            pins += (line + pin - first for pin in pinned[bisect_left(pinned, first):bisect_left(pinned, last)])
            line += last - first
        else:
            if PIN_MARK in run:
                pins.append(line)
            line += 1
    table = store_outline(meta_dir, on_disk, new_starts, new_ends, least, after, pins, clean, total)
    if table is None:  # the file is right; only its outline is missing: the next write reads it whole
        return None
    outline = Outline(index_path, (on_disk.st_size, on_disk.st_mtime_ns, on_disk.st_ino), on_disk.st_ctime_ns,
                      len(new_starts), clean, total, table, len(pins))
    return outline, on_disk, through


__all__ = ["splice_index"]
