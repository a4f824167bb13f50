"""A transaction: the changes applied inside one lock window of one layer (DESIGN §1.2, §5).

:meth:`memdir.layer.layer.Layer.transaction` opens one; :meth:`Transaction.apply`
is the only code that changes a memory file (through :mod:`memdir.layer.commit`).
A transaction refers to its :class:`~memdir.layer.layer.Layer` without importing
it: the layer imports this module.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from ..errors import Conflict, NotFound, StoreError
from ..files.conflicts import refuse_markers, refuse_overwrite
from ..files.layout import case_twins
from ..files.memfile import MalformedMemory, MemoryRecord, parse, serialize, text_digest
from ..files.scan import Entry, FileState, Scan, blank_file, stat_key
from . import commit
from .journal import AHEAD_BOUND, Event


def not_before(record: MemoryRecord, previous: MemoryRecord | None) -> MemoryRecord:
    """``record`` with its ``updated`` moved up to the latest of its ``created`` and ``previous``'s
    ``updated`` when the clock that stamped it reads earlier (a laptop's clock set back, a VM restored
    from a snapshot): a memory is never changed before it was made or last changed. A time more than
    :data:`memdir.layer.journal.AHEAD_BOUND` (30 days) after ``updated`` was stamped by a clock set ahead (a
    machine booted at 2099): it is not followed, and a ``created`` so far ahead becomes ``updated`` (the
    memory is not made after it is changed; the old file is a version in its history) — else every later
    change of the memory would be dated then, and it would never age. A record that is not earlier (or has
    no ``updated``) is returned as it is. The one rule of a change's date, applied
    by :meth:`Transaction.apply` to every writer's record that does not carry its own dates."""
    if record.updated is None:
        return record
    reach = record.updated + AHEAD_BOUND
    created = record.updated if record.created is not None and record.created > reach else record.created
    floor = max((t for t in (created, previous.updated if previous is not None else None)
                 if t is not None and t <= reach), default=None)
    updated = floor if floor is not None and record.updated < floor else record.updated
    if created is record.created and updated is record.updated:
        return record
    return record.with_(created=created, updated=updated)


def refuse_link(name: str, target, layer_dir) -> None:
    """Raise :class:`Conflict` when ``target`` (where memory ``name`` is about to be written) is a symbolic
    link, saying where it points: memdir reads no link (the scan lists it as not read), so a memory written
    through one — even to a file inside the layer — is seen by no list, search or context, and writing over
    it would lose the link silently (before: it became a regular file); one pointing outside the layer would
    have memdir write outside its layers. Nothing is written, the link and what it points to are kept."""
    if not os.path.islink(target):
        return
    try:
        points = os.readlink(target)
    except OSError:
        points = "?"
    real, base = os.path.realpath(target), os.path.realpath(layer_dir)
    if os.path.commonpath([real, base]) == base:
        raise Conflict(f"cannot write {name!r}: {target} is a symbolic link to {points}, inside the layer; memdir "
                       "reads no link, so a memory written through it would be in no list, search or context, and "
                       f"writing over it would lose the link — replace the link with the file it points to "
                       f"(mv {real} {target}), or choose another name")
    raise Conflict(f"cannot write {name!r}: {target} is a symbolic link to {points}, outside the layer; memdir "
                   "writes nothing outside its layers and does not replace the link — remove it or replace it with "
                   "a regular file, or choose another name")


class Transaction:
    """Changes applied inside one lock window of one layer."""

    def __init__(self, layer: "Layer", scan: Scan, actor: str, session: str | None, full: bool = True):
        self.layer = layer
        self.scan = scan
        self.actor = actor
        # the directory's file names by casefold, once listed (or as the layer's last transaction left them)
        self.listed: dict[str, set[str]] | None = None
        self.session = session
        self.full = full  # False: the last transaction's scan stands in (see Layer._quick_scan)
        self.changed = False
        self.reindex = False
        self.touched: set[str] = set()
        self.rebuild = False  # MEMORY.md from every record, not only the changed ones (refresh_index)
        self.files_changed: set[str] = set()  # file names written or removed (memdir.layer.manifest)
        self.judged_again = False  # the memories whose held-back verdict moved taken up (memdir.layer.held)
        self.events: list[Event] = []
        self.warnings: list[str] = []
        self.unsynced: list | None = None  # inside batched(): the files written, synced when it ends
        # a hand edit a write replaced that no read saw since, found when the transaction's manifest is saved
        # (memdir.layer.lasts): name → (its version, its time)
        self.replaced_edits: dict[str, tuple[int, str, str | None]] = {}  # name → (version, made, its digest)
        # every hand edit a write replaced, read since or not: (name, its digest); such a version's updated and
        # origin are of the version the person edited, not the edit's (memdir.gateway.writing.hand_replaced)
        self.replaced_hands: set[tuple[str, str]] = set()
        try:  # the journal as the transaction found it: what the manifest's lasts rows must be of (.lasts)
            self.journal_from = layer.journal.stat_key()
        except StoreError:
            self.journal_from = None

    def fresh(self, name: str) -> Entry | None:
        """The entry of ``name`` as it is on disk now. After a full sweep that is
        the scan's; otherwise the file is stat'ed (read again when it changed
        since it was last read) and its bytes compared with the journal's last
        version of ``name``: a file edited in place since is journaled first, by
        the whole sweep (:meth:`require_full`). A memory whose file is blank now (an editor saving in
        place, between its truncation and its write: :func:`memdir.files.scan.blank`) is its last version,
        from the journal (:meth:`in_progress`): a write over it updates it."""
        entry = self.scan.entries.get(name)
        if entry is None:
            return self.in_progress(name)
        if self.full:
            return entry
        layer = self.layer
        try:
            st = os.stat(entry.path, follow_symlinks=False)
        except FileNotFoundError:
            st = None
        cached = layer.files.get(entry.path.name)
        if st is not None and (cached is None or cached.key != stat_key(st)):
            state = layer.load(entry.path)  # changed since it was read (or read too close to its write)
            if state is not None and state.entry is not None and state.name == name:
                layer.files[entry.path.name] = self.scan.files[entry.path.name] = state
                self.files_changed.add(entry.path.name)
                entry = self.scan.entries[name] = layer.usage.with_usage(state.entry)
                cached = state
            else:
                st = None
        if st is not None and entry.digest == layer.journal.head(name):
            return entry
        self.require_full()  # it changed under us: do the whole sweep now
        return self.scan.entries.get(name) or self.in_progress(name)

    def in_progress(self, name: str) -> Entry | None:
        """The last version of ``name`` (journaled, not deleted) when its file ``<name>.md`` is blank now — an
        edit in progress, not its new text nor its deletion (:mod:`memdir.files.scan`) — as an entry of that
        file with the version's digest; None otherwise (no such file, text in it, no version, a version
        memdir cannot read back)."""
        head = self.layer.journal.head(name)
        if head is None:
            return None
        path = self.layer.path / f"{name}.md"
        if not blank_file(path):
            return None
        try:
            parsed = parse(self.layer.journal.get_object(head).decode("utf-8"), name)
        except (MalformedMemory, UnicodeDecodeError, NotFound, StoreError):
            return None
        entry = Entry(parsed.record, path, head, parsed.fallback, parsed.no_frontmatter, parsed.notes)
        return self.layer.usage.with_usage(entry)

    def require_full(self) -> None:
        """Sweep every file and journal hand edits now (for operations over the whole layer)."""
        if self.full:
            return
        self.scan = self.layer.scan()
        self.full = True
        self.sync_external()

    @contextmanager
    def batched(self) -> Iterator[Transaction]:
        """A block in which :meth:`apply` syncs nothing itself: each file is written atomically (a temp file
        renamed over it) and each journal line whole, but neither is fsynced; when the block ends (also when
        it raises) the files are synced (:func:`memdir.layer.commit.sync_written`), then the journal once
        (:meth:`memdir.layer.journal.Journal.batched`) — for a batch of writes (an import), one sync
        instead of three per file. A process killed in the block leaves every change before the kill whole,
        and at most the change it cut: a file written and not journaled, which the next transaction's
        sweep journals as the gateway's write (:func:`memdir.layer.commit.sweep`). A power cut in the
        block may lose what it wrote (nothing is committed until the block ends): the next sweep records
        what is on disk. Raises :class:`StoreError` when a sync fails."""
        outer = self.unsynced is None
        if outer:
            self.unsynced = []
        try:
            with self.layer.journal.batched():
                try:
                    yield self
                finally:
                    if outer and self.unsynced:
                        commit.sync_written(self.layer.path, self.unsynced)  # the files, before the journal's
        finally:
            if outer:
                self.unsynced = None

    # ------------------------------------------------------------ primitives

    def sync_external(self, names=None) -> None:
        """Journal every file whose bytes differ from its last journaled version
        (finishing or undoing a change a killed writer cut: :func:`memdir.layer.commit.sweep`); a memory whose
        file is held back is journaled by nothing, but touched, so ``MEMORY.md`` leaves its line out.
        ``names``: those memories alone (:meth:`memdir.layer.held.HoldsBack.take_up_moved`)."""
        mark = getattr(self.layer, "writer_mark", None)  # a writer killed holding the lock (layer.leftovers)
        events, rescanned, held = commit.sweep(self.layer.journal, self.layer.path, self.scan,
                                               self.layer.scan, self.session, names, mark and mark.died_at)
        if rescanned is not None:
            self.scan = rescanned
        if events:
            self.events.extend(events)
            self.reindex = True
        if held:  # memories whose file is held back (memdir.layer.held): no event, but their index lines go
            self.touched.update(held)
            self.reindex = True

    def _case_twin(self, name: str, target, existing):
        """The memory's own file when its name differs from ``target``'s only by case (``Deploy.md`` for
        ``deploy.md``: :func:`memdir.files.layout.case_twins`, file names as macOS and Windows compare
        them) — renamed to ``target`` by one rename, never written anew and the old name removed, which
        there removes both; else None: no other file's name differs from ``target``'s only by case, or
        ``target`` is there already (a pulled twin beside it is left as it is, reported by the scan).
        Raises :class:`Conflict` for a new file whose name another file of the layer takes caselessly (a
        file that is no memory, a link), naming it. Costs one listing of the layer's directory for a new
        file (once per transaction, and none when the layer's last transaction left its listing and the
        quick scan found the directory unchanged since: :meth:`memdir.layer.layer.Layer._transaction`),
        nothing for a memory's own."""
        if existing is not None and existing.path != target and case_twins(target.name, (existing.path.name,)):
            return existing.path
        if existing is not None and existing.path == target:
            return None
        # A new file: any other file named so but for case holds no memory (a file holding one normalizes to
        # ``name``, its stem lower-cased, so it is ``existing``). One listing of the directory, no manifest row:
        # a new name's write reads no row but its own (the scan's malformed files are every row).
        if self.listed is None:  # once per transaction (an import's thousands of new files: one listing)
            try:
                self.listed = {}
                for filename in os.listdir(self.layer.path):
                    self.listed.setdefault(filename.casefold(), set()).add(filename)
            except OSError:
                self.listed = None
                return None
        listed = self.listed.get(target.name.casefold(), set())
        twins = sorted(case_twins(target.name, listed))
        if not twins or target.name in listed:
            return None
        what = "a file that is no memory"
        raise Conflict(f"cannot write {name!r}: {self.layer.path / twins[0]} ({what}) differs from {target.name} "
                       "only by case, and macOS and Windows take the two for one file (a write there would replace "
                       f"it, a clone there keeps only one); rename or remove {twins[0]} first, or choose another name")

    def apply(self, name: str, record: MemoryRecord | None, action: str, *,
              reason: str | None = None, data: dict | None = None, raw: bytes | None = None,
              reindex: bool = True, move: bool = True, dated: bool = False) -> Event:
        """Write (or, with ``record`` None, delete with its duplicate files) one memory
        file, keep its bytes, journal the event — the commit (:mod:`memdir.layer.commit`;
        bytes of files replaced or removed that are not the latest version are
        journaled first). The only place memdir changes a memory file. ``move``
        False keeps a hand-named file where it is. A record's ``updated`` is never
        before its ``created`` nor the memory's previous ``updated`` (:func:`not_before`: a clock set
        back) unless it carries its own dates: ``dated`` (an import's, a restored or synced version's)
        or ``raw`` (written byte for byte). Raises :class:`StoreError`
        (the files put back) when the journal line cannot be written."""
        layer = self.layer
        journal = layer.journal
        existing = self.scan.entries.get(name)
        if record is None and existing is None:
            raise NotFound(f"memory not found: {name!r}")
        if record is not None and raw is None and not dated:
            record = not_before(record, existing.record if existing is not None else None)
        target = existing.path if existing is not None and not move else layer.path / f"{name}.md"
        twin = self._case_twin(name, target, existing) if record is not None else None
        if record is not None:
            refuse_link(name, target, layer.path)
        refuse_overwrite(self.scan.files.get(f"{name}.md"), layer.path / f"{name}.md", action)
        doomed = ([layer.path / f for f, st in self.scan.files.items() if st.name == name and f != existing.path.name]
                  + [existing.path]) if record is None else [target] + (
                      [existing.path] if existing is not None and existing.path != target else [])
        known = {journal.head(name)}  # the bytes this change may replace; others were saved since (late_edit)
        for kept in filter(None, (commit.preserve(journal, name, path, self.session) for path in doomed)):
            self.events.append(kept)
            known.add(kept.after)
            self.warnings.append("text not in the journal (a hand edit, a file memdir cannot read) was kept "
                                 "as a version first (its history lists it)")
        if record is not None:  # the rewritten file goes without reads/last_read: they move to the usage file first
            layer.usage.carry(name, existing.record if existing is not None else record,
                              self.scan.entries)
        before = journal.head(name)
        staged: list[commit.Staged] = []
        try:
            if record is None:
                after = None
                staged.extend(commit.stage_remove(path) for path in doomed)
            else:
                payload = refuse_markers(raw if raw is not None else serialize(record).encode("utf-8"), name)
                after = journal.put_object(payload)
                if twin is not None:  # Deploy.md becomes deploy.md by one rename, then is written
                    staged.append(commit.stage_case_rename(twin, target))
                staged.append(commit.stage_write(target, payload, sync=self.unsynced is None))
                if self.unsynced is not None:
                    self.unsynced.append(target)
                for path in doomed[1:]:  # a hand-named file (feedback_x.md) moves to its name
                    if path != twin:
                        staged.append(commit.stage_remove(path))
            for late in filter(None, (commit.late_edit(journal, name, step, known, self.session) for step in staged)):
                self.events.append(late)  # a person saved the file while it was replaced: kept as a version
                self.warnings.append("the file was edited while memdir changed it; that text was kept as a "
                                     "version first (its history lists it)")
                before = late.after
            event = journal.append(self.actor, action, name, before, after, reason=reason,
                                   session=self.session, data=data)
        except BaseException:
            for step in reversed(staged):
                step.undo()
            raise
        for step in staged:
            step.done()
        for path in doomed:
            self.scan.files.pop(path.name, None)
            layer.files.pop(path.name, None)
            self.files_changed.add(path.name)
            if self.listed is not None:
                self.listed.get(path.name.casefold(), set()).discard(path.name)
        if self.listed is not None and record is not None:
            self.listed.setdefault(target.name.casefold(), set()).add(target.name)
        if record is None:
            del self.scan.entries[name]
            self.scan.names.pop(name, None)
            try:
                layer.usage.drop(name)
            except StoreError as exc:  # the delete is done; a stale count of a gone name is dropped later
                self.warnings.append(f"the change is saved, but {exc}")
        else:
            try:
                written = (record.with_(reads=0, last_read=None) if raw is None
                           else parse(payload.decode("utf-8"), name).record)  # what the file holds
                entry = Entry(written, target, after)
                state = FileState(stat_key(os.stat(target)), after, name, None, entry,
                                  text_digest(written.description, written.body))
                layer.files[target.name] = self.scan.files[target.name] = state
                self.files_changed.add(target.name)
                self.scan.entries[name] = layer.usage.with_usage(entry)
                self.scan.names[name] = target.name
            except (OSError, MalformedMemory, UnicodeDecodeError) as exc:
                self.warnings.append(f"wrote {target} but cannot read it back: {exc}")
        self.events.append(event)
        self.touched.add(name)
        self.changed = True
        self.reindex = self.reindex or reindex
        return event
