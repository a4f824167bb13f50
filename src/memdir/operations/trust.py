"""Trust: what only a person decides (DESIGN §4, §5).

Candidates wait for a person's review (:func:`review` shows each with what approving it does;
:func:`approve`, :func:`reject` — the fact is wrong, tombstoned — and :func:`dismiss` — not this, no
tombstone — decide, each refused once the candidate is no longer what was shown);
only a person lifts a tombstone; pins and mutes are flags on a memory. Each
function takes a :class:`~memdir.session.Session` and returns a typed
result (:mod:`memdir.results`). The gateway checks the actor again:
an agent's session cannot approve, reject or lift.
"""

from __future__ import annotations

import difflib
import json
import os
from contextlib import contextmanager
from dataclasses import dataclass, fields, replace
from typing import Iterator

from ..errors import Conflict, InvalidInput, NotFound, Refused, StoreError
from ..files.fsio import atomic_write, digest, read_bytes
from ..files.layout import SHOWN_FILE
from ..files.memfile import MemoryRecord, format_time
from ..files.scan import Entry
from ..gateway import changes as gateway
from ..gateway.compare import NO_CHECK, typed
from ..gateway.fields import MemoryChange
from ..layer.layer import Layer
from ..results.memories import MemoryInfo, ReadResult
from ..results.trust import (
    Candidate,
    Decision,
    FlagResult,
    LiftResult,
    ReviewResult,
    TombstoneInfo,
    TombstoneList,
)
from ..session import Session
from ..text.names import normalize_name
from ..tombstones.stones import misnamed_tombstones, unreadable_tombstones
from . import team as teamops
from .lookup import find, guard, unsearched
from .memories import found_as_read, list_memories, write


def tombstones(session: Session, scope: str | None = None) -> TombstoneList:
    """The tombstones in force in the session's layers (or ``scope``'s), the team candidates' a person
    rejected among the team's (:func:`memdir.operations.team.tombstone_layers`; ``kept`` says they live in
    the home: :data:`memdir.operations.team.REJECTIONS`), oldest first per layer. A layer
    whose tombstones cannot be read, and a team tombstone file that does not read, are left out and named
    in the warnings. Raises :class:`StoreError` when no layer asked for could be read, :class:`ScopeError`."""
    # what a listing and a refusal say: here, not at the top, as the facade (a write's too) imports this module
    from ..tombstones.refusals import forgotten_by

    found, warnings = [], []
    rejections = teamops.candidates(session).path if session.project_root is not None else None
    for layer, stones, unread, failed in layer_tombstones(session, scope):
        if failed is not None:  # one unreadable layer never hides the others' tombstones
            warnings.append(f"the {layer.scope} layer's tombstones are not listed: {failed}")
            continue
        kept = teamops.REJECTIONS if layer.path == rejections else ""
        found += [TombstoneInfo(stone.id, layer.scope, stone.name, stone.description, stone.actor, stone.reason,
                                stone.ts, forgotten_by(stone), kept, stone.vanished,
                                teamops.Unlifted.of(layer, stone).said if stone.vanished else "")
                  for stone in stones]
        warnings += [f"the {layer.scope} layer's tombstones are not all listed: {path}: {why}" for path, why in unread]
        warnings += [f"the {layer.scope} layer's tombstone {path}: {why}"
                     for path, why in misnamed_tombstones(layer.tombstone_file)]
    return TombstoneList(tuple(found), tuple(warnings))


def layer_tombstones(session: Session, scope: str | None = None) -> list[tuple]:
    """The tombstones :func:`tombstones` lists, as each layer holds them, without what a listing says of each
    (who forgot it, a team file's git history): per layer of :func:`memdir.operations.team.tombstone_layers`, in
    order, ``(layer, stones, unread, None)`` — its tombstones in force (:meth:`memdir.layer.layer.Layer.tombstones`,
    read again only when its file changed) and the ``(path, why)`` of its tombstone files that do not read — or
    ``(layer, [], [], error)`` for a layer whose tombstones cannot be read (a :class:`StoreError`). What a search's
    ``forgotten`` compares (:func:`memdir.search.ranking.find`). Raises :class:`StoreError` when no layer asked for
    could be read, :class:`ScopeError`."""
    read = []
    for layer in teamops.tombstone_layers(session, scope):
        try:
            read.append((layer, layer.tombstones(), unreadable_tombstones(layer.tombstone_file), None))
        except StoreError as exc:
            read.append((layer, [], [], exc))
    failed = [error for *_, error in read if error is not None]
    if failed and len(failed) == len(read):
        raise failed[0]
    return read


def lift_tombstone(session: Session, tombstone_id: str, *, reason: str | None = None,
                   scope: str | None = None) -> LiftResult:
    """Lift a tombstone so its value may be written again (a person only),
    journaled; with ``scope``, only a tombstone of that layer (the team's: of rejected team candidates too,
    :func:`memdir.operations.team.tombstone_layers`). A layer whose tombstones cannot be read is
    passed over. Raises :class:`Refused`, :class:`NotFound`, :class:`StoreError` (the id is in no layer
    read, and a layer could not be read: it may be there), :class:`ScopeError`, :class:`InvalidInput` when,
    without ``scope``, layers of more than one scope hold the id: a tombstone's id follows from the value
    (:func:`memdir.tombstones.match.make`), so the same value forgotten in the user layer and in a project's
    gives each layer its own tombstone under one id, and lifting the first found (before: the user layer's)
    left the one the person meant in force and lifted another nobody asked about; the message names the
    scopes and the command of each. Within one layer every copy of the id is the same fact and goes (a copy
    left would keep the value forgotten); so within one scope: the team directory's copy and the one the home
    keeps of a rejected team candidate (before, the first alone was lifted, the other still listed under
    ``team`` with that id, refusing the agent's next team proposal of the value)."""
    from ..tombstones.refusals import ONLY_A_PERSON_LIFTS, lift_command

    if session.actor != "human":
        raise Refused(ONLY_A_PERSON_LIFTS)
    unreadable, holders = None, []
    for layer in teamops.tombstone_layers(session, scope):
        try:
            held = any(stone.id == tombstone_id for stone in layer.tombstones())
        except StoreError as exc:  # one unreadable layer never keeps another layer's tombstone in force
            unreadable = exc
            continue
        if held:
            holders.append(layer)
    if scope is None and len({layer.scope for layer in holders}) > 1:
        scopes = list(dict.fromkeys(layer.scope for layer in holders))
        raise InvalidInput(f"tombstone {tombstone_id} is in the {' and the '.join(scopes)} layers (the same value "
                           "forgotten in each); lift one of them: "
                           + "; ".join(f"`{lift_command(tombstone_id, s)}`" for s in scopes))
    # Every holder answers as one scope now: the team's may be two layers (the team directory, the home's rejected
    # candidates), one id for one value, listed alike under ``team``; a copy left would keep the value forgotten.
    lifted = [gateway.lift_tombstone(layer, tombstone_id, actor=session.actor, reason=reason) for layer in holders]
    if lifted:
        _unmark_findings(session, tombstone_id, holders[0].scope)
        return LiftResult(lifted[0].id, holders[0].scope, lifted[0].name)
    if unreadable is not None:
        raise unreadable
    if scope:
        raise NotFound(f"no tombstone {tombstone_id!r} in the {scope} layer")
    raise NotFound(f"no tombstone {tombstone_id!r}; see `memdir tombstones`" + unsearched(session, None))


def _unmark_findings(session: Session, tombstone_id: str, scope: str) -> None:
    """The project's pending findings marked with the lifted tombstone lose the mark
    (:func:`memdir.prompt.pending.unmark`): once lifted, no block or review says the value is forgotten. The lift
    is done and journaled already: a project layer that cannot be read or locked keeps its marks (said nothing)."""
    from ..errors import LockTimeout
    from ..prompt import pending

    if session.project_root is None:
        return
    try:
        if not (session.layer_dir("project") / pending.META_DIR / pending.PENDING_FILE).is_file():
            return  # nothing pending: no lock taken
        with session.layer("project").locked():
            pending.unmark(session.layer_dir("project"), tombstone_id, scope)
    except (OSError, StoreError, LockTimeout):
        pass


# ---------------------------------------------------------------- review and decisions


@dataclass(frozen=True)
class _Pending:
    """A candidate as a decision finds it: its ``layer`` and ``entry``, whether it waits for the ``team``
    (in the home: :func:`memdir.operations.team.pending`), the memory ``target`` approving it changes or
    retires (``change``: new | change | replace) and that memory's entry now (``live``)."""

    layer: Layer
    entry: Entry
    team: bool
    change: str = "new"
    target: str | None = None
    live: Entry | None = None

    @property
    def expect(self) -> tuple[str, str | None, str | None]:
        """The compare-and-set of a decision on what was shown (:func:`memdir.gateway.changes.set_status`)."""
        return self.entry.digest, self.target, self.live.digest if self.live else None

    @property
    def digest(self) -> str:
        """The digest of what review shows: the candidate's file and the memory it changes, as they are."""
        return digest(f"{self.change}\n{self.target or ''}\n{self.entry.digest}\n"
                      f"{self.live.digest if self.live else ''}".encode("utf-8"))


def review_text(record: MemoryRecord) -> str:
    """A memory as review shows it: the fields a person decides on, one per line (``title``, ``description``,
    ``type``, ``importance``, ``pinned``, ``valid from``, ``valid until``, ``supersedes``: those set), a blank
    line, the body. What a diff of a change compares."""
    when = lambda t: format_time(t) if t else None  # noqa: E731
    fields = (("title", record.title), ("description", record.description), ("type", record.type),
              ("importance", record.importance), ("pinned", "yes" if record.pinned else None),
              ("valid from", when(record.valid_from)), ("valid until", when(record.valid_until)),
              ("supersedes", record.supersedes))
    head = "".join(f"{label}: {value}\n" for label, value in fields if value not in (None, ""))
    return f"{head}\n{record.body.rstrip()}\n" if record.body.strip() else head


def _diff(name: str, live: str, proposed: str) -> str:
    return "".join(difflib.unified_diff(live.splitlines(keepends=True), proposed.splitlines(keepends=True),
                                        f"{name} (now)", f"{name} (proposed)"))


def dropped_lines(live: MemoryRecord, approved: MemoryRecord) -> tuple[str, ...]:
    """The lines of ``live``'s body (stripped, blank ones left out, in body order) that ``approved`` — what the
    memory holds once a change is approved (:func:`memdir.gateway.changes.approved_record`) — no longer holds
    anywhere in its body. An extractor proposes a whole body without seeing the one it replaces, so approving its
    correction of one fact took everything else a person had written there out of the live memory (team33):
    these are the lines review names and an approval nobody was shown is refused over (:func:`approve`). A line
    kept with other whitespace (re-wrapped into a longer line) is not dropped."""
    kept = " ".join(approved.body.split())  # whitespace collapsed: a line re-wrapped into a longer one is kept
    return tuple(line.strip() for line in live.body.splitlines() if line.strip() and " ".join(line.split()) not in kept)


def _drops(found: _Pending) -> tuple[str, ...]:
    """:func:`dropped_lines` of approving ``found`` as it is: () unless it changes a memory in place."""
    if found.change != "change" or found.live is None:
        return ()
    return dropped_lines(found.live.record, gateway.approved_record(found.live.record, found.entry.record))


def _find_pending(session: Session, name: str, scope: str | None, team_layer: Layer | None = None) -> _Pending:
    """The candidate ``name`` of ``scope`` (None: a personal candidate of that name first, else one for the
    team; ``team_layer``: the team candidates' layer object to read, one whose lock is held). Raises
    :class:`NotFound`, :class:`InvalidInput` (not a candidate), :class:`ScopeError`."""
    key = normalize_name(name).name
    personal = None
    if scope != "team":
        try:
            personal = find(session, name, scope)
        except NotFound:
            if scope is not None or session.project_root is None:
                raise
    if (personal is None or personal[1].record.status != "candidate") and scope in (None, "team") \
            and session.project_root is not None:
        layer = team_layer if team_layer is not None else teamops.candidates(session)
        entry = layer.read_now(key)
        if entry is not None:  # a proposal for the team: approving writes the team memory of its name
            target = dict(entry.record.extra).get("candidate_for") or key
            live = _target(session.layer("team"), target) if session.has_team() else None
            return _Pending(layer, entry, True, "change" if live else "new", target, live)
        if scope == "team" and session.has_team():
            # A file of the team directory itself marked ``status: candidate`` (written by hand, or pulled): a
            # candidate of the team layer as any layer's is — withheld, listed by review, decided in place (the
            # person commits the decision) — not a memory review leaves out and approve cannot find.
            try:
                personal = find(session, name, "team")
            except NotFound:
                pass
    if personal is None:
        raise NotFound(f"no candidate called {key!r}; see `memdir review`" + unsearched(session, scope))
    layer, entry = personal
    record = entry.record
    if record.status != "candidate":
        raise InvalidInput(f"{record.name!r} is {record.status}, not a candidate; see `memdir review`")
    changes = dict(record.extra).get("candidate_for")
    if changes and (target := _target(layer, changes)) is not None:
        return _Pending(layer, entry, False, "change", changes, target)
    if record.supersedes and (target := _target(layer, record.supersedes)) is not None:
        return _Pending(layer, entry, False, "replace", record.supersedes, target)
    return _Pending(layer, entry, False)


def _target(layer: Layer, name) -> Entry | None:
    """The memory ``name`` of ``layer`` a candidate changes or replaces, as its file is now
    (:meth:`memdir.layer.reading.ReadsOne.read_now`: one file read while the layer's names hold, a scan's
    answer otherwise); None when the layer holds none, or ``name`` (a field of the candidate's file) is no
    name. Before, each candidate scanned its whole layer: review of 300 candidates in a 1,500-file layer
    stat'ed about 900,000 files (13.5 s; the panel's ``/review`` timed out). Raises :class:`StoreError`."""
    return layer.read_now(name) if isinstance(name, str) else None


def _shown(found: _Pending, info: MemoryInfo) -> Candidate:
    """The :class:`Candidate` review shows for ``found`` (listed as ``info``)."""
    proposed = found.entry.record
    live = found.live.record if found.live else None
    if found.change == "change":
        proposed = gateway.approved_record(live, proposed)  # what the memory holds once approved
    text = review_text(proposed)
    before = review_text(live) if live else None
    shown = {f.name: getattr(info, f.name) for f in fields(MemoryInfo)} | {"pinned": proposed.pinned}
    return Candidate(**shown, change=found.change,
                     target=found.target if found.change != "new" else None, proposed=text, live=before,
                     diff=_diff(found.target, before, text) if before is not None else None, digest=found.digest,
                     drops=_drops(found))


def review(session: Session, scope: str | None = None) -> ReviewResult:
    """Candidates waiting for a person, per scope, in index order, each with what approving it does
    (:class:`Candidate`): a new memory's whole text, or the live and the proposed text of the memory it
    changes (the text :func:`memdir.gateway.changes.approved_record` gives) with their diff, and the
    digest :func:`approve` and :func:`dismiss` check. Candidates for the team (waiting in the home) are
    listed under ``team``, also before the team directory holds a memory."""
    listed = list_memories(session, scope, include_all=True)
    out, shown = [], {}
    for info in listed.memories:
        if info.status != "candidate":
            continue
        try:
            found = _find_pending(session, info.name, info.scope)
        except (NotFound, InvalidInput):
            continue  # decided or changed since it was listed
        out.append(_shown(found, info))
        shown.setdefault(found.layer.meta, {})[found.entry.record.name] = found.digest
    for meta, digests in shown.items():
        _record_shown(meta, digests)
    return ReviewResult(tuple(out))


SHOWN_BYTES = 1 << 20  # what is read of SHOWN_FILE (≈ 12,000 candidates); a longer one reads as none shown


def _record_shown(meta, digests: dict[str, str]) -> None:
    """Keep what review showed of a layer's candidates (name → digest: every one it holds, so the record is as
    long as the candidates waiting) in its :data:`memdir.files.layout.SHOWN_FILE`: a decision without a digest
    is then checked against it (:func:`_check`). Derived and best effort: a layer that cannot be written
    (read-only) keeps the older record."""
    try:
        atomic_write(meta / SHOWN_FILE, json.dumps(digests, sort_keys=True).encode() + b"\n")
    except (StoreError, OSError):
        pass


def _read_shown(meta) -> dict[str, str] | None:
    """What review last showed of a layer's candidates, name → digest: {} when it never showed one (no record);
    None when a record is there and does not read — not a regular file (a directory, a link: never followed),
    unreadable, empty, longer than :data:`SHOWN_BYTES`, not a JSON object. Reading that as {} (before) let a
    decision without a digest go on as if review had never shown the candidate, whatever it showed."""
    path = meta / SHOWN_FILE
    try:
        data = read_bytes(path, SHOWN_BYTES + 1, follow=False)
    except StoreError:
        return None
    if data is None:
        return None if os.path.lexists(path) else {}
    try:
        shown = json.loads(data) if len(data) <= SHOWN_BYTES else None
    except (ValueError, RecursionError):
        return None
    if not isinstance(shown, dict):
        return None
    return {k: v for k, v in shown.items() if isinstance(k, str) and isinstance(v, str)}


def _check(found: _Pending, digest: str | None) -> None:
    """Refuse a decision on a candidate that is no longer what was shown (``digest``, or a prefix of at least
    :data:`memdir.gateway.compare.MIN_DIGEST` hex digits of it; None: what :func:`review` last showed of it, when it showed it — an
    agent's rewrite after the person's review was else approved unseen, break29). Raises :class:`Conflict`,
    :class:`InvalidInput`."""
    if digest is None:
        record = _read_shown(found.layer.meta)
        if record is None:
            raise Conflict(f"what `memdir review` last showed of {found.entry.record.name!r} cannot be read "
                           f"({found.layer.meta / SHOWN_FILE} is not a record review wrote); decide with the --digest "
                           "review shows")
        shown = record.get(found.entry.record.name)
        if shown is not None and shown != found.digest:
            raise Conflict(f"candidate {found.entry.record.name!r} changed since review showed it (digest "
                           f"{shown[:16]}, now {found.digest[:16]}); look at it again, or decide on what it is now "
                           f"with --digest {found.digest[:16]}")
        return
    given = digest.strip().lower()
    if not typed(given, found.digest):
        raise Conflict(f"candidate {found.entry.record.name!r} changed since it was shown (digest {given[:16]}, "
                       f"now {found.digest[:16]}); look at it again and decide on what it is now")


def candidate(session: Session, name: str, scope: str | None = None, *, as_approved: bool = False) -> ReadResult:
    """The candidate ``name`` itself, as its file holds it (a team candidate: the one waiting in the home,
    not the team memory of its name); with ``as_approved``, its fields as approving it writes them (a change:
    :func:`memdir.gateway.changes.approved_record`, under the candidate's name) — what review shows, and
    what an edit-then-approve form starts from. Raises :class:`NotFound`, :class:`InvalidInput` (not a
    candidate)."""
    found = _find_pending(session, name, scope)
    record = found.entry.record
    if as_approved and found.change == "change":
        record = gateway.approved_record(found.live.record, record).with_(name=record.name, extra=record.extra,
                                                                          status=record.status, origin=record.origin)
    return ReadResult(record, "team" if found.team else found.layer.scope, (), found.entry.digest)


def _over_candidate(edit: MemoryChange, record: MemoryRecord) -> MemoryChange:
    """A person's ``edit`` of the candidate ``record``, every field it does not give (None) and does not clear
    taken from the candidate: a partial edit (the body alone) changes only what it gives."""
    keep = {key: getattr(record, key) for key in ("description", "type", "body", "title", "importance",
                                                  "valid_from", "valid_until")
            if getattr(edit, key) is None and key not in edit.clear}
    pinned = edit.pinned if edit.pinned is not None else record.pinned
    return replace(edit, **keep, pinned=pinned, status="candidate")


def _decided(name: str) -> str:
    return f"candidate {name!r} was already decided or changed meanwhile (approved, rejected or dismissed elsewhere)"


@contextmanager
def _deciding(session: Session, name: str, scope: str | None, digest: str | None) -> Iterator[_Pending]:
    """The candidate ``name`` (:func:`_find_pending`) read again under its layer's lock, held while the
    caller acts on it: the check and the decision are one critical section, so of two processes deciding
    one candidate at once, one decides and the other gets :class:`Conflict` — never a second decision on
    a candidate that is gone or another one of the same name. ``digest``: :func:`_check`. The gateway's
    transactions re-enter the lock of ``found.layer`` (that object only: act on it). A decision given the
    ``digest`` of a candidate that is a memory now (approved before this one came: a second tab, a second
    click) is that same :class:`Conflict`; the text names no command: each adapter adds how to see it again."""
    try:
        found = _find_pending(session, name, scope)
    except InvalidInput:
        if digest is None:
            raise
        raise Conflict(_decided(normalize_name(name).name)) from None
    with found.layer.locked():
        try:
            found = _find_pending(session, name, "team" if found.team else found.layer.scope,
                                  found.layer if found.team else None)
        except (NotFound, InvalidInput):
            raise Conflict(_decided(found.entry.record.name)) from None
        _check(found, digest)
        yield found


def approve(session: Session, name: str, scope: str | None = None, *, reason: str | None = None,
            digest: str | None = None, edit: MemoryChange | None = None) -> Decision:
    """Publish a candidate (a person only); a tombstoned value is refused. A
    team candidate is written into the team directory, for the person to commit.
    ``digest`` (from :func:`review`) is compare-and-set: approve what was shown, or nothing.
    ``edit``: the person's correction of the candidate (its fields as for a write, merged over the
    candidate's: a field not given keeps the candidate's; ``clear`` empties one, in what is approved too),
    written first — after the ``digest`` check — and approved as they wrote it.
    A change that removes lines of the memory it changes (:func:`dropped_lines`) is refused unless the person
    was shown it (``digest``, or :func:`review` showed it as it is), and its approval warns what it removed.
    Raises :class:`Refused`, :class:`NotFound`, :class:`TombstoneRefused`, :class:`Conflict` (the
    candidate or the memory it changes changed since it was shown, or it was decided meanwhile, or it removes
    lines nobody was shown), what the edit's write raises."""
    _person(session)
    clear = ()
    if edit is not None:
        found = _find_pending(session, name, scope)
        _check(found, digest)
        proposal, clear = _over_candidate(edit, found.entry.record), edit.clear
        written = (teamops.propose(session, proposal, edited=True) if found.team
                   else write(session, proposal, found.layer.scope))
        name, scope = written.name, "team" if found.team else found.layer.scope
        digest = _find_pending(session, name, scope).digest  # what the person just wrote is what they approve
    with _deciding(session, name, scope, digest) as found:
        expect = found.expect if digest is not None else None
        seen = digest is not None or found.entry.record.name in (_read_shown(found.layer.meta) or {})
        said = () if seen else (
            (f"{found.entry.record.name} was approved as it is now (digest {found.digest[:16]}) without `memdir "
             "review` showing it; `memdir history` shows what was approved"),)
        drops = _drops(found)
        if drops and not seen:  # a person's text leaves the live memory only after they saw the before and after
            raise Conflict(f"approving {found.entry.record.name!r} replaces the text of {found.target!r} and removes "
                           f"{_lines(drops)} it holds now ({_quote(drops)}); `memdir review` shows the whole before "
                           "and after: approve with the --digest it shows, edit the candidate so it keeps that text "
                           "(the panel's \"Edit, then approve\"), or dismiss it")
        if drops:
            said += ((f"{found.target} no longer holds {_lines(drops)} of its text ({_quote(drops)}); its version "
                        f"before this approval keeps them (`memdir history {found.target}`, then `memdir restore`)"),)
        if found.team:
            decided = teamops.decide(session, found.entry.record.name, approve=True, reason=reason, expect=expect,
                                     clear=clear, layer=found.layer)
            return replace(decided, warnings=(*decided.warnings, *said))
        gone = dict(found.entry.record.extra).get("candidate_for") if found.change == "new" else None
        if isinstance(gone, str) and gone:  # its target went since it was proposed: approving keeps its own name
            said += ((f"{found.entry.record.name} was proposed as a change of {gone}, which is no longer there; "
                        f"it is a memory of its own now: `memdir write {gone} --rename-from {found.entry.record.name}` "
                        "gives it that name"),)
        stones = guard(session, found.layer)
        decided = gateway.set_status(found.layer, found.entry.record.name, approve=True, actor=session.actor,
                                     reason=reason, guard=stones, session=session.id, expect=expect, clear=clear)
    return replace(decided, warnings=(*decided.warnings, *stones.skipped, *said))


def reject(session: Session, name: str, scope: str | None = None, *, reason: str | None = None,
           digest: str | None = None) -> Decision:
    """Reject a candidate (a person only): "the fact is wrong" — it is deleted and its value
    tombstoned. ``digest``: as for :func:`approve`. Raises :class:`Refused`, :class:`NotFound`,
    :class:`Conflict` (changed since shown, or decided meanwhile)."""
    _person(session)
    with _deciding(session, name, scope, digest) as found:
        expect = found.expect if digest is not None else None
        if found.team:
            return teamops.decide(session, found.entry.record.name, approve=False, reason=reason, expect=expect,
                                  layer=found.layer)
        return gateway.set_status(found.layer, found.entry.record.name, approve=False, actor=session.actor,
                                  reason=reason, session=session.id, expect=expect)


def dismiss(session: Session, name: str, scope: str | None = None, *, reason: str | None = None,
            digest: str | None = None) -> Decision:
    """Dismiss a candidate (a person only): "not this" — it is deleted with no tombstone (the fact may
    still be written), and the same proposal, byte for byte, is not proposed again
    (:func:`memdir.gateway.changes.dismiss`). ``digest``: as for :func:`approve`. Raises
    :class:`Refused`, :class:`NotFound`, :class:`Conflict` (changed since shown, or decided meanwhile)."""
    _person(session)
    with _deciding(session, name, scope, digest) as found:
        expect = found.expect if digest is not None else None
        if found.team:  # the memory it changes is in the team directory, not beside the candidate
            expect = (found.entry.digest, None, None) if expect else None
        target = gateway.dismiss(found.layer, found.entry.record.name, actor=session.actor, reason=reason,
                                 session=session.id, expect=expect)
    return Decision(target, "team" if found.team else found.layer.scope, found.entry.record.name, False,
                    dismissed=True)


def _lines(lines: tuple[str, ...]) -> str:
    return f"{len(lines)} line{'s' if len(lines) != 1 else ''}"


def _quote(lines: tuple[str, ...], limit: int = 80) -> str:
    """The first of ``lines`` quoted, cut at ``limit`` characters, and how many more there are."""
    first = lines[0] if len(lines[0]) <= limit else lines[0][:limit - 1] + "…"
    return f"“{first}”" + (f" and {len(lines) - 1} more" if len(lines) > 1 else "")


def _person(session: Session) -> None:
    if session.actor != "human":
        raise Refused("only a person can approve, reject or dismiss a candidate (use the CLI or the panel)")


def set_flag(session: Session, name: str, flag: str, value: bool = True, scope: str | None = None, *,
             expect_digest: str | None | bool = NO_CHECK) -> FlagResult:
    """Pin (``flag="pinned"``: leads the index) or mute (``"disabled"``: kept
    and listed, out of the index) a memory, or undo it. ``expect_digest``: the digest of the version the
    caller read (as :func:`memdir.operations.memories.delete` takes it); another version, or none, is not
    changed. Raises :class:`NotFound`, :class:`InvalidInput`, :class:`Conflict` (changed since read)."""
    layer, entry = found_as_read(session, name, scope, expect_digest, gateway.flag_action(flag, value))
    changed = gateway.set_flag(layer, entry.record.name, flag=flag, value=value, actor=session.actor,
                               session=session.id, expect_digest=expect_digest)
    return FlagResult(entry.record.name, layer.scope, flag, value, changed)


__all__ = ["approve", "candidate", "dismiss", "dropped_lines", "layer_tombstones", "lift_tombstone", "reject", "review",
           "review_text", "set_flag", "tombstones"]
