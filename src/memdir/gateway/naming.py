"""Which memory a written name means: the one rule for reads (:func:`memdir.operations.lookup.find`)
and writes (:func:`memdir.gateway.changes.write`).

A name as written normalizes to a file name (:func:`memdir.text.names.normalize_name`). A memory is
found under that file name; else under the hash an older memdir gave the name
(:func:`memdir.text.names.legacy_name`: ``ｿｰｽ`` hashed before NFKC); else as the one memory whose
title the name is spelled like and normalizes to the same file name (:func:`by_title`) — a memory an
older memdir stored under the hash of a compatibility form (``ｿｰｽ``), asked for by its usual form
(``ソース``), or a hand-written file whose ``name:`` is not its stem. Two names that normalize alike
but are spelled otherwise (``C# tips``, ``C++ tips``) are two memories: a write of the second is
refused (:func:`check_same_name`, :func:`name_taken`), and one spelled alike but not as the memory is
written updates it, saying which memory it updated.
"""

from __future__ import annotations

from collections.abc import Callable, Container, Iterable

from ..errors import Conflict, InvalidInput
from ..text.names import legacy_name, normalize_name, raw_name, same_name, spelled_name
from .fields import distinct_name, name_note


def by_title(raw: str, key: str, records: Iterable) -> str | None:
    """The name of the one record of ``records`` (objects with ``name`` and ``title``) other than
    ``key`` whose title normalizes to ``key`` (``raw``'s normalized name) and is spelled like ``raw``
    (:func:`memdir.text.names.same_name`); None when none or more than one is."""
    found = []
    for record in records:
        if not record.title or record.name == key or not same_name(raw, record.name, record.title):
            continue
        try:
            if normalize_name(record.title).name == key:
                found.append(record.name)
        except InvalidInput:
            continue
    return found[0] if len(found) == 1 else None


def stored_name(raw: str, key: str, held: Callable[[str], object | None],
                records: Callable[[], Iterable] | None = None) -> str | None:
    """The file name (a normalized name) the memory ``raw`` names is stored under in one layer:
    ``key`` (``raw``'s normalized name) when ``held(key)`` — the record under a file name, or None —
    is a memory ``raw`` names; else ``raw``'s :func:`~memdir.text.names.legacy_name` when the
    memory there is spelled alike; else, with ``records`` (called only then: a walk of the layer's
    records), :func:`by_title`'s. None when no memory of the layer is ``raw``'s. Raises
    :class:`InvalidName` as :func:`memdir.text.names.normalize_name` does."""
    for name in (key, legacy_name(raw)):
        record = held(name) if name else None
        if record is not None and same_name(raw, record.name, record.title):
            return name
    return by_title(raw, key, records()) if records is not None else None


def written_to(fresh, scan_names: Iterable[str], raw: str, key: str) -> str:
    """The file name a write of ``raw`` (normalizing to ``key``) goes to in a transaction
    (``fresh``: file name → its entry or None; ``scan_names``: the layer's names): ``key`` when a
    memory is stored there (:func:`check_same_name` then decides whether ``raw`` names it), else
    :func:`stored_name`'s — the reads' rule, so a write updates the memory a read of ``raw`` finds.
    The walk by title looks at hash-named memories only, and only for a name that has no letters
    a-z (``ソース``), the only ones an older memdir named otherwise: a new memory named in letters
    a-z reads no other file (issue 28 §7); a new one named otherwise reads the layer's hash-named
    memories (``m-…``: each file parsed once per process)."""
    if fresh(key) is not None:
        return key

    def held(name: str):
        entry = fresh(name)
        return entry.record if entry is not None else None

    def hashed():
        for name in scan_names:
            if name.startswith("m-") and name != key and (entry := fresh(name)) is not None:
                yield entry.record

    titled = normalize_name(raw).title is not None
    return stored_name(raw, key, held, hashed if titled else None) or key


def name_taken(raw: str, name: str, title: str | None, taken: Container[str]) -> str:
    """The refusal for ``raw`` normalizing to the file of another memory
    (``name``, ``title``), with a distinct name not in ``taken`` (:func:`distinct_name`)."""
    written = raw_name(raw)
    shown = f"{title!r} ({name})" if title else repr(name)
    return (f"{written!r} normalizes to {name!r}, the file of the existing memory {shown}, which is another "
            f"name: choose a distinct name such as {distinct_name(written, taken)!r} (or write {name!r} to "
            "update the existing memory)")


def check_same_name(asked: str, old, taken: Container[str], warnings: list[str], title: str | None = None) -> None:
    """The one rule of a write whose name normalizes to an existing memory ``old`` (its record):
    a name spelled otherwise (``C# tips`` over ``C++ tips``, :func:`memdir.text.names.same_name`)
    is refused (:class:`Conflict`, :func:`name_taken`); one spelled alike but not as the memory is
    written (``Café Notes``, ``ｃａｆｅ-ｎｏｔｅｓ`` for ``café-notes``; ``ソース`` for ``ｿｰｽ``) updates
    it, and ``warnings`` gets one line naming the memory updated, why, and its title after the
    write (``title``: the updated record's). The line replaces what the write said of the name as
    for a new memory (:func:`memdir.gateway.fields.name_note`, removed here): the memory keeps its
    name, and its title unless it had none."""
    if not same_name(asked, old.name, old.title):
        raise Conflict(name_taken(asked, old.name, old.title, taken))
    written = raw_name(asked)
    if written in (old.name, spelled_name(old.name, old.title)):
        return
    note = name_note(asked)
    if note in warnings:
        warnings.remove(note)
    shown = f"{old.title!r} ({old.name})" if old.title else repr(old.name)
    kept = (f"its title is now {title!r}" if title and title != old.title
            else f"its title stays {old.title!r}" if old.title else "it has no title")
    warnings.append(f"{written!r} is the name of the existing memory {shown} written otherwise (in case, accents, "
                    f"width or spacing): that memory was updated; {kept}")


__all__ = ["by_title", "check_same_name", "name_taken", "stored_name", "written_to"]
