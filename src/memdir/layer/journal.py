"""The journal and version objects of one layer (DESIGN §5).

* ``journal.jsonl``: one JSON object per line, append-only, hash-chained: each
  event's ``prev`` is the SHA-256 of the previous line's bytes (``null`` for the
  first). Appended under the layer lock in the same critical section as the
  file change it records. A torn last line (a writer killed mid-append) is cut
  off and kept in ``journal.torn`` the next time the journal is opened.
* ``objects/<sha256>``: the bytes of every version ever written, stored once.

The whole chain checked line by line (``memdir verify``, history's damaged
lines) is :mod:`memdir.layer.chain`. The caller holds the layer lock for every method that writes.
"""

from __future__ import annotations

import errno
import json
import os
import re
import stat
from collections.abc import Mapping
from datetime import datetime, timedelta, timezone
from pathlib import Path

from ..errors import NotFound, StoreError
from ..files.fsio import NOFOLLOW, atomic_write, digest, ensure_dir, nothing_written, read_bytes, writable_hint
from ..files.layout import ANCHOR_FILE, JOURNAL_FILE, OBJECTS_DIR, TORN_FILE
from ..text.agreement import agreeing
from ..text.plural import counted
from .events import (  # noqa: F401  (re-exported: the journal's events)
    BOOKKEEPING, BYTELESS, NOT_VERSIONS, Event, changes_content, iso_micro, now_utc, records_bytes)

ANCHOR_BYTES = 256  # the anchor's fixed size: rewritten in place with one write


# How far ahead of now a journaled time may lie and still be read as a clock set back since (a laptop's clock
# put back, a VM restored from a snapshot: held to, so the journal stays in order). Further ahead, the time was
# stamped by a clock set ahead (a machine booted at 2099-01-01): holding to it would date every later change
# then, for good, so it is not followed (the journal's order is its seq).
AHEAD_BOUND = timedelta(days=30)


class Journal:
    """Journal and objects under ``<layer>/.memdir``."""

    def __init__(self, meta_dir: Path):
        self.dir = meta_dir
        self.path = meta_dir / JOURNAL_FILE
        self.objects = meta_dir / OBJECTS_DIR
        self._tail: tuple[tuple[int, int], int, str | None] | None = None  # (stat key, seq, hash)
        self._tail_ts: tuple[tuple[int, int], str | None] | None = None  # (stat key, the last event's ts)
        self._events_cache: tuple[tuple[int, int], list[Event]] | None = None
        self._heads_cache: dict[str, str | None] | None = None
        self._heads_key: tuple[int, int] | None = None  # the journal stat key _heads_cache is of
        self._anchored: bytes | None = None  # the anchor this object last wrote
        self.chain_held_at: tuple[int, int] | None = None  # the stat key its chain was last found whole at (.chain)
        self._unsynced: bool | None = None  # inside batched(): None when not batching, True once a line awaits its fsync

    # ------------------------------------------------------------ objects

    def put_object(self, data: bytes) -> str:
        """Store ``data`` once under its SHA-256; return the digest."""
        key = digest(data)
        if not (path := self.objects / key).exists():
            ensure_dir(self.objects)
            # No fsync: the object duplicates bytes the memory file (fsynced) holds at
            # this moment, and a process crash keeps the page cache; a power loss can
            # only take the newest object, which `memdir verify` then names.
            atomic_write(path, data, sync=False)
        return key

    def has_object(self, key: str) -> bool:
        """True when the bytes with digest ``key`` are stored."""
        return bool(re.fullmatch(r"[0-9a-f]{64}", key or "")) and (self.objects / key).is_file()

    def get_object(self, key: str) -> bytes:
        """The bytes stored under ``key``. Raises :class:`NotFound`."""
        if not re.fullmatch(r"[0-9a-f]{64}", key or ""):
            raise NotFound(f"no version object {key!r}")
        data = read_bytes(self.objects / key)
        if data is None:
            raise NotFound(f"version object {key} is missing from {self.objects}")
        return data

    # ------------------------------------------------------------ appending

    def stat_key(self) -> tuple[int, int] | None:
        """(size, mtime in ns) of the journal file, None when it does not exist yet."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return None
        except OSError as exc:  # a layer this user cannot read
            raise StoreError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        return (st.st_size, st.st_mtime_ns)

    def repair(self) -> int:
        """Cut a torn last line off (kept in ``journal.torn``); return bytes cut.
        Call under the layer lock. Raises :class:`StoreError` when the journal is not a regular file (a FIFO,
        a device, a symlink): opening a FIFO waits for a writer that never comes, and every change and history
        of the layer waited with it, the lock held (break37)."""
        try:
            if not stat.S_ISREG(os.lstat(self.path).st_mode):
                raise StoreError(f"{self.path} is not a regular file; memdir keeps the layer's journal there "
                                 "(nothing was changed): put the journal back from a backup, then memdir verify")
            with open(self.path, "rb") as whole:  # read first: a sound journal is not opened for writing here
                size = whole.seek(0, os.SEEK_END)
                if size == 0:
                    return 0
                whole.seek(size - 1)
                if whole.read(1) == b"\n":
                    return 0
            with open(self.path, "rb+") as handle:
                size = handle.seek(0, os.SEEK_END)
                # Find the last newline; everything after it is a torn append.
                block = 1 << 16
                position = size
                cut = 0
                while position > 0:
                    start = max(0, position - block)
                    handle.seek(start)
                    chunk = handle.read(position - start)
                    index = chunk.rfind(b"\n")
                    if index >= 0:
                        cut = start + index + 1
                        break
                    position = start
                handle.seek(cut)
                torn = handle.read()
                keep_fd = os.open(self.dir / TORN_FILE, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o600)
                with open(keep_fd, "ab") as keep:
                    keep.write(torn + b"\n")
                handle.truncate(cut)
                handle.flush()
                os.fsync(handle.fileno())
                self._tail = None
                return len(torn)
        except FileNotFoundError:
            return 0
        except OSError as exc:
            raise StoreError(f"cannot repair {self.path}: {exc.strerror or exc}") from None

    def _last(self) -> tuple[int, str | None]:
        """(seq, hash) of the last event; (0, None) for an empty journal."""
        key = self.stat_key()
        if key is None:
            return 0, None
        if self._tail and self._tail[0] == key:
            return self._tail[1], self._tail[2]
        with open(self.path, "rb") as handle:
            size = handle.seek(0, os.SEEK_END)
            span = min(size, 1 << 16)
            while True:
                handle.seek(size - span)
                chunk = handle.read(span).rstrip(b"\n")
                index = chunk.rfind(b"\n")
                if index >= 0 or span == size:
                    line = chunk[index + 1:]
                    break
                span = min(size, span * 4)
        if not line:
            return 0, None
        try:
            last = json.loads(line)
            seq = int(last["seq"])
        except (ValueError, KeyError, TypeError):
            raise StoreError(f"{self.path}: last event is not valid JSON; run memdir verify") from None
        result = (seq, digest(line))
        self._tail = (key, result[0], result[1])
        self._tail_ts = (key, last.get("ts") if isinstance(last.get("ts"), str) else None)
        return result

    def clock(self) -> datetime:
        """The time a change journaled now is stamped with: now (UTC), never before the last event's ``ts``
        (a laptop's clock set back, a VM restored from a snapshot) — the journal's events, the history read
        from them and the tombstones a delete makes (:meth:`memdir.tombstones.stones.TombstoneFile.add`)
        stay in the order they were made — unless that ``ts`` is more than :data:`AHEAD_BOUND` (30 days)
        after now: a clock set ahead stamped it, and now is taken (else one change made at 2099 dated every
        later one 2099 for good). The one rule of a journaled time; a memory's ``updated`` follows
        it through :func:`memdir.layer.transaction.not_before`. Call under the layer lock. Raises
        :class:`StoreError` (a last line that is not JSON)."""
        now = now_utc()
        key = self.stat_key()
        if key is None:
            return now
        if not (self._tail_ts and self._tail_ts[0] == key):
            self._tail = None
            self._last()
        last = self._tail_ts[1] if self._tail_ts and self._tail_ts[0] == key else None
        if last is None or iso_micro(now) >= last:
            return now
        try:
            floor = datetime.fromisoformat(last)
        except ValueError:  # a hand-written ts: no floor from it
            return now
        if not floor.tzinfo:
            return now
        floor = floor.astimezone(timezone.utc)
        return now if floor - now > AHEAD_BOUND else max(now, floor)  # far ahead: a clock set ahead, not followed

    def append(self, actor: str, action: str, name: str | None, before: str | None,
               after: str | None, reason: str | None = None, session: str | None = None,
               data: dict | None = None, ts: datetime | None = None) -> Event:
        """Append one event (fsync'd) and return it. Call under the layer lock."""
        ensure_dir(self.dir)
        seq, prev = self._last()
        event = Event(seq + 1, iso_micro(ts or self.clock()), actor, action, name, before, after,
                      reason, session, prev, dict(data or {}))
        line = event.to_line()
        self._write_line(line + b"\n")
        key_before = self._tail[0] if self._tail else None
        key = self.stat_key()
        if key is not None:
            self._tail = (key, event.seq, digest(line))
            self._tail_ts = (key, event.ts)
            # Keep the parsed-events cache and the heads in step instead of re-reading the file.
            if self._events_cache and self._events_cache[0] == key_before and seq == (
                    self._events_cache[1][-1].seq if self._events_cache[1] else 0):
                self._events_cache[1].append(event)
                self._events_cache = (key, self._events_cache[1])
            else:
                self._events_cache = None
            try:
                if self._heads_cache is None or self._heads_key != key_before or key_before is None:
                    raise LookupError("the heads are of another state of the journal")
                if records_bytes(event):
                    if event.after is None:
                        self._heads_cache.pop(event.name, None)
                    else:
                        self._heads_cache[event.name] = event.after
                self._heads_key = key
            except LookupError:  # also a manifest's heads (prime_heads) that cannot be read: re-read when asked
                self._heads_cache = self._heads_key = None
        return event

    def batched(self) -> "Batch":
        """A context manager under which :meth:`append` writes each line at once but fsyncs none: the
        journal is fsynced once when the block ends (also when it raises). For the hand-edit sweep
        (:func:`memdir.layer.commit.sweep`), whose lines record bytes already on disk: a line a power
        loss takes before that fsync is journaled again by the next sweep, nothing is lost — the one
        fsync per batch instead of per file took 8,000 hand-placed files from minutes to a second.
        A process killed in the block leaves whole lines (and at most one torn last line, which
        :meth:`repair` cuts). Nests: an inner block syncs nothing. Raises :class:`StoreError` (the
        final fsync failed)."""
        return Batch(self)

    def replace_whole(self, payload: bytes) -> None:
        """Write the journal anew as ``payload`` (atomically, fsynced) and forget what was read of it:
        :func:`memdir.layer.chain.rechain` alone, which kept the old one first. Call under the layer lock.
        Raises :class:`StoreError`."""
        atomic_write(self.path, payload)
        self._tail = self._events_cache = self._heads_cache = self._heads_key = None

    def _write_line(self, payload: bytes) -> None:
        """Append ``payload`` whole and fsync it — the commit point of every
        change. A failed or short write (on a regular file: the disk is full)
        is cut off again and raises :class:`StoreError`, so no torn line is
        left for the next transaction to take for a hand edit."""
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | NOFOLLOW, 0o600)
        except OSError as exc:  # a journal made read-only by hand: said as a read-only home is, with its remedy
            raise StoreError(nothing_written(self.path, f"the journal {self.path}")
                             or f"cannot append to {self.path}: {exc.strerror or exc}") from None
        try:
            start = os.fstat(fd).st_size
            written = os.write(fd, payload)
            if written != len(payload):
                raise OSError(errno.ENOSPC, f"short write ({written} of {len(payload)} bytes)")
            if self._unsynced is None:
                os.fsync(fd)
            else:
                self._unsynced = True  # synced once, when the batch ends (batched)
        except OSError as exc:
            try:
                os.ftruncate(fd, start)
                os.fsync(fd)
            except (OSError, UnboundLocalError):
                pass  # the torn tail is cut by repair() before the next change
            raise StoreError(f"cannot append to {self.path}: {exc.strerror or exc}") from None
        finally:
            os.close(fd)

    # ------------------------------------------------------------ the anchor

    def anchor(self) -> None:
        """Keep the journal's head — last seq, the hash of its line and the
        journal's size after it — apart from the journal, in ``journal.anchor``,
        so :meth:`check_anchor` names a journal cut short, emptied, deleted or
        with its last line edited. Written after each transaction; not fsynced
        (after a power loss it may lag behind the journal, which the check
        accepts). Raises :class:`StoreError`."""
        seq, line_hash = self._last()
        key = self.stat_key()
        payload = json.dumps({"seq": seq, "hash": line_hash, "size": key[0] if key else 0,
                              "mtime": key[1] if key else 0}).encode()
        payload = payload.ljust(ANCHOR_BYTES - 1) + b"\n"
        if self._anchored == payload:
            return
        # Overwritten in place, one small write at offset 0 (no rename: this runs in
        # every lock window). A write cut by a power loss leaves an anchor that does
        # not parse, which the check takes as no anchor.
        try:
            fd = os.open(self.dir / ANCHOR_FILE, os.O_WRONLY | os.O_CREAT | NOFOLLOW, 0o600)
            try:
                os.pwrite(fd, payload, 0)
            finally:
                os.close(fd)
        except OSError as exc:
            raise StoreError(f"cannot write {self.dir / ANCHOR_FILE}: {exc.strerror or exc}") from None
        self._anchored = payload

    def anchor_refusal(self, write: bool = True) -> str | None:
        """Why ``journal.anchor`` cannot be kept (not a regular file, not writable;
        ``write`` False asks only :func:`os.access`), or None. A change is refused
        then: a journal whose head is not anchored could be cut unnoticed."""
        path = self.dir / ANCHOR_FILE
        try:
            st = os.lstat(path)
        except FileNotFoundError:
            return None
        except OSError as exc:
            return f"cannot check {path}: {exc.strerror or exc}"
        if not stat.S_ISREG(st.st_mode):
            return f"{path} is not a regular file; memdir keeps the journal's anchored head there: remove it"
        if not write:
            return None if os.access(path, os.W_OK) else f"{path} is not writable: {writable_hint(path)}"
        try:
            os.close(os.open(path, os.O_WRONLY | NOFOLLOW | getattr(os, "O_NONBLOCK", 0)))
        except OSError as exc:
            return f"cannot write {path}: {exc.strerror or exc}; {writable_hint(path)}"
        return None

    def check_anchor(self) -> str | None:
        """Why the journal does not reach its anchored head, or None when it
        does (or no anchor was ever written). Reads one line, not the whole
        journal: it runs before every change. Never raises for bad data."""
        try:
            if (head := self.anchored()) is None:
                return None  # never anchored, or cut by a power loss mid-write
            seq, line_hash, size = int(head["seq"]), head["hash"], int(head["size"])
            if seq == 0:
                return None
            key = self.stat_key()
            if key is None:
                return f"the journal is missing; its anchored head is event {seq}"
            if key[0] == 0:
                return f"the journal is empty; its anchored head is event {seq}"
            if key[0] < size:
                last = self._last()[0] if self._last_line_complete() else None
                cut = seq - last if last is not None else 0
                if cut > 0:
                    return (f"the journal ends at event {last} but its anchored head is event {seq}: "
                            f"the last {counted(cut, 'line')} {agreeing(cut, 'was')} removed")
                if cut == 0 and digest(self._line_ending_at(key[0])) == line_hash:  # the head whole, moved up
                    return (f"the journal is {counted(size - key[0], 'byte')} shorter than when event {seq} was "
                            "anchored, its last line as it was: a line before it was cut or edited")
                return f"event {seq} (the anchored head) was edited"
            if digest(self._line_ending_at(size)) != line_hash:
                return f"event {seq} (the anchored head) was edited"
            return None
        except (StoreError, OSError) as exc:
            return f"cannot check the journal's head: {exc}"

    def anchored(self) -> dict | None:
        """The anchored head as :meth:`anchor` wrote it (``seq``, ``hash``, ``size``; ``mtime``: the
        journal's mtime in ns then, absent from an older memdir's), or None: never anchored, or not
        whole (a power loss mid-write). Raises :class:`StoreError` (unreadable)."""
        raw = read_bytes(self.dir / ANCHOR_FILE)
        try:
            head = json.loads(raw) if raw is not None else None
            return head if isinstance(head, dict) and int(head["seq"]) >= 0 and int(head["size"]) >= 0 \
                and (head["hash"] is None or isinstance(head["hash"], str)) else None
        except (ValueError, KeyError, TypeError):
            return None

    def _last_line_complete(self) -> bool:
        try:
            self._last()
            return True
        except StoreError:
            return False

    def _line_ending_at(self, end: int) -> bytes:
        """The journal line whose newline ends at byte ``end``."""
        with open(self.path, "rb") as handle:
            span = min(end, 4096)
            while True:
                handle.seek(end - span)
                chunk = handle.read(span)
                if not chunk.endswith(b"\n"):
                    return chunk  # not a line boundary: cannot be the anchored line
                index = chunk.rstrip(b"\n").rfind(b"\n")
                if index >= 0 or span == end:
                    return chunk[index + 1:].rstrip(b"\n")
                span = min(end, span * 4)

    # ------------------------------------------------------------ reading

    def events(self) -> list[Event]:
        """Every complete event in order (a torn tail is ignored, not repaired)."""
        key = self.stat_key()
        if key is None:
            return []
        if self._events_cache and self._events_cache[0] == key:
            return self._events_cache[1]
        self._heads_cache = None
        events = []
        data = read_bytes(self.path) or b""
        for raw in data.split(b"\n"):
            if not raw.strip():
                continue
            try:
                events.append(Event.from_json(json.loads(raw)))
            except (ValueError, KeyError, TypeError):
                continue  # chain.verify reports it; readers skip it
        self._events_cache = (key, events)
        return events

    def heads(self) -> dict[str, str]:
        """name → digest of the last recorded version, for names not deleted.
        The returned dict is shared: do not modify it. Read from the journal
        once per process, or not at all when :meth:`prime_heads` gave them
        for the journal as it is."""
        key = self.stat_key()
        if self._heads_cache is not None and key is not None and self._heads_key == key:
            whole = getattr(self._heads_cache, "whole", None)  # a manifest's heads, read when asked for
            try:
                return whole() if whole is not None else self._heads_cache
            except LookupError:
                pass
        events = self.events()
        heads: dict[str, str | None] = {}
        for event in events:
            if records_bytes(event):
                if event.after is None:
                    heads.pop(event.name, None)
                else:
                    heads[event.name] = event.after
        self._heads_cache, self._heads_key = heads, key
        return heads

    def head(self, name: str) -> str | None:
        """The digest of the last recorded version of ``name`` (None: none, or deleted): of
        :meth:`heads`, read alone from primed heads (:meth:`prime_heads`) that read each when asked."""
        key = self.stat_key()
        if self._heads_cache is not None and key is not None and self._heads_key == key:
            try:
                return self._heads_cache.get(name)
            except LookupError:
                pass
        return self.heads().get(name)

    def prime_heads(self, heads: Mapping[str, str], key: tuple[int, int] | None) -> None:
        """Take ``heads`` as :meth:`heads` of the journal while its stat key is ``key`` (kept by
        :mod:`memdir.layer.manifest`: a mapping that reads each head when asked for, and every one
        through its ``whole()``), so a fresh process does not re-read the journal."""
        self._heads_cache, self._heads_key = heads, key

    def line_digest(self, end: int) -> str | None:
        """The digest of the journal line whose newline ends at byte ``end`` (the chain's ``prev`` of
        the event after it); None for ``end`` 0, or when ``end`` is no line's end. Never raises."""
        if end <= 0:
            return None
        try:
            with open(self.path, "rb") as handle:
                handle.seek(end - 1)
                if handle.read(1) != b"\n":
                    return None
            return digest(self._line_ending_at(end))
        except OSError:
            return None

    def events_after(self, end: int, last: str | None) -> list[Event] | None:
        """The events appended after byte ``end`` of the journal, whose line ending there has the
        digest ``last`` (:meth:`line_digest`; None for ``end`` 0): what the layer's writers recorded
        since a reader last looked (the search index's sync, :mod:`memdir.search.follow`). None when
        the journal is not that one grown — shorter, that line changed, the chain broken, a line
        that does not parse or a torn tail — so the caller looks at the files instead. Never raises."""
        if self.line_digest(end) != last:
            return None
        try:
            with open(self.path, "rb") as handle:
                handle.seek(end)
                data = handle.read()
        except OSError:
            return None
        if data and not data.endswith(b"\n"):
            return None
        events, prev = [], last
        for raw in data.split(b"\n")[:-1] if data else []:
            try:
                event = Event.from_json(json.loads(raw))
            except (ValueError, KeyError, TypeError):
                return None
            if event.prev != prev:
                return None
            events.append(event)
            prev = digest(raw)
        return events

    def referenced(self) -> set[str]:
        """Every object digest some event names (before or after)."""
        return {key for event in self.events() for key in (event.before, event.after) if key}

    def references(self, key: str) -> bool:
        """Whether some event names object ``key`` (before or after): :meth:`referenced` asked of one key,
        the journal's bytes searched for it and only the lines that hold it parsed (a sweep of a few names:
        no event of a 10,000-event journal decoded)."""
        cached = self._events_cache
        if cached and cached[0] == self.stat_key():
            return any(key in (event.before, event.after) for event in cached[1])
        data = read_bytes(self.path) or b""
        needle, at = key.encode("ascii"), 0
        while (at := data.find(needle, at)) >= 0:
            start, end = data.rfind(b"\n", 0, at) + 1, data.find(b"\n", at)
            try:
                event = Event.from_json(json.loads(data[start:end if end >= 0 else len(data)]))
            except (ValueError, KeyError, TypeError):
                event = None
            if event is not None and key in (event.before, event.after):
                return True
            at = end if end >= 0 else len(data)
        return False

    def last_event(self) -> Event | None:
        """The last event (None: an empty journal, or a last line that is no event or is torn). One line read."""
        try:
            return Event.from_json(json.loads(self._line_ending_at((self.stat_key() or (0,))[0]) or b"-"))
        except (ValueError, KeyError, TypeError, OSError, StoreError):
            return None


class Batch:
    """:meth:`Journal.batched`'s context manager: one fsync of the journal when the outermost block ends."""

    __slots__ = ("journal", "outer")

    def __init__(self, journal: Journal):
        self.journal, self.outer = journal, False

    def __enter__(self) -> Journal:
        self.outer = self.journal._unsynced is None
        if self.outer:
            self.journal._unsynced = False
        return self.journal

    def __exit__(self, *exc) -> None:
        if not self.outer:
            return
        pending, self.journal._unsynced = self.journal._unsynced, None
        if not pending:
            return
        try:
            fd = os.open(self.journal.path, os.O_RDONLY | NOFOLLOW)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        except OSError as err:
            if exc[0] is None:
                raise StoreError(f"cannot sync {self.journal.path}: {err.strerror or err}") from None

