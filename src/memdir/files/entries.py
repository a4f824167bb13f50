"""What a scan of a layer yields (DESIGN §3): a memory as found on disk (:class:`Entry`), what was learned of
each file (:class:`FileState`, compared by its :func:`stat_key`), the files that are not memories
(:class:`Malformed`) or were read leniently (:class:`FileNote`), and the :class:`Scan` that holds them, its
memories parsed when first asked for (:class:`LazyEntries`, issue 28 §7).

Split from :mod:`memdir.files.scan` (how a layer directory is listed and its files read and judged) along the
seam of records: these are values and a mapping, and read no directory.
"""

from __future__ import annotations

import os
from collections.abc import Callable, ItemsView, Iterator, MutableMapping, ValuesView
from dataclasses import dataclass, field
from pathlib import Path
from typing import NamedTuple

from .memfile import MemoryRecord


@dataclass(frozen=True)
class Malformed:
    """A file in a layer that is not a readable memory, and why (unreadable,
    not a memory, or a duplicate of another file with the same name)."""

    path: str
    error: str


@dataclass(frozen=True)
class FileNote:
    """A memory file read leniently, and how: a note for ``doctor``, not a problem."""

    path: str
    note: str


@dataclass(frozen=True)
class Entry:
    """A memory as found on disk: its record, file, digest (SHA-256 of the
    bytes) and how it parsed (``fallback``: frontmatter that is not YAML, read
    line by line; ``no_frontmatter``: plain Markdown; ``notes``: the
    leniencies used, :attr:`memdir.files.memfile.ParsedFile.notes`)."""

    record: MemoryRecord
    path: Path
    digest: str
    fallback: bool = False
    no_frontmatter: bool = False
    notes: tuple[str, ...] = ()


class FileState(NamedTuple):
    """What a scan learned of one file: its stat ``key`` (size, ctime in ns,
    inode), ``digest`` (SHA-256 of its bytes), the memory ``name`` it holds
    (None when unreadable) or the ``error`` why not, its parsed ``entry``
    (None when unreadable, or when taken from ``known`` without reading), and
    the ``text`` digest of its description and body
    (:func:`memdir.files.memfile.text_digest`: equal for exact duplicates; None
    when unreadable), and ``notes``: how it was read leniently (:func:`lenient_notes`; kept with the
    rest, so ``status`` names such files without reading them again). (A named tuple: a scan makes
    one per file.)"""

    key: tuple[int, int, int]
    digest: str
    name: str | None
    error: str | None
    entry: Entry | None = None
    text: str | None = None
    notes: tuple[str, ...] = ()


FALLBACK_NOTE = "read with the line fallback (frontmatter is not valid YAML)"
NO_FRONTMATTER_NOTE = "no frontmatter (listed under its file name)"


def lenient_notes(entry: Entry) -> tuple[str, ...]:
    """How ``entry``'s file was read leniently, one note per leniency (:data:`FALLBACK_NOTE`,
    :data:`NO_FRONTMATTER_NOTE`, then the parser's notes); () for a file read as memdir writes it."""
    return ((FALLBACK_NOTE,) if entry.fallback else ()) + ((NO_FRONTMATTER_NOTE,) if entry.no_frontmatter else ()) \
        + tuple(entry.notes)


@dataclass
class Scan:
    """What :func:`scan` found: ``entries``, every memory by name (with
    ``known``, only those read); ``malformed``, the files that are not
    memories; ``files``, what was learned of each memory file, by file name;
    ``names``, the file that holds each memory, by name (every memory); ``asides``, the files a
    delete renamed aside (``.<file>.<random>.del``: :func:`memdir.files.fsio.side_of`) seen by the
    listing, by file name — a delete not yet committed, or cut (:mod:`memdir.layer.commit`); ``counted``,
    the memories a reader counts present from such a file (:meth:`memdir.layer.reading.ReadsOne.counted`);
    ``unread``, of a :func:`glance`, each file it named but did not read: file name → (the name its file
    name gives, its path)."""

    entries: dict[str, Entry] | LazyEntries
    malformed: list[Malformed]
    files: dict[str, FileState]
    names: dict[str, str]
    asides: tuple[str, ...] = ()
    counted: tuple[str, ...] = ()
    unread: dict[str, tuple[str, str]] = field(default_factory=dict)


class LazyEntries(MutableMapping):
    """A scan's memories by name, each parsed when first asked for (issue 28 §7).

    ``names`` (name → file name, shared with :attr:`Scan.names`) says which memories there are
    without reading them; ``loaded`` holds those already parsed; ``load(name, file name)`` parses
    one (None when the file no longer holds that memory). Asking for one memory of 10,000 reads one
    file; iterating names reads none; ``values()``/``items()`` read what is not read yet. Changes
    (``entries[name] = entry``, ``del``) keep ``names`` in step.

    ``name in entries`` says the listing had it; its file may have gone since (a ``git checkout`` of a
    team layer, another process's delete), so a caller reads one with :meth:`get` (None: gone) or
    through :meth:`items`/:meth:`values` (left out), never ``entries[name]`` after ``in``: that raises
    :class:`KeyError` (test_team_pull_race: a CLI write died so, the team layer's index rendered with a
    name its sweep had just listed)."""

    def __init__(self, loaded: dict[str, Entry], names: dict[str, str],
                 load: Callable[[str, str], Entry | None]):
        self._loaded = loaded
        self._names = names
        self._load = load

    def __getitem__(self, name: str) -> Entry:
        entry = self._loaded.get(name)
        if entry is None:
            filename = self._names.get(name)
            if filename is None:
                raise KeyError(name)
            entry = self._load(name, filename)
            if entry is None:
                raise KeyError(name)
            self._loaded[name] = entry
        return entry

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name) -> bool:
        return name in self._names

    def __setitem__(self, name: str, entry: Entry) -> None:
        self._loaded[name] = entry
        self._names[name] = entry.path.name

    def __delitem__(self, name: str) -> None:
        del self._names[name]
        self._loaded.pop(name, None)

    def __iter__(self) -> Iterator[str]:
        return iter(list(self._names))

    def items(self) -> _ReadItems:
        """Every memory as ``(name, entry)``, each read when the iteration reaches it; a memory whose file went
        or changed since the listing (a ``git checkout`` or another process between the two) is left out, as a
        listing made now would leave it, instead of raising :class:`KeyError` halfway through
        (test_team_pull_race: a write beside a team layer git was switching died with ``KeyError``)."""
        return _ReadItems(self)

    def values(self) -> _ReadValues:
        """Every memory's entry, read as :meth:`items` reads them."""
        return _ReadValues(self)

    def __len__(self) -> int:
        return len(self._names)

    def loaded(self) -> dict[str, Entry]:
        """The memories parsed so far (name → entry), without reading more."""
        return self._loaded


class _ReadItems(ItemsView):
    """:meth:`LazyEntries.items`: the mapping's items, a name whose file is gone skipped."""

    def __iter__(self):
        for name in self._mapping:
            try:
                yield name, self._mapping[name]
            except KeyError:
                continue


class _ReadValues(ValuesView):
    """:meth:`LazyEntries.values`: the mapping's values, a name whose file is gone skipped."""

    def __iter__(self):
        for _, entry in _ReadItems(self._mapping):
            yield entry


def stat_key(st: os.stat_result) -> tuple[int, int, int]:
    """The (size, ctime in ns, inode) a scan compares to see a file changed.
    The change time, not the modification time: an edit that keeps the size
    and sets the mtime back (an editor, ``touch -r``, a tool) still moves the
    ctime, which no user call can set."""
    return (st.st_size, st.st_ctime_ns, st.st_ino)


__all__ = ["FALLBACK_NOTE", "NO_FRONTMATTER_NOTE", "Entry", "FileNote", "FileState", "LazyEntries", "Malformed", "Scan",
           "lenient_notes", "stat_key"]
