"""Durable file writes (DESIGN §2).

Every write: a unique temp file in the same directory (so ``os.replace`` is an
atomic rename), flush, fsync, ``os.replace``, then fsync of the directory so the
rename itself survives a crash (POSIX). Directories are 0700, files 0600 —
every directory memdir creates, parents included (``MEMDIR_HOME``,
``projects/``).
Temp files are named ``.<name>.<random>.tmp``; readers skip dot-files, so a
temp file left behind by a killed writer is never read as a memory. A change keeps
two more kinds of side file beside the file it changes until it commits
(:mod:`memdir.layer.commit`), named alike: ``.<name>.<random>.bak`` and
``.<name>.<random>.del``; :func:`side_of` tells all three apart from a person's
dot-files (what becomes of those a killed writer left: :mod:`memdir.layer.leftovers`).
Files are named by content with :func:`digest` (SHA-256 hex), the one hash of
a file's bytes: the journal's ``before``/``after``, ``objects/<digest>``, a
scan's entry digest.
A file memdir did not write (an import's source, a transcript, a workspace
file) is read by :func:`read_foreign` only: a regular file within a cap, and its bytes are
text by :func:`foreign_text` only.
"""

from __future__ import annotations

import codecs
import errno
import os
import stat
from collections import namedtuple
from pathlib import Path

from ..errors import StoreError
from ..paths import sha256

TEMP_SUFFIX = ".tmp"      # atomic_write's temp file (tempfile.mkstemp: 8 random characters of [a-z0-9_])
BACKUP_SUFFIX = ".bak"    # the file a change replaces, kept as a hard link until it commits (side_name: 12 hex digits)
ASIDE_SUFFIX = ".del"     # the file a change removes, renamed aside until it commits (side_name)
SIDE_SUFFIXES = (TEMP_SUFFIX, BACKUP_SUFFIX, ASIDE_SUFFIX)
_RANDOM = frozenset("abcdefghijklmnopqrstuvwxyz0123456789_")
NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)  # open flag: a symlink where a meta file should be fails, never followed


def digest(data: bytes) -> str:
    """SHA-256 hex of ``data`` (64 lowercase hex digits)."""
    return sha256(data).hexdigest()


def side_name(path: Path, suffix: str) -> Path:
    """A new side file for ``path``: ``.<file name>.<12 random hex digits><suffix>`` beside it."""
    import secrets  # a write's: a search never loads it

    return path.with_name(f".{path.name}.{secrets.token_hex(6)}{suffix}")


def side_of(filename: str) -> str | None:
    """The file name a side file stands beside (``"pm2.md"`` for ``".pm2.md.3f9a0c1d2e4b.del"``,
    ``"usage.json"`` for ``".usage.json.k2x_9qaz.tmp"``), or None when ``filename`` is not one: a
    dot, a name, a dot, 6 to 16 characters of ``[a-z0-9_]`` (:func:`atomic_write`'s 8, :func:`side_name`'s 12),
    one of :data:`SIDE_SUFFIXES`. A person's ``.notes.md.bak`` is not one. String methods only."""
    if filename[:1] != "." or not filename.endswith(SIDE_SUFFIXES):
        return None
    stem, dot, random = filename[1:-4].rpartition(".")
    if not dot or not stem or not 6 <= len(random) <= 16 or not _RANDOM.issuperset(random):
        return None
    return stem


def ensure_dir(path: Path) -> Path:
    """Create ``path`` and every missing parent with mode 0700; return it.
    (``mkdir(parents=True)`` would create the parents with the process's
    default mode, 0755 under the usual umask.) Raises :class:`StoreError`."""
    path = Path(path)
    missing = []
    probe = path
    try:
        while not probe.is_dir() and probe != probe.parent:  # is_dir raises for EACCES
            missing.append(probe)
            probe = probe.parent
        for directory in reversed(missing):
            directory.mkdir(mode=0o700, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create directory {path}: {exc.strerror or exc}") from None
    return path


def append_lines(path: Path | str, data: bytes) -> None:
    """Append whole lines ``data`` (JSON lines records, ending in a newline) to the file at ``path`` with one
    ``write`` on an ``O_APPEND`` descriptor (created 0600), no lock: concurrent writers of whole lines never
    interleave within one line on a local file system (the pending findings' showings, answers and drops). The
    lines start on a line of their own: when the file does not end in a newline (a torn last line: a writer killed
    mid-record, a hand edit), a newline goes first, so the torn line is the one lost and the new records read whole
    (break43: a torn drop record swallowed the next drop, and the dropped finding came back). The directory must
    exist. Raises OSError as :func:`os.open` and :func:`os.write` do."""
    fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
    try:
        os.write(fd, on_own_line(fd, data))
    finally:
        os.close(fd)


def on_own_line(fd: int, data: bytes) -> bytes:
    """``data`` to append at the end of the file open (readable) as ``fd``, a newline before it when the file's
    last byte is not one (:func:`append_lines`). Raises OSError as :func:`os.pread` does."""
    size = os.fstat(fd).st_size
    return b"\n" + data if size and os.pread(fd, 1, size - 1) != b"\n" else data


def fsync_dir(path: Path) -> None:
    """fsync a directory so renames inside it are durable; a no-op where the
    platform cannot open directories (Windows)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path: Path, data: bytes, *, sync_dir: bool = True, sync: bool = True,
                 before_replace=None) -> None:
    """Replace ``path`` with ``data`` atomically and durably (mode 0600).

    Readers see either the old bytes or the new ones, never a mix. ``sync``
    False skips both fsyncs, for derived files (``MEMORY.md``) and copies
    whose loss a later check reports (version objects). ``before_replace()``,
    when given, runs once the new bytes are on disk, just before the rename
    (a backup taken there holds what the rename replaces, whoever saved it
    last); an exception from it fails the write with nothing replaced. Raises
    :class:`StoreError` when the disk refuses; the old file is then untouched
    and the temp file removed — as it is on any other exception, a
    :class:`KeyboardInterrupt` (SIGINT) included, which is raised again.
    """
    import tempfile  # a write's: loaded by the first one (a search writes no file)

    directory = path.parent
    try:
        fd, temp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX, dir=directory)
    except OSError as exc:  # read-only layer, full disk, another user's directory
        raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            if sync:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(temp, 0o600)
        if before_replace is not None:
            before_replace()
        os.replace(temp, path)
    except BaseException as exc:  # a full disk, a refused backup, SIGINT: no temp file left behind (break26)
        try:
            os.unlink(temp)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None
        raise
    if sync and sync_dir:
        fsync_dir(directory)


def read_bytes(path: Path, limit: int = -1, *, follow: bool = True) -> bytes | None:
    """The bytes of ``path`` (at most ``limit`` when given); None when it is
    missing or not a regular file (a FIFO, a device, a socket is never read:
    opened non-blocking and checked with ``fstat`` first, so it cannot hang);
    with ``follow`` False also None for a symlink (never read through)."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | (0 if follow else NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:
            return None  # a symlink
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        with os.fdopen(fd, "rb", closefd=True) as handle:
            fd = -1
            return handle.read(limit)
    except OSError as exc:
        raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from None
    finally:
        if fd >= 0:
            os.close(fd)


# Why read_foreign did not read a file; each reads after "is" ("transcript t.jsonl is not a regular file").
MISSING = "missing"
DIRECTORY = "a directory"
NOT_REGULAR = "not a regular file"
LINK = "a symbolic link (not followed)"


class Foreign(namedtuple("Foreign", "data why", defaults=("",))):
    """What :func:`read_foreign` found: ``data``, the file's bytes, or None and ``why`` not —
    :data:`MISSING`, :data:`DIRECTORY`, :data:`NOT_REGULAR` (a FIFO, a socket, a device),
    :data:`LINK`, ``larger than N bytes`` or ``unreadable: <the system's reason>``. A named tuple, not a
    dataclass: this module is on the hooks' path, where ``dataclasses`` (and ``inspect``) or ``typing`` cost ms."""

    __slots__ = ()


def read_foreign(path: Path | str, limit: int, *, follow: bool = True, head: bool = False) -> Foreign:
    """The bytes of ``path``, a file memdir did not write: the one rule for reading one safely (every
    importer, the transcript reader, the workspace files consolidation reads).

    Only a regular file is read. A FIFO, a socket or a device is told (:data:`NOT_REGULAR`), never
    opened for a byte: ``stat`` says so first, and the file is opened non-blocking and checked again
    with ``fstat``, so one swapped in between cannot block either. With ``follow`` False a symbolic
    link is told (:data:`LINK`), never read through (``O_NOFOLLOW``). ``limit`` caps the bytes: a
    larger file is told (``larger than <limit> bytes``) without being read, or with ``head`` its
    first ``limit`` bytes are the data. Never raises for the file's sake: every refusal is a
    :class:`Foreign` with ``why``."""
    try:
        mode = (os.stat if follow else os.lstat)(path).st_mode
    except (FileNotFoundError, NotADirectoryError):
        return Foreign(None, MISSING)
    except OSError as exc:
        return Foreign(None, f"unreadable: {exc.strerror or exc}")
    if stat.S_ISLNK(mode):
        return Foreign(None, LINK)
    if stat.S_ISDIR(mode):
        return Foreign(None, DIRECTORY)
    if not stat.S_ISREG(mode):
        return Foreign(None, NOT_REGULAR)
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0) | (0 if follow else NOFOLLOW)
    try:
        fd = os.open(path, flags)
    except (FileNotFoundError, NotADirectoryError):
        return Foreign(None, MISSING)
    except OSError as exc:
        if exc.errno == errno.ELOOP and not follow:  # became a symlink since the lstat
            return Foreign(None, LINK)
        return Foreign(None, f"unreadable: {exc.strerror or exc}")
    try:
        with os.fdopen(fd, "rb", closefd=True) as handle:
            st = os.fstat(handle.fileno())
            if not stat.S_ISREG(st.st_mode):  # swapped for something else since the stat
                return Foreign(None, DIRECTORY if stat.S_ISDIR(st.st_mode) else NOT_REGULAR)
            if st.st_size > limit and not head:
                return Foreign(None, f"larger than {limit} bytes")
            data = handle.read(limit if head else limit + 1)
    except OSError as exc:
        return Foreign(None, f"unreadable: {exc.strerror or exc}")
    if len(data) > limit:  # grew since the fstat
        return Foreign(None, f"larger than {limit} bytes")
    return Foreign(data)


_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
         (codecs.BOM_UTF16_BE, "utf-16"), (codecs.BOM_UTF8, "utf-8-sig"))


def foreign_text(data: bytes, errors: str = "strict") -> str:
    """The text of a foreign file's bytes (an import's source, a transcript): UTF-8, unless a byte-order
    mark says UTF-16 or UTF-32 (as Windows tools write: PowerShell's ``>`` among them) or the bytes are
    UTF-16 without one (a NUL in every other byte of the first 4 KB: read as UTF-8 such a file was no
    line at all). A UTF-8 mark is dropped. ``errors`` as :meth:`bytes.decode`: ``"strict"`` raises
    :class:`UnicodeDecodeError` (an importer refuses the file, never stores a replaced byte),
    ``"replace"`` reads on (a transcript's bad line is then read or counted)."""
    for bom, codec in _BOMS:  # UTF-32 LE's mark begins with UTF-16 LE's: it is tried first
        if data.startswith(bom):
            return data.decode(codec, errors)
    head = data[:4096]
    if len(head) >= 4 and head.count(0) * 3 >= len(head):
        return data.decode("utf-16-le" if head[1::2].count(0) > head[0::2].count(0) else "utf-16-be", errors)
    return data.decode("utf-8", errors)


def not_utf8(exc: UnicodeDecodeError) -> str:
    """Why a foreign file's bytes are not text, for a person to act on: the byte and its offset, and
    the conversion that makes the file readable (``not valid UTF-8: byte 0xe9 at offset 52; …``)."""
    byte = exc.object[exc.start:exc.start + 1].hex() if isinstance(exc.object, bytes) else "?"
    return (f"not valid {exc.encoding.upper().replace('-SIG', '')}: byte 0x{byte} at offset {exc.start}; "
            "convert the file to UTF-8 first (such as iconv -f latin1 -t utf-8 for a Latin-1 file)")


def read_only_mount(path: Path | str) -> bool:
    """True when ``path`` (or, when it does not exist, its nearest existing parent) lies on a file
    system mounted read-only (``statvfs``'s ``ST_RDONLY``: ``EROFS`` to every write). False where
    that cannot be told (no ``statvfs``). Never raises."""
    here = Path(path)
    while not os.path.lexists(here) and here != here.parent:
        here = here.parent
    try:
        return bool(os.statvfs(here).f_flag & getattr(os, "ST_RDONLY", 0))
    except (OSError, AttributeError):
        return False


def writable_hint(path: Path | str) -> str:
    """What a person does so that ``path`` can be written: remount a read-only file system (no
    ``chmod`` changes a read-only mount: it fails with ``EROFS`` too), else give the owner write
    permission. The one wording of that advice."""
    if read_only_mount(path):
        return "remount its read-only file system read-write (mount -o remount,rw)"
    return "make it writable (chmod u+w)"


def unwritable(path: Path | str, what: str) -> str | None:
    """``{what} is on a read-only file system`` or ``{what} is not writable`` when nothing can be
    created in ``path`` (a directory, or its nearest existing parent), else None. ``what`` names it
    for a person (``the home /h``). The one wording of a read-only home (reindex, every write, verify)."""
    here = Path(path)
    while not os.path.lexists(here) and here != here.parent:
        here = here.parent
    if read_only_mount(here):
        return f"{what} is on a read-only file system"
    return None if os.access(here, os.W_OK) else f"{what} is not writable"


def nothing_written(path: Path | str, what: str) -> str | None:
    """A write refused because ``path`` cannot be written (:func:`unwritable`): what is so, that nothing
    was written, what still answers and what a person does (:func:`writable_hint`); None when ``path``
    can be written (the failure was something else)."""
    state = unwritable(path, what)
    return state and (f"{state}: nothing was written (the memories, their journal and the search index are as "
                       "they were); search, recall, list, read and context still answer "
                       f"(to write, {writable_hint(path)})")


def full_disk(exc: BaseException) -> int | None:
    """``errno.ENOSPC`` or ``errno.EDQUOT`` when ``exc``, or the ``OSError`` it was raised from or while
    handling (a :class:`StoreError` raised ``from None`` keeps it as its context), says the disk is full
    or the quota spent; else None."""
    seen: BaseException | None = exc
    for _ in range(4):
        if isinstance(seen, OSError) and seen.errno in (errno.ENOSPC, errno.EDQUOT):
            return seen.errno
        if seen is None:
            break
        seen = seen.__cause__ or seen.__context__
    return None


def nothing_written_full(exc: BaseException, what: str) -> str | None:
    """A write refused by a full disk (:func:`full_disk`) before anything was written, said as
    :func:`nothing_written` says a read-only home: what is so (``what``: ``the home /h``), that
    nothing was written, what still answers and what a person does. None when ``exc`` is no full disk."""
    code = full_disk(exc)
    if code is None:
        return None
    state = "the disk is full" if code == errno.ENOSPC else "the disk quota is spent"
    remedy = "free space on that disk" if code == errno.ENOSPC else "free space within the quota or raise it"
    return (f"{what} cannot be written: {state} ({errno.errorcode[code]}; {exc}): nothing was written (the "
            "memories, their journal and the search index are as they were); search, recall, list, read and "
            f"context still answer (to write, {remedy})")


def unlink(path: Path) -> bool:
    """Remove ``path``; False when it was already gone."""
    try:
        os.unlink(path)
        return True
    except FileNotFoundError:
        return False
    except OSError as exc:
        raise StoreError(f"cannot remove {path}: {exc.strerror or exc}") from None
