"""Applying one proposal of a consolidation run against the run's snapshot (DESIGN §7, step 5).

:func:`snapshot` takes every layer's memories and tombstones before the extractor is called (no lock held);
:func:`apply_proposal` then applies one ``create``, ``update``, ``supersede`` or ``forget`` under its layer's lock,
compare-and-set against that snapshot: a target whose digest moved (edited, pinned, deleted, created meanwhile) is
skipped and reported, never overwritten. Every write goes through the gateway as actor ``extracted``. Consolidation
revises its own unreviewed memories in place; a change to a memory a person or the agent wrote, or an update that
drifts off the memory's topic, becomes a separate ``candidate`` memory (``candidate_for: <target>``). A proposal
identical to what is stored, or an update or supersede that only restates what its target says
(:func:`memdir.consolidation.restating.restated`), is a no-op;
one matching a tombstone is refused; forgetting a memory a person or the agent wrote is left to a person. The run
that calls these is :func:`memdir.consolidation.consolidate.consolidate`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from ..errors import (
    Conflict,
    InvalidInput,
    LockTimeout,
    NotFound,
    Refused,
    ScopeError,
    StoreError,
    TombstoneRefused,
)
from ..gateway.fields import (
    MemoryChange,
    candidate_name,
    free_name,
    inherit,
    prepare,
    uncut_body,
)
from ..gateway.naming import name_taken
from ..layer.succession import successor, superseded_refusal
from ..operations.lookup import guard
from ..operations.memories import delete, write
from ..session import Session
from ..text.names import normalize_name, same_name
from ..tombstones.match import Tombstone
from ..tombstones.match import match as match_tombstone
from ..tombstones.refusals import outcome
from .extractors.subjects import drifts
from .proposals import Outcome, Proposal
from .restating import restated, saved_by


@dataclass
class Snapshot:
    """Every layer's memories and the tombstones as the run found them before its extractor call: ``entries``
    scope → {name: Entry}, ``stones`` every layer's tombstones, ``skipped`` a warning for each layer whose tombstones
    could not be read. A proposal is applied against it, compare-and-set (:func:`apply_proposal`)."""

    entries: dict            # scope -> {name: Entry}
    stones: list[Tombstone]
    skipped: tuple[str, ...] = ()  # layers whose tombstones could not be read (lookup.guard), a warning each

    def find(self, name: str, scope: str | None) -> tuple[str, Any] | None:
        """``(scope, Entry)`` of the memory named exactly ``name`` in ``scope``, or in the first
        layer holding it when ``scope`` is None or not a layer of the snapshot; None when none does."""
        scopes = [scope] if scope in self.entries else list(self.entries)
        for s in scopes:
            if name in self.entries[s]:
                return s, self.entries[s][name]
        return None


def snapshot(session: Session) -> Snapshot:
    """The :class:`Snapshot` of every layer of ``session`` now (a file gone meanwhile is left out)."""
    entries = {layer.scope: dict(layer.scan().entries.items()) for layer in session.layers()}  # a file gone: left out
    stones = guard(session)  # every layer's: a proposal's layer is chosen after
    return Snapshot(entries, list(stones), stones.skipped)


def saying(snap: Snapshot, text: str) -> tuple[str, str] | None:
    """``(scope, name)`` of the first live memory (active, not muted) of ``snap``, layer by layer, that already says
    ``text`` (:func:`memdir.consolidation.restating.said_by_any`, the one rule of both extractors); None when none
    does (the finding adds or corrects something: "the staging deploy no longer needs the VPN" beside "… needs the
    VPN"). A finding it returns for is a restatement: not kept pending."""
    from .restating import said_by_any

    for scope, entries in snap.entries.items():
        live = [e.record for e in entries.values() if e.record.status == "active" and not e.record.disabled]
        found = said_by_any(live, text)
        if found is not None:
            return scope, found.name
    return None


def _own(layer, entry) -> bool:
    """True when consolidation wrote this memory and no one else touched it since."""
    record = entry.record
    if record.origin != "extracted" or record.status not in ("active", "candidate"):
        return False
    from ..layer.history import history as layer_history

    history = layer_history(layer, record.name)
    return bool(history) and history[-1].actor == "extracted"


def _candidate_name(target: str, taken: dict, layer) -> tuple[str, str | None]:
    """The name of the candidate proposing a change to ``target`` (:func:`candidate_name`) and its
    current digest (None: new). Reuses consolidation's own pending candidate."""
    def other(name: str) -> bool:
        entry = taken.get(name)
        return entry is not None and not (dict(entry.record.extra).get("candidate_for") == target
                                          and _own(layer, entry))

    name = candidate_name(target, other)
    return name, taken[name].digest if name in taken else None


def _superseded_so(writer: Session, entries: dict, p: Proposal, found) -> str | None:
    """The name of the live successor (``found``: :func:`successor` of the proposal's superseded target)
    that holds what the supersede ``p`` says — its description, and its body when ``p`` gives one, as
    the gateway would write them (:func:`prepare`) — else None: a rerun of a supersede already made."""
    entry = entries.get(found.name) if found is not None else None
    if entry is None or entry.record.status != "active":
        return None
    try:
        _, desc, _, body, *_ = prepare(writer.settings, p.name or found.name, p.description, p.type, p.body, p.title,
                                       actor="extracted")
    except InvalidInput:
        return None
    same = entry.record.description == desc and (p.body is None or entry.record.body == body)
    return found.name if same else None


def apply_proposal(writer: Session, snap: Snapshot, index: int, p: Proposal, dry_run: bool) -> Outcome:
    """Apply proposal ``p`` (number ``index`` of the run) as ``writer`` (actor ``extracted``) against ``snap``, under
    its layer's lock and compare-and-set: a target whose digest moved since the snapshot is skipped, never
    overwritten. A change to a memory a person or the agent wrote, or an update drifting off its topic, becomes a
    ``candidate``; a proposal identical to what is stored is unchanged; one matching a tombstone is refused.
    ``dry_run``: decide, write nothing (``would-…`` results). Returns its :class:`Outcome`: a proposal that cannot be
    applied (invalid, refused, not found, changed meanwhile, locked, unreadable) is an outcome, not an exception."""
    settings = writer.settings
    scopes = writer.scopes()
    fail = lambda result, detail, **kw: Outcome(index, p.action, result, detail=detail, **kw)
    try:
        target = normalize_name(p.target).name if p.target else None
        named = normalize_name(p.name) if p.name else None
    except InvalidInput as exc:
        return fail("invalid", str(exc))
    name = named.name if named else None
    # A name of no Latin letters (本番バックアップ) becomes m-<hash>: its spelling is the title, as for a person's write.
    title = p.title or (named.title if named else None)
    action = p.action
    entry = None
    if action == "create":
        scope = p.scope or ("user" if p.type == "user" else "project")
        if scope not in scopes:
            scope = next((s for s in scopes if s != scope), None) if (scope == "user" or p.type == "user") else None
        if scope is None:
            return fail("refused", "no usable layer: the project scope needs a project root", name=name)
        if name in snap.entries.get(scope, {}):
            # An exact name that already exists: the proposal updates it (never a similarity guess),
            # unless it is another name that only normalizes alike (C# tips over C++ tips).
            action, target, entry = "update", name, snap.entries[scope][name]
            if not same_name(p.name, entry.record.name, entry.record.title):
                return fail("refused", name_taken(p.name, entry.record.name, entry.record.title,
                                                  snap.entries[scope]), name=name, scope=scope)
    else:
        found = snap.find(target, p.scope)
        if found is None:
            return fail("not-found", f"no memory named {target!r}", target=target)
        scope, entry = found
        if action != "forget" and entry.record.status == "superseded":  # the successor is what to change
            try:
                found = successor(entry.record, snap.entries[scope].get, writer.layer(scope).tombstones)
            except StoreError as exc:
                return fail("skipped-unreadable", str(exc), target=target, scope=scope)
            if action == "supersede" and (held := _superseded_so(writer, snap.entries[scope], p, found)):
                return fail(("would-" if dry_run else "") + "unchanged",
                            f"already superseded: {held!r} holds this change", name=held, target=target, scope=scope)
            return fail("refused", superseded_refusal(entry.record, found, scope=scope), target=target, scope=scope)
    layer = writer.layer(scope)
    if action != "forget":
        try:
            _, desc, kind, body, title, counts, warnings = prepare(settings, name or target, p.description,
                                                                   p.type, p.body, title, actor="extracted")
        except InvalidInput as exc:
            return fail("invalid", str(exc), name=name, target=target, scope=scope)
        old = entry.record if entry is not None else None
        if old is not None and None in (kind, body):  # what a proposal leaves out keeps the memory's
            desc, kind, body = inherit(old, desc, kind, body, scope=scope)
        if old is not None and (old.description, old.body, old.type) == (desc, body, kind) and action == "update":
            return fail(("would-" if dry_run else "") + "unchanged", "identical to what is stored",
                        name=target, target=target, scope=scope)
        if action in ("update", "supersede") and restated(old, p):  # restate47: "needs the VPN" to "…WireGuard VPN"
            return fail(("would-" if dry_run else "") + "unchanged", f"{target!r} already says it: nothing new",
                        name=target, target=target, scope=scope)
        same = next((e.record.name for e in snap.entries.get(scope, {}).values()
                     if (e.record.description, e.record.body) == (desc, body)), None)
        if same is not None and action == "create":
            return fail(("would-" if dry_run else "") + "unchanged", f"identical to {same!r}", name=same,
                        scope=scope)
        found = match_tombstone(snap.stones, desc, body, name=name or target, actor="extracted", title=title)
        whole = uncut_body(settings, p.body, "extracted")  # a forgotten body over the limit, cut, would pass
        if found is None and whole is not None:
            found = match_tombstone(snap.stones, desc, whole, name=name or target, actor="extracted", title=title)
        if found is not None:
            return fail("refused-tombstone", outcome(*found), name=name or target, target=target, scope=scope)
    else:
        counts, warnings = {}, []
    notes = tuple(warnings) + ((f"{sum(counts.values())} secret(s) redacted",) if counts else ())
    if action != "forget":
        notes += snap.skipped  # checked without the tombstones of a layer that could not be read
    own = entry is not None and _own(layer, entry)
    drift = None
    if action == "update" and own:
        drift = drifts(entry.record.description, entry.record.body, desc, body)
    if action == "forget" and not own:
        return fail("needs-review", f"{target!r} was written by {entry.record.origin or 'a person'}; "
                    f"only a person forgets it (memdir forget {target})", target=target, scope=scope)
    # A change to what a person or the agent wrote, or an update that drifts off the memory's topic, waits for review.
    candidate = action in ("update", "supersede") and (not own or drift is not None)
    if action == "supersede" and own:
        # The successor's name, unless the proposal gives one: the first -v2[-N] no memory of the layer holds.
        name = name if name and name != target else free_name(target, "v2", snap.entries.get(scope, {}).__contains__)
    planned = {"create": "created", "update": "updated", "supersede": "superseded", "forget": "forgotten"}[action]
    if candidate:
        planned = "candidate"
    if dry_run:
        verb = {"created": "create", "updated": "update", "superseded": "supersede", "forgotten": "forget",
                "candidate": "candidate"}[planned]
        shown = name if action != "update" else target
        if candidate:  # the name the real run gives the candidate, from the same rule
            shown = _candidate_name(target, layer.scan().entries, layer)[0]
        return Outcome(index, p.action, "would-" + verb, name=shown, target=target, scope=scope,
                       detail=drift or "", warnings=notes)
    reason = "consolidation" + (f": {p.evidence[:120]}" if p.evidence else "")
    try:
        # Holding the layer lock across check and write makes the re-check and
        # the write one step (the lock is re-entrant for the gateway inside).
        with layer.locked():
            current = layer.scan().entries
            if target is not None:
                now = current.get(target)
                if now is None or now.digest != entry.digest:
                    return fail("skipped-changed", f"{target!r} changed since the snapshot; not overwritten",
                                target=target, scope=scope)
            if action == "create" and name in current:
                return fail("skipped-changed", f"{name!r} was created meanwhile; not overwritten",
                            name=name, scope=scope)
            if candidate:
                cname, cdigest = _candidate_name(target, current, layer)
                # The candidate is a new file: it is given the prepared body, which is the target's when
                # the proposal leaves it out (the gateway would give a new file an empty one).
                done = write(writer, MemoryChange(cname, p.description, kind, body, title=p.title,
                                                  importance=p.importance, status="candidate", reason=reason,
                                                  expect_digest=cdigest,
                                                  extra={"candidate_for": target, "candidate_action": action}), scope)
                if done.operation == "dismissed":  # a person dismissed this very proposal before
                    return fail("skipped-dismissed", "; ".join(done.warnings), name=cname, target=target, scope=scope)
                if done.operation == "unchanged":  # a run killed before its receipt made it: no change counted twice
                    return fail("unchanged", f"already proposed: {cname!r} holds this change and waits for review",
                                name=cname, target=target, scope=scope)
                return Outcome(index, p.action, "candidate", name=cname, target=target, scope=scope,
                               detail=(f"{drift}; " if drift else "") + f"waits for review (memdir approve {cname})",
                               warnings=notes)
            if action == "create":
                done = write(writer, MemoryChange(name, p.description, kind, p.body, title=title,
                                                  importance=p.importance, reason=reason, expect_digest=None), scope)
                if done.operation == "dismissed":  # proposed for the team: a person dismissed this one before
                    return fail("skipped-dismissed", "; ".join(done.warnings), name=name, scope=scope)
                return Outcome(index, p.action, "created", name=name, scope=scope, warnings=notes)
            if action == "update":
                write(writer, MemoryChange(target, p.description, kind, p.body, title=p.title, importance=p.importance,
                                           reason=reason, expect_digest=entry.digest), scope)
                return Outcome(index, p.action, "updated", name=target, target=target, scope=scope, warnings=notes)
            if action == "supersede":
                if name in current:
                    return fail("skipped-changed", f"{name!r} already exists", name=name, target=target, scope=scope)
                write(writer, MemoryChange(name, p.description, kind, p.body, title=p.title, importance=p.importance,
                                           supersedes=target, reason=reason, expect_digest=None), scope)
                return Outcome(index, p.action, "superseded", name=name, target=target, scope=scope,
                               warnings=notes)
            delete(writer, target, scope, reason=reason, forget=True)
            return Outcome(index, p.action, "forgotten", target=target, scope=scope)
    except Conflict as exc:
        return fail("skipped-changed", str(exc), name=name, target=target, scope=scope)
    except TombstoneRefused as exc:
        return fail("refused-tombstone", outcome(exc.stone, exc.why), name=name or target, target=target,
                    scope=scope)
    except LockTimeout as exc:
        return fail("skipped-locked", str(exc), name=name, target=target, scope=scope)
    except StoreError as exc:  # the layer (its tombstones, a file) cannot be read: this proposal waits, not the run
        return fail("skipped-unreadable", str(exc), name=name, target=target, scope=scope)
    except Refused as exc:  # a superseded target: the successor is named in the detail
        return fail("refused", str(exc), name=name, target=target, scope=scope)
    except (InvalidInput, NotFound, ScopeError) as exc:
        return fail("invalid", str(exc), name=name, target=target, scope=scope)


__all__ = ["Snapshot", "apply_proposal", "restated", "saved_by", "saying", "snapshot"]
