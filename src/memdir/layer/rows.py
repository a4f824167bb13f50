"""A layer's files and memories as its manifest records them, read row by row (issue 28 §7).

A fresh process that writes one memory of 10,000 asks the manifest (:mod:`memdir.layer.manifest`)
about one name and one file: which file holds the name, what that file's state was. Reading every
row first — 10,000 file names, names and errors, and settling which file holds which name — made
that write grow with the layer. Here each question is one indexed query, kept once asked:

* :class:`Rows` — file name → :class:`memdir.files.scan.FileState`, the scan's cache;
* :class:`Names` — memory name → the file holding it, by :func:`memdir.files.scan.settle`'s rule
  (the file named exactly so wins, else the smaller file name) applied to that name's files;
* :class:`Deferred` — the files that are not memories, settled from every row when first looked at.

Whatever needs them all (iterating, a sweep's comparison) reads every row once and goes on from
there; changes made here stand over the manifest's. The count of each (``len``) is one query.

A row read after the load may come from a manifest a later transaction rewrote; every caller checks
the layer directory's mtime (any file added, removed or renamed, any write by memdir, moves it)
before trusting what it was given, and a file's state is only ever trusted while its stat key
matches the file's, so such a row is as good as a hint (:func:`memdir.files.scan.scan`'s
``known``). A manifest that cannot be read answers as if it held no such row: the caller's stamp
check, or a file's stat key, sends it to the files.
"""

from __future__ import annotations

import json
from collections.abc import MutableMapping
from operator import itemgetter
from pathlib import Path

from ..files.scan import FileState, Malformed, settle

POINT_READS = 64  # rows read one by one before the rest are read at once (Rows)
_NO_ROW = object()


def _notes(text: str | None) -> tuple[str, ...]:
    return tuple(json.loads(text)) if text else ()


class Rows(MutableMapping):
    """The manifest's files (file name → :class:`memdir.files.scan.FileState`), each state made
    when first asked for. ``rows`` — ``(file, name, error)`` of every file — when the caller has
    them; else (``count``: how many files the manifest records) each file's row is read when first
    asked for, and every row at once when they are iterated. The rest of a row (stat key and
    digests) is read from ``manifest`` for the files asked for — every row at once past
    :data:`POINT_READS` of them — and the files holding a text are found by the manifest's index
    (:meth:`text_holders`). A row read since the load that no longer holds the name it held then
    (rewritten by a later transaction) gives a state whose key matches no file: read again."""

    def __init__(self, rows: list[tuple], manifest=None, count: int | None = None):
        self._rows = dict(zip(map(itemgetter(0), rows), rows))
        self._made: dict[str, FileState] = {}
        self._manifest = manifest
        self._full: dict[str, tuple] = {}  # file → (file, size, ctime_ns, ino, digest, name, error, text, notes)
        self._reads = 0
        self._all = [False, None]  # _full holds every row the manifest has (shared by the copies, as _full is)
        self._made_all = False  # every state made from them
        self._whole = count is None or manifest is None  # _rows holds every file
        self._count = count or 0  # files the manifest records (while not whole)
        self._absent: set[str] = set()  # asked for, not in the manifest (while not whole)
        self._added: set[str] = set()  # set here, not in the manifest (while not whole)
        self._gone: set[str] = set()  # removed here, in the manifest (while not whole)

    def _row(self, filename: str):
        row = self._rows.get(filename, _NO_ROW)
        if row is not _NO_ROW or self._whole or filename in self._absent or filename in self._gone:
            return None if row is _NO_ROW else row
        full = self._point(filename)
        if full is None:
            self._absent.add(filename)
            return None
        row = self._rows[filename] = (filename, full[5], full[6])
        return row

    def _point(self, filename: str) -> tuple | None:
        """The whole row of ``filename`` from the manifest (None: none, or it cannot be read)."""
        full = self._full.get(filename)
        if full is None and not self._all[0]:
            self._reads += 1
            if self._reads > POINT_READS:
                rows = self._manifest.full_rows(None)
                self._full.update(zip(map(itemgetter(0), rows), rows))
                self._all[0] = True
            else:
                self._full.update(zip(map(itemgetter(0), rows := self._manifest.full_rows([filename])), rows))
            full = self._full.get(filename)
        if self._all[0] and not self._made_all:
            self._make_all()
        return full

    def _make_all(self) -> None:
        """Every file's state, made from the whole rows read at once (asked for many: a listing,
        ``status``), in one pass rather than a call per file."""
        self._made_all = True
        if not self._whole:
            every = {f: (f, row[5], row[6]) for f, row in self._full.items()}
            for filename in self._gone:
                every.pop(filename, None)
            every.update(self._rows)
            self._rows, self._whole = every, True
        shared = self._all[1]  # the states of the whole rows, made once for every copy (they are values)
        if shared is None:
            shared = self._all[1] = {f: FileState((full[1], full[2], full[3]), full[4], full[5], full[6], None,
                                                  full[7], _notes(full[8])) for f, full in self._full.items()}
        made = self._made
        for filename, row in self._rows.items():
            state = shared.get(filename)
            if filename not in made and state is not None and (state.name, state.error) == (row[1], row[2]):
                made[filename] = state

    def _every(self) -> dict[str, tuple]:
        """Every row (read from the manifest once, whole, the changes made here over it); every
        file's state is made with them (a caller that lists the files asks for them next)."""
        if not self._whole:
            if not self._all[0]:
                rows = self._manifest.full_rows(None)
                self._full.update(zip(map(itemgetter(0), rows), rows))
                self._all[0] = True
            self._make_all()
        return self._rows

    def __getitem__(self, filename: str) -> FileState:
        state = self._made.get(filename)
        if state is None:
            row = self._row(filename)
            if row is None:
                raise KeyError(filename)
            full = self._full_row(filename, row)
            state = self._made[filename] = FileState((full[1], full[2], full[3]), full[4], row[1], row[2], None,
                                                     full[7], _notes(full[8]))
        return state

    def _full_row(self, filename: str, row: tuple) -> tuple:
        full = self._full.get(filename)
        if full is None and self._manifest is not None:
            full = self._point(filename)
        if full is None or (full[5], full[6]) != (row[1], row[2]):
            return (filename, -1, -1, -1, None, None, None, None, None)  # a key no file has: the file is read again
        return full

    def get(self, filename, default=None):
        if filename in self._made:
            return self._made[filename]
        return self[filename] if self._row(filename) is not None else default

    def __contains__(self, filename) -> bool:
        return self._row(filename) is not None

    def __setitem__(self, filename: str, state: FileState) -> None:
        if not self._whole and self._row(filename) is None and filename not in self._added:
            if filename in self._gone:
                self._gone.discard(filename)
            else:
                self._added.add(filename)
        self._made[filename] = state
        self._rows[filename] = self._rows.get(filename) or (filename, state.name, state.error)

    def __delitem__(self, filename: str) -> None:
        if self._row(filename) is None:
            raise KeyError(filename)
        del self._rows[filename]
        self._made.pop(filename, None)
        if not self._whole:
            if filename in self._added:
                self._added.discard(filename)
            else:
                self._gone.add(filename)

    def __iter__(self):
        return iter(list(self._every()))

    def __len__(self) -> int:
        if self._whole:
            return len(self._rows)
        return self._count + len(self._added) - len(self._gone)

    def text_holders(self, text: str) -> list[str]:
        """The file names whose text digest (:attr:`memdir.files.scan.FileState.text`) is ``text`` or
        not known (:func:`memdir.files.scan.holding`), without making a state per file: the rows the
        manifest holds for ``text`` (by its index), and the states set or made since."""
        made = self._made
        found = self._manifest.text_rows(text) if self._manifest is not None else None
        if found is None:  # no manifest to ask: every row read once
            found = [f for f, row in self._full.items() if row[7] in (text, None)] if self._full else list(self)
        held = {f for f in found if f not in made and f in self}
        held.update(f for f, state in made.items() if state.text in (text, None) and f in self)
        return sorted(held)

    def copy(self) -> "Rows":
        """Another mapping of the same states (changes to one do not show in the other)."""
        other = Rows([], self._manifest)
        other._rows, other._made, other._full, other._reads = dict(self._rows), dict(self._made), self._full, self._reads
        other._whole, other._count, other._all, other._made_all = self._whole, self._count, self._all, self._made_all
        other._absent, other._added, other._gone = set(self._absent), set(self._added), set(self._gone)
        return other

    def holders(self):
        """``(file name, name held or None, error)`` of every file, without making a state (the
        rows of files set since carry their state's)."""
        made, rows = self._made, self._every()
        return [(f, made[f].name, made[f].error) if f in made else row
                for f, row in rows.items()] if made else list(rows.values())


class Names(MutableMapping):
    """Which file holds each memory of a layer (name → file name), as :func:`memdir.files.scan.settle`
    settles the manifest's rows, one name at a time: ``get(name)`` reads the files recorded as holding
    ``name`` (the manifest's index of names) and applies the rule to them; ``len`` counts the names the
    manifest records (one query, when first asked). Iterating reads every row once (``rows``: the layer's :class:`Rows`) and
    settles them all. Changes made here stand over the manifest's."""

    def __init__(self, directory: Path, rows: Rows, manifest):
        self._directory = directory
        self._rows = rows
        self._manifest = manifest
        self._count: int | None = None  # how many names the manifest records, counted when first asked
        self._known: dict[str, str | None] = {}  # name → its file (None: no file holds it)
        self._base: dict[str, bool] = {}  # whether the manifest holds the name (asked once)
        self._whole: dict[str, str] | None = None
        self._listed: dict[tuple[str, str], list[str] | None] = {}  # (prefix, letters) → names_from's

    def _recorded(self, name: str) -> str | None:
        if name not in self._base and len(self._base) >= POINT_READS:  # asked for many: every row read once
            return self._every().get(name)
        if name not in self._base:
            held = self._manifest.name_rows(name)
            filename = settle(self._directory, held)[0].get(name) if held else None
            self._base[name] = filename is not None
            self._known.setdefault(name, filename)
        return self._known.get(name)

    def _every(self) -> dict[str, str]:
        if self._whole is None:
            every = settle(self._directory, self._rows.holders())[0]
            for name, filename in self._known.items():  # the changes made here
                if filename is None:
                    every.pop(name, None)
                else:
                    every[name] = filename
            self._whole = every
        return self._whole

    def __getitem__(self, name: str) -> str:
        filename = self._whole.get(name) if self._whole is not None else self._recorded(name)
        if filename is None:
            raise KeyError(name)
        return filename

    def get(self, name, default=None):
        try:
            return self[name]
        except KeyError:
            return default

    def __contains__(self, name) -> bool:
        return self.get(name) is not None

    def __setitem__(self, name: str, filename: str) -> None:
        if self._whole is not None:
            self._whole[name] = filename
            return
        self._recorded(name)
        self._known[name] = filename

    def __delitem__(self, name: str) -> None:
        if self._whole is not None:
            del self._whole[name]
            return
        if self._recorded(name) is None:
            raise KeyError(name)
        self._known[name] = None

    def __iter__(self):
        return iter(list(self._every()))

    def names_from(self, prefix: str = "", letters: str = "") -> list[str]:
        """The names (keys) starting with ``prefix`` (``""``: every one) and holding the characters of
        ``letters`` in that order (``""``: any), without settling which file holds each: the
        manifest's index of names (no row's state is read, :meth:`memdir.layer.manifest.
        Manifest.names_from`), with the changes made here over it. What a write of a new name looks
        through for an older spelling of it (:func:`memdir.gateway.naming.candidates`)."""
        recorded = None
        if self._whole is None:
            if (prefix, letters) not in self._listed:  # the manifest does not change under a load: asked once
                self._listed[prefix, letters] = self._manifest.names_from(prefix, letters)
            recorded = self._listed[prefix, letters]
        if recorded is None:  # settled already, or the manifest cannot be read: every row settled once
            return [name for name in self._every() if name.startswith(prefix) and _holds(name, letters)]
        names = dict.fromkeys(recorded)
        for name, filename in self._known.items():
            if not name.startswith(prefix) or not _holds(name, letters):
                continue
            if filename is None:
                names.pop(name, None)
            else:
                names[name] = None
        return list(names)

    def __len__(self) -> int:
        if self._whole is not None:
            return len(self._whole)
        if self._count is None:
            self._count = self._manifest.name_count()
            if self._count is None:  # the manifest cannot be read: every row (from the files' rows) counted
                return len(self._every())
        added = sum(1 for n, f in self._known.items() if f is not None and not self._base.get(n))
        gone = sum(1 for n, f in self._known.items() if f is None and self._base.get(n))
        return self._count + added - gone


def _holds(name: str, letters: str) -> bool:
    """Whether ``name`` holds the characters of ``letters`` in that order (others between)."""
    rest = iter(name)
    return all(c in rest for c in letters)


class Deferred(list):
    """A list made by ``make()`` when first looked at (the files of a layer that are not memories,
    :func:`memdir.files.scan.settle`, which a write of one memory never looks at)."""

    def __init__(self, make):
        super().__init__()
        self._make = make

    def _fill(self) -> None:
        if self._make is not None:
            make, self._make = self._make, None
            super().extend(make())

    def __iter__(self):
        self._fill()
        return super().__iter__()

    def __len__(self) -> int:
        self._fill()
        return super().__len__()

    def __bool__(self) -> bool:
        return len(self) > 0

    def __getitem__(self, i):
        self._fill()
        return super().__getitem__(i)

    def __contains__(self, item) -> bool:
        self._fill()
        return super().__contains__(item)

    def __eq__(self, other) -> bool:
        self._fill()
        return super().__eq__(other)

    __hash__ = None

    def __repr__(self) -> str:
        self._fill()
        return super().__repr__()

    def append(self, item) -> None:
        self._fill()
        super().append(item)

    def extend(self, items) -> None:
        self._fill()
        super().extend(items)


class Hinted(dict):
    """A scan's files taken from hints without text digests: :func:`memdir.files.scan.holding` asks
    :meth:`text_holders`, which reads the manifest's digests then (on a duplicate check, not on the
    search index's sync that made the scan); ``manifest``: the layer's :class:`memdir.layer.manifest.Manifest`."""

    hinted = True

    def __init__(self, files: dict, manifest):
        super().__init__(files)
        self._manifest = manifest

    def text_holders(self, text: str) -> list[str]:
        """File names whose text digest is ``text`` or not known."""
        saved = self._manifest.load_files() or {}
        held = []
        for filename, state in self.items():
            digest = state.text
            if digest is None and (kept := saved.get(filename)) is not None and kept.key == state.key:
                digest = kept.text
            if digest == text or (digest is None and state.name):
                held.append(filename)
        return held


def malformed_of(directory: Path, rows: Rows) -> list[Malformed]:
    """The files of ``rows`` that are not memories (:func:`memdir.files.scan.settle`), when first looked at."""
    return Deferred(lambda: settle(directory, rows.holders())[1])


__all__ = ["POINT_READS", "Deferred", "Hinted", "Names", "Rows", "malformed_of"]
