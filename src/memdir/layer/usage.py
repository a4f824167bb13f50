"""How often and when each memory of a layer was read (DESIGN §3, §4).

A read never changes a memory file: the file changes only when its content
does, so an editor's buffer, a byte-compared import and a teammate's git
merge never see a read. Usage — ``reads`` and ``last_read``, and through
them the order of ``MEMORY.md`` and a memory's revival from staleness
(:mod:`memdir.layer.index`) — lives in ``.memdir/usage.json`` of the layer
(the team layer's in the home, beside its journal): one JSON object, name →
``[reads, last read as ISO-8601 UTC or null]``, rewritten atomically under
the layer's lock.

An older file that still carries ``reads:`` / ``last_read:`` keeps counting
them: a memory without an entry here has the file's values as its usage, and
the first read or content change records them here (the rewritten file then
goes without them: :func:`memdir.files.memfile.serialize` writes neither).

Bounded: an entry exists only for a memory the layer holds (entries of
memories gone are dropped whenever the file is written) and a file over
:data:`MAX_BYTES` is read as empty. Losing the file loses read counts only,
never a memory: it is written without fsync.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Container, Iterable, Mapping

from ..errors import StoreError
from ..files.fsio import atomic_write, read_bytes
from ..files.layout import USAGE_FILE
from ..files.memfile import MemoryRecord, format_time, parse_time
from ..files.scan import Entry

MAX_BYTES = 8 * 1024 * 1024  # ~100,000 memories' entries; past it the counts start over
ASKED_ONE_BY_ONE = 64  # at most this many counts kept by asking a live container name by name (layer.rows), else listed

Count = tuple[int, "datetime | None"]  # reads, last read


def of(record: MemoryRecord) -> Count:
    """The usage ``record`` carries (its file's, or the overlay's)."""
    return record.reads, record.last_read


class Usage:
    """The usage file of one layer's meta directory ``meta``.

    :meth:`counts` reads it (cached by the file's stat key); :meth:`overlay`
    gives entries whose records carry the recorded usage (the same object
    again while neither the entry nor its usage changed, so the incremental
    index can compare by identity); :meth:`record_read`, :meth:`carry` and
    :meth:`drop` change it — callers hold the layer's lock.
    """

    def __init__(self, meta: Path):
        self.path = Path(meta) / USAGE_FILE
        self._key: tuple | None = None
        self._counts: dict[str, Count] = {}
        self._overlaid: dict[str, tuple[Entry, Count, Entry]] = {}

    # ------------------------------------------------------------ reading

    def counts(self) -> Mapping[str, Count]:
        """name → (reads, last read) as recorded; {} when there is no file,
        it is unreadable or over :data:`MAX_BYTES`."""
        try:
            st = os.stat(self.path, follow_symlinks=False)
        except OSError:
            self._key, self._counts = None, {}
            return self._counts
        key = (st.st_size, st.st_mtime_ns, st.st_ino)
        if key != self._key:
            self._key, self._counts = key, _parse(self.path, st.st_size)
        return self._counts

    def overlay(self, entries: dict[str, Entry]) -> None:
        """Give every entry of ``entries`` (name → entry, changed in place)
        whose memory has recorded usage a record carrying it."""
        counts = self.counts()
        # From the smaller side: a layer's entries may be read from its manifest name by name (layer.rows).
        for name in ([n for n in counts if n in entries] if len(counts) < len(entries) else
                     [n for n in entries if n in counts]):
            entries[name] = self.overlaid(entries[name], counts[name])
        for name in [n for n in self._overlaid if n not in counts or n not in entries]:
            del self._overlaid[name]

    def with_usage(self, entry: Entry) -> Entry:
        """``entry`` carrying its recorded usage, if any."""
        count = self.counts().get(entry.record.name)
        return entry if count is None else self.overlaid(entry, count)

    def overlaid(self, entry: Entry, count: Count) -> Entry:
        """``entry`` with ``count`` as its record's usage (the same object as
        last time for the same entry and count)."""
        name = entry.record.name
        cached = self._overlaid.get(name)
        if cached is not None and (cached[0] is entry or cached[2] is entry) and cached[1] == count:
            return cached[2]
        if of(entry.record) == count:
            result = entry
        else:
            result = replace(entry, record=entry.record.with_(reads=count[0], last_read=count[1]))
        self._overlaid[name] = (entry, count, result)
        return result

    # ------------------------------------------------------------ changing

    def record_read(self, entry: Entry, when: datetime, live: Iterable[str], times: int = 1) -> Entry:
        """Count ``times`` reads (≥ 1) of ``entry`` (its record's usage is the current one)
        at ``when``; entries of names not in ``live`` are dropped. Returns the
        entry carrying the new usage. Raises :class:`StoreError`."""
        count = (entry.record.reads + max(1, times), when)
        counts = dict(self.counts())
        counts[entry.record.name] = count
        self._save(counts, live)
        return self.overlaid(entry, count)

    def carry(self, name: str, record: MemoryRecord, live: Container[str]) -> None:
        """Before ``name``'s file is rewritten without usage fields: when no
        usage is recorded for it, record what ``record`` carries (the file's
        older ``reads``/``last_read``, or a renamed memory's usage), so it is
        not lost; counts of other names not in ``live`` (asked name by name: the layer's
        entries) are dropped. A no-op when there is nothing to carry. Raises :class:`StoreError`."""
        counts = self.counts()
        if name in counts or of(record) == (0, None):
            return
        self._save({**counts, name: of(record)}, _With(live, name))

    def drop(self, name: str) -> None:
        """Forget ``name``'s usage (its memory is gone). Raises :class:`StoreError`."""
        counts = self.counts()
        if name in counts:
            self._save({n: c for n, c in counts.items() if n != name}, counts.keys() - {name})

    def _save(self, counts: dict[str, Count], live: Iterable[str] | Container[str]) -> None:
        if not isinstance(live, (set, frozenset, dict)) and (len(counts) > ASKED_ONE_BY_ONE
                                                             or not hasattr(live, "__contains__")):
            live = set(live)  # many counts: the names listed once, not asked for one by one
        kept = {n: [c[0], format_time(c[1]) if c[1] else None] for n, c in sorted(counts.items()) if n in live}
        atomic_write(self.path, json.dumps(kept, separators=(",", ":")).encode("utf-8"), sync=False)
        self._key = None  # re-read (and re-keyed) on the next look


class _With:
    """``live`` and ``name``, as a container (``live`` asked one name at a time, never listed)."""

    def __init__(self, live: Container[str], name: str):
        self._live, self._name = live, name

    def __contains__(self, name) -> bool:
        return name == self._name or name in self._live

    def __iter__(self):
        yield from self._live
        yield self._name


def _parse(path: Path, size: int) -> dict[str, Count]:
    """The counts in the file at ``path``; {} for anything that is not the
    shape :meth:`Usage._save` writes (entries of another shape are skipped)."""
    if size > MAX_BYTES:
        return {}
    try:
        data = json.loads(read_bytes(path, MAX_BYTES, follow=False) or b"{}")
    except (StoreError, ValueError, RecursionError):
        return {}
    if not isinstance(data, dict):
        return {}
    out: dict[str, Count] = {}
    for name, value in data.items():
        if (isinstance(value, list) and len(value) == 2 and type(value[0]) is int and value[0] >= 0
                and (value[1] is None or isinstance(value[1], str))):
            out[name] = (value[0], parse_time(value[1]) if value[1] else None)
    return out


__all__ = ["MAX_BYTES", "Usage", "of"]
