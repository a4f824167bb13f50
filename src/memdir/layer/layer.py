"""One layer directory and its critical section (DESIGN §1.2, §2).

A :class:`Layer` is a directory of memory files (``_user``, ``projects/<key>``; the team
layer: :mod:`memdir.layer.team`): it scans them (:mod:`memdir.files.scan`, re-parsing only
what changed), holds the layer's cross-process lock (``filelock``: an OS lock a killed
holder releases), keeps ``MEMORY.md`` and its freshness stamp, and owns the layer's journal
and tombstones. Its :meth:`Layer.transaction` is the critical section every change runs in;
:meth:`Transaction.apply` is the only code that changes a memory file (never one git left
with conflict markers). Callers use the validated operations of :mod:`memdir.gateway.changes`.

Inside the lock, in order: repair a torn journal tail, scan the files, journal hand edits
made since the last event (``external-edit`` / ``external-delete``), apply the change
(written atomically, its bytes kept in ``objects/``, journaled), rebuild ``MEMORY.md``, stamp it
(:mod:`memdir.layer.indexfile`), keep the manifest.

The manifest (:mod:`memdir.layer.manifest`) spares a fresh process that scan: while the layer
directory's mtime and the journal are as the last transaction left them, its file states, journal
heads and ``MEMORY.md`` line keys stand in for the scan, files are parsed only when asked for, and
the file a write changes is checked itself (:meth:`Transaction.fresh`); saving and taking it up is
:class:`memdir.layer.handover.HandsOver`'s part of a layer. In-place edits of the other
files wait for the next sweep (:func:`memdir.files.sweeps.sweep_can_wait`: past its interval, a
hook or CLI command hands it to a detached sweeper) or the next reader's scan (:meth:`Layer.scan`).
A file added, removed or replaced by hand moves the directory's mtime: the next transaction sweeps,
with the manifest's heads and line keys (the journal unchanged), and parses the changed files only.

The stamp (``.memdir/index.stamp``) lets the hot path trust ``MEMORY.md`` without parsing
anything: its mtime equals the layer directory's mtime after the rebuild (any file added,
removed or renamed behind memdir's back moves the directory's mtime), and its atime holds the
next moment the index text could change (a day boundary, a valid-time edge): ``index_is_fresh``.
"""

from __future__ import annotations

import os
import time
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Iterator, Mapping

from ..errors import InvalidInput, LockTimeout, StoreError
from ..files import background
from ..files.fsio import ensure_dir, nothing_written, nothing_written_full
from ..files.layout import (LOCK_FILE, META_DIR, QUEUE_FILE, STAMP_FILE, describe_layer, index_refusal, layer_place, stones_key, symlink_refusal)
from ..files.scan import (Entry, FileState, LazyEntries, Scan, bytes_digest, count_files, glance as glance_layer,
                          load as load_file, scan as scan_layer)
from ..files.sweeps import sweep_can_wait
from ..paths import layer_dirs, user_layer_dir
from ..settings import Settings
from ..tombstones.match import Tombstone
from ..tombstones.stones import TombstoneFile
from ..vocabulary import ACTORS
from .drift import cut_tombstones, settled
from .index import IndexBuilder
from .journal import Journal, now_utc
from .reading import ReadsOne
from .held import HoldsBack
from .indexfile import KeepsIndex
from .handover import HandsOver
from .rows import Hinted, Rows
from .transaction import Transaction
from .usage import Usage
from . import chain, interrupted, leftovers, waiting


class Layer(ReadsOne, HoldsBack, KeepsIndex, HandsOver):
    """One layer directory (``_user`` or ``projects/<key>``) and its gateway.

    ``scope`` is ``"user"`` or ``"project"``; ``root`` the project root a
    project layer belongs to (recorded in ``.memdir/layer.json``); ``meta`` where its journal, manifest
    and lock are (``path/.memdir`` unless given: the team layer's is in the home). Reading
    methods take no lock; every mutation goes through :meth:`transaction`."""

    def __init__(self, path: Path, scope: str, settings: Settings, root: Path | None = None, meta: Path | None = None):
        self.path, self.scope, self.settings, self.root = Path(path), scope, settings, root
        self.meta = meta_dir(self.path) if meta is None else Path(meta)  # the one rule of where its journal is
        self.journal = Journal(self.meta)
        self.tombstone_file = TombstoneFile(self.meta, scope)
        self.usage = Usage(self.meta)
        self.files: dict[str, FileState] = {}  # what the last scan learned of each file, by file name
        self._hints_left = False  # the last scan trusted hints for some files: they are not in self.files
        self._last_scan: tuple[int | None, Scan] | None = None
        # (directory mtime, file names by casefold) as the last transaction left them: the next one whose quick scan
        # stands in starts from it (Transaction._case_twin lists no directory of thousands of files again)
        self._listing: tuple[int, dict[str, set[str]]] | None = None
        self._glanced: tuple[int | None, Scan] | None = None  # (directory mtime, glance()): names, parsed when asked
        self._synced_journal: tuple[int, int] | None = None  # journal (size, mtime) after our last transaction
        self._swept_at = float("-inf")
        self._manifest_trusted = False  # the manifest held this layer's state as of our last transaction
        self._index_usage: tuple | None = None  # the usage file's stat key when the index keys were restored
        self._saved_files: dict[str, FileState] | Rows = {}  # the files as the manifest holds them
        # every row of the manifest as _known() read it inside the open transaction (under its lock: the version
        # _saved_files was loaded from), for the sweep's comparison at its save: not read a second time
        self._rows_read: dict[str, FileState] | None = None
        self._learned: set[str] = set()  # files parsed on demand since the last save (their text digests)
        self._index = IndexBuilder(settings.stale_after_days)
        self._index_written: tuple | None = None  # (text, *index_state) of our last MEMORY.md
        self._lock = None
        self._settled: tuple[tuple, list[Tombstone]] | None = None  # (stones and journal keys, tombstones()), cut
        self._held, self._take_up_ok, self._cut_finished = 0, True, False  # open transactions; take_up writes; .interrupted
        self._unsaved_judgement = False  # files judged again (memdir.layer.held) since the last full save

    def __repr__(self) -> str:
        return f"Layer({self.scope!r}, {str(self.path)!r})"

    # ------------------------------------------------------------ scanning

    def scan(self, known: Mapping[str, tuple] | None = None, progress=None) -> Scan:
        """Every memory of the layer by name, the files that are not memories,
        and what was learned of each file (:func:`memdir.files.scan.scan`):
        the one reader of a layer's files; records carry the recorded usage
        (:meth:`memdir.layer.usage.Usage.overlay`). One ``stat`` per file; a
        file is parsed when first asked for (:class:`memdir.files.scan.LazyEntries`),
        and re-parsed only when its size/ctime/inode changed since this layer
        object, or the manifest (:mod:`memdir.layer.manifest`), last read it.
        Outside a transaction, files that differ from the manifest (a hand edit in place) are taken up
        (:meth:`take_up`), and a memory whose delete renamed its file aside but never reached the journal
        is counted present, whether or not the take-up could put it back (:meth:`counted`). Raises
        :class:`StoreError`, also for a layer with a symlink where memdir keeps its files
        (:func:`memdir.files.layout.symlink_refusal`)."""
        # A delete or lift killed between tombstones.json and its journal line (two stats): its orphan tombstone
        # held the never-deleted memory back from this read, and said to delete it or lift the tombstone, until
        # a later transaction settled it (.drift) — so the take-up settles it before the files are judged; a
        # layer it cannot settle (read-only, busy) is judged by the tombstones the settle would leave (tombstones).
        if not self._held and self._take_up_ok and cut_tombstones(self.journal, self.tombstone_file):
            self.take_up()
        found = self._scan(known, progress)
        if not self._held and self._take_up_ok and (self._unsaved_judgement or self.manifest.differs(
                found.files, lambda filename: bytes_digest(self.path / filename, self.settings.max_file_bytes))):
            self.take_up()
            if found.asides or self._cut_finished:  # files it changed
                found = self._scan(known, progress)
        return found if self._held else self.counted(found)  # a delete not journaled: its memory is there

    def take_up(self) -> None:
        """Journal hand edits, update ``MEMORY.md`` and the manifest as a write's sweep does, never
        waiting: a busy layer is left to its writer; one that cannot be written (read-only, another
        user's) is read as it is, and not tried again by this object."""
        try:
            with background.scope():  # a reader's write nobody asked for: into a layer directory that is there only
                self.refresh_index(wait=False, rebuild=False)
        except background.Gone:  # no layer directory (yet, or any more): nothing to take up; tried again next time
            pass
        except StoreError:
            self._take_up_ok = False
        except LockTimeout:
            pass

    def side_home(self) -> Path | None:
        """The home this layer's ``.memdir`` side lies in when it is not inside the layer's directory (the team
        layer's), for :func:`memdir.files.background.require`; None: it lies in the layer's own directory."""
        return None

    def _scan(self, known: Mapping[str, tuple] | None, progress) -> Scan:
        self.refuse_symlinks()
        try:
            directory_mtime = os.stat(self.path).st_mtime_ns
        except FileNotFoundError:
            directory_mtime = None
        except OSError as exc:
            raise StoreError(f"cannot list {self.path}: {exc.strerror or exc}") from None
        hinted = known is not None  # a caller's hints (the search index's) carry no text digest
        if known is None and (not self.files or self._hints_left):  # else every hinted file would be parsed
            known = self._known()
        if self.stones_moved():  # a tombstone added or lifted since the states were judged: those it may move (.held)
            known = self._unjudge(known)
            hinted = hinted and known is not None
        self._judging()
        found, self.files, complete = scan_layer(self.path, self.files, known, progress, self.settings.max_file_bytes,
                                                 self.holder())
        self._hints_left = not complete
        if hinted:
            found.files = Hinted(found.files, self.manifest)
        found = self._lazy(found)
        self._last_scan = (directory_mtime, found)
        self._swept_at = time.monotonic()
        return found

    def _known(self) -> dict[str, tuple] | None:
        """The manifest's files as :func:`memdir.files.scan.scan`'s ``known`` hints (each checked
        by its stat key, so trusted whatever changed since)."""
        saved = self.manifest.load_files()
        if saved and self._held:  # inside a transaction: the comparison of its save takes these rows (_save_manifest)
            self._rows_read = saved
        return {f: (f, *st.key, *st[1:4], *st[5:]) for f, st in saved.items()} if saved else None  # all but entry

    def _lazy(self, found: Scan) -> Scan:
        """``found`` with entries parsed on demand (:class:`memdir.files.scan.LazyEntries`)."""
        self.usage.overlay(found.entries)  # a state parsed on demand replaces a hint's in files (text digest known)
        load = lambda name, file: self._load_entry(name, file, found.files)  # noqa: E731
        return Scan(LazyEntries(found.entries, found.names, load), found.malformed, found.files, found.names, found.asides)

    def _load_entry(self, name: str, filename: str, files: dict) -> Entry | None:
        was = files.get(filename)  # parsed in this process already (a take-up's judgement): not read again
        state = was if was is not None and was.entry is not None and self.files.get(filename) is was \
            else self.load(self.path / filename, was)
        if state is None or state.entry is None or state.name != name:
            return None
        self.files[filename] = state
        if (was := files.get(filename)) is not None and was.key == state.key:
            files[filename] = state
        self._learned.add(filename)  # recorded with its text digest by the next save (_save_manifest)
        return self.usage.with_usage(state.entry)

    def refuse_symlinks(self) -> None:
        """Raise :class:`StoreError` when the layer directory, ``.memdir``
        or a meta file is a symlink (never followed)."""
        if reason := symlink_refusal(self.path):
            raise StoreError(reason)

    def load(self, path: Path, judged: FileState | None = None) -> FileState | None:
        """Read and parse one memory file of this layer (:func:`memdir.files.scan.load`), held back when a
        tombstone matches it (:meth:`judge`) — unless ``judged``, the state this layer judged it by, still
        has the file's stat key (a lazy parse of a file the scan judged: nothing matched again)."""
        state = load_file(path, max_bytes=self.settings.max_file_bytes)
        return state if judged is not None and state is not None and judged.key == state.key else self.judge(state)

    def file_count(self) -> int:
        """How many memory files :meth:`scan` would look at (for progress bars)."""
        return count_files(self.path)

    def lookup(self, name: str) -> Entry | None:
        """Which memory is called ``name`` (already normalized), from the last
        scan while no file was added, removed or renamed since (in a fresh
        process: the manifest's, :mod:`memdir.layer.manifest`), else from a :meth:`glance` (the files
        added by hand since parsed only when their file name gives ``name``); for deciding where a
        memory lives, not for reading its current text. Raises :class:`StoreError` (as :meth:`scan`)."""
        return self.glance(edits=False).entries.get(name)

    def glance(self, edits: bool = True) -> Scan:
        """Which memories the layer holds, parsing only the memories asked for: the last scan while no
        file was added, removed or renamed since (in a fresh process: the manifest's); else the files'
        names (:func:`memdir.files.scan.glance`): a file added by hand since the layer last read it is
        named by its file name and parsed only when its memory is asked for (``entries.get(name)``: the
        file that wins that name as a :meth:`scan` would choose it, the next one when it holds no
        memory), so ``names`` may name a file that turns out to hold none; a file edited in place since is
        so too, once a sweep is due (:func:`memdir.files.sweeps.sweep_can_wait`, as :meth:`current_scan`
        sees it; ``edits`` False: the last scan while the directory's mtime stays, for where a memory is, which
        no edit in place moves). The files not read are :attr:`memdir.files.scan.Scan.unread`. Nothing is taken up
        (journaled): a write of another layer looks a name up here without waiting for this layer's
        hand-placed files (issue 28 §7); the layer's own next transaction, sweep or :meth:`scan` takes
        them in. Kept while the directory's mtime stays; a tombstone added or lifted since the files
        were judged: a :meth:`scan`. Raises :class:`StoreError` (as :meth:`scan`)."""
        self.refuse_symlinks()
        last = self._last_scan if not self.stones_moved() else None  # a tombstone added or lifted: judged again
        if last is None and self._restore() is not None:
            last = self._last_scan
        try:
            mtime = os.stat(self.path).st_mtime_ns
        except FileNotFoundError:
            mtime = None
        except OSError as exc:
            raise StoreError(f"cannot list {self.path}: {exc.strerror or exc}") from None
        if mtime is not None and last is not None and last[0] == mtime and (not edits or sweep_can_wait(
                len(last[1].files), time.monotonic() - self._swept_at, self)):
            return last[1]
        if self.stones_moved():  # the states at hand were judged by other tombstones: every file judged again
            return self.scan()
        if mtime is not None and self._glanced is not None and self._glanced[0] == mtime:
            return self._glanced[1]
        known = self._known() if not self.files or self._hints_left else None
        found, holders = glance_layer(self.path, self.files, known, self.settings.max_file_bytes)
        self._hints_left = True  # self.files holds only what was parsed: the next scan takes the manifest's hints
        self.usage.overlay(found.entries)

        def load(name: str, filename: str) -> Entry | None:
            held = holders.get(name, [filename])
            for file in held[held.index(filename) if filename in held else 0:]:
                entry = self._load_entry(name, file, found.files)
                if entry is not None:
                    found.names[name] = file
                    return entry
            return None

        found = self.counted(Scan(LazyEntries(found.entries, found.names, load), found.malformed, found.files,
                                  found.names, found.asides, unread=found.unread))
        self._glanced = (mtime, found)
        return found

    def current_scan(self) -> Scan:
        """Which memories the layer holds, as a write of it would see them: the last scan (in a fresh
        process, the manifest's) while no file was added, removed or renamed since and a sweep may wait
        (:func:`memdir.files.sweeps.sweep_can_wait`), else a new :meth:`scan`. Entries are parsed when
        asked for; a hand edit in place of a large layer shows at its next sweep, as for the layer's own
        writes. Raises :class:`StoreError`."""
        last = self._last_scan if not self.stones_moved() else None
        if last is None and self._restore() is not None:
            last = self._last_scan
        if last is not None and last[0] is not None and sweep_can_wait(
                len(last[1].files), time.monotonic() - self._swept_at, self):
            try:
                if os.stat(self.path).st_mtime_ns == last[0]:
                    return last[1]
            except OSError:
                pass
        return self.scan()

    def tombstones(self) -> list[Tombstone]:
        """Tombstones in force in this layer. Outside the lock, when a tombstone change may have been cut
        before its journal line (:func:`memdir.layer.drift.cut_tombstones`, two stats): the ones the settle
        would leave (:func:`memdir.layer.drift.settled`) — a reader that cannot write the layer never settles
        it, and a forget killed there held the memory it never forgot back from that reader."""
        if not self._held and cut_tombstones(self.journal, self.tombstone_file):
            key = (stones_key(self.path), self.journal.stat_key())  # the journal read once while both stand
            if self._settled is None or self._settled[0] != key:
                self._settled = (key, settled(self.journal, self.tombstone_file))
            return self._settled[1]
        return self.tombstone_file.all()

    # ------------------------------------------------------------ locking

    @contextmanager
    def locked(self, wait: bool = True):
        """Hold the layer's cross-process lock (re-entrant in this process).

        The gateway takes it for every mutation; a caller that must compare and
        then write as one step (consolidation's compare-and-set) may hold it
        across the gateway call. ``wait``: up to ``settings.lock_timeout`` seconds in
        all, first in the line of waiting writers (:mod:`memdir.layer.waiting`: blocked
        in the kernel, woken in turn), then for the lock; else one try. Raises
        :class:`LockTimeout`, :class:`StoreError`.
        """
        from filelock import FileLock, Timeout  # late: only mutations need it

        self.refuse_symlinks()
        deadline = time.monotonic() + self.settings.lock_timeout
        try:
            background.require(self.path, home=self.side_home())  # a background job makes no layer directory, nor a home
            ensure_dir(self.path)
            ensure_dir(self.meta)
            if self._lock is None:
                self._lock = FileLock(str(self.meta / LOCK_FILE), timeout=self.settings.lock_timeout, mode=0o600)
                self.writer_mark = leftovers.WriterMark(self.meta)  # .memdir/lock.held while the lock is held (.leftovers)
            if wait and not self._lock.is_locked:  # outermost in this thread: wait in line (re-entry never does)
                with waiting.turn(self.meta / QUEUE_FILE, deadline, self._try_lock) as took:
                    if not took:  # at the head of the line: it polls, 5 ms (a releasing writer frees it that long)
                        self._lock.acquire(timeout=max(0.0, deadline - time.monotonic()), poll_interval=0.005)
            else:
                self._lock.acquire(timeout=None if wait else 0, poll_interval=0.005)
        except (Timeout, waiting.TurnTimeout):
            raise LockTimeout(f"layer {self.path} is locked by another process (waited "
                              f"{self.settings.lock_timeout:g}s); try again") from None
        except (OSError, StoreError) as exc:  # a read-only home (_user, projects/<key>) said as one; else what failed
            where = layer_place(self.path, self.scope)
            raise StoreError(nothing_written(self.path, where) or nothing_written_full(exc, where) or (
                str(exc) if isinstance(exc, StoreError) else f"cannot lock {self.path}: {exc.strerror or exc}")) from None
        try:
            with self.writer_mark.held(self._lock.lock_counter == 1):  # outermost: taken, dropped before the release
                yield
        finally:
            self._lock.release()

    def _try_lock(self) -> bool:
        """One try of the lock (taken: True), for a waiter in line (:func:`memdir.layer.waiting.turn`)."""
        from filelock import Timeout

        try:
            self._lock.acquire(timeout=0)
            return True
        except Timeout:
            return False

    @contextmanager
    def transaction(self, actor: str, session: str | None = None, wait: bool = True) -> Iterator["Transaction"]:
        """The gateway's critical section; yields a :class:`Transaction` to apply changes through."""
        if actor not in ACTORS:
            raise InvalidInput(f"unknown actor {actor!r}")
        self._held += 1
        tx = None
        try:
            with self._transaction(actor, session, wait) as tx:
                yield tx
        except StoreError as exc:  # a full disk before any change was made: said as a read-only home is
            if said := None if tx and tx.events else nothing_written_full(exc, layer_place(self.path, self.scope)):
                raise StoreError(said) from None
            raise
        finally:
            self._held -= 1

    @contextmanager
    def _transaction(self, actor: str, session: str | None, wait: bool) -> Iterator["Transaction"]:
        if not self.files and not self.manifest.exists():
            self._prescan()
        with self.locked(wait):
            describe_layer(self.meta, self.scope, self.root)
            cut = cut_tombstones(self.journal, self.tombstone_file)  # stat'ed before a torn line is cut
            self.journal.repair()
            if refused := chain.refusal(self.journal):  # a headless, hand-changed or unanchorable journal: no change
                raise StoreError(refused)
            if cut:  # a delete or lift killed between tombstones.json and its journal line: undone before the scan
                self.settle_stones()  # the judgement of the files follows the key it gives tombstones.json (.held)
            begun = self.journal.last_event()  # before the sweep: a change's first step a kill cut (.interrupted)
            stale = self._index.partial and self._synced_journal != self.journal.stat_key()
            quick = self._quick_scan()
            if not self._index.built or stale:  # restored keys another process's writes made stale
                self._index, self._index_written = IndexBuilder(self.settings.stale_after_days), None
                self._restore_index(moved=quick is None)
            tx = Transaction(self, quick or self.scan(), actor, session, full=quick is None)
            self._settle_copied_index()  # a MEMORY.md copied as it was (cp -a) is no hand edit
            if quick is not None and self._listing is not None and self._last_scan is not None \
                    and self._listing[0] == self._last_scan[0]:  # the directory is as the listing saw it
                tx.listed, self._listing = self._listing[1], None  # the transaction's own until it ends
            try:
                if tx.full:
                    tx.sync_external()
                self.take_up_moved(tx)  # over the manifest's states: the memories a tombstone moved (.held)
                leftovers.clear(tx)  # a dead holder's side files (none listed unless its mark was found)
                self._cut_finished = interrupted.finish_cut(tx, now_utc(), begun)  # a change a kill cut in two
                yield tx
            finally:
                try:
                    if tx.events or tx.reindex:
                        self._derive(tx)
                    elif tx.full and not self._manifest_trusted and self.manifest.load(self._stamps(),
                                                                                        files=False) is None:
                        self._save_manifest(tx)  # nothing changed, but the next process can trust what this sweep saw
                finally:
                    self._rows_read = None

    def _prescan(self, every: bool = False) -> None:
        """Parse the files before taking the lock, so the critical section only compares stat keys;
        ``every``: every memory's record too (a rebuild needs them all), not only the files changed."""
        with suppress(StoreError):
            found = self.scan()
            if every:
                for _entry in found.entries.values():
                    pass

    def _derive(self, tx: "Transaction") -> None:
        """After the commit: ``MEMORY.md``, its stamp and the journal anchor. Derived files failing
        to update is a warning (the next operation rebuilds them), never a failed change."""
        try:
            if tx.reindex:
                # A file a sweep found unreadable is journaled as nothing (its history keeps its last version),
                # yet no reader shows it: its index line goes too (DESIGN §3), and comes back with its next
                # readable bytes (an external-edit, an event of its name). Only a sweep sees a file edited in
                # place, and only it has the unreadable files at hand (a fresh write reads no other row).
                unreadable = (Path(bad.path).stem for bad in tx.scan.malformed
                              if Path(bad.path).parent == self.path) if tx.full else ()
                touched = {*tx.touched, *(e.name for e in tx.events if e.name), *unreadable}
                if tx.rebuild or (tx.full and not self._index.partial):
                    touched = None  # every record (in a process that has them all, compared by identity)
                self._write_index(tx.scan.entries, touched, tx.warnings)
                self.note_held(tx.scan, tx.full, tx.files_changed if self._manifest_trusted else None)  # (.held)
            elif tx.changed:
                self._stamp(tx.scan.entries.values(), self._index.deadline if self._index.built else False)
        except StoreError as exc:
            said = index_refusal(self.meta.parent) or f"{exc}; the index is rebuilt on the next operation"
            tx.warnings.append(f"the change is saved, but {said}")
            self._index_written, self._index = None, IndexBuilder(self.settings.stale_after_days)
            with suppress(OSError):
                os.unlink(self.meta / STAMP_FILE)  # never trust MEMORY.md that missed a change
        try:
            self.journal.anchor()
        except StoreError as exc:
            tx.warnings.append(f"the change is saved, but the journal anchor was not updated: {exc}")
        try:  # the scan now reflects every change this transaction made
            self._last_scan = (os.stat(self.path).st_mtime_ns, tx.scan)
            self._listing = (self._last_scan[0], tx.listed) if tx.listed is not None else None
            self._synced_journal = self.journal.stat_key()
        except (OSError, StoreError):
            self._last_scan = self._synced_journal = self._listing = None
        self._save_manifest(tx)


def meta_dir(path: Path) -> Path:
    """Where the layer directory ``path`` keeps its journal, manifest and lock (``path/.memdir``:
    :data:`memdir.files.layout.META_DIR`) when its :class:`Layer` is not given another ``meta``."""
    return Path(path) / META_DIR


def home_layers(home: Path, settings: Settings) -> list[Layer]:
    """A :class:`Layer` for every layer directory under ``home`` (user first,
    then every project), for home-wide work: verify, repair, reindex."""
    user = user_layer_dir(home)
    return [Layer(path, "user" if path == user else "project", settings) for path in layer_dirs(home)]
