"""A layer's manifest read one indexed lookup at a time (issue 28 §7).

What a write, a listing or the search index's sync needs of a layer of 10,000 recorded files is a few
rows: the files holding a name, those whose text an exact duplicate would share, the names that
start with a prefix, the journal's head of one name. :class:`Lookups` answers each with one
read-only query on the manifest's indexes of names and text, and None when the manifest cannot be
read (the caller then reads the files or the journal); :class:`Heads` is the journal's heads read
so, one name at a time. :class:`memdir.layer.manifest.Manifest` is the manifest file itself: what it
is trusted for, loading and saving it; :class:`memdir.layer.rows.Rows` is the files as recorded,
read through these lookups.
"""

from __future__ import annotations

import sqlite3
from collections.abc import MutableMapping
from pathlib import Path


class Lookups:
    """The read-only lookups of the manifest file at ``path`` (set by the subclass,
    :class:`memdir.layer.manifest.Manifest`). Each opens the file read-only for one query and
    never raises for a manifest that cannot be read: None (or [], or LookupError where said)."""

    path: Path

    def files_holding(self, names: list[str]) -> list[str] | None:
        """The files recorded as holding one of ``names`` (by the manifest's index of names); None
        when the manifest cannot be read."""
        if not names:
            return []
        rows = self._read(f"SELECT file FROM files WHERE name IN ({','.join('?' * len(names))})", names)
        return None if rows is None else [row[0] for row in rows]

    def _read(self, query: str, args=()) -> list[tuple] | None:
        """The rows of one read-only ``query``; None when the manifest cannot be read."""
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                return conn.execute(query, args).fetchall()
            finally:
                conn.close()
        except (sqlite3.Error, OSError):
            return None

    def shared_names(self) -> set[str] | None:
        """The memory names more than one recorded file holds (one wins, the others are duplicates:
        :func:`memdir.files.scan.scan`), by the manifest's index of names; None when the manifest cannot be read."""
        rows = self._read("SELECT name FROM files WHERE name IS NOT NULL GROUP BY name HAVING COUNT(*) > 1")
        return None if rows is None else {row[0] for row in rows}

    def name_count(self) -> int | None:
        """How many memory names the recorded files hold; None when the manifest cannot be read."""
        rows = self._read("SELECT COUNT(DISTINCT name) FROM files WHERE name IS NOT NULL")
        return None if not rows else rows[0][0]

    def names_from(self, prefix: str = "", letters: str = "") -> list[str] | None:
        """The memory names the recorded files hold that start with ``prefix`` (``""``: every one)
        and hold each character of ``letters`` in that order, others between (``""``: any), sorted,
        each once: names only, by the manifest's index of names and SQLite's ``GLOB`` (no row's
        state is read, no other name handed to Python); None when the manifest cannot be read."""
        where, args = ["name IS NOT NULL"], []
        if prefix:
            end = prefix[:-1] + chr(ord(prefix[-1]) + 1)  # the names in [prefix, end) start with prefix
            where.append("name >= ? AND name < ?")
            args += [prefix, end]
        if letters:
            where.append("name GLOB ?")
            args.append("*" + "".join(f"[{c}]*" if c in "*?[" else f"{c}*" for c in letters))
        rows = self._read(f"SELECT DISTINCT name FROM files WHERE {' AND '.join(where)} ORDER BY name", args)
        return None if rows is None else [row[0] for row in rows]

    def name_rows(self, name: str) -> list[tuple] | None:
        """``(file, name, error)`` of the files recorded as holding ``name`` (by the manifest's index of
        names); None when the manifest cannot be read."""
        return self._read("SELECT file, name, error FROM files WHERE name = ?", (name,))

    def rows_judged_by(self, names: list[str], error_prefix: str, texts: list[str] = ()) -> list[tuple] | None:
        """``(file, name, error, text)`` of the files recorded as holding one of ``names`` (by the manifest's
        index of names), as holding a value whose text digest is one of ``texts`` (by its index of texts: a
        tombstone's digest, :func:`memdir.tombstones.match.make`, is a copy's text digest), or as no memory for an
        error beginning ``error_prefix`` (the files :mod:`memdir.layer.held` judges again); None when the manifest
        cannot be read."""
        held = "name IS NULL AND substr(error, 1, ?) = ?"
        if len(names) + len(texts) > 500:  # more than a query should bind: every row, told apart by the caller
            return self._read("SELECT file, name, error, text FROM files")
        return self._read(f"SELECT file, name, error, text FROM files WHERE name IN ({','.join('?' * len(names))}) "
                          f"OR text IN ({','.join('?' * len(texts))}) OR {held}",
                          (*names, *texts, len(error_prefix), error_prefix))

    def error_rows(self) -> list[tuple] | None:
        """``(file, error)`` of the files recorded as no memory (an error says why); None when the manifest
        cannot be read."""
        return self._read("SELECT file, error FROM files WHERE name IS NULL AND error IS NOT NULL")

    def full_rows(self, files: list[str] | None) -> list[tuple]:
        """The whole rows of ``files`` (None: of every file) as :class:`Rows` takes them; [] when
        the manifest cannot be read."""
        if files is None:
            return self._read("SELECT * FROM files") or []
        return self._read(f"SELECT * FROM files WHERE file IN ({','.join('?' * len(files))})", files) or []

    def text_rows(self, text: str) -> list[str] | None:
        """The files whose text digest is ``text`` or not known; None when the manifest cannot be read."""
        rows = self._read("SELECT file FROM files WHERE text = ? OR text IS NULL", (text,))
        return None if rows is None else [row[0] for row in rows]

    def head(self, name: str) -> str | None:
        """The recorded head of ``name`` (None: none). Raises LookupError when the manifest cannot be
        read (the caller reads the journal)."""
        rows = self._read("SELECT digest FROM heads WHERE name = ?", (name,))
        if rows is None:
            raise LookupError("the manifest's heads cannot be read")
        return rows[0][0] if rows else None

    def all_heads(self) -> dict[str, str] | None:
        """Every recorded head; None when the manifest cannot be read."""
        rows = self._read("SELECT name, digest FROM heads")
        return None if rows is None else dict(rows)


class Heads(MutableMapping):
    """The journal's heads as the manifest keeps them (name → digest of the last recorded version),
    each read from ``manifest`` when first asked for (one indexed row), every one at once when
    iterated; changes made here stand over the manifest's. What a write of one memory reads of
    10,000 heads is its own (:meth:`memdir.layer.journal.Journal.head`). A manifest that cannot be
    read raises LookupError (not a KeyError): the journal is read instead."""

    def __init__(self, manifest: Lookups):
        self._manifest = manifest
        self._known: dict[str, str] = {}
        self._gone: set[str] = set()
        self._all = False

    def __getitem__(self, name: str) -> str:
        digest = self._known.get(name)
        if digest is None:
            if self._all or name in self._gone or (digest := self._manifest.head(name)) is None:
                raise KeyError(name)
            self._known[name] = digest
        return digest

    def __setitem__(self, name: str, digest: str) -> None:
        self._known[name] = digest
        self._gone.discard(name)

    def __delitem__(self, name: str) -> None:
        self[name]  # KeyError when there is none
        self._known.pop(name, None)
        self._gone.add(name)

    def whole(self) -> dict[str, str]:
        """Every head, as a dict shared with this mapping (read from the manifest once)."""
        if not self._all:
            every = self._manifest.all_heads()
            if every is None:
                raise LookupError("the manifest's heads cannot be read")
            for name in self._gone:
                every.pop(name, None)
            every.update(self._known)
            self._known, self._all = every, True
        return self._known

    def __iter__(self):
        return iter(list(self.whole()))

    def __len__(self) -> int:
        return len(self.whole())


__all__ = ["Heads", "Lookups"]
