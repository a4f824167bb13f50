"""What a "not found" for a memory says beyond "not found" (one place for the CLI, the API and the tools).

A memory the journal saw deleted is told as deleted, with the tombstone its deletion left (when that is
still in force) and where its versions are; a rename from a memory that is in another layer than the one
asked names that layer; a name that normalizes to another memory's file says so. A name no layer ever held keeps the plain "memory not found".
"""

from __future__ import annotations

from collections.abc import Iterable

from .errors import NotFound, StoreError
from .history import is_version
from .layer import Layer
from .names import normalize_name
from .scan import Entry


def deleted(layers: Iterable[Layer], key: str) -> str | None:
    """The message for ``key`` (a normalized name) when the last content version the journal of one of
    ``layers`` (first that has it) holds of it is a deletion: ``memory "beta" was deleted from the project
    layer (tombstone t-…); `memdir history beta` shows its versions`` (the tombstone only while it is in
    force). None when no layer's journal shows ``key`` deleted (never there, or living). A layer whose
    journal or tombstones cannot be read is passed over."""
    for layer in layers:
        try:
            last = next((e for e in reversed(layer.journal.events()) if e.name == key and is_version(e)), None)
            if last is None or last.after is not None:
                continue
            stone = last.data.get("tombstone")
            if stone and not any(s.id == stone for s in layer.tombstones()):
                stone = None  # lifted since: the value may come back, no id to tell
        except (StoreError, OSError):
            continue
        how = "" if last.action == "delete" else f" (by {last.action})"
        return (f'memory "{key}" was deleted{how} from the {layer.scope} layer'
                + (f" (tombstone {stone})" if stone else "") + f"; `memdir history {key}` shows its versions")
    return None


def other_name(name: str, entry: Entry) -> str:
    """The refusal when ``name`` normalizes to the file of a memory (``entry``) it does not name
    (:func:`memdir.store.names.same_name`: ``C# tips`` is not ``C++ tips``)."""
    record = entry.record
    shown = f"{record.title!r} ({record.name})" if record.title else repr(record.name)
    return (f"memory not found: {name.strip()!r}; its file name {record.name!r} belongs to the memory {shown}, "
            f"which is another name (use {record.name!r} to mean that one)")


def rename_missing(rename_from: str, looked: tuple[str, ...]) -> NotFound:
    """The refusal of a rename from ``rename_from``, which none of the ``looked`` scopes holds (each
    named: ``user or project``, ``user, team or project``)."""
    where = " or ".join(filter(None, (", ".join(looked[:-1]), looked[-1])))
    return NotFound(f"cannot rename {rename_from!r}: no such memory in the {where} layer")


def renamed_elsewhere(exc: NotFound, session, rename_from: str, scope: str) -> NotFound:
    """``exc`` (a rename from ``rename_from`` refused as missing in ``scope``), told which other layer of
    ``session`` holds it: ``('nb' is in the project layer: drop --scope or say --scope project)``;
    ``exc`` itself when no other layer does."""
    key = normalize_name(rename_from).name
    for other in session.scopes():
        try:
            found = other != scope and session.layer(other).lookup(key) is not None
        except (StoreError, OSError):
            continue
        if found:
            return NotFound(f"{exc} ({key!r} is in the {other} layer: drop --scope or say --scope {other})")
    return exc


__all__ = ["deleted", "other_name", "rename_missing", "renamed_elsewhere"]
