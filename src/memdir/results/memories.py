"""The results of the memory operations (:mod:`memdir.operations.memories`, :mod:`memdir.operations.versions`):
a memory as listed (:class:`MemoryInfo`, :func:`info_of`), read, written (:mod:`memdir.results.writes`, named here
too), deleted, pruned and cleared; its history, one version, a restore."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from ..files.memfile import MemoryRecord, format_time
from ..files.scan import Malformed
from ..layer.history import HistoryEntry
from ..layer.index import Facts, state_of
from ..layer.succession import Successor
from . import Result
from .writes import KeptEdit, ReplacedVersion, WriteResult  # noqa: F401 (named here too: hot46 moved them)


@dataclass(frozen=True)
class MemoryInfo(Result):
    """A memory as list, review and search show it. ``importance`` is the
    effective one (type default when unset); ``state`` is :func:`memdir.layer.index.state_of`;
    times are ISO-8601 UTC strings; ``candidate_for``: the memory a candidate
    would change when approved (None: a new memory); ``file_digest``: SHA-256 of its file as listed, the
    ``expect_digest`` of a change asked on this listing (a delete, pin or mute from the panel's layer page:
    refused once the memory changed since); a team candidate waiting in the home: its own file's (never
    the team memory's of its name); None for a version of the past (``as_of``)."""

    name: str
    scope: str
    type: str
    description: str
    title: str | None
    pinned: bool
    disabled: bool
    importance: int
    status: str
    state: str
    origin: str | None
    created: str | None
    updated: str | None
    valid_from: str | None = None
    valid_until: str | None = None
    supersedes: str | None = None
    superseded_by: str | None = None
    reads: int = 0
    last_read: str | None = None
    candidate_for: str | None = None
    sync_conflict: bool = False  # a sync conflict holds it back (memdir sync resolve NAME)
    file_digest: str | None = None  # SHA-256 of the file as listed: a change's expect_digest (None: not known)


def info_of(record: MemoryRecord | Facts, scope: str, now: datetime, stale_after_days: int = 0,
            file_digest: str | None = None) -> MemoryInfo:
    """The :class:`MemoryInfo` of a record found in ``scope`` at ``now``, or of the
    :class:`memdir.layer.index.Facts` a layer keeps of it (the same info: what ``list`` shows without
    reading the file); ``file_digest``: its file's, as listed (what a change asked on this listing expects)."""
    fmt = lambda t: format_time(t) if t else None  # noqa: E731
    candidate_for = record.candidate_for if isinstance(record, Facts) else dict(record.extra).get("candidate_for")
    return MemoryInfo(
        name=record.name, scope=scope, type=record.type, description=record.description,
        title=record.title, pinned=record.pinned, disabled=record.disabled,
        importance=record.effective_importance, status=record.status,
        state=state_of(record, now, stale_after_days), origin=record.origin,
        created=fmt(record.created), updated=fmt(record.updated), valid_from=fmt(record.valid_from),
        valid_until=fmt(record.valid_until), supersedes=record.supersedes, superseded_by=record.superseded_by,
        reads=record.reads, last_read=fmt(record.last_read),
        candidate_for=_text_or_none(candidate_for) if record.status == "candidate" else None,
        file_digest=file_digest,
    )


def _text_or_none(value) -> str | None:
    return value if isinstance(value, str) and value else None


@dataclass(frozen=True)
class ListResult(Result):
    """``memories`` in index order, user layer first; ``malformed`` files that
    are not memories; ``unavailable``: why the project layer is not listed
    (no project root), when a listing of every scope left it out."""

    memories: tuple[MemoryInfo, ...]
    malformed: tuple[Malformed, ...] = ()
    unavailable: str | None = None


@dataclass(frozen=True)
class Link(Result):
    """A memory linked from a body with ``[[name]]``."""

    name: str
    description: str


@dataclass(frozen=True)
class ReadResult(Result):
    """A memory's full text (``record``), the ``scope`` it was found in, up to 3 memories it links to
    (``truncated``: more than those), the SHA-256 ``digest`` of its file as read (what a compare-and-set expects),
    for a superseded memory where its chain of successors ends (:func:`memdir.layer.succession.successor`), and
    ``also_in``: the session's other scopes holding a memory of the same name
    (:func:`memdir.operations.lookup.same_name_elsewhere`)."""

    record: MemoryRecord
    scope: str
    linked: tuple[Link, ...] = ()
    digest: str | None = None
    truncated: bool = False
    successor: Successor | None = None
    also_in: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        r = self.record
        return {"name": r.name, "scope": self.scope, "type": r.type, "title": r.title,
                "description": r.description, "body": r.body, "pinned": r.pinned,
                "disabled": r.disabled, "status": r.status, "origin": r.origin,
                "created": format_time(r.created) if r.created else None,
                "updated": format_time(r.updated) if r.updated else None, "reads": r.reads,
                "linked": [link.to_dict() for link in self.linked], "truncated": self.truncated, "digest": self.digest,
                "successor": self.successor.to_dict() if self.successor else None, "also_in": list(self.also_in)}


@dataclass(frozen=True)
class DeleteResult(Result):
    """A deleted memory; ``tombstone`` is the id of the tombstone its value
    left; ``action`` is delete or forget; ``kept_by``: the live memory (``scope:name``) that holds the
    same value, for which none was left (deleting a duplicate never freezes the survivor)."""

    name: str
    scope: str
    tombstone: str | None
    action: str = "delete"
    kept_by: str | None = None


@dataclass(frozen=True)
class PruneCandidate(Result):
    """A memory prune would delete: not pinned, not updated for ``days_since_update`` days."""

    name: str
    description: str
    scope: str
    days_since_update: int


@dataclass(frozen=True)
class PruneResult(Result):
    """A prune: the ``candidates`` older than ``older_than_days``; with
    ``dry_run`` False, how many were ``deleted`` (no tombstones)."""

    dry_run: bool
    older_than_days: int
    candidates: tuple[PruneCandidate, ...]
    deleted: int = 0


@dataclass(frozen=True)
class LayerCount(Result):
    """How many memories one layer lost."""

    scope: str
    deleted: int


@dataclass(frozen=True)
class ClearResult(Result):
    """A clear: per layer, how many memories were deleted (tombstones stay)."""

    layers: tuple[LayerCount, ...]


@dataclass(frozen=True)
class HistoryResult(Result):
    """Every content version of ``name`` in ``scope``, oldest first; ``commits``: a team memory's, from git;
    ``damaged``: why the journal these were read from may miss one or show one wrong
    (:func:`memdir.layer.history.damage`: a line cut, garbled or changed), one sentence each; ``earlier``: the
    versions it had under the names it was renamed from, oldest first, each with that ``name`` and its number
    there (:func:`memdir.layer.history.earlier_versions`: ``show``/``restore`` that name and number); ``also_in``:
    the session's other scopes holding a memory of the same name (:func:`memdir.operations.lookup.same_name_elsewhere`)."""

    name: str
    scope: str
    versions: tuple[HistoryEntry, ...]
    commits: tuple = ()
    damaged: tuple[str, ...] = ()
    earlier: tuple[HistoryEntry, ...] = ()
    also_in: tuple[str, ...] = ()


@dataclass(frozen=True)
class VersionResult(Result):
    """The stored text of one version of a memory."""

    name: str
    scope: str
    version: int
    text: str


@dataclass(frozen=True)
class RestoreResult(Result):
    """A restore: version ``version`` of ``name`` written back; ``operation``
    is created (it had been deleted) | updated | unchanged."""

    name: str
    scope: str
    version: int
    operation: str
    digest: str | None = None
    commit: str | None = None  # a team memory restored from this git commit (``version`` is then 0)
    warnings: tuple[str, ...] = ()  # e.g. a layer whose tombstones could not be checked (operations.lookup.guard)
