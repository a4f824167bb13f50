"""The tombstone files: where a layer keeps its forgotten values (DESIGN §5, §11).

A personal layer keeps its tombstones in one file, ``.memdir/tombstones.json``
(:class:`TombstoneFile`), written atomically under the layer lock; the team
layer keeps one small file per tombstone inside the repository
(:class:`TombstoneDir`), so two people's tombstones merge in git. Both have
the same interface (``all``, ``add``, ``lift``); tombstones survive prune,
clear, reindex and restart. What a tombstone matches is :mod:`.match`.

A team tombstone removed unlifted (the one rule of it: :meth:`TombstoneDir.all` marks each :attr:`Tombstone.vanished`): git can take a tombstone's
file away without a person here lifting it (a teammate's ``git revert`` of the forget commit, which brings the
memory back with it; a commit deleting the file; a branch without it). The home keeps a record of every team
tombstone it has read (``team-tombstones.json`` beside the layer's journal); one whose file has left the
directory, or no longer holds it (garbled, conflict markers, another digest under its id), and that nobody
lifted here stays in force here: the gateway refuses its
value, the file it forgot is held back (:mod:`memdir.layer.held`), ``doctor`` and ``team status`` name it with
the two ways to settle it (forget it again, or ``memdir tombstone lift``), and a lift here drops it from the
record. A home that never read the tombstone has nothing to keep: git's history is not read for one (a person's
lift and rewrite committed together has a revert's shape, and a lift of a removed tombstone leaves nothing in
git, so a finding from history could never be settled for the next clone).
"""

from __future__ import annotations

import json
import os
import stat
import time
from dataclasses import replace
from pathlib import Path

from ..errors import InvalidInput, NotFound, StoreError
from ..files import background
from ..files.fsio import (
    DIRECTORY,
    LINK,
    atomic_write,
    ensure_dir,
    read_bytes,
    read_foreign,
)
from ..files.layout import TEAM_TOMBSTONE_DIR, TOMBSTONES_FILE
from ..text.names import normalize_name
from ..text.printable import one_line
from .match import Tombstone, make

AHEAD = 10 * 365 * 86400 * 10**9
"""How far past now (ns: ten years) :meth:`TombstoneFile.lift_all` dates the file until its journal lines are written."""


class TombstoneFile:
    """The tombstones of one layer, in ``<layer>/.memdir/tombstones.json``.
    Reads are cached by the file's size and mtime; :meth:`add` and
    :meth:`lift` are called under the layer lock. ``scope``: the scope of the layer it belongs to, which each
    tombstone read carries (:attr:`Tombstone.scope`: a refusal's lift command names it)."""

    def __init__(self, meta_dir: Path, scope: str | None = None):
        self.path = Path(meta_dir) / TOMBSTONES_FILE
        self.scope = scope
        self._cache: tuple[tuple[int, int], list[Tombstone]] | None = None

    def all(self) -> list[Tombstone]:
        """Tombstones in force, oldest first. Raises :class:`StoreError` for an
        unreadable file (it is canonical: memdir never rewrites it blindly)."""
        try:
            st = os.stat(self.path)
        except FileNotFoundError:
            return []
        except OSError as exc:
            raise StoreError(f"cannot read {self.path}: {exc.strerror or exc}") from None
        key = (st.st_size, st.st_mtime_ns)
        if self._cache and self._cache[0] == key:
            return self._cache[1]
        try:
            raw = _load(self.path, b"[]")
            if not isinstance(raw, list):
                raise ValueError(f"{_kind(raw)}, not an array of tombstones")
            stones = []
            for number, item in enumerate(raw, 1):
                try:
                    stones.append(stone_of(item, scope=self.scope))
                except ValueError as exc:
                    raise ValueError(f"item {number}: {exc}") from None
        except ValueError as exc:
            raise StoreError(f"{self.path} is unreadable ({exc}); it is canonical, fix it by hand") from None
        self._cache = (key, stones)
        return stones

    def save(self, stones: list[Tombstone]) -> None:
        """Write ``stones`` as the layer's tombstones, replacing the file
        atomically (under the layer lock; :func:`memdir.layer.drift.restore_tombstones`
        puts back the ones the journal says are in force). Raises :class:`StoreError`."""
        payload = json.dumps([s.stored() for s in stones], ensure_ascii=False, indent=1).encode()
        ensure_dir(self.path.parent)
        atomic_write(self.path, payload + b"\n")
        self._cache = None

    def add(self, name: str, description: str, body: str, actor: str, reason: str | None,
            ts=None, action: str | None = None) -> Tombstone:
        """Record the tombstone of a value, dated ``ts`` (a datetime; default now), made by the journal action
        ``action`` (delete, forget, …); the one already there when the same value was forgotten before
        (idempotent)."""
        stone = make(name, description, body, actor, reason, ts, action)
        stones = self.all()
        for existing in stones:
            if existing.digest == stone.digest:
                return existing
        self.save([*stones, stone])
        return stone

    def lift(self, tombstone_id: str) -> Tombstone:
        """Remove the tombstone ``tombstone_id``. Raises :class:`NotFound`."""
        stones = self.all()
        kept = [s for s in stones if s.id != tombstone_id]
        if len(kept) == len(stones):
            raise NotFound(f"no tombstone {tombstone_id!r}; see `memdir tombstones`")
        self.save(kept)
        return next(s for s in stones if s.id == tombstone_id)

    def lift_all(self, tombstone_ids) -> list[Tombstone]:
        """Remove the tombstones ``tombstone_ids`` that are in force (the others are passed over) in one rewrite
        of the file, not one per tombstone (a sync bringing 2,000 lifts); returns the lifted, in the order of
        ``tombstone_ids``. The file is written dated :data:`AHEAD` past now, so until :meth:`dated_as` gives it
        its journal's mtime, :func:`memdir.layer.drift.cut_tombstones` says a change may have been cut before its
        journal line — as after each single :meth:`lift` — and a process killed between the caller's journal
        lines leaves what a cut between single lifts left: the next transaction puts back the tombstones whose
        ``tombstone-lift`` line never came (:func:`memdir.layer.drift.settle_tombstones`). Raises
        :class:`StoreError`."""
        stones = self.all()
        wanted = set(tombstone_ids)
        gone = {s.id: s for s in stones if s.id in wanted}
        if not gone:
            return []
        self.save([s for s in stones if s.id not in gone])
        now = time.time_ns()
        try:
            os.utime(self.path, ns=(now, now + AHEAD))
        except OSError as exc:
            raise StoreError(f"cannot date {self.path}: {exc.strerror or exc}") from None
        self._cache = None
        return [gone[i] for i in dict.fromkeys(tombstone_ids) if i in gone]

    def dated_as(self, journal_path: Path) -> None:
        """Give the file the mtime of the journal at ``journal_path`` (once the lines of a :meth:`lift_all`
        are written): its change is then journaled whole, and :func:`memdir.layer.drift.cut_tombstones`
        says so. Best effort: left ahead, the next transaction's settle finds nothing to undo and dates it."""
        try:
            os.utime(self.path, ns=(time.time_ns(), os.stat(journal_path).st_mtime_ns))
        except OSError:
            pass
        self._cache = None

    def put_back(self, stone: Tombstone) -> None:
        """Undo :meth:`lift` of ``stone`` (its change was not committed). Raises :class:`StoreError`."""
        if all(s.id != stone.id for s in self.all()):
            self.save([*self.all(), stone])


# The fields of a stored tombstone (Tombstone.stored): those it must have, those that are text when given
# (else empty) and those that may be null. A file written by hand or cut by a merge may break any of them.
_REQUIRED = ("id", "name", "digest")
_TEXT = ("description", "actor", "ts")
_NULLABLE = ("reason", "words_digest", "action", "body_digest", "written_words_digest", "written_body_digest")
_JSON_KINDS = {dict: "an object", list: "an array", str: "a string", bool: "a boolean", int: "a number",
               float: "a number", type(None): "null"}


def _kind(value: object) -> str:
    return _JSON_KINDS.get(type(value), type(value).__name__)


MAX_TOMBSTONE_BYTES = 64 * 1024
"""The cap on one team tombstone file: memdir writes a few hundred bytes; a larger file is not read."""


def _load(path: Path, empty: bytes, *, foreign: bool = False) -> object:
    """The JSON value of the file at ``path`` (``empty`` for an empty file). ``foreign``: a file of the
    repository (a team tombstone), read as a foreign file is (:func:`memdir.files.fsio.read_foreign`):
    a regular file only, never through a symlink, at most :data:`MAX_TOMBSTONE_BYTES`. Raises
    :class:`ValueError` for bytes that are not JSON, nested too deep to read among them, and (``foreign``)
    for a file not read; :class:`StoreError` (from :func:`memdir.files.fsio.read_bytes`) for a personal
    file that cannot be read."""
    if foreign:
        found = read_foreign(path, MAX_TOMBSTONE_BYTES, follow=False)
        if found.data is None:
            raise ValueError(f"not read: it is {found.why}")
        data = found.data
    else:
        data = read_bytes(path)
    try:
        return json.loads(data or empty)
    except RecursionError:
        raise ValueError("JSON nested too deep") from None


NOT_A_NAME = "(not a memory name)"
"""What a team tombstone whose ``name`` is no memory name is read as named: a file another person wrote is shown
to the agent (a refusal) and in listings, so its text never is; its digests still forget the value."""


def is_memory_name(name: str) -> bool:
    """True when ``name`` is a memory name as memdir writes one (its own normalized form): what every
    tombstone memdir makes names."""
    try:
        return normalize_name(name).name == name
    except InvalidInput:
        return False


def named(stone: Tombstone) -> tuple[Tombstone, str | None]:
    """``stone`` as a team tombstone is read: unchanged, and None, when its name is a memory name; else named
    :data:`NOT_A_NAME` (its digests still block the forgotten value: a deleted fact stays deleted) and
    what ``doctor`` and ``team status`` say of its file (the name's length, never its text)."""
    if is_memory_name(stone.name):
        return stone, None
    return replace(stone, name=NOT_A_NAME), (
        f"its name is not a memory name ({len(stone.name)} characters, not shown); its digests still forget the "
        f"value, shown as {NOT_A_NAME} — fix the name by hand, or lift it "
        f"(memdir tombstone lift {stone.id} --scope team)")


def stone_of(item: object, *, team: bool = False, scope: str | None = None) -> Tombstone:
    """The tombstone a stored JSON value describes: an object with ``id``, ``name`` and ``digest`` (text),
    ``description``, ``actor`` and ``ts`` (text, empty when absent), ``reason``, ``words_digest``, ``action`` and
    ``body_digest`` (text or null; absent from a file written before they were kept: None), ``reading`` (a whole
    number from 1, or null; absent: None, a tombstone made before readings were kept,
    :data:`memdir.tombstones.reading.READINGS`), ``description_addresses`` and ``body_addresses`` (arrays of strings, or
    null; absent: None, :func:`memdir.tombstones.addresses.forgotten`), ``written_words_digest`` and
    ``written_body_digest`` (text or null; absent: None), ``body_linked`` (true, false or null; absent, false: None). ``team``: read from the team layer (:attr:`Tombstone.team`); ``scope``: of the layer it was
    read from (:attr:`Tombstone.scope`); a team file's ``actor``, ``reason`` and ``ts`` are not read (memdir writes none
    there: :func:`shared_bytes`; a refusal would show them to the agent). Raises :class:`ValueError`
    naming the first field missing or of another type (``'description' is a number, not a string``) —
    every field is checked here, so a tombstone read never fails later, in a match or a listing."""
    if not isinstance(item, dict):
        raise ValueError(f"{_kind(item)}, not an object")
    for key in _REQUIRED:
        if key not in item:
            raise ValueError(f"{key!r} is missing")
    for key in (*_REQUIRED, *_TEXT, *_NULLABLE):
        value = item.get(key, "" if key in _TEXT else None)
        if not isinstance(value, str) and not (value is None and key in _NULLABLE):
            raise ValueError(f"{key!r} is {_kind(value)}, not a string")
    reading = item.get("reading")
    if reading is not None and (type(reading) is not int or reading < 1):
        raise ValueError(f"'reading' is {_kind(reading)}, not a reading's number (1 or more)")
    kept = {}
    for key in ("description_addresses", "body_addresses"):
        value = item.get(key)
        if value is not None and (not isinstance(value, list) or not all(isinstance(v, str) for v in value)):
            raise ValueError(f"{key!r} is {_kind(value)}, not an array of strings")
        kept[key] = tuple(value) if value else None
    if item.get("body_linked") not in (None, True, False):
        raise ValueError(f"'body_linked' is {_kind(item['body_linked'])}, not true or false")
    kept["body_linked"] = True if item.get("body_linked") is True else None
    if team:  # a team tombstone's file keeps no who, when or why (shared_bytes): one that does was not memdir's
        item = {k: v for k, v in item.items() if k not in ("actor", "reason", "ts")}
    return Tombstone(id=item["id"], name=item["name"], digest=item["digest"],
                     description=item.get("description", ""), actor=item.get("actor", ""),
                     reason=item.get("reason"), ts=item.get("ts", ""), words_digest=item.get("words_digest"),
                     team=team, scope=scope, action=item.get("action"), body_digest=item.get("body_digest"),
                     reading=reading, written_words_digest=item.get("written_words_digest"),
                     written_body_digest=item.get("written_body_digest"), **kept)


class TombstoneDir:
    """Tombstones kept one small JSON file each (``<directory>/<id>.json``):
    the team layer's, inside the repository, so two people's tombstones
    merge in git without a conflict (each adds its own file; lifting one
    removes its file). Same interface as :class:`TombstoneFile`; reads are
    cached by the directory's mtime and the files' stat keys."""

    def __init__(self, directory: Path, seen: Path | None = None):
        self.path = Path(directory)
        self.seen = Path(seen) if seen is not None else None
        self._cache: tuple[tuple, list[Tombstone]] | None = None

    def linked(self) -> bool:
        """True when the directory is a symbolic link: never listed, read or written through."""
        return os.path.islink(self.path)

    def _listing(self) -> list[tuple[str, tuple[int, int, int]]]:
        """``(file name, (size, mtime, mode))`` of every ``*.json`` entry (not a dot-file), of any kind:
        :meth:`all` reads the regular files and names the others (never stat'ed through a link)."""
        if self.linked():
            return []
        try:
            with os.scandir(self.path) as items:
                return sorted((i.name, (st.st_size, st.st_mtime_ns, st.st_mode)) for i in items
                              if i.name.endswith(".json") and not i.name.startswith(".")
                              and (st := i.stat(follow_symlinks=False)))
        except (FileNotFoundError, NotADirectoryError):
            return []
        except OSError as exc:
            raise StoreError(f"cannot list {self.path}: {exc.strerror or exc}") from None

    def all(self) -> list[Tombstone]:
        """Tombstones in force, oldest first (by id for files without a
        time). A file that does not read as a tombstone (not JSON, not an
        object, a merge conflict left in it, an id that is not its file
        name: ``evil.json`` holding ``../../x``, a link or a directory in its
        place) is skipped and named in
        :meth:`problems`: it never blocks the others or an unrelated write. A tombstone this home read
        before from such a file stays in force (:meth:`_vanished`), and its problem line says so."""
        listing = self._listing()
        key = (self.linked(), tuple(listing), self._seen_key())
        if self._cache and self._cache[0] == key:
            return self._cache[1]
        stones, problems, renamed = [], [], []
        for filename, (_, _, mode) in listing:
            path = self.path / filename
            try:
                if stat.S_ISDIR(mode):  # a pull that swapped a tombstone for a folder must not drop it unsaid
                    raise ValueError(f"not read: it is {DIRECTORY}")
                stone = stone_of(_load(path, b"{}", foreign=True), team=True, scope="team")
                if stone.id != filename[:-5]:  # a file from git names its id: one elsewhere would be written back there
                    raise ValueError(f"its id {stone.id!r} is not its file name, {filename}")
                if one_line(stone.id) != stone.id or " " in stone.id:  # shown in every refusal: one word
                    raise ValueError(f"its id {stone.id!r} is not one printable word")
                stone, note = named(stone)  # a name no memory has is never shown: the file is named, still in force
                if note:
                    renamed.append((str(path), note))
                stones.append(replace(stone, file=str(path)))
            except ValueError as exc:
                problems.append((str(path), f"not a readable tombstone ({exc})", "remove it from the repository"
                                 if str(exc).startswith("not read")
                                 else "fix or remove it by hand (a merge conflict: keep one side)"))
        kept = self._vanished(stones)
        held = {stone.id for stone in kept}
        problems = [(path, f"{what}; " + ("this home read it before, so its tombstone stays in force here"
                                          if Path(path).stem in held else "it is not applied") + f" — {fix}")
                    for path, what, fix in problems]
        if self.linked():
            problems.insert(0, (str(self.path), f"not read: it is {LINK}; no team tombstone is applied — replace "
                                                "it with a directory"))
        stones += kept
        stones.sort(key=lambda s: (s.ts, s.id))
        self._cache = (key, stones)
        self._problems, self._renamed = problems, renamed
        return stones

    def misnamed(self) -> list[tuple[str, str]]:
        """``(path, why)`` of each file read as a tombstone in force whose name is no memory name (read as
        :data:`NOT_A_NAME`, :func:`named`): not a problem of the check (its digests apply), one of the file."""
        self.all()
        return list(getattr(self, "_renamed", []))

    def problems(self) -> list[tuple[str, str]]:
        """``(path, why)`` of each file in the directory that is not a
        readable tombstone (see :meth:`all`)."""
        self.all()
        return list(getattr(self, "_problems", []))

    def add(self, name: str, description: str, body: str, actor: str, reason: str | None,
            ts=None, action: str | None = None) -> Tombstone:
        """Record a value's tombstone in a file of its own (``action`` is not kept either) (``ts`` is not kept: see below) (idempotent: the
        one already there for the same value is returned). The file holds
        only what follows from the value and its name (id, name, digests,
        description), never who or when (the local journal keeps those):
        two people forgetting the same fact add byte-identical files, which
        git merges cleanly."""
        made = make(name, description, body, actor, reason)
        stone = replace(made, team=True, file=str(self.path / f"{made.id}.json"))
        if self.linked():  # written through, the tombstone would land wherever the link points
            raise StoreError(f"{self.path} is a symbolic link; memdir does not write through it: replace it "
                             "with a directory")
        for existing in self.all():
            if existing.digest == stone.digest and not existing.vanished:  # a vanished one has no file to share
                return existing
        ensure_dir(self.path)
        atomic_write(self.path / f"{stone.id}.json", shared_bytes(stone))
        self._remember({stone.id: stone.stored()})
        self._cache = None
        return stone

    def lift(self, tombstone_id: str) -> Tombstone:
        """Remove the file of tombstone ``tombstone_id``. Raises :class:`NotFound`."""
        for stone in self.all():
            if stone.id == tombstone_id:
                for filename, _ in self._listing():
                    path = self.path / filename
                    try:
                        if stone_of(_load(path, b"{}", foreign=True)).id == tombstone_id:
                            os.unlink(path)
                    except ValueError:
                        continue  # not a tombstone (all() names it): left for a person
                    except OSError as exc:
                        raise StoreError(f"cannot remove {path}: {exc.strerror or exc}") from None
                self._remember({}, drop=stone.id)
                if stone.vanished:  # no file went: move the tombstones' key so the files it held are judged again
                    ensure_dir(self.path)
                    os.utime(self.path)
                self._cache = None
                return stone
        raise NotFound(f"no tombstone {tombstone_id!r}; see `memdir tombstones`")

    def put_back(self, stone: Tombstone) -> None:
        """Undo :meth:`lift` of ``stone`` (its change was not committed): its file written again (a
        vanished one: remembered again). Raises :class:`StoreError`."""
        if stone.vanished:
            self._remember({stone.id: stone.stored()})
            self._cache = None
            return
        ensure_dir(self.path)
        atomic_write(self.path / f"{stone.id}.json", shared_bytes(stone))
        self._cache = None

    def write_back(self, stone: Tombstone) -> Tombstone:
        """Write the file of ``stone``, a tombstone removed unlifted (:attr:`Tombstone.vanished`), back into the
        directory: a person forgot its value again, so it travels through git again (to commit). Returns it as
        read from its file now. Raises :class:`StoreError`."""
        if self.linked():
            raise StoreError(f"{self.path} is a symbolic link; memdir does not write through it: replace it "
                             "with a directory")
        ensure_dir(self.path)
        atomic_write(self.path / f"{stone.id}.json", shared_bytes(stone))
        self._cache = None
        return replace(stone, vanished=False, file=str(self.path / f"{stone.id}.json"))

    def _seen_key(self) -> tuple[int, int] | None:
        """The stat key (size, mtime) of the record of tombstones read here; None without one."""
        if self.seen is None:
            return None
        try:
            st = os.stat(self.seen, follow_symlinks=False)
        except OSError:
            return None
        return (st.st_size, st.st_mtime_ns)

    def _record(self) -> dict[str, dict]:
        """Id → stored fields of every team tombstone read here and not lifted here ({} without a record, or
        for one that does not read: it is rebuilt from the files in the repository)."""
        if self.seen is None:
            return {}
        try:
            raw = _load(self.seen, b"{}")
        except (ValueError, StoreError):
            return {}
        return {k: v for k, v in raw.items() if isinstance(v, dict)} if isinstance(raw, dict) else {}

    def _remember(self, stones: dict[str, dict], drop: str | None = None) -> dict[str, dict]:
        """Add ``stones`` (id → stored fields) to the record, ``drop`` an id lifted here; written only when it
        changes. A home that cannot be written keeps the record it has (the next read that can write adds the
        rest: the files are still in the repository). Returns the record."""
        record = self._record()
        if self.seen is None or (all(k in record for k in stones) and drop not in record):
            return record
        record = {**{k: v for k, v in record.items() if k != drop}, **stones}
        try:
            background.require(self.seen.parent.parent)  # the team layer's home side: a background job never makes it
            ensure_dir(self.seen.parent)  # a clone whose home side holds nothing yet (trusted, never written)
            atomic_write(self.seen, json.dumps(record, ensure_ascii=False, sort_keys=True).encode() + b"\n")
        except StoreError:
            pass
        return record

    def _vanished(self, stones: list[Tombstone]) -> list[Tombstone]:
        """The tombstones read here before whose file has left the directory with no lift here (see the module
        docstring), as :attr:`Tombstone.vanished`; ``stones`` (those read from the files) are remembered. A file
        still there under its id that no longer reads (garbled, conflict markers) or that now holds another
        digest has left as well: the value read here stays forgotten (break35: a teammate's commit garbling the
        file brought the forgotten value back into the prompt, where removing the file kept it held back);
        :meth:`all` names the file and says so."""
        if self.seen is None:
            return []
        record = self._remember({s.id: s.stored() for s in stones})
        present, gone = {(s.id, s.digest) for s in stones}, []
        for stone_id, item in record.items():
            if (stone_id, item.get("digest")) in present:
                continue
            try:
                stone = stone_of(item, team=True, scope="team")
            except ValueError:
                continue
            if stone.id == stone_id:
                gone.append(replace(stone, vanished=True))
        return gone


def shared_bytes(stone: Tombstone) -> bytes:
    """The bytes of ``stone``'s own file where tombstones travel through git (the team layer's directory, a
    person's sync repository): only what follows from the forgotten value and its name (id, name, digests,
    description), never who or when, so two people or two machines forgetting the same fact write
    byte-identical files, which git merges cleanly. Read back with :func:`stone_of`."""
    content = {k: v for k, v in stone.stored().items() if k not in ("actor", "reason", "ts")}
    return json.dumps(content, ensure_ascii=False, indent=1, sort_keys=True).encode() + b"\n"


def sync_bytes(stone: Tombstone) -> bytes:
    """The bytes of ``stone``'s file in a person's sync repository (:mod:`memdir.operations.sync`): all it
    stores, who forgot it, when and why included, so the other machines show the same reason. Two machines
    forgetting one fact may write different bytes for one id; the sync keeps either (the same fact) and
    never sends a tombstone the repository already has. The description and reason travel redacted
    (:func:`memdir.text.redact.redact`: a secret typed into them stays on this machine); the digests still
    forget the value everywhere. Read back with :func:`stone_of`."""
    from ..text.redact import redact  # only a sync reads it: not loaded where tombstones are checked

    content = stone.stored()
    content["description"] = redact(stone.description).text
    if stone.reason:
        content["reason"] = redact(stone.reason).text
    return json.dumps(content, ensure_ascii=False, indent=1, sort_keys=True).encode() + b"\n"


def unlifted_note(stone_id: str, name: str, back: bool) -> str:
    """What a team tombstone removed unlifted (:attr:`Tombstone.vanished`: its file left the repository, nobody
    lifted it here) means here and the two ways a person settles it, the one sentence ``team status``,
    ``doctor`` and ``tombstones`` show. ``back``: a file of memory ``name`` is in the team directory again (a
    revert brings it), held back: forgetting it again writes the tombstone's file back, to commit. Without it,
    the tombstone's own file (``tombstones/ID.json`` in the team directory) is restored from git and committed.
    Either way ``memdir tombstone lift ID --scope team`` accepts the removal. Short: doctor cuts a line at
    :data:`memdir.text.printable.LINE_BYTES`, and both ways must survive the cut."""
    # a person's note: off the hooks' path, which reads tombstones
    from .refusals import lift_command

    lift = f"`{lift_command(stone_id, 'team')}` accepts the removal"
    if not back:  # no file to forget again: its tombstone's file comes back from git, or the lift settles it
        return (f"the tombstone {stone_id} of {name} left the repository with no lift here, so it stays in force "
                f"here; {lift}; restoring {TEAM_TOMBSTONE_DIR}/{stone_id}.json from git (then commit) keeps it")
    return (f"{name} is back: its tombstone {stone_id} left the repository with no lift here, so the file is held "
            f"back; `memdir forget {name} --scope team` (then commit) keeps it forgotten, {lift}")


def unreadable_tombstones(store) -> list[tuple[str, str]]:
    """``(path, why)`` of each tombstone file of ``store`` that does not read
    (a :class:`TombstoneDir`'s; a :class:`TombstoneFile` reports through
    the errors it raises)."""
    problems = getattr(store, "problems", None)
    return problems() if problems else []


def misnamed_tombstones(store) -> list[tuple[str, str]]:
    """``(path, why)`` of each team tombstone file of ``store`` in force under :data:`NOT_A_NAME` (its name
    is no memory name: :meth:`TombstoneDir.misnamed`); none for a :class:`TombstoneFile`. What ``doctor``,
    ``status`` and ``tombstones`` name beside :func:`unreadable_tombstones`; a write's check does not (it applied them)."""
    misnamed = getattr(store, "misnamed", None)
    return misnamed() if misnamed else []


__all__ = ["NOT_A_NAME", "TombstoneDir", "TombstoneFile", "is_memory_name", "misnamed_tombstones", "named", "shared_bytes", "stone_of", "sync_bytes", "unlifted_note",
           "unreadable_tombstones"]
