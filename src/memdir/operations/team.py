"""What a person does with the team layer (DESIGN §2, :mod:`memdir.layer.team`).

``init`` creates or adopts the team directory; ``status`` reads ``git
status`` of it; ``resolve`` settles a merge conflict by one side;
``promote`` moves a personal project memory into the team layer; the agent's
and consolidation's writes for the team become candidates in the home
(:func:`propose`) until a person approves them (:func:`approve`); ``commits``
and :func:`restore_commit` read git's history of a team memory. memdir never
commits or pushes: every change here is left for the person to commit.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .. import git
from ..errors import Conflict, InvalidInput, NotFound, Refused, StoreError
from ..files.conflicts import CONFLICT
from ..files.conflicts import resolve as resolve_bytes
from ..files.memfile import MalformedMemory, parse
from ..gateway import changes as gateway
from ..gateway.fields import MemoryChange, distinct_name, inherit
from ..layer.team import candidate_layer
from ..layer.team import init as init_dir
from ..results import Decision, RestoreResult, Result, WriteResult
from ..session import Session
from ..text.names import normalize_name, same_name, spelled_name
from .lookup import guard


@dataclass(frozen=True)
class TeamInit(Result):
    """The team directory ``path``: ``created`` (files added), ``adopted``
    (memory files already there, left as they are)."""

    path: str
    created: tuple[str, ...]
    adopted: int


@dataclass(frozen=True)
class TeamStatus(Result):
    """The team directory ``path``, its uncommitted ``changes`` (from ``git
    status``: :class:`memdir.git.Change`), files with an unresolved
    merge ``conflicts``, this person's ``pending`` candidate names, and
    ``git_error`` when git could not answer."""

    path: str
    changes: tuple
    conflicts: tuple[str, ...]
    pending: tuple[str, ...]
    git_error: str | None = None  # why git could not say what is uncommitted


@dataclass(frozen=True)
class Resolved(Result):
    """A conflict settled: ``name`` now holds ``side`` (ours | theirs)."""

    name: str
    side: str
    path: str
    digest: str


@dataclass(frozen=True)
class Promoted(Result):
    """The personal project memory ``name`` moved into the team layer."""

    name: str
    path: str
    operation: str
    redactions: int
    warnings: tuple[str, ...] = ()  # e.g. a layer whose tombstones could not be checked (operations.lookup.guard)


def _team(session: Session):
    return session.layer("team")


def _candidates(session: Session):
    session.project()
    return candidate_layer(session.home, session.project_root, session.settings)


def init(session: Session) -> TeamInit:
    """Create the team directory of the session's repository, or adopt it
    as it is (see :func:`memdir.layer.team.init`). A person only. Raises
    :class:`ScopeError` without a project, :class:`Refused` for an agent."""
    if session.actor != "human":
        raise Refused("only a person creates the team layer (memdir team init)")
    session.project()
    path = session.layer_dir("team")
    created = init_dir(path)
    adopted = len(_team(session).scan().names)
    return TeamInit(str(path), tuple(created), adopted)


def status(session: Session) -> TeamStatus:
    """The team memories changed and not yet committed, the files with an
    unresolved merge conflict and this person's pending candidates. Raises
    :class:`ScopeError`, :class:`StoreError` (git failed)."""
    session.check_scope("team")
    layer = _team(session)
    try:
        changes, git_error = git.status(session.project_root, layer.path), None
    except StoreError as exc:  # not a git work tree (yet), or no git: the rest still answers
        changes, git_error = [], str(exc)
    conflicts = tuple(m.path for m in layer.scan().malformed if m.error == CONFLICT)
    pending = tuple(sorted(_candidates(session).scan().entries))
    return TeamStatus(str(layer.path), tuple(changes), conflicts, pending, git_error)


def _stem_name(path: str) -> str | None:
    from pathlib import Path

    try:
        return normalize_name(Path(path).stem).name
    except InvalidInput:
        return None


def _conflicted(layer, name: str):
    for bad in layer.scan().malformed:
        if bad.error == CONFLICT and _stem_name(bad.path) == name:
            return bad
    return None


def resolve(session: Session, name: str, side: str) -> Resolved:
    """Settle the merge conflict of team memory ``name`` by keeping ``side``
    (``ours`` | ``theirs``) of every hunk; the conflicted bytes are kept in
    the journal first. A person only; the result is left to commit. Raises
    :class:`NotFound` (no conflict), :class:`InvalidInput` (the side does not
    make a memory), :class:`TombstoneRefused`."""
    if side not in ("ours", "theirs"):
        raise InvalidInput(f"side must be ours or theirs (got {side!r})")
    layer = _team(session)
    key = normalize_name(name).name
    bad = _conflicted(layer, key)
    if bad is None:
        raise NotFound(f"no unresolved merge conflict for {key!r} in {layer.path} (see memdir team status)")
    from pathlib import Path

    path = Path(bad.path)
    data = path.read_bytes()
    try:
        chosen = resolve_bytes(data, side)
    except ValueError as exc:
        raise InvalidInput(f"cannot resolve {path.name}: its conflict markers do not make whole hunks ({exc}); "
                           "nothing was changed — edit it by hand") from None
    try:
        record = parse(chosen.decode("utf-8"), key).record
    except (ValueError, MalformedMemory, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{side} side of {path.name} is not a readable memory ({exc}); edit it by hand") from None
    with layer.transaction(session.actor, session.id) as tx:
        kept = layer.journal.put_object(data)
        gateway.check_forgotten(tx, None, record.description, record.body, key)
        event = tx.apply(key, record.with_(name=key), "resolve", raw=chosen, reason=f"merge conflict: kept {side}",
                         data={"conflicted": kept})
        if path.name != f"{key}.md":
            path.unlink(missing_ok=True)
    return Resolved(key, side, str(layer.path / f"{key}.md"), event.after or "")


def propose(session: Session, change: MemoryChange) -> WriteResult:
    """What the agent or consolidation writes for the team (``change``, its valid times datetimes): a
    candidate in this person's home, never a file in the repository, checked against every layer's
    tombstones. A text field not given keeps the team memory's (:func:`memdir.gateway.fields.inherit`);
    ``status``, ``reactivate`` and an ``expect_digest`` other than None (the candidate must be new) are
    not the proposer's to set. A rename (``rename_from``) or a ``clear`` of a team memory is a person's
    change: :class:`Refused` (a candidate cannot carry it, and it would otherwise be proposed as a new
    memory or dropped)."""
    name, description, type, body = change.name, change.description, change.type, change.body
    if change.rename_from is not None or change.clear:
        what = (f"renaming {change.rename_from!r} to {name!r}" if change.rename_from is not None
                else f"clearing {', '.join(change.clear)}")
        raise Refused(f"{what} in the team layer is a person's change; a candidate cannot propose it "
                      "(a person runs it with scope team)")
    if None in (description, type, body) or change.body_source:
        entry = session.layer("team").scan().entries.get(normalize_name(name).name)
        description, type, body = inherit(entry.record if entry else None, description, type, body,
                                          normalize_name(name).name, change.body_source)
    layer = _candidates(session)
    proposal = replace(change, description=description, type=type, body=body, status="candidate",
                       reactivate=False, body_source=None,
                       expect_digest=change.expect_digest if change.expect_digest is None else False)
    stones = guard(session, layer)  # every layer's: the candidate layer is outside the session's
    result = gateway.write(layer, proposal, actor=session.actor, session=session.id, guard=stones)
    return replace(result, warnings=(*result.warnings, *stones.skipped)) if stones.skipped else result


def tombstone_layers(session: Session, scope: str | None = None) -> list:
    """The layers whose tombstones a person lists and lifts: the session's (or ``scope``'s), and, where the
    team's are, the home's layer of team candidates, whose rejected values it keeps (it answers as
    ``team``): a refusal of the agent's next team proposal names one of them. Raises :class:`ScopeError`."""
    layers = session.layers(scope) if scope else session.layers()
    if session.project_root is not None and any(layer.scope == "team" for layer in layers):
        layers = [*layers, _candidates(session)]
    return layers


def pending(session: Session) -> list:
    """This person's candidates for the team, by name order (records)."""
    if session.project_root is None:
        return []
    scan = _candidates(session).scan()
    return [scan.entries[name].record for name in sorted(scan.entries)]


def decide(session: Session, name: str, *, approve: bool, reason: str | None = None) -> Decision | None:
    """Approve (write it into the team directory as a person's memory, to be
    committed) or reject (tombstone it in the home) the team candidate
    ``name``; None when there is no such candidate. A person only."""
    if session.actor != "human":
        raise Refused("only a person can approve or reject a candidate (use the CLI or the panel)")
    if session.project_root is None:
        return None
    layer = _candidates(session)
    key = normalize_name(name).name
    entry = layer.scan().entries.get(key)
    if entry is None:
        return None
    if not approve:
        gateway.set_status(layer, key, approve=False, actor="human", reason=reason, session=session.id)
        return Decision(key, "team", key, False)
    record = entry.record
    extra = dict(record.extra)
    target = extra.pop("candidate_for", None) or key
    extra.pop("candidate_action", None)
    team = _team(session)
    approved = MemoryChange(target, record.description, record.type, record.body, title=record.title,
                            importance=record.importance, extra=extra,
                            reason=reason or f"approved team candidate {key}")
    stones = guard(session, team)
    gateway.write(team, approved, actor="human", session=session.id, guard=stones, action="approve")
    gateway.delete(layer, key, actor="human", tombstone=False, action="approve", reason=f"approved into {target}",
                   session=session.id)
    return Decision(target, "team", key, True, stones.skipped)


def promote(session: Session, name: str) -> Promoted:
    """Move the personal project memory ``name`` into the team layer (a
    person only): written through the gateway (redaction, the credential
    check, every layer's tombstones as for any write into the team layer:
    :func:`memdir.operations.lookup.guard`), then removed from the project
    layer without a tombstone — only the version promoted: one updated meanwhile is kept, and a warning
    says so. A memory spelled unlike the team memory of its file name (``C# tips``
    where the team has ``C++ tips``: :func:`memdir.text.names.same_name`) is refused with
    :class:`Conflict`, naming the distinct name to rename it to first
    (:func:`memdir.gateway.fields.distinct_name`). Raises :class:`Refused`, :class:`NotFound`,
    :class:`Conflict`, :class:`ScopeError`."""
    if session.actor != "human":
        raise Refused("only a person promotes a memory to the team layer (memdir promote NAME --to team)")
    source = session.layer("project")
    key = normalize_name(name).name
    entry = source.scan().entries.get(key)
    if entry is None:
        raise NotFound(f"no project memory {key!r} to promote (memdir list --scope project)")
    record = entry.record
    if record.status == "candidate":
        raise Refused(f"{key!r} is a candidate; approve it first")
    team = _team(session)
    # Asked by its spelling (C# tips), so the team's memory of that file name is updated only when it is the
    # same name (the gateway refuses C# tips over C++ tips); said first with the rename that makes it distinct.
    spelled = spelled_name(key, record.title)
    there = team.scan().entries.get(key)
    if there is not None and not same_name(spelled, there.record.name, there.record.title):
        apart = distinct_name(spelled, {*team.scan().names, *source.scan().names})
        shown = repr(there.record.title) if there.record.title else repr(key)
        raise Conflict(f"cannot promote {spelled!r} ({key}): its file name {key!r} is that of the team memory "
                       f"{shown}, which is another name; rename it first (memdir write {apart} --rename-from {key} "
                       f"--scope project), then promote {apart}")
    promoted = MemoryChange(spelled, record.description, record.type, record.body, title=record.title,
                            pinned=record.pinned, importance=record.importance, valid_from=record.valid_from,
                            valid_until=record.valid_until, extra=record.extra,
                            reason="promoted from the project layer")
    stones = guard(session, team)
    result = gateway.write(team, promoted, actor="human", session=session.id, guard=stones, action="promote")
    kept = ()
    try:  # only the version promoted goes: an update that landed meanwhile is kept, never lost
        gateway.delete(source, key, actor="human", tombstone=False, action="promote",
                       reason="promoted to the team layer", session=session.id, expect_digest=entry.digest)
    except (Conflict, NotFound):
        kept = (f"the project memory {key!r} changed while it was promoted, so it was kept: the team layer has the "
                f"version promoted; promote it again (memdir promote {key}) or edit one of them",)
    return Promoted(key, str(team.path / f"{key}.md"), result.operation, result.redactions,
                    (*result.warnings, *stones.skipped, *kept))


def commits(session: Session, layer, name: str) -> tuple:
    """git's commits of team memory ``name``'s file, newest first (``()``
    when git has none)."""
    return tuple(git.log(session.project_root, layer.path / f"{normalize_name(name).name}.md"))


def restore_commit(session: Session, name: str, commit: str) -> RestoreResult:
    """Write team memory ``name`` back as it was at git ``commit``, through
    the gateway (a new local version, to be committed). Raises
    :class:`NotFound`, :class:`TombstoneRefused`, :class:`Refused`."""
    layer = _team(session)
    key = normalize_name(name).name
    if not commit or commit.startswith("-"):
        raise InvalidInput(f"not a commit: {commit!r}")
    data = git.show(session.project_root, commit, layer.path / f"{key}.md")
    stones = guard(session, layer)
    result = gateway.restore_bytes(layer, key, data, f"git commit {commit[:12]}", actor=session.actor,
                                   guard=stones, session=session.id)
    return RestoreResult(result.name, "team", 0, result.operation, result.digest, commit, stones.skipped)


__all__ = ["Promoted", "Resolved", "TeamInit", "TeamStatus", "commits", "decide", "init", "pending", "promote",
           "propose", "resolve", "restore_commit", "status", "tombstone_layers"]
