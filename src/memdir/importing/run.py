"""Importing memories from other systems (DESIGN §7, the importer).

:func:`run` writes what a reader of :mod:`memdir.importing.sources` found,
through the gateway, as actor ``import`` (the memories' origin), one memory
at a time, and reports each outcome:

* **imported**: new here;
* **updated**: it was imported before, nobody changed it since (the last
  event of its name in the journal is an ``import`` write of the bytes on
  disk), and the source changed;
* **candidate**: a person (or the agent) changed it since, or wrote it: the
  imported text waits for review as ``<name>-import`` (the first free
  ``<name>-import-N`` when another memory has that name), recording
  ``candidate_for: <name>``; approving it changes ``<name>``, nothing is overwritten;
* **unchanged**: the same text is already there, or the source is as it was when
  last imported (its digest is kept in the memory's ``import_digest``): a second
  run changes nothing, whatever a person did to the memory since (issue 24 §3);
* **skipped**: unreadable, or a forgotten value (a tombstone of any layer of
  the session refuses it: the fact does not come back; a layer whose
  tombstones cannot be read is passed over, said in the report's warnings,
  as for any write: :func:`memdir.operations.lookup.guard`).

An item spelled unlike the memory whose file name it normalizes to
(``C# tips.md`` where the person's ``C++ tips`` is: :func:`memdir.text.names.same_name`,
the gateway's rule) is another memory: it goes under the distinct name the
rule gives (``c-sharp-tips``, :func:`memdir.gateway.fields.distinct_name`),
its spelling kept as its title, and the report says so.

Nothing is cut silently (issue 25): an item's whole text is kept — the body
limit is for what a model writes — unless its file would be over the
``max_file_bytes`` ceiling; then its body is cut to fit, said in the outcome's
``cut`` and detail. Every change a write made to the text (a secret redacted, a
fence tag escaped) is in the detail too.

An item whose source says no type memdir reads gets its layer's, as every write does
(:func:`memdir.vocabulary.default_type`: ``user`` in the user layer, else ``project``); one whose type
is none of memdir's keeps it as ``original_type``, and its outcome says so (``original_type``, ``type``
and the detail).

A team-scope import is made of candidates in the person's home (the team
layer is written by a person only). ``dry_run`` decides the same outcomes
and writes nothing. ``progress(done, total)`` (the progress protocol of
:mod:`memdir.render.progress`) is told of each item handled.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Container
from dataclasses import dataclass, replace
from datetime import datetime, timezone

from ..errors import InvalidInput, MemdirError, ScopeError, TombstoneRefused
from ..files.memfile import MemoryRecord, serialize
from ..gateway.fields import (
    MemoryChange,
    distinct_name,
    free_name,
    kept_spelling,
    prepare,
)
from ..gateway.writing import ITEM_ERRORS, BatchWrite
from ..layer.journal import changes_content, records_bytes
from ..operations.lookup import guard
from ..operations.memories import write, write_batch
from ..operations.team import pending
from ..results.memories import WriteResult
from ..session import Session
from ..text.names import normalize_name, same_name
from ..text.printable import line_of, utf8_prefix
from ..tombstones.match import Tombstone, match
from ..tombstones.refusals import outcome
from ..vocabulary import TYPES, default_type
from .items import RENAMED_FROM, distinct_names, resolve_links
from .outcomes import ImportOutcome, ImportReport, would
from .sources import Item, Skip, drawn_description

_CANDIDATE_SUFFIX = "import"
_DIGEST = "import_digest"  # extra: the digest of the source's item as last imported (issue 24 §3)
_SLACK = 512  # bytes kept free for the frontmatter keys the gateway adds (times, origin, status)


def source_digest(item: Item) -> str:
    """The digest of what ``item`` says (its text, type, title, mute flag and further keys, before
    any link of it is resolved): equal for the same source item on every run, whatever happened to
    the memory since. 16 hex digits of SHA-256."""
    extra = {key: value for key, value in item.extra.items() if key not in (_DIGEST, RENAMED_FROM, "original_origin")}
    payload = json.dumps([item.description, item.type, item.body, item.title, item.disabled, item.candidate, extra],
                         sort_keys=True, default=str, ensure_ascii=False)
    return hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()[:16]


def _fit(max_bytes: int, change: MemoryChange) -> tuple[MemoryChange, str]:
    """``change`` with its body cut (at a character boundary) so that its file fits ``max_bytes``,
    and what was cut ("" when it fits whole): the lengths, and how many lines are left out from which
    text on (its start, one printable line of at most 80 bytes)."""
    now = datetime.now(timezone.utc).replace(microsecond=0)
    bare = MemoryRecord(name=change.name, description=change.description or "", type=change.type or "project",
                        title=change.title, created=now, updated=now, origin="import", status="candidate",
                        extra=tuple({**dict(change.extra), "candidate_for": change.name}.items()))
    room = max_bytes - len(serialize(bare).encode("utf-8")) - _SLACK
    data = (change.body or "").encode("utf-8")
    if len(data) <= room:
        return change, ""
    body = utf8_prefix(change.body or "", room, data).rstrip()
    lost = change.body[len(body):].strip()  # what is left out, named by its start: a reader knows what to look for
    return replace(change, body=body), (f"body cut from {len(change.body)} to {len(body)} characters to fit the "
                                        f"{max_bytes}-byte ceiling of a memory file (max_file_bytes); left out: "
                                        f"{len(lost.splitlines())} line(s) from {line_of(lost, 80)!r}")


def _imported_unchanged(layer, name: str, digest: str) -> bool:
    """True when the last content version of ``name`` (as history counts
    them: a counted read is none) is an import's, and the journal's last
    bytes of it are those on disk (no hand edit since)."""
    last, head = None, None
    for event in layer.journal.events():
        if event.name == name and records_bytes(event):
            head = event.after
            if changes_content(event):
                last = event
    return last is not None and last.actor == "import" and head == digest


def _own_candidate(record, target: str) -> bool:
    """True when ``record`` is an import's pending candidate for memory ``target`` (the one a
    re-import changes, never a second beside it)."""
    return (record.status == "candidate" and record.origin == "import"
            and dict(record.extra).get("candidate_for") == target)


def _candidate(session: Session, layer, scope: str, target: str) -> tuple[str, str | None | bool]:
    """The name of the import's candidate for ``target`` and the digest its write expects (None: it
    must be new; False: no check). The name is the first free ``<target>-import[-N]``
    (:func:`memdir.gateway.fields.free_name`): a name is taken by any memory of the layer — for the
    team, also by a proposal waiting in the home — unless it is this import's own pending candidate
    for ``target``. Compare-and-set makes a memory that comes meanwhile a conflict, never a write
    over it (the gateway would file the candidate as a proposal for that memory instead)."""
    waiting = {record.name: record for record in pending(session)} if scope == "team" else {}

    def taken(name: str) -> bool:
        entry = layer.lookup(name)
        if entry is not None:  # in the team layer, any memory: the team's candidates wait in the home
            return scope == "team" or not _own_candidate(entry.record, target)
        return name in waiting and not _own_candidate(waiting[name], target)

    name = free_name(target, _CANDIDATE_SUFFIX, taken)
    if scope == "team":
        return name, False if name in waiting else None
    entry = layer.lookup(name)
    return name, entry.digest if entry is not None else None


def _created_by_import(layer, name: str) -> bool:
    """True when the journal's last creation of ``name`` is an import's."""
    created = None
    for event in layer.journal.events():
        if event.name == name and records_bytes(event) and event.before is None and event.after is not None:
            created = event
    return created is not None and created.actor == "import"


def _spelled_as(record, spelled: str) -> bool:
    """True when memory ``record`` is spelled ``spelled``: the same name
    (:func:`memdir.text.names.same_name`), or the memory an import named apart for that spelling."""
    return same_name(spelled, record.name, record.title) or dict(record.extra).get(RENAMED_FROM) == spelled


def _named_apart(layer, name: str, spelled: str, reserved: Container[str]) -> tuple[str, str] | None:
    """``(the item's name, why)`` when the memory of file name ``name`` is another name than the
    item's spelling ``spelled`` (``C# tips`` arriving where ``C++ tips`` is): the distinct name
    :func:`memdir.gateway.fields.distinct_name` gives, free of every other memory of the layer and
    of the names this import gives its other items (``reserved``). None when the item names that
    memory: spelled alike, or — with no spelling of its own (no title) — one an import created (an
    import kept no spelling of a file's name before)."""
    entry = layer.lookup(name)
    if entry is None or _spelled_as(entry.record, spelled) or (
            entry.record.title is None and _created_by_import(layer, name)):
        return None
    other = entry.record
    taken = {key for key, e in layer.scan().entries.items() if not _spelled_as(e.record, spelled)}
    apart = distinct_name(spelled, taken | set(reserved))
    shown = f"{other.title!r} ({other.name})" if other.title else repr(other.name)
    return apart, (f"{spelled!r} normalizes to the file name of the memory {shown}, which is another name: "
                   f"named {apart!r} here")


def _spelling(session: Session, item: Item) -> str | None:
    """The title an item without one keeps of its source's spelling (a file stem, a line's ``name``:
    ``C# tips.md``, ``café``), by the rule of every write (:func:`memdir.gateway.fields.kept_spelling`),
    so the memory is found by the name its source gave it and another spelling is another memory; None
    when the spelling does not name the item's memory or is over ``limit_title`` (kept as before: no title)."""
    if not item.spelled:
        return None
    try:
        kept = kept_spelling(item.spelled)
        names = normalize_name(item.spelled).name == item.name
    except InvalidInput:
        return None
    return kept if names and kept and len(kept) <= session.settings.limit_title else None


def _one(session: Session, item: Item, scope: str, dry_run: bool, stones: list[Tombstone],
         reserved: Container[str], batch: _Batch | None = None) -> ImportOutcome | _Deferred:
    """The outcome of importing ``item`` into ``scope``: named apart first when its spelling is another
    memory's file name (:func:`_named_apart`, said in the outcome's detail), then :func:`_place`. With
    ``batch``, a new memory's write is handed to it (:class:`_Deferred`); the writes it holds are made
    first when this item's name is one of theirs or a memory's (its outcome reads the layer)."""
    try:
        # a description drawn from the body is made short here: the body already holds it whole, and a
        # long one the write would carry into the body a second time (and the ceiling would cut the rest)
        given = (drawn_description(item.description, session.settings.limit_description) if item.drawn
                 else item.description)
        name, description, kind, body, title, _, _ = prepare(session.settings, item.name, given, item.type,
                                                             item.body, item.title or _spelling(session, item),
                                                             actor="import")
    except InvalidInput as exc:
        return ImportOutcome(item.source, item.name, scope, "skipped", str(exc))
    layer = session.layer(scope)
    if batch is not None and (batch.holds(scope, name) or layer.lookup(name) is not None):
        batch.flush()
    extra, note = item.extra, ""
    apart = _named_apart(layer, name, item.spelled, reserved) if item.spelled else None
    if apart is not None:  # kept apart as the gateway keeps a write of another name apart, findable by its spelling
        name, note = apart
        title, extra = title or item.spelled, {**item.extra, RENAMED_FROM: item.spelled}
    kept = item.kept
    change, cut = _fit(session.settings.max_file_bytes, MemoryChange(
        name, description, kind, body, title=title, disabled=True if item.disabled else None, extra=extra,
        status="candidate" if item.candidate else None, reason=f"import from {item.source}",
        pinned=kept.get("pinned"), importance=kept.get("importance"), valid_from=kept.get("valid_from"),
        valid_until=kept.get("valid_until")))
    def dressed(done: ImportOutcome) -> ImportOutcome:
        if done.kept == "skipped":
            return replace(done, detail=f"{note}; {done.detail}" if done.detail else note) if note else done
        done = replace(done, type=kind, original_type=item.original_type)
        if cut:
            done = replace(done, cut=cut, detail=f"{cut}; {done.detail}" if done.detail else cut)
        if item.original_type is not None:
            done = replace(done, detail="; ".join(filter(None, (retyped(item.original_type, kind), done.detail))))
        if item.left_out:  # a null or blank observation: never an empty bullet, and the report says so
            done = replace(done, left_out=item.left_out, detail="; ".join((*item.left_out, done.detail) if done.detail
                                                                          else item.left_out))
        return replace(done, detail=f"{note}; {done.detail}" if done.detail else note) if note else done

    done = _place(session, layer, item, change, scope, dry_run, stones, batch is not None)
    if isinstance(done, _Deferred):
        return replace(done, finish=lambda result, made=done.finish: dressed(made(result)))
    return dressed(done)


def retyped(original: str, kind: str) -> str:
    """What an outcome says of an item whose source wrote the type ``original``, none of memdir's, imported
    as ``kind`` (its layer's)."""
    return (f"type {original!r} is not one of {', '.join(TYPES)}: imported as {kind}, the layer's type "
            f"(the original kept as original_type)")


def _said(result) -> str:
    """What a write changed in the text it was given (its warnings, its redactions), for an outcome's detail."""
    said = list(result.warnings)
    if result.redactions:
        said.append(f"{result.redactions} secret(s) redacted")
    return "; ".join(said)


def _times(item: Item, scope: str) -> tuple:
    """The source's ``(created, updated)`` an import keeps (an export of memdir's comes back with its own
    times); none for the team, whose imports are candidates proposed now."""
    return () if scope == "team" else (item.kept.get("created"), item.kept.get("updated"))


def _place(session: Session, layer, item: Item, change: MemoryChange, scope: str, dry_run: bool,
           stones: list[Tombstone], defer: bool = False) -> ImportOutcome | _Deferred:
    """The outcome of importing ``change`` (the item's, named as it goes into ``layer``); ``defer``: a new
    memory's write of the user or project layer is handed back (:class:`_Deferred`), not made."""
    said_as = would if dry_run else str  # a dry run says what it would do
    name, description, kind, body = change.name, change.description, change.type, change.body
    found = match(stones, description, body, name=name, actor="import", title=change.title)
    if found is not None:
        return ImportOutcome(item.source, name, scope, "skipped", outcome(*found))
    entry = layer.lookup(name)  # the last scan while no file came or went: a long import stays linear
    if entry is None:
        result = "candidate" if scope == "team" or change.status == "candidate" else "imported"

        def made(done: WriteResult | None) -> ImportOutcome:
            now, said = result, ""
            if done is not None:  # unchanged: the same team candidate waits
                now, said = ("unchanged" if done.operation == "unchanged" else result), _said(done)
            why = "waits for a person's review (memdir review)" if now == "candidate" else ""
            return ImportOutcome(item.source, name, scope, said_as(now), "; ".join(filter(None, (why, said))))

        if dry_run:
            return made(None)
        if defer and scope != "team":
            return _Deferred(scope, name, BatchWrite(change, _times(item, scope)), made)
        return made(write(session, change, scope, times=_times(item, scope)))
    old = entry.record
    if (old.description, old.body, old.type) == (description, body, kind):
        return ImportOutcome(item.source, name, scope, said_as("unchanged"), "the same text is already there")
    digest = dict(change.extra).get(_DIGEST)
    if digest is not None and dict(old.extra).get(_DIGEST) == digest:  # a person's edit since is theirs to keep
        return ImportOutcome(item.source, name, scope, said_as("unchanged"),
                             "the source is as it was when last imported (the memory's own changes are kept)")
    settled = change.status != "candidate" or old.status == "candidate"  # a proposal never replaces a live memory
    if scope != "team" and settled and old.origin == "import" and _imported_unchanged(layer, name, entry.digest):
        said = "" if dry_run else _said(write(session, change, scope, times=_times(item, scope)))
        return ImportOutcome(item.source, name, scope, said_as("updated"),
                             "; ".join(filter(None, ("the source changed", said))))
    candidate, expect = _candidate(session, layer, scope, name)
    if not dry_run:
        done = write(session, replace(change, name=candidate, status="candidate", expect_digest=expect,
                                      extra={**dict(change.extra), "candidate_for": name}), scope)
        candidate = done.name  # the name written is the one reported
        if done.operation == "unchanged":
            return ImportOutcome(item.source, candidate, scope, "unchanged", "the same candidate waits already")
    # a memory no import wrote (a person's, the agent's) was never "changed since the last import"
    imported = _DIGEST in dict(old.extra) or old.origin == "import"
    why = "was changed since the last import" if imported else "holds other text, written here, not by an import"
    return ImportOutcome(item.source, candidate, scope, said_as("candidate"),
                         f"{name!r} {why}; review it (memdir review)")


def _unusable(session: Session, items: list, scope_of, scope: str | None) -> dict[str, str]:
    """``{scope: why}`` for each layer only items' own ``scope`` (an export's line of the team layer, of a
    disabled user layer) send items to and this session cannot use: those items are skipped, the rest
    imported. Raises :class:`ScopeError` (before anything is written) when the import's own layer — the
    ``scope`` asked for, or the default of an item naming none — is unusable."""
    own = {scope_of(i) for i in items if isinstance(i, Item) and (scope is not None or i.scope is None)}
    unusable = {}
    for target in sorted({scope_of(i) for i in items if isinstance(i, Item)}):
        try:
            session.check_scope(target)
        except ScopeError as exc:
            if target in own:
                raise
            unusable[target] = f"its source puts it in the {target} layer, which is unavailable here: {exc}"
    return unusable


_BATCH = 200  # new memories written per transaction: one sync and one MEMORY.md each; the lock let go between
_ITEM_ERRORS = ITEM_ERRORS  # what refuses one item and not the rest (the gateway's rule, memdir.gateway.writing)


@dataclass(frozen=True)
class _Deferred:
    """A new memory's write :func:`_place` hands to the import's :class:`_Batch`: the layer (``scope``) and
    ``name`` it goes to, the ``write``, and ``finish``, the outcome the write's result makes."""

    scope: str
    name: str
    write: BatchWrite
    finish: Callable[[WriteResult], ImportOutcome]


class _Batch:
    """The new memories an import writes, up to :data:`_BATCH` of one layer at a time, written in one
    transaction (:func:`memdir.operations.memories.write_batch`) in source order: each outcome is what
    writing them one by one gives. ``settle(index, outcome, counted)`` is told of each once the batch is
    written; ``count()`` as the gateway settles each write (an import's progress moves with the writes, and
    ``counted`` says it was counted so)."""

    def __init__(self, session: Session, settle: Callable[[int, ImportOutcome, bool], None],
                 count: Callable[[], None]):
        self.session, self.settle, self.count = session, settle, count
        self.pending: list[tuple[int, Item, _Deferred]] = []
        self.names: set[str] = set()

    def holds(self, scope: str, name: str) -> bool:
        """True when a write waiting here goes to memory ``name`` of ``scope``."""
        return bool(self.pending) and self.pending[0][2].scope == scope and name in self.names

    def turn_to(self, scope: str) -> None:
        """Before an item of ``scope`` is looked at: the writes held for another layer are made (a write
        reads the other layers' memories: the source's order is kept)."""
        if self.pending and self.pending[0][2].scope != scope:
            self.flush()

    def add(self, index: int, item: Item, deferred: _Deferred) -> None:
        """Hold the write of ``item`` (at ``index`` in the source); a full batch is written."""
        self.pending.append((index, item, deferred))
        self.names.add(deferred.name)
        if len(self.pending) >= _BATCH:
            self.flush()

    def flush(self) -> None:
        """Write the held writes; an item the gateway refuses is skipped (said why), the rest written. When
        the batch itself fails (the lock, the disk), the items it settled keep their outcome and the rest
        are skipped, said why."""
        pending, self.pending, self.names = self.pending, [], set()
        if not pending:
            return
        told: dict[int, WriteResult | Exception] = {}

        def done(k: int, value: WriteResult | Exception) -> None:
            told[k] = value
            self.count()

        try:
            values = write_batch(self.session, [d.write for _, _, d in pending], pending[0][2].scope, done=done)
        except MemdirError as exc:
            values = [told.get(k, exc) for k in range(len(pending))]
        for k, ((index, item, deferred), value) in enumerate(zip(pending, values)):
            made = deferred.finish(value) if isinstance(value, WriteResult) else _refused(item, deferred.scope,
                                                                                          value)
            self.settle(index, _renamed(item, made), k in told)


def _refused(item: Item, target: str, exc: Exception) -> ImportOutcome:
    """The outcome of ``item`` whose write into ``target`` raised ``exc`` (one bad item never stops the rest)."""
    if isinstance(exc, TombstoneRefused):
        return ImportOutcome(item.source, item.name, target, "skipped", outcome(exc.stone, exc.why))
    if isinstance(exc, MemdirError):
        return ImportOutcome(item.source, item.name, target, "skipped", str(exc))
    return ImportOutcome(item.source, item.name, target, "skipped",  # a value no reader foresaw
                         f"not importable: {type(exc).__name__}: {exc}"[:200])


def _renamed(item: Item, done: ImportOutcome) -> ImportOutcome:
    """``done`` with why ``item`` has another name than its source's, when an earlier item took that one."""
    if not item.extra.get(RENAMED_FROM):
        return done
    note = f"the name {item.extra[RENAMED_FROM]!r} is taken by an earlier item of this source"
    return replace(done, detail=f"{note}; {done.detail}" if done.detail else note)


def run(session: Session, kind: str, source: str, items: list, *, scope: str | None = None,
        dry_run: bool = False, progress=None) -> ImportReport:
    """Import ``items`` (:class:`Item` and :class:`Skip` values from a reader)
    into the session's layers as actor ``import``: ``scope``, else each item's own scope,
    else ``user`` for type user and ``project`` otherwise.
    See the module docstring. Raises :class:`ScopeError`, before anything is written, when the
    import's own layer is unavailable; an item whose own scope names an unavailable layer is skipped
    (:func:`_unusable`), as is every other per-item problem.
    ``progress(done, total)`` is called before the first item and after each."""
    importer = session.as_actor("import")
    stones = guard(importer)  # every layer's, read once: an import makes no tombstones
    if progress is not None:
        progress(0, len(items))
    def scope_of(item: Item) -> str:
        return scope or item.scope or ("user" if item.type == "user" else "project")

    # an item that says no type memdir reads gets the layer's it goes to: the one rule of every write
    items = [replace(i, type=i.type or default_type(scope_of(i))) if isinstance(i, Item) else i for i in items]
    items = [replace(i, extra={**i.extra, _DIGEST: source_digest(i)}) if isinstance(i, Item) else i for i in items]
    named = resolve_links(importer, distinct_names(items, scope_of), scope_of)
    reserved: dict[str, set[str]] = {}  # scope → the names this import gives its items there
    for item in named:
        if isinstance(item, Item):
            reserved.setdefault(scope_of(item), set()).add(item.name)
    unusable = _unusable(importer, named, scope_of, scope)
    outcomes: list[ImportOutcome | None] = [None] * len(named)
    handled = 0

    def count() -> None:
        nonlocal handled
        handled += 1
        if progress is not None:
            progress(handled, len(items))

    def settle(i: int, done: ImportOutcome, counted: bool = False) -> None:
        outcomes[i] = done
        if not counted:
            count()

    batch = None if dry_run else _Batch(importer, settle, count)
    for i, item in enumerate(named):
        if isinstance(item, Skip):
            settle(i, ImportOutcome(item.source, None, None, "skipped", item.reason))
            continue
        target = scope_of(item)
        if target in unusable:
            settle(i, ImportOutcome(item.source, item.name, target, "skipped", unusable[target]))
            continue
        if batch is not None:
            batch.turn_to(target)
        try:
            done = _one(importer, item, target, dry_run, stones, reserved[target], batch)
        except _ITEM_ERRORS as exc:
            done = _refused(item, target, exc)
        if isinstance(done, _Deferred):
            batch.add(i, item, done)
        else:
            settle(i, _renamed(item, done))
    if batch is not None:
        batch.flush()
    return ImportReport(kind, source, dry_run, tuple(outcomes), stones.skipped)


__all__ = ["ImportOutcome", "ImportReport", "retyped", "run", "source_digest"]
