"""Keeping the search index in step with the files (DESIGN §6: the index is derived).

Before a query answers, each layer in scope is brought in step with its files
(:func:`sync`), so deleting the file, hand edits, and files added or removed
behind memdir's back lose nothing; :func:`memdir.search.reindex.reindex` rebuilds it all. The
database itself is :mod:`memdir.search.index`.

Keeping in step, per layer, cheapest first:

* two stats per query — the layer directory (any file created, removed or
  renamed, which every gateway write is) and its journal (every mutation
  appends) — compared with what the last sync saw;
* a scan (one ``stat`` per file; only files whose size/ctime/inode differ
  from the ``files`` table are read and parsed) when those differ,
  when the last sync was too close to the filesystem's clock tick to trust
  ("racy" mtimes, as in git), and otherwise as the layer's writes sweep
  (:func:`memdir.files.sweeps.sweep_can_wait`): always for a small layer, at
  least every interval for a large one, whichever process swept last (its
  wall time is kept in ``meta``) — an in-place hand edit of a file in a large
  layer is seen within that interval; past it, a hook or a CLI command hands
  a large layer's sweep to a detached sweeper (:mod:`memdir.search.sweeper`)
  and answers from the rows it has;
* between those sweeps, when the stats differ after a write, the files the
  layer's journal names since the last sync (:mod:`memdir.search.follow`),
  not a scan.
"""

from __future__ import annotations

import functools
import os
import sqlite3
import threading
import time
from datetime import datetime
from operator import itemgetter
from pathlib import Path

from ..errors import StoreError
from ..files.scan import Entry
from ..files.sweeps import since, sweep_can_wait, swept_always
from ..layer.layer import Layer
from ..layer.manifest import RACY_NS  # one rule of a stat key too fresh to trust, for the manifest and the index
from ..session import Session
from ..text.plural import counted
from .index import (FIELDS, ReadOnly, cannot_write, connect, damaged, db_path, explain, forget, is_corrupt,
                    layer_key, set_aside, warn, write_transaction)
from . import integrity, scripts
from .schema import READ_AS_THEY_ARE, upgrade
from .follow import chain_mark, follow, judge_again
from .locked import locked_out, waiting
from .stale import warn_stale
from .tokenize import document_fields, require


# ---------------------------------------------------------------- keeping in step


_swept: dict[tuple[str, str], float] = {}  # (db, layer key) -> monotonic time of the last sweep
_sweep_lock = threading.Lock()


def forget_sweeps() -> None:
    """Forget when this process last swept each layer (of every index), so the next sync of each
    sweeps it: after rows were dropped (:func:`repair`) or the index rebuilt
    (:func:`memdir.search.reindex.reindex`), no layer's rows are what its last sweep left."""
    with _sweep_lock:
        _swept.clear()


def _layer_state(layer: Layer) -> tuple[int, int, int]:
    """(the layer directory's mtime, its journal's size and mtime) in ns; 0 for what cannot be stat'ed.
    The journal is where the layer keeps it (the team layer's: in the home, not in the repository)."""
    try:
        directory = os.stat(layer.path).st_mtime_ns
    except OSError:
        return (0, 0, 0)
    try:
        journal = os.stat(layer.journal.path)
        return (directory, journal.st_size, journal.st_mtime_ns)
    except OSError:
        return (directory, 0, 0)


def _epoch(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


def _drop_doc(conn: sqlite3.Connection, doc_id: int) -> None:
    conn.execute("DELETE FROM fts WHERE rowid = ?", (doc_id,))
    conn.execute("DELETE FROM docs WHERE id = ?", (doc_id,))
    conn.execute("DELETE FROM vectors WHERE id = ?", (doc_id,))


def _put_doc(conn: sqlite3.Connection, key: str, entry: Entry, old_id: int | None) -> None:
    """Replace the row of one memory (``old_id``) by ``entry``'s record. The
    old row's vector stays, under the new row, as its stand-in until the
    background embedder replaces it (:func:`memdir.search.similarity.similarities`):
    an edit rarely turns what a memory is about, and the memory stays
    findable by meaning meanwhile. A memory new under its name that ``supersedes`` another of the layer
    (a rename: ``memdir write NEW --rename-from OLD``, the memory_write tool's rename, a supersede) takes
    that one's vector as its stand-in likewise, so a renamed memory is not recalled by words alone until
    it is embedded again."""
    record = entry.record
    kept = None
    if old_id is not None:
        kept = conn.execute("SELECT digest, model, vec FROM vectors WHERE id = ?", (old_id,)).fetchone()
        _drop_doc(conn, old_id)
    elif record.supersedes:
        kept = conn.execute("SELECT v.digest, v.model, v.vec FROM docs d JOIN vectors v ON v.id = d.id"
                            " WHERE d.layer = ? AND d.name = ?", (key, record.supersedes)).fetchone()
    values = (key, record.name, entry.path.name, entry.digest, record.type, record.origin, record.status,
              int(record.disabled), int(record.pinned), _epoch(record.valid_from), _epoch(record.valid_until),
              _epoch(record.updated or record.created), record.title, record.description, record.body)
    cur = conn.execute(f"INSERT INTO docs ({', '.join(integrity.COLUMNS)}, checksum, script)"
                       f" VALUES ({'?,' * len(integrity.COLUMNS)}?,?)", (*values, integrity.checksum(values),
                       scripts.of_memory(record.title, record.description, record.body)))
    conn.execute(f"INSERT INTO fts (rowid, {', '.join(FIELDS)}) VALUES (?,?,?,?,?)",
                 (cur.lastrowid, *document_fields(record.name, record.title, record.description, record.body)))
    if kept is not None:  # its old digest: not current, so still counted missing and embedded again
        conn.execute("INSERT INTO vectors (id, digest, model, vec) VALUES (?,?,?,?)", (cur.lastrowid, *kept))


def _known(conn: sqlite3.Connection, key: str) -> dict[str, tuple]:
    """What the last sync learned of each file of layer ``key``, in the form
    :meth:`Layer.scan` takes as ``known``."""
    rows = conn.execute("SELECT file, size, mtime_ns, ino, digest, name, error FROM files WHERE layer = ?",
                        (key,)).fetchall()
    return dict(zip(map(itemgetter(0), rows), rows))  # C-level: this runs for every file of a large layer


FEW_FILES = 256  # changed files up to which a sync compares only their names' rows (more: every row)


def sync_layer(conn: sqlite3.Connection, home: Path, layer: Layer, *, force: bool = False,
               on_read=None) -> int:
    """Bring the rows of one layer in step with what its scan yields; returns
    how many memories changed. ``force`` scans regardless of the cheap checks;
    ``on_read(1)`` is called for each file read (:meth:`Layer.scan`'s ``progress``).
    While a sweep may wait (:func:`memdir.files.sweeps.sweep_can_wait`), the files
    the layer's journal names since the last sync stand in for the scan
    (:func:`memdir.search.follow.follow`).

    The scan reads without a transaction; only when something differs does
    it take the write lock (``BEGIN IMMEDIATE``) and apply the differences
    against the rows as they are then, so concurrent syncs never clash."""
    key = layer_key(home, layer.path)
    started = time.time_ns()
    row = conn.execute("SELECT dir_mtime_ns, journal_size, journal_mtime_ns, files, settled FROM layers"
                       " WHERE key = ?", (key,)).fetchone()
    if not force and row is not None and layer.stones_moved():  # a lift or forget elsewhere, a pull: the verdicts
        layer.take_up_stones()  # it moved taken up by name (layer.held), journaled before the layer's state is read
    state = _layer_state(layer)
    marker = (str(db_path(home)), key)
    now_mono = time.monotonic()
    stones, again = judge_again(conn, key, layer)
    force = force or again is None
    if not force and row is not None and not layer.stones_moved():  # else every file judged again (layer.held)
        last = _swept.get(marker)
        if last is None:  # a fresh process: when the last sweep of any process was (a wall time)
            swept = conn.execute("SELECT value FROM meta WHERE key = ?", (f"swept:{key}",)).fetchone()
            last = now_mono - since(swept[0]) if swept and swept[0] else None  # after now: due
        if sweep_can_wait(row[3], float("inf") if last is None else now_mono - last, layer):
            if tuple(row[:3]) == state and row[4] and not again:
                return 0
            followed = follow(conn, key, layer, row, state, again, on_read)
            if followed is not None:
                return _apply(conn, layer, key, row, state, followed.scan, followed.known, followed.looked,
                              marker, None, started, stones)
    known = _known(conn, key)
    hints = {f: hint for f, hint in known.items() if f not in again} if again is not None else None
    before = layer.manifest.swept_saved()
    scan = layer.scan(known=hints, progress=on_read)
    own = layer.manifest.swept_saved()
    if own is not None and own != before:  # its take-up of hand edits swept (Layer.take_up): a sweep of this sync
        # Scanned again, after that sweep (each file stat'ed, none read unless changed since): the rows then hold
        # all it saw, so it is no "writer's sweep since" to the next reader (follow), and a file changed by hand
        # between this sync's first scan and that sweep, with no event naming it, is not left out of them.
        scan = layer.scan(known=hints, progress=on_read)
        started = max(started, own)
    return _apply(conn, layer, key, row, state, scan, known, None, marker, now_mono, started, stones)


def _apply(conn: sqlite3.Connection, layer: Layer, key: str, row: tuple | None, state: tuple, scan, known: dict,
           looked: set[str] | None, marker: tuple, swept: float | None, started: int, stones: int = 0) -> int:
    """Write the differences between ``scan`` and the rows of layer ``key`` (``known``: the index's
    rows of the files, popped here), and when the sync began (``started``, epoch ns: ``synced:<key>``
    in ``meta``, :func:`memdir.search.follow.follow`; or the sweep its own scan's take-up saved, the rows
    read after it: :func:`sync_layer`). ``looked`` None: ``scan`` is of every file (a sweep at monotonic
    time ``swept``); else it is of the files ``looked`` at alone (:func:`memdir.search.follow.follow`)
    and the sweep time is kept as it was."""
    now_ns = time.time_ns()
    file_rows = []
    pop = known.pop
    added = 0
    held: set[str | None] = set()  # the names the changed files held as of the last sync
    for filename, found in scan.files.items():
        if filename not in known:
            added += 1
        before = pop(filename, None)
        if before is not None and tuple(before[1:7]) == (*found.key, found.digest, found.name, found.error):
            continue  # the row says what was found, under its stat key: nothing to record. Not "unparsed and a
            # memory" alone: the layer's own state of a file (restored from its manifest, unparsed) may carry a
            # verdict other than the row's under the same key — a lift elsewhere released it — and was dropped
            # (before: the row stayed "held back" under the new stones key, the lifted memory never found).
            # A file found unchanged under a new stat key (touched, its bytes the same) is recorded under that
            # key below, its memory not re-indexed.
        size, mtime, ino = found.key
        # A file changed within the clock tick of this sync could change again
        # unseen with the same mtime: record mtime 0 so the next sync reads it.
        stored_key = (size, mtime if now_ns - mtime > RACY_NS else 0, ino)
        stored = (filename, *stored_key, found.digest, found.name, found.error)
        if before != stored:
            file_rows.append((key, *stored))
            if before is not None:
                held.add(before[5])
    gone_files = list(known)
    held.update(row[5] for row in known.values())
    count = len(scan.files) if looked is None else row[3] + added - len(gone_files)
    settled = int(all(now_ns - t > RACY_NS for t in (state[0], state[2]) if t))
    files = scan.files
    todo: list[str] = []
    gone: set[str] = set()
    if file_rows or gone_files or row is None:
        # Which memories changed: only when some file did (the winner of a name
        # depends on the files alone, and the rows were in step after the last sync).
        moved = {r[1] for r in file_rows} | set(gone_files)
        if looked is None and (row is None or len(moved) > FEW_FILES):
            docs = {name: (file, digest) for name, file, digest in conn.execute(
                "SELECT name, file, digest FROM docs WHERE layer = ?", (key,))}
            todo = [name for name, filename in scan.names.items()
                    if docs.get(name) != (filename, files[filename].digest)]
            gone = set(docs) - set(scan.names)
        else:  # a few files changed: only the names they hold now or held before can have changed
            marks = ",".join("?" * len(moved))
            names = {files[f].name for f in moved if f in files and files[f].name is not None}
            names.update(name for name in held if name is not None)
            if looked is None:  # a sweep: also what the rows say of those files (a scan of every row's file)
                names.update(n for (n,) in conn.execute(
                    f"SELECT name FROM docs WHERE layer = ? AND file IN ({marks})", (key, *moved)))
            marks = ",".join("?" * len(names))
            docs = {name: (file, digest) for name, file, digest in conn.execute(
                f"SELECT name, file, digest FROM docs WHERE layer = ? AND name IN ({marks})", (key, *names))}
            todo = [name for name in names if name in scan.names
                    and docs.get(name) != (scan.names[name], files[scan.names[name]].digest)]
            gone = {name for name in names if name not in scan.names and name in docs}
    if not todo and not gone and not file_rows and not gone_files and row is not None \
            and tuple(row) == (*state, count, settled):
        if looked is None:
            with _sweep_lock:
                _swept[marker] = swept
            if not swept_always(count):  # a small layer is swept at every sync: nothing reads when it last was
                _record_sweep(conn, key, started)  # (no write lock taken at each search of a small user layer)
        return 0
    entries: dict[str, Entry | None] = {}
    for name in todo:
        entry = scan.entries.get(name)
        if entry is None:  # known unchanged, but not indexed under this name yet (a duplicate that won)
            loaded = layer.load(layer.path / scan.names[name])
            entry = loaded.entry if loaded is not None else None
        entries[name] = entry
    changed = 0
    chain = chain_mark(layer.journal.line_digest(state[1]))
    with write_transaction(conn):
        wanted = [*entries, *gone]
        if row is not None and len(wanted) <= FEW_FILES:
            current = {name: doc_id for doc_id, name in conn.execute(
                f"SELECT id, name FROM docs WHERE layer = ? AND name IN ({','.join('?' * len(wanted))})",
                (key, *wanted))}
        else:
            current = {name: doc_id for doc_id, name in conn.execute("SELECT id, name FROM docs WHERE layer = ?",
                                                                     (key,))}
        for name, entry in entries.items():
            if entry is not None:
                _put_doc(conn, key, entry, current.get(name))
            elif name in current:
                _drop_doc(conn, current[name])
            changed += 1
        for name in gone:
            if name in current:
                _drop_doc(conn, current[name])
                changed += 1
        conn.executemany("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?)", file_rows)
        conn.executemany("DELETE FROM files WHERE layer = ? AND file = ?", [(key, f) for f in gone_files])
        if changed:
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
        conn.execute("INSERT OR REPLACE INTO layers VALUES (?,?,?,?,?,?)", (key, *state, count, settled))
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", [(f"chain:{key}", chain), (f"synced:{key}", started),
                                                                       (f"stones:{key}", stones)])
        if looked is None:
            conn.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (f"swept:{key}", time.time_ns()))
    if looked is None:
        with _sweep_lock:
            _swept[marker] = swept
    return changed


def repair(conn: sqlite3.Connection, home: Path, rows: list[tuple[int, str, str, str]]) -> bool:
    """Drop the damaged ``docs`` rows ``rows`` (``(id, layer key, file, name)``,
    :func:`memdir.search.integrity.damaged_rows`) with what the index knows of
    their files, and mark their layers unsynced: the next :func:`sync` reads
    those files again and writes their rows anew (a new vector in the
    background). One line on stderr names them. False when the index cannot
    be written now (a full disk, read-only): the caller leaves the rows out."""
    if not rows or isinstance(conn, ReadOnly):
        return False
    try:
        with write_transaction(conn):
            for doc_id, key, filename, _name in rows:
                _drop_doc(conn, doc_id)
                conn.execute("DELETE FROM files WHERE layer = ? AND file = ?", (key, filename))
            conn.executemany("DELETE FROM layers WHERE key = ?", [(key,) for key in {r[1] for r in rows}])
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    except sqlite3.Error:
        return False
    forget_sweeps()
    names = ", ".join(sorted({str(r[3]) for r in rows}))
    warn(f"the search index {db_path(home)} held {len(rows)} damaged row(s) ({names}: they did not match "
         "their checksum); re-read from the memory files")
    return True


def unsound(conn: sqlite3.Connection, home: Path, ids: list[int]) -> set[int]:
    """Of the ``docs`` rows ``ids`` a query is about to show, those to leave
    out: their values do not match their checksum
    (:func:`memdir.search.integrity.damaged_rows`) and the index cannot be
    written to repair them. Per hit, never per file. Raises
    :class:`DamagedIndex` when it repaired some (:func:`repair`: asked again
    — :func:`rebuilt_when_damaged` — the query finds them re-read from their
    files), :class:`StoreError` for a page SQLite finds damaged."""
    try:
        bad = integrity.damaged_rows(conn, ids)
    except sqlite3.Error as exc:
        raise index_error(home, exc) from None
    if not bad:
        return set()
    if repair(conn, home, bad):
        raise DamagedIndex(f"the search index {db_path(home)} held damaged rows; they are read again from the files")
    warn(f"the search index {db_path(home)} holds {len(bad)} damaged row(s) it cannot repair now "
         f"({', '.join(sorted(str(r[3]) for r in bad))}); left out of this answer")
    return {r[0] for r in bad}


def check_rows(home: Path, layers: list[Layer]) -> str | None:
    """Every ``docs`` row of the index of ``home`` checked against its
    checksum (``doctor``: reads every row), the damaged ones repaired
    (:func:`repair`) and ``layers`` synced again (another layer's rows are
    read again at its next search); what was found, for a note, or None
    when every row is sound or there is no index. Raises :class:`StoreError`."""
    if not db_path(home).exists():
        return None
    conn = connect(home)
    try:
        bad = integrity.damaged_rows(conn, None)
    except sqlite3.Error as exc:
        raise index_error(home, exc) from None
    if not bad:
        return None
    names = ", ".join(sorted(str(r[3]) for r in bad))
    if repair(conn, home, bad):
        sync(home, layers)
        return f"the search index {db_path(home)} held {len(bad)} damaged row(s) ({names}): read again from the files"
    return f"the search index {db_path(home)} holds {len(bad)} damaged row(s) ({names}): run memdir reindex"


def _record_sweep(conn: sqlite3.Connection, key: str, started: int) -> None:
    """Keep when layer ``key`` was last swept (a wall time in ``meta``), so a fresh process (the
    prompt hook) applies :func:`memdir.files.sweeps.sweep_can_wait` as a long-running one does, and
    when this sweep began (``started``, epoch ns: ``synced:<key>``) — a sweep that found the rows in
    step is a sync all the same, so a writer's sweep before it (the sweeper's own) no longer keeps
    the next reader from following the journal (:func:`memdir.search.follow.follow`). Not kept when
    the index cannot be written now (the next process sweeps again)."""
    waited = conn.execute("PRAGMA busy_timeout").fetchone()[0]  # the sync's own (search.locked.waiting)
    try:
        conn.execute("PRAGMA busy_timeout = 100")  # ms: a note never makes a search wait out another's lock
        conn.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)",
                         [(f"swept:{key}", time.time_ns()), (f"synced:{key}", started)])
        if conn.in_transaction:
            conn.execute("COMMIT")
    except sqlite3.Error:
        pass
    finally:
        conn.execute(f"PRAGMA busy_timeout = {int(waited)}")


def sync(home: Path, layers: list[Layer], session_id: str | None = None) -> sqlite3.Connection:
    """Bring the index of ``home`` in step with ``layers``; returns the
    connection. When the index cannot be written now (a full disk, a
    read-only file: :func:`memdir.search.index.cannot_write`; another process's lock past the busy timeout,
    :func:`memdir.search.locked.locked_out`, or past :data:`memdir.search.locked.QUICK_WAIT` s for an agent's
    session ``session_id``: its hook's prompt waits on it) the files it lacks or holds stale are still searched:
    the connection returned is an in-memory copy of it brought up to date (:func:`_overlay`), and one line
    on stderr says so, naming SQLite's error (``SQLITE_FULL``) — once per
    process, and once per session ``session_id`` (an agent's hooks:
    :func:`memdir.search.stale.warn_stale`). Raises :class:`MissingExtra` without the ``search``
    extra, :class:`StoreError` when the index cannot be used."""
    require()
    conn = connect(home)
    held = locked_out(home)  # another process's lock met moments ago: not waited for again at each sync
    if isinstance(conn, ReadOnly) or held:  # it could not be opened for writing: nothing to try
        return _overlay(home, layers, conn, held or conn.why.rpartition("; ")[0], session_id)
    try:
        with waiting(conn, home, quick=session_id is not None):  # marked, or an agent's hook: short, then the copy
            for layer in layers:
                sync_layer(conn, home, layer)
    except sqlite3.Error as exc:
        if held := locked_out(home, exc):  # the busy timeout spent: the files it lacks are read into a copy
            return _overlay(home, layers, conn, held, session_id)
        if damaged(exc) or not cannot_write(exc):
            raise index_error(home, exc) from None
        return _overlay(home, layers, conn, f"the search index {db_path(home)} could not be brought up to date "
                                            f"({explain(exc, db_path(home))})", session_id)
    getattr(_copies, "held", {}).pop(str(db_path(home)), None)  # written again: no copy needed
    return conn


_copies = threading.local()  # .held: index path -> this thread's in-memory copy (a connection is one thread's)


def answering(home: Path) -> sqlite3.Connection:
    """The connection this thread's last :func:`sync` of ``home`` answered from: the in-memory copy brought up
    to date while the index cannot be written (:func:`_overlay`), else the index's own (:func:`connect`), so
    what a search says beside its hits (search.unread's note) is read where the hits were. Raises what
    :func:`connect` raises."""
    copy = getattr(_copies, "held", {}).get(str(db_path(home)))
    return copy if copy is not None else connect(home)


def _overlay(home: Path, layers: list[Layer], conn: sqlite3.Connection, cause: str,
             session_id: str | None = None) -> sqlite3.Connection:
    """The index of ``home`` that cannot be written now (``cause``: why, for a person), copied into
    memory once per thread and process and brought up to date there (:func:`sync_layer`: only the
    files changed since its last sync are read), so a memory written by hand, or one whose write
    reached its file but not the index, is still found. One line on stderr (:func:`memdir.search.stale.warn_stale`) says the
    index is stale and how many memories are read from their files (or that it is read as it is,
    when none changed). The copy is a :class:`memdir.search.index.ReadOnly` (nothing persists); of an index of
    schema 15, 16 or 17 it is brought to 18 (:func:`memdir.search.schema.upgrade`: each memory's script, its terms)
    before its sync.
    ``conn`` as it is when even the copy fails (no memory)."""
    path = str(db_path(home))
    held = _copies.__dict__.setdefault("held", {})
    copy = held.get(path)
    try:
        if copy is None:
            copy = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False, factory=ReadOnly)
            copy.changed = 0
            conn.backup(copy)
            if copy.execute("PRAGMA user_version").fetchone()[0] in READ_AS_THEY_ARE:  # the copy is written:
                upgrade(copy)  # as a writable index gets it: each memory's script added (15), its terms read again
            held[path] = copy
        for layer in layers:
            copy.changed += sync_layer(copy, home, layer)
    except sqlite3.Error as exc:
        held.pop(path, None)
        warn_stale(home, cause, f"{cause}; search and recall answer from it as it is (bringing a copy of it up to "
                                 f"date in memory failed: {explain(exc)})", session_id, _project_of(layers))
        return conn
    finally:
        with _sweep_lock:  # the copy's sweeps are not the file's
            for marker in [m for m in _swept if m[0] == path]:
                del _swept[marker]
    if isinstance(conn, ReadOnly):
        conn.close()  # not cached: the copy stands for it
    copy.why = (f"{cause}; it is stale: {counted(copy.changed, 'memory')} changed since its last update, read from their files "
                "into a copy of it in memory, so search and recall see them" if copy.changed
                else f"{cause}; search and recall answer from it as it is")
    warn_stale(home, cause, copy.why, session_id, _project_of(layers))
    return copy


def _project_of(layers: list[Layer]):
    """The project root of ``layers`` (its project layer's), or None: what a session's warnings are kept under
    beside its id (:func:`memdir.search.stale.warn_stale`)."""
    return next((layer.root for layer in layers if layer.scope == "project" and layer.root is not None), None)


class DamagedIndex(StoreError):
    """A query met a damaged page of the index, which was moved aside
    (:func:`memdir.search.index.set_aside`): asked again, the query finds a
    new index built from the memory files (:func:`rebuilt_when_damaged`)."""


def index_error(home: Path, exc: sqlite3.Error) -> StoreError:
    """The error to raise for ``exc``, met reading the index of ``home``:
    :class:`DamagedIndex` when SQLite says a page is damaged — this thread's
    connection is dropped and, when ``PRAGMA quick_check`` agrees about the
    file at the path now (another thread may have rebuilt it already), the
    file is moved aside; else a :class:`StoreError` naming SQLite's error."""
    path = db_path(home)
    if not damaged(exc):
        return StoreError(f"search index error: {explain(exc, path)}")
    why = explain(exc)
    if is_corrupt(path):
        set_aside(home, why)
    else:
        forget(home)
    return DamagedIndex(f"the search index {path} was damaged ({why}); it is rebuilt from the memory files")


def rebuilt_when_damaged(query):
    """Decorate ``query(session, …)``, a reader of the index: when it meets a
    damaged index (:class:`DamagedIndex`: moved aside by :func:`index_error`, or damaged rows repaired by
    :func:`unsound`), ask once more, so it answers from a new index built from the files. A ``synced`` connection
    given (the caller's sync, :func:`memdir.search.ranking.ranked`) is not given again: it was synced before the
    damage was met, and the second asking syncs anew (the repaired rows read again from their files)."""
    @functools.wraps(query)
    def asked(session, *args, **kwargs):
        try:
            return query(session, *args, **kwargs)
        except DamagedIndex:
            kwargs.pop("synced", None)
            return query(session, *args, **kwargs)
    return asked


def prepare(session: Session, scope: str | None = None) -> int:
    """Sync the session's layers and, in hybrid mode, embed what has no
    vector yet, so the next query pays for neither. Returns vectors embedded."""
    from . import vectors

    layers = session.layers(scope)
    conn = sync(session.home, layers, session.id)
    if not vectors.enabled(session.settings) or isinstance(conn, ReadOnly):  # no vector could be kept
        return 0
    try:
        return vectors.embed_missing(conn, [layer_key(session.home, layer.path) for layer in layers])
    except sqlite3.Error as exc:
        raise StoreError(f"search index error: {exc}") from None


__all__ = ["DamagedIndex", "answering", "RACY_NS", "check_rows", "forget_sweeps", "index_error", "prepare",
           "rebuilt_when_damaged", "repair", "sync", "sync_layer", "unsound"]
