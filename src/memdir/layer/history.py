"""History: the versions of a memory and what a layer held at a moment (DESIGN §4, §5).

Read from a layer's journal and version objects only, so a deleted memory
keeps its history and ``--as-of`` answers "what did memdir believe then".
Read counts (``read`` events), consolidation receipts and tombstone lifts
are not content versions and are left out (:func:`memdir.layer.journal.changes_content`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from datetime import datetime

from ..errors import InvalidInput, NotFound
from ..files.conflicts import CONFLICT, has_conflict
from ..files.memfile import MalformedMemory, MemoryRecord, parse, parse_time
from ..text.names import normalize_name
from ..vocabulary import (
    MOST_DIGITS,  # a version has at most this many digits, in any spelling (10**30 is refused)
)
from .chain import damaged
from .journal import Event, changes_content, records_bytes
from .lasts import changed_fields, overwrites
from .layer import Layer


@dataclass(frozen=True)
class HistoryEntry:
    """One content version of a memory: its 1-based ``version``, the journal
    ``seq`` and ``ts`` (ISO-8601 UTC), who (``actor``) did what (``action``),
    the ``digest`` of the bytes (None for a deletion), the ``description`` it
    had (:data:`memdir.files.conflicts.CONFLICT` for bytes kept with conflict markers) and the ``reason`` given."""

    version: int
    seq: int
    ts: str
    actor: str
    action: str
    digest: str | None
    description: str | None
    reason: str | None
    name: str | None = None  # the name the memory had then, for a version of an earlier name (earlier_versions)


_VERSION_TEXT = re.compile(r"[vV]?([0-9]+)|(-[0-9]+)")


def version_number(value: int | str) -> int:
    """A version number as a person or a model gives it: ``3``, ``"3"`` or ``"v3"`` (as `memdir history`
    prints it, or ``"V3"``) is 3: ASCII digits only, nothing around them, at most :data:`MOST_DIGITS` of them.
    The one rule for every command, tool and panel URL that takes a version. Whether the memory has that version
    (0 and ``"-1"`` are read, and none has them) is :func:`version_bytes`' check (:class:`NotFound`). Raises
    :class:`InvalidInput` for anything else (a bool, ``"v"``, ``"1.5"``, ``" 1"``, ``"+1"``, ``"٣"``, ``"v-1"``,
    ``10**30`` and ``"1" * 30`` alike: before, the int was looked up and the text refused, and an int past
    Python's 4,300 digits raised ValueError writing the message), its message quoting at most 40 characters."""
    if isinstance(value, int) and not isinstance(value, bool):
        if -10 ** MOST_DIGITS < value < 10 ** MOST_DIGITS:
            return value
        raise _not_a_version(f"a number of more than {MOST_DIGITS} digits")
    found = _VERSION_TEXT.fullmatch(value) if isinstance(value, str) else None
    if found is None:
        raise _not_a_version(_quoted(value))
    digits = found.group(1) or found.group(2)
    if len(digits.lstrip("-")) > MOST_DIGITS:
        raise _not_a_version(f"a number of more than {MOST_DIGITS} digits")
    return int(digits)


def _quoted(value) -> str:
    """``value`` as an error quotes it: its repr, a text's first 40 characters (then " …"), a value whose repr
    Python refuses (an int past 4,300 digits inside a list) by its type."""
    if isinstance(value, str):
        return repr(value[:40]) + (" …" if len(value) > 40 else "")
    try:
        shown = repr(value)
    except ValueError:
        return f"a {type(value).__name__}"
    return shown if len(shown) <= 60 else f"{shown[:60]} …"


def _not_a_version(shown: str) -> InvalidInput:
    return InvalidInput(f"a version is a number the memory's history lists, as 3 or v3 (got {shown})")


def numbered_events(layer: Layer) -> list[tuple[Event, int | None]]:
    """Every event of ``layer``'s journal, oldest first, with the version
    number of its memory it produced (1-based, as :func:`history` counts),
    or None when it is not a content version."""
    counts: dict[str, int] = {}
    out: list[tuple[Event, int | None]] = []
    for event in layer.journal.events():
        number = None
        if changes_content(event):
            number = counts[event.name] = counts.get(event.name, 0) + 1
        out.append((event, number))
    return out


def history(layer: Layer, name: str) -> list[HistoryEntry]:
    """Content versions of ``name`` in ``layer``, oldest first; ``[]`` when it
    never existed there. Raises :class:`InvalidName`."""
    return _versions(layer, normalize_name(name).name, layer.journal.events())


def earlier_versions(layer: Layer, name: str) -> list[HistoryEntry]:
    """The versions the memory ``name`` of ``layer`` had under the names it was renamed from, oldest first, each
    with its ``name`` then and its number under that name (so ``show``/``restore`` of that name and number read
    it): a gateway rename (``memdir write NEW --rename-from OLD``) journals the new name's first version as a
    ``rename`` whose data ``retires`` the old name (:func:`memdir.gateway.writing.write`), and the old name's
    versions up to it were this memory's. Followed back through each earlier rename (a name met twice ends it);
    ``[]`` for a memory never renamed. Raises :class:`InvalidName`."""
    events = layer.journal.events()
    out: list[HistoryEntry] = []
    key, seen = normalize_name(name).name, set()
    while key not in seen:
        seen.add(key)
        first = next((e for e in events if e.name == key and changes_content(e)), None)
        old = first.data.get("retires") if first is not None and first.action == "rename" and first.data else None
        if not isinstance(old, str) or old in seen:
            break
        before = [v for v in _versions(layer, old, events) if v.seq < first.seq]
        out[:0] = [replace(v, name=old) for v in before]
        key = old
    return out


def _versions(layer: Layer, key: str, events) -> list[HistoryEntry]:
    """:func:`history` of the normalized name ``key`` from ``events`` (the journal's, oldest first)."""
    versions: list[HistoryEntry] = []
    for event in events:
        if event.name != key or not changes_content(event):
            continue
        description = None
        if event.after:
            try:  # a file kept with conflict markers has no one description: it says so
                data = layer.journal.get_object(event.after)
                description = CONFLICT if has_conflict(data) else parse(data.decode("utf-8"), key).record.description
            except (NotFound, MalformedMemory, UnicodeDecodeError):
                description = None  # a lost or unreadable object: the version is listed without it
        versions.append(HistoryEntry(len(versions) + 1, event.seq, event.ts, event.actor,
                                     event.action, event.after, description, event.reason))
    return versions


def damage(layer: Layer, name: str) -> tuple[str, ...]:
    """Why :func:`history` of ``name`` in ``layer`` may be missing a version or show one wrong, one sentence
    each: a journal line that is no event or was changed since it was written
    (:func:`memdir.layer.chain.damaged`; one still naming another memory is left out), a journal
    shorter than its anchored head (:meth:`~memdir.layer.journal.Journal.check_anchor`). ``()`` for a
    sound journal. Reads the whole journal; never raises for bad data. Raises :class:`InvalidName`."""
    key = normalize_name(name).name
    out = [f"line {number} of the journal {why}: a version of {key} recorded there may be missing from this "
           "history or shown wrong (`memdir verify` checks the journal)"
           for number, named, why in damaged(layer.journal) if named in (None, key)]
    if (short := layer.journal.check_anchor()) is not None:
        out.append(f"{short}: a version of {key} recorded there may be missing from this history")
    return tuple(out)


def version_bytes(layer: Layer, name: str, version: int) -> bytes:
    """The stored bytes of version ``version`` (1-based) of ``name``.
    Raises :class:`NotFound` for an unknown version or a deletion."""
    versions = history(layer, name)
    if isinstance(version, bool) or not isinstance(version, int) or not 1 <= version <= len(versions):
        raise NotFound(f"memory {name!r} has no version {version} (it has {len(versions)})")
    entry = versions[version - 1]
    if entry.digest is None:
        raise NotFound(f"version {version} of {name!r} is a deletion; pick another version")
    return layer.journal.get_object(entry.digest)


def edit_kept_whole(layer: Layer, name: str, version: int) -> bool:
    """Whether the last version of ``name`` in ``layer`` keeps every field the hand edit ``version`` (1-based,
    :func:`memdir.layer.lasts.unseen_edit`'s) changed as the edit left it (:func:`memdir.layer.lasts.overwrites`
    is False): a write over that edit then replaced none of its text. False when a version's bytes are lost or
    unreadable, ``version`` is not an earlier version, or the edit changed no field as read (an invalid value,
    a comment: the written file holds none of it) — the sentence is said, as before. Reads the journal's
    events: asked only once a write replaced an unread hand edit (rare). Raises :class:`InvalidName`."""
    key = normalize_name(name).name
    versions = _versions(layer, key, layer.journal.events())
    if not 1 <= version < len(versions) or versions[version - 1].digest is None or versions[-1].digest is None:
        return False
    try:
        records = [None if v is None or v.digest is None
                   else parse(layer.journal.get_object(v.digest).decode("utf-8"), key).record
                   for v in (versions[version - 2] if version >= 2 else None, versions[version - 1], versions[-1])]
    except (NotFound, MalformedMemory, UnicodeDecodeError):
        return False
    before, edit, written = records
    if before is not None and not changed_fields(before, edit):
        # the edit changed only text no field reads (an unknown status, a comment, spacing): the write's file is
        # made from the fields, so that text is gone; say so, as for any replaced edit (break45)
        return False
    return not overwrites(before, edit, written)


def last_written_body(layer: Layer, name: str, description: str) -> str | None:
    """The body of the newest version of ``name`` that a memdir writer stored with ``description``
    (not a person's edit taken up from the file, ``external-edit``): what the gateway wrote, to tell
    the text it carried into a body from text a person changed since. None when there is none or its
    bytes are lost. Reads the journal's events (only on a description change that may replace carried
    text: rare)."""
    key = normalize_name(name).name
    for event in reversed(layer.journal.events()):
        if event.name != key or not changes_content(event) or event.action == "external-edit" or not event.after:
            continue
        try:
            record = parse(layer.journal.get_object(event.after).decode("utf-8"), key).record
        except (NotFound, MalformedMemory, UnicodeDecodeError):
            return None
        if record.description == description:
            return record.body
    return None


def records_as_of(layer: Layer, moment: datetime) -> list[MemoryRecord]:
    """What ``layer`` held at ``moment``, rebuilt from the journal, by name: each memory's last version journaled
    at or before it. An event dated after ``moment`` is passed over, not the end of the read: the events after
    one a clock set far ahead dated are dated by the clock set right (:data:`memdir.layer.journal.AHEAD_BOUND`)."""
    heads: dict[str, str | None] = {}
    for event in layer.journal.events():
        when = parse_time(event.ts)
        if when is None or when > moment:
            continue
        if records_bytes(event):
            heads[event.name] = event.after
    out = []
    for name, key in sorted(heads.items()):
        if key is None:
            continue
        try:
            out.append(parse(layer.journal.get_object(key).decode("utf-8"), name).record)
        except (NotFound, MalformedMemory, UnicodeDecodeError):
            continue
    return out


__all__ = [
    "MOST_DIGITS", "HistoryEntry", "damage", "earlier_versions", "history", "last_written_body", "numbered_events", "records_as_of", "version_bytes",
    "version_number"]
