"""Files held back: an active memory whose value a tombstone of its own layer and name matches (DESIGN §5, §10).

No write path lets a forgotten value back in (:func:`memdir.tombstones.match.check`), but a file can come
back without one: a person copies an old file back, a backup is restored, or — in the team layer — git
stops a pull on a modify/delete conflict (one person forgot the memory, another changed it) and leaves
the changed file, without a conflict marker, which a ``git add`` then commits for everyone. Such a file
is treated as one with conflict markers is (:mod:`memdir.files.scan`): it is not a memory of the layer —
never in ``MEMORY.md``, the context block, search, recall, ``list`` or the agent's tools — and is
reported (``doctor``: a problem, with the two commands that settle it) until a person deletes it
(``memdir delete NAME --scope S``: :func:`memdir.gateway.changes.delete` removes the file, the tombstone
stays) or lifts the tombstone (``memdir tombstone lift ID``: the file is a memory again). Both are
journaled.

The verdict is taken when a file is parsed (:meth:`HoldsBack.holder`, given to
:func:`memdir.files.scan.load`), so it is kept with the file's state wherever that is kept (the
manifest, the search index's rows, ``MEMORY.md`` built from the visible set): the hot path matches
nothing. When the tombstones change — memdir adds or lifts one, a ``git pull`` brings one —
:func:`memdir.files.layout.judged` says so (the tombstones' mtime against the one the files were last
judged with, ``.memdir/held.stamp``), and the next scan parses every file again (once), ``MEMORY.md`` and
the search index following it.
"""

from __future__ import annotations

from pathlib import Path

from ..errors import InvalidInput, StoreError
from ..files.conflicts import CONFLICT
from ..files.fsio import atomic_write
from ..files.layout import (
    HELD_FILES_FILE,
    held_files_text,
    judged_key,
    read_held_files,
    record_judged,
    stones_key,
)
from ..files.scan import HELD, FileState, Malformed
from ..text.names import normalize_name
from ..tombstones.match import lift_command, match


def held_reason(stone, why: str, name: str, scope: str) -> str:
    """What a file held back says (its :class:`memdir.files.scan.Malformed` error, as ``doctor`` and
    ``list`` show it): the tombstone, how it matched, and the two commands that settle it."""
    return (f"{HELD}: it holds a value forgotten as {stone.name!r} ({why}; tombstone {stone.id}); the agent never "
            f"sees it until a person settles it: `memdir delete {name} --scope {scope}` removes it, "
            f"`{lift_command(stone.id)}` keeps it")


def held_names(found) -> frozenset[str]:
    """The names whose file is still on disk but held back in ``found`` (a :class:`memdir.files.scan.Scan`, its
    ``files``: kept in step by a transaction's writes): a
    file with an unresolved merge conflict (:data:`memdir.files.conflicts.CONFLICT`) or a forgotten value put
    back (:data:`memdir.files.scan.HELD`), named by its file name (``db-port.md`` → ``db-port``). Such a memory
    is not gone: the journal's sweep records no ``external-delete`` of it (:func:`memdir.layer.commit.sweep`);
    its last version stays its head, and what settles it — ``team resolve``, ``delete`` (which keeps the
    file's bytes as a version first: :func:`memdir.layer.commit.preserve`), a tombstone lift, a hand edit —
    is journaled as what it is. One pass over the scan's malformed files (few)."""
    names = set()
    for filename, _kind in _held_files(found):
        try:
            names.add(normalize_name(filename.removesuffix(".md")).name)
        except InvalidInput:
            continue
    return frozenset(names)


def _held_files(found) -> list[tuple[str, str]]:
    """``(file name, kind)`` of each file of ``found`` held back (kind: ``conflict`` or ``held``,
    :data:`memdir.files.layout.HELD_KINDS`): its malformed files, each still in its ``files`` with that error
    (a transaction's write drops or replaces the state of a file it wrote; its malformed list stays as scanned)."""
    out = []
    for bad in found.malformed:
        if not isinstance(bad, Malformed):
            continue
        kind = "conflict" if bad.error == CONFLICT else "held" if bad.error.startswith(HELD) else None
        filename = Path(bad.path).name
        if kind and (state := found.files.get(filename)) is not None and state.error == bad.error:
            out.append((filename, kind))
    return out


def held_counts(found) -> dict[str, int]:
    """How many files of ``found`` (a :class:`memdir.files.scan.Scan`, its ``files``) are held back, by kind of
    :data:`memdir.files.layout.HELD_KINDS`: ``conflict`` (an unresolved merge conflict), ``held`` (a forgotten
    value put back)."""
    counts = {"conflict": 0, "held": 0}
    for _filename, kind in _held_files(found):
        counts[kind] += 1
    return counts


class HoldsBack:
    """The held-back rule of :class:`memdir.layer.layer.Layer` (which supplies ``path``, ``meta``,
    ``scope`` and ``tombstones()``)."""

    _judged_with: int | None = None  # the stones key this object's cached file states were judged with

    def holder(self):
        """``hold(record)`` for :func:`memdir.files.scan.load`: the reason a memory is held back (a
        :data:`~memdir.files.scan.HELD` text) when it is active and a tombstone of this layer and of its name
        matches its value (:func:`memdir.tombstones.match.match`), else None. By name: a file put back (a copy,
        a backup, git's modify/delete) keeps its name, and matching every file against every tombstone made
        the first read after a pulled tombstone 1.5 s at 2,000 memories (by name: 0.66 s, the files' parse);
        a forgotten value written under another name is refused by the gateway. None instead of a function when
        the layer has no tombstone (or they cannot be read: a write then reports them)."""
        try:
            stones = self.tombstones()
        except StoreError:
            return None
        if not stones:
            return None
        scope, named = self.scope, {}
        for stone in stones:  # a file is held back by the tombstones of its own name
            named.setdefault(stone.name, []).append(stone)

        def hold(record) -> str | None:
            if record.status != "active" or record.name not in named:
                return None
            hit = match(named[record.name], record.description, record.body)
            return None if hit is None else held_reason(hit[0], hit[1], record.name, scope)

        return hold

    def judge(self, state):
        """``state`` (a :class:`memdir.files.scan.FileState` of a file parsed without a verdict), or the state
        of its file held back when :meth:`holder` says so; None and states of no memory as they are."""
        if state is None or state.entry is None or (hold := self.holder()) is None:
            return state
        why = hold(state.entry.record)
        return state if why is None else FileState(state.key, state.digest, None, why)

    def stones_moved(self) -> bool:
        """Whether the tombstones changed since this object's cached file states were judged (when it has
        none: since the manifest's were, :func:`memdir.files.layout.judged`). Three stats at most."""
        basis = self._judged_with if self._judged_with is not None else judged_key(self.meta)
        return stones_key(self.path) != basis

    def _judging(self) -> int:
        """Before a scan that judges every file it reads: the stones key it judges with, kept."""
        self._judged_with = stones_key(self.path)
        return self._judged_with

    def _record_judged(self, saved_all: bool) -> None:
        """After the manifest was saved (``saved_all``: every file's state, a full sweep's or whole), when
        the states saved were judged with the tombstones as they still are: record it
        (:func:`memdir.files.layout.record_judged`), so the next process trusts them. States judged again
        since the last such save (``_unsaved_judgement``) wait for a full save."""
        if saved_all:
            self._unsaved_judgement = False
        key = stones_key(self.path)
        if not self._unsaved_judgement and self._judged_with == key and judged_key(self.meta) != key:
            record_judged(self.meta, key)

    def stone_added(self, before: int) -> None:
        """A tombstone this layer's transaction added after it found that its value is held by no other live
        memory of the layer (:func:`memdir.gateway.changes.delete`): the files judged with ``before`` (the
        stones key before the add) need no new judgement — their states stay judged, with the new key."""
        if self._judged_with == before:
            self._judged_with = stones_key(self.path)

    def stones_now(self) -> int:
        """The layer's stones key now (:func:`memdir.files.layout.stones_key`)."""
        return stones_key(self.path)

    def note_held(self, found, swept: bool) -> None:
        """Keep :data:`memdir.files.layout.HELD_FILES_FILE` in step with ``found`` (this layer's scan, as the
        index was written from it; ``swept``: every file of it looked at): the counts of its files held back, so
        the context block can say that a memory waits for a person without reading a file
        (:func:`memdir.prompt.context.held_note`); removed when none is. A transaction that swept nothing changes
        only the files it wrote, never into one held back: with none held, one open and nothing else. Derived,
        like ``MEMORY.md``; raises :class:`StoreError` when it cannot be written."""
        before = held_files_text(read_held_files(self.meta))
        if not swept and not before:
            return
        data = held_files_text(held_counts(found))
        if before == data:
            return
        path = self.meta / HELD_FILES_FILE
        try:
            if data:
                atomic_write(path, data, sync=False)
            else:
                path.unlink(missing_ok=True)
        except OSError as exc:
            raise StoreError(f"cannot write {path}: {exc.strerror or exc}") from None

    def held_file(self, found, name: str) -> Path | None:
        """The file of ``found`` (a :class:`memdir.files.scan.Scan` of this layer) held back that holds
        memory ``name``, by its file name (``name.md``) or its reason; None when there is none."""
        for bad in found.malformed:
            if isinstance(bad, Malformed) and bad.error.startswith(HELD) and (
                    Path(bad.path).name == f"{name}.md" or f"`memdir delete {name} --scope " in bad.error):
                return Path(bad.path)
        return None


__all__ = ["HoldsBack", "held_counts", "held_names", "held_reason"]
