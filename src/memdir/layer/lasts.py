"""Whether a write replaces a person's hand edit nobody read since it was made (DESIGN §5).

A write over a memory whose current version is an ``external-edit`` (a person's editor, another tool,
journaled by :func:`memdir.layer.commit.preserve`, :func:`~memdir.layer.commit.late_edit` or a sweep)
keeps that version in history; the writer is told so, naming the version, when no read of the memory
was counted since the edit (:func:`unseen_edit`). Deciding it must not read the journal (10,000 events
on every agent update): beside each head the manifest keeps the memory's :class:`Last` — how many
content versions it has (history's numbering, :func:`memdir.layer.history.history`), the digest of the
last and, when the last is a hand edit, that edit's journal time — one row per name, kept in step by
the one write gateway's transactions (:meth:`memdir.layer.handover.HandsOver._save_manifest`: the
events of each transaction folded over the rows with :func:`step`; a whole save counts them from the
journal, :func:`from_events`). The question is asked where the rows are written, in the
save that ends the write's transaction (:func:`memdir.layer.manifest._save_lasts`, the connection it
opens anyway: no other read), of the write's own journal line: the memory's row before it names a hand
edit whose digest is the line's ``before``. Rows are trusted only while the manifest's are of the journal
the transaction began with; otherwise — another process's events never saved there — they are counted
anew from the journal, as for an older manifest without them (once), and that count answers too.

**Read** (the simplest honest rule): the memory's last counted read (``last_read`` of the usage file,
:mod:`memdir.layer.usage`: an agent's ``memory_read`` or memory-tool ``view``, a person's ``memdir read``,
recall's givings counted at a session's end), in whole seconds as it is recorded, is not before the
second the hand edit was journaled. A read takes a hand edit of its memory up (journals it) before its
count is recorded (:meth:`memdir.layer.reading.ReadsOne.read_now` under the lock of
:func:`memdir.gateway.changes.touch`), so a read that showed the edit always counts as after it. The
usage file keeps one time per memory, not per session or reader: a read by another session or a person
silences the sentence too — it can leave a true sentence unsaid, never say a false one.

**Replaced** (:func:`overwrites`): a write that leaves every field the hand edit changed as the edit made it
(an agent's update of the description over a person's edit of the body) replaced no text of the edit, and
says nothing (newuser44: it said "This replaced an edit …", inviting a restore that undid the write). Asked
only once a replaced edit was found (rare), from the three versions' bytes
(:func:`memdir.layer.history.edit_kept_whole`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from datetime import datetime
from typing import NamedTuple

from ..files.memfile import MemoryRecord, format_time, parse_time
from .events import Event, changes_content

HAND_EDIT = "external-edit"


class Last(NamedTuple):
    """A memory's content versions as history numbers them: ``versions`` (how many), ``digest`` (the
    last one's bytes, None for a deletion) and ``hand`` (that version's journal time, ISO-8601, when it
    is a person's hand edit; else None)."""

    versions: int
    digest: str | None
    hand: str | None


NONE = Last(0, None, None)  # a memory with no version (in a manifest whose rows are whole)


def step(last: Last | None, event: Event) -> Last | None:
    """``last`` after ``event`` of its memory: one more version when the event is a content version
    (:func:`memdir.layer.journal.changes_content`), its digest, and its time when it is a hand edit.
    None (unknown) stays None."""
    if last is None or not changes_content(event):
        return last
    hand = event.ts if event.action == HAND_EDIT and event.after is not None else None
    return Last(last.versions + 1, event.after, hand)


def from_events(events: Iterable[Event]) -> dict[str, Last]:
    """Every memory's :class:`Last` from a whole journal's events, oldest first."""
    return fold({}, events)[0]


def fold(base: Mapping[str, Last | None], events: Iterable[Event], default: Last | None = NONE,
         since_seq: int = 0) -> tuple[dict[str, Last | None], dict[str, Last]]:
    """``base`` (name → its :class:`Last` before ``events``; None: unknown; a name missing: ``default``) with
    ``events`` folded in, for the names they change; and, for each name a write among the events from seq
    ``since_seq`` on (a version of its text, not a hand edit nor a deletion) replaced a hand edit with (its
    ``before`` the hand edit's digest), that hand edit's :class:`Last` (the latest, when several were)."""
    out: dict[str, Last | None] = {}
    replaced: dict[str, Last] = {}
    for event in events:
        name = event.name
        if name is None or not changes_content(event):
            continue
        last = out[name] if name in out else base.get(name, default)
        # a later write of the name (a batch writing it twice) keeps what an earlier one replaced: the edit is
        # replaced all the same, and the last write says so (break38: a batch said nothing)
        if event.seq >= since_seq and event.action != HAND_EDIT and event.after is not None \
                and last is not None and last.hand is not None and last.digest == event.before:
            replaced[name] = last
        out[name] = step(last, event)
    return out, replaced


def unseen_edit(last: Last, last_read: datetime | None) -> tuple[int, str] | None:
    """``(version, journal time)`` of the hand edit ``last`` a write replaced (:func:`fold`) when no read
    of the memory was counted since (``last_read``: the memory's, in whole seconds; see the module
    docstring); else None. The time is ISO-8601 UTC in whole seconds (``2026-12-06T21:40:03Z``)."""
    if last.hand is None:
        return None
    edited = parse_time(last.hand)
    if edited is None:
        return None
    if last_read is not None and last_read >= edited.replace(microsecond=0):
        return None
    return last.versions, format_time(edited.replace(microsecond=0))


# What a person's edit can change that a write may replace: every field of a memory file but its times and origin,
# which every writer sets (a hand save that drops them changes no text).
EDITABLE = ("title", "description", "type", "body", "pinned", "disabled", "importance", "status", "valid_from",
            "valid_until", "supersedes", "superseded_by", "extra")


def changed_fields(before: MemoryRecord, after: MemoryRecord) -> frozenset[str]:
    """The fields of :data:`EDITABLE` whose values differ between ``before`` and ``after`` (the body compared
    without its trailing whitespace, which a file's save may add or drop)."""
    def value(record: MemoryRecord, field: str):
        got = getattr(record, field)
        return got.rstrip() if field == "body" else got
    return frozenset(f for f in EDITABLE if value(before, f) != value(after, f))


def overwrites(before_edit: MemoryRecord | None, edit: MemoryRecord, written: MemoryRecord) -> bool:
    """Whether ``written`` (the version a write left) replaced text of the hand edit ``edit``: some field the
    edit changed from ``before_edit`` (the version it was made over; None when the edit made the memory, or
    that version is a deletion: every field is the edit's) differs in ``written``."""
    edited = frozenset(EDITABLE) if before_edit is None else changed_fields(before_edit, edit)
    return bool(edited & changed_fields(edit, written))


__all__ = ["EDITABLE", "HAND_EDIT", "NONE", "Last", "changed_fields", "fold", "from_events", "overwrites", "step",
           "unseen_edit"]
