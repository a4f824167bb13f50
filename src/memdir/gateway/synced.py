"""What a sync brings from the person's other machines into one layer, through the gateway (DESIGN §11).

:mod:`memdir.operations.sync` merges the person's layers in git; what the merge changed reaches a live
layer only here, in one transaction of that layer (the lock, the hand-edit sweep, the journal, the
index), as every writer's change does:

* tombstones first: one forgotten on another machine is added (journaled as a ``sync`` event naming
  it, so ``memdir verify`` knows where it came from), one lifted there is lifted here
  (``tombstone-lift``);
* then each memory file, compare-and-set against the digest the sync read before it went to the
  network (:attr:`Incoming.expect`): a file a writer changed meanwhile is left as it is and reported,
  and the next sync merges it; a memory whose value this layer has forgotten is refused
  (:func:`memdir.gateway.forgotten.check_forgotten`), and the next sync removes it from the other
  machines too; text is redacted as every write's is;
* last, a live memory whose value a tombstone just brought forgets (same rule as a delete) is deleted:
  forgotten on one machine is forgotten on all, whoever wrote it here.

Nothing with conflict markers is ever written: the sync holds such a file back and reports it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..errors import InvalidInput, Refused, StoreError, TombstoneRefused
from ..files.fsio import digest
from ..files.memfile import MalformedMemory, parse
from ..layer.layer import Layer
from ..text.names import normalize_name
from ..tombstones.match import Tombstone, match
from .fields import sanitize, sanitize_extra
from .forgotten import check_forgotten

ACTION = "sync"  # the journal action of what a sync brings


@dataclass(frozen=True)
class Incoming:
    """One memory file as the merged sync repository has it: ``name``, ``data`` (its bytes; None: the
    file is gone there) and ``expect``, the digest of the live file the sync read (None: there was none)."""

    name: str
    data: bytes | None
    expect: str | None
    forgotten: bool = False  # data None because the other machine forgot it (a tombstone of its name came)


@dataclass
class Applied:
    """What one layer took from a sync: names ``written`` (``created``: those that were not there) and
    ``deleted``, ``forgotten`` (deleted because a tombstone from another machine forgets their value),
    tombstone ids ``added`` and ``lifted`` (the memory names they forget: ``added_names``,
    ``lifted_names``), and ``skipped`` lines (a file changed meanwhile, a forgotten value, a file that is
    not a memory)."""

    written: list[str] = field(default_factory=list)
    created: list[str] = field(default_factory=list)
    deleted: list[str] = field(default_factory=list)
    forgotten: list[str] = field(default_factory=list)
    added: list[str] = field(default_factory=list)
    lifted: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    added_names: list[str] = field(default_factory=list)
    lifted_names: list[str] = field(default_factory=list)


def apply(layer: Layer, files: list[Incoming], added: list[Tombstone] = (), lifted: list[str] = (), *,
          actor: str = "human", label: str = "another machine", action: str = ACTION) -> Applied:
    """Bring ``files`` and the tombstones ``added``/``lifted`` (ids) into ``layer`` in one transaction
    (see the module docstring); ``label`` says where they come from in the journal's reasons; ``action``
    is the journal action of the files (``resolve`` for a settled conflict). Raises :class:`StoreError`,
    :class:`LockTimeout`; a single file that cannot be taken is skipped and named in :attr:`Applied.skipped`."""
    done = Applied()
    with layer.transaction(actor) as tx:
        tx.require_full()
        store = layer.tombstone_file
        stones = store.all()
        held = {stone.digest for stone in stones}
        new = [stone for stone in added if stone.digest not in held]
        # The tombstone lines in one batch: each written whole, in order, one fsync of the journal when the last
        # is written (Journal.batched), before any memory is touched — not one per tombstone (a sync bringing
        # 2,000). Not the sweep's argument (its lost line is journaled again from the bytes on disk): these lines
        # record changes tombstones.json already holds (saved, fsynced, before the first line), so a power loss
        # in the batch leaves the state a sync cut between two lines left with one fsync per line too (a kill, or
        # a power loss in the n fsyncs: the window is now n writes and one fsync) — tombstones past the last whole
        # line in force with no line, which a cut before the first line the next transaction settles
        # (memdir.layer.drift), and `memdir verify --repair` any other (tests/gateway/test_synced_batch.py).
        with layer.journal.batched():
            if new:
                store.save([*stones, *new])
                for stone in new:
                    tx.events.append(layer.journal.append(actor, ACTION, stone.name, None, None, data={
                        "tombstone": stone.id}, reason=f"forgotten on {label}"))
                    done.added.append(stone.id)
                    done.added_names.append(stone.name)
            # The lifts in one rewrite of tombstones.json, dated ahead until their lines are written (lift_all): a
            # kill between two lines leaves what a kill between two single lifts left — the next transaction puts
            # back the tombstones whose line never came (memdir.layer.drift.settle_tombstones). The team layer's
            # directory removes one file per lift, as before.
            lift_all = getattr(store, "lift_all", None)
            gone = lift_all(lifted) if lift_all is not None else [
                store.lift(i) for i in dict.fromkeys(lifted) if any(s.id == i for s in store.all())]
            for stone in gone:
                tx.events.append(layer.journal.append(actor, "tombstone-lift", stone.name, None, None, data={
                    "tombstone": stone.id}, reason=f"lifted on {label}"))
                done.lifted.append(stone.id)
                done.lifted_names.append(stone.name)
        if gone and lift_all is not None:
            store.dated_as(layer.journal.path)  # the lines are written (and fsynced): the change is whole
        tx.changed = tx.changed or bool(new or done.lifted)
        for item in files:
            _take(tx, item, label, action, done)
        if new:
            for name, entry in sorted(tx.scan.entries.items()):
                record = entry.record
                if record.status != "superseded" and match(new, record.description, record.body,
                                                           title=record.title) is not None:
                    tx.apply(name, None, ACTION, reason=f"its value was forgotten on {label}")
                    done.forgotten.append(name)
    return done


def _take(tx, item: Incoming, label: str, action: str, done: Applied) -> None:
    try:
        key = normalize_name(item.name).name
    except InvalidInput:  # a file name that is no memory name: never written into the layer
        done.skipped.append(f"{item.name}: not a memory name")
        return
    entry = tx.fresh(key)
    now = entry.digest if entry is not None else None
    if now != item.expect:  # a writer changed it after the sync read it: the next sync merges the two
        done.skipped.append(f"{key}: changed here during the sync; the next sync merges it")
        return
    if item.data is None:
        if entry is not None:
            tx.apply(key, None, action, reason=f"{'forgotten' if item.forgotten else 'deleted'} on {label}")
            (done.forgotten if item.forgotten else done.deleted).append(key)
        return
    if now == digest(item.data):
        return
    try:
        record = parse(item.data.decode("utf-8"), key).record
    except (UnicodeDecodeError, MalformedMemory, ValueError) as exc:
        done.skipped.append(f"{key}: not a readable memory ({exc})")
        return
    counts: dict[str, int] = {}
    clean = record.with_(description=sanitize(record.description, counts), body=sanitize(record.body, counts),
                         title=sanitize(record.title, counts) if record.title else None,
                         extra=tuple(sanitize_extra(dict(record.extra), counts).items()))
    try:
        check_forgotten(tx, entry, clean.description, clean.body, key, title=clean.title)
        tx.apply(key, clean, action, raw=item.data if clean == record else None, reason=f"from {label}",
                 dated=True)  # the other machine's dates
    except (TombstoneRefused, Refused, StoreError) as exc:
        done.skipped.append(f"{key}: {exc}")
        return
    done.written.append(key)
    if entry is None:
        done.created.append(key)


__all__ = ["ACTION", "Applied", "Incoming", "apply"]
