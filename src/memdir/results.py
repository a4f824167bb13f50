"""Typed results of every operation (DESIGN §8).

Each operation of :mod:`memdir.operations.memories`, :mod:`memdir.operations.trust`
and :mod:`memdir.operations.maintenance` returns one of these frozen dataclasses.
``to_dict()`` is their JSON form (what ``--json`` prints): times as ISO-8601
UTC strings, tuples as lists. The text a person or a model reads is made from
them by one renderer per type (:mod:`memdir.render.memories`); adapters never
read a result by key.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field, fields, is_dataclass
from datetime import datetime
from pathlib import Path

from .files.memfile import MemoryRecord, format_time
from .files.scan import FileNote, Malformed
from .layer.history import HistoryEntry
from .layer.index import Facts, state_of
from .layer.succession import Successor


_SCALARS = frozenset({str, int, float, bool, type(None)})
_FIELDS: dict[type, tuple[str, ...]] = {}  # a dataclass → its field names, in order


def _plain(value):
    """``value`` JSON-ready: a dataclass as a dict of its fields (as :func:`dataclasses.asdict` gives,
    without its deep copies: a list of 10,000 memories is walked once), times ISO-8601 UTC, paths as
    text, tuples as lists."""
    kind = type(value)
    if kind in _SCALARS:
        return value
    names = _FIELDS.get(kind)
    if names is None and is_dataclass(value) and not isinstance(value, type):
        names = _FIELDS[kind] = tuple(f.name for f in fields(value))
    if names is not None:
        return {name: _plain(getattr(value, name)) for name in names}
    if isinstance(value, datetime):
        return format_time(value)
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


class Result:
    """Base of the typed results: :meth:`to_dict` gives the JSON form."""

    def to_dict(self) -> dict:
        """Every field by name, JSON-ready (times ISO-8601 UTC, paths as text)."""
        return _plain(self)


# ---------------------------------------------------------------- memories


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
class KeptEdit(Result):
    """A person's hand edit a write replaced, that no read of the memory had seen since it was made
    (:func:`memdir.layer.lasts.unseen_edit`): kept as ``version`` of the memory's history, journaled at
    ``made`` (ISO-8601 UTC)."""

    version: int
    made: str


@dataclass(frozen=True)
class ReplacedVersion(Result):
    """The version of a memory an update replaced: its file's ``digest``, when it was ``written``
    (ISO-8601 UTC, whole seconds, its ``updated``; None when the file has none) and ``by`` whom (its
    ``origin``; None when the file does not say)."""

    digest: str
    written: str | None
    by: str | None


@dataclass(frozen=True)
class WriteResult(Result):
    """What a write did: ``operation`` is created | updated | renamed | reactivated
    (a superseded memory made active again) | unchanged | dismissed (a proposal a person dismissed
    before, byte for byte: not proposed again, the warning says so); ``redactions``
    counts secrets replaced (``redaction_kinds`` by kind); ``warnings`` name every cut and normalization; ``status`` and ``pinned``
    are the memory's now; ``digest`` is its file's SHA-256; ``kept_edit``: the hand edit it replaced that
    no read had seen, kept in history (None: none, or not known); ``replaced``: the version an update
    replaced (None for any other operation)."""

    name: str
    scope: str
    operation: str
    redactions: int = 0
    redaction_kinds: dict = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    status: str = "active"
    pinned: bool = False
    digest: str | None = None
    kept_edit: KeptEdit | None = None
    replaced: ReplacedVersion | None = None


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


# ---------------------------------------------------------------- trust


@dataclass(frozen=True)
class TombstoneInfo(Result):
    """A tombstone in force: its ``id``, the ``scope`` it lives in, the
    memory ``name``, the forgotten ``description``, who forgot it, why, when
    (``actor``, ``ts`` empty when its file does not say: a team tombstone's),
    and ``forgotten``, who and why as a person reads it
    (:func:`memdir.tombstones.match.forgotten_by`); ``kept``: where it lives when that is not the layer of
    ``scope`` itself (a rejected team candidate's: ``your rejections, in your home``), else empty.
    ``vanished``: a team tombstone whose file left the repository with nobody lifting it here, still in force
    here (:attr:`memdir.tombstones.match.Tombstone.vanished`); ``settle`` then says so and how a person settles
    it (:func:`memdir.tombstones.stones.unlifted_note`), else empty."""

    id: str
    scope: str
    name: str
    description: str
    actor: str
    reason: str | None
    ts: str
    forgotten: str = ""
    kept: str = ""
    vanished: bool = False
    settle: str = ""


@dataclass(frozen=True)
class TombstoneList(Result):
    """The tombstones in force, per layer, oldest first; ``warnings`` name a
    layer whose tombstones could not be read and a team tombstone file that
    does not read, each left out of the list."""

    tombstones: tuple[TombstoneInfo, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LiftResult(Result):
    """A lifted tombstone: its value may be written again."""

    id: str
    scope: str
    name: str


@dataclass(frozen=True)
class Candidate(MemoryInfo):
    """A candidate as review shows it (:func:`memdir.operations.trust.review`): a :class:`MemoryInfo` plus
    what approving it does. ``change``: ``new`` (a memory is added: ``proposed`` is its whole text),
    ``change`` (memory ``target`` takes ``proposed``; ``live`` is its text now, ``diff`` the unified diff
    live → proposed) or ``replace`` (the new memory retires ``target``, whose text is ``live``). ``digest``
    names what was shown (SHA-256 hex): approve and dismiss carry it and are refused once it changed.
    ``drops``: the lines of ``target``'s body that approving a ``change`` removes from the live memory (its
    history keeps them), in body order; () when approving keeps every line of it."""

    change: str = "new"
    target: str | None = None
    proposed: str = ""
    live: str | None = None
    diff: str | None = None
    digest: str = ""
    drops: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReviewResult(Result):
    """Candidates waiting for a person (:class:`Candidate`), per scope, in index order."""

    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class Decision(Result):
    """A person's decision on the candidate ``candidate``: approved (``name``
    is the memory that now holds its content), rejected (its value is
    tombstoned; ``name`` is the candidate's) or, with ``dismissed``, dropped with no tombstone
    (``name``: the memory it was for; the same proposal is not proposed again)."""

    name: str
    scope: str
    candidate: str
    approved: bool
    warnings: tuple[str, ...] = ()  # e.g. a layer whose tombstones could not be checked (operations.lookup.guard)
    dismissed: bool = False


@dataclass(frozen=True)
class FlagResult(Result):
    """A pin or mute: ``flag`` (pinned | disabled) set to ``value``;
    ``changed`` False when it already was."""

    name: str
    scope: str
    flag: str
    value: bool
    changed: bool


# ---------------------------------------------------------------- journal and home


@dataclass(frozen=True)
class JournalEntry(Result):
    """One journal event of a layer: ``seq``, ``ts`` (ISO-8601 UTC), who
    (``actor``) did what (``action``) to which memory (``name``), why, in
    which agent ``session``; ``before``/``after`` digests of the file bytes;
    ``version``: the version of ``name`` it produced (see ``memdir history``),
    None when it is no content version (a read, a receipt, a lift)."""

    scope: str
    seq: int
    ts: str
    actor: str
    action: str
    name: str | None
    reason: str | None
    session: str | None
    before: str | None
    after: str | None
    version: int | None


@dataclass(frozen=True)
class JournalResult(Result):
    """Journal events, newest first; how many matched before the limit cut (``total``); how many
    bookkeeping events (consolidation receipts, :data:`memdir.layer.journal.BOOKKEEPING`) matched
    but were left out (``hidden``; 0 when every event was asked for)."""

    entries: tuple[JournalEntry, ...]
    total: int
    hidden: int = 0


@dataclass(frozen=True)
class ProjectInfo(Result):
    """A project layer of a home: its ``key`` (directory name), ``path``, the
    project ``root`` its description records (None: unknown) and whether
    that directory still ``exists``."""

    key: str
    path: str
    root: str | None
    exists: bool


@dataclass(frozen=True)
class ProjectList(Result):
    """Every project layer of a home, in key order."""

    projects: tuple[ProjectInfo, ...]


# ---------------------------------------------------------------- maintenance


@dataclass(frozen=True)
class LayerCheck(Result):
    """One layer's journal check: ``ok``, ``events`` checked, and the first
    bad event (``bad_seq``, ``bad_line``) and why (``error``); ``note``: what
    is so without being wrong (a home on a read-only file system: nothing
    can be journaled there)."""

    layer: str
    ok: bool
    events: int
    bad_seq: int | None = None
    bad_line: int | None = None
    error: str | None = None
    note: str | None = None


@dataclass(frozen=True)
class VerifyResult(Result):
    """Every layer of a home, checked (after a repair when ``repaired``)."""

    layers: tuple[LayerCheck, ...]
    repaired: bool = False

    @property
    def ok(self) -> bool:
        """True when every layer checked clean."""
        return all(check.ok for check in self.layers)

    def to_dict(self) -> dict:
        return {"ok": self.ok, "repaired": self.repaired, "layers": [c.to_dict() for c in self.layers]}


@dataclass(frozen=True)
class LayerStatus(Result):
    """One layer of the session: its path, counts (``in_context``: its index
    lines in the context block as rendered now), and the files that are not
    memories (``malformed``) or were read leniently (``fallback_parsed``:
    frontmatter that is not YAML; ``no_frontmatter``: plain Markdown;
    ``notes``: every leniency by file, those two included — a foreign type
    or status, a description taken from the title or body); ``pending``: the texts of the pending
    findings a session start of this project still shows the agent to save (its count: ``len``);
    ``answered``: the texts of the findings an edit outside memdir answered lately, no longer shown
    (:func:`memdir.prompt.pending.answered_lately`: what ``memdir review`` lists)."""

    scope: str
    path: str
    memories: int
    visible: int
    candidates: int
    tombstones: int
    malformed: tuple[Malformed, ...] = ()
    fallback_parsed: tuple[str, ...] = ()
    no_frontmatter: tuple[str, ...] = ()
    notes: tuple[FileNote, ...] = ()
    in_context: int = 0  # index lines of this layer the context block really holds (the fair budget may cut)
    superseded: int = 0  # counted in ``memories``, kept for history: out of the index and of a default list
    pending: tuple[str, ...] = ()  # the project layer's pending findings still to show (memdir.prompt.pending.waiting)
    answered: tuple[str, ...] = ()  # its findings an edit outside memdir answered (pending.answered_lately)
    edited_index: tuple[str, ...] = ()  # hand-edited MEMORY.md copies kept aside (memdir.files.layout.edited_copies)


@dataclass(frozen=True)
class InstalledClient(Result):
    """One coding agent memdir is installed into, in one scope, as its installer recorded it
    (:func:`memdir.operations.installed.installed`): ``client`` (``claude-code``, ``codex``, …),
    ``scope`` (``user`` or ``project``) and ``files``, the absolute paths of the settings files memdir wrote."""

    client: str
    scope: str
    files: tuple[str, ...]


@dataclass(frozen=True)
class StatusResult(Result):
    """Where memories live and how the session stands: home, project root (or
    why there is none), per-layer status, the injected context's size in
    UTF-8 bytes against its budget, the search mode, the consolidation
    extractor in effect with why (``extractor``), ``untrusted_team``: the line saying the
    repository's team layer is not trusted in this clone (:mod:`memdir.files.trust`), else empty, and
    ``duplicates``: the groups of live memories holding the same description and body
    (:func:`memdir.gateway.duplicates.duplicate_groups`), each member as ``scope:name``, and
    ``team_merge_driver``: the line saying this clone lacks the team layer's merge driver and how to register
    it (:func:`memdir.operations.team.merge_driver_missing`), else empty; ``sync``: the sync state in one
    line (remote, last sync, ahead, behind, conflicts), else empty; ``clients``: the coding agents memdir is
    installed into (:class:`InstalledClient`), as the installers' records say
    (:func:`memdir.operations.installed.installed`: the Python API, the CLI and the MCP tool alike);
    ``moved_away``: when the project layer holds no memory and layers of projects that no longer exist hold
    some, the line saying so and how to bring them here (:func:`memdir.operations.maintenance.moved_note`, the
    rule ``list`` warns with), else empty; ``installable``: the clients ``memdir install`` knows, the first the one
    a person is shown first (:data:`memdir.operations.installed.CLIENTS`), for the line saying memdir is in none."""

    home: str
    project_root: str | None
    project_error: str | None
    layers: tuple[LayerStatus, ...]
    context_bytes: int
    context_budget: int
    search: str
    extractor: str = ""
    untrusted_team: str = ""
    duplicates: tuple[tuple[str, ...], ...] = ()
    team_merge_driver: str = ""
    sync: str = ""  # the sync state in one line (memdir.operations.sync.summary); "" when sync is not set up
    clients: tuple[InstalledClient, ...] = ()
    moved_away: str = ""
    installable: tuple[str, ...] = ()


@dataclass(frozen=True)
class DoctorResult(Result):
    """A health check: the session's :class:`StatusResult`, every layer's
    journal check, and the ``problems`` found (unreadable files, broken
    journals); ``ok`` when there are none."""

    status: StatusResult
    journal: tuple[LayerCheck, ...]
    problems: tuple[Malformed, ...]
    notes: tuple[str, ...] = ()
    orphans: tuple = ()  # memdir.operations.relocate.OrphanLayer, one per layer of a vanished project

    @property
    def ok(self) -> bool:
        """True when no problem was found (leniently read files and notes are not problems)."""
        return not self.problems

    def to_dict(self) -> dict:
        return {**self.status.to_dict(), "journal": [c.to_dict() for c in self.journal],
                "problems": [asdict(p) for p in self.problems], "notes": list(self.notes),
                "orphans": [o.to_dict() for o in self.orphans], "ok": self.ok}
