"""A team layer's candidates (DESIGN §2): what the agent, consolidation or an import writes for the team
waits in this person's home (:func:`propose`, in :func:`candidates`) until a person approves it into the team
directory or rejects it (:func:`decide`, which :func:`memdir.operations.trust.approve` and ``reject`` call);
:func:`pending` lists them, :func:`tombstone_layers` adds the home's rejections to the tombstones a person
lists. Drawn out of :mod:`memdir.operations.team` (the team directory itself: init, trust, status, promote,
git history), which re-exports these names.
"""

from __future__ import annotations

from dataclasses import replace

from ..errors import Conflict, Refused
from ..gateway import changes as gateway
from ..gateway.fields import MemoryChange, inherit
from ..layer.team import candidate_layer
from ..results.memories import WriteResult
from ..results.trust import Decision
from ..session import Session
from ..text.names import normalize_name
from ..vocabulary import CLEARABLE
from .lookup import guard, held_name
from .moves import APPROVED


def candidates(session: Session):
    """The layer, in this person's home, where their candidates for the team wait
    (:func:`memdir.layer.team.candidate_layer`). Raises :class:`ScopeError` without a project."""
    session.project()
    return candidate_layer(session.home, session.project_root, session.settings)


def propose(session: Session, change: MemoryChange, *, edited: bool = False) -> WriteResult:
    """What the agent or consolidation writes for the team (``change``, its valid times datetimes): a
    candidate in this person's home, never a file in the repository, checked against every layer's
    tombstones. A text field not given keeps the team memory's (:func:`memdir.gateway.fields.inherit`);
    ``status``, ``reactivate`` and an ``expect_digest`` other than None (the candidate must be new) are
    not the proposer's to set. A rename (``rename_from``) or a ``clear`` of a team memory is a person's
    change: :class:`Refused` (a candidate cannot carry it, and it would otherwise be proposed as a new
    memory or dropped). ``edited``: a person's correction of the waiting candidate, approved at once
    (:func:`memdir.operations.trust.approve`, which carries its ``clear`` into the approval): a clear
    empties the candidate's field; a rename is still refused, told as the person's next step."""
    name, description, type, body = change.name, change.description, change.type, change.body
    if change.rename_from is not None and edited:
        raise Refused(f"a candidate for the team keeps its name while it waits: approve it as {change.rename_from!r}, "
                      f"then rename the team memory (memdir write {name} --rename-from {change.rename_from} "
                      "--scope team)")
    if change.rename_from is not None or (change.clear and not edited):
        what = (f"renaming {change.rename_from!r} to {name!r}" if change.rename_from is not None
                else f"clearing {', '.join(change.clear)}")
        raise Refused(f"{what} in the team layer is a person's change; a candidate cannot propose it "
                      "(a person runs it with scope team)")
    stored = held_name(session.layer("team"), name) if session.has_team() else None
    if stored is not None:  # the team memory's own file name: one an older memdir gave it too (odz-notes)
        name, change = stored, replace(change, name=stored if stored != normalize_name(name).name else name)
    if None in (description, type, body) or change.body_source:
        entry = session.layer("team").scan().entries.get(normalize_name(name).name)
        description, type, body = inherit(entry.record if entry else None, description, type, body,
                                          normalize_name(name).name, change.body_source, scope="team")
    layer = candidates(session)
    proposal = replace(change, description=description, type=type, body=body, status="candidate",
                       reactivate=False, body_source=None,
                       expect_digest=change.expect_digest if change.expect_digest is None else False)
    stones = guard(session, layer)  # every layer's: the candidate layer is outside the session's
    result = gateway.write(layer, proposal, actor=session.actor, session=session.id, guard=stones)
    return replace(result, warnings=(*result.warnings, *stones.skipped)) if stones.skipped else result


REJECTIONS = "your rejections, in your home"  # where a rejected team candidate's tombstone lives (teammates never see it)


def tombstone_layers(session: Session, scope: str | None = None) -> list:
    """The layers whose tombstones a person lists and lifts: the session's (or ``scope``'s), and, where the
    team's are, the home's layer of team candidates, whose rejected values it keeps (it answers as
    ``team``): a refusal of the agent's next team proposal names one of them. Raises :class:`ScopeError`."""
    layers = session.layers(scope) if scope else session.layers()
    if session.project_root is not None and any(layer.scope == "team" for layer in layers):
        layers = [*layers, candidates(session)]
    return layers


def pending(session: Session) -> list:
    """This person's candidates for the team, by name order (records)."""
    return [entry.record for entry in pending_entries(session)]


def pending_entries(session: Session) -> list:
    """This person's candidates for the team, by name order, as their files are scanned
    (:class:`memdir.files.scan.Entry`: the record and the digest of the candidate's own file, which a
    listing shows as its ``file_digest``, never the team memory's of the same name)."""
    if session.project_root is None:
        return []
    scan = candidates(session).scan()
    return [entry for _, entry in sorted(scan.entries.items(), key=lambda item: item[0])]


def decide(session: Session, name: str, *, approve: bool, reason: str | None = None,
           expect: tuple | None = None, clear: tuple[str, ...] = (), layer=None) -> Decision:
    """Approve (write it into the team directory as a person's memory, to be
    committed: the content :func:`memdir.gateway.changes.approved_record` gives) or reject (tombstone it in
    the home) the team candidate ``name``. A person only. ``expect`` (the candidate's digest, the team
    memory it is for and that memory's digest or None, as review showed them) is compare-and-set:
    :class:`Conflict` when either changed; the candidate's lock is held from the check to its removal, so
    of two deciding at once one decides and the other gets :class:`Conflict` ("decided meanwhile").
    ``layer``: the candidates' layer (:func:`candidates`) when the caller already holds its lock (the lock
    is re-entrant for that one object only). ``clear``: the optional fields a person emptied while
    editing the candidate. Raises :class:`Refused`, :class:`Conflict`, :class:`TombstoneRefused`,
    :class:`ScopeError` without a project."""
    if session.actor != "human":
        raise Refused("only a person can approve or reject a candidate (use the CLI or the panel)")
    layer = layer if layer is not None else candidates(session)
    key = normalize_name(name).name
    with layer.locked():  # re-entrant: the gateway's transactions below take it again
        entry = layer.scan().entries.get(key)
        if entry is None:
            raise Conflict(f"candidate {key!r} was decided meanwhile; look at the review again")
        if expect is not None and entry.digest != expect[0]:
            raise Conflict(f"candidate {key!r} changed since it was shown (its text); look at it again "
                           "and decide on what it is now")
        if not approve:
            return gateway.set_status(layer, key, approve=False, actor="human", reason=reason, session=session.id,
                                      expect=(expect[0], None, None) if expect else None)
        record = entry.record
        extra = dict(record.extra)
        target = extra.pop("candidate_for", None) or key
        extra.pop("candidate_action", None)
        team = session.layer("team")
        live = team.scan().entries.get(target)
        # What review showed: a new memory is the candidate itself, a change the one rule of an approval's content.
        shown = gateway.approved_record(live.record, record, clear) if live else record
        emptied = tuple(key for key in sorted(CLEARABLE) if getattr(shown, key) is None) if live else ()
        approved = MemoryChange(target, shown.description, shown.type, shown.body, title=shown.title,
                                importance=shown.importance, pinned=shown.pinned, valid_from=shown.valid_from,
                                valid_until=shown.valid_until, extra=extra, clear=emptied,
                                reason=reason or f"approved team candidate {key}",
                                expect_digest=expect[2] if expect is not None else False)
        stones = guard(session, team)
        try:
            written = gateway.write(team, approved, actor="human", session=session.id, guard=stones,
                                    action="approve")
        except Conflict as exc:
            if expect is None:
                raise
            raise Conflict(f"candidate {key!r} changed since it was shown (the team memory {target!r} it changes: "
                           f"{exc}); look at it again and decide on what it is now") from None
        gateway.delete(layer, key, actor="human", tombstone=False, action="approve",
                       reason=APPROVED.format(target=target), session=session.id)
    return Decision(target, "team", key, True, (*written.warnings, *stones.skipped))


__all__ = ["REJECTIONS", "candidates", "decide", "pending", "pending_entries", "propose", "tombstone_layers"]
