"""Consolidation: from a finished session's transcript to at most N memory changes (DESIGN §7).

One run, in order:

1. read and bound the transcript (:mod:`memdir.consolidation.transcripts`) and redact
   secrets from it — nothing secret reaches an extractor, a model or a receipt;
2. a transcript whose digest already has a finished receipt is done: nothing
   happens (the same transcript twice does nothing the second time);
3. the gate (:mod:`memdir.consolidation.gate`) decides whether anything durable was said;
4. snapshot every layer's memories (name → file digest) and tombstones, and
   call the extractor *without any lock held* — a model call can take a
   minute and other writers must not wait for it; the call and its answer are
   journaled before anything is applied (:mod:`memdir.consolidation.intent`), so
   a rerun after a kill applies that answer again instead of calling the model;
5. apply the proposals, at most ``consolidation_max_proposals`` changes, each
   under its layer's lock and compare-and-set against the snapshot: a target
   whose digest moved (edited, pinned, deleted, created meanwhile) is skipped
   and reported, never overwritten;
6. journal one receipt: transcript digest, gate result, extractor and model,
   the raw reply, every proposal and its outcome.

Proposals are ``create``, ``update <existing name>``, ``supersede <existing
name>`` or ``forget <existing name>``; a target is named exactly, never found by
similarity. Every write goes through the gateway as actor ``extracted``.
Consolidation revises its own unreviewed memories in place; a change to a
memory a person or the agent wrote becomes a separate ``candidate`` memory
(``candidate_for: <target>``) that a person approves or rejects, so the
original stays active meanwhile. A proposal identical to what is stored is a
no-op. A proposal matching a tombstone (:mod:`memdir.tombstones.match`: the
same value, words or fact, restated or reworded) is refused. Forgetting a
memory a person or the agent wrote is left to a person.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import (
    Conflict,
    InvalidInput,
    LockTimeout,
    ModelError,
    NotFound,
    Refused,
    ScopeError,
    StoreError,
    TombstoneRefused,
)
from ..files.fsio import read_foreign
from ..gateway.changes import receipt
from ..gateway.fields import MemoryChange, candidate_name, free_name, inherit, prepare
from ..gateway.naming import name_taken
from ..layer.succession import successor, superseded_refusal
from ..operations.lookup import guard
from ..operations.memories import delete, write
from ..session import Session
from ..text.names import normalize_name, same_name
from ..text.redact import redact
from ..tombstones.match import Tombstone, outcome
from ..tombstones.match import match as match_tombstone
from . import intent
from .extractors import resolve_extractor
from .extractors.subjects import drifts
from .proposals import (  # noqa: F401  (re-exported: the extractor protocol is part of this API)
    ACTIONS,
    ConsolidationReport,
    ExistingMemory,
    ExtractionContext,
    ExtractionResult,
    Extractor,
    Outcome,
    Proposal,
    Receipt,
)

MAX_PARSED = 50          # proposals read from one reply at most; the rest are ignored (reported)
RAW_LIMIT = 20_000       # characters of the raw reply kept in the receipt
WORKSPACE_LIMIT = 4_000  # characters of AGENTS.md/CLAUDE.md given to the extractor
WORKSPACE_FILES = ("AGENTS.md", "CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
# Receipt statuses after which the same transcript is not consolidated again.
DONE = ("ok", "noop", "gated", "pending")


# ---------------------------------------------------------------- helpers


SCRUB_DEPTH = 32  # levels of a receipt value kept; a model's item nested deeper is said, not kept (nor recursed)


def scrub(value: Any, depth: int = 0) -> Any:
    """``value`` with every string redacted (for receipts and logs); a list or object nested more than
    :data:`SCRUB_DEPTH` levels down is replaced by a note (a model's reply nested 980 deep once took the
    run down with RecursionError, its good proposals with it)."""
    if isinstance(value, str):
        return redact(value).text
    if isinstance(value, (dict, list, tuple)) and depth >= SCRUB_DEPTH:
        return f"(nested more than {SCRUB_DEPTH} levels deep: left out)"
    if isinstance(value, dict):
        return {k: scrub(v, depth + 1) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [scrub(v, depth + 1) for v in value]
    return value


def _redacted(transcript):
    """The transcript with secrets redacted, and how many were."""
    from .transcripts import Turn

    turns, count = [], 0
    for t in transcript.turns:
        result = redact(t.text)
        count += sum(result.counts.values())
        turns.append(Turn(t.role, result.text, t.ts, t.cut))
    return transcript.with_turns(turns), count


def workspace_text(root: Path | None, limit: int = WORKSPACE_LIMIT) -> str:
    """The start of the workspace's AGENTS.md / CLAUDE.md files (``limit``
    characters in all, each headed by its file name), or ``""``. Each is read
    as a foreign file (:func:`memdir.files.fsio.read_foreign`: its first bytes
    only; one that is not a regular file, such as a FIFO, is passed over)."""
    if root is None:
        return ""
    parts, used = [], 0
    for rel in WORKSPACE_FILES:
        found = read_foreign(Path(root) / rel, 4 * limit, head=True)  # UTF-8: at most 4 bytes a character
        if found.data is None:
            continue
        text = found.data.decode("utf-8", errors="replace").strip()
        if not text:
            continue
        chunk = f"## {rel}\n{text}"[: max(0, limit - used)]
        if not chunk:
            break
        parts.append(chunk)
        used += len(chunk) + 2
    return "\n\n".join(parts)


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


# ---------------------------------------------------------------- snapshot and receipts


@dataclass
class _Snapshot:
    entries: dict            # scope -> {name: Entry}
    stones: list[Tombstone]
    skipped: tuple[str, ...] = ()  # layers whose tombstones could not be read (lookup.guard), a warning each

    def find(self, name: str, scope: str | None) -> tuple[str, Any] | None:
        scopes = [scope] if scope in self.entries else list(self.entries)
        for s in scopes:
            if name in self.entries[s]:
                return s, self.entries[s][name]
        return None


def _snapshot(session: Session) -> _Snapshot:
    entries = {layer.scope: dict(layer.scan().entries.items()) for layer in session.layers()}  # a file gone: left out
    stones = guard(session)  # every layer's: a proposal's layer is chosen after
    return _Snapshot(entries, list(stones), stones.skipped)


def _receipt_scope(session: Session) -> str | None:
    if session.project_root is not None:
        return "project"
    return "user" if session.settings.enable_user_scope else None


def seen(session: Session, digest: str) -> bool:
    """True when a finished receipt for this transcript digest is in the
    receipt layer (project, else user)."""
    scope = _receipt_scope(session)
    if scope is None:
        return False
    for event in session.layer(scope).journal.events():
        if event.action == "receipt" and event.data.get("kind") == "consolidation":
            if event.data.get("transcript", {}).get("digest") == digest and event.data.get("status") in DONE:
                return True
    return False


def _journal(session: Session, report: ConsolidationReport) -> ConsolidationReport:
    """Journal the run's receipt (not for a dry run); the report with where it went."""
    scope = _receipt_scope(session)
    if scope is None or report.dry_run:
        return report
    data = scrub({"kind": "consolidation", **report.to_dict(), "raw": (report.raw or "")[:RAW_LIMIT] or None})
    data.pop("receipt", None)
    event = receipt(session.layer(scope), data, actor=session.actor, session=session.id)
    return replace(report, receipt=Receipt(scope, event.seq))


# ---------------------------------------------------------------- applying


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


def _apply(writer: Session, snap: _Snapshot, index: int, p: Proposal, dry_run: bool) -> Outcome:
    settings = writer.settings
    scopes = writer.scopes()
    fail = lambda result, detail, **kw: Outcome(index, p.action, result, detail=detail, **kw)  # noqa: E731
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
            desc, kind, body = inherit(old, desc, kind, body)
        if old is not None and (old.description, old.body, old.type) == (desc, body, kind) and action == "update":
            return fail(("would-" if dry_run else "") + "unchanged", "identical to what is stored",
                        name=target, target=target, scope=scope)
        same = next((e.record.name for e in snap.entries.get(scope, {}).values()
                     if (e.record.description, e.record.body) == (desc, body)), None)
        if same is not None and action == "create":
            return fail(("would-" if dry_run else "") + "unchanged", f"identical to {same!r}", name=same,
                        scope=scope)
        found = match_tombstone(snap.stones, desc, body, name=name or target, actor="extracted", title=title)
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


def _keep_pending(writer: Session, snap: _Snapshot, found, dry_run: bool, notes: list,
                  during: tuple | None = None) -> tuple[str, ...]:
    """Keep the agent extractor's findings as pending in the project layer
    (:mod:`memdir.prompt.pending`): those matching a tombstone are dropped
    (noted), and so are those a live memory written ``during`` the session
    covers (:func:`_held`): the agent saved it before the session's end queued
    the transcript. Returns the texts kept (in a dry run: that would be kept)."""
    from ..prompt import pending

    texts = []
    for item in found:
        hit = match_tombstone(snap.stones, item[1], "", actor="extracted")
        held = _held(snap, item[1], during)
        if hit is not None:
            notes.append(f"pending finding not kept ({item[1][:60]}): {outcome(*hit)}")
        elif held is not None:  # trial22: saved during the session, then asked for again at the next start
            notes.append(f"pending finding not kept ({item[1][:60]}): memory {held[1]!r} ({held[0]}) holds it")
        else:
            texts.append(tuple(item))
    if not texts:
        return ()
    if writer.project_root is None:
        notes.append(f"{len(texts)} finding(s) not kept as pending: no project ({writer.project_error})")
        return ()
    if dry_run:
        return tuple(t[1] for t in texts)
    layer = writer.layer("project")
    try:
        with layer.locked():
            added = pending.add(layer.path, texts, writer.id)
    except (StoreError, LockTimeout) as exc:
        notes.append(f"{len(texts)} finding(s) not kept as pending: {exc}")
        return ()
    return tuple(item["text"] for item in added)


def _held(snap: _Snapshot, text: str, during: tuple | None) -> tuple[str, str] | None:
    """``(scope, name)`` of a live memory of ``snap`` written or changed ``during`` the session (``(first, last)``
    turn times of the transcript, to the second; None: unknown) that covers ``text``
    (:func:`memdir.prompt.pending.covers`, the rule by which a write ends a pending finding) and that ``text`` does
    not correct (:func:`memdir.prompt.pending.corrects`: a negation the memory does not make, a value it does not
    hold — a correction made of the saved memory's words is still proposed), or whose name, title or description
    names the whole topic of a vague request (:func:`memdir.prompt.pending.requested`: "Remember the search service
    facts" and ``search-service``); None when none does.
    A sentence of several facts the agent saved as several memories in that session ("dev postgres is on 5433,
    staging deploys need the VPN, and I prefer pnpm" → ``db-port``, ``deploy-vpn``, ``pnpm``) is held by them
    together: those of them that share a content word with it cover it and it corrects none of what they say
    together (then ``scope`` and ``name`` list each, joined by ``+``).
    What the agent (or a person) saved during the session is neither asked for again nor proposed again; a memory
    written after the session (an old transcript ingested later) is not counted: against a whole store the loose
    rule would drop findings that only share words."""
    from ..prompt import pending

    if during is None:
        return None
    written = [(scope, entry.record) for scope, entries in snap.entries.items() for entry in entries.values()
               if _written_since(entry.record, during[0]) and entry.record.updated <= during[1]]
    for scope, record in written:
        held = pending.memory_text(record.name, record.description, record.body)
        if ((pending.covers(text, held) and not pending.corrects(text, held))
                or pending.requested(text, pending.memory_text(record.name, record.title, record.description))):
            return scope, record.name
    sharing = [(scope, record, held) for scope, record in written
               if pending.shares(text, held := pending.memory_text(record.name, record.description, record.body))]
    together = "\n".join(held for _, _, held in sharing)
    if len(sharing) > 1 and pending.covers(text, together) and not pending.corrects(text, together):
        return ("+".join(dict.fromkeys(scope for scope, _, _ in sharing)),
                "+".join(record.name for _, record, _ in sharing))
    return None


def _written_since(record, since: datetime) -> bool:
    """Whether ``record`` is live (active, not muted) and was written or changed at or after ``since``, to the
    second (a memory's ``updated`` is written in whole seconds: one saved in the first turn's second counts)."""
    if record.status != "active" or record.disabled or record.updated is None:
        return False
    try:
        return record.updated >= since.replace(microsecond=0)
    except TypeError:  # one time without a zone: not comparable, so not counted
        return False


# ---------------------------------------------------------------- the run


def consolidate(session: Session, transcript, *, dry_run: bool = False, extractor=None, mode: str | None = None,
                max_proposals: int | None = None, force: bool = False,
                reference_time: datetime | None = None, under_hooks: bool = False) -> ConsolidationReport:
    """Consolidate one transcript into the layers of ``session``.

    ``transcript``: a path, text, bytes, message list or
    :class:`~memdir.consolidation.transcripts.Transcript`. ``extractor``: ``"rules"``,
    ``"llm"``, ``"auto"``, an :class:`Extractor`, or None (the setting).
    ``mode``: off | gated | always (default the setting). ``max_proposals``
    changes applied at most (default the setting, clamped to 1–20).
    ``dry_run``: decide everything, write nothing (no receipt). ``force``: run
    even when this transcript was done before. ``reference_time``: the time
    relative dates count from when a message has none (default now).
    ``under_hooks``: a hook queued the transcript at a session's end or compaction (``auto``
    then picks the agent extractor when no key or command is set;
    :mod:`memdir.consolidation.extractors`).

    Returns a :class:`ConsolidationReport`; an extractor failure is reported
    (status ``failed``, journaled), not raised. Raises :class:`InvalidInput`
    for an unreadable transcript or bad option.
    """
    from ..layer.journal import now_utc
    from . import gate as gate_mod
    from .transcripts import read_transcript

    settings = session.settings
    parsed, secrets = _redacted(read_transcript(transcript))
    mode = mode or settings.consolidation_mode
    limit = min(20, max(1, int(max_proposals or settings.consolidation_max_proposals)))
    writer = session.as_actor("extracted", session.id or parsed.session_id)
    report = ConsolidationReport("off", parsed.summary(), max_proposals=limit, dry_run=dry_run, redactions=secrets)
    if mode == "off":
        return replace(report, gate=gate_mod.check(parsed, "off"))
    if not parsed.turns:
        return replace(report, status="empty")  # nothing readable (empty, binary, only tool output): no receipt
    if not force and not dry_run and seen(writer, parsed.digest):
        return replace(report, status="seen")
    report = replace(report, gate=gate_mod.check(parsed, mode))
    if not report.gate.fire:
        return _journal(writer, replace(report, status="gated"))  # a dry run journals nothing
    chosen = resolve_extractor(extractor, settings, under_hooks=under_hooks)
    report = replace(report, extractor=chosen.name, model=chosen.model)
    snap = _snapshot(writer)
    existing = tuple(
        ExistingMemory(scope, e.record.name, e.record.type, e.record.description, e.record.origin,
                       e.record.status, e.record.pinned, e.record.body)
        for scope, entries in snap.entries.items() for e in entries.values())
    context = ExtractionContext(existing, tuple(s.description for s in snap.stones),
                                workspace_text(session.project_root), limit, reference_time or now_utc())
    scope = None if dry_run else _receipt_scope(writer)
    earlier = intent.prior(writer.layer(scope), parsed.digest) if scope is not None and not force else None
    said: list[str] = []  # what the journal's record of an earlier, cut run changed about this one
    if earlier is not None and earlier.stage == "replied" and earlier.reply is not None:
        # A run killed after its reply: that answer again, no second model call (the costly step).
        result = intent.answer(earlier.reply)
        said.append(f"the answer a run of this transcript recorded before it was cut (journal seq {earlier.seq}) "
                    "applied again; the extractor was not called")
    else:
        if scope is not None:
            intent.record(writer.layer(scope), parsed.digest, "started", actor=writer.actor, session=writer.id)
        try:
            result = chosen.extract(parsed, context)  # no lock is held here
        except ModelError as exc:
            return _journal(writer, replace(report, status="failed", error=str(exc), raw=getattr(exc, "raw", None)))
        if earlier is not None:  # started, never replied: cut during the call, so nothing to reuse
            said.append(f"a run of this transcript was cut during its extractor call (journal seq {earlier.seq}); "
                        "the extractor was asked again")
        if scope is not None:
            intent.record(writer.layer(scope), parsed.digest, "replied", actor=writer.actor, session=writer.id,
                          reply=intent.reply_of(result, RAW_LIMIT), scrub=scrub)
    proposals = tuple(result.proposals[:MAX_PARSED])
    notes = [*said, *result.notes]
    if len(result.proposals) > MAX_PARSED:
        notes.append(f"{len(result.proposals) - MAX_PARSED} proposal(s) beyond {MAX_PARSED} ignored")
    try:  # the transcript's first and last turns: what was saved between covers a finding or a proposal (_held)
        times = [turn.ts for turn in parsed.turns if turn.ts is not None]
        during = (min(times), max(times)) if times else None
    except TypeError:  # times with and without a zone: no turns to count between
        during = None
    outcomes, applied = [], 0
    for index, proposal in enumerate(proposals):
        if applied >= limit:
            outcomes.append(Outcome(index, proposal.action, "over-limit", name=proposal.name,
                                    target=proposal.target, detail=f"at most {limit} changes per run"))
            continue
        held = _held(snap, proposal.evidence or proposal.description, during) if proposal.action != "forget" else None
        if held is not None:  # trial23: Codex's Stop proposed again, as a candidate, what the agent had just saved
            outcomes.append(Outcome(index, proposal.action, ("would-" if dry_run else "") + "unchanged",
                                    name=held[1], target=proposal.target, scope=held[0],
                                    detail=f"memory {held[1]!r} ({held[0]}), written during the session, holds it"))
            continue
        outcome = _apply(writer, snap, index, proposal, dry_run)
        outcomes.append(outcome)
        if outcome.applied or (dry_run and outcome.result.startswith("would-")
                               and outcome.result != "would-unchanged"):
            applied += 1
    kept = _keep_pending(writer, snap, result.pending, dry_run, notes, during)
    report = replace(report, model=result.model or report.model, raw=result.raw, notes=tuple(notes),
                     invalid=tuple(result.invalid), proposals=proposals, outcomes=tuple(outcomes), pending=kept)
    if dry_run:
        return replace(report, status="dry-run")
    if any(o.result in ("skipped-changed", "skipped-locked", "skipped-unreadable") for o in outcomes):
        status = "partial"
    else:
        status = "ok" if report.applied else ("pending" if kept else "noop")
    return _journal(writer, replace(report, status=status))


__all__ = ["ACTIONS", "ConsolidationReport", "ExistingMemory", "ExtractionContext", "ExtractionResult",
           "Extractor", "Outcome", "Proposal", "consolidate", "resolve_extractor", "scrub", "seen",
           "workspace_text"]
