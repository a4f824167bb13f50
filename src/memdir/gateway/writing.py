"""The gateway's write of a memory (DESIGN §1.2): :func:`write`, one change in its own transaction, and
:func:`write_batch`, many in one transaction of a layer — each checked as :func:`write` checks it (the same
code: :func:`_write_in`), the files synced and ``MEMORY.md``, the manifest and the journal's anchor kept once
for the batch. The other operations of the gateway are :mod:`memdir.gateway.changes`.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from ..errors import Conflict, InvalidInput, MemdirError, NotFound
from ..files.memfile import MemoryRecord, format_time
from ..files.scan import Scan, blank_file
from ..layer import dismissals
from ..layer.history import edit_kept_whole, last_written_body
from ..layer.interrupted import retire
from ..layer.journal import now_utc
from ..layer.layer import Layer
from ..layer.succession import name_kept, of_transaction, refuse_superseded
from ..layer.transaction import Transaction
from ..results.writes import KeptEdit, ReplacedVersion, WriteResult
from ..text.names import asked_name, normalize_name
from ..tombstones.match import Tombstone
from .compare import unchanged
from .duplicates import TextHolders, check_duplicate
from .fields import (
    MemoryChange,
    candidate_name,
    check_readable,
    check_valid_time,
    description_whole,
    inherit,
    prepare,
    reason_text,
    recarried,
    sanitize_extra,
    uncut_body,
)
from .forgotten import check_forgotten
from .naming import (
    NameIndex,
    check_older_file,
    check_same_name,
    inherited_title,
    written_to,
)
from .variants import distinct_name

_RESERVED_KEYS = frozenset(MemoryRecord.__dataclass_fields__) | {"metadata", "scope"}


NAME_RULE = "a name is stored lowercase, in a-z, 0-9 and -"
"""The store's name rule as a refusal of a rename says it (:func:`memdir.text.names.normalize_name`): two
spellings it makes one name are one memory's."""


def _no_such(layer: Layer, act: str, asked: str, name: str | None = None) -> NotFound:
    """The refusal of a ``rename`` or ``supersede`` (``act``) of ``asked`` that ``layer`` does not hold."""
    shown = asked_name(asked) if name is None else asked_name(asked, name)
    return NotFound(f"cannot {act} {shown}: no such memory in the {layer.scope} layer")


class _Answering:
    """The names a write in ``tx`` would find a memory under (its own file name, or one an older memdir gave
    it: :func:`memdir.gateway.naming.written_to`), as :func:`memdir.gateway.variants.distinct_name`'s
    ``taken``: a name offered as free answers to no memory."""

    def __init__(self, tx: Transaction):
        self.tx = tx

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and self.tx.fresh(written_to(self.tx.fresh, self.tx.scan.names, name,
                                                                  name)) is not None


class _Unmade:
    """A transaction's view of a layer that is not made yet, for the checks :func:`_refuse_into_nothing` runs
    before making it: no memory, no tombstone of its own; its warnings are dropped (the transaction that
    follows says them)."""

    def __init__(self, layer: Layer, actor: str):
        self.layer, self.actor, self.warnings = layer, actor, []
        self.scan = Scan(entries={}, malformed=[], files={}, names={})


def _refuse_into_nothing(layer: Layer, change: MemoryChange, prepared: _Prepared, *, actor: str, guard) -> None:
    """What :func:`write` refuses of ``change`` in a layer that is not made yet (it holds no memory), raised
    before its directory, lock and ``layer.json`` are made: a rename or supersede of a memory
    (:class:`NotFound`), a new memory without a description (:func:`inherit`'s :class:`InvalidInput`), an
    expected digest (:class:`Conflict`: there is no file), a file over the size ceiling or an empty valid
    time (:class:`InvalidInput`), a value another layer's tombstone or memory holds (``guard``: as the
    transaction refuses it, :class:`TombstoneRefused`, :class:`Refused`).
    trial28: `cd /var; memdir write foo` was refused but left an empty project layer the panel listed; left29:
    so did a body over the ceiling, an agent's write of a value the user layer forgot or holds."""
    name, description, type, body, title = prepared.name, prepared.description, prepared.type, prepared.body, \
        prepared.title
    old_name, extra = prepared.old_name, prepared.extra
    if change.rename_from is not None:
        raise _no_such(layer, "rename", change.rename_from)
    if old_name:
        raise _no_such(layer, "supersede", change.supersedes, old_name)
    description, type, body = inherit(None, description, type, body, name, change.body_source, scope=layer.scope)
    unchanged(None, change.expect_digest, name, "write")
    now = now_utc().replace(microsecond=0)
    record = MemoryRecord(name=name, description=description, type=type, body=body, title=title,
                          pinned=bool(change.pinned), disabled=bool(change.disabled), importance=change.importance,
                          created=now, updated=now, origin=actor, status="active", valid_from=change.valid_from,
                          valid_until=change.valid_until, extra=tuple(extra.items()))
    check_valid_time(record, change.valid_from, change.valid_until, now, [])
    check_readable(record, layer.settings.max_file_bytes)
    unmade = _Unmade(layer, actor)
    check_forgotten(unmade, None, description, body, name, guard, title, prepared.whole_body)
    check_duplicate(unmade, name, description, body, None, guard, ())


def write(layer: Layer, change: MemoryChange, *, actor: str, session: str | None = None,
          guard: list[Tombstone] = (), action: str | None = None, times: tuple = ()) -> WriteResult:
    """Create or update one memory through the gateway, as ``change`` asks (:class:`MemoryChange`:
    its fields, and what a field not given keeps), written by ``actor`` for agent session ``session``.

    Unspecified (None) fields inherit the existing values: ``description``, ``type`` and ``body``
    (:func:`memdir.gateway.fields.inherit`), flags (``pinned``, ``disabled``, ``importance``, valid times), ``title`` (a rename's is its new name's unless a person set it: :func:`memdir.gateway.naming.inherited_title`); ``created`` is kept, ``updated`` set now (never before the memory's past, a clock set back: :func:`memdir.layer.transaction.not_before`); an identical write changes nothing on disk (``unchanged``).
    ``status`` may only ask for ``"candidate"``; origin is always ``actor``. ``guard`` adds tombstones of other
    layers to check (:func:`memdir.operations.lookup.guard`); ``action`` names the journal event (default
    create, update, rename or reactivate). ``expect_digest`` (when not False) is compare-and-set: the current
    file digest (None = must not exist) — a mismatch raises :class:`~memdir.errors.Conflict`. The valid
    times must be datetimes here (text is read by :func:`memdir.operations.memories.write`).

    A name written differently from the existing memory's that normalizes to the same file (``C# tips`` over
    ``C++ tips``) raises :class:`Conflict` naming the existing memory and a distinct name; the same spelling or
    the normalized name updates (:func:`memdir.gateway.naming.check_same_name`: a warning names it); the file name an older
    memdir gave a title that is another name today (``v2`` of ``배포-v2``) is refused too, unless the write gives that
    title or the digest it read (:func:`memdir.gateway.naming.check_older_file`). A superseded memory is refused
    (:class:`Refused`, naming its successor) unless ``reactivate``: it is then active again (``reactivate``).

    ``rename_from``: move that memory to the free ``name`` (else :class:`Conflict`), fields not given keeping
    its values, ``expect_digest`` being its; an active one is superseded by ``name``, a candidate moves.
    A candidate's ``supersedes`` is a proposal, carried out on approval (:func:`set_status`).
    ``clear``: fields emptied, not inherited (of :data:`CLEARABLE`); ``body_source``: see :func:`inherit`.

    ``times``: ``(created, updated)`` (datetimes or None) an import keeps from its source (an export of
    memdir's); honoured for actor ``import`` only — every other writer's times are the clock's. A write whose
    file the reader would refuse (frontmatter over its cap: :func:`memdir.gateway.fields.check_readable`) is refused.

    Raises :class:`InvalidInput`, :class:`TombstoneRefused`, :class:`NotFound` (``supersedes`` names no
    memory), :class:`Conflict`, :class:`Refused`, :class:`LockTimeout`.
    """
    prepared = _prepare(layer, change, actor)
    if not os.path.lexists(layer.path):  # a layer not made yet holds no memory: refused before it is made
        _refuse_into_nothing(layer, change, prepared, actor=actor, guard=guard)
    with layer.transaction(actor, session) as tx:
        done = _write_in(tx, change, prepared, actor=actor, guard=guard, action=action, times=times)
    return done if done.operation in ("unchanged", "dismissed") else replace(
        done, warnings=(*done.warnings, *tx.warnings), kept_edit=kept_edit(tx, done.name), replaced=outside(tx, done))


def outside(tx: Transaction, result: WriteResult) -> ReplacedVersion | None:
    """``result``'s ``replaced`` marked ``outside`` when the version it names is an edit made outside memdir that a
    write of ``tx`` replaced (``replaced_hands`` of :class:`memdir.layer.transaction.Transaction`, found when its
    manifest is saved: ask once the transaction has ended), read since or not; else as it was."""
    gone = result.replaced
    if gone is None or (result.name, gone.digest) not in tx.replaced_hands:
        return gone
    return replace(gone, outside=True)


def kept_edit(tx: Transaction, name: str) -> KeptEdit | None:
    """The hand edit a write of ``name`` in ``tx`` replaced unseen, kept in history (``replaced_edits`` of
    :class:`memdir.layer.transaction.Transaction`, found when its manifest is saved: ask once the
    transaction has ended); None: none, not known, or the write left every field the edit changed as the
    edit made it (:func:`memdir.layer.history.edit_kept_whole`: no text of it was replaced)."""
    found = tx.replaced_edits.get(name)
    if found is None or edit_kept_whole(tx.layer, name, found[0]):
        return None
    version, made, digest = found
    return KeptEdit(version, made, came_by(tx.layer, name, digest))


def came_by(layer: Layer, name: str, digest: str | None) -> str:
    """What git's state says of the edit outside memdir of memory ``name`` whose bytes are the journal's object
    ``digest`` (:class:`memdir.results.memories.KeptEdit`'s ``by``): ``git`` when the team repository's ``HEAD``
    — or, a merge under way, ``MERGE_HEAD`` — holds the memory's file with that text, line ends read as the reader
    reads them (:func:`memdir.files.memfile.bytes_as_read`): a pull, a checkout, a merge or a commit of it;
    ``hand`` when neither holds it; ``""`` when not known: a personal layer (no git holds it), no digest or
    object, git missing or no commit yet. One ``git show`` (two during a merge), asked only when a write
    replaced an unseen edit of a team memory. Never raises."""
    if layer.scope != "team" or digest is None or layer.root is None:
        return ""
    # here: only a write that replaced a team memory's unseen edit runs git
    from .. import git
    from ..errors import StoreError
    from ..files.memfile import bytes_as_read

    try:
        edit = bytes_as_read(layer.journal.get_object(digest))
    except (MemdirError, OSError, ValueError):
        return ""
    path = layer.path / f"{name}.md"
    known = False
    for commit in ("HEAD", "MERGE_HEAD"):
        try:
            held = git.show(layer.root, commit, path)
        except NotFound:  # no such file (or no such commit) there: this commit does not hold it
            known = known or commit == "HEAD" and _has_commit(layer.root)
            continue
        except (StoreError, OSError, ValueError):
            return ""
        known = True
        if bytes_as_read(held) == edit:
            return "git"
    return "hand" if known else ""


def _has_commit(root) -> bool:
    """Whether the repository at ``root`` has a commit at ``HEAD`` (a new one has none: git can say nothing)."""
    from .. import git
    from ..errors import StoreError

    try:
        git.run(root, "rev-parse", "--verify", "--quiet", "HEAD")
    except (StoreError, OSError):
        return False
    return True


@dataclass(frozen=True)
class BatchWrite:
    """One write of a batch (:func:`write_batch`): ``change`` and ``times`` as :func:`write` takes them."""

    change: MemoryChange
    times: tuple = ()


# What a write of a batch may raise that refuses that write alone: the gateway's refusals, and a value no
# check foresaw (its apply undid what it staged: Transaction.apply), as an importer takes them item by item.
ITEM_ERRORS = (MemdirError, ValueError, TypeError, AttributeError, RecursionError)


def write_batch(layer: Layer, writes: Sequence[BatchWrite], *, actor: str, session: str | None = None,
                guard: list[Tombstone] = (),
                done: Callable[[int, WriteResult | Exception], None] | None = None) -> list[WriteResult | Exception]:
    """Write ``writes`` into ``layer`` in order, in one transaction (one lock window, one sweep), each
    checked and applied by the code of :func:`write` (:func:`_write_in`): the same refusals (tombstones,
    names that are another memory's, duplicates, the size ceiling, fence tags), the same files, journal
    lines and index rows as that many calls of :func:`write` — but the files and the journal are synced
    once (:meth:`memdir.layer.transaction.Transaction.batched`) and ``MEMORY.md``, the outline and the
    manifest rebuilt once, when the batch ends. A process killed in the batch leaves the writes before
    the kill (a prefix of ``writes``), whole.

    Returns one value per write, in order: its :class:`~memdir.results.memories.WriteResult` (warnings as
    :func:`write` gives them; those of the transaction itself go to its first and last written result),
    or the exception :func:`write` would raise for it (one of :data:`ITEM_ERRORS`; nothing of it is
    written, and the writes after it are). ``done(index, value)`` is told of each as it is settled (under
    the lock: keep it short). While the layer is not made yet, its writes go one by one through
    :func:`write` (a refused one makes no layer) until one makes it. Raises :class:`LockTimeout`,
    :class:`StoreError` (the transaction or its sync failed; ``done`` has been told of every write
    settled before)."""
    results: list[WriteResult | Exception] = []

    def settle(value: WriteResult | Exception) -> None:
        results.append(value)
        if done is not None:
            done(len(results) - 1, value)

    rest = list(writes)
    while rest and not os.path.lexists(layer.path):  # as write() refuses into a layer not made yet
        one = rest.pop(0)
        try:
            settle(write(layer, one.change, actor=actor, session=session, guard=guard, times=one.times))
        except ITEM_ERRORS as exc:
            settle(exc)
    if not rest:
        return results
    first = len(results)
    with layer.transaction(actor, session) as tx, tx.batched():
        begun = len(tx.warnings)  # the sweep's, before the first write
        for one in rest:
            _indexed(tx)
            mark = len(tx.warnings)
            try:
                prepared = _prepare(layer, one.change, actor)
                value = _write_in(tx, one.change, prepared, actor=actor, guard=guard, action=None, times=one.times)
            except ITEM_ERRORS as exc:
                del tx.warnings[mark:]  # what a refused write was warned of goes with it
                settle(exc)
                continue
            if value.operation not in ("unchanged", "dismissed"):
                value = replace(value, warnings=(*value.warnings, *tx.warnings[mark:]))
            settle(value)
        looped = len(tx.warnings)
    _shared(results, first, tx.warnings[:begun], "first")
    _shared(results, first, tx.warnings[looped:], "last")  # MEMORY.md's, the anchor's: after the writes
    last_of = {results[i].name: i for i in range(first, len(results)) if isinstance(results[i], WriteResult)
               and results[i].operation not in ("unchanged", "dismissed")}
    for i in range(first, len(results)):  # an edit outside memdir a write replaced: found as kept_edit is
        if isinstance(results[i], WriteResult) and results[i].replaced is not None:
            results[i] = replace(results[i], replaced=outside(tx, results[i]))
    for name, i in last_of.items():  # found when the batch's manifest was saved: told by a name's last write
        if (kept := kept_edit(tx, name)) is not None:
            results[i] = replace(results[i], kept_edit=kept)
    return results


def _indexed(tx: Transaction) -> None:
    """Give ``tx``'s scan, when its files and names are plain dicts (a full scan's; a manifest's answer
    themselves), the indexes that keep a batch's checks from a pass over every memory per write: text
    digests (:class:`~memdir.gateway.duplicates.TextHolders`) and older names
    (:class:`~memdir.gateway.naming.NameIndex`). The same content: a check reads what it read."""
    if type(tx.scan.files) is dict:
        tx.scan.files = TextHolders(tx.scan.files)
    if type(tx.scan.names) is dict:
        tx.scan.names = NameIndex(tx.scan.names)


def _shared(results: list, first: int, warnings: list[str], which: str) -> None:
    """Add ``warnings`` (of a batch's transaction, not of one write) to the ``which`` (first | last)
    written result of ``results`` from index ``first`` on."""
    written = [i for i in range(first, len(results)) if isinstance(results[i], WriteResult)
               and results[i].operation not in ("unchanged", "dismissed")]
    if warnings and written:
        i = written[0] if which == "first" else written[-1]
        results[i] = replace(results[i], warnings=(*results[i].warnings, *warnings))


@dataclass(frozen=True)
class _Prepared:
    """A change's fields as :func:`memdir.gateway.fields.prepare` made them, before the lock is taken."""

    name: str
    description: str | None
    type: str | None
    body: str | None
    title: str | None
    counts: dict
    warnings: tuple[str, ...]
    extra: dict
    old_name: str | None
    reason: str | None
    whole_body: str | None = None  # the body given, uncut, when the body limit cut it (fields.uncut_body)


def _prepare(layer: Layer, change: MemoryChange, actor: str) -> _Prepared:
    """What :func:`write` checks of ``change`` before taking the lock (limits, redaction, the names).
    Raises :class:`InvalidInput`."""
    reason = reason_text(layer.settings, change.reason)
    name, description, type, body, title, counts, warnings = prepare(
        layer.settings, change.name, change.description, change.type, change.body, change.title, actor=actor)
    # Known keys are the gateway's to set: a payload cannot smuggle origin or status in.
    extra = sanitize_extra({k: v for k, v in change.extra if k not in _RESERVED_KEYS}, counts)
    old_name = normalize_name(change.supersedes).name if change.supersedes else None
    return _Prepared(name, description, type, body, title, counts, tuple(warnings), extra, old_name, reason,
                     uncut_body(layer.settings, change.body, actor))


def _write_in(tx: Transaction, change: MemoryChange, prepared: _Prepared, *, actor: str, guard, action: str | None,
              times: tuple) -> WriteResult:
    """The body of :func:`write` inside its transaction ``tx``: every check under the lock, then the
    :meth:`~memdir.layer.transaction.Transaction.apply`. The result's warnings leave out ``tx.warnings``
    (the caller adds them). Raises as :func:`write` does; nothing is applied when it raises before the apply."""
    layer = tx.layer
    name, description, type, body, title = prepared.name, prepared.description, prepared.type, prepared.body, \
        prepared.title
    counts, warnings, extra, old_name = dict(prepared.counts), list(prepared.warnings), dict(prepared.extra), \
        prepared.old_name
    pinned, disabled, importance, status = change.pinned, change.disabled, change.importance, change.status
    valid_from, valid_until, supersedes = change.valid_from, change.valid_until, change.supersedes
    reason, expect_digest, reactivate = prepared.reason, change.expect_digest, change.reactivate is True
    rename_from, clear, asked, given_title = change.rename_from, change.clear, change.name, change.title
    # the memory a read of each name finds: an older memdir's file name too (memdir.gateway.naming)
    name = name if rename_from is not None else written_to(tx.fresh, tx.scan.names, asked, name)
    if old_name and (old_name := written_to(tx.fresh, tx.scan.names, supersedes, old_name)) == name:
        raise InvalidInput("a memory cannot supersede itself")
    existing = source = tx.fresh(name)
    if existing is not None and rename_from is None:  # v2 is not 배포-v2, though an older memdir named it v2
        check_older_file(asked, existing.record, tx.scan.names, read=expect_digest is not False,
                         given_title=given_title)
    if rename_from is not None:
        existing, source = None, tx.fresh(written_to(tx.fresh, tx.scan.names, rename_from,
                                                     normalize_name(rename_from).name))
        if source is None:
            raise _no_such(layer, "rename", rename_from)
        if source.record.name == name:
            same = "" if asked == name else (f" ({asked!r} is that name: {NAME_RULE}, "
                                             "so a rename of its case or accents alone changes nothing)")
            raise InvalidInput(f"{rename_from!r} is already called {name!r}{same}: a rename needs a different new name"
                               + (f"; to show it as {asked.strip()!r}, change its title instead" if same else ""))
        held = written_to(tx.fresh, tx.scan.names, asked, name)  # stra-e-notes answers to Straße-notes too
        taken = tx.fresh(held if held != source.record.name else name)
        if taken is not None and taken.record.status == "superseded":  # its history keeps the name
            raise Conflict(name_kept(taken.record, of_transaction(taken.record, tx)))
        if taken is not None:  # the next step: a free name to rename to, or the update that was maybe meant
            held, moving = taken.record.name, source.record.name
            free = distinct_name(asked, _Answering(tx))
            same = "" if asked == held else f" ({asked!r} names it too: {NAME_RULE})"
            raise Conflict(f"a memory called {held!r} exists{same}, so {moving!r} was not renamed: rename it to a "
                           f"free name such as {free!r}, or change {held!r} itself (its title, description or "
                           "body) instead", taken=(held, moving, free))
        old_name = None if source.record.status == "candidate" else source.record.name
        status = "candidate" if old_name is None else status  # a candidate moves, staying one
    unchanged(source, expect_digest, source.record.name if source else name, "write")
    if status == "candidate" and existing is not None and existing.record.status != "candidate":
        # A proposed change to a live memory waits beside it; the live one stays in force.
        target = name
        name = candidate_name(target, lambda free: _other_than_proposal(tx.fresh(free), target))
        asked = name
        extra = {**extra, "candidate_for": target}
        existing = tx.fresh(name)
        source = existing or source  # a pending proposal is what a further one changes and keeps
        warnings.append(f"{target!r} stays as it is; the change waits for review as candidate {name!r} "
                        f"(memdir review)")
    old = source.record if source else None  # what fields not given keep
    description, type, body = inherit(old, description, type, body, name, change.body_source,
                                      scope=layer.scope)
    # kept by an update too; a new description replaces the text the old one carried into the body
    body = recarried(old if change.description is not None else None,
                     description_whole(layer.settings, change.description, actor), body,
                     layer.settings.limit_description, warnings,
                     written=lambda: last_written_body(layer, old.name, old.description))
    # the title given (an inherited one was checked when it was written)
    # told why when source's successor left it; the body given is checked uncut too (fields.uncut_body)
    check_forgotten(tx, source, description, body, name, guard, title, prepared.whole_body)
    if given_title is None:  # an update keeps its title; a rename takes its new name's unless a person set one
        title = inherited_title(asked, name, title, old, rename_from is not None, warnings)
    if existing is not None:  # C# tips over C++ tips is refused; Café Notes for café-notes is said
        check_same_name(asked, old, tx.scan.names, warnings, title)
    refuse_superseded(source, not reactivate, "write to", tx)
    reviving = old is not None and old.status == "superseded"
    # The journal's clock (never before its last event): the edge a supersede ends the old memory's valid time
    # at is when memdir recorded the change, so --valid-at and --as-of agree, and a clock set back never ends a
    # memory's valid time before it began. Valid-time edges keep microseconds; file times whole seconds.
    edge = layer.journal.clock()
    now = edge.replace(microsecond=0)
    if status == "candidate":
        new_status = "candidate"
    elif old is not None and old.status == "candidate" and actor != "human":
        new_status = "candidate"  # only a person promotes a candidate
    else:
        new_status = "active"
    record = MemoryRecord(
        name=name, description=description, type=type, body=body,
        title=title,
        pinned=pinned if pinned is not None else (old.pinned if old else False),
        disabled=disabled if disabled is not None else (old.disabled if old else False),
        importance=importance if importance is not None else (old.importance if old else None),
        created=(old.created if old and old.created else now),
        updated=now,
        last_read=old.last_read if old else None,
        reads=old.reads if old else 0,
        origin=actor,
        status=new_status,
        valid_from=valid_from if valid_from is not None else (
            old.valid_from if old else (edge if old_name else None)),
        valid_until=valid_until if valid_until is not None else (
            None if reviving and old.valid_until and old.valid_until <= edge else
            (old.valid_until if old else None)),
        supersedes=old_name or (old.supersedes if old else None),
        superseded_by=None if new_status == "active" else (old.superseded_by if old else None),
        extra=tuple({**dict(old.extra if old else ()), **(extra or {})}.items()),
        extra_source=old.extra_source if old else (),
    )
    record = record.with_(**{field: None for field in clear})
    dated = actor == "import" and any(times)
    if dated:  # the source's own times: an export comes back as it was
        record = record.with_(created=times[0] or record.created, updated=times[1] or record.updated)
    check_valid_time(record, valid_from, valid_until, edge, warnings)
    # the same text as its last version is no change, unless its file is blank now (an edit in progress, or a
    # person's emptied file: Transaction.in_progress stood the last version in): then the write puts it back
    if old is not None and record.with_(updated=old.updated, created=old.created) == old \
            and not blank_file(source.path):
        return WriteResult(name, layer.scope, "unchanged", sum(counts.values()), counts,
                           tuple(warnings), old.status, old.pinned, existing.digest)
    check_readable(record, layer.settings.max_file_bytes)  # first: the copy check reads a 13 MB body for 50 s
    # the memory it changes may hold it; one it revives was no live copy (its successor may hold the text)
    check_duplicate(tx, name, description, body, None if reviving else old, guard,
                    [n for n in (proposed_for(record), source and source.record.name, old_name) if n])
    if new_status == "candidate" and actor != "human":  # a person's own candidate is theirs to write
        refusal = _dismissed(layer, record)
        if refusal is not None:
            return WriteResult(name, layer.scope, "dismissed", sum(counts.values()), counts,
                               (*warnings, refusal), "candidate", record.pinned, None)
    old_entry = None
    if old_name:
        old_entry = tx.fresh(old_name)
        if old_entry is None:
            raise _no_such(layer, "supersede", supersedes, old_name)
    retiring = old_entry is not None and new_status == "active"  # a candidate's is retired on approval
    event = tx.apply(name, record, action or ("reactivate" if reviving else "rename" if rename_from is not None
                                              else "update" if old else "create"),
                     reason=reason or (f"reactivated (was superseded by {old.superseded_by})" if reviving else None),
                     data={"retires": old_entry.record.name} if retiring else None,  # two steps (layer.interrupted)
                     dated=dated)
    if rename_from is not None and old_name is None:
        tx.apply(source.record.name, None, "rename", reason=f"renamed to {name}")  # a candidate moves
    if retiring:
        retire(tx, old_entry.record, name, edge)
    operation = "reactivated" if reviving else "renamed" if rename_from is not None else "updated" if old else "created"
    replaced = ReplacedVersion(source.digest, format_time(old.updated) if old.updated else None, old.origin) \
        if operation == "updated" and source.digest else None  # the version this update replaced, as it was
    return WriteResult(name, layer.scope, operation, sum(counts.values()),
                       counts, tuple(warnings), record.status, record.pinned, event.after, replaced=replaced)




def proposed_for(record: MemoryRecord) -> str:
    """The memory a candidate ``record`` is a proposal for: its ``candidate_for``, else its own name."""
    target = dict(record.extra).get("candidate_for")
    return target if isinstance(target, str) and target else record.name


def _dismissed(layer: Layer, record: MemoryRecord) -> str | None:
    """Why the candidate ``record`` is not proposed: a person dismissed this exact proposal
    (:mod:`memdir.layer.dismissals`); None when they did not."""
    target = proposed_for(record)
    seen = dismissals.dismissed(layer.meta, dismissals.proposal_digest(target, record))
    if seen is None:
        return None
    when = f" on {seen['ts']}" if isinstance(seen.get("ts"), str) else ""
    return (f"not proposed: a person dismissed this exact proposal for {target!r}{when} (memdir dismiss); "
            "propose it again only with something new")


def _other_than_proposal(entry, target: str) -> bool:
    """True when ``entry`` (a scan entry or None) holds a name a proposal for ``target`` cannot take:
    a memory that is not a pending candidate for ``target`` (that one the proposal changes)."""
    return entry is not None and not (entry.record.status == "candidate"
                                      and dict(entry.record.extra).get("candidate_for") == target)
