"""Keeping a large layer's search rows in step from what its writers journaled (issue 28 §7).

A write changes the layer directory's mtime and its journal, so the next query of a fresh process
(the prompt hook) used to stat every file of the layer (and read what the index knew of each) to
find the one that changed. Every change memdir makes is in the layer's journal, under the lock,
with the name it changed (:mod:`memdir.layer.journal`); and a write that finds a file added,
removed or renamed behind its back first journals it (``external-edit``/``external-delete``,
:func:`memdir.layer.commit.sweep`). So while:

* the layer's manifest is of the layer as it is (:meth:`memdir.layer.manifest.Manifest.swept_if_holds`:
  nothing added, removed or renamed since the last transaction ended), and no writer swept every
  file since the index's last sync began (a sweep takes up files changed by hand, and a file renamed
  to a name that normalizes the same changes no memory's bytes: no event names it), and
* the journal is the one the index last synced with, grown (the digest of the line it ended
  with then is kept in the index's ``meta`` as ``chain:<layer key>``:
  :meth:`memdir.layer.journal.Journal.events_after`),

the files to look at are those that hold or held a name the new events name — found by the
manifest's and the index's records of names, and ``<name>.md`` — and no other. This stands in only
where a sync could skip its sweep anyway (:func:`memdir.files.sweeps.sweep_can_wait`: a large layer
swept within the interval); what it cannot see — an in-place edit of another file, a file added in
the clock tick of a write, a file that is not a memory — the next sweep finds, as before.
"""

from __future__ import annotations

import os
import sqlite3
import stat
from dataclasses import dataclass

from ..files.layout import is_memory_file_name
from ..files.scan import HELD, FileState, Scan, settle
from ..layer.layer import Layer
from ..layer.manifest import Stamps

MAX_FILES = 256  # files looked at beyond which the layer is swept instead (as sync.FEW_FILES)


@dataclass
class Followed:
    """What following the journal found: ``scan`` — the files looked at that are memory files now
    (``files``), the memories they hold or held (``names``: name → the file holding it now; a name
    no file holds is gone) and those read (``entries``); ``known``: the index's rows of those files
    (file → row as :func:`memdir.search.sync.sync_layer` keeps them); ``looked``: every file looked at."""

    scan: Scan
    known: dict[str, tuple]
    looked: set[str]


def chain_mark(digest: str | None) -> int:
    """The integer kept in the index's ``meta`` for the digest of the journal line a sync ended
    with (0: the journal was empty)."""
    return int(digest[:15], 16) if digest else 0


def follow(conn: sqlite3.Connection, key: str, layer: Layer, row: tuple, state: tuple[int, int, int],
           again: set[str] | None = None, on_read=None) -> Followed | None:
    """The files of ``layer`` (index key ``key``) that changed since the index's last sync of it
    (``row``: its ``layers`` row; ``synced:<key>`` in ``meta``: when that sync began) by the journal, the layer being in ``state`` (directory mtime,
    journal size and mtime) — see the module docstring; None when the journal cannot answer (the
    manifest is not of the layer as it is, the journal is not the one synced with, more than
    :data:`MAX_FILES` files): the caller sweeps. ``again``: files looked at too, read whatever their row says
    (their verdict may have moved with the tombstones: :func:`judge_again`). ``on_read(1)`` is called for
    each file read (as :meth:`memdir.layer.layer.Layer.scan`'s ``progress``). Raises
    :class:`sqlite3.Error` from the index."""
    if not state[0] or not state[1]:
        return None
    swept = layer.manifest.swept_if_holds(Stamps(state[0], (state[1], state[2])))
    kept = dict(conn.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (f"chain:{key}", f"synced:{key}")))
    synced = kept.get(f"synced:{key}")
    if swept is None or synced is None or swept > synced:  # a writer's sweep since may have taken up what no event names
        return None
    line = layer.journal.line_digest(row[1])
    if kept.get(f"chain:{key}") != chain_mark(line):
        return None
    events = layer.journal.events_after(row[1], line)
    if events is None:
        return None
    wanted = {event.name for event in events if event.name}
    asked: set[str] = set()
    looked: set[str] = set()
    known: dict[str, tuple] = {}
    files: dict[str, FileState] = {}
    entries = {}
    pending, again = set(again or ()), set(again or ())
    while wanted - asked or pending:
        new = sorted(wanted - asked)
        asked.update(new)
        holding = layer.manifest.files_holding(new)
        if holding is None or len(asked) > MAX_FILES:
            return None
        candidates = set(holding) | pending | {f"{name}.md" for name in new if "/" not in name and os.sep not in name
                                               and is_memory_file_name(f"{name}.md")}
        pending = set()
        if new:
            candidates.update(file for (file,) in _in(conn, "SELECT file FROM docs WHERE layer = ? AND name IN", key, new))
        candidates -= looked
        looked |= candidates
        if len(looked) > MAX_FILES:
            return None
        if not candidates:
            continue
        batch = sorted(candidates)
        rows = _in(conn, "SELECT file, size, mtime_ns, ino, digest, name, error FROM files WHERE layer = ? AND file IN",
                   key, batch)
        known.update((r[0], r) for r in rows)
        wanted.update(r[5] for r in rows if r[5] is not None)  # the docs row of a file holds the name its row does
        for filename in batch:
            found = _look(layer, filename, None if filename in again else known.get(filename), on_read)
            if found is not None:
                files[filename] = found
                if found.name is not None:
                    wanted.add(found.name)
    names, malformed = settle(layer.path, [(f, s.name, s.error) for f, s in sorted(files.items())])
    for name, filename in names.items():
        if files[filename].entry is not None:
            entries[name] = files[filename].entry
    return Followed(Scan(entries, malformed, files, names), known, looked)


def _in(conn: sqlite3.Connection, query: str, key: str, values: list[str]) -> list[tuple]:
    return conn.execute(f"{query} ({','.join('?' * len(values))})", (key, *values)).fetchall()


def _look(layer: Layer, filename: str, hint: tuple | None, on_read=None) -> FileState | None:
    """What the layer's scan would learn of ``filename`` (:func:`memdir.files.scan.scan`): None when
    it is not a regular file there; from ``hint`` (the index's row) while its stat key holds, else the state
    the layer read of it in this process with that key and the tombstones as they are
    (:meth:`memdir.layer.held.HoldsBack.judged_state`: the file whose verdict a lift or forget elsewhere moved,
    read once by the layer's take-up), else read (``on_read(1)`` told)."""
    path = layer.path / filename
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    key = (st.st_size, st.st_ctime_ns, st.st_ino)
    if hint is not None and tuple(hint[1:4]) == key:
        return FileState(key, hint[4], hint[5], hint[6])
    if (judged := layer.judged_state(filename, key)) is not None:  # the layer read it (a lift's take-up): not again
        return judged
    if on_read is not None:
        on_read(1)
    return layer.load(path)


def judge_again(conn: sqlite3.Connection, key: str, layer: Layer) -> tuple[int, set[str] | None]:
    """``(the layer's stones key now, the files whose rows of layer ``key`` were judged under other
    tombstones and :func:`memdir.layer.held.may_change` says may be held back or released now)``: the
    index keeps the stones key each sync judged with (``stones:<key>`` in ``meta``), as the layer's manifest
    does (:func:`memdir.files.layout.judged`), so a verdict moved by a lift in another process or a pull is
    taken up here even after the layer's own judgement was recorded. The set is empty while the key is
    the same; None when the tombstones cannot be read (every file judged again)."""
    stones = layer.stones_now()
    kept = conn.execute("SELECT value FROM meta WHERE key = ?", (f"stones:{key}",)).fetchone()
    if kept is not None and kept[0] == stones:
        return stones, set()
    named = layer.stone_names()
    if named is None:
        return stones, None
    if len(named) > 500:  # more names than a query should bind: every row, told apart by the rule
        rows = conn.execute("SELECT file, name, error FROM files WHERE layer = ?", (key,)).fetchall()
    else:
        rows = conn.execute(f"SELECT file, name, error FROM files WHERE layer = ? AND (name IN ({','.join('?' * len(named))})"
                            f" OR (name IS NULL AND substr(error, 1, ?) = ?))", (key, *named, len(HELD), HELD)).fetchall()
    return stones, layer.to_judge(rows)


__all__ = ["Followed", "MAX_FILES", "chain_mark", "follow", "judge_again"]
