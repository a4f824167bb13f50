"""The memory operations of a session: what the memory tools do (DESIGN §7).

Each function takes a :class:`~memdir.session.Session` — which layers
it sees and who is acting — and returns a typed result
(:mod:`memdir.results`). A name is looked for in the session's layers,
user first; a write checks the tombstones of every layer of the session, so a
value forgotten in one layer cannot come back through another. The changes
themselves are made by the gateway (:mod:`memdir.gateway.changes`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import datetime

from ..errors import (
    ConfirmationRequired,
    Conflict,
    InvalidInput,
    LockTimeout,
    NotFound,
    StoreError,
)
from ..files.memfile import MAX_YEAR, MIN_YEAR, parse_time, time_note
from ..files.repository import held_memories
from ..files.scan import Entry, Malformed
from ..gateway import changes as gateway
from ..gateway import compare, deletion, edits, writing
from ..gateway.compare import NO_CHECK
from ..gateway.fields import MemoryChange
from ..gateway.writing import BatchWrite
from ..layer.history import history as layer_history
from ..layer.history import records_as_of
from ..layer.index import is_current, ordered
from ..layer.journal import now_utc
from ..layer.layer import Layer
from ..layer.succession import successor
from ..prompt import coverage, pending
from ..results.writes import WriteResult
from ..session import Session
from ..text.names import normalize_name
from ..tombstones.stones import misnamed_tombstones, unreadable_tombstones
from .lookup import (
    created_beside,
    find,
    guard,
    refuse_ambiguous,
    rename_missing,
    renamed_elsewhere,
    same_name_elsewhere,
    unreadable,
    writable,
)

# the other results: imported by the functions that build them (hot46: a write, which loads this module, builds none)
TYPE_CHECKING = False  # as typing.TYPE_CHECKING
if TYPE_CHECKING:
    from ..results.memories import (
        ClearResult,
        DeleteResult,
        Link,
        ListResult,
        PruneResult,
        ReadResult,
    )

_LINK = re.compile(r"\[\[([a-z0-9]+(?:-[a-z0-9]+)*)\]\]")
"""A link in a body: ``[[name]]`` with a memory name exactly as stored
(kebab-case, seed §A13); anything else (``[[BAD NAME]]``, ``[[a|b]]``) is
text, not a link."""
MAX_LINKS = 3  # linked memories listed by a read (DESIGN §7)


def time_arg(value: str | datetime | None, label: str, notes: list[str] | None = None) -> datetime | None:
    """A time argument: None/empty, a datetime, or text :func:`parse_time`
    reads (no zone = local time; a date alone = that whole local day, so a
    ``valid_until`` date ends with the day). A local time in a
    daylight-saving gap is read one way and said in ``notes``
    (:func:`memfile.time_note`). Raises :class:`InvalidInput` naming
    ``label``, also for a year outside 1000–9998 and for a number (``12345``,
    which the file reader takes for epoch seconds, is no time a person means)."""
    if value is None or value == "":
        return None
    number = isinstance(value, (int, float)) or (isinstance(value, str) and re.fullmatch(r"\s*[+-]?[\d.]+\s*", value))
    parsed = None if number else parse_time(value, end_of_day=label == "valid_until")
    year = re.match(r"\s*([+-]?\d+)-", value) if isinstance(value, str) else None
    if parsed is None and year and not MIN_YEAR <= int(year.group(1)) <= MAX_YEAR:
        raise InvalidInput(f"{{argument}}: the year must be from {MIN_YEAR} to {MAX_YEAR} (got {value!r})", argument=label)
    if parsed is None:
        raise InvalidInput(f"{{argument}}: cannot read {value!r} as a time (use ISO-8601, e.g. 2026-11-30T12:00:00Z, "
                           "or a date, 2026-11-30)", argument=label)
    refusal, note = time_note(value, parsed)
    if refusal:
        raise InvalidInput(f"{{argument}}: {refusal}", argument=label)
    if note and notes is not None:
        notes.append(f"{label}: {note}")
    return parsed


# ---------------------------------------------------------------- the tools


def write(session: Session, change: MemoryChange, scope: str | None = None, *, times: tuple = ()) -> WriteResult:
    """Create or update a memory (``memory_write``) as ``change`` asks (:class:`MemoryChange`); see
    :func:`memdir.gateway.changes.write` (``rename_from``: rename that memory to ``name``; ``clear``: fields
    to empty). A description, type or body not given (None) keeps the memory's
    (:func:`memdir.gateway.fields.inherit`: a new memory needs a description and is of its layer's type:
    :func:`memdir.vocabulary.default_type`);
    ``body=""`` empties the body (an empty ``body_source`` stream not). Valid times given as text are read
    here (:func:`time_arg`); a note on how one was read is a warning of the result.

    ``scope`` None: where the memory already is (a name two layers hold is refused:
    :func:`memdir.operations.lookup.refuse_ambiguous`), else the user layer for
    ``type="user"`` (facts about the person hold in every project), else the
    project layer. A type change that would put the memory in the other of these two
    layers is refused (:class:`InvalidInput`) unless ``scope`` says which. A write for the team layer by anyone but a person (or
    asked as a candidate) is a candidate kept in the person's home (:func:`memdir.operations.team.propose`).
    The tombstones of the session's other layers guard the write (:func:`guard`); one that cannot be read is
    skipped, said in the warnings. Limits come from the settings (title 80, description 160 characters
    by default; cut with a warning; a body is cut only for a model's write, 2000 by default:
    :func:`memdir.gateway.fields.body_limit`; a file over ``max_file_bytes`` is refused). Secrets are
    redacted and counted. Raises :class:`InvalidInput`, :class:`ScopeError`,
    :class:`TombstoneRefused`, :class:`Conflict` (another name normalizing to
    the same file), :class:`Refused` (a superseded memory, unless
    ``reactivate``), :class:`LockTimeout`. ``times``: an importer's source times
    (:func:`memdir.gateway.changes.write`; not for a team candidate).
    """
    name, type, rename_from = change.name, change.type, change.rename_from
    asked = scope  # an unscoped write creates only a name no layer holds (refuse_ambiguous)
    if scope is None:
        held = refuse_ambiguous(session, rename_from or name, "write")  # where it is: an older name too
        implied = "user" if type == "user" and session.settings.enable_user_scope else "project"
        scope, entry = next(((s, session.layer(s).lookup(n)) for s, n in held), (implied, None))
        key = entry.record.name if entry is not None else normalize_name(rename_from or name).name
        if entry is None and rename_from is not None and session.scopes():  # each, not one
            raise _unread(session, rename_from, session.scopes()) or rename_missing(rename_from, session.scopes())
        if type is not None and entry is not None and scope in ("user", "project") and scope != implied \
                and entry.record.type != type:
            raise InvalidInput(
                f"memory {key!r} is in the {scope} layer, but type {type!r} belongs in the {implied} layer: "
                f"give scope {scope!r} to keep it where it is, or write it in the {implied} layer "
                f"(scope {implied!r}) and delete it from the {scope} layer")
    if scope == "team" and (session.actor != "human" or change.status == "candidate"):
        session.check_scope("team")  # the agent and consolidation propose; a person approves (DESIGN §2)
        # the team layer's rules load with a team write, not with every write
        from . import team as teamops

        return teamops.propose(session, _timed(change))
    layer = session.layer(scope)
    notes: list[str] = []
    stones = guard(session, layer)
    try:
        result = gateway.write(layer, _timed(change, notes), actor=session.actor, session=session.id, guard=stones,
                               times=times)
    except NotFound as exc:  # a rename from a memory of another layer than the one asked says which
        if rename_from and (there := _unread(session, rename_from, (layer.scope,))) is not None:
            raise there from None
        raise (renamed_elsewhere(exc, session, rename_from, scope) if rename_from else exc) from None
    result = _said(session, layer.scope, change, result, notes, stones.skipped, held_memories(session.home))
    beside = created_beside(session, layer.scope, result.name) if asked and result.operation == "created" else None
    if beside:
        result = replace(result, warnings=(*result.warnings, beside))
    return _told_replaced(session, layer, result)


def _told_replaced(session: Session, layer: Layer, result: WriteResult) -> WriteResult:
    """``result`` of an update (one of :func:`write`, or each of :func:`write_batch`, in order), warned when
    the version it replaced was written by another writer while this session ran and this session never
    read nor wrote it (:meth:`memdir.session.Session.unseen`: two agents saving the same name at once; the
    later one is told it replaced the earlier, which stays in history), naming that version's number, time
    and writer; the session then knows the version it wrote. A version made outside memdir (``outside``: a
    person's edit, whose file keeps the ``updated`` and ``origin`` of the version it changed) is no other
    writer's: the kept-edit sentence tells it, and this warning's time and writer would be the earlier
    version's (flaky48: said or not by whether that earlier write fell in the session's first second)."""
    gone = result.replaced
    if gone is not None and not gone.outside and session.unseen(layer.scope, result.name, gone.digest, parse_time(gone.written)):
        try:  # the newest version with those bytes (a batch may have written the name again after this write)
            number = next((v.version for v in reversed(layer_history(layer, result.name))
                           if v.digest == gone.digest), None)
        except (StoreError, OSError):
            number = None
        which = f"version {number}" if number else "the version"
        result = replace(result, warnings=(*result.warnings, (
            f"{result.name!r} was written by another writer while this session ran: this write replaced {which}, "
            f"written at {gone.written} by {gone.by or 'an unknown writer'}, which this session had not read (it is "
            "kept in the memory's history)")))
    session.saw(layer.scope, result.name, result.digest)
    return result


def _unread(session: Session, name: str, scopes) -> NotFound | None:
    """The refusal of a rename from ``name`` whose file one of ``scopes``' layers holds but cannot read
    (:func:`memdir.operations.lookup.unreadable`: permission denied, not UTF-8…), else None: the memory
    exists, so "no such memory" would be false. A layer that cannot be listed is passed over."""
    for scope in scopes:
        try:
            if (there := unreadable(session.layer(scope), name)) is not None:
                return there
        except (StoreError, InvalidInput):
            continue
    return None


def write_batch(session: Session, writes: Sequence[BatchWrite], scope: str, *,
                done: Callable[[int, WriteResult | Exception], None] | None = None) -> list[WriteResult | Exception]:
    """Write ``writes`` into the session's ``scope`` layer (``user`` | ``project``) in one transaction
    (:func:`memdir.gateway.writing.write_batch`), each as :func:`write` with that ``scope`` would: its result
    or the exception :func:`write` would raise, in order; ``done(index, value)`` told as the gateway settles
    each. Raises :class:`InvalidInput` (the team layer: its writes are proposals), :class:`ScopeError`,
    :class:`LockTimeout`, :class:`StoreError`."""
    if scope not in ("user", "project"):
        raise InvalidInput(f"a batch of writes goes to the user or the project layer, not {scope!r}")
    layer = session.layer(scope)
    stones, held = guard(session, layer), held_memories(session.home)
    notes: list[list[str]] = [[] for _ in writes]
    values: list = [None] * len(writes)
    ready: list[tuple[int, BatchWrite]] = []  # (index in writes, the write with its valid times read)
    for i, one in enumerate(writes):
        try:
            ready.append((i, replace(one, change=_timed(one.change, notes[i]))))
        except InvalidInput as exc:  # a valid time that does not read: refused as write() refuses it
            values[i] = exc
    told = writing.write_batch(layer, [one for _, one in ready], actor=session.actor, session=session.id,
                               guard=stones, done=done and (lambda k, value: done(ready[k][0], value)))
    for (i, _), value in zip(ready, told):  # in order: a later write of a name replaces the one before, seen
        values[i] = _told_replaced(session, layer, _said(session, layer.scope, writes[i].change, value, notes[i],
                                                         stones.skipped, held)) \
            if isinstance(value, WriteResult) else value
    return values


def _said(session: Session, scope: str, change: MemoryChange, result: WriteResult, notes: list[str],
          skipped: tuple[str, ...], held: set) -> WriteResult:
    """``result`` of :func:`write` of ``change`` with the session's warnings (``notes``: how a valid time was read; a
    sync conflict's, ``held``; tombstones not read, ``skipped``); a live write ends the findings it covers."""
    if (scope, result.name) in held:  # warned, not refused: see held_warning
        notes = [*notes, held_warning(result.name, scope)]
    if notes or skipped:
        result = replace(result, warnings=(*notes, *result.warnings, *skipped))
    if result.status == "active" and result.operation != "unchanged":
        _expire_pending(session, coverage.memory_text(result.name, change.description, change.body),
                        coverage.memory_text(result.name, change.title, change.description))
    return result


def held_warning(name: str, scope: str) -> str:
    """The warning of a write to a memory a sync conflict holds back. A warning, not a refusal: the write is
    this machine's new value and the agent's or person's update must not be lost; but it settles the
    conflict with this machine's version at the next sync, so the person is told how to look first."""
    return (f"{name} has a sync conflict: this write settles it with this machine's version at the next "
            f"`memdir sync`; see the other machine's value first: memdir sync resolve {name} --scope {scope}")


def edit(session: Session, name: str, change: edits.BodyEdit, scope: str | None = None) -> edits.EditResult:
    """Make a partial edit (``memory_edit``, the memory tool's ``str_replace`` and ``insert``) to the
    body of memory ``name``: in ``scope``, else the one layer of the session holding it (:func:`find`; a
    name two layers hold is refused, as for :func:`write` and :func:`delete`:
    :func:`memdir.operations.lookup.refuse_ambiguous`).
    The edit is made to the body as it is now and written through the gateway
    (:func:`memdir.gateway.edits.edit`: compare-and-set, the other layers' tombstones guard it); in the
    team layer, the agent's edit is a candidate for a person's review, as its writes are (:func:`write`).
    Raises :class:`NotFound`, :class:`InvalidInput` (the text to replace is missing or not unique, the
    line is past the end, the body would pass its limit), :class:`TombstoneRefused`, :class:`Refused`,
    :class:`Conflict`, :class:`LockTimeout`."""
    if scope is None:
        refuse_ambiguous(session, name, "edit")
    layer, entry = find(session, name, scope)
    if layer.scope == "team" and session.actor != "human":
        stored, body, line, _ = edits.edited_body(layer, entry.record.name, change)
        result = write(session, MemoryChange(stored, body=body), "team")
        return edits.EditResult(**{**vars(result), "line": line})
    stones = guard(session, layer)
    result = edits.edit(layer, entry.record.name, change, actor=session.actor, session=session.id, guard=stones)
    session.saw(layer.scope, result.name, result.digest)  # an edit changes the body as it is: seen
    return replace(result, warnings=(*result.warnings, *stones.skipped)) if stones.skipped else result


def _timed(change: MemoryChange, notes: list[str] | None = None) -> MemoryChange:
    """``change`` with its valid times read (:func:`time_arg`), how each was read added to ``notes``."""
    return replace(change, valid_from=time_arg(change.valid_from, "valid_from", notes),
                   valid_until=time_arg(change.valid_until, "valid_until", notes))


def _expire_pending(session: Session, memory_text: str, head_text: str, *, forgotten: bool = False) -> None:
    """A write that covers a pending finding of this project ends it (:mod:`memdir.prompt.pending`; ``memory_text``:
    its name, description and body; ``head_text``: its name, title and description, for a vague request); so does
    a delete or forget that tombstoned a value the finding holds (``forgotten``; ``head_text``: its description:
    :func:`memdir.prompt.pending.drop_forgotten`)."""
    if session.project_root is None:
        return
    project_dir = session.layer_dir("project")
    try:
        if not (project_dir / pending.META_DIR / pending.PENDING_FILE).is_file():
            return  # the common case: nothing pending, no lock taken
    except OSError:
        return  # a project layer this user cannot read: nothing of it to expire
    try:
        with session.layer("project").locked():
            (pending.drop_forgotten if forgotten else pending.expire_covered)(project_dir, memory_text, head_text)
    except (StoreError, LockTimeout):
        pass  # the write is done; a pending item it covered then just expires by its showings


def read(session: Session, name: str, scope: str | None = None, *, count: bool = True) -> ReadResult:
    """A memory's full text (``memory_read``) and up to :data:`MAX_LINKS`
    memories its body links with ``[[name]]`` (:data:`_LINK`), in the order
    first linked: a link to itself, a repeat, a name no layer of the session
    holds and a memory withheld from the index (a candidate, superseded or
    expired) are skipped and do not count; ``truncated`` says that more
    linked memories exist than are listed. ``count`` bumps ``reads`` and
    ``last_read`` (:func:`memdir.gateway.changes.touch`: the file is not
    changed; best effort: a read-only home still reads). Raises :class:`NotFound`."""
    from ..results.memories import ReadResult

    layer, entry = find(session, name, scope)
    if count:  # counted in the layer's usage file: the memory file (the team's: in the repository) stays as it is
        try:
            entry = gateway.touch(layer, entry.record.name, session=session.id, actor=session.actor) or entry
        except (StoreError, LockTimeout):
            pass  # counting a read is best-effort (seed §A8)
    linked, truncated = _links(session, entry.record)
    session.saw(layer.scope, entry.record.name, entry.digest)
    return ReadResult(entry.record, layer.scope, linked, entry.digest, truncated,
                      successor(entry.record, layer.lookup, layer.tombstones),
                      same_name_elsewhere(session, layer.scope, entry.record.name, scope))


def count_given(session: Session, given: dict[str, int]) -> int:
    """Count as reads the bodies recall gave in ``session``'s conversation since they were last counted:
    ``given`` is what :func:`memdir.prompt.recalled.take_unread` took from the session's record (so each giving
    counts once): each ``<scope>/<name>`` given ``n`` times gets ``n`` reads and ``last_read`` now, by the rule a
    ``memory_read`` counts by (:func:`memdir.gateway.changes.touch`). Called at the session's end (its hooks'
    end moment), never on a prompt's path: the prompt hook only records what it gave. A memory gone or
    renamed since, a scope the session no longer has, or a layer that cannot be written loses its count
    (best effort, as a read's count). Returns how many memories were counted. Never raises for those."""
    from ..errors import MemdirError

    counted = 0
    for key, times in given.items():
        scope, _, name = key.partition("/")
        if scope not in session.scopes():
            continue
        try:
            counted += gateway.touch(session.layer(scope), name, session=session.id, actor=session.actor,
                                     times=times) is not None
        except (MemdirError, OSError):
            continue  # counting a read is best-effort (seed §A8)
    return counted


def count_recalled(session: Session) -> int:
    """The session's end (or a harness's turn's): the bodies recall gave ``once`` in ``session`` (its id, in its
    project: :func:`memdir.prompt.recalled.take_unread`) since they were last counted are counted as reads
    (:func:`count_given`), each giving once. The library's moment (:meth:`memdir.api.Memory.session_ended`); the
    hooks take their record at their end events themselves. 0 for a session without an id or with nothing given.
    Returns how many memories were counted. Never raises for a memory gone or a layer that cannot be written."""
    from ..prompt.recalled import take_unread

    given = take_unread(session.home, session.id, session.root_path)
    return count_given(session, given) if given else 0


def _links(session: Session, record) -> tuple[tuple[Link, ...], bool]:
    """The first :data:`MAX_LINKS` memories ``record``'s body links to, and
    whether a further one exists (the walk stops at the first beyond)."""
    from ..results.memories import Link

    linked: list[Link] = []
    seen, now = {record.name}, now_utc()
    for match in _LINK.finditer(record.body):
        if match.group(1) in seen:
            continue
        seen.add(match.group(1))
        try:
            _, other = find(session, match.group(1), explain=False)
        except (NotFound, InvalidInput):
            continue
        if other.record.name in {record.name, *(link.name for link in linked)} or not is_current(other.record, now):
            continue  # found by title: itself or one already listed; or not current, as the index says
        if len(linked) == MAX_LINKS:
            return tuple(linked), True
        linked.append(Link(other.record.name, other.record.description))
    return tuple(linked), False


def list_memories(session: Session, scope: str | None = None, *, include_all: bool = False,
                  as_of: str | datetime | None = None, valid_at: str | datetime | None = None) -> ListResult:
    """Memories per scope, user first, in index order (``memory_list``).

    Default: active and current memories, muted and stale ones included (they
    are out of the index, not out of the store). ``include_all`` adds
    candidates, superseded and expired ones. ``as_of`` shows what the journal
    held at that time; ``valid_at`` what was true in the world then.

    Each layer answers from what it keeps per memory (:meth:`memdir.layer.layer.Layer.facts_now`):
    only files changed since the layer recorded them are parsed; a large layer's files are stat'ed
    only by its sweep (:mod:`memdir.files.sweeps`), a small one's every time.
    """
    from ..results.memories import ListResult, info_of

    now = now_utc()
    as_of_t = time_arg(as_of, "as_of")
    valid_t = time_arg(valid_at, "valid_at")
    stale = session.settings.stale_after_days
    memories, malformed, failed = [], [], []
    layers = session.layers(scope)
    for layer in layers:
        digests: dict[str, str | None] = {}  # name → its file's digest as listed (a change's expect_digest)
        waiting: dict[int, str] = {}  # id of a team candidate's record → its own file's digest (in the home)
        if as_of_t is not None:
            records = records_as_of(layer, as_of_t)
        else:
            try:  # what the layer keeps of each memory: only files changed since it recorded them are read
                scan, facts = layer.facts_now()
            except StoreError as exc:  # listed as unreadable; the other layers are still listed
                failed.append(exc)
                malformed.append(Malformed(str(layer.path), f"layer skipped: {exc}"))
                continue
            malformed.extend(scan.malformed)
            malformed.extend(Malformed(path, why) for path, why in (unreadable_tombstones(layer.tombstone_file)
                                                                    + misnamed_tombstones(layer.tombstone_file)))
            records = list(facts.values())
            digests = {name: state.digest for name, file in scan.names.items()
                       if (state := scan.files.get(file)) is not None}
            if layer.scope == "team" and include_all:
                # candidates for the team wait in the home: each lists its own file's digest, and the team
                # memory of the same name keeps its own (a button on its row checks the version it shows)
                from . import team as teamops

                entries = teamops.pending_entries(session)
                records += [entry.record for entry in entries]
                waiting = {id(entry.record): entry.digest for entry in entries}
        if valid_t is not None:
            records = [r for r in records if r.status != "candidate"
                       and (r.valid_from is None or r.valid_from <= valid_t)
                       and (r.valid_until is None or valid_t < r.valid_until)]
        elif not include_all:
            records = [r for r in records if is_current(r, as_of_t or now)]
        memories.extend(info_of(record, layer.scope, now, stale,
                                waiting[id(record)] if id(record) in waiting else digests.get(record.name))
                        for record in ordered(records, now))
    held = held_memories(session.home)
    if held:
        memories = [replace(m, sync_conflict=True) if (m.scope, m.name) in held else m for m in memories]
    if failed and len(failed) == len(layers):
        raise failed[0]
    unavailable = session.project_error if scope is None and session.project_root is None else None
    return ListResult(tuple(memories), tuple(malformed), unavailable)


def _held(session: Session, name: str, scope: str):
    """The layer of ``scope`` when it holds back a file of memory ``name`` (:mod:`memdir.layer.held`), else None."""
    layer = session.layer(scope)
    try:
        found = layer.scan()
    except StoreError:
        return None
    key = normalize_name(name).name
    return layer if key not in found.entries and layer.held_file(found, key) is not None else None


def delete(session: Session, name: str, scope: str | None = None, *, reason: str | None = None,
           forget: bool = False, expect_digest: str | None | bool = NO_CHECK) -> DeleteResult:
    """Delete a memory and tombstone its value (``memory_delete``): the same
    value is refused from then on, from every path, until a person lifts the
    tombstone. ``forget``: "the user says this is wrong", journaled as
    ``forget``. Without ``scope``, a name held by two of the session's layers
    is refused (:func:`memdir.operations.lookup.refuse_ambiguous`: say which).
    A person naming the scope also deletes a file held back there (a forgotten value put back:
    :mod:`memdir.layer.held`), which no lookup finds; its tombstone stays.
    ``expect_digest``: the digest of the version the caller read (:attr:`memdir.results.memories.ReadResult.digest`,
    :attr:`memdir.results.memories.MemoryInfo.file_digest`); another version, or none, is not deleted
    (:func:`memdir.gateway.compare.unchanged`).
    Raises :class:`NotFound`, :class:`InvalidInput`, :class:`Conflict` (changed since read)."""
    action = "forget" if forget else "delete"
    if scope is None:
        refuse_ambiguous(session, name, "delete")
    elif session.actor == "human" and (held := _held(session, name, scope)) is not None:
        return gateway.delete(held, name, actor=session.actor, session=session.id, reason=reason,
                              action=action, expect_digest=expect_digest)
    layer, entry = found_as_read(session, name, scope, expect_digest, action)
    # the other layers' live memories that may hold its value: a value one of them holds is not tombstoned
    indexed = session.indexed
    holders = deletion.holders_of([other for other in session.layers() if other is not layer], entry.record,
                                  session.actor, None if indexed is None else
                                  (lambda directory: indexed(session.home_path, directory)))
    try:  # the action says "forget"
        result = gateway.delete(layer, entry.record.name, actor=session.actor, session=session.id, action=action,
                                reason=reason, holders=holders,
                                expect_digest=_as_read(layer, entry, expect_digest, action))
    except Conflict as exc:
        if expect_digest is not NO_CHECK:
            if isinstance(expect_digest, str):  # None: "there was none when read", no digest to judge
                never_had(layer, entry, expect_digest, action)
            raise
        if exc.current is None:  # deleted meanwhile, as it was before a delete checked the version it found
            raise NotFound(f"memory not found: {entry.record.name} in the {layer.scope} layer") from None
        raise Conflict(f"memory {entry.record.name!r} was written again while it was being "
                       f"{'forgotten' if forget else 'deleted'}; the newer version was kept and nothing was "
                       f"tombstoned: read it again to see it, and {action} it again to {action} that too", memory=entry.record.name, current=exc.current) from None
    if result.tombstone is not None:  # the value is refused from now on: no pending finding asks for it again
        record = entry.record
        _expire_pending(session, coverage.memory_text(record.name, record.description, record.body),
                        record.description, forgotten=True)
    return result


def _as_read(layer: Layer, entry: Entry, expect_digest: str | None | bool, action: str) -> str | None:
    """The digest a delete or forget checks under the layer lock (:func:`memdir.gateway.compare.unchanged`): the
    version the caller read (``expect_digest``: all 64 hex digits, or a person's prefix of at least
    :data:`memdir.gateway.compare.MIN_DIGEST`), or, given none, the version this lookup found (``entry``) — so a
    write landing between the lookup and the lock is kept, never tombstoned unseen in the forgotten one's place
    (break29: a forget racing an agent's write of the same name). Raises :class:`Conflict` for a prefix the
    version found does not carry (:class:`InvalidInput` for one no version of it ever carried: :func:`never_had`),
    :class:`InvalidInput` for one too short."""
    if expect_digest is NO_CHECK:
        return entry.digest
    if isinstance(expect_digest, str) and len(expect_digest.strip()) < len(entry.digest):
        if not compare.typed(expect_digest, entry.digest):
            raise Conflict(f"memory {entry.record.name!r} changed since it was read (digest "
                           f"{expect_digest.strip()[:16]}, now {entry.digest[:16]}); the {action} was not made: "
                           "re-read it and try again", memory=entry.record.name, current=entry.digest)
        return entry.digest
    return expect_digest


def never_had(layer: Layer, entry: Entry, given: str, action: str) -> None:
    """Raise :class:`InvalidInput` when ``given`` (a digest a caller passed, all 64 hex digits or a prefix) is the
    digest of no version ``layer``'s journal keeps of ``entry``'s memory nor of its file now: made up or mistyped,
    not "changed since it was read" (newuser31: ``forget NAME --digest 000000000000`` claimed a change). The
    message names the digest now and where the versions' are listed; nothing is changed. Returns when some
    version had it, or when the history cannot be read (the caller's :class:`Conflict` then stands)."""
    name = entry.record.name
    try:
        had = [version.digest for version in layer_history(layer, name) if version.digest]
    except StoreError:
        return
    if any(compare.typed(given, digest) for digest in (*had, entry.digest)):
        return
    raise InvalidInput(f"digest {given.strip()[:64]} is not one memory {name!r} ever had (its digest now is "
                       f"{entry.digest[:16]}; reading it shows it, its history every version's); the {action} was "
                       "not made")


def found_as_read(session: Session, name: str, scope: str | None, expect_digest: str | None | bool,
                  change: str) -> tuple[Layer, Entry]:
    """The layer and entry of memory ``name`` for a ``change`` (a noun: ``"delete"``, ``"pin"``…) asked
    on the version the caller read (``expect_digest``, as :func:`delete` takes it). A memory gone since it
    was read, in the ``scope`` named, is refused by the one rule of a version read
    (:func:`memdir.gateway.compare.unchanged`: :class:`Conflict`, "was deleted since it was read"), not
    reported as never found. Raises :class:`NotFound`, :class:`Conflict`."""
    try:
        return find(session, name, scope)
    except NotFound:
        if scope is None or expect_digest is NO_CHECK or expect_digest is None:
            raise
        compare.unchanged(None, expect_digest, normalize_name(name).name, change)
        raise


def prune(session: Session, older_than_days: int, scope: str | None = None, *, dry_run: bool = True) -> PruneResult:
    """Memories not updated for ≥ ``older_than_days`` whole days, pinned ones
    kept (``memory_prune``); deleted (without tombstones) only when
    ``dry_run`` is False. Raises :class:`InvalidInput`."""
    from ..results.memories import PruneResult

    found, deleted = [], 0
    for layer in writable(session, scope):
        if dry_run:
            found.extend(gateway.prune_candidates(layer, older_than_days))
        else:
            done = gateway.prune(layer, older_than_days, actor=session.actor, session=session.id)
            found.extend(done)
            deleted += len(done)
    return PruneResult(dry_run, older_than_days, tuple(found), deleted)


def clear(session: Session, scope: str | None = None, *, confirm: bool = False) -> ClearResult:
    """Delete every memory of ``scope`` (every scope of the session when
    None), one lock window per layer (``memory_delete_all``); tombstones stay.
    Raises :class:`ConfirmationRequired` unless ``confirm`` is True."""
    from ..results.memories import ClearResult, LayerCount

    if confirm is not True:
        raise ConfirmationRequired("memory_delete_all requires confirm=true (destructive); ask the user first")
    return ClearResult(tuple(LayerCount(layer.scope, gateway.clear(layer, actor=session.actor, session=session.id))
                             for layer in writable(session, scope)))


__all__ = ["MAX_LINKS", "clear", "delete", "edit", "found_as_read", "list_memories", "never_had", "prune", "read",
           "time_arg", "write"]
