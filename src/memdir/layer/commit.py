"""How one memory file change is made, committed or undone (DESIGN §1.3, §5).

A change is **committed exactly when its journal line is written and
synced**. Everything before that line can be undone; everything after it is
bookkeeping that a later operation (or ``memdir verify --repair``) finishes.
:meth:`memdir.layer.layer.Transaction.apply` runs these steps under the
layer lock:

1. :func:`preserve`: every file the change will replace or remove is read
   now; bytes that are not the journal's latest version of that name (a hand
   edit, a file memdir cannot parse, a duplicate) are journaled first as an
   ``external-edit`` with their object, so nothing on disk is lost without a
   version to restore.
2. :func:`stage_write` / :func:`stage_remove`: the new bytes replace the file
   (the old file kept as a hard link ``.<file>.<random>.bak``), or the file is
   renamed aside to ``.<file>.<random>.del``. Both fail before anything
   changed on a read-only layer.
3. the journal line — the commit. When it cannot be written, :meth:`Staged.undo`
   puts every file back as it was and the operation fails.
4. :meth:`Staged.done` drops the backups.

After a crash, the next operation on the layer (under the lock) finishes or
undoes what was cut (:func:`restore_aside` and the hand-edit sweep of
:meth:`~memdir.layer.layer.Transaction.sync_external`): a file renamed aside
but not journaled as deleted comes back ("before") — and until then a reader
counts it present (:func:`uncommitted_asides`); bytes the gateway wrote
(their object is stored) but did not journal are journaled with the origin the
file states ("after"). Backups and temp files left by a killed writer are
dot-files no reader sees; when they are removed is :mod:`memdir.layer.leftovers`'s rule.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from ..errors import MemdirError, StoreError
from ..files.conflicts import CONFLICT, has_conflict
from ..files.fsio import (
    ASIDE_SUFFIX,
    BACKUP_SUFFIX,
    atomic_write,
    digest,
    fsync_dir,
    read_bytes,
    side_name,
    side_of,
)
from ..files.memfile import MalformedMemory, declared_name, parse
from ..files.scan import blank
from .held import held_names
from .journal import Event, Journal
from .leftovers import listed

COMPLETED = "interrupted write, completed"  # the reason of a write's journal line a sweep wrote for it (sweep)


def preserve(journal: Journal, name: str, path: Path, session: str | None) -> Event | None:
    """Journal the bytes ``path`` holds now as an ``external-edit`` of ``name``
    when they are not the journal's latest version of that name, nor blank (an edit in progress:
    :func:`memdir.files.scan.blank`) (its reason names a file with an unresolved
    merge conflict as one); the event, or None when there was nothing to keep. Raises :class:`StoreError`."""
    data = read_bytes(path, follow=False)  # a symlink's outside target is never copied into objects/
    if data is None or blank(data):  # an edit in progress holds no text to keep (memdir.files.scan.blank)
        return None
    key = digest(data)
    head = journal.head(name)
    if key == head:
        return None
    journal.put_object(data)
    what = f"{path.name} with an {CONFLICT}" if has_conflict(data) else path.name
    return journal.append("human", "external-edit", name, head, key, session=session,
                          reason=f"kept before memdir changed {what}")


def refuse_special(path: Path) -> None:
    """Raise :class:`StoreError` when ``path`` exists and is neither a regular
    file nor a symlink (a FIFO, a socket, a device, a directory): memdir
    never opens, replaces or removes one."""
    try:
        mode = os.lstat(path).st_mode
    except FileNotFoundError:
        return
    except OSError as exc:
        raise StoreError(f"cannot check {path}: {exc.strerror or exc}") from None
    if not (stat.S_ISREG(mode) or stat.S_ISLNK(mode)):
        kind = ("a FIFO" if stat.S_ISFIFO(mode) else "a socket" if stat.S_ISSOCK(mode)
                else "a directory" if stat.S_ISDIR(mode) else "a device")
        raise StoreError(f"{path} is {kind}, not a memory file; memdir does not open or replace it: "
                         "remove it, or choose another name")


class Staged:
    """One file change made but not committed: :meth:`undo` puts the old
    state back, :meth:`done` drops what was kept for that."""

    def __init__(self, path: Path, keep: Path | None, old: bytes | None, removed: bool):
        self.path, self.keep, self.old, self.removed = path, keep, old, removed

    def undo(self) -> None:
        """Put the file back as it was (best effort: never raises)."""
        try:
            if self.keep is not None:
                os.replace(self.keep, self.path)
            elif self.old is not None:
                atomic_write(self.path, self.old)
            elif not self.removed:
                os.unlink(self.path)  # it was created by this change
        except (OSError, StoreError):
            pass

    def done(self) -> None:
        """Drop the backup (best effort: a leftover goes by :mod:`memdir.layer.leftovers`'s rule)."""
        if self.keep is not None:
            try:
                os.unlink(self.keep)
            except OSError:
                pass


def stage_write(path: Path, payload: bytes, *, sync: bool = True) -> Staged:
    """Replace ``path`` with ``payload`` atomically, keeping the old file as a
    hard link (no copy, no space) so the change can be undone. The link is
    taken once the new bytes are on disk, just before the rename, so it holds
    what the rename replaces — a person's save since :func:`preserve` read the
    file included (:func:`late_edit` journals it). ``sync`` False: neither the file nor its directory
    is fsynced (a batch syncs its files once: :func:`sync_written`). Raises :class:`StoreError`;
    nothing changed then."""
    refuse_special(path)
    kept: list = [None, None]  # the hard link, or the old bytes where there is none

    def keep_old() -> None:
        if not os.path.lexists(path):
            return
        keep = side_name(path, BACKUP_SUFFIX)
        try:
            os.link(path, keep, follow_symlinks=False)
            kept[0] = keep
        except OSError:  # no hard links here (some network file systems): keep the bytes instead
            kept[1] = read_bytes(path, follow=False)

    try:
        atomic_write(path, payload, before_replace=keep_old, sync=sync)
    except StoreError:
        if kept[0] is not None:
            try:
                os.unlink(kept[0])
            except OSError:
                pass
        raise
    return Staged(path, kept[0], kept[1], removed=False)


def sync_written(directory: Path, paths: list[Path]) -> None:
    """Make the files ``paths`` (written in ``directory`` without a sync: :func:`stage_write`) and the
    directory's names of them durable, at once: on Linux one ``syncfs(2)`` of the file system holding
    ``directory`` (about a millisecond, where an fsync of each file costs one journal commit of the file
    system each: minutes for 10,000); elsewhere one ``sync(2)`` where there is one, else an fsync of each
    file and of the directory. Raises :class:`StoreError`."""
    try:
        if _syncfs(directory):
            return
        if hasattr(os, "sync"):
            os.sync()
            return
        for path in paths:
            fd = os.open(path, os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        fsync_dir(directory)
    except OSError as exc:
        raise StoreError(f"cannot sync the files written in {directory}: {exc.strerror or exc}") from None


def _syncfs(directory: Path) -> bool:
    """``syncfs(2)`` of the file system holding ``directory``: True when done, False where there is no
    such call (not Linux, no C library). Raises :class:`OSError` when the call fails."""
    import sys

    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # late: only a batch of writes needs it

    try:
        call = ctypes.CDLL(None, use_errno=True).syncfs
    except (OSError, AttributeError):
        return False
    fd = os.open(directory, os.O_RDONLY)
    try:
        if call(fd) != 0:
            err = ctypes.get_errno()
            raise OSError(err, os.strerror(err))
    finally:
        os.close(fd)
    return True


def late_edit(journal: Journal, name: str, step: Staged, known: set, session: str | None) -> Event | None:
    """Journal as an ``external-edit`` the bytes ``step`` replaced or renamed aside when they are
    none of ``known`` (the digests :func:`preserve` saw, or the journal's latest): a person's editor
    saved the file between memdir's read and its replace (in place, or by a rename before the
    backup link). Call before the change's own journal line. The event, or None."""
    data = step.old if step.keep is None else read_bytes(step.keep, follow=False)
    if data is None or blank(data):  # an editor's truncation caught mid-save: no text, nothing to keep
        return None
    key = digest(data)
    if key in known:
        return None
    journal.put_object(data)
    return journal.append("human", "external-edit", name, journal.head(name), key, session=session,
                          reason=f"saved while memdir changed {step.path.name}")


class Renamed(Staged):
    """A file renamed to ``to`` (:func:`stage_case_rename`): :meth:`undo` renames it back; nothing is kept."""

    def __init__(self, path: Path, to: Path):
        super().__init__(path, None, None, removed=True)
        self.to = to

    def undo(self) -> None:
        """Rename the file back (best effort: never raises)."""
        try:
            os.rename(self.to, self.path)
        except OSError:
            pass


def stage_case_rename(path: Path, to: Path) -> Staged:
    """Rename ``path`` to ``to``, a name that differs from it only by case (``Deploy.md`` to ``deploy.md``):
    one rename, which macOS and Windows, taking the two names for one file, apply as a change of case — where
    writing ``to`` and removing ``path`` would remove the file just written. Raises :class:`StoreError`;
    nothing changed then."""
    refuse_special(path)
    try:
        os.rename(path, to)
    except OSError as exc:
        raise StoreError(f"cannot rename {path} to {to.name}: {exc.strerror or exc}") from None
    return Renamed(path, to)


def stage_remove(path: Path) -> Staged:
    """Rename ``path`` aside (``.<file>.<random>.del``) so the removal can be
    undone until it is journaled. Raises :class:`StoreError` (read-only
    layer, permissions); nothing changed then."""
    refuse_special(path)
    aside = side_name(path, ASIDE_SUFFIX)
    try:
        os.rename(path, aside)
    except OSError as exc:
        raise StoreError(f"cannot remove {path}: {exc.strerror or exc}") from None
    return Staged(path, aside, None, removed=True)


def uncommitted_asides(directory: Path, heads: dict[str, str], gone, asides=None) -> list[tuple[str, Path]]:
    """The deletes that never reached the journal, still renamed aside: ``(name, aside path)`` for each
    name of ``gone`` (journaled as present, no file holds it now) whose latest version's bytes
    (``heads``) a ``.<file>.<random>.del`` in ``directory`` holds — whose file name is free again.
    ``asides``: the aside file names already listed (a scan's), else ``directory`` is listed. Such a
    memory is still there: a reader counts it present (:meth:`memdir.layer.layer.Layer.scan`), the next
    sweep renames it back (:func:`restore_aside`). Never raises for a file that went meanwhile."""
    paths = ([directory / f for f in asides] if asides is not None
             else [item.path for item in listed([directory], (ASIDE_SUFFIX,))])
    if not paths or not gone:
        return []
    by_digest: dict[str, Path] = {}
    for path in paths:
        try:
            data = read_bytes(path, follow=False)
        except StoreError:
            continue
        if data is not None:
            by_digest[digest(data)] = path
    found = []
    for name in gone:
        path = by_digest.pop(heads.get(name) or "", None)
        if path is not None and not os.path.lexists(directory / side_of(path.name)):
            found.append((name, path))
    return found


def restore_aside(directory: Path, heads: dict[str, str], gone: list[str]) -> list[str]:
    """Files renamed aside by a delete that was never journaled (:func:`uncommitted_asides`), renamed
    back. Returns the file names restored. Call under the layer lock."""
    restored = []
    for _name, path in uncommitted_asides(directory, heads, gone):
        original = side_of(path.name)
        try:
            os.rename(path, directory / original)
            restored.append(original)
        except OSError:
            continue
    return restored


def cut_write(journal: Journal, name: str, died_at: int | None, is_referenced, edited: str) -> str | None:
    """The digest of a version of ``name`` that a writer killed holding the layer's lock (it took it at
    ``died_at``, ns: :class:`memdir.layer.leftovers.WriterMark`) stored and wrote but never journaled,
    and that a hand edit then replaced before the next transaction (break23: an approval killed before
    its line, its text then edited by hand, lost its version and left the candidate waiting). An object
    stored since ``died_at`` that no event names, is not the hand edit's own (``edited``: its digest) and whose
    frontmatter names ``name``; None when there is
    none, or when no dead holder was found (no listing then). Never raises."""
    if died_at is None:
        return None
    try:
        with os.scandir(journal.objects) as listing:
            fresh = [item.name for item in listing if item.stat(follow_symlinks=False).st_mtime_ns >= died_at]
    except OSError:
        return None
    for key in fresh:
        if len(key) != 64 or key == edited or is_referenced(key) or (data := read_bytes(journal.objects / key)) is None:
            continue
        if data.startswith(b"---") and declared_name(data.decode("utf-8", errors="replace")) == name:
            return key  # the name its frontmatter declares, however written (files.memfile reads it)
    return None


def sweep(journal: Journal, directory: Path, scan, rescan, session: str | None, names=None, died_at=None):
    """Journal every memory whose bytes differ from its journaled version:
    ``(events, new scan or None, names held back)`` — the last: memories journaled as present whose file is
    held back (below), which the index must leave out though no event names them. ``scan`` is the layer's
    (:class:`memdir.files.scan.Scan`: only the files that differ are parsed);
    ``rescan()`` scans again. Under the layer lock, in this order:

    * a name journaled as present whose file is gone, with its bytes in a
      ``.del`` file (a delete killed before its journal line): the file is
      renamed back, and the layer rescanned;
    * bytes whose object is stored but that no event names (a write killed
      before its journal line): journaled as that write, with the origin the
      file states;
    * anything else (a person's editor, another tool): ``external-edit`` by
      ``human`` — first, when a writer died holding the lock (``died_at``), the version it wrote that the
      hand edit replaced (:func:`cut_write`), journaled as that write; a file gone: ``external-delete`` — but not a file still on disk and held back (a merge
      conflict, a forgotten value put back: :func:`memdir.layer.held.held_names`): that memory is not
      deleted, its head stays its last version until what settles it is journaled; nor a file still there
      that cannot be read otherwise (``scan.malformed``: reported, its last version kept).

    ``names`` (a set): those memories alone, as the whole sweep journals them — the memories whose
    held-back verdict moved with the tombstones (:mod:`memdir.layer.held`), taken up without the rest of
    the layer (no other head, file or journal line looked at).
    """
    rescanned = None
    entries = scan.entries
    if names is None:
        heads = journal.heads()
        current = {name: scan.files[filename].digest for name, filename in scan.names.items()}
        is_referenced = None  # every object the journal names, read once when a name changed
    else:
        heads = {name: head for name in names if (head := journal.head(name)) is not None}
        current = {name: scan.files[filename].digest for name in names if (filename := scan.names.get(name))}
        is_referenced = journal.references  # one key at a time: the few lines that hold it
    # Set operations on dict views run in C: this stays cheap at 10,000 memories.
    gone = sorted(heads.keys() - current.keys())
    if gone and restore_aside(directory, heads, gone):
        scan = rescanned = rescan()
        entries = scan.entries
        current = {name: scan.files[filename].digest for name, filename in scan.names.items()
                   if names is None or name in names}
        gone = sorted(heads.keys() - current.keys())
    waiting = []
    if gone:
        held = held_names(scan, gone if names is not None else None)
        waiting = [name for name in gone if name in held]
        gone = [name for name in gone if name not in held]
    changed = sorted(name for name, _ in current.items() - heads.items())
    if changed and is_referenced is None:
        is_referenced = journal.referenced().__contains__
    events = []
    with journal.batched():  # one fsync for the whole sweep, not one per file (Journal.batched)
        _journal_changed(journal, entries, changed, heads, events, is_referenced, died_at, session)
        # A file still there that memdir cannot read (an editor's half-written save, a YAML slip, a mode
        # or a symlink it will not follow) is reported as malformed, not journaled as deleted: its
        # history keeps its last version, and its next readable bytes are an external-edit of it.
        unreadable = {Path(bad.path).name for bad in scan.malformed if Path(bad.path).parent == directory} if gone else ()
        for name in gone:
            if f"{name}.md" not in unreadable:
                events.append(journal.append("human", "external-delete", name, heads.get(name), None, session=session))
    return events, rescanned, waiting


def _journal_changed(journal: Journal, entries, changed: list[str], heads: dict, events: list, is_referenced,
                     died_at, session: str | None) -> None:
    """:func:`sweep`'s lines for the memories whose bytes differ from their head (``changed``), appended to ``events``."""
    from ..vocabulary import ACTORS

    for name in changed:
        before = heads.get(name)
        # None: its file went or stopped holding it since the listing (a `git pull` or checkout of the team
        # layer takes no memdir lock); the next sweep journals what is there then
        entry = entries.get(name)
        data = read_bytes(entry.path) if entry is not None else None
        if data is None:
            continue
        key = digest(data)
        origin = entry.record.origin
        if journal.has_object(key) and origin in ACTORS and not is_referenced(key):
            events.append(journal.append(origin, "update" if before else "create", name, before, key,
                                         session=session, reason=COMPLETED))
        else:
            cut = cut_write(journal, name, died_at, is_referenced, key)
            journal.put_object(data)
            if cut is not None:
                cut_origin = _origin_of(journal, cut, name)
                events.append(journal.append(cut_origin, "update" if before else "create", name, before, cut,
                                             session=session, reason=COMPLETED))
                before = cut
            events.append(journal.append("human", "external-edit", name, before, key, session=session))


def _origin_of(journal: Journal, key: str, name: str) -> str:
    """Who wrote the stored version ``key`` of ``name``: the origin its file states, when it is an actor;
    else ``human``."""
    from ..vocabulary import ACTORS

    try:
        origin = parse(journal.get_object(key).decode("utf-8"), name).record.origin
    except (MalformedMemory, UnicodeDecodeError, MemdirError):
        return "human"
    return origin if origin in ACTORS else "human"


__all__ = ["COMPLETED", "Staged", "cut_write", "late_edit", "preserve", "restore_aside", "stage_remove", "stage_write", "sweep",
           "uncommitted_asides"]
