"""The outline of a ``MEMORY.md``: where each index line lies and what the context block's
fair share needs to know of it, so a fresh process reads the lines it shows, not the whole
index (issue 28 §7: a 10,000-line index of which about 35 lines fit the block).

Written next to the index by the layer's writer (:func:`write_outline`, as
``<meta>/index-outline``), read on the hot path (:func:`read_outline`). Its form::

    memdir-outline 3 <byte order> <size> <mtime_ns> <ino> <ctime_ns> <table crc> <lines> <clean> <least total> <pins>\\n
    starts, ends, least, after (one unsigned 32-bit integer per line each), pins (one per pin)

``size``, ``mtime_ns``, ``ino`` and ``ctime_ns`` are the stat of the ``MEMORY.md`` it describes
(after its write) and ``table crc`` the CRC-32 of the table: a reader whose file has another stat
(edited by hand — its mtime put back too: no one sets a ctime —, replaced by an older memdir,
rewritten since), or whose table is damaged or not of the header's length, does not use it and
reads the whole file, as does a reader on a machine of the other byte order. The file's bytes
are read only where the lines asked for lie (:meth:`Outline.line`: blocks of :data:`BLOCK_BYTES`,
each read after checking the file's stat again), not the whole file. Whatever an outline says, a
line is only ever a whole line of the file, and a line of a ``clean`` outline is clean:
:meth:`Outline.line` refuses a span that is not one (:class:`OutlineMismatch`), and the reader
then reads the file whole. Per
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
from itertools import accumulate, compress, repeat
from operator import add
from zlib import crc32

from ..text.printable import are_clean_lines
from ..vocabulary import PIN_MARK
from .layout import OUTLINE_FILE, index_state
_MAGIC = "memdir-outline"
_VERSION = "3"
_MAX_HEADER = 256
_FIELDS = 12
BLOCK_BYTES = 16384  # bytes of MEMORY.md read at a time for the lines asked for (about 130 lines)


class OutlineMismatch(ValueError):
    """An outline whose span is not a whole line of its file (a forged or damaged outline that
    passed its checks): the caller reads the file whole."""


def summary(text: str) -> tuple[list[str], bool, list[int], list[int], int, list[int]]:
    """``(lines, clean, least, after, least total, pins)`` of an index text, as the module
    docstring defines them (``lines``: the non-blank lines as written). Pure; linear in the text,
    in C-level scans where it can be."""
    return _summary(text.split("\n"), text)


def _summary(parts: list[str], text: str) -> tuple[list[str], bool, list[int], list[int], int, list[int]]:
    lines = list(filter(str.strip, parts))  # the lines `line.strip()` keeps
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


def _spans(parts: list[str], data: bytes) -> tuple[list[int], list[int]]:
    """The UTF-8 byte span ``[start, end)`` of each non-blank one of ``parts`` (the text split on
    ``\\n``) in ``data`` (the text's UTF-8 bytes), in C-level passes: no Python loop per line."""
    sizes = list(map(len, data.split(b"\n")))  # b"\n" is only ever the encoding of "\n" in UTF-8
    starts = list(accumulate(map((1).__add__, sizes[:-1]), initial=0))
    ends = list(map(add, starts, sizes))
    kept = list(map(bool, map(str.strip, parts)))
    return list(compress(starts, kept)), list(compress(ends, kept))


def _stepped(before: "Outline", edits: list[tuple[int, str | None]], lines: list[str],
             data: bytes) -> tuple[list[int], list[int]] | None:
    """The spans of ``lines`` (written as ``data``) from those of ``before``, the outline of the text
    ``edits`` (:meth:`memdir.layer.index.IndexBuilder.edits`) turned into them: each edit moves the
    spans after it in one C-level pass. None when they do not add up to ``data`` (the caller then
    reads the text whole)."""
    if before.count != len(lines) + sum(1 if line is None else -1 for _, line in edits):
        return None
    starts, ends = before._starts.tolist(), before._ends.tolist()
    for at, line in edits:
        if not 0 <= at <= len(starts) - (line is None):
            return None
        if line is None:
            shift = starts[at] - ends[at] - 1
            del starts[at], ends[at]
        else:
            shift = len(line.encode("utf-8")) + 1
            start = starts[at] if at < len(starts) else (ends[-1] + 1 if ends else 0)
            starts.insert(at, start)
            ends.insert(at, start + shift - 1)
            at += 1
        starts[at:] = map(shift.__add__, starts[at:])
        ends[at:] = map(shift.__add__, ends[at:])
    if len(starts) != len(lines) or (lines and (starts[0] != 0 or ends[-1] + 1 != len(data))):
        return None
    if any(data[starts[i]:ends[i]] != lines[i].encode("utf-8") for i in range(0, len(lines), max(1, len(lines) // 16))):
        return None
    return starts, ends


def write_outline(meta_dir: Path, text: str, stat: os.stat_result, data: bytes | None = None, *,
                  lines: list[str] | None = None, before: "Outline | None" = None,
                  edits: list[tuple[int, str | None]] | None = None) -> None:
    """Write the outline of ``text``, the ``MEMORY.md`` whose stat (after its write) is ``stat`` and
    whose bytes are ``data`` (the text's UTF-8 encoding; encoded here when None), into ``meta_dir``
    (atomically; derived data, so without fsync). Never raises: an outline that could not be written
    describes another state of the file, and a reader reads the whole file.

    ``lines`` (the text's lines, every one non-blank: ``text`` is them joined, each ending in ``\\n``),
    ``before`` (the outline of the text before) and ``edits`` (what changed it,
    :meth:`memdir.layer.index.IndexBuilder.edits`): when the old text was clean, the spans are moved,
    not found again, and the text is clean when the inserted lines are — no pass over the text in
    Python, nor a scan of it for unsafe characters. Else (or when those do not add up) in C-level passes over the
    whole text."""
    data = text.encode("utf-8") if data is None else data
    # From an unclean text a deleted line may have taken the last unsafe character: only a clean one is moved.
    spans = _stepped(before, edits, lines, data) if lines is not None and before is not None and before.clean \
        and edits is not None else None
    if spans is not None:
        clean = bool(lines) and are_clean_lines("\n".join(line for _, line in edits if line))
        least = list(map(len, map(str.strip, lines))) if clean else [0] * len(lines)
        after = list(accumulate(reversed(least), min))[::-1] if clean else least
        total = sum(least) + len(least) if clean else 0
        pins = list(compress(range(len(lines)), map(str.__contains__, lines, repeat(PIN_MARK)))) \
            if PIN_MARK in text else []
        starts, ends = spans
    else:
        parts = text.split("\n")
        lines, clean, least, after, total, pins = _summary(parts, text)
        starts, ends = _spans(parts, data)
    store_outline(meta_dir, stat, starts, ends, least, after, pins, clean, total)


def store_outline(meta_dir: Path, stat: os.stat_result, starts, ends, least, after, pins, clean: bool,
                  total: int) -> memoryview | None:
    """Write the outline of the ``MEMORY.md`` whose stat is ``stat`` from its tables (sequences of
    ints, as the module docstring defines them) into ``meta_dir``; returns its table (as
    :class:`Outline` takes it), None when it could not be written (a full disk, a read-only
    directory: only the next context's speed is lost). Never raises."""
    from array import array

    from ..errors import StoreError
    from pathlib import Path

    from .fsio import atomic_write  # late: the hot path never writes

    table = array("I", [*starts, *ends, *least, *after, *pins]).tobytes()
    header = " ".join(map(str, (_MAGIC, _VERSION, sys.byteorder, stat.st_size, stat.st_mtime_ns, stat.st_ino,
                                stat.st_ctime_ns, crc32(table), len(starts), int(clean), total,
                                len(pins)))) + "\n"
    try:
        atomic_write(Path(meta_dir) / OUTLINE_FILE, header.encode("ascii") + table, sync=False)
    except (StoreError, OverflowError):
        return None
    return memoryview(table).cast("I")


class Outline:
    """A ``MEMORY.md`` as its outline gives it (see the module docstring): ``count`` lines,
    ``clean``, ``least``, ``after`` (sequences of ints), ``least_total``, ``pins``; :meth:`line`
    decodes one line from the file's bytes, read where it lies while the file's stat is still
    ``key`` ``(size, mtime_ns, inode)`` and ``ctime_ns``. ``head``: the file's first bytes, read
    with the stat checked (at most :data:`BLOCK_BYTES`)."""

    def __init__(self, path: Path, key: tuple[int, int, int], ctime_ns: int, count: int, clean: bool, total: int,
                 table: memoryview, pins: int, head: bytes = b""):
        self._path, self.key, self._ctime = path, key, ctime_ns
        self._blocks: dict[int, bytes] = {0: head} if head else {}
        self.count, self.clean, self.least_total = count, clean, total
        self._starts, self._ends = table[:count], table[count:2 * count]
        self.least, self.after = table[2 * count:3 * count], table[3 * count:4 * count]
        self.pins = table[4 * count:4 * count + pins].tolist()

    @property
    def state(self) -> tuple[int, int, int, int]:
        """The outlined file's ``(size, mtime_ns, inode, ctime_ns)``, as :func:`memdir.files.layout.index_state`."""
        return (*self.key, self._ctime)

    def _bytes(self, start: int, end: int) -> bytes:
        """The file's bytes ``[start, end)`` (``end`` ≤ its size), from the blocks read so far and,
        for the rest, one read of the blocks missing after checking the file's stat. Raises
        :class:`OutlineMismatch` when the file is no longer the one outlined, or cannot be read."""
        first, last = start // BLOCK_BYTES, (end - 1) // BLOCK_BYTES
        missing = [b for b in range(first, last + 1) if b not in self._blocks]
        if missing:
            lo, hi = missing[0], missing[-1]
            try:
                fd = os.open(self._path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
                try:
                    stats = [os.fstat(fd)]
                    data = os.pread(fd, (hi - lo + 1) * BLOCK_BYTES, lo * BLOCK_BYTES)
                    stats.append(os.fstat(fd))  # the same before and after: no write came between
                    if any(index_state(st) != self.state for st in stats):
                        raise OutlineMismatch(f"{self._path} changed since its outline was read")
                finally:
                    os.close(fd)
            except OSError as exc:
                raise OutlineMismatch(f"{self._path} cannot be read: {exc}") from None
            for b in range(lo, hi + 1):
                self._blocks[b] = data[(b - lo) * BLOCK_BYTES:(b - lo + 1) * BLOCK_BYTES]
        data = b"".join(self._blocks[b] for b in range(first, last + 1))
        return data[start - first * BLOCK_BYTES:end - first * BLOCK_BYTES]

    def line(self, i: int) -> str:
        """Line ``i`` as written (decoded as a whole-file read decodes it). Raises
        :class:`OutlineMismatch` when the outline's span is not one whole line of the file (or,
        for a ``clean`` outline, not a clean one), or the file changed since."""
        if not 0 <= i < self.count:
            raise OutlineMismatch(f"no line {i} of {self.count}")
        start, end, size = self._starts[i], self._ends[i], self.key[0]
        if not start < end <= size:
            raise OutlineMismatch(f"line {i}'s span [{start}, {end}) is not a line of the file")
        lo = start - 1 if start else 0
        data = self._bytes(lo, min(end + 1, size))
        body = data[start - lo:end - lo]
        if not ((start == 0 or data[0] == 10) and (end == size or data[-1] == 10) and b"\n" not in body):
            raise OutlineMismatch(f"line {i}'s span [{start}, {end}) is not a line of the file")
        text = body.decode("utf-8", "replace")
        if self.clean and not are_clean_lines(text):
            raise OutlineMismatch(f"line {i} is not clean, as its outline says")
        return text


def read_outline(index_path: Path, meta_dir: Path) -> Outline | None:
    """The outline of ``index_path`` (a ``MEMORY.md``, never followed through a symlink) kept in
    ``meta_dir``, with the file's first bytes (its other bytes are read when a line there is
    asked for); None when there is none, it is unreadable, damaged or of another version or byte
    order, or it describes another state of the file: the caller reads the whole file then. Reads
    the outline's header and table and at most :data:`BLOCK_BYTES` of the file, whatever its size.
    Never raises."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
    try:
        fd = os.open(index_path, flags)
    except OSError:
        return None
    try:
        st = os.fstat(fd)
        with open(os.open(os.path.join(meta_dir, OUTLINE_FILE), flags), "rb") as outline:
            raw = outline.read(_MAX_HEADER)
            header, newline, table = raw.partition(b"\n")
            if not newline:
                return None
            fields = header.decode("ascii").split(" ")
            if fields[:3] != [_MAGIC, _VERSION, sys.byteorder] or len(fields) != _FIELDS:
                return None
            size, mtime_ns, ino, ctime_ns, table_crc, count, clean, total, pins = map(int, fields[3:])
            if (size, mtime_ns, ino, ctime_ns) != index_state(st):
                return None
            length = 4 * (4 * count + pins)
            if clean not in (0, 1) or count < 0 or pins < 0 or count > size or pins > count:
                return None
            if os.fstat(outline.fileno()).st_size != len(header) + 1 + length:
                return None
            table += outline.read(length - len(table))
        if len(table) != length or crc32(table) != table_crc:
            return None
        head = os.pread(fd, min(size, BLOCK_BYTES), 0)
        if os.fstat(fd).st_ctime_ns != ctime_ns:  # written while read
            return None
        numbers = memoryview(table).cast("I")
        if any(pin >= count for pin in numbers[4 * count:]):
            return None
    except (OSError, ValueError, UnicodeDecodeError):
        return None
    finally:
        os.close(fd)
    return Outline(os.fspath(index_path), (size, mtime_ns, ino), ctime_ns, count, bool(clean), total, numbers, pins, head)


__all__ = ["Outline", "OutlineMismatch", "read_outline", "store_outline", "summary", "write_outline"]
