"""The search index: ``$MEMDIR_HOME/index.sqlite`` and its connections (its tables and their upgrade:
:mod:`memdir.search.schema`).

SQLite FTS5 (standard library). It indexes exactly what the layer's own reader yields
(:meth:`memdir.layer.layer.Layer.scan`): one ``docs`` row per memory (layer key, name, the file that
holds it, title, description, body, type, status and flags) with its ``fts`` text, and the optional dense
vectors of :mod:`memdir.search.vectors`. So search, list, read and the context block agree on every name
and text, duplicate and malformed files included. A ``files`` table keeps what the scan learned of each
file (stat key, digest, name or error), so a fresh process reads only files that changed.

It is *derived*, and a reader answers from what exists: a damaged file is moved aside (:func:`set_aside`,
kept as ``index.sqlite.corrupt-<time>``) and one of another schema deleted, both rebuilt from the files;
an index that cannot be written (a full disk, a read-only home) is read as it is (:func:`open_read_only`);
where there is none to read, an in-memory index stands in (:func:`open_in_memory`). A valid page whose
text changed is seen by each row's checksum (:mod:`memdir.search.integrity`). A rebuild is made beside
the old file and replaces it only when complete (:func:`memdir.search.rebuild.rebuild`). WAL mode, a busy timeout, one
connection per thread. Keeping it in step with the files is :mod:`memdir.search.sync`.
"""

from __future__ import annotations

import errno
import os
import sqlite3
import sys
import threading
import time
from functools import lru_cache
from pathlib import Path

from ..errors import StoreError
from ..files import background
from ..files.fsio import NOFOLLOW, ensure_dir
from ..paths import INDEX_DB
from .damage import damaged, is_corrupt, restore_shared_memory, shape
from .schema import FIELDS, READ_AS_THEY_ARE, READABLE_WITHOUT_SCRIPTS, SCHEMA_VERSION, StaleSchema, write_transaction
from .schema import UPGRADED as _UPGRADED, create as _create, upgrade as _upgrade


# ---------------------------------------------------------------- the database


_local = threading.local()


@lru_cache(maxsize=64)  # a search asks ≈ 9 times for one home (0.1 ms of Path parsing a search)
def db_path(home: Path) -> Path:
    """``<home>/index.sqlite``."""
    return Path(home) / INDEX_DB


def connect(home: Path) -> sqlite3.Connection:
    """This thread's connection to ``<home>/index.sqlite`` (WAL, 5 s busy timeout), created on first use. A file
    that ``PRAGMA quick_check`` finds damaged is moved aside (:func:`set_aside`), an index of an older schema
    deleted, and a new one created: it is derived. One of a newer schema (a newer memdir shares the home while an
    older one still runs, say an MCP server started before an upgrade) is left as it is and an index in memory
    answers (:func:`open_in_memory`), so the two never delete each other's index. One that cannot be written (a full disk, a read-only file or
    home) is read as it is (:func:`open_read_only`, not cached), or, when there is no index to read, replaced by
    one in memory (:func:`open_in_memory`). Busy, locked and I/O errors are reported, never a reason to delete
    it. A cached connection whose file is no longer the one at the path (another process's rebuild replaced it,
    or it was deleted) is closed and the file at the path opened (one ``stat`` per call). Raises :class:`StoreError`."""
    path = db_path(home)
    cache = getattr(_local, "conns", None)
    if cache is None:
        cache = _local.conns = {}
    conn = cache.get(path)
    if conn is None and not os.path.lexists(path.parent):
        # A home not made yet holds no memory: a read (status, search, doctor on a new home) answers from an
        # empty index in memory, and creates nothing; the first write makes the home, and the next connect the file.
        conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
        _create(conn)
        return conn
    if conn is not None:
        moved = _replaced(conn, path)
        if not moved:
            return conn
        # Another process rebuilt the index (``memdir reindex``: os.replace) or deleted it: this connection reads
        # a file no longer at the path (a long-lived MCP server would search it, and embed into it, for good).
        # Or its bytes were damaged in place: set aside (this connection closed first) and rebuilt, and said so.
        try:
            if moved is not True:
                set_aside(home, moved)
        except StoreError:
            pass  # the reopen below reads it as it can
        if cache.pop(path, None) is not None:
            conn.close()
    opened = _local.__dict__.setdefault("opened", {})
    opened.pop(path, None)
    for attempt in (1, 2):
        try:
            background.require(path.parent)  # a background job (a build, the embedder) never makes the home again
            ensure_dir(path.parent)
            # Its bytes damaged while a process holds it open (truncated, overwritten): SQLite answers every other
            # open "database is locked" for as long as that process lives (break29), so look before SQLite does.
            if attempt == 1 and (why := shape(path)) is not None:
                try:
                    set_aside(home, why)
                except StoreError as exc:  # a read-only home: search the memory files through an index in memory
                    conn = open_in_memory(path, f"is damaged ({why}) and {exc}", _create)
                    break
            # Created 0600 before SQLite opens it: SQLite gives its -wal and -shm (memory text) the same mode. Not when
            # there: a descriptor of it closed drops this process's locks (another's close then deletes the -wal in use).
            if not path.is_file() or path.is_symlink() or not os.access(path, os.W_OK):  # else the open says why not
                os.close(os.open(path, os.O_RDWR | os.O_CREAT | NOFOLLOW, 0o600))
            opened[path] = _identity(path)  # before the open: a file replaced in between is seen at the next connect
            conn = sqlite3.connect(str(path), timeout=5.0, isolation_level=None, check_same_thread=False)
            conn.execute("PRAGMA busy_timeout = 5000")
            # Opening an index that is already WAL and of this schema writes nothing, so it never waits
            # for the write lock a long sync holds (a busy machine once made four threads fail here).
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                while_busy(lambda: conn.execute("PRAGMA journal_mode = WAL"))
            conn.execute("PRAGMA synchronous = NORMAL")
            version = conn.execute("PRAGMA user_version").fetchone()[0]
            if version in _UPGRADED:  # its rows and vectors stand: checksums and terms are brought up to date
                while_busy(lambda: _upgrade(conn))
                version = SCHEMA_VERSION
            if version > SCHEMA_VERSION:  # a newer memdir's index (one still running here is older): never ours to drop
                conn.close()
                conn = open_in_memory(path, f"is of schema {version}, newer than this memdir's {SCHEMA_VERSION}; "
                                      "left as it is (upgrade memdir here)", _create)
                opened.pop(path, None)  # the file is not read: its replacement changes nothing here
                break
            if version not in (0, SCHEMA_VERSION):
                raise StaleSchema(f"index schema {version}, expected {SCHEMA_VERSION}")
            if version == 0:
                while_busy(lambda: _create(conn))
            if os.stat(path).st_mode & 0o777 != 0o600:  # a chmod moves the change time: the check's stamp (checked)
                os.chmod(path, 0o600)
            break
        except sqlite3.DatabaseError as exc:
            if conn is not None:
                conn.close()
                conn = None
            if not isinstance(exc, StaleSchema) and cannot_write(exc):
                # A full disk (SQLite cannot make its -wal and -shm files), a read-only file: the index
                # itself is fine; read it as it is, and open it normally again next time.
                return _as_it_is(path, exc)
            # Busy, locked: the index is fine, only unavailable now.
            if attempt == 2 or not (isinstance(exc, StaleSchema) or is_corrupt(path)):
                raise StoreError(f"cannot open the search index {path}: {explain(exc, path)}") from None
            # Derived data: a corrupt or foreign file is rebuilt from the memory files.
            if isinstance(exc, StaleSchema):
                remove_file(path, "cannot replace the search index")
            else:
                set_aside(home, explain(exc))
        except OSError as exc:
            if exc.errno in (errno.EISDIR, errno.ELOOP) and attempt == 1:  # a directory or a link where it goes
                set_aside(home, "not a file: " + ("a directory" if exc.errno == errno.EISDIR else "a symbolic link"))
                continue
            if exc.errno == errno.ENOENT and background.active():  # removed under a build (rm -rf of the home)
                raise background.Gone(f"the search index {path} was removed while it was opened: {exc}") from None
            if exc.errno not in (errno.EACCES, errno.EPERM, errno.EROFS, errno.ENOSPC, errno.EDQUOT):
                raise StoreError(f"cannot open the search index {path}: {exc}") from None
            if path.exists():  # a read-only home or file, a full disk: the index is there, read it as it is
                return _as_it_is(path, exc)
            if exc.errno in (errno.ENOSPC, errno.EDQUOT):  # no room for a new index: one in memory, until there is
                return open_in_memory(path, f"cannot be created ({explain(exc, path)})", _create)
            conn = open_in_memory(path, f"cannot be created ({exc.strerror or exc})", _create)
            opened.pop(path, None)  # no file opened: nothing to be replaced
            break
    _READ_ONLY.pop(path, None)
    cache[path] = conn
    return conn


def _identity(path: Path) -> tuple[int, int] | None:
    """``(device, inode)`` of the file at ``path``; None when there is none (or it cannot be looked at)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _replaced(conn: sqlite3.Connection, path: Path) -> bool | str:
    """True when this thread's cached connection ``conn`` to ``path`` opened a file that is no longer the one at
    ``path`` (replaced by a rebuild in another process, or deleted); what is wrong (a text) when its bytes were
    damaged in place (:func:`memdir.search.damage.shape`, looked at when its size or mtime moved: this process's
    connection read on from its cache and log, and every other process's open of it said "database is
    locked"); else False. Never for an index in memory (no file was opened) nor mid-transaction (its caller
    reads on). Its ``-shm`` cut first extended back (:func:`memdir.search.damage.restore_shared_memory`: else
    the next query dies of SIGBUS). Two ``stat`` calls."""
    opened = _local.__dict__.get("opened", {}).get(path)
    if opened is None or conn.in_transaction:
        return False
    restore_shared_memory(path)  # its -shm cut under this process's mapping: extended before the next read
    try:
        st = os.stat(path)
    except OSError:
        return True
    if (st.st_dev, st.st_ino) != opened:
        return True
    seen = _local.__dict__.setdefault("shapes", {})
    if seen.get(path) == (st.st_size, st.st_mtime_ns):
        return False
    seen[path] = (st.st_size, st.st_mtime_ns)
    return shape(path) or False


def _as_it_is(path: Path, exc: BaseException) -> sqlite3.Connection:
    """:func:`open_read_only`, or an index in memory (not cached) when ``path`` holds none of this schema."""
    conn = open_read_only(path, exc)
    if conn is not None:
        return conn
    return open_in_memory(path, f"cannot be written ({explain(exc, path)}) and holds no index to read", _create)


def remove_file(path: Path, what: str) -> None:
    """Delete ``path`` and its ``-wal``, ``-shm`` and ``-journal`` files; StoreError(``what``) when one stays."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        try:
            os.unlink(str(path) + suffix)
        except FileNotFoundError:
            pass
        except OSError as err:
            raise StoreError(f"{what} {path}: {err}") from None


def in_memory(home: Path) -> str | None:
    """Why the index of ``home`` is kept in memory in this process, or None."""
    return fallback_reason(db_path(home))


def forget(home: Path) -> None:
    """Close this thread's connection to the index of ``home``: it may read
    a file that was moved aside; the next :func:`connect` opens the one at the path."""
    conn = getattr(_local, "conns", {}).pop(db_path(home), None)
    if conn is not None:
        conn.close()


def close_all() -> None:
    """Close this thread's index connections (tests, long-lived servers)."""
    for conn in getattr(_local, "conns", {}).values():
        conn.close()
    _local.conns = {}


@lru_cache(maxsize=256)  # pure: a search asks ≈ 8 times for the same two layers (0.2 ms of Path parsing a search)
def layer_key(home: Path, layer_dir: Path) -> str:
    """How the index names a layer: its directory relative to the home
    (``_user``, ``projects/<key>``), or the full path when it is elsewhere (a team layer). A path that is not
    UTF-8 (a clone at ``/w/caf\\xe9``: SQLite stores UTF-8 text only) is named ``~bytes/`` and its bytes in hex,
    a form no other key takes (no layer under the home is named so, and a full path starts with ``/``)."""
    try:
        key = Path(layer_dir).relative_to(home).as_posix()
    except ValueError:
        key = Path(layer_dir).as_posix()
    if key.isascii():
        return key
    try:
        key.encode("utf-8")
    except UnicodeEncodeError:
        return "~bytes/" + os.fsencode(key).hex()
    return key


# ---------------------------------------------------------------- when the file cannot be written


# SQLite result codes (the low byte of an extended code) that mean "cannot write here now":
# SQLITE_READONLY, SQLITE_IOERR, SQLITE_FULL, SQLITE_CANTOPEN. A full disk shows as FULL in a write and
# as IOERR or CANTOPEN when SQLite cannot create its -wal/-shm files at open.
_CANNOT_WRITE = (8, 10, 13, 14)


def cannot_write(exc: BaseException) -> bool:
    """True when ``exc`` (a ``sqlite3.Error``) says the index cannot be
    written now — a full disk, a read-only file or directory, an I/O error —
    so reading it as it is may still answer."""
    code = getattr(exc, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in _CANNOT_WRITE


def disk_full(exc: BaseException, path: Path | None = None) -> bool:
    """True when ``exc`` means the disk is full: ``ENOSPC`` or ``EDQUOT``
    from the OS, or — with ``path`` (the index) on a file system with no free
    block left — SQLITE_FULL or the I/O error SQLite gives instead when a
    full disk stops it making its ``-shm`` file at open
    (SQLITE_IOERR_SHMSIZE, SQLITE_CANTOPEN). A SQLITE_FULL with room on the
    disk is a database at its page limit, not a full disk."""
    if isinstance(exc, OSError):
        return exc.errno in (errno.ENOSPC, errno.EDQUOT)
    if path is None or (getattr(exc, "sqlite_errorcode", None) or 0) & 0xFF not in (10, 13, 14):
        return False
    try:
        return os.statvfs(Path(path).parent).f_bavail == 0
    except (OSError, AttributeError):  # no statvfs (Windows): SQLite's own word stands
        return False


def explain(exc: BaseException, path: Path | None = None) -> str:
    """``exc``'s message with SQLite's name for it (``database or disk is full
    (SQLITE_FULL)``); with ``path`` (the index), a full disk
    (:func:`disk_full`) is reported as one first, by its OS code, with what
    SQLite said after it: ``the disk is full (ENOSPC; SQLite: disk I/O error,
    SQLITE_IOERR_SHMSIZE)``."""
    name = getattr(exc, "sqlite_errorname", None)
    text = f"{exc} ({name})" if name and name not in str(exc) else str(exc)
    if not disk_full(exc, path):
        return text
    if isinstance(exc, OSError):
        return f"the disk is full ({errno.errorcode.get(exc.errno, exc.errno)}: {exc.strerror or exc})"
    return f"the disk is full (ENOSPC; SQLite: {exc}, {name})" if name else f"the disk is full (ENOSPC; {exc})"


class ReadOnly(sqlite3.Connection):
    """A connection of :func:`open_read_only`; ``why`` it is read-only; ``scripts``: False for an index of
    :data:`~memdir.search.schema.READABLE_WITHOUT_SCRIPTS`, which holds no memory's script."""

    why = ""
    scripts = True


_READ_ONLY: dict[Path, str] = {}


def open_read_only(path: Path, exc: BaseException) -> sqlite3.Connection | None:
    """A read-only connection to the index at ``path``, which cannot be
    written now (``exc``: a full disk, a read-only file or home): search and
    recall answer from it as it is. Not cached: the next :func:`connect`
    tries a normal open again, so a process outlives a full disk. ``mode=ro``
    first; when even that cannot open (no room for the ``-shm`` file, a
    read-only directory), ``immutable`` (no locking: a concurrent writer could
    be seen half-way, but on a full disk no writer gets far).
    :func:`read_only_reason` says why (doctor). None when the file holds no
    index of this schema or of :data:`~memdir.search.schema.READ_AS_THEY_ARE`
    (an empty file left by a failed create, an older one); raises
    :class:`StoreError` when it cannot be read."""
    why = (f"the search index {path} cannot be written ({explain(exc, path)}); "
           "search and recall answer from it as it is")
    uri = Path(path).resolve().as_uri()
    last: BaseException = exc
    for mode in ("mode=ro", "immutable=1"):
        try:
            conn = sqlite3.connect(f"{uri}?{mode}", uri=True, timeout=5.0, isolation_level=None,
                                   check_same_thread=False, factory=ReadOnly)
            conn.why = why
            try:
                version = conn.execute("PRAGMA user_version").fetchone()[0]
                if version in (SCHEMA_VERSION, *READ_AS_THEY_ARE):
                    conn.execute("SELECT count(*) FROM docs").fetchone()
            except sqlite3.DatabaseError:
                conn.close()
                raise
            if version not in (SCHEMA_VERSION, *READ_AS_THEY_ARE):
                conn.close()
                return None  # another schema's rows (or none) cannot be read as ours
            conn.scripts = version != READABLE_WITHOUT_SCRIPTS
            _READ_ONLY[Path(path)] = why
            return conn
        except sqlite3.DatabaseError as err:
            last = err
    raise StoreError(f"cannot open the search index {path}: {explain(exc, path)}; reading it as it is failed too: "
                     f"{explain(last)}") from None


def read_only_reason(home: Path) -> str | None:
    """Why this process last read the index of ``home`` read-only, or None."""
    return _READ_ONLY.get(db_path(home))


# ---------------------------------------------------------------- a damaged index


CORRUPT_SUFFIX = ".corrupt-"  # index.sqlite.corrupt-<UTC time>: a damaged index, kept aside
KEEP_CORRUPT = 2  # damaged copies kept; older ones are deleted (the index is derived)


def set_aside(home: Path, why: str, *, say: bool = True) -> Path | None:
    """Move the damaged index of ``home`` (and its ``-wal``/``-shm``) aside to ``index.sqlite.corrupt-<UTC
    time>``, kept for a look (the newest :data:`KEEP_CORRUPT`), and close this thread's connection to it: the
    next :func:`connect` builds a new one from the memory files. One line on stderr says so and why, unless
    ``say`` is false (:func:`memdir.search.rebuild.check` tells it in its result). Returns where it went, None when it was gone.
    Raises :class:`StoreError` when it cannot be moved."""
    path = db_path(home)
    forget(home)
    aside = path.with_name(f"{path.name}{CORRUPT_SUFFIX}{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}")
    try:
        os.replace(path, aside)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise StoreError(f"cannot move the damaged search index {path} aside: {exc}") from None
    for suffix in ("-wal", "-shm"):
        try:
            os.replace(str(path) + suffix, str(aside) + suffix)
        except OSError:
            pass
    kept = sorted(p for p in path.parent.glob(f"{path.name}{CORRUPT_SUFFIX}*") if p.name[-4:] not in ("-wal", "-shm"))
    for old in kept[:-KEEP_CORRUPT]:
        try:
            remove_file(old, "cannot remove an old damaged search index")
        except StoreError:
            pass  # a directory someone put there: kept
    if say:
        warn(f"the search index {path} was damaged ({why}); moved aside to {aside.name} and rebuilt from the memory files")
    return aside


# ---------------------------------------------------------------- when the file cannot be used


_REASONS: dict[Path, str] = {}


def open_in_memory(path: Path, why: str, create) -> sqlite3.Connection:
    """An index in memory for a home where ``path`` (its ``index.sqlite``)
    cannot be created or holds none to read — a read-only home, another
    user's, a full disk (``why``: "cannot be created (…)") — made by
    ``create(conn)`` and filled from the memory files by the same sync, so
    search and recall still answer, at the cost of a full scan per process.
    Warned once on stderr; :func:`fallback_reason` says why (doctor)."""
    reason = (f"the search index {path} {why}; searching an in-memory index "
              "built from the memory files instead (each process scans them again)")
    if path not in _REASONS:
        warn(reason)
    _REASONS[path] = reason
    conn = sqlite3.connect(":memory:", isolation_level=None, check_same_thread=False)
    create(conn)
    return conn


BUSY_CODES = (5, 6)  # SQLITE_BUSY, SQLITE_LOCKED (the low byte of an extended code)


def while_busy(step, seconds: float = 5.0) -> None:
    """Run ``step`` (one setup statement of a new index) again while SQLite
    says the file is busy, for up to ``seconds``. Switching to WAL returns
    SQLITE_BUSY at once when another connection opens the same new file,
    without calling the busy handler: six threads opening a fresh index
    together failed 1 time in 20 before this."""
    deadline = time.monotonic() + seconds
    pause = 0.002
    while True:
        try:
            step()
            return
        except sqlite3.OperationalError as exc:
            code = getattr(exc, "sqlite_errorcode", None)
            if code is None or code & 0xFF not in BUSY_CODES or time.monotonic() >= deadline:
                raise
            time.sleep(pause)
            pause = min(pause * 2, 0.05)


def warn(text: str) -> None:
    """``memdir: warning: <text>`` on stderr, best effort: a stderr that is a
    file on the full disk (a warm process's log) must not fail the read it
    warns about."""
    try:
        sys.stderr.write(f"memdir: warning: {text}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def fallback_reason(path: Path) -> str | None:
    """Why the index at ``path`` is kept in memory in this process, or None."""
    return _REASONS.get(Path(path))


__all__ = ["BUSY_CODES", "CORRUPT_SUFFIX", "FIELDS", "INDEX_DB", "KEEP_CORRUPT", "ReadOnly", "SCHEMA_VERSION", "cannot_write",
           "write_transaction", "close_all", "connect", "damaged", "db_path", "disk_full", "explain", "fallback_reason",
           "forget", "in_memory", "is_corrupt", "layer_key", "open_in_memory", "open_read_only", "read_only_reason",
           "remove_file", "set_aside", "warn", "while_busy"]
