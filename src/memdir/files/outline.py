"""The outline of a ``MEMORY.md``: where each index line lies and what the context block's
fair share needs to know of it, so a fresh process reads the lines it shows, not the whole
index (issue 28 §7: a 10,000-line index of which about 35 lines fit the block).

Written next to the index by the layer's writer (:func:`write_outline`, as
``<meta>/index-outline``), read on the hot path (:func:`read_outline`). Its form::

    memdir-outline 1 <byte order> <size> <mtime_ns> <ino> <lines> <clean> <least total> <pins>\\n
    starts, ends, least, after (one unsigned 32-bit integer per line each), pins (one per pin)

``size``, ``mtime_ns`` and ``ino`` are the stat of the ``MEMORY.md`` it describes: a reader
whose file has another (edited by hand, replaced by an older memdir, rewritten since) does not
use it and reads the whole file, as does a reader on a machine of the other byte order. Per
line (the non-blank lines of the text split on ``\\n``, as the context block counts them):
its UTF-8 byte span, ``least`` (the characters of the line stripped: a lower bound of its
escaped bytes when the text is ``clean``, :func:`memdir.text.printable.are_clean_lines`; all
0 otherwise), ``after`` (the least of every line from it on); ``pins``: the lines holding
:data:`memdir.vocabulary.PIN_MARK`. :func:`summary` is the one reading of a text into these
figures, for the outline and for a text read whole alike.

Standard library only, no pattern compiled: the hot path imports this.
"""

from __future__ import annotations

import os
import sys
from itertools import accumulate
from pathlib import Path

from ..text.printable import are_clean_lines
from ..vocabulary import PIN_MARK
from .layout import OUTLINE_FILE
_MAGIC = "memdir-outline"
_VERSION = "1"
_MAX_HEADER = 256


def summary(text: str) -> tuple[list[str], bool, list[int], list[int], int, list[int]]:
    """``(lines, clean, least, after, least total, pins)`` of an index text, as the module
    docstring defines them (``lines``: the non-blank lines as written). Pure; linear in the text,
    in C-level scans where it can be."""
    lines = list(filter(str.strip, text.split("\n")))  # the lines `line.strip()` keeps
    clean = bool(lines) and are_clean_lines(text)
    if clean:
        least = list(map(len, map(str.strip, lines)))
        after = list(accumulate(reversed(least), min))[::-1]
        total = sum(least) + len(least)
    else:
        least = after = [0] * len(lines)
        total = 0
    pins = [i for i, line in enumerate(lines) if PIN_MARK in line] if PIN_MARK in text else []
    return lines, clean, least, after, total, pins


def _spans(text: str) -> tuple[list[int], list[int]]:
    """The UTF-8 byte span ``[start, end)`` of each non-blank line of ``text``."""
    starts, ends = [], []
    at = 0
    ascii_ = text.isascii()
    for line in text.split("\n"):
        size = len(line) if ascii_ else len(line.encode("utf-8"))
        if line.strip():
            starts.append(at)
            ends.append(at + size)
        at += size + 1
    return starts, ends


def write_outline(meta_dir: Path, text: str, stat: os.stat_result) -> None:
    """Write the outline of ``text``, the ``MEMORY.md`` whose stat (after its write) is ``stat``,
    into ``meta_dir`` (atomically; derived data, so without fsync). Never raises: an outline that
    could not be written describes another state of the file, and a reader reads the whole file."""
    from array import array

    from ..errors import StoreError
    from .fsio import atomic_write  # late: the hot path never writes

    lines, clean, least, after, total, pins = summary(text)
    starts, ends = _spans(text)
    header = " ".join(map(str, (_MAGIC, _VERSION, sys.byteorder, stat.st_size, stat.st_mtime_ns, stat.st_ino,
                                len(lines), int(clean), total, len(pins)))) + "\n"
    body = array("I", [*starts, *ends, *least, *after, *pins])
    try:
        atomic_write(Path(meta_dir) / OUTLINE_FILE, header.encode("ascii") + body.tobytes(), sync=False)
    except StoreError:
        pass  # a full disk or a read-only directory: only the next context's speed is lost


class Outline:
    """A ``MEMORY.md`` as its outline gives it (see the module docstring): ``count`` lines,
    ``clean``, ``least``, ``after`` (sequences of ints), ``least_total``, ``pins``; :meth:`line`
    decodes one line from the file's bytes as they were when the outline was checked, whose
    ``(size, mtime_ns, inode)`` is ``key``."""

    def __init__(self, data: bytes, key: tuple[int, int, int], count: int, clean: bool, total: int,
                 table: memoryview, pins: int):
        self._data, self.key = data, key
        self.count, self.clean, self.least_total = count, clean, total
        self._starts, self._ends = table[:count], table[count:2 * count]
        self.least, self.after = table[2 * count:3 * count], table[3 * count:4 * count]
        self.pins = table[4 * count:4 * count + pins].tolist()

    def line(self, i: int) -> str:
        """Line ``i`` as written (decoded as a whole-file read decodes it)."""
        return self._data[self._starts[i]:self._ends[i]].decode("utf-8", "replace")


def read_outline(index_path: Path, meta_dir: Path) -> Outline | None:
    """The outline of ``index_path`` (a ``MEMORY.md``, never followed through a symlink) kept in
    ``meta_dir``, with the file's bytes; None when there is none, it is unreadable or of another
    version or byte order, or it describes another state of the file: the caller reads the whole
    file then. Never raises."""
    try:
        fd = os.open(index_path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    try:
        with open(fd, "rb") as handle:
            st = os.fstat(handle.fileno())
            flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
            with open(os.open(os.path.join(meta_dir, OUTLINE_FILE), flags), "rb") as outline:
                raw = outline.read()
            header, _, table = raw.partition(b"\n")
            fields = header[:_MAX_HEADER].decode("ascii").split(" ")
            if fields[:3] != [_MAGIC, _VERSION, sys.byteorder] or len(fields) != 10:
                return None
            size, mtime_ns, ino, count, clean, total, pins = map(int, fields[3:])
            if (size, mtime_ns, ino) != (st.st_size, st.st_mtime_ns, st.st_ino) or clean not in (0, 1):
                return None
            if len(table) != 4 * (4 * count + pins):
                return None
            data = handle.read()
            if len(data) != size:
                return None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    return Outline(data, (size, mtime_ns, ino), count, bool(clean), total, memoryview(table).cast("I"), pins)


__all__ = ["Outline", "read_outline", "summary", "write_outline"]
