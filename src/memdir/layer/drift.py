"""Tombstones checked against the journal (DESIGN §5; issue 10, trial item 5).

Every delete that tombstones a value (``delete``, ``forget``, ``reject``)
names its tombstone in its journal line (``data.tombstone``) and keeps the
deleted bytes as the event's ``before`` object; a ``tombstone-lift`` names the
tombstone it lifted. Replaying those events gives the tombstones that must be
in force, each rebuildable from its object. :func:`tombstone_drift` compares
that with ``tombstones.json``: a tombstone missing (the file deleted, emptied
or cut) or edited (its digest or name changed) is named, and
:func:`restore_tombstones` puts the journal's back (``memdir verify --repair``).
Tombstones no event names are orphans (:func:`orphan_tombstones`): saved by a delete killed before
its journal line. A delete (or sync) writes ``tombstones.json`` before its journal line, and a lift
removes the tombstone before its line, so a change cut between the two leaves ``tombstones.json``
newer than the journal (:func:`cut_tombstones`); the next transaction of the layer then undoes it
(:func:`settle_tombstones`), as it puts back a file renamed aside by the same cut delete — else the
memory, never deleted, stayed held back from every reader and was journaled as an
``external-delete`` until a person ran ``memdir verify --repair``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, replace

from ..errors import NotFound
from ..files.memfile import MalformedMemory, parse
from ..tombstones.match import Tombstone, make
from ..tombstones.stones import TombstoneFile
from .journal import Journal


@dataclass(frozen=True)
class Drift:
    """One tombstone the journal says is in force that ``tombstones.json``
    lacks (``problem`` "missing") or holds changed ("edited");
    ``rebuilt`` is the tombstone rebuilt from the journal (None when its
    object is gone)."""

    id: str
    name: str
    seq: int
    problem: str
    rebuilt: Tombstone | None


def expected(journal: Journal) -> dict[str, tuple]:
    """Tombstone id → the event that recorded it, for every tombstone the
    journal says is in force (recorded by a delete, not lifted since)."""
    live: dict[str, tuple] = {}
    for event in journal.events():
        stone = (event.data or {}).get("tombstone")
        if not isinstance(stone, str):
            continue
        if event.action == "tombstone-lift":
            live.pop(stone, None)
        elif event.after is None and event.before:
            live.setdefault(stone, event)
    return live


def _rebuild(journal: Journal, stone_id: str, event) -> Tombstone | None:
    try:
        record = parse(journal.get_object(event.before).decode("utf-8"), event.name).record
    except (NotFound, MalformedMemory, UnicodeDecodeError):
        return None
    stone = make(event.name, record.description, record.body, event.actor, event.reason, action=event.action)
    if stone.id != stone_id:
        return None  # an older rule made it: cannot be rebuilt byte for byte
    return replace(stone, ts=event.ts)


def tombstone_drift(journal: Journal, tombstones: TombstoneFile) -> list[Drift]:
    """Tombstones journaled as in force that ``tombstones.json`` lacks or holds
    edited, oldest first. Raises :class:`StoreError` (unreadable file)."""
    held = {stone.id: stone for stone in tombstones.all()}
    out = []
    for stone_id, event in expected(journal).items():
        have = held.get(stone_id)
        rebuilt = _rebuild(journal, stone_id, event)
        if have is None:
            out.append(Drift(stone_id, event.name, event.seq, "missing", rebuilt))
        elif not have.digest.startswith(stone_id[2:]) or (
                rebuilt is not None and (have.digest, have.name) != (rebuilt.digest, rebuilt.name)):
            out.append(Drift(stone_id, event.name, event.seq, "edited", rebuilt))
    return out


def describe(drift: Drift) -> str:
    """One sentence for ``memdir verify``."""
    fix = ("`memdir verify --repair` restores it from the journal" if drift.rebuilt is not None
           else "its version object is gone: forget the value again (memdir forget)")
    what = "is missing from" if drift.problem == "missing" else "was edited in"
    return (f"tombstone {drift.id} ({drift.name}), recorded by the journal's event seq {drift.seq}, "
            f"{what} tombstones.json; {fix}")


def restore_tombstones(journal: Journal, tombstones: TombstoneFile) -> list[str]:
    """Put back every drifted tombstone the journal can rebuild (call under
    the layer lock); returns their ids."""
    drift = [d for d in tombstone_drift(journal, tombstones) if d.rebuilt is not None]
    if not drift:
        return []
    fixed = {d.id: d.rebuilt for d in drift}
    stones = [fixed.pop(s.id, s) for s in tombstones.all()]
    tombstones.save(stones + list(fixed.values()))
    return [d.id for d in drift]


def orphan_tombstones(journal: Journal, tombstones: TombstoneFile) -> list:
    """Tombstones no journal event refers to: saved by a delete that never
    reached its journal line (the memory is still there). Raises :class:`StoreError`."""
    stones = tombstones.all()
    if not stones:
        return []
    named = {event.data.get("tombstone") for event in journal.events() if event.data}
    return [stone for stone in stones if stone.id not in named]


def cut_tombstones(journal: Journal, tombstones) -> bool:
    """True when a tombstone change may have been cut before its journal line: the layer's
    ``tombstones.json`` was written after the journal (mtime, ns). Stat both before a torn journal
    line is cut (cutting it moves the journal's mtime). Two stats: the hot path pays nothing more.
    False for a team layer's tombstone directory (its tombstones come by git, never journaled here)."""
    if not isinstance(tombstones, TombstoneFile):
        return False
    try:
        return os.stat(tombstones.path).st_mtime_ns > os.stat(journal.path).st_mtime_ns
    except OSError:
        return False  # no tombstones.json, or no journal yet: nothing was cut


def settled(journal: Journal, tombstones: TombstoneFile) -> list[Tombstone]:
    """The tombstones :func:`settle_tombstones` would leave in force, read without writing: ``tombstones.json``
    less its orphans, and with the ones the journal says are in force that it lacks or holds edited put back
    (rebuilt). For a reader that cannot settle (a read-only home, another user's layer): else a forget killed
    before its journal line held the never-forgotten memory back from it for as long as nobody wrote (break29).
    Reads the whole journal: call only when :func:`cut_tombstones` says a change may have been cut. Raises
    :class:`StoreError`."""
    orphans = {stone.id for stone in orphan_tombstones(journal, tombstones)}
    fixed = {d.id: d.rebuilt for d in tombstone_drift(journal, tombstones) if d.rebuilt is not None}
    kept = [fixed.pop(s.id, s) for s in tombstones.all() if s.id not in orphans]
    return kept + list(fixed.values())


def settle_tombstones(journal: Journal, tombstones: TombstoneFile) -> tuple[list[str], list[str]]:
    """Undo tombstone changes cut before their journal line (call under the layer lock, after the
    journal's torn tail is repaired): lift every orphan (:func:`orphan_tombstones`: a delete cut
    before its commit; the memory was never deleted) and put back every tombstone the journal says
    is in force that the file lacks (:func:`restore_tombstones`: a lift cut before its commit).
    ``tombstones.json`` then takes the journal's mtime, so a layer settled (or whose tombstones a
    repair or a person wrote after the journal) is not checked again at every transaction.
    Returns ``(lifted ids, restored ids)``. Raises :class:`StoreError`."""
    lifted = []
    for stone in orphan_tombstones(journal, tombstones):
        tombstones.lift(stone.id)
        lifted.append(stone.id)
    restored = restore_tombstones(journal, tombstones)
    try:  # settled against this journal: its mtime, so the next transaction's two stats say so
        os.utime(tombstones.path, ns=(time.time_ns(), os.stat(journal.path).st_mtime_ns))
    except OSError:
        pass  # checked again next time: slower, never wrong
    return lifted, restored


__all__ = ["Drift", "cut_tombstones", "describe", "expected", "orphan_tombstones", "restore_tombstones",
           "settle_tombstones", "tombstone_drift"]
