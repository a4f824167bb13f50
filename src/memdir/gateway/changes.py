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
from typing import TYPE_CHECKING

from ..errors import Conflict, InvalidInput, NotFound, Refused, StoreError
from ..files.conflicts import has_conflict
from ..files.fsio import digest
from ..files.layout import read_layer_info, write_layer_info
from ..files.memfile import MalformedMemory, MemoryRecord, format_time, parse
from ..files.scan import Entry
from ..layer import dismissals
from ..layer.history import version_bytes
from ..layer.interrupted import FINISHED, retire
from ..layer.journal import Event, now_utc
from ..layer.layer import Layer
from ..layer.succession import refuse_superseded
from ..results.writes import WriteResult
from ..text.names import asked_name, normalize_name
from ..tombstones.match import Tombstone
from .compare import NO_CHECK, unchanged
from .deletion import clear, delete, delete_tombstoned, holder, prune, prune_candidates
from .duplicates import check_duplicate
from .fields import reason_text, sanitize, sanitize_extra
from .forgotten import check_forgotten, lift_tombstone
from .writing import proposed_for, write

if TYPE_CHECKING:
    from ..results.trust import Decision


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
        target = proposed_for(entry.record)
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
    """Write version ``version`` of ``name`` back as a new ``restore`` event dated now
    (:func:`restore_bytes`). Works for a deleted memory too. Raises :class:`NotFound`."""
    key = normalize_name(name).name
    return restore_bytes(layer, key, version_bytes(layer, key, version), f"version {version}", actor=actor,
                         guard=guard, session=session, reactivate=reactivate, expect_digest=expect_digest)


def restore_bytes(layer: Layer, name: str, data: bytes, label: str, *, actor: str = "human",
                  guard: list[Tombstone] = (), session: str | None = None, reactivate: bool = False,
                  expect_digest: str | None | bool = NO_CHECK) -> WriteResult:
    """Write ``data`` (an earlier version of memory ``name``, from the journal or from git; ``label`` says which)
    back as a ``restore`` event: a restore is a change made now (:func:`restored`: ``updated`` is now, ``created``
    kept), so prune and the index's decay date it from the restore, not from the version's old ``updated``; the
    rest of the version as it was, unless redaction changes it; over a superseded memory only with
    ``reactivate``; a live version of another memory's text is a copy (:func:`check_duplicate`). The one path
    every restore takes (a version: :func:`restore`; a team commit: :func:`memdir.operations.team.restore_commit`).
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
    now = layer.journal.clock().replace(microsecond=0)  # as a write's (see write)
    with layer.transaction(actor, session) as tx:
        existing = tx.fresh(key)
        unchanged(existing, expect_digest, key, "restore")
        check_forgotten(tx, existing, clean.description, clean.body, key, guard, clean.title)
        refuse_superseded(existing, clean.status != "superseded" and not reactivate, "restore a version of", tx)
        # the live memory is this version, but for its dates (a restore of it dated them: break43, each restore
        # again wrote a version and reset prune's clock)
        if existing is not None and (existing.digest == digest(data) or existing.record == clean.with_(
                created=existing.record.created, updated=existing.record.updated)):
            return WriteResult(key, layer.scope, "unchanged", status=clean.status, pinned=clean.pinned,
                               digest=existing.digest)
        if clean.status == "active":  # a live version another memory holds the text of is a copy, as for a write
            check_duplicate(tx, key, clean.description, clean.body,
                            existing.record if existing and existing.record.status == "active" else None, guard)
        event = tx.apply(key, restored(clean, existing.record if existing is not None else None, now), "restore",
                         reason=f"restore {label}")
    return WriteResult(key, layer.scope, "updated" if existing else "created", sum(counts.values()), counts,
                       tuple(tx.warnings), clean.status, clean.pinned, event.after)


def restored(version: MemoryRecord, live: MemoryRecord | None, now) -> MemoryRecord:
    """What restoring ``version`` over ``live`` (None: the memory is deleted) writes at ``now`` (a UTC datetime,
    whole seconds): ``version`` with ``updated`` = ``now`` — a restore is a change made now, or prune would
    delete, and the index decay, a memory just brought back for the age of the version's last change — and
    ``created`` = the version's, else ``live``'s, else ``now`` (the memory was made when it was made). The one
    rule of a restore's dates; :meth:`memdir.layer.transaction.Transaction.apply` still keeps ``updated`` from
    going before ``created`` or ``live``'s ``updated`` (a clock set back)."""
    created = version.created or (live.created if live is not None else None) or now
    return version.with_(created=created, updated=now)


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
    Returns the :class:`~memdir.results.trust.Decision`: ``name`` is the memory that now holds
    the content (approve) or the rejected name; ``warnings`` what a person's approval is warned of (a
    tombstone of another layer or a teammate's the value matches: :func:`check_forgotten`; a memory
    holding the same text: :func:`memdir.gateway.duplicates.check_duplicate`)."""
    # a person's decision, not a write's: off the write's path
    from ..results.trust import Decision

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
    "WriteResult", "approved_record", "check_forgotten", "clear", "delete", "dismiss",
    "finish_interrupted", "flag_action", "lift_tombstone", "move_layer", "prune",
    "prune_candidates", "receipt", "restore", "restore_bytes", "restored", "set_flag", "set_status", "touch", "write",
]
