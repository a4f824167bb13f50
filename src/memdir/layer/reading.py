"""Reading one memory of a layer without a scan of it (issue 28 §7: ``memdir read NAME`` at
10,000 memories stat'ed every file three times and took about a second).

:class:`ReadsOne` is a part of :class:`memdir.layer.layer.Layer` (kept apart from that module for
its size): the layer's names — the last scan's or, in a fresh process, the manifest's
(:mod:`memdir.layer.manifest`) — say which file holds a memory while no file was added, removed or
renamed since (the directory's mtime); that one file is read and parsed anew, so a hand edit of it
shows at once. A file that changed since the layer recorded it is taken up (journaled) by a
:meth:`~memdir.layer.layer.Layer.scan`, as any scan takes hand edits up; the answer is then the
scan's. Hand edits of the layer's other files are left to the next scan or sweep, as for a write.

A delete is committed by its journal line (:mod:`memdir.layer.commit`): until then its file, renamed
aside, is still the memory — for a reader too, who takes no lock and writes nothing for it
(:meth:`ReadsOne.counted`), whether the delete is in flight or was cut by a kill.
"""

from __future__ import annotations

import os
from collections.abc import Mapping

from ..files.fsio import side_of
from ..files.scan import Entry, LazyEntries, Scan, load, stat_key
from .commit import uncommitted_asides
from .index import Facts


class ReadsOne:
    """:meth:`read_now`, :meth:`names_now`, :meth:`facts_now`, :meth:`facts_of` and ``_all_facts`` of
    :class:`memdir.layer.layer.Layer` (which supplies every attribute used)."""

    def _all_facts(self, entries) -> dict[str, Facts]:
        """Every memory's :class:`memdir.layer.index.Facts`: as the manifest keeps them, with the read
        counts recorded since; a memory it keeps none of is read (:class:`memdir.files.scan.LazyEntries`),
        and so is one whose kept facts carry reads while the usage file records none for it now (the
        usage file lost or reset since: its file's own ``reads:``, if any, are its usage, not the count
        the facts were made with), and one more than one recorded file holds (which of them the facts were
        made from is not recorded: the winner may be another now, its rival removed or edited by hand)."""
        saved = self.manifest.load_facts()
        counts = self.usage.counts()
        shared = (self.manifest.shared_names() if saved else None) or ()
        every: dict[str, Facts] = {}
        for name in entries:
            facts = saved.get(name)
            if facts is not None and (name in shared or (
                    name not in counts and (facts.reads or facts.last_read is not None))):
                facts = None
            if facts is None:
                entry = entries.get(name)
                if entry is None:
                    continue
                facts = Facts.of(entry.record)
            elif (count := counts.get(name)) is not None and (facts.reads, facts.last_read) != count:
                facts = facts._replace(reads=count[0], last_read=count[1])
            every[name] = facts
        return every

    def names_now(self) -> Mapping[str, str]:
        """Every memory's name → the file that holds it: the layer's names while no file was added,
        removed or renamed since they were learned (see the module docstring), else a new
        :meth:`scan`'s. Raises :class:`StoreError` (as :meth:`scan`)."""
        names = self._names_held()
        return self.scan().names if names is None else names

    def read_now(self, name: str) -> Entry | None:
        """Memory ``name`` (already normalized) as its file is now, with its recorded usage; None when
        the layer holds no memory of that name. Reads one file when the layer's names still hold (see
        the module docstring); otherwise, or when that file changed since the layer recorded it or no
        longer holds ``name``, the answer of a full :meth:`scan` (which takes a hand edit up) — once a
        :meth:`glance` says the layer holds ``name``: a layer that does not (a lookup across layers, user
        first) parses none of its files added by hand but those whose file name gives ``name``, and
        takes nothing up (its own next change or scan does). Raises :class:`StoreError` (as :meth:`scan`)."""
        names = self._names_held()
        if names is None:  # files added, removed or renamed since: a layer that does not hold name parses
            if self.glance(edits=False).entries.get(name) is None:  # none of its hand-placed files but name's
                return None
            return self.scan().entries.get(name)
        filename = names.get(name)
        if filename is None:
            return None
        recorded = self.files.get(filename)
        state = self.load(self.path / filename, recorded)
        if (state is None or state.entry is None or state.name != name or recorded is None
                or recorded.digest != state.digest):
            return self.scan().entries.get(name)
        return self.usage.with_usage(state.entry)

    def name_moved(self, name: str) -> bool:
        """Whether a file of memory ``name`` (already normalized) may have been added, edited, removed or
        renamed by hand since the layer last took its files up: what a take-up (:meth:`refresh_index`) would
        journal of ``name``. False only when it cannot have: the layer's names still hold and the file of
        ``name`` has the stat key recorded (one ``lstat``), or a :meth:`glance` names no file for it that was
        not read and the manifest recorded none either. The layer's other files are not read (``memdir history
        NAME`` takes a layer up only when this says so). Raises :class:`StoreError` (as :meth:`glance`)."""
        names = self._names_held()
        if names is None:
            found = self.glance(edits=False)
            if any(held == name for held, _ in found.unread.values()):
                return True
            filename = found.names.get(name)
            if filename is None:
                recorded = self.manifest.files_holding([name])
                return recorded is None or bool(recorded)  # recorded, and gone since: removed by hand
            recorded = found.files.get(filename)
        else:
            filename = names.get(name)
            if filename is None:
                return False
            recorded = self.files.get(filename)
        try:
            return recorded is None or stat_key(os.lstat(self.path / filename)) != recorded.key
        except OSError:  # gone since the listing: removed by hand
            return True

    def facts_now(self) -> tuple[Scan, dict[str, Facts]]:
        """The layer's memories as a write of it would see them (:meth:`current_scan`: a large layer's
        stamps trusted within the sweep interval, and past it in a command or hook, which hands the sweep
        off — :mod:`memdir.files.sweeps`; else a :meth:`scan`, every file stat'ed, a hand edit taken up,
        no file parsed that is as the layer recorded it) and every memory's
        :class:`memdir.layer.index.Facts` by name: as the manifest keeps them with the read counts
        recorded since (:meth:`_all_facts`), those of a file the scan read (changed since) from the
        file itself. What ``list`` and ``status`` show, without parsing or stat'ing 10,000 files; a file
        added, removed or renamed by hand shows at once (the directory's mtime), one edited in place of
        a large layer at its next sweep. Raises :class:`StoreError` (as :meth:`scan`)."""
        found = self.current_scan()
        if getattr(found.files, "hinted", False):  # the search index's sweep, just made: no text digests
            found = self.scan()
        return found, self.facts_of(found)

    def facts_of(self, found: Scan) -> dict[str, Facts]:
        """Every memory of ``found`` (a scan of this layer) by name → its :class:`memdir.layer.index.Facts`:
        a memory the scan parsed (its file changed since the manifest recorded it, or was parsed in this
        process under the stat key it has) from its file; any other from the manifest's (:meth:`_all_facts`,
        which reads a memory it keeps none of), with the read counts recorded since — what a render of
        every memory's record would order and show, the files that match their rows by stat key not read.
        The scan's :class:`memdir.files.scan.LazyEntries` keep the memories read."""
        facts = self._all_facts(found.entries)
        entries = found.entries
        parsed = entries.loaded() if isinstance(entries, LazyEntries) else entries  # no state made per file
        for name, entry in list(parsed.items()):
            if name in facts:
                facts[name] = Facts.of(self.usage.with_usage(entry).record)
        return facts

    def counted(self, found: Scan) -> Scan:
        """``found`` (a scan taken without the lock) with each memory whose file a delete renamed aside
        and never journaled (:func:`memdir.layer.commit.uncommitted_asides`) counted present, its entry
        read from that file (its name in :attr:`Scan.counted`, the file in :attr:`Scan.names` and
        :attr:`Scan.files` under its own name); ``found`` itself, changed in place. Reads
        the journal's heads only when the listing saw such a file (:attr:`Scan.asides`). A delete that
        reached the journal stays deleted. Never writes."""
        if not found.asides or found.counted:
            return found
        heads = self.journal.heads()
        counted = []
        for name, path in uncommitted_asides(self.path, heads, heads.keys() - found.names.keys(), found.asides):
            state = load(path, max_bytes=self.settings.max_file_bytes, stem=side_of(path.name)[:-3])
            if state is not None and state.entry is not None and state.name == name:
                found.entries[name] = self.usage.with_usage(state.entry)
                found.names[name], found.files[path.name] = path.name, state
                counted.append(name)
        found.counted = tuple(counted)
        return found

    def _names_held(self) -> Mapping[str, str] | None:
        """The last scan's names (in a fresh process, the manifest's) while the layer directory's
        mtime is what it was then; None otherwise. Raises :class:`StoreError` for a symlink where
        memdir keeps its files."""
        self.refuse_symlinks()
        last = self._last_scan if not self.stones_moved() else None  # a tombstone added or lifted: judged again
        if last is None and self._restore() is not None:
            last = self._last_scan
        try:
            if last is not None and last[0] is not None and os.stat(self.path).st_mtime_ns == last[0]:
                return last[1].names
        except OSError:
            pass
        return None


__all__ = ["ReadsOne"]
