"""What a layer object hands the next process through its manifest, and takes up from it (DESIGN §2).

:class:`HandsOver` is a part of :class:`memdir.layer.layer.Layer` (kept apart from that module for its size,
as :class:`memdir.layer.indexfile.KeepsIndex` is): after a transaction the files' states, the journal's heads
and the index's line keys are saved (:mod:`memdir.layer.manifest`), all of them when the manifest was not in
step with this object, else what changed; a process that has not scanned the layer yet takes them up as its
last scan while the manifest's stamps hold (no file read), and a transaction's quick scan stands on them
while a sweep may wait (:func:`memdir.files.sweeps.sweep_can_wait`).
"""

from __future__ import annotations

import os
import time
from datetime import UTC, datetime

from ..errors import StoreError
from ..files.layout import INDEX_FILE, index_state, judged
from ..files.outline import read_outline, write_outline
from ..files.scan import Scan
from ..files.sweeps import since, sweep_can_wait
from .journal import records_bytes
from .lasts import unseen_edit
from .manifest import Manifest, Stamps, stat3
from .rows import Names, Rows, malformed_of

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from .transaction import Transaction


class HandsOver:
    """``manifest``, ``_stamps``, ``_save_manifest``, ``_restore``, ``_restore_index``, ``_take`` and
    ``_quick_scan`` of :class:`memdir.layer.layer.Layer` (which supplies every attribute used)."""

    @property
    def manifest(self) -> Manifest:
        """The layer's manifest (:mod:`memdir.layer.manifest`), in its meta directory (the team
        layer's is in the home, never in the repository)."""
        return Manifest(self.meta)

    def _stamps(self) -> Stamps:
        try:
            directory = os.stat(self.path).st_mtime_ns
            journal = self.journal.stat_key()
        except (OSError, StoreError):
            directory = journal = None
        return Stamps(directory, journal, index_state(self.meta.parent / INDEX_FILE), stat3(self.usage.path))

    def _save_manifest(self, tx: Transaction) -> None:
        """Keep what this transaction knows of the files for the next process (:mod:`memdir.layer.manifest`):
        all of it when the manifest was not in step with this layer object, else what changed — the
        files written, or, after a sweep, those it found changed — and the index keys of the
        memories changed."""
        stamps = self._stamps()
        if stamps.directory is None or stamps.journal is None:
            self.manifest.drop()
            self._manifest_trusted = False
            return
        whole = not self._manifest_trusted
        changed = {*tx.touched, *(e.name for e in tx.events if e.name)}
        if whole:
            files = dict(tx.scan.files)
            heads = dict(self.journal.heads())
        elif tx.full:  # a sweep over a trusted manifest: only what it found changed
            saved = self._saved_files
            if isinstance(saved, Rows) and self._rows_read is not None:
                # every row, as the sweep's own scan read them under this lock (Layer._known): the manifest's rows
                # are not read again (a sweep of 10,000 files: one read of every row, not two)
                saved = self._rows_read
            files = {f: st for f, st in tx.scan.files.items() if (saved.get(f) or ())[:4] != st[:4]}
            files.update((f, None) for f in saved.keys() - tx.scan.files.keys())
            heads = {e.name: e.after for e in tx.events if records_bytes(e)}
        else:
            files = {f: tx.scan.files.get(f) for f in tx.files_changed}
            heads = {e.name: e.after for e in tx.events if records_bytes(e)}
        files.update((f, st) for f in self._learned - files.keys()  # parsed on demand: its text digest recorded
                     if (st := tx.scan.files.get(f)) is not None and st.text is not None)
        self._learned.clear()
        index, every = None, whole or tx.rebuild or self._index.rekeyed()
        if self._index.built:
            names = None if every else changed
            index = (self._index.keys(names), self._index.facts(names),
                     int(self._index.deadline.timestamp() * 1e9) if self._index.deadline else 0)
        stamps.usage = self._index_usage  # the read counts the keys were made with
        swept = time.time_ns() - int((time.monotonic() - self._swept_at) * 1e9) if tx.full else None
        # the lasts rows (memdir.layer.lasts): this transaction's events folded in, or counted from the whole journal
        # when they are not every name's (a new manifest, one an older memdir wrote: once) — and the hand edits
        # the transaction's writes replaced, said when no read was counted since (lasts.unseen_edit)
        replaced = self.manifest.save(stamps, files, heads, index, swept, whole=whole, whole_index=every,
                                      events=tx.events, events_from=tx.journal_from, journal=self._all_events)
        if replaced:
            counts = self.usage.counts()
            tx.replaced_hands.update((name, last.digest) for name, last in replaced.items() if last.digest)
            for name, last in replaced.items():
                if (found := unseen_edit(last, (counts.get(name) or (0, None))[1])) is not None:
                    tx.replaced_edits[name] = (*found, last.digest)
        self._manifest_trusted = self.manifest.exists()
        self._record_judged(saved_all=whole or tx.full or tx.judged_again)
        if whole or tx.full:
            self._saved_files = dict(tx.scan.files)
        else:
            for filename, state in files.items():
                if state is None:
                    self._saved_files.pop(filename, None)
                else:
                    self._saved_files[filename] = state

    def _all_events(self) -> list | None:
        """The journal's events, for the manifest's ``lasts`` rows counted anew; None when it cannot be read."""
        try:
            return self.journal.events()
        except StoreError:
            return None

    def _restore(self) -> Scan | None:
        """In a process that has not scanned this layer yet: the manifest's state taken up as
        the last scan (no file read, none stat'ed), the journal's heads and the index's line
        keys with it, when the manifest's stamps still hold (:meth:`Manifest.load`); else None. After the
        tombstones moved, the few files whose verdict they may move are read and judged again
        (:meth:`memdir.layer.held.HoldsBack._judge_restored`); the other states stand."""
        stamps, key = self._stamps(), self.stones_now()
        if (saved := self.manifest.load(stamps)) is None:
            return None
        files = saved.files.copy()  # names and the files that are not memories: settled when asked for
        names, malformed = Names(self.path, files, self.manifest), malformed_of(self.path, files)
        cache = saved.files.copy()
        if not judged(self.path, self.meta) and not self._judge_restored(files, names, cache, key):
            return None  # the tombstones or the manifest cannot be read: every file judged again (.held)
        self.files, self._saved_files, self._judged_with = cache, saved.files, key
        found = self._lazy(Scan({}, malformed, files, names))
        self._take(saved, stamps)
        self._last_scan = (stamps.directory, found)
        self._synced_journal = stamps.journal
        self._swept_at = time.monotonic() - since(saved.swept_ns)  # a time after now: due (-inf)
        return found

    def _restore_index(self, moved: bool = False) -> None:
        """The journal's heads and the index's line keys from the manifest, when its stamps hold;
        ``moved`` (the caller sweeps every file and journals what differs): also when files were
        added, removed or replaced by hand since (the directory's mtime moved, the journal did not):
        then only the lines of what the sweep finds changed move, not every file is read for the
        index. The manifest's files are what the next save tells its changes against."""
        stamps = self._stamps()
        if (saved := self.manifest.load(stamps, moved=moved)) is not None:
            self._saved_files = saved.files
            self._take(saved, stamps)

    def _take(self, saved, stamps: Stamps) -> None:
        self.journal.prime_heads(saved.heads, stamps.journal)
        self._manifest_trusted = True
        if saved.index is None or self._index.built:
            return
        keys, deadline_ns = saved.index
        target = self.meta.parent / INDEX_FILE
        try:  # its outline, when it describes the file as it is: no line read but the first and the last
            if saved.index_copied:  # a copied home's: taken up only when its text is the one the keys order
                if (text := self._copied_index(target, keys)) is None:
                    return
            elif saved.index_edited:  # by hand: the lines memdir last wrote, from the manifest; the file rewritten
                lines = self.manifest.index_lines() if keys else []
                if lines is None or len(lines) != len(keys):
                    return  # an older manifest, no line kept: rendered from the memories as before
                text = "\n".join(lines) + "\n" if lines else ""
                if self._index.restore(keys, text, datetime.fromtimestamp(deadline_ns / 1e9, UTC) if deadline_ns
                                       else None):
                    self._index_usage = stamps.usage if saved.usage_same else None
                    self._index_written = None  # the file is not this text: the next write puts it back whole
                return
            else:
                text = (read_outline(target, self.meta) or target.read_text(encoding="utf-8")) if keys else ""
            deadline = datetime.fromtimestamp(deadline_ns / 1e9, UTC) if deadline_ns else None
            if self._index.restore(keys, text, deadline):
                self._index_usage = stamps.usage if saved.usage_same else None  # None: reads counted since
                if text:
                    written = text if isinstance(text, str) else None
                    self._index_written = (written, *(index_state(target) if written else text.state))
        except (OSError, UnicodeDecodeError, ValueError, OverflowError):
            return

    def _copied_index(self, target, keys: dict[str, tuple]) -> str | None:
        """The text of ``MEMORY.md`` at ``target`` when it is, byte for byte, the lines the manifest keeps
        in the order of its ``keys`` (name → ``(unpinned, -score, name)``;
        :meth:`memdir.layer.manifest.Manifest.index_lines`) — what memdir last wrote there — else None.
        Asked when the file's size and mtime are the recorded ones but its inode or ctime are not (a
        copied or restored home: :attr:`memdir.layer.manifest.Saved.index_copied`): the stat cannot tell
        that copy from a hand edit that kept size and mtime, its text can. One read of the file and one
        query (no memory file read: the sweep checks each by its digest and parses only those whose
        bytes changed), instead of every file parsed to render the index again; the file's outline is
        written for its new stat (:func:`memdir.files.outline.write_outline`)."""
        lines = self.manifest.index_lines() if keys else None
        if not lines or len(lines) != len(keys):
            return None
        expected = "\n".join(lines) + "\n"
        wanted = expected.encode("utf-8")
        try:
            with open(os.open(target, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)), "rb") as file:
                st = os.fstat(file.fileno())
                data = file.read(len(wanted) + 1)
                same = data == wanted and index_state(os.fstat(file.fileno())) == index_state(st)
        except OSError:
            return None
        if not same:
            return None
        # Its outline, for the copy's stat: the outline copied with it describes the file it was copied from, and
        # until the text changes every fresh process (a write, the context block) would read the whole file.
        write_outline(self.meta, expected, st, wanted)
        return expected

    def _quick_scan(self) -> Scan | None:
        """The last transaction's scan, when it may stand in for a full sweep:
        a large layer swept a moment ago (:func:`memdir.files.sweeps.sweep_can_wait`), with no
        file added, removed or renamed and no event journaled by anyone else
        since. An in-place hand edit is then journaled at the next sweep
        (within the interval) — or at once when this transaction touches that
        file (:meth:`Transaction.fresh`)."""
        last = self._last_scan if not self.stones_moved() else None
        if last is None and self._restore() is not None:
            last = self._last_scan
        if (last is None or last[0] is None or self._synced_journal is None or last[1].counted  # a reader's view
                or not sweep_can_wait(len(last[1].files), time.monotonic() - self._swept_at, self)):
            return None
        try:
            if os.stat(self.path).st_mtime_ns != last[0]:
                return None
        except OSError:
            return None
        if self.journal.stat_key() != self._synced_journal:
            return None
        self.usage.overlay(last[1].entries)  # reads counted since (they journal nothing)
        return last[1]


__all__ = ["HandsOver"]
