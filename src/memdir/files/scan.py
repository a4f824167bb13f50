"""Reading a layer's files: the one reader every other reader uses (DESIGN §3).

:func:`scan` lists a layer directory and parses its memory files; the layer
(:meth:`memdir.layer.layer.Layer.scan`), and through it ``list``, ``read``,
``MEMORY.md``, the context block and the search index, all see what it
yields — so they agree on every name and text, duplicates and unreadable
files included.

* Memory files: ``*.md`` regular files, not dot-files (temp files,
  ``.memdir``), not ``MEMORY.md`` (:func:`memdir.files.layout.is_memory_file_name`).
  A ``*.md`` that is a symlink (never followed: it may point outside the
  layer, at ``/proc/self/mem``), a FIFO, a socket or a device is listed in
  :attr:`Scan.malformed` (:func:`not_regular`) and never opened; a file is read as a foreign
  file is (:func:`memdir.files.fsio.read_foreign`, without following a link).
* A file with merge conflict markers is listed as an "unresolved merge
  conflict" (:mod:`memdir.files.conflicts`) and skipped.
* A file whose active memory holds a forgotten value of its own layer (a tombstone matches it:
  put back by hand, by a restored backup, or by a ``git add`` of the file a modify/delete conflict
  left) is **held back** the same way: listed with its reason (:data:`HELD`, said by ``hold``, the
  layer's :meth:`memdir.layer.held.HoldsBack.holder`) and skipped — never in ``MEMORY.md``, the
  context block, search, recall or the agent's tools — until a person deletes it or lifts the
  tombstone (DESIGN §5). Decided when the file is parsed, so kept with its state in every cache.
* A ``*.md`` whose file name is not UTF-8 is listed in :attr:`Scan.malformed` (:data:`NOT_UTF8_NAME`)
  and never opened: it names no memory, and nothing derived (the manifest, the search index) can key it.
* A file that does not parse is listed in :attr:`Scan.malformed` with the
  reason and skipped; it never breaks the rest.
* An **empty** file (no bytes, or only white space: :func:`blank`) is an edit in progress — an editor
  that saves in place truncates the file, then writes it — not a memory's new text: it is listed as
  ``file is empty`` like any unreadable file, and it is neither a version (never journaled: it holds no
  text to keep) nor a deletion; the memory's last version stays its current one
  (:meth:`memdir.layer.transaction.Transaction.fresh`), so a write over it is an update of it.
* A file over the size ceiling (the ``max_file_bytes`` setting, default
  256 KiB) is listed as too large without being read: never parsed,
  indexed or versioned whole.
* Two files whose names normalize to one memory name: the file named exactly
  so (``db-port.md``) wins, else the smaller file name; the other is listed as
  a duplicate of it.
* A file is re-parsed only when its size, ctime or inode changed since it was
  last read (``cache``), or since a derived index recorded it (``known``); and,
  when it did, only when its bytes changed too (a ``touch`` costs a read and a hash, not a parse).

What a scan yields (:class:`Scan`, its :class:`Entry` and :class:`FileState` per file, the memories parsed
when asked for: :class:`LazyEntries`) is :mod:`memdir.files.entries`.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path
from typing import Callable, Mapping

from ..errors import StoreError
from .conflicts import CONFLICT, has_conflict
from .fsio import (
    ASIDE_SUFFIX,
    DIRECTORY,
    LINK,
    MISSING,
    NOT_REGULAR,
    digest,
    read_bytes,
    read_foreign,
    side_of,
)
from .entries import (
    FALLBACK_NOTE,
    NO_FRONTMATTER_NOTE,
    Entry,
    FileNote,
    FileState,
    LazyEntries,
    Malformed,
    Scan,
    lenient_notes,
    stat_key,
)
from .layout import case_twins, is_memory_file_name
from .memfile import MalformedMemory, MemoryRecord, may_hold, name_of_file, parse, text_digest

HELD = "held back"  # how the reason of a file held back begins (a forgotten value put back): see the module docstring


DEFAULT_MAX_FILE_BYTES = 256 * 1024  # the ``max_file_bytes`` setting's default


def _judged_too_large(state: FileState) -> bool:
    """Whether ``state`` says its file is over the ceiling it was judged by (:func:`too_large`)."""
    return bool(state[3]) and state[3].startswith(_TOO_LARGE)


def not_regular(mode: int) -> str:
    """The reason a ``*.md`` entry of ``mode`` (an ``lstat`` mode) is not read: a symbolic link, a
    directory, or another file that is not a regular one (a FIFO, a socket, a device)."""
    kind = (LINK if stat.S_ISLNK(mode) else DIRECTORY if stat.S_ISDIR(mode) else NOT_REGULAR)
    return f"not read: it is {kind}"


# A file name whose bytes are not UTF-8 (Python holds them as lone surrogates): no memory name comes
# from it (names are kebab-case), and no manifest, search index or journal line (UTF-8 text) can key it.
NOT_UTF8_NAME = "not read: its file name is not UTF-8; rename it to the memory's name"


def utf8_name(filename: str) -> bool:
    """Whether ``filename`` (as :func:`os.scandir` gives it) came from UTF-8 bytes: no lone surrogate."""
    try:
        filename.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_TOO_LARGE = "file is too large ("
TOO_LARGE = _TOO_LARGE  # how the reason of a file over max_file_bytes begins (Malformed.error), for team status


def too_large(size: int, max_bytes: int) -> str:
    """The reason a file of ``size`` bytes is not read."""
    return (f"{_TOO_LARGE}{size} bytes, over the {max_bytes}-byte ceiling set by max_file_bytes); "
            "not read, indexed or versioned")


def bytes_digest(path: Path, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> str | None:
    """The digest :func:`load` records for the file at ``path`` as its bytes are now (a symlink is not
    followed); None when it is gone, unreadable or over ``max_bytes``."""
    data = read_foreign(path, max_bytes, follow=False).data
    return None if data is None else digest(data)


def blank_file(path) -> bool:
    """Whether the memory file at ``path`` is blank now (:func:`blank`): an edit in progress, read without
    following a symlink; False for a missing or unreadable file and for one over 4 KiB (no editor's
    truncation leaves that much white space)."""
    try:
        if os.lstat(path).st_size > 4096:
            return False
    except OSError:
        return False
    data = read_bytes(path, follow=False)
    return data is not None and blank(data)


def blank(data: bytes) -> bool:
    """Whether a memory file's bytes ``data`` hold no text at all (nothing, or only white space after a
    byte order mark): an edit in progress (see the module docstring), never a version of a memory. The
    parser's "file is empty" (:func:`memdir.files.memfile.parse`) reads the same bytes so; bytes that are
    not UTF-8 are not blank."""
    if data[:3] == b"\xef\xbb\xbf":
        data = data[3:]
    try:
        return not data.decode("utf-8").strip()
    except UnicodeDecodeError:
        return False


def load(path: Path, key: tuple[int, int, int] | None = None,
         max_bytes: int = DEFAULT_MAX_FILE_BYTES, was: FileState | None = None,
         hold: Callable[[MemoryRecord], str | None] | None = None, stem: str | None = None) -> FileState | None:
    """Read and parse one memory file; None when it is gone. ``key`` is its
    stat key when the caller has it. A file over ``max_bytes`` is not read
    (its state says it is too large). ``was``: what was learned of the file at ``path`` before (its
    state under an older stat key): when its bytes still have that digest (a ``touch``, a checkout
    or a copy that kept the text), that state under ``key``, the file read and hashed but not
    parsed again (a parse depends on the bytes, the file name and ``hold`` only). ``hold(record)``: why
    the memory is held back (a text beginning :data:`HELD`), or None; a file held back is not a memory
    (its state carries that reason, as one with conflict markers carries :data:`CONFLICT`). ``stem``: the
    file name the memory's name comes from, when not ``path``'s (a file renamed aside). Raises
    :class:`StoreError` when it cannot be read."""
    if key is None:
        try:
            key = stat_key(os.stat(path, follow_symlinks=False))
        except OSError:
            return None
    if key[0] > max_bytes:
        return FileState(key, "", None, too_large(key[0], max_bytes))
    found = read_foreign(path, max_bytes, follow=False)
    data = found.data
    if data is None:
        if found.why == MISSING:
            return None
        if found.why.startswith("larger than"):  # grew since the stat
            return FileState(key, "", None, f"file is {found.why} (the max_file_bytes ceiling); not read, "
                                            "indexed or versioned")
        if found.why.startswith("unreadable: "):  # there, but the system refuses it (permission denied)
            return FileState(key, "", None, f"it cannot be read ({found.why.removeprefix('unreadable: ')})")
        return FileState(key, "", None, f"not read: it is {found.why}")
    if was is not None and was.digest and (was.name is not None or was.error is not None):
        if digest(data) == was.digest:
            return was._replace(key=key)
    if has_conflict(data):  # git left both sides in the file: not a memory until a person settles it
        return FileState(key, digest(data), None, CONFLICT)
    try:
        parsed = parse(data.decode("utf-8"), stem or path.name[:-3])
    except UnicodeDecodeError:
        return FileState(key, digest(data), None, "file is not valid UTF-8")
    except MalformedMemory as exc:
        return FileState(key, digest(data), None, str(exc))
    record = parsed.record
    if hold is not None and (why := hold(record)) is not None:  # a forgotten value put back: see the module docstring
        return FileState(key, digest(data), None, why)
    entry = Entry(record, path, digest(data), parsed.fallback, parsed.no_frontmatter, parsed.notes)
    return FileState(key, entry.digest, record.name, None, entry, text_digest(record.description, record.body),
                     lenient_notes(entry))



def _memory_entries(listing, asides: list[str], malformed: list[Malformed]):
    """``(entry, file name, lstat)`` of each regular memory file of ``listing`` (an ``os.scandir``), for
    :func:`scan` and :func:`glance` alike: a delete's file set aside (in flight or cut) goes to ``asides``; a
    name that is not UTF-8 (see :data:`NOT_UTF8_NAME`) or a file that is not regular to ``malformed``; a file
    gone before its lstat is passed over."""
    is_regular = stat.S_ISREG
    for item in listing:
        filename = item.name
        if not is_memory_file_name(filename):
            if filename.endswith(ASIDE_SUFFIX) and side_of(filename):  # a delete's, in flight or cut
                asides.append(filename)
            continue
        if not filename.isascii() and not utf8_name(filename):
            malformed.append(Malformed(item.path, NOT_UTF8_NAME))
            continue
        try:
            st = item.stat(follow_symlinks=False)
        except OSError:
            continue
        if not is_regular(st.st_mode):
            malformed.append(Malformed(item.path, not_regular(st.st_mode)))
            continue
        yield item, filename, st

def scan(directory: Path, cache: Mapping[str, FileState], known: Mapping[str, tuple] | None = None,
         progress=None, max_bytes: int = DEFAULT_MAX_FILE_BYTES,
         hold: Callable[[MemoryRecord], str | None] | None = None) -> tuple[Scan, dict[str, FileState], bool]:
    """Scan ``directory``: ``(what was found, the new cache, complete)``.

    ``cache`` maps file names to the :class:`FileState` of the last scan; a
    file whose stat key still matches is not read again (one ``lstat`` per
    file: the floor of a write's cost on a large layer, so the loop is kept
    tight). ``known`` (file name → ``(file name, size, ctime_ns, inode,
    digest, name, error[, text digest[, lenient notes]])``, as a derived index stored them) spares reading a
    file whose size, ctime and inode still match; such a memory is in
    :attr:`Scan.names` but not in :attr:`Scan.entries`, and ``complete`` is
    False. ``progress(1)`` is called for each file read. A missing directory
    is an empty layer. Files over ``max_bytes`` are listed as too large,
    unread; ``hold``: :func:`load`'s, for each file read. Raises :class:`StoreError`.
    """
    malformed: list[Malformed] = []
    files: dict[str, FileState] = {}
    read: dict[str, FileState] = {}
    entries: dict[str, Entry] = {}
    names: dict[str, str] = {}
    complete = True
    try:
        listing = os.scandir(directory)
    except FileNotFoundError:
        return Scan(entries, malformed, files, names), read, True
    except OSError as exc:
        raise StoreError(f"cannot list {directory}: {exc.strerror or exc}") from None
    asides = []
    with listing:
        for item, filename, st in _memory_entries(listing, asides, malformed):
            key = (st.st_size, st.st_ctime_ns, st.st_ino)  # stat_key(st), inlined: once per file
            state = cache.get(filename)
            over = key[0] > max_bytes
            if state is not None and (over or state[3]) and over != _judged_too_large(state):
                state = None  # judged under another ceiling (max_file_bytes changed since): read again
            if state is None or state[0] != key:
                hint = known.get(filename) if known else None
                if hint is not None and (state is None or hint[1:4] == key):
                    state = FileState(tuple(hint[1:4]), hint[4], hint[5], hint[6], None,
                                      hint[7] if len(hint) > 7 else None, hint[8] if len(hint) > 8 else ())
                    if over != _judged_too_large(state):
                        state = None  # as above: a derived index's row of another ceiling
                if state is None or state[0] != key:  # read; parsed only when its bytes changed (load's was)
                    state = load(Path(item.path), key, max_bytes, state, hold)
                    if state is None:
                        continue
                    if progress is not None:
                        progress(1)
                    read[filename] = state  # found unchanged, its entry (if none) is parsed when asked for
                elif state[2] is None:
                    read[filename] = state
                else:  # taken from a hint: not read
                    complete = False
            else:
                read[filename] = state
            files[filename] = state
            name = state[2]
            if name is None:
                malformed.append(Malformed(item.path, state[3] or "unreadable"))
                continue
            other = names.get(name)
            if other is not None:
                # Two files normalize to one name: the file already named so wins,
                # else the smaller file name (directory order is arbitrary).
                wins = _wins(filename, other, name)
                loser, winner = (other, filename) if wins else (filename, other)
                malformed.append(Malformed(os.path.join(directory, loser),
                                           duplicate(loser, winner, name)))
                if not wins:
                    continue
                entries.pop(name, None)
            names[name] = filename
            if state[4] is not None:
                entries[name] = state[4]
    return Scan(entries, malformed, files, names, tuple(asides)), read, complete


def glance(directory: Path, cache: Mapping[str, FileState], known: Mapping[str, tuple] | None = None,
           max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> tuple[Scan, dict[str, list[str]]]:
    """Which memories ``directory`` holds, reading no file: ``(what was found, the files that may hold
    each name)`` — for finding one memory by name among files added by hand since the layer last read
    them (8,000 copied in: :func:`scan` parses each, ~0.4 ms a file; a glance reads none).

    The listing is :func:`scan`'s (the same files looked at, one ``lstat`` each); a file whose state
    ``cache`` or ``known`` holds under its stat key is taken as :func:`scan` takes it; any other is
    not read, its name is the one its file name gives (:func:`memdir.files.memfile.name_of_file`, the
    parse's rule: ``DB Port.md`` holds ``db-port``; a stem that is no memory name, or a file over
    ``max_bytes``, holds none). So :attr:`Scan.names` may name a file that turns out to be no memory
    (unparsable, held back, conflict markers); the second value lists, for each name, every file that
    may hold it in :func:`scan`'s order of who wins (the file named exactly so, then the smaller file
    name), so a reader that finds the first holds nothing tries the next, as :func:`scan` would have
    chosen it. :attr:`Scan.entries` holds the memories whose parsed entry the cache had; ``files``
    the states known (unread files are not in it); ``malformed`` the files known not to be memories.
    Raises :class:`StoreError` when the directory cannot be listed."""
    malformed: list[Malformed] = []
    files: dict[str, FileState] = {}
    holders: dict[str, list[str]] = {}
    unread: dict[str, tuple[str, str]] = {}
    asides = []
    try:
        listing = os.scandir(directory)
    except FileNotFoundError:
        return Scan({}, malformed, files, {}), {}
    except OSError as exc:
        raise StoreError(f"cannot list {directory}: {exc.strerror or exc}") from None
    with listing:
        for item, filename, st in _memory_entries(listing, asides, malformed):
            key = (st.st_size, st.st_ctime_ns, st.st_ino)
            state = cache.get(filename)
            if state is None or state[0] != key:
                hint = known.get(filename) if known else None
                state = None if hint is None or tuple(hint[1:4]) != key else FileState(
                    key, hint[4], hint[5], hint[6], None, hint[7] if len(hint) > 7 else None,
                    hint[8] if len(hint) > 8 else ())
            if state is not None and (key[0] > max_bytes) != _judged_too_large(state):
                state = None  # judged under another ceiling: as unread
            if state is None:  # not read: its name is its file name's
                name = None if key[0] > max_bytes else name_of_file(filename)
                if name is not None:
                    unread[filename] = (name, item.path)
            else:
                files[filename] = state
                name = state[2]
                if name is None:
                    malformed.append(Malformed(item.path, state[3] or "unreadable"))
            if name is not None:
                holders.setdefault(name, []).append(filename)
    names: dict[str, str] = {}
    entries: dict[str, Entry] = {}
    for name, held in holders.items():
        held.sort(key=lambda f, exact=name + ".md": (f != exact, f))  # _wins's order
        names[name] = first = held[0]
        if (state := files.get(first)) is not None and state[4] is not None:
            entries[name] = state[4]
    return Scan(entries, malformed, files, names, tuple(asides), unread=unread), holders


def duplicate(loser: str, winner: str, name: str) -> str:
    """Why file ``loser`` is not memory ``name``, which ``winner`` holds; a name that differs from the
    winner's only by case (:func:`memdir.files.layout.case_twins`: a teammate's ``Deploy.md`` pulled beside
    ``deploy.md``) is said to be one macOS and Windows cannot hold beside it. Neither text is lost: the
    loser is never replaced, and a delete of ``name`` keeps both as versions first."""
    said = f"duplicate of {winner} (same name {name!r})"
    if case_twins(winner, (loser,)):
        said += (f"; its name differs from {winner}'s only by case: macOS and Windows keep one of the two in a "
                 f"clone — move its text into {winner} (or another memory) and remove it")
    return said


def _wins(filename: str, other: str, name: str) -> bool:
    """Whether ``filename`` holds memory ``name`` rather than ``other``, which also does: the file
    named exactly so wins, else the smaller file name (directory order is arbitrary)."""
    return filename == name + ".md" or (other != name + ".md" and filename < other)


def settle(directory: Path, holders) -> tuple[dict[str, str], list[Malformed]]:
    """The memories files hold, from ``holders`` — ``(file name, the name it holds or None, why
    not)`` as :func:`scan` learned them: ``(name → file name, the files that are not memories)``,
    by :func:`scan`'s rules, without reading a file."""
    names: dict[str, str] = {}
    malformed: list[Malformed] = []
    for filename, name, error in holders:
        if name is None:
            malformed.append(Malformed(os.path.join(directory, filename), error or "unreadable"))
            continue
        other = names.get(name)
        if other is not None:
            wins = _wins(filename, other, name)
            loser, winner = (other, filename) if wins else (filename, other)
            malformed.append(Malformed(os.path.join(directory, loser), duplicate(loser, winner, name)))
            if not wins:
                continue
        names[name] = filename
    return names, malformed


def holding(found: Scan, text: str, key: str | None = None) -> list[str]:
    """The names of ``found``'s memories whose file's text digest (:attr:`FileState.text`) is ``text``
    or not known (a state taken from hints that had none), in name order, without parsing a file:
    candidates for an exact duplicate, which the caller confirms on their records. ``found.files`` may answer itself (``text_holders(text)`` → file names: the
    layer's manifest rows, :class:`memdir.layer.manifest.Rows`, without making a state per file).
    A :func:`glance`'s files not read (:attr:`Scan.unread`) are candidates too, each read (not parsed)
    when ``key`` (the :func:`memdir.files.memfile.duplicate_key` whose digest is ``text``) is given, and
    left out when :func:`memdir.files.memfile.may_hold` says it cannot hold it."""
    files = found.files
    quick = getattr(files, "text_holders", None)
    held = quick(text) if quick is not None else [f for f, state in files.items()
                                                  if state[5] == text or (state[5] is None and state[2])]
    names = found.names
    out = {name for name, filename in ((files[f].name, f) for f in held)
           if name is not None and names.get(name) == filename}
    for filename, (name, path) in found.unread.items():
        if name not in out and name in names and (key is None or _may_hold(path, filename, key)):
            out.add(name)
    return sorted(out)


def _may_hold(path: str, filename: str, key: str) -> bool:
    """:func:`memdir.files.memfile.may_hold` of the file at ``path`` as it is now (True when it cannot be read)."""
    data = read_foreign(Path(path), DEFAULT_MAX_FILE_BYTES, follow=False).data
    return data is None or may_hold(data, filename[:-3], key)


def count_files(directory: Path) -> int:
    """How many memory files :func:`scan` would look at (for progress bars)."""
    try:
        with os.scandir(directory) as listing:
            return sum(1 for item in listing if is_memory_file_name(item.name)
                       and item.is_file(follow_symlinks=False))
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StoreError(f"cannot list {directory}: {exc.strerror or exc}") from None


__all__ = ["FALLBACK_NOTE", "HELD", "NO_FRONTMATTER_NOTE", "TOO_LARGE", "Entry", "FileNote", "FileState", "LazyEntries", "Malformed", "Scan", "blank", "bytes_digest", "count_files", "glance", "holding", "lenient_notes", "load", "settle", "not_regular", "scan", "stat_key"]
