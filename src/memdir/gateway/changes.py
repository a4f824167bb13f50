"""The write gateway: every validated operation on memories (DESIGN §1.2).

Every writer — agent tool, MCP, CLI, panel, consolidation, importer, restore —
calls one of these functions. Each validates and sanitizes its input (limits,
secret redaction, fence tags, line breaks in one-line fields, control and
bidi-override characters: :mod:`memdir.text.printable`), then runs inside one
:meth:`~memdir.layer.layer.Layer.transaction` of the layer (the lock, the hand-edit
sweep, the journal, the index), checks tombstones there
(:mod:`memdir.tombstones.match`: exact and near-duplicate values) and changes
files only through :meth:`~memdir.layer.layer.Transaction.apply`. There is no
other path. Deletes, prunes and clears are :mod:`memdir.gateway.deletion`
(given here too). The operations of a whole session (which layer, the other layers'
tombstones, typed results) are :mod:`memdir.operations.memories` and
:mod:`memdir.operations.trust`.
"""

from __future__ import annotations

import os
from pathlib import Path

from ..errors import Conflict, InvalidInput, NotFound, Refused, StoreError
from ..files.conflicts import has_conflict
from ..files.fsio import digest
from ..files.layout import read_layer_info, write_layer_info
from ..files.memfile import MalformedMemory, MemoryRecord, format_time, parse
from ..files.scan import Entry, Scan
from ..layer import dismissals
from ..layer.history import last_written_body, version_bytes
from ..layer.interrupted import FINISHED, retire
from ..layer.journal import Event, now_utc
from ..layer.layer import Layer
from ..layer.succession import name_kept, of_transaction, refuse_superseded
from ..results import Decision, PruneCandidate, WriteResult
from ..text.names import asked_name, normalize_name
from ..tombstones.match import Tombstone
from .compare import NO_CHECK, unchanged
from .deletion import clear, delete, delete_tombstoned, holder, prune, prune_candidates
from .duplicates import check_duplicate
from .forgotten import check_forgotten, lift_tombstone
from .fields import (MemoryChange, candidate_name, check_readable, check_valid_time, description_whole, inherit,
                     prepare, reason_text, recarried, sanitize, sanitize_extra)
from .naming import check_older_file, check_same_name, inherited_title, written_to

_RESERVED_KEYS = frozenset(MemoryRecord.__dataclass_fields__) | {"metadata", "scope"}


# ---------------------------------------------------------------- gateway ops


def _no_such(layer: Layer, act: str, asked: str, name: str | None = None) -> NotFound:
    """The refusal of a ``rename`` or ``supersede`` (``act``) of ``asked`` that ``layer`` does not hold."""
    shown = asked_name(asked) if name is None else asked_name(asked, name)
    return NotFound(f"cannot {act} {shown}: no such memory in the {layer.scope} layer")


class _Unmade:
    """A transaction's view of a layer that is not made yet, for the checks :func:`_refuse_into_nothing` runs
    before making it: no memory, no tombstone of its own; its warnings are dropped (the transaction that
    follows says them)."""

    def __init__(self, layer: Layer, actor: str):
        self.layer, self.actor, self.warnings = layer, actor, []
        self.scan = Scan(entries={}, malformed=[], files={}, names={})


def _refuse_into_nothing(layer: Layer, change: MemoryChange, name: str, description, type, body,
                         old_name: str | None, *, actor: str, title, extra: dict, guard) -> None:
    """What :func:`write` refuses of ``change`` in a layer that is not made yet (it holds no memory), raised
    before its directory, lock and ``layer.json`` are made: a rename or supersede of a memory
    (:class:`NotFound`), a new memory without a description (:func:`inherit`'s :class:`InvalidInput`), an
    expected digest (:class:`Conflict`: there is no file), a file over the size ceiling or an empty valid
    time (:class:`InvalidInput`), a value another layer's tombstone or memory holds (``guard``: as the
    transaction refuses it, :class:`TombstoneRefused`, :class:`Refused`).
    trial28: `cd /var; memdir write foo` was refused but left an empty project layer the panel listed; left29:
    so did a body over the ceiling, an agent's write of a value the user layer forgot or holds."""
    if change.rename_from is not None:
        raise _no_such(layer, "rename", change.rename_from)
    if old_name:
        raise _no_such(layer, "supersede", change.supersedes, old_name)
    description, type, body = inherit(None, description, type, body, name, change.body_source)
    unchanged(None, change.expect_digest, name, "write")
    now = now_utc().replace(microsecond=0)
    record = MemoryRecord(name=name, description=description, type=type, body=body, title=title,
                          pinned=bool(change.pinned), disabled=bool(change.disabled), importance=change.importance,
                          created=now, updated=now, origin=actor, status="active", valid_from=change.valid_from,
                          valid_until=change.valid_until, extra=tuple(extra.items()))
    check_valid_time(record, change.valid_from, change.valid_until, now, [])
    check_readable(record, layer.settings.max_file_bytes)
    unmade = _Unmade(layer, actor)
    check_forgotten(unmade, None, description, body, name, guard, title)
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
    name, description, type, body, title = change.name, change.description, change.type, change.body, change.title
    pinned, disabled, importance, status = change.pinned, change.disabled, change.importance, change.status
    valid_from, valid_until, supersedes = change.valid_from, change.valid_until, change.supersedes
    reason, expect_digest, reactivate = reason_text(layer.settings, change.reason), change.expect_digest, \
        change.reactivate is True
    rename_from, clear, asked, given_title = change.rename_from, change.clear, name, title
    name, description, type, body, title, counts, warnings = prepare(
        layer.settings, name, description, type, body, title, actor=actor)
    # Known keys are the gateway's to set: a payload cannot smuggle origin or status in.
    extra = sanitize_extra({k: v for k, v in change.extra if k not in _RESERVED_KEYS}, counts)
    old_name = normalize_name(supersedes).name if supersedes else None
    if not os.path.lexists(layer.path):  # a layer not made yet holds no memory: refused before it is made
        _refuse_into_nothing(layer, change, name, description, type, body, old_name, actor=actor, title=title,
                             extra=extra, guard=guard)
    with layer.transaction(actor, session) as tx:
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
                raise InvalidInput(f"{rename_from!r} is already called {name!r}: a rename needs a different new name")
            held = written_to(tx.fresh, tx.scan.names, asked, name)  # stra-e-notes answers to Straße-notes too
            taken = tx.fresh(held if held != source.record.name else name)
            if taken is not None and taken.record.status == "superseded":  # its history keeps the name
                raise Conflict(name_kept(taken.record, of_transaction(taken.record, tx)))
            if taken is not None:
                held = taken.record.name
                raise Conflict(f"a memory called {held!r} exists; choose another name, or edit {held!r} itself")
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
        description, type, body = inherit(old, description, type, body, name, change.body_source)
        # kept by an update too; a new description replaces the text the old one carried into the body
        body = recarried(old if change.description is not None else None,
                         description_whole(layer.settings, change.description, actor), body,
                         layer.settings.limit_description, warnings,
                         written=lambda: last_written_body(layer, old.name, old.description))
        # the title given (an inherited one was checked when it was written)
        check_forgotten(tx, source, description, body, name, guard, title)  # told why when source's successor left it
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
        if old is not None and record.with_(updated=old.updated, created=old.created) == old:
            return WriteResult(name, layer.scope, "unchanged", sum(counts.values()), counts,
                               tuple(warnings), old.status, old.pinned, existing.digest)
        check_readable(record, layer.settings.max_file_bytes)  # first: the copy check reads a 13 MB body for 50 s
        # the memory it changes may hold it; one it revives was no live copy (its successor may hold the text)
        check_duplicate(tx, name, description, body, None if reviving else old, guard,
                        [n for n in (_proposed_for(record), source and source.record.name, old_name) if n])
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
    warnings.extend(tx.warnings)
    operation = "reactivated" if reviving else "renamed" if rename_from is not None else "updated" if old else "created"
    return WriteResult(name, layer.scope, operation, sum(counts.values()),
                       counts, tuple(warnings), record.status, record.pinned, event.after)


def _proposed_for(record: MemoryRecord) -> str:
    """The memory a candidate ``record`` is a proposal for: its ``candidate_for``, else its own name."""
    target = dict(record.extra).get("candidate_for")
    return target if isinstance(target, str) and target else record.name


def _dismissed(layer: Layer, record: MemoryRecord) -> str | None:
    """Why the candidate ``record`` is not proposed: a person dismissed this exact proposal
    (:mod:`memdir.layer.dismissals`); None when they did not."""
    target = _proposed_for(record)
    seen = dismissals.dismissed(layer.meta, dismissals.proposal_digest(target, record))
    if seen is None:
        return None
    when = f" on {seen['ts']}" if isinstance(seen.get("ts"), str) else ""
    return (f"not proposed: a person dismissed this exact proposal for {target!r}{when} (memdir dismiss); "
            "propose it again only with something new")


def dismiss(layer: Layer, name: str, *, actor: str, reason: str | None = None, session: str | None = None,
            expect: tuple[str, str | None, str | None] | None = None) -> str:
    """Drop the candidate ``name`` with no tombstone (a person's "not now", not "wrong"), journaled as
    ``dismiss``; the proposal's digest is remembered (:mod:`memdir.layer.dismissals`) so the same proposal,
    byte for byte, is not proposed again (:func:`write` says so). ``expect``: see :func:`set_status`.
    Returns the memory the candidate was for. Raises :class:`Refused` (not a person), :class:`NotFound`,
    :class:`InvalidInput` (not a candidate), :class:`Conflict`."""
    if actor != "human":
        raise Refused("only a person can dismiss a candidate (use the CLI or the panel)")
    key, reason = normalize_name(name).name, reason_text(layer.settings, reason)
    with layer.transaction(actor, session) as tx:
        entry = _pending(tx, key)
        target = _proposed_for(entry.record)
        _expected(tx, entry, expect)
        dismissals.remember(layer.meta, dismissals.proposal_digest(target, entry.record), target,
                            format_time(layer.journal.clock()), actor)
        tx.apply(key, None, "dismiss", reason=reason or "dismissed")
    return target


def _pending(tx, key: str):
    """The candidate ``key`` of the transaction's layer. Raises :class:`NotFound`, :class:`InvalidInput`."""
    entry = tx.fresh(key)
    if entry is None:
        raise NotFound(f"no candidate called {key!r}; see `memdir review`")
    if entry.record.status != "candidate":
        raise InvalidInput(f"{key!r} is {entry.record.status}, not a candidate")
    return entry


def _expected(tx, entry, expect: tuple[str, str | None, str | None] | None) -> None:
    """Compare-and-set of a decision: ``expect`` is (the candidate file's digest, the memory of this layer it
    changes or retires or None, that memory's digest or None: none), what the person was shown; the layer
    must still hold exactly that. Raises :class:`Conflict`."""
    if expect is None:
        return
    shown, target, target_digest = expect
    live = tx.fresh(target) if target else None
    if entry.digest != shown or (live.digest if live else None) != target_digest:
        raise Conflict(f"candidate {entry.record.name!r} changed since it was shown "
                       f"({'its text' if entry.digest != shown else 'the memory it changes'}); "
                       "look at it again and decide on what it is now")
def _other_than_proposal(entry, target: str) -> bool:
    """True when ``entry`` (a scan entry or None) holds a name a proposal for ``target`` cannot take:
    a memory that is not a pending candidate for ``target`` (that one the proposal changes)."""
    return entry is not None and not (entry.record.status == "candidate"
                                      and dict(entry.record.extra).get("candidate_for") == target)


def finish_interrupted(layer: Layer) -> int:
    """Finish the second step of two-step changes a killed process cut after
    the first (``memdir verify --repair``): a memory that ``supersedes`` an
    active one retires it; a candidate whose proposed text its target already
    holds (an approval) goes. Each is journaled. Returns how many were finished."""
    finished = 0
    with layer.transaction("human") as tx:
        tx.require_full()
        entries = tx.scan.entries
        for name, entry in sorted(entries.items()):
            record = entry.record
            old = entries.get(record.supersedes or "")
            if record.status == "active" and old is not None and old.record.status == "active":
                retire(tx, old.record, name, layer.journal.clock(), FINISHED)
                finished += 1
            target = entries.get(dict(record.extra).get("candidate_for") or "")
            if record.status == "candidate" and target is not None and target.record.status == "active" and (
                    target.record.description, target.record.body) == (record.description, record.body):
                tx.apply(name, None, "approve", reason=f"merged into {target.record.name}{FINISHED}")
                finished += 1
    return finished


def touch(layer: Layer, name: str, session: str | None = None, actor: str = "agent", times: int = 1) -> Entry | None:
    """Count a read (``times`` reads, ≥ 1: the givings of a body recall gave in a session, counted at its end:
    :func:`memdir.operations.memories.count_given`): ``reads`` + ``times`` and ``last_read`` = now, in the layer's usage file
    (:mod:`memdir.layer.usage`), never in the memory file — whatever the layer (the team layer's counts stay in
    the home) and whoever reads (``session`` and ``actor`` are accepted for the callers' symmetry; a read is
    not journaled). Returns the memory as its file is now with the read counted (None: no such memory); the
    layer is not scanned for it (:meth:`memdir.layer.layer.Layer.read_now`). The index is rebuilt only when
    the read revives a stale memory, so the injected text stays byte-stable for the provider's prompt cache
    (seed §A5). Raises :class:`StoreError`, :class:`LockTimeout`."""
    from ..layer.index import is_stale

    with layer.locked():
        entry = layer.read_now(name)
        if entry is None:
            return None
        now = now_utc()
        was_stale = is_stale(entry.record, layer.settings.stale_after_days, now)
        counted = layer.usage.record_read(entry, now.replace(microsecond=0), layer.names_now(), times)
    if was_stale:  # read again, it is back in MEMORY.md
        layer.refresh_index()
    return counted


def restore(layer: Layer, name: str, version: int, *, actor: str = "human",
            guard: list[Tombstone] = (), session: str | None = None, reactivate: bool = False,
            expect_digest: str | None | bool = NO_CHECK) -> WriteResult:
    """Write version ``version`` of ``name`` back, byte for byte, as a new ``restore`` event
    (:func:`restore_bytes`). Works for a deleted memory too. Raises :class:`NotFound`."""
    key = normalize_name(name).name
    return restore_bytes(layer, key, version_bytes(layer, key, version), f"version {version}", actor=actor,
                         guard=guard, session=session, reactivate=reactivate, expect_digest=expect_digest)


def restore_bytes(layer: Layer, name: str, data: bytes, label: str, *, actor: str = "human",
                  guard: list[Tombstone] = (), session: str | None = None, reactivate: bool = False,
                  expect_digest: str | None | bool = NO_CHECK) -> WriteResult:
    """Write ``data`` (an earlier version of memory ``name``, from the journal or from git; ``label`` says which)
    back as a ``restore`` event: byte for byte unless redaction changes it; over a superseded memory only with
    ``reactivate``; a live version of another memory's text is a copy (:func:`check_duplicate`).
    ``expect_digest``: compare-and-set on the live memory the caller read (None: it was deleted when read;
    :func:`memdir.gateway.compare.unchanged`). Raises :class:`Refused` (not a readable memory — such as the
    file with conflict markers a resolve kept as a version —, superseded, a copy the agent makes), :class:`TombstoneRefused`, :class:`Conflict` (changed since read)."""
    key = normalize_name(name).name
    if has_conflict(data):  # the file git left, kept before a resolve changed it: no memory, whatever parses
        raise Refused(f"{label} of {key!r} is not a memory: it holds an unresolved merge conflict (the file "
                      f"git left, as it was before it was settled); restore another version (`memdir history {key}`)")
    try:
        parsed = parse(data.decode("utf-8"), key)
    except (UnicodeDecodeError, MalformedMemory) as exc:
        raise Refused(f"{label} of {key!r} is not a readable memory ({exc})") from None
    record = parsed.record
    counts: dict[str, int] = {}
    clean = record.with_(description=sanitize(record.description, counts), body=sanitize(record.body, counts),
                         title=sanitize(record.title, counts) if record.title else None,
                         extra=tuple(sanitize_extra(dict(record.extra), counts).items()))
    # a version from before a rename names the memory's earlier name: written under ``key``, not byte for byte
    renamed = any(note.startswith("frontmatter name ") for note in parsed.notes)
    raw = data if clean == record and not renamed else None
    with layer.transaction(actor, session) as tx:
        existing = tx.fresh(key)
        unchanged(existing, expect_digest, key, "restore")
        check_forgotten(tx, existing, clean.description, clean.body, key, guard, clean.title)
        refuse_superseded(existing, clean.status != "superseded" and not reactivate, "restore a version of", tx)
        if existing is not None and existing.digest == digest(data):
            return WriteResult(key, layer.scope, "unchanged", status=clean.status, pinned=clean.pinned,
                               digest=existing.digest)
        if clean.status == "active":  # a live version another memory holds the text of is a copy, as for a write
            check_duplicate(tx, key, clean.description, clean.body,
                            existing.record if existing and existing.record.status == "active" else None, guard)
        event = tx.apply(key, clean, "restore", raw=raw, reason=f"restore {label}", dated=True)  # the version's dates
    return WriteResult(key, layer.scope, "updated" if existing else "created", sum(counts.values()), counts,
                       tuple(tx.warnings), clean.status, clean.pinned, event.after)


def approved_record(live: MemoryRecord, candidate: MemoryRecord, clear: tuple[str, ...] = ()) -> MemoryRecord:
    """What approving ``candidate``, a proposed change to the memory ``live``, makes of ``live``: the candidate's
    description, type and body; its title, importance, pin and valid times where it gives them (else ``live``'s);
    the fields of ``clear`` (:data:`~memdir.vocabulary.CLEARABLE`: a person emptied them while editing the
    candidate) emptied; every other field is ``live``'s. The one rule of an approval's content, for the personal
    layers (:func:`set_status`), the team's (:func:`memdir.operations.team.decide`) and what review shows
    (:mod:`memdir.operations.trust`)."""
    given = lambda key: getattr(candidate, key) if getattr(candidate, key) is not None else getattr(live, key)  # noqa: E731
    merged = {key: None if key in clear else given(key) for key in ("title", "importance", "valid_from", "valid_until")}
    return live.with_(description=candidate.description, type=candidate.type, body=candidate.body,
                      pinned=candidate.pinned or live.pinned, **merged)


def set_status(layer: Layer, name: str, *, approve: bool, actor: str, reason: str | None = None,
               guard: list[Tombstone] = (), session: str | None = None,
               expect: tuple[str, str | None, str | None] | None = None, clear: tuple[str, ...] = ()) -> Decision:
    """Approve or reject a candidate (a person's decision).

    Approve: the candidate becomes active — or, when it proposes a change to
    another memory (``candidate_for``, not superseded), that memory takes its content
    (:func:`approved_record`) and the candidate file goes. A tombstoned value is refused even here. Reject: the
    value is tombstoned and the candidate deleted. ``expect`` (candidate file digest, the memory it changes
    or retires and its digest, as shown: :func:`_expected`) is compare-and-set: :class:`Conflict` when
    either changed. ``clear``: the optional fields a person emptied while editing the candidate (approve).
    Returns the :class:`~memdir.results.Decision`: ``name`` is the memory that now holds
    the content (approve) or the rejected name; ``warnings`` what a person's approval is warned of (a
    tombstone of another layer or a teammate's the value matches: :func:`check_forgotten`; a memory
    holding the same text: :func:`memdir.gateway.duplicates.check_duplicate`)."""
    if actor != "human":
        raise Refused("only a person can approve or reject a candidate (use the CLI or the panel)")
    key, reason = normalize_name(name).name, reason_text(layer.settings, reason)
    with layer.transaction(actor, session) as tx:
        entry = _pending(tx, key)
        record = entry.record
        _expected(tx, entry, expect)
        if not approve:
            if holder(tx, key, record):  # a live memory holds the value: rejecting the copy must not freeze it
                tx.apply(key, None, "reject", reason=reason or "rejected")
            else:
                delete_tombstoned(tx, key, record, "reject", reason or "rejected")
            return Decision(key, layer.scope, key, False)
        check_forgotten(tx, entry, record.description, record.body, key, guard, record.title)
        extra = dict(record.extra)
        target = extra.pop("candidate_for", None)
        now = layer.journal.clock().replace(microsecond=0)  # as a write's (see write)
        target_entry = tx.fresh(target) if target else None
        check_duplicate(tx, target or key, record.description, record.body,
                        target_entry.record if target_entry else None, guard, [key, record.supersedes or key])
        refuse_superseded(target_entry, True, "approve a change to", tx)
        if target_entry is not None:
            merged = approved_record(target_entry.record, record, clear).with_(updated=now, origin="human", status="active")
            tx.apply(target, merged, "approve", reason=reason, data={"candidate": key})
            tx.apply(key, None, "approve", reason=f"merged into {target}")
        else:
            target = key
            replaced = tx.fresh(record.supersedes) if record.supersedes else None
            retiring = replaced is not None and replaced.record.status == "active"  # its proposal takes effect
            tx.apply(key, record.with_(status="active", origin="human", updated=now, extra=tuple(extra.items())),
                     "approve", reason=reason, data={"retires": replaced.record.name} if retiring else None)
            if retiring:
                retire(tx, replaced.record, key, layer.journal.clock())
    return Decision(target, layer.scope, key, True, tuple(tx.warnings))


def set_flag(layer: Layer, name: str, *, flag: str, value: bool, actor: str,
             session: str | None = None, expect_digest: str | None | bool = NO_CHECK) -> bool:
    """Pin/unpin or mute/unmute a memory (``flag`` = ``pinned`` | ``disabled``).
    ``value`` is True or False only, as a write's ``pinned``/``disabled`` (the text ``"false"`` is not
    False, None is not "unpin"). ``expect_digest``: compare-and-set, the digest the caller read
    (:func:`memdir.gateway.compare.unchanged`; checked even when the flag already has ``value``: the
    person saw another version). Returns False when it already had that value; :class:`InvalidInput` for
    another value, :class:`Refused` for a superseded memory, :class:`Conflict` (changed since read),
    :class:`NotFound`."""
    if flag not in ("pinned", "disabled"):
        raise InvalidInput(f"unknown flag {flag!r}")
    if not isinstance(value, bool):
        raise InvalidInput(f"the {'pin' if flag == 'pinned' else 'mute'} value must be True or False (got {value!r})")
    key = normalize_name(name).name
    with layer.transaction(actor, session) as tx:
        entry = tx.fresh(key)
        word = flag_action(flag, value)
        unchanged(entry, expect_digest, key, word)  # gone since it was read: a Conflict saying so
        if entry is None:
            raise NotFound(f"memory not found: {asked_name(name, key)} in the {layer.scope} layer")
        if getattr(entry.record, flag) == value:
            return False
        refuse_superseded(entry, value, "pin" if flag == "pinned" else "mute", tx)
        updated = layer.journal.clock().replace(microsecond=0)
        tx.apply(key, entry.record.with_(**{flag: value}, updated=updated), word,
                 reason=f"{flag}={str(value).lower()}")
        return True


def flag_action(flag: str, value: bool) -> str:
    """The journal action of setting ``flag`` (``pinned`` | ``disabled``) to ``value``: pin, unpin, mute, unmute."""
    return ("pin" if flag == "pinned" else "mute") if value is not False else ("unpin" if flag == "pinned" else "unmute")


def receipt(layer: Layer, data: dict, *, actor: str = "extracted", session: str | None = None,
            action: str = "receipt") -> Event:
    """Journal one consolidation receipt (no file changes); ``action`` ``intent``: a step of a run before its
    receipt (:mod:`memdir.consolidation.intent`)."""
    with layer.transaction(actor, session) as tx:
        event = layer.journal.append(actor, action, None, None, None, session=session, data=data)
        tx.events.append(event)
        tx.changed = True
    return event


def move_layer(layer: Layer, target: Path, root: Path, *, actor: str = "human", reason: str | None = None,
               info: dict | None = None) -> Event:
    """Re-key a project layer (a moved or renamed project): under its lock, journal a ``move`` event, record
    ``root`` and ``info`` (:func:`memdir.git.identity`) in ``layer.json`` and rename the directory to
    ``target``, which must not exist. ``reason`` is journaled as every reason is
    (:func:`memdir.gateway.fields.reason_text`). Raises :class:`Conflict`, :class:`StoreError`,
    :class:`InvalidInput` (a reason that is not text)."""
    reason = reason_text(layer.settings, reason)
    with layer.transaction(actor) as tx:  # the transaction has written layer.json if it was missing
        if target.exists():
            raise Conflict(f"{target} exists; memdir does not overwrite a layer")
        old = read_layer_info(layer.meta) or {}
        tx.events.append(event := layer.journal.append(
            actor, "move", None, None, None, reason=reason, data={"from_root": old.get("root"), "to_root": str(root),
                                                                  "from_key": layer.path.name, "to_key": target.name}))
        write_layer_info(layer.meta, {**old, **(info or {}), "kind": "project", "root": str(root)})
        try:
            target.parent.mkdir(parents=True, exist_ok=True)
            os.rename(layer.path, target)
        except OSError as exc:
            raise StoreError(f"cannot move {layer.path} to {target}: {exc.strerror or exc}") from None
    return event


__all__ = [
    "PruneCandidate", "WriteResult", "approved_record", "check_forgotten", "clear", "delete", "dismiss",
    "finish_interrupted", "flag_action", "lift_tombstone", "move_layer", "prune",
    "prune_candidates", "receipt", "restore", "restore_bytes", "set_flag", "set_status", "touch", "write",
]
