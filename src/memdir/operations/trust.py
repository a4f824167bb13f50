"""Trust: what only a person decides (DESIGN §4, §5).

Candidates wait for a person's review (:func:`approve`, :func:`reject`);
only a person lifts a tombstone; pins and mutes are flags on a memory. Each
function takes a :class:`~memdir.session.Session` and returns a typed
result (:mod:`memdir.results`). The gateway checks the actor again:
an agent's session cannot approve, reject or lift.
"""

from __future__ import annotations

from ..errors import NotFound, Refused, StoreError
from ..gateway import changes as gateway
from ..results import Decision, FlagResult, LiftResult, ReviewResult, TombstoneInfo, TombstoneList
from ..session import Session
from ..tombstones.match import ONLY_A_PERSON_LIFTS, forgotten_by
from ..tombstones.stones import unreadable_tombstones
from . import team as teamops
from .lookup import find, guard, unsearched
from .memories import list_memories


def tombstones(session: Session, scope: str | None = None) -> TombstoneList:
    """The tombstones in force in the session's layers (or ``scope``'s), the team candidates' a person
    rejected among the team's (:func:`memdir.operations.team.tombstone_layers`), oldest first per layer. A layer
    whose tombstones cannot be read, and a team tombstone file that does not read, are left out and named
    in the warnings. Raises :class:`StoreError` when no layer asked for could be read, :class:`ScopeError`."""
    found, warnings, failed = [], [], []
    layers = teamops.tombstone_layers(session, scope)
    for layer in layers:
        try:
            stones = layer.tombstones()
            unread = unreadable_tombstones(layer.tombstone_file)
        except StoreError as exc:  # one unreadable layer never hides the others' tombstones
            failed.append(exc)
            warnings.append(f"the {layer.scope} layer's tombstones are not listed: {exc}")
            continue
        found += [TombstoneInfo(stone.id, layer.scope, stone.name, stone.description, stone.actor, stone.reason,
                                stone.ts, forgotten_by(stone)) for stone in stones]
        warnings += [f"the {layer.scope} layer's tombstones are not all listed: {path}: {why}" for path, why in unread]
    if failed and len(failed) == len(layers):
        raise failed[0]
    return TombstoneList(tuple(found), tuple(warnings))


def lift_tombstone(session: Session, tombstone_id: str, *, reason: str | None = None,
                   scope: str | None = None) -> LiftResult:
    """Lift a tombstone so its value may be written again (a person only),
    journaled; with ``scope``, only a tombstone of that layer (the team's: of rejected team candidates too,
    :func:`memdir.operations.team.tombstone_layers`). A layer whose tombstones cannot be read is
    passed over. Raises :class:`Refused`, :class:`NotFound`, :class:`StoreError` (the id is in no layer
    read, and a layer could not be read: it may be there), :class:`ScopeError`."""
    if session.actor != "human":
        raise Refused(ONLY_A_PERSON_LIFTS)
    unreadable = None
    for layer in teamops.tombstone_layers(session, scope):
        try:
            held = any(stone.id == tombstone_id for stone in layer.tombstones())
        except StoreError as exc:  # one unreadable layer never keeps another layer's tombstone in force
            unreadable = exc
            continue
        if held:
            stone = gateway.lift_tombstone(layer, tombstone_id, actor=session.actor, reason=reason)
            return LiftResult(stone.id, layer.scope, stone.name)
    if unreadable is not None:
        raise unreadable
    if scope:
        raise NotFound(f"no tombstone {tombstone_id!r} in the {scope} layer")
    raise NotFound(f"no tombstone {tombstone_id!r}; see `memdir tombstones`" + unsearched(session, None))


def review(session: Session, scope: str | None = None) -> ReviewResult:
    """Candidates waiting for a person, per scope, in index order."""
    listed = list_memories(session, scope, include_all=True)
    return ReviewResult(tuple(m for m in listed.memories if m.status == "candidate"))


def _team_decision(session: Session, name: str, scope: str | None, *, approve: bool,
                   reason: str | None) -> Decision | None:
    """A decision on a team candidate waiting in the home, when ``name`` is
    one and no candidate of that name waits in another layer in scope."""
    if scope not in (None, "team"):
        return None
    if scope is None:
        try:
            _, entry = find(session, name)
            if entry.record.status == "candidate":
                return None
        except NotFound:
            pass
    return teamops.decide(session, name, approve=approve, reason=reason)


def approve(session: Session, name: str, scope: str | None = None, *, reason: str | None = None) -> Decision:
    """Publish a candidate (a person only); a tombstoned value is refused. A
    team candidate is written into the team directory, for the person to commit.
    Raises :class:`Refused`, :class:`NotFound`, :class:`TombstoneRefused`."""
    team = _team_decision(session, name, scope, approve=True, reason=reason)
    if team is not None:
        return team
    layer, entry = find(session, name, scope)
    stones = guard(session, layer)
    target = gateway.set_status(layer, entry.record.name, approve=True, actor=session.actor, reason=reason,
                                guard=stones, session=session.id)
    return Decision(target, layer.scope, entry.record.name, True, stones.skipped)


def reject(session: Session, name: str, scope: str | None = None, *, reason: str | None = None) -> Decision:
    """Reject a candidate (a person only): it is deleted and its value
    tombstoned. Raises :class:`Refused`, :class:`NotFound`."""
    team = _team_decision(session, name, scope, approve=False, reason=reason)
    if team is not None:
        return team
    layer, entry = find(session, name, scope)
    gateway.set_status(layer, entry.record.name, approve=False, actor=session.actor, reason=reason,
                       session=session.id)
    return Decision(entry.record.name, layer.scope, entry.record.name, False)


def set_flag(session: Session, name: str, flag: str, value: bool = True, scope: str | None = None) -> FlagResult:
    """Pin (``flag="pinned"``: leads the index) or mute (``"disabled"``: kept
    and listed, out of the index) a memory, or undo it. Raises :class:`NotFound`,
    :class:`InvalidInput`."""
    layer, entry = find(session, name, scope)
    changed = gateway.set_flag(layer, entry.record.name, flag=flag, value=value, actor=session.actor,
                               session=session.id)
    return FlagResult(entry.record.name, layer.scope, flag, value, changed)


__all__ = ["approve", "lift_tombstone", "reject", "review", "set_flag", "tombstones"]
