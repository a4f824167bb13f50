"""File names inside a layer, its ``layer.json`` and the index freshness check.

Every file memdir keeps in a layer's ``.memdir`` is named here and nowhere
else (:data:`META_ENTRIES`); ``layer.json`` (what a layer is: its kind, the
project root it belongs to, the repository's identity) has its one reader
and one writer here. Kept free of YAML and locking imports: the hot path
(rendering the injected context on every hook and step) needs only this
module and :mod:`context`.
"""

from __future__ import annotations

import os
import stat

INDEX_FILE = "MEMORY.md"
META_DIR = ".memdir"
# What memdir keeps inside a layer's META_DIR; none of it may be a symlink (see symlink_refusal).
JOURNAL_FILE = "journal.jsonl"    # the hash-chained events (memdir.layer.journal)
ANCHOR_FILE = "journal.anchor"    # the journal's size and last hash, kept apart from it
TORN_FILE = "journal.torn"        # a torn last line cut off the journal, kept
DAMAGED_FILE = "journal.damaged"  # every journal `memdir verify --repair` chained again, kept whole (layer.chain)
STAMP_FILE = "index.stamp"        # MEMORY.md's freshness stamp (index_is_fresh)
LOCK_FILE = "lock"                # the layer's cross-process lock
WRITER_FILE = "lock.held"         # there while a process holds the lock; left by one killed holding it (layer.leftovers)
QUEUE_FILE = "lock.queue"         # the line of writers waiting for the lock, each blocked in flock (layer.waiting)
LAYER_FILE = "layer.json"         # what the layer is (read_layer_info, write_layer_info)
TOMBSTONES_FILE = "tombstones.json"  # a personal layer's tombstones (memdir.tombstones.stones)
TEAM_TOMBSTONE_DIR = "tombstones"  # the team layer's, one file each, inside its directory (memdir.layer.team)
# Every team tombstone this machine has read, in the team layer's home side: one whose file leaves the repository
# with no lift here stays in force here (memdir.tombstones.stones.TombstoneDir).
SEEN_TOMBSTONES_FILE = "team-tombstones.json"
# Its mtime: the tombstones' key (stones_key) the layer's files were last judged against (memdir.layer.held).
HELD_FILE = "held.stamp"
OBJECTS_DIR = "objects"           # every version's bytes, by digest
# Reads and last read per memory (memdir.layer.usage): derived, like MEMORY.md — a symlink there is never
# read (O_NOFOLLOW) and the next count replaces the link itself, atomically; it never hides the layer.
USAGE_FILE = "usage.json"
# What the last transaction learned of the files (memdir.layer.manifest): derived, like MEMORY.md — a
# symlink there is never opened, and the next save replaces the link itself; it never hides the layer.
MANIFEST_FILE = "manifest.sqlite"
# Where each MEMORY.md line lies (memdir.files.outline): derived, like MEMORY.md — a symlink there is never
# opened, and the next index write replaces the link itself.
OUTLINE_FILE = "index-outline"
# How many files of the layer are held back, by kind (memdir.layer.held): derived, written with MEMORY.md, absent
# when none is; the context block says so (memdir.prompt.context). Read with O_NOFOLLOW, never through a symlink.
HELD_FILES_FILE = "held-files"
# What `memdir review` last showed of each candidate, name → digest (memdir.operations.trust): derived, best effort;
# a decision without a digest is checked against it. Read with O_NOFOLLOW, never through a symlink.
SHOWN_FILE = "review-shown.json"
# The home's folder of install records, one ``<client>.json`` per coding agent memdir is installed into
# (memdir.operations.installed; read on the session start's path by memdir.prompt.start.mcp_reachable).
INSTALLS_DIR = "integrations"
SWEPT_FILE = "swept"              # its mtime: when the context last stat'ed every file (index_is_fresh)
SWEEP_LOCK_FILE = "sweep.lock"    # held by the layer's detached sweeper; its mtime: when one last started (files.sweeps)
META_ENTRIES = (JOURNAL_FILE, ANCHOR_FILE, TORN_FILE, DAMAGED_FILE, STAMP_FILE, LOCK_FILE, WRITER_FILE, QUEUE_FILE,
                LAYER_FILE, TOMBSTONES_FILE, OBJECTS_DIR, SWEPT_FILE, SWEEP_LOCK_FILE, HELD_FILE,
                SEEN_TOMBSTONES_FILE)
# How long an in-place hand edit of a memory file may go unseen, across processes: the context's
# sweep (index_is_fresh) and a large layer's (memdir.files.sweeps.sweep_can_wait) wait at most this
# long. Read at call time (sweep_interval), so a test may patch it; MEMDIR_SWEEP_INTERVAL (seconds)
# overrides it for a process and the processes it starts (the tests' fresh processes).
SWEEP_INTERVAL = 30.0


def is_memory_file_name(filename: str) -> bool:
    """True for a file name that may hold a memory: ``*.md``, not a dot-file
    (temp files, ``.memdir``) and not ``MEMORY.md`` in any case (``str.lower``: no character but the
    ASCII letters' own lowers to one of its letters). (Whether it is a regular file, not a symlink, is
    the scan's to check.) The one rule, string methods alone: the hot path sweeps a layer with it and
    loads no :mod:`re`."""
    return filename.endswith(".md") and filename[:1] != "." and not (
        len(filename) == 9 and filename.lower() == "memory.md")


def case_twins(filename: str, filenames) -> list[str]:
    """The names of ``filenames`` (a layer's files) other than ``filename`` that differ from it only by case
    (``Deploy.md`` for ``deploy.md``), in their order: macOS and Windows take such names for one file, so a
    write of one replaces the other there and a clone there keeps only one of them. The one rule of which
    file names collide (:meth:`memdir.layer.transaction.Transaction.apply`, the scan's duplicates)."""
    folded = filename.casefold()
    return [other for other in filenames if other != filename and other.casefold() == folded]


def index_refusal(index_dir: str | os.PathLike) -> str | None:
    """Why ``MEMORY.md`` cannot be written in ``index_dir``, or None: a directory stands where memdir keeps
    it (a rename cannot replace one, and memdir never removes what a person put there; a symlink, a FIFO
    or a file are replaced by the next write). The context block is then rendered from the files each
    time (correct, but each time). Never raises."""
    path = os.path.join(index_dir, INDEX_FILE)
    try:
        is_directory = stat.S_ISDIR(os.lstat(path).st_mode)
    except OSError:
        return None
    return (f"{path} is a directory, so memdir cannot write its index there (it never removes what is in its "
            "place): move it away, and the next change writes MEMORY.md again") if is_directory else None


def symlink_refusal(layer_dir: Path, meta: bool = True) -> str | None:
    """Why ``layer_dir`` must not be used, or None: the layer directory, its
    ``.memdir`` or a file memdir keeps in ``.memdir`` is a
    symbolic link. Followed, it would list, inject, index and rewrite files
    outside the layer, or append the journal elsewhere. (A memory file that is
    a symlink is not a memory: the scan skips it and says so. ``MEMORY.md`` is derived: a symlink
    there is never read (``O_NOFOLLOW``, :func:`index_is_fresh`) and the next rebuild replaces the
    link itself, atomically, never writing through it; so is :data:`USAGE_FILE`.) One ``lstat`` per
    entry of :data:`META_ENTRIES` and two more; with ``meta`` False only the directory's (the hot path, which opens
    ``MEMORY.md`` with ``O_NOFOLLOW`` and reads no meta file)."""
    meta_dir = os.path.join(layer_dir, META_DIR)
    paths = (str(layer_dir), meta_dir,
             *(os.path.join(meta_dir, entry) for entry in META_ENTRIES)) if meta else (str(layer_dir),)
    for path in paths:
        if os.path.islink(path):
            try:
                target = os.readlink(path)
            except OSError:
                target = "?"
            return (f"{path} is a symbolic link (to {target}); memdir does not follow symlinks in a layer: "
                    "replace it with the real directory or file")
    return None


def layer_place(layer_dir: Path, scope: str) -> str:
    """A layer's place for a person, in a refusal to write: ``the home /h`` for the user layer
    (``<home>/_user``) and a project layer (``<home>/projects/<key>``), ``the team layer /p`` for the team's."""
    if scope == "team":
        return f"the team layer {layer_dir}"
    return f"the home {layer_dir.parent if scope == 'user' else layer_dir.parent.parent}"


def sweep_interval() -> float:
    """Seconds an in-place edit may go unseen (:data:`SWEEP_INTERVAL`, or the
    ``MEMDIR_SWEEP_INTERVAL`` environment variable when it holds a number ≥ 0)."""
    raw = os.environ.get("MEMDIR_SWEEP_INTERVAL")
    if raw:
        try:
            value = float(raw)
        except ValueError:
            value = -1.0
        if value >= 0:
            return value
    return SWEEP_INTERVAL


def index_state(where) -> tuple[int, int, int, int] | None:
    """What ``MEMORY.md`` is known by between two reads: ``(size, mtime ns, inode, ctime ns)`` of
    ``where`` (a path, ``lstat``'ed — None when that fails — or a stat result). The ctime is there
    because a hand edit that puts the mtime back (``touch -d``, an editor keeping times) cannot put it
    back: size, mtime and inode alone would take the edited file for the one memdir wrote."""
    if not isinstance(where, os.stat_result):
        try:
            where = os.lstat(where)
        except OSError:
            return None
    return (where.st_size, where.st_mtime_ns, where.st_ino, where.st_ctime_ns)


def index_is_fresh(layer_dir: Path, now_ns: int, index_dir: Path | None = None, on_due=None) -> bool:
    """True when ``MEMORY.md`` of ``layer_dir`` still equals what a rebuild
    would write: no file added, removed or renamed since the last rebuild
    (the stamp's mtime equals the directory's), ``MEMORY.md`` not edited since
    (neither its mtime nor its ctime is after the stamp's ctime: an edit that puts the mtime back
    still moves the ctime; a ``MEMORY.md`` that is not a regular file — a
    symlink — is never fresh, so the rebuild replaces it), no tombstone added or lifted since the files
    were last judged (:func:`judged`: a file a tombstone matches is held back, :mod:`memdir.layer.held`), the stamped deadline (its
    atime: the next day boundary or valid-time edge) not reached, and no memory
    file edited in place since the stamp, as far as the last sweep saw.

    A file edited in place (same inode: many editors write so) keeps the
    directory's mtime. So at most once per :func:`sweep_interval`, across
    processes (the mtime of ``.memdir/swept`` records the last sweep), every
    memory file is ``lstat``'ed: one whose ctime is after the stamp's ctime (the
    last rebuild) makes the index not fresh, and the rebuild
    (:meth:`memdir.layer.layer.Layer.current_index`) journals the edit and
    updates ``MEMORY.md``. Within the interval: four stats, whatever the
    layer's size. An edit that lands while a memdir write of the layer is
    between its sweep and its stamp is seen by the layer's next sweep instead.
    Any memdir operation that scans the layer takes such edits up at once
    (:meth:`memdir.layer.layer.Layer.scan`). ``on_due()``, when given, is asked first once the
    sweep is due: True means it was handed off (:func:`memdir.files.sweeps.hand_off_if_large`: a
    large layer, a hook or CLI command) and the index counts as fresh, no file stat'ed.
    """
    try:
        directory = os.stat(layer_dir)
        stamp = os.stat(os.path.join(index_dir or layer_dir, META_DIR, STAMP_FILE))
    except OSError:
        return False
    if stamp.st_mtime_ns != directory.st_mtime_ns or now_ns >= stamp.st_atime_ns:
        return False
    if not judged(layer_dir, os.path.join(index_dir or layer_dir, META_DIR)):
        return False
    try:
        index = os.lstat(os.path.join(index_dir or layer_dir, INDEX_FILE))
    except FileNotFoundError:
        return True
    except OSError:
        return False
    if not stat.S_ISREG(index.st_mode) or edited_after(index, stamp):
        return False
    return _swept(layer_dir, os.path.join(index_dir or layer_dir, META_DIR, SWEPT_FILE), stamp.st_ctime_ns, now_ns,
                  on_due)


def stones_key(layer_dir: str | os.PathLike) -> int:
    """When the tombstones of the layer at ``layer_dir`` last changed: the ctime (ns) of its tombstone
    file (``.memdir/tombstones.json``) or, for the team layer, of its tombstone directory (a tombstone
    added or lifted, by memdir or by a ``git pull``, moves it); the later of the two, 0 when neither
    exists. Two stats. The ctime, not the mtime: an mtime can be put back (memdir gives a settled
    ``tombstones.json`` the journal's, :func:`memdir.layer.drift.settle_tombstones`; a sync tool keeps the
    sender's), so tombstones changed since could take a key other tombstones were judged with — the
    manifest's judgement (:func:`judged`) and the search index's were then trusted, and a lifted memory's
    tombstone put back left it in ``MEMORY.md``, ``list`` and search; a ctime only moves on."""
    key = 0
    for path in (os.path.join(layer_dir, META_DIR, TOMBSTONES_FILE), os.path.join(layer_dir, TEAM_TOMBSTONE_DIR)):
        try:
            key = max(key, os.stat(path, follow_symlinks=False).st_ctime_ns)
        except OSError:
            pass
    return key


def judged_key(meta_dir: str | os.PathLike) -> int:
    """The :func:`stones_key` the layer's files were last judged against (whether each is held back:
    :mod:`memdir.layer.held`), kept as the mtime of ``meta_dir``'s :data:`HELD_FILE`; 0 when none is."""
    try:
        return os.stat(os.path.join(meta_dir, HELD_FILE), follow_symlinks=False).st_mtime_ns
    except OSError:
        return 0


def judged(layer_dir: str | os.PathLike, meta_dir: str | os.PathLike) -> bool:
    """Whether the layer's files were last judged against its tombstones as they are (:func:`stones_key`
    equals :func:`judged_key`): False after a tombstone was added or lifted since — then what the
    manifest, ``MEMORY.md`` and the search index hold of a file a tombstone names, or of one held back, is
    not trusted until it is judged again (:mod:`memdir.layer.held`). Three stats."""
    return stones_key(layer_dir) == judged_key(meta_dir)


def record_judged(meta_dir: str | os.PathLike, key: int) -> None:
    """Record that the layer's files were judged against tombstones of :func:`stones_key` ``key``
    (:func:`judged`); nothing when it cannot be written (the next process judges them again)."""
    path = os.path.join(meta_dir, HELD_FILE)
    try:
        if key == 0:
            os.unlink(path)
            return
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.utime(fd, ns=(key, key))
        finally:
            os.close(fd)
    except OSError:
        pass


def rekey_judged(meta_dir: str | os.PathLike, before: int, after: int, same: bool) -> None:
    """The tombstones' :func:`stones_key` moved from ``before`` to ``after`` with no file judged (memdir gave
    ``tombstones.json`` the journal's mtime: :func:`memdir.layer.drift.settle_tombstones`); ``same``: their
    content did not change. The record of :func:`judged_key` follows: moved to ``after`` when it was of
    ``before`` and ``same``; dropped (every reader judges again the files a tombstone may move) when it is of
    ``after`` — a key the tombstones had before they last changed, whose judgement is not of them now (before:
    a sync that put a lifted tombstone back, settled by the next transaction, took the key the lift had, and
    the lift's verdicts were trusted: the forgotten memory stayed in ``MEMORY.md`` and ``list``)."""
    if before == after:
        return
    judged_at = judged_key(meta_dir)
    if same and judged_at == before:
        record_judged(meta_dir, after)
    elif judged_at == after:
        record_judged(meta_dir, 0)


def edited_after(index: os.stat_result, stamp: os.stat_result) -> bool:
    """``MEMORY.md`` changed after memdir last wrote it and then its stamp: its mtime or ctime passes
    the stamp's ctime (an edit whose mtime was put back still moved its ctime)."""
    return max(index.st_mtime_ns, index.st_ctime_ns) > stamp.st_ctime_ns


def keep_edited_index(index_file: Path, meta_dir: Path, data: bytes, notes: list | None = None) -> str | None:
    """Before ``MEMORY.md`` (``index_file``) is rewritten as ``data``: when someone edited it after
    memdir last wrote it (:func:`index_is_fresh`'s rule, against the stamp in ``meta_dir``) and it
    holds other bytes, a copy of it in ``meta_dir`` (``MEMORY.md.edited-<UTC time>``) and a note saying
    so, returned and appended to ``notes`` — the file is derived and rewritten from the memories, but a line a person typed
    there is never lost. None when it was not edited, there is no stamp to tell, or the copy fails."""
    try:
        index = os.lstat(index_file)
        stamp = os.stat(meta_dir / STAMP_FILE)
        if not stat.S_ISREG(index.st_mode) or not edited_after(index, stamp):
            return None
        edited = index_file.read_bytes()
        if edited == data:
            return None
        import time

        kept = _keep_new(meta_dir / f"{EDITED_PREFIX}{time.strftime('%Y%m%dT%H%M%SZ', time.gmtime())}", edited)
    except OSError:
        return None
    note = edited_index_note(kept)
    if notes is not None:
        notes.append(note)
    if _reported is not None:  # a command that says so once (the CLI: reporting_kept_copies)
        _reported.append(note)
    return note


def _keep_new(path: Path, data: bytes) -> Path:
    """``data`` written durably (fsync'ed: the file it was copied from is replaced next) to a new file (mode
    0600) named ``path``, or ``path`` with ``-2``, ``-3`` … when that is taken — a second hand edit kept in the
    same second as the first (before break28 its copy failed on the name taken, the edit was replaced with no
    copy and no note). Returns the path written. Raises :class:`OSError`."""
    for number in range(1, 1000):
        candidate = path if number == 1 else path.with_name(f"{path.name}-{number}")
        try:
            fd = os.open(candidate, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        except FileExistsError:
            continue
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError:
            os.close(fd)
            os.unlink(candidate)
            raise
        os.close(fd)
        return candidate
    raise FileExistsError(f"{path}: 999 copies of it are kept already")


EDITED_PREFIX = f"{INDEX_FILE}.edited-"  # + the UTC time: a hand-edited MEMORY.md kept aside (keep_edited_index)
_reported: list[str] | None = None


def edited_index_note(kept) -> str:
    """What is said of a hand-edited ``MEMORY.md`` kept aside at ``kept`` (:func:`keep_edited_index`): by the
    write or command that rebuilt it (once) and by ``memdir status``/``doctor`` while the copy is there —
    ``MEMORY.md`` is derived, a fact belongs in a memory file."""
    return (f"{INDEX_FILE} was edited by hand; it is made from the memory files and was written again — the "
            f"edited copy is kept at {kept} (a fact belongs in a memory: memdir write, or edit a memory's file; "
            f"remove the copy once nothing in it is needed)")


def edited_copies(meta_dir) -> list[str]:
    """The hand-edited ``MEMORY.md`` copies kept in ``meta_dir`` (:func:`keep_edited_index`), as paths, oldest
    first; none when the directory cannot be listed."""
    try:
        names = sorted(n for n in os.listdir(meta_dir) if n.startswith(EDITED_PREFIX))
    except OSError:
        return []
    return [os.path.join(meta_dir, n) for n in names]


class reporting_kept_copies:
    """``with reporting_kept_copies() as kept:`` — ``kept`` (a list) receives the note of every hand-edited
    ``MEMORY.md`` this process keeps aside meanwhile (:func:`keep_edited_index`), however the rebuild came
    about (a write, ``memdir context``, ``status``, a take-up while reading), so the command can say it once."""

    def __enter__(self) -> list[str]:
        global _reported
        self._previous, _reported = _reported, []
        return _reported

    def __exit__(self, *exc) -> None:
        global _reported
        _reported = self._previous


def _swept(layer_dir: Path, swept: str, stamped_ns: int, now_ns: int, on_due=None) -> bool:
    """False when a memory file of ``layer_dir`` changed after ``stamped_ns`` (the stamp's ctime),
    looked at only when the last sweep (``swept``'s mtime) is :func:`sweep_interval` old and
    ``on_due`` (see :func:`index_is_fresh`) did not take the sweep; True otherwise, the sweep's time
    then recorded (when it can be: a read-only layer sweeps each time)."""
    try:
        if now_ns - os.stat(swept, follow_symlinks=False).st_mtime_ns < sweep_interval() * 1e9:
            return True
    except OSError:
        pass
    if on_due is not None and on_due():
        return True
    try:
        with os.scandir(layer_dir) as listing:
            for item in listing:
                if not is_memory_file_name(item.name):
                    continue
                try:
                    st = item.stat(follow_symlinks=False)
                except OSError:
                    continue
                if st.st_ctime_ns > stamped_ns:
                    return False
    except OSError:
        return False
    record_swept(swept)
    return True


def record_swept(swept: str | os.PathLike) -> None:
    """Record that every memory file of a layer was stat'ed now: ``swept`` (its ``.memdir/swept``)
    made or touched (:func:`index_is_fresh`); nothing when it cannot be written."""
    try:
        fd = os.open(swept, os.O_WRONLY | os.O_CREAT | getattr(os, "O_NOFOLLOW", 0), 0o600)
        try:
            os.utime(fd)
        finally:
            os.close(fd)
    except OSError:
        pass


def read_layer_info(meta_dir: Path) -> dict | None:
    """What ``<meta_dir>/layer.json`` says of its layer: ``kind`` (its
    scope), ``root`` (a project layer's canonical project root, else None)
    and, when known, the repository's ``remote`` and ``first_commit``
    (:func:`memdir.git.identity`). None when there is no such file, it
    cannot be read or is not a JSON object. Reads what every version wrote:
    ASCII JSON (a root whose name is not UTF-8 as ``\\udcXX`` escapes), and
    UTF-8 or bytes that are not UTF-8 (decoded as Python decodes a path), so
    the root comes back as the same ``str`` the session had."""
    import json  # late: most layers' context path reads no JSON file (a few ms of every hook)

    try:
        with open(os.path.join(meta_dir, LAYER_FILE), "rb") as handle:
            info = json.loads(handle.read().decode("utf-8", "surrogateescape"))
    except (OSError, ValueError):
        return None
    return info if isinstance(info, dict) else None


def describe_layer(meta_dir: str | os.PathLike, kind: str, root: str | os.PathLike | None) -> None:
    """Write ``layer.json`` (:func:`write_layer_info`) when the layer has none yet: its ``kind`` and ``root``
    and, for a project layer, the repository's identity (:func:`memdir.git.identity`: what finds the layer
    again if the project moves, :mod:`memdir.operations.relocate`). A project layer's that names another root
    while the layer's directory is ``root``'s by its key (:func:`memdir.paths.project_key`: a layer copied or
    renamed by hand for a clone or a second checkout) is written again for ``root``, so a later move, sync or
    ``memdir doctor`` does not take it for the other project's; a team layer's of a linked git worktree that does
    not record it (:func:`memdir.git.identity`'s ``worktree``) is written again too. Raises :class:`StoreError`."""
    there = os.path.exists(os.path.join(meta_dir, LAYER_FILE))
    if there and root is not None and kind == "team" and os.path.isfile(os.path.join(root, ".git")):
        # a linked worktree's team layer described before memdir kept which (identity's "worktree": what tells
        # doctor its journal is no checkout's once git removed the worktree): described again, once
        from ..gitfiles import git_dir, linked_common_dir

        linked = (found := git_dir(root)) is not None and linked_common_dir(root, found) is not None
        there = not linked or "worktree" in (read_layer_info(meta_dir) or {})
    if there and root is not None and kind == "project":
        from ..paths import project_key

        recorded = (read_layer_info(meta_dir) or {}).get("root")
        there = not (isinstance(recorded, str) and recorded != str(root)
                     and os.path.basename(os.path.dirname(os.path.abspath(meta_dir))) == project_key(root))
    if not there:  # replaced atomically: a kill leaves the old description or the new one
        info = {"kind": kind, "root": str(root) if root else None}
        if root is not None:  # late import: running git (a subprocess) only for a new layer, off the prompt path
            from ..git import identity

            info.update(identity(root))
        write_layer_info(meta_dir, info, sync_dir=False)


def write_layer_info(meta_dir: Path, info: dict, *, sync_dir: bool = True) -> None:
    """Write ``info`` (see :func:`read_layer_info`) as ``<meta_dir>/layer.json``,
    atomically (:func:`memdir.files.fsio.atomic_write`; ``sync_dir`` False
    leaves the directory's fsync to the journal line that follows). One
    encoding: ASCII JSON and a newline, so a root whose name is not UTF-8 is
    kept as ``\\udcXX`` escapes, never refused. Raises :class:`StoreError`."""
    import json

    from pathlib import Path

    from .fsio import atomic_write  # late: the hot path never writes

    atomic_write(Path(meta_dir) / LAYER_FILE, json.dumps(info).encode("ascii") + b"\n", sync_dir=sync_dir)


def described_root(path: Path) -> str | None:
    """The project root a layer directory records in ``.memdir/layer.json``
    (written when the layer was first changed), or None: a user layer, or
    no readable description."""
    root = (read_layer_info(os.path.join(path, META_DIR)) or {}).get("root")
    return root if isinstance(root, str) and root else None


HELD_KINDS = ("conflict", "held")  # a file with an unresolved merge conflict; a forgotten value put back


def held_files_text(counts: dict[str, int]) -> bytes:
    """The bytes of :data:`HELD_FILES_FILE` for ``counts`` (kind of :data:`HELD_KINDS` → files held back of
    it): one ``<kind> <count>`` line per kind held, ``b""`` when none is."""
    return "".join(f"{kind} {counts[kind]}\n" for kind in HELD_KINDS if counts.get(kind)).encode("ascii")


def read_held_files(meta_dir: str | os.PathLike) -> dict[str, int]:
    """What :data:`HELD_FILES_FILE` in ``meta_dir`` says: kind → files held back of it (``{}`` when the file is
    absent, a symlink, unreadable or not of :func:`held_files_text`'s form). The hot path: one open."""
    try:
        fd = os.open(os.path.join(meta_dir, HELD_FILES_FILE), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return {}
    try:
        data = os.read(fd, 256)
    except OSError:
        return {}
    finally:
        os.close(fd)
    counts = {}
    for line in data.decode("ascii", "replace").splitlines():
        kind, _, count = line.partition(" ")
        if kind in HELD_KINDS and count.isdecimal() and count.isascii():
            counts[kind] = int(count)
    return counts
