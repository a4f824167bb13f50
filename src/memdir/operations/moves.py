"""A person's two-step move into the team layer cut between its steps: a promote (the personal project memory
written into the team layer, then removed from the project layer: :func:`memdir.operations.team.promote`) or a
team approval (the candidate written into the team layer, then removed from the home:
:func:`memdir.operations.team.decide`) killed after its write and before the removal. Nothing is lost (both
layers hold the memory); ``memdir doctor`` names each such copy with the command that finishes it
(:func:`cuts`), ``memdir verify --repair`` finishes those the team journal says were that move
(:func:`finish`). The one rule of such a cut, for both moves."""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import Conflict, NotFound
from ..files.memfile import text_digest
from ..gateway import changes as gateway
from ..layer.commit import COMPLETED
from ..layer.interrupted import FINISHED
from ..layer.journal import changes_content
from ..layer.team import candidate_layer
from ..session import Session

PROMOTED = "promoted to the team layer"  # the journal's reason of a promote's second step, the removal
APPROVED = "approved into {target}"  # the journal's reason of a team approval's second step, the removal
CUT_PROMOTE = ("a promote to the team layer was cut before this copy was removed (the team layer has it): "
               "memdir promote {name} --to team finishes it")
CUT_COPY = ("the team layer holds this same memory, written by a change cut before its journal line (a promote "
            "cut?): memdir promote {name} --to team removes this copy, else edit one of them")
CUT_APPROVE = ("an approval of this team candidate was cut before it was removed (the team layer has it, as "
               "{target}): memdir approve {name} --scope team finishes it")


@dataclass(frozen=True)
class Cut:
    """One copy a cut move left: ``where`` (how doctor names it: ``project:NAME`` or ``candidate:NAME``), its
    ``name`` in its layer, the team memory ``target`` written from it, the move's journal ``action``
    (``promote`` or ``approve``), ``sure`` (the team journal's last line for ``target`` is that action, or the
    move is an approval; else the ``create`` a next transaction journaled for a file a promote cut before its
    own line left) and what to do (``said``)."""

    where: str
    name: str
    target: str
    action: str
    sure: bool
    said: str


# The journal lines the next transaction writes for a move's team file a kill left without its own line
# (memdir.layer.commit.COMPLETED), per move: a promote creates a team memory; an approval creates one or
# changes the one its candidate names.
_COMPLETED_AS = {"promote": ("create",), "approve": ("create", "update")}


def _sources(session: Session) -> tuple:
    """(action, layer, doctor's prefix, the status its copies have) per layer a move into the team takes from."""
    return (("promote", session.layer("project"), "project", "active"),
            ("approve", candidate_layer(session.home, session.project_root, session.settings), "candidate",
             "candidate"))


def cuts(session: Session) -> tuple[Cut, ...]:
    """Every copy a move into the team layer left behind when cut (a kill) after its write and before the
    removal, by layer (project, then candidates) and name: the source layer still holds an entry of the status
    it had (an active project memory; a candidate, whose ``candidate_for`` names the team memory, else its own
    name), unchanged since the team's write (no line of its layer's journal after that write's), of the same
    value (description and body: :func:`memdir.files.memfile.text_digest`) as the team memory — and the team
    journal's last line for that memory is the move's own (``promote``: :data:`CUT_PROMOTE`; ``approve``:
    :data:`CUT_APPROVE`), or the ``create`` (an approval's: or ``update``) the next transaction journaled for a
    file a write killed before its own line left (:data:`memdir.layer.commit.COMPLETED`; a promote's:
    :data:`CUT_COPY`, not ``sure``; an approval's: :data:`CUT_APPROVE`, ``sure`` — a candidate naming the team
    memory that holds its value is nothing but that approval). A copy edited
    since is a memory of its own, never named; a candidate still waiting on an ordinary change is not either
    (the team's last line is no approval). ``()`` without a project or a team layer. Reads the layers'
    journals whole (``memdir doctor``). Raises :class:`StoreError` (a layer that cannot be read)."""
    if session.project_root is None or "team" not in session.scopes():
        return ()
    team = session.layer("team")
    last = {event.name: event for event in team.journal.events() if event.name}
    written = {name: event for name, event in last.items() if event.after and (
        event.action in ("promote", "approve") or (event.action in ("create", "update") and event.reason == COMPLETED))}
    if not written:
        return ()
    theirs, found = team.scan().entries, []
    for action, source, prefix, status in _sources(session):
        pairs = {}
        for key, here in source.scan().entries.items():
            target = (dict(here.record.extra).get("candidate_for") or key) if action == "approve" else key
            event = written.get(target)
            if event is not None and (event.action == action or (
                    event.reason == COMPLETED and event.action in _COMPLETED_AS[action])):
                pairs[key] = (here, target, event)
        if not pairs:
            continue
        since = {event.name: event.ts for event in source.journal.events() if event.name in pairs}
        for key, (here, target, event) in sorted(pairs.items()):
            there = theirs.get(target)
            if there is None or here.record.status != status or since.get(key, "") > event.ts:
                continue
            if text_digest(here.record.description, here.record.body) != text_digest(there.record.description,
                                                                                     there.record.body):
                continue
            # A candidate naming the team memory written from its value is that approval, whichever line the cut
            # left: repair may finish it (the candidate's bytes stay in its journal). A project memory whose value
            # a completed create holds may be the person's own copy: named, left to them.
            sure = event.action == action or action == "approve"
            said = CUT_APPROVE if action == "approve" else CUT_PROMOTE if sure else CUT_COPY
            found.append(Cut(f"{prefix}:{key}", key, target, action, sure, said.format(name=key, target=target)))
    return tuple(found)


def replaces_another(team, key: str, there, record) -> bool:
    """Whether a promote of the project memory ``record`` would replace text that came from outside this home:
    the team layer's entry ``there`` of the same file name ``key`` holds another value (description and body:
    :func:`memdir.files.memfile.text_digest`), and the team journal's last content line for ``key`` is not a
    write of this home of these very bytes (none, an ``external-edit``: a teammate's memory pulled with git or a
    merge, or bytes changed since). A team memory this home's memdir wrote last (a person's ``--scope team``
    write, a promote raced by an edit of the project copy) is replaced, as before. trial35: Bob's personal
    ``ci`` note took the place of the team's ``ci`` he had pulled, its body gone, said only as "updated".
    Reads the team journal whole."""
    if text_digest(there.record.description, there.record.body) == text_digest(record.description, record.body):
        return False
    last = None
    for event in team.journal.events():
        if event.name == key and changes_content(event):
            last = event
    return last is None or last.action == "external-edit" or last.after != there.digest


def finish(session: Session) -> tuple[str, ...]:
    """Finish every move the team journal says was cut (:func:`cuts` whose ``sure``; a :data:`CUT_COPY` is the
    person's to settle): the copy removed from its layer (no tombstone, journaled as the move's action with
    :data:`memdir.layer.interrupted.FINISHED` in its reason: :data:`PROMOTED`, :data:`APPROVED`) under
    compare-and-set on the copy as it was found, so one changed meanwhile is kept. Returns the ``where`` of
    each finished (``memdir verify --repair``). Raises :class:`StoreError`, :class:`LockTimeout`."""
    done = []
    for cut in cuts(session):
        if not cut.sure:
            continue
        source = next(layer for action, layer, _, _ in _sources(session) if action == cut.action)
        entry = source.scan().entries.get(cut.name)
        if entry is None:
            continue
        reason = PROMOTED if cut.action == "promote" else APPROVED.format(target=cut.target)
        try:
            gateway.delete(source, cut.name, actor="human", tombstone=False, action=cut.action,
                           reason=f"{reason}{FINISHED}", session=session.id, expect_digest=entry.digest)
        except (Conflict, NotFound):
            continue  # changed or gone since it was found: a memory of its own now
        done.append(cut.where)
    return tuple(done)


__all__ = ["APPROVED", "CUT_APPROVE", "CUT_COPY", "CUT_PROMOTE", "PROMOTED", "Cut", "cuts", "finish", "replaces_another"]
