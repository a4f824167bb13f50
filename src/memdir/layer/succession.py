"""Which memory stands now for a superseded one: its ``superseded_by`` chain followed to the end.

The one rule wherever a successor is named — ``memdir read`` / ``memory_read`` (``status: superseded by
c (via b)``), the refusal to write, restore, approve a change to, pin or mute a superseded memory, and
consolidation's refusal to change one. A rename ``a → b`` and then ``b → c`` leaves ``a`` pointing at
``b``; what a person should be sent to is ``c``, the live end.

The chain stops at the first memory that is not itself superseded (active, or a candidate), at a
superseded one that names no successor, at a name no memory of the layer holds (the successor was
deleted: its tombstone, when it left one, is how its value comes back), or where it would visit a
memory twice (a hand edit can make ``a → b → a``): a chain never runs forever.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable

from ..errors import InvalidInput, Refused, TombstoneRefused
from ..files.memfile import MemoryRecord
from ..text.names import normalize_name


@dataclass(frozen=True)
class Successor:
    """Where a superseded memory's chain of successors ends.

    ``name``: the last memory reached (the live end when ``state`` is ``active``); ``via``: the
    superseded memories passed on the way, in order (empty for a direct successor); ``state``: the end's
    status (``active``, ``candidate``, ``superseded`` when it names no successor), ``deleted`` (no memory
    of the layer is called ``name``) or ``loop`` (the chain comes back to a memory it passed; ``name`` is
    then the direct successor); ``tombstone``: the id of the newest tombstone a deleted ``name`` left
    (None: none, or not deleted)."""

    name: str
    via: tuple[str, ...] = ()
    state: str = "active"
    tombstone: str | None = None

    def phrase(self) -> str:
        """The successor as ``superseded by …`` continues: ``c``, ``c (via b)``, ``b (deleted, tombstone
        t-…)``, ``b (its successors loop back)``."""
        notes = [f"via {', '.join(self.via)}"] if self.via else []
        if self.state == "deleted":
            notes.append("deleted" + (f", tombstone {self.tombstone}" if self.tombstone else ""))
        elif self.state == "loop":
            notes.append("its successors loop back")
        elif self.state != "active":
            notes.append(self.state)
        return self.name + (f" ({'; '.join(notes)})" if notes else "")

    def to_dict(self) -> dict:
        """The JSON form: ``name``, ``via`` (a list), ``state``, ``tombstone``."""
        return {"name": self.name, "via": list(self.via), "state": self.state, "tombstone": self.tombstone}


def _key(name: str) -> str:
    try:
        return normalize_name(name).name  # a hand-edited superseded_by: "B.md" is memory b
    except InvalidInput:
        return name


def successor(record: MemoryRecord, lookup: Callable[[str], object | None],
              stones: Callable[[], Iterable] = tuple) -> Successor | None:
    """The end of ``record``'s chain of successors (None when ``record`` is not superseded or names no
    successor). ``lookup(name)`` gives the layer's entry (a scan entry, with ``.record``) of a name, or
    None; ``stones()`` the layer's tombstones, read only when the chain ends at a deleted memory."""
    if record.status != "superseded" or not record.superseded_by:
        return None
    seen, via = {record.name}, []
    name = _key(record.superseded_by)
    while name not in seen:
        entry = lookup(name)
        if entry is None:
            named = [stone for stone in stones() if stone.name == name]
            newest = max(named, key=lambda stone: stone.ts, default=None)
            return Successor(name, tuple(via), "deleted", newest.id if newest else None)
        current = entry.record
        if current.status != "superseded" or not current.superseded_by:
            return Successor(current.name, tuple(via), current.status)
        seen.update((name, current.name))
        via.append(current.name)
        name = _key(current.superseded_by)
    return Successor(_key(record.superseded_by), (), "loop")


def of_transaction(record: MemoryRecord, tx) -> Successor | None:
    """:func:`successor` inside a layer transaction ``tx`` (its entries as on disk now, its layer's
    tombstones)."""
    return successor(record, tx.fresh, tx.layer.tombstones)


def superseded_refusal(record: MemoryRecord, found: Successor | None, doing: str = "write to",
                       scope: str | None = None) -> str:
    """Why ``doing`` (write to, restore a version of, approve a change to, pin, mute) the superseded
    ``record`` is refused, ``found`` being its :func:`successor`: where to go instead (the live end of the
    chain), or, when that was deleted, how ``record`` comes back (reactivate it; a person lifts the
    tombstone first when ``record`` holds the forgotten value; ``scope``: of ``record``'s layer, where that
    tombstone is, the lift command's ``--scope``). Said in no interface's words but the lift command (which the
    panel rewords): how a memory is reactivated is each adapter's to add (``reactivate`` of :class:`memdir.errors.Refused`,
    set by :func:`refuse_superseded`)."""
    name = record.name
    if found is None:
        return (f"memory {name!r} was superseded by a newer memory: {doing} a newer memory instead, or "
                f"reactivate {name!r} explicitly")
    via = f" (via {', '.join(repr(n) for n in found.via)})" if found.via else ""
    back = f"to {doing} {name!r}, reactivate it explicitly"
    if found.state == "deleted":
        # a refusal's text, loaded when there is one to give: off a write's path
        from ..tombstones.refusals import lift_command

        stone = (f" and its value forgotten (tombstone {found.tombstone}): {back}; if {name!r} holds that "
                 f"value too, a person first lifts the tombstone with `{lift_command(found.tombstone, scope)}`"
                 ) if found.tombstone else f": {back}"
        return f"memory {name!r} was superseded by {found.name!r}{via}, which was deleted" + stone
    if found.state == "loop":
        return f"memory {name!r} was superseded by {found.name!r}, whose successors loop back to it: {back}"
    return (f"memory {name!r} was superseded by {found.name!r}{via}: {doing} {found.name!r} instead, or "
            f"reactivate {name!r} explicitly")


def name_kept(record: MemoryRecord, found: Successor | None) -> str:
    """Why the name of the superseded ``record`` cannot be a rename's new name, ``found`` being its
    :func:`successor`: a renamed or replaced memory keeps its name with its history (its versions, and
    what reactivating it brings back), so the name is taken though no active memory shows it."""
    name = record.name
    now = f", now {found.phrase()}" if found is not None else ""
    return (f"the name {name!r} is kept by the history of a memory that was renamed or replaced{now}; "
            "choose another name")


def refuse_superseded(entry, refuse: bool, doing: str, tx) -> None:
    """Raise :class:`Refused` (:func:`superseded_refusal`) when ``refuse`` and ``entry`` (a scan entry or
    None) holds a superseded memory of the layer of transaction ``tx``: writing to it without reactivating
    it, restoring an active version over it, approving a change to it, pinning or muting it (issue 10).
    Its ``reactivate`` names the memory and its ``lift`` the tombstone its message says to lift (each adapter
    words them: :class:`memdir.errors.Refused`)."""
    if refuse and entry is not None and entry.record.status == "superseded":
        found, scope = of_transaction(entry.record, tx), tx.layer.scope
        lift = (found.tombstone, scope) if found is not None and found.state == "deleted" and found.tombstone else None
        raise Refused(superseded_refusal(entry.record, found, doing, scope), reactivate=entry.record.name, lift=lift)


def explain_tombstone(exc: TombstoneRefused, entry, tx) -> TombstoneRefused:
    """``exc`` (a write to the memory of ``entry`` refused by a tombstone), told why when that memory is
    superseded by one that was deleted and left this very tombstone: the successor's forgotten value is
    this memory's too (a rename keeps the text), so it stays refused until a person lifts the tombstone,
    and then it comes back by reactivating it: said in no interface's words (the core names no adapter's
    command); ``reactivate`` names the memory, and each adapter adds how it reactivates one (the CLI's
    ``--reactivate``, the tools' ``reactivate``, the panel's note). Any other refusal is returned unchanged."""
    if entry is None or entry.record.status != "superseded":
        return exc
    found = of_transaction(entry.record, tx)
    if found is None or found.state != "deleted" or not any(
            stone.id == exc.tombstone_id and stone.name == found.name for stone in tx.layer.tombstones()):
        return exc
    name = entry.record.name
    via = f" (via {', '.join(repr(n) for n in found.via)})" if found.via else ""
    return TombstoneRefused(
        f"{exc}, then reactivate {name!r}: {name!r} was superseded by {found.name!r}{via}, "
        f"which was deleted and its value forgotten, and {name!r} holds that value too", exc.tombstone_id,
        stone=exc.stone, why=exc.why, reactivate=name)


__all__ = ["Successor", "explain_tombstone", "name_kept", "of_transaction", "refuse_superseded",
           "successor", "superseded_refusal"]
