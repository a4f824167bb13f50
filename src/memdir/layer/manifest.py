"""What a layer's last transaction learned of its files, kept for the next process (issue 28 §7).

A fresh process (a CLI write, the first ``memory_write`` of an MCP server) must not parse every
file of a layer to change one. ``.memdir/manifest.sqlite`` — derived, rebuilt by any full sweep,
safe to delete — holds, as of the end of the last transaction:

* ``files``: each memory file's stat key (size, ctime, inode), digest, the name it holds or why it
  is not a memory, and the digest of its description and body (``text``: what an exact duplicate
  shares, :func:`memdir.files.memfile.text_digest`, so a write finds a copy by lookup) — the scan's
  cache (:class:`memdir.files.scan.FileState` without the parse) — indexed by text and by name (the
  files holding a name: :meth:`Manifest.files_holding`, for the search index's sync);
* ``heads``: the journal's last recorded version of each name (:meth:`memdir.layer.journal.Journal.heads`),
  so the journal is not re-read;
* ``lasts``: each name's :class:`memdir.layer.lasts.Last` (its content versions counted, the last one's
  digest and, for a hand edit, its time), so a write tells a hand edit it replaces without reading the
  journal (:mod:`memdir.layer.lasts`); whole once a save counted them from the journal (``meta``
  ``lasts``: an older manifest has none, and its next save counts them);
* ``idx``: the sort key of each line of ``MEMORY.md`` (:class:`memdir.layer.index.IndexBuilder`), so
  one changed memory moves one line, and every memory's :class:`memdir.layer.index.Facts` (what its
  line's place depends on, and the line), so a new day, or reads counted since, order the lines again
  without reading the files;
* ``meta``: the stamps it was true for — the layer directory's mtime (any file added, removed or
  renamed moves it), the journal's (size, mtime) (any event moves it), ``MEMORY.md``'s and the usage
  file's stat keys — and when every file was last stat'ed (``swept_ns``).

:meth:`Manifest.load` answers None unless those stamps still hold, so a manifest is trusted only
while nothing but an in-place edit of a file could have happened behind memdir's back; what
checks such an edit is :meth:`memdir.layer.transaction.Transaction.fresh` (the file a write
touches) and the next sweep (:func:`memdir.files.sweeps.sweep_can_wait`). Never fsynced: after a crash
the stamps no longer match and the next transaction sweeps. A sweep (which stats every file) also
takes the heads and the index keys while only the directory's mtime moved (``moved``: a file added,
removed or replaced by hand), the rows then a cache checked file by file by stat key; a file whose
stat key moved is read, and parsed only when its bytes did too. Every error reads as "no manifest".
Its rows and heads are looked up one query at a time by :class:`memdir.layer.lookups.Lookups`.
"""

from __future__ import annotations

import json
import os
import sqlite3
import stat
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from operator import itemgetter
from pathlib import Path

from ..files.layout import MANIFEST_FILE
from ..files.scan import FileState
from .events import Event, changes_content
from .index import Facts
from .lasts import Last, fold
from .lookups import Heads, Lookups
from .rows import Rows

FORMAT = "8"  # 8: a text digest folds letters as names do (text.values, break13): older rows are swept again
RACY_NS = 2_000_000_000  # a file changed this close to the save may change again unseen: its ctime is kept as 0
RACY_READS = 32  # racy rows a reader compares by content (Manifest.differs); more: a take-up
_SCHEMA = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value);
CREATE TABLE IF NOT EXISTS files (file TEXT PRIMARY KEY, size INTEGER, ctime_ns INTEGER, ino INTEGER,
                                  digest TEXT, name TEXT, error TEXT, text TEXT, notes TEXT);
CREATE TABLE IF NOT EXISTS heads (name TEXT PRIMARY KEY, digest TEXT);
CREATE TABLE IF NOT EXISTS lasts (name TEXT PRIMARY KEY, versions INTEGER, digest TEXT, hand TEXT);
CREATE TABLE IF NOT EXISTS idx (name TEXT PRIMARY KEY, unpinned INTEGER, score REAL, facts TEXT);
CREATE INDEX IF NOT EXISTS files_text ON files (text);
CREATE INDEX IF NOT EXISTS files_name ON files (name);
CREATE INDEX IF NOT EXISTS idx_order ON idx (unpinned, score, name) WHERE score IS NOT NULL;
"""
_KEYS: dict[Path, tuple] = {}  # manifest path -> (its stat3, {file: (size, ctime_ns, ino)} or None)


@dataclass
class Stamps:
    """What a manifest is true for (see the module docstring); ``None`` members never match."""

    directory: int | None
    journal: tuple[int, int] | None
    index: tuple[int, int, int] | None = None
    usage: tuple[int, int, int] | None = None


@dataclass
class Saved:
    """A trusted manifest: the files (file name → state, no parsed entries, each row read when first
    asked for: :class:`memdir.layer.rows.Rows`), the journal's heads,
    when every file was last stat'ed (epoch ns), and the index's line keys (name → ``(unpinned,
    -score, name)``) with its deadline (epoch ns, 0: none) when ``MEMORY.md`` is still the one they
    describe (else None); ``usage_same``: the layer's usage file is the one they were made with
    (else the read counts moved since: the lines are ordered again, :meth:`Manifest.load_facts`)."""

    files: "Rows"
    heads: dict[str, str]
    swept_ns: int
    index: tuple[dict[str, tuple], int] | None = None
    usage_same: bool = True
    index_key: tuple | None = field(default=None, repr=False)
    index_copied: bool = False  # MEMORY.md of the size and mtime recorded, another inode or ctime: see _copied
    # MEMORY.md changed otherwise (edited or removed by hand): the keys given all the same, the lines taken from the
    # manifest (Manifest.index_lines), never from the file — no memory file read to write it again (break44b)
    index_edited: bool = False


def stat3(path: Path) -> tuple[int, int, int] | None:
    """(size, mtime ns, inode) of ``path``, None when it cannot be stat'ed."""
    try:
        st = os.stat(path, follow_symlinks=False)
    except OSError:
        return None
    return (st.st_size, st.st_mtime_ns, st.st_ino)


_saved_sweeps: dict[Path, int] = {}  # manifest path -> the sweep time (epoch ns) this process last saved there


class Manifest(Lookups):
    """The manifest file of one layer's meta directory ``meta`` (its lookups one row at a time:
    :class:`memdir.layer.lookups.Lookups`)."""

    def __init__(self, meta: Path):
        self.path = Path(meta) / MANIFEST_FILE

    def _connect(self) -> sqlite3.Connection:
        if not self.exists():  # private, like everything memdir creates; a link there is replaced, not followed
            if os.path.lexists(self.path):
                os.unlink(self.path)
            os.close(os.open(self.path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600))
        conn = sqlite3.connect(self.path, isolation_level=None)
        conn.execute("PRAGMA synchronous=OFF")
        conn.execute("PRAGMA journal_mode=MEMORY")
        return conn

    def exists(self) -> bool:
        """Whether a manifest file is there (trusted or not); False when that cannot be known (a
        layer of another user's)."""
        try:
            return stat.S_ISREG(os.lstat(self.path).st_mode)  # a symlink there is never followed
        except OSError:
            return False

    def differs(self, files: Mapping[str, FileState], read: Callable[[str], str | None] | None = None) -> bool:
        """Whether ``files`` (a scan's: file name → state) differ from the files the manifest
        records — a file added, removed, or whose stat key moved (a hand edit in place) — or there
        is none while ``files`` is not empty. A row kept racy (:data:`RACY_NS`: its ctime stored as 0)
        whose size and inode still match differs only if its bytes do: ``read(file)`` gives the
        digest of the file as it is now (:func:`memdir.files.fsio.digest`; None when unreadable) and
        is compared with the recorded one (at most :data:`RACY_READS` such files, else it differs) — the digest
        of the scan's state when it has one (the scan read the file under that key: no second read);
        without ``read`` a racy row always differs. So the file a write just made costs a reader one
        file read, not a take-up of the whole layer — and, once its ctime is RACY_NS old, costs the
        readers after it none (:meth:`_settle`). The rows are read once per manifest file
        version (cached by its stat key). Never raises."""
        key = stat3(self.path)
        cached = _KEYS.get(self.path)
        if cached is None or cached[0] != key:
            keys = None
            if key is not None and self.exists():
                try:
                    conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
                    try:
                        if conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() == (FORMAT,):
                            keys = {r[0]: r[1:] for r in conn.execute("SELECT file, size, ctime_ns, ino FROM files")}
                    finally:
                        conn.close()
                except sqlite3.Error:
                    keys = None
            if len(_KEYS) >= 16:
                _KEYS.clear()
            cached = _KEYS[self.path] = (key, keys)
        keys = cached[1]
        if keys is None:
            return bool(files)
        if len(keys) != len(files):
            return True
        racy = []
        for f, st in files.items():
            recorded = keys.get(f)
            if recorded == st[0]:
                continue
            if read is None or recorded is None or recorded[1] != 0 or (recorded[0], recorded[2]) != (st[0][0], st[0][2]):
                return True
            racy.append(f)
        if not racy:
            return False
        if len(racy) > RACY_READS:
            return True
        recorded = self._digests(racy)
        # The digest the scan's state holds, of the bytes it read under the stat key the file has now (its racy row
        # could not give it the state): not read again (before, every racy file was read twice by its first reader).
        if any(not recorded.get(f) or (files[f].digest or read(f)) != recorded[f] for f in racy):
            return True
        self._settle({f: files[f][0] for f in racy}, recorded)
        return False

    def _settle(self, keys: dict[str, tuple[int, int, int]], digests: dict[str, str]) -> None:
        """Racy rows whose files were just read and found as recorded (``keys``: the stat key each file
        had before it was read; ``digests``: the recorded digests): each row's ctime recorded, once that
        ctime is :data:`RACY_NS` old, so the next reader does not read the file again (re-read once, then
        trusted by its stat key). Only a row still as compared is changed (racy, same size, inode and
        digest); a file changed since has another ctime. Never raises, never waits for a writer."""
        now = _now_ns()
        rows = [(k[1], f, k[0], k[2], digests[f]) for f, k in keys.items() if now - k[1] > RACY_NS]
        if not rows or not self.exists():  # a symlink there is never opened
            return
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=rw", uri=True, timeout=0, isolation_level=None)
            try:
                conn.execute("BEGIN")
                conn.executemany("UPDATE files SET ctime_ns = ? WHERE file = ? AND ctime_ns = 0 AND size = ? AND ino = ? "
                                 "AND digest = ?", rows)
                conn.execute("COMMIT")
            finally:
                conn.close()
        except (sqlite3.Error, OSError):
            pass

    def _digests(self, files: list[str]) -> dict[str, str]:
        """The recorded digests of ``files`` ({} when the manifest cannot be read)."""
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                marks = ",".join("?" * len(files))
                return dict(conn.execute(f"SELECT file, digest FROM files WHERE file IN ({marks})", files))
            finally:
                conn.close()
        except (sqlite3.Error, OSError):
            return {}

    def load_files(self) -> dict[str, FileState] | None:
        """The files as last recorded, whatever changed since (each is checked by its stat key
        before use: :func:`memdir.files.scan.scan`'s ``known``); None when there is none. The stat keys
        read are kept for :meth:`differs` (the rows are read once). Never raises."""
        key = stat3(self.path)
        if key is None or not self.exists():
            return None
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                if conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone() != (FORMAT,):
                    return None
                rows = conn.execute("SELECT * FROM files").fetchall()
            finally:
                conn.close()
            if stat3(self.path) == key:  # not rewritten while read: the keys are those of this version
                if len(_KEYS) >= 16:
                    _KEYS.clear()
                _KEYS[self.path] = (key, {row[0]: row[1:4] for row in rows})
            return {row[0]: FileState((row[1], row[2], row[3]), row[4], row[5], row[6], None, row[7], _notes(row[8]))
                    for row in rows}
        except (sqlite3.Error, OSError, IndexError, ValueError, TypeError):
            return None

    def load(self, stamps: Stamps, *, files: bool = True, moved: bool = False) -> Saved | None:
        """The manifest when its stamps equal ``stamps`` (directory and journal), else None; the index keys
        with it, flagged :attr:`Saved.index_copied` or :attr:`Saved.index_edited` when ``MEMORY.md`` is not the
        file they were saved with. ``files`` False: only the heads and
        the index (the caller has the files). ``moved`` True: the directory's mtime may differ (a file
        added, removed or replaced behind memdir's back since): the heads and the index keys still
        hold while the journal is unchanged, for a caller that stats every file and journals what
        differs (a sweep: :meth:`memdir.layer.layer.Layer.refresh_index`) — the files are then only a
        cache, each row trusted while its stat key matches its file's. Never raises."""
        if stamps.directory is None or not self.exists():
            return None
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                meta = dict(conn.execute("SELECT key, value FROM meta"))
                if (meta.get("format") != FORMAT or (meta.get("directory") != stamps.directory and not moved)
                        or meta.get("journal") != _text(stamps.journal)):
                    return None
                found = Rows([], self, conn.execute("SELECT COUNT(*) FROM files").fetchone()[0]) if files else Rows([])
                heads = Heads(self)
                index, recorded = None, meta.get("index")
                copied = recorded != _text(stamps.index) and _copied(recorded, stamps.index)
                edited = recorded is not None and recorded != _text(stamps.index) and not copied
                if meta.get("deadline") is not None and recorded is not None:
                    order = conn.execute("SELECT unpinned, score, name FROM idx WHERE score IS NOT NULL "
                                         "ORDER BY unpinned, score, name").fetchall()
                    keys = dict(zip(map(itemgetter(2), order), order))
                    index = (keys, int(meta.get("deadline") or 0))
                return Saved(found, heads, int(meta.get("swept") or 0), index,
                             meta.get("usage") == _text(stamps.usage), index_copied=copied and index is not None,
                             index_edited=edited and index is not None)
            finally:
                conn.close()
        except (sqlite3.Error, OSError, ValueError, TypeError):
            return None

    def swept_if_holds(self, stamps: Stamps) -> int | None:
        """When the manifest is of the layer as it is (its directory's mtime and its journal's stat key
        are ``stamps``': nothing was added, removed or renamed since the last transaction but by it, as
        :meth:`load` trusts it), the wall time (epoch ns) its files were last all stat'ed — a sweep
        that may have taken up files changed by hand that no event names (a file renamed to a name
        that normalizes the same); else None. Never raises."""
        if stamps.directory is None or stamps.journal is None or not self.exists():
            return None
        rows = self._read("SELECT key, value FROM meta WHERE key IN ('format', 'directory', 'journal', 'swept')")
        meta = dict(rows or ())
        if (meta.get("format") != FORMAT or meta.get("directory") != stamps.directory
                or meta.get("journal") != _text(stamps.journal)):
            return None
        try:
            return int(meta.get("swept") or 0)
        except (TypeError, ValueError):
            return None

    def swept_saved(self) -> int | None:
        """The sweep time (epoch ns) this process last saved in this manifest (:meth:`save`'s ``swept_ns``),
        None when it saved none: read before and after a scan, a change says the scan's take-up of hand
        edits swept (:meth:`memdir.layer.layer.Layer.take_up`) — the search index's sync counts that sweep
        as its own (:func:`memdir.search.sync.sync_layer`). No I/O."""
        return _saved_sweeps.get(self.path)

    def load_facts(self) -> dict[str, Facts]:
        """Every memory's :class:`memdir.layer.index.Facts` as last recorded (name → facts; a memory
        with none recorded is missing). Never raises: {} when there is no manifest."""
        if not self.exists():
            return {}
        try:
            conn = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
            try:
                rows = conn.execute("SELECT name, facts FROM idx WHERE facts IS NOT NULL").fetchall()
            finally:
                conn.close()
            if not rows:
                return {}
            values = json.loads("[" + ",".join(text for _, text in rows) + "]")  # one parse, not 10,000
            return {name: _facts(name, value) for (name, _), value in zip(rows, values)}
        except (sqlite3.Error, OSError, ValueError, TypeError):
            return {}

    def index_lines(self) -> list[str] | None:
        """The line of each memory in ``MEMORY.md`` as the manifest keeps it (its :class:`Facts`'
        ``line``), in the order of the index keys :meth:`load` gives — the text memdir last wrote there,
        line by line; read in SQLite (``json_extract``), no facts parsed. None when one has no line kept
        or the manifest cannot be read."""
        rows = self._read(f"SELECT json_extract(facts, '$[{_LINE_AT}]') FROM idx WHERE score IS NOT NULL "
                          "ORDER BY unpinned, score, name")
        if rows is None or any(not isinstance(row[0], str) for row in rows):
            return None
        return [row[0] for row in rows]

    def save(self, stamps: Stamps, files: dict[str, FileState | None], heads: dict[str, str | None],
             index: tuple[dict[str, tuple | None], dict[str, Facts | None], int] | None, swept_ns: int | None,
             *, whole: bool, whole_index: bool = False, events: list[Event] | None = None,
             events_from: tuple[int, int] | None = None,
             journal: Callable[[], list[Event] | None] | None = None) -> dict[str, Last]:
        """Record the files, heads and index keys and facts given (``whole``: they are all of them;
        ``whole_index``: the index keys and facts are; else only what changed — None: gone) and the
        stamps. ``swept_ns`` None keeps the recorded sweep time. ``index`` None: no index keys are
        trusted. ``events``: the transaction's journal events, appended after the journal's stat key
        ``events_from``, which the ``lasts`` rows take in; ``journal()`` gives the whole journal's, for rows
        counted anew (:func:`_save_lasts`). Failing is harmless (the next
        process sweeps): errors are swallowed, the file removed; a file that is not a manifest
        is replaced (only with ``whole``: the rest would be missing). Returns the hand edits the
        transaction's writes replaced (name → the edit's :class:`memdir.layer.lasts.Last`; {}: none, or not
        known)."""
        lasts = (events, events_from, journal)
        for attempt in (1, 2):
            replaced = self._save(stamps, files, heads, index, swept_ns, whole, whole_index, lasts)
            if replaced is not None:
                return replaced
            self.drop()
            if not whole:
                return {}
        return {}

    def _save(self, stamps, files, heads, index, swept_ns, whole, whole_index, lasts) -> dict[str, Last] | None:
        now = _now_ns()
        try:
            conn = self._connect()
            try:
                conn.executescript(_SCHEMA)
                conn.execute("BEGIN")
                files = _with_recorded_text(conn, files)
                if whole:
                    conn.execute("DELETE FROM files")
                    conn.execute("DELETE FROM heads")
                if whole or whole_index or index is None:
                    conn.execute("DELETE FROM idx")
                conn.executemany("DELETE FROM files WHERE file = ?", [(f,) for f, s in files.items() if s is None])
                conn.executemany("INSERT OR REPLACE INTO files VALUES (?,?,?,?,?,?,?,?,?)",
                                 [(f, s.key[0], s.key[1] if now - s.key[1] > RACY_NS else 0, s.key[2], s.digest,
                                   s.name, s.error, s.text, _notes_text(s.notes))
                                  for f, s in files.items() if s is not None])
                replaced = _save_lasts(conn, *lasts, whole)
                conn.executemany("DELETE FROM heads WHERE name = ?", [(n,) for n, d in heads.items() if d is None])
                conn.executemany("INSERT OR REPLACE INTO heads VALUES (?,?)",
                                 [(n, d) for n, d in heads.items() if d is not None])
                if index is not None:
                    keys, facts, deadline = index
                    conn.executemany("DELETE FROM idx WHERE name = ?", [(n,) for n, f in facts.items() if f is None])
                    conn.executemany("INSERT OR REPLACE INTO idx VALUES (?,?,?,?)",
                                     [(n, None, None, _facts_text(f)) for n, f in facts.items() if f is not None])
                    conn.executemany("UPDATE idx SET unpinned = ?, score = ? WHERE name = ?",
                                     [(k[0], k[1], n) if k is not None else (None, None, n)
                                      for n, k in keys.items()])
                    conn.executemany("INSERT OR IGNORE INTO idx VALUES (?,?,?,NULL)",
                                     [(n, k[0], k[1]) for n, k in keys.items() if k is not None])
                values = {"format": FORMAT, "directory": stamps.directory, "journal": _text(stamps.journal),
                          "index": _text(stamps.index) if index is not None else None,
                          "usage": _text(stamps.usage), "deadline": deadline if index is not None else None}
                if swept_ns is not None:
                    values["swept"] = swept_ns
                conn.executemany("INSERT OR REPLACE INTO meta VALUES (?,?)", list(values.items()))
                conn.execute("COMMIT")
                if swept_ns is not None:
                    _saved_sweeps[self.path] = swept_ns
            finally:
                conn.close()
        except (sqlite3.Error, OSError):
            return None
        return replaced

    def drop(self) -> None:
        """Remove the manifest (the next transaction sweeps every file)."""
        try:
            os.unlink(self.path)
        except OSError:
            pass


def _save_lasts(conn: sqlite3.Connection, events: list[Event] | None, since: tuple[int, int] | None,
                journal: Callable[[], list[Event] | None] | None, whole: bool) -> dict[str, Last]:
    """Keep the ``lasts`` rows (:mod:`memdir.layer.lasts`) in step with the transaction's ``events``
    (appended after the journal's stat key ``since``) and return the hand edits its writes replaced
    (:func:`memdir.layer.lasts.fold`). Folded over the rows of their names (one indexed read, in this
    connection) when the rows are every name's and of that journal (the manifest's ``journal`` stamp is
    ``since``: no event of another process's missed); otherwise, and for a ``whole`` save, counted anew
    from ``journal()`` (the whole journal's events: once for a manifest an older memdir wrote); without
    it the rows go (unknown: nothing said). Runs inside :meth:`Manifest._save`'s transaction, before its
    ``meta`` is rewritten."""
    events = events or []
    meta = dict(conn.execute("SELECT key, value FROM meta WHERE key IN ('journal', 'lasts')"))
    if not whole and since is not None and meta.get("lasts") == "1" and meta.get("journal") == _text(since):
        names = sorted({e.name for e in events if e.name is not None and changes_content(e)})
        base: dict[str, Last | None] = {}
        for start in range(0, len(names), 500):
            part = names[start:start + 500]
            base.update((r[0], None if r[1] is None else Last(r[1], r[2], r[3])) for r in conn.execute(
                f"SELECT name, versions, digest, hand FROM lasts WHERE name IN ({','.join('?' * len(part))})", part))
        rows, replaced = fold(base, events)
    else:
        conn.execute("DELETE FROM lasts")
        conn.execute("DELETE FROM meta WHERE key = 'lasts'")
        every = journal() if journal is not None else None
        if every is None:
            return {}
        rows, replaced = fold({}, every, since_seq=events[0].seq if events else 1 << 62)
    conn.executemany("INSERT OR REPLACE INTO lasts VALUES (?,?,?,?)",
                     [(n, *(last if last is not None else (None, None, None))) for n, last in rows.items()])
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('lasts', '1')")
    return replaced


def _with_recorded_text(conn: sqlite3.Connection, files: dict[str, FileState | None]) -> dict[str, FileState | None]:
    """``files`` where a state taken from hints (a memory's, without a text digest: the search index's
    rows carry none) gets the text digest and lenient notes this manifest records for that file with
    the same bytes digest (both follow from the bytes). Without it, a save after the search index's
    sync recorded every such file's text as unknown, and each write then read and normalized every
    memory of the layer for its duplicate check (:func:`memdir.files.scan.holding`; 1,000 notes:
    ≈ 300 ms a write)."""
    hinted = [f for f, s in files.items() if s is not None and s.text is None and s.name is not None]
    if not hinted:
        return files
    recorded: dict[str, tuple] = {}
    for start in range(0, len(hinted), 500):
        part = hinted[start:start + 500]
        recorded.update((r[0], r[1:]) for r in conn.execute(
            f"SELECT file, digest, text, notes FROM files WHERE text IS NOT NULL AND file IN "
            f"({','.join('?' * len(part))})", part))
    if not recorded:
        return files
    kept = dict(files)
    for filename in hinted:
        row, state = recorded.get(filename), files[filename]
        if row is not None and row[0] == state.digest:
            kept[filename] = state._replace(text=row[1], notes=_notes(row[2]))
    return kept


def _copied(recorded: str | None, now: tuple | None) -> bool:
    """Whether ``MEMORY.md``'s stat ``now`` (:func:`memdir.files.layout.index_state`) differs from the
    ``recorded`` one only by its inode and ctime, as after a copy of the home that kept times
    (``shutil.copytree``, ``cp -a`` onto another disk, a backup restored): the index keys are then
    given (:attr:`Saved.index_copied`) only to be taken up once ``MEMORY.md``'s text is found to be the
    one they order, line for line (:meth:`memdir.layer.handover.HandsOver._take`): a hand edit that kept
    size and mtime is then seen, as its ctime shows it otherwise. Anything else moved: False."""
    if recorded is None or now is None:
        return False
    return recorded.split(":")[:2] == [str(now[0]), str(now[1])]


def _notes_text(notes: tuple[str, ...]) -> str | None:
    return json.dumps(list(notes), ensure_ascii=False) if notes else None


def _notes(text: str | None) -> tuple[str, ...]:
    return tuple(json.loads(text)) if text else ()


_LINE_AT = 10  # where _facts_text puts a memory's index line in its JSON array (Facts.line: facts[11])


def _facts_text(facts: Facts) -> str:
    return json.dumps([facts.pinned, facts.effective_importance, *map(_when, facts[3:6]), facts.reads, facts.status,
                       facts.disabled, _when(facts.valid_from), _when(facts.valid_until), *facts[11:]],
                      ensure_ascii=False, separators=(",", ":"))


def _facts(name: str, value: list) -> Facts:
    (pinned, importance, last_read, updated, created, reads, status, disabled, valid_from, valid_until,
     *rest) = value
    return Facts(name, pinned, importance, _time(last_read), _time(updated), _time(created), reads, status,
                 disabled, _time(valid_from), _time(valid_until), *rest)


def _when(moment) -> str | None:
    return None if moment is None else moment.isoformat()


def _time(text: str | None):
    return None if text is None else datetime.fromisoformat(text)


def _text(value) -> str | None:
    return None if value is None else ":".join(map(str, value))


def _now_ns() -> int:
    import time

    return time.time_ns()


__all__ = ["Manifest", "Rows", "Saved", "Stamps", "stat3"]
