"""A layer's ``MEMORY.md`` and its stamp, written after a change (DESIGN §2).

:class:`KeepsIndex` is a part of :class:`memdir.layer.layer.Layer` (kept apart from that module for
its size): after a transaction the lines of the memories it changed move in ``MEMORY.md``
(:class:`memdir.layer.index.IndexBuilder`; spliced into the file when the builder was restored from the
outline, :func:`memdir.files.splice.splice_index`), or every line is ordered again past the index's
deadline; a hand edit of ``MEMORY.md`` is kept aside before it is replaced
(:func:`memdir.files.layout.keep_edited_index`). The stamp (``.memdir/index.stamp``) then records the
layer directory's mtime and the next moment the text could change (:func:`memdir.files.layout.index_is_fresh`).
"""

from __future__ import annotations

import os
import stat
import time
from datetime import UTC, datetime, timedelta

from ..errors import LockTimeout, StoreError
from ..files.fsio import atomic_write, unlink
from ..files.layout import INDEX_FILE, STAMP_FILE, edited_after, index_is_fresh, index_state, keep_edited_index
from ..files.outline import read_outline, write_outline
from ..files.splice import splice_index
from ..files.sweeps import sweep_can_wait
from .index import SPLICED, next_change, render_index
from .journal import now_utc
from .manifest import stat3


class KeepsIndex:
    """``_write_index``, ``_stamp``, :meth:`refresh_index` and :meth:`current_index` of
    :class:`memdir.layer.layer.Layer` (which supplies every attribute used)."""

    def _settle_copied_index(self) -> bool:
        """Before a transaction's changes: a ``MEMORY.md`` whose
        stat says it changed after its stamp (:func:`memdir.files.layout.edited_after`) but whose bytes are the
        lines memdir last wrote there (:meth:`memdir.layer.manifest.Manifest.index_lines`, the text
        :meth:`memdir.layer.handover.HandsOver._copied_index` compares too) is no hand edit, whatever its ctime — a
        home copied with ``cp -a`` (a backup restored) moves every ctime (ux49: its first write kept a ``.edited``
        copy and said "MEMORY.md was edited by hand"). The stamp is renewed then, so
        :func:`memdir.files.layout.keep_edited_index` keeps nothing aside. Two stats when the stamp says nothing
        changed; else one query of the manifest and the file's bytes: no memory file parsed (a copied home's first
        write parses only the files that changed: tests/layer/test_copied_home.py).
        Returns True when the stamp was renewed; never raises."""
        target = self.meta.parent / INDEX_FILE  # the layer directory's; the team layer's is in the home
        try:
            index, kept = os.lstat(target), os.stat(self.meta / STAMP_FILE)
            if not stat.S_ISREG(index.st_mode) or not edited_after(index, kept):
                return False
            lines = self.manifest.index_lines()
            if not lines:  # none kept (an older manifest, an empty layer): the hand-edit rule decides
                return False
            if target.read_bytes() != ("\n".join(lines) + "\n").encode("utf-8"):
                return False  # another text: a hand edit, kept aside when the index is written
            # the deadline the stamp holds (its atime) kept: no memory's record read to work it out again
            self._stamp((), datetime.fromtimestamp(kept.st_atime_ns / 1e9, UTC))
        except (OSError, StoreError, ValueError, OverflowError):
            return False
        return True

    def _write_index(self, entries: dict, touched: set | None = None, warnings: list | None = None) -> None:
        """Write ``MEMORY.md`` (and its outline) after the memories ``touched`` changed (None: any may
        have): only their lines move while nothing else could have; past the index's deadline, or after
        reads were counted, a builder without the records orders every line again from the memories'
        facts (:meth:`_all_facts`); else from every record. A builder restored from the outline splices the
        lines that moved into the file (:func:`memdir.files.splice.splice_index`: no other line read or
        written); one edited by hand since is written whole, kept aside first, a note in ``warnings``
        (:func:`memdir.files.layout.keep_edited_index`)."""
        now = now_utc()
        text = None
        usage = stat3(self.usage.path)
        index = self._index
        if touched is not None and index.built and usage != self._index_usage:
            if index.partial:  # reads counted since the keys were made: each read memory may move
                index.reorder(self._all_facts(entries), now)
            else:
                touched = None
        if touched is not None and index.built:
            text = index.render_changed({n: (e.record if (e := entries.get(n)) is not None else None) for n in touched},
                                         now)  # a listed file gone since reads as gone (files.scan.LazyEntries)
            if text is None and index.partial:  # past the deadline (a new day): order every line again
                text = index.reorder(self._all_facts(entries), now)
        if text is None:
            text = index.render({n: e.record for n, e in entries.items()}, now)
        self._index_usage = usage
        target = self.meta.parent / INDEX_FILE  # the layer directory's; the team layer's is in the home
        lines, edits = index.edits()  # the lines moved since the text we last wrote or took up
        if text is SPLICED and (edits or index_state(target) != index.source.state):
            if (done := splice_index(target, self.meta, index.source, edits)) is None:  # changed by hand, or refused
                text, (lines, edits) = index.reorder(self._all_facts(entries), now), (None, None)
            else:  # the lines that moved, spliced into the file: no other line read or written
                index.spliced(done[0])
                self._index_written = (None, *index_state(done[1]))
        if text is SPLICED:
            pass
        elif text:
            try:
                on_disk = os.lstat(target)  # a symlink there is replaced by the file, never written through
                same = self._index_written == (text, *index_state(on_disk))
            except OSError:
                same = False
            if not same:
                # The outline of that text, when the file still holds it, is moved by the edits, not made again.
                before = read_outline(target, self.meta) if edits is not None and self._index_written else None
                before = before if before is not None and before.key == self._index_written[1:4] else None
                keep_edited_index(target, self.meta, data := text.encode("utf-8"), warnings)  # a hand edit, kept aside
                atomic_write(target, data, sync=False)  # derived: rebuilt if ever lost
                on_disk = os.lstat(target)  # the outline: what a fresh process's context block reads instead
                write_outline(self.meta, text, on_disk, data, lines=lines, before=before, edits=edits)
                self._index_written = (text, *index_state(on_disk))
        else:
            unlink(target)
            self._index_written = None
        self._stamp(entries.values(), self._index.deadline, now)

    def _stamp(self, entries, deadline=False, now=None) -> None:
        now = now or now_utc()
        if deadline is False:
            deadline = next_change([e.record for e in entries], now, self.settings.stale_after_days)
        deadline_ns = (int(deadline.timestamp() * 1e9) if deadline
                       else int((now + timedelta(days=3650)).timestamp() * 1e9))
        stamp = self.meta / STAMP_FILE
        try:
            if not stamp.exists():
                stamp.touch(mode=0o600)
            directory_ns = os.stat(self.path).st_mtime_ns
            os.utime(stamp, ns=(deadline_ns, directory_ns))
        except OSError as exc:
            raise StoreError(f"cannot stamp the index of {self.path}: {exc.strerror or exc}") from None

    def refresh_index(self, wait: bool = True, rebuild: bool = True) -> list[str]:
        """Rebuild ``MEMORY.md`` from the files (journaling hand edits first);
        returns the warnings (a derived file that could not be written).
        ``wait`` False: raise :class:`LockTimeout` at once when the lock is busy.
        ``rebuild`` False: bring it up to date as a write would (the lines of
        what changed since, every line ordered again past its deadline from
        the memories' facts) without reading every file. Either way every
        file is stat'ed (a hand edit in place is journaled)."""
        if rebuild:
            self._prescan(every=True)  # parse outside the lock; inside, only stat keys are compared
        with self.transaction("human", wait=wait) as tx:
            tx.require_full()
            tx.reindex = True
            tx.rebuild = rebuild
        return tx.warnings

    def _index_is_written(self) -> bool:
        """Whether ``MEMORY.md`` is, by its stat, the file this layer object last wrote (or spliced)."""
        written = self._index_written
        return written is not None and tuple(written[1:]) == index_state(self.meta.parent / INDEX_FILE)

    def current_index(self) -> str | None:
        """Rebuild ``MEMORY.md`` (None), or — when the layer cannot be written
        (a full disk, read-only, another user's) or its lock is busy — the
        index text rendered from the files without writing anything: a reader
        never waits for, nor holds up, a writer. That text is parsed only from
        the files that changed since the manifest recorded them (a stat key
        that moved, a file added); every other memory's line, place and
        visibility come from the manifest's facts (:meth:`facts_of`): the same
        text as a render of every file's record, byte for byte. Raises :class:`StoreError`
        when the layer cannot be read. After the tombstones moved (:meth:`_restore`, :mod:`memdir.layer.held`):
        the names whose verdict moved taken up alone (:meth:`take_up_moved`), else ``MEMORY.md`` as it is; no file swept."""
        if self.stones_moved() and self.take_up_stones() and index_is_fresh(  # files: the manifest's states, taken up
                self.path, time.time_ns(), self.meta.parent, lambda: sweep_can_wait(len(self.files), float("inf"), self)):
            return None  # a large layer's due sweep handed off, as the context block's is (memdir.files.sweeps)
        try:
            if not self.refresh_index(wait=False, rebuild=False) or self._index_is_written():
                return None  # written (a hand edit kept aside is said, not a failure: break44b)
        except (StoreError, LockTimeout):
            pass
        # Busy or not writable: the lines of the files that match their manifest rows by stat key come from the
        # manifest's facts, only the files changed since are parsed (10,000 memories: every file was parsed, 74 s
        # under a profiler, for a hook that started while another process wrote) — the text render_index gives
        # over every record (busy47).
        return render_index(self.facts_of(self.scan()).values(), now_utc(), self.settings.stale_after_days)
