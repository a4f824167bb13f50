"""Consolidation: from a finished session's transcript to at most N memory changes (DESIGN §7).

One run, in order:

1. read the transcript, redact secrets from each message and bound it (:mod:`memdir.consolidation.transcripts`:
   redacted before it is cut, so no half of a secret survives the cut) — nothing secret reaches an extractor,
   a model or a receipt;
2. a transcript whose digest already has a finished receipt is done: nothing
   happens (the same transcript twice does nothing the second time);
3. the gate (:mod:`memdir.consolidation.gate`) decides whether anything durable was said;
4. snapshot every layer's memories (name → file digest) and tombstones, and
   call the extractor *without any lock held* — a model call can take a
   minute and other writers must not wait for it; the call and its answer are
   journaled before anything is applied (:mod:`memdir.consolidation.intent`), so
   a rerun after a kill applies that answer again instead of calling the model;
5. apply the proposals (:mod:`memdir.consolidation.applying`), at most ``consolidation_max_proposals`` changes, each
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
no-op, and so is an update that only restates what its target already says
(:func:`memdir.consolidation.applying.restated`: no candidate for review). A
proposal matching a tombstone (:mod:`memdir.tombstones.match`: the
same value, words or fact, restated or reworded) is refused. Forgetting a
memory a person or the agent wrote is left to a person.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from pathlib import Path
from typing import Any

from ..errors import LockTimeout, ModelError, StoreError
from ..files.fsio import read_foreign
from ..gateway.changes import receipt
from ..session import Session
from ..text.redact import redact
from ..tombstones.match import match as match_tombstone
from ..tombstones.refusals import lift_command, outcome
from . import intent
from .applying import Snapshot, apply_proposal, saying, snapshot
from .extractors import resolve_extractor
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
from .retraction import withdrawn

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
    """The transcript with secrets redacted, and how many were, by kind (``{"github-token": 1}``): those its
    reading redacted before it cut the messages (``transcript.redaction_kinds``:
    :func:`memdir.consolidation.transcripts.cutting.bound`) and any left in a
    :class:`~memdir.consolidation.transcripts.Transcript` a caller built (text redacted before counts nothing)."""
    from .transcripts import Turn

    turns, counts = [], dict(transcript.redaction_kinds)
    for t in transcript.turns:
        result = redact(t.text)
        for kind, count in result.counts.items():
            counts[kind] = counts.get(kind, 0) + count
        turns.append(Turn(t.role, result.text, t.ts, t.cut))
    return transcript.with_turns(turns), counts


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


# ---------------------------------------------------------------- receipts


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


# ---------------------------------------------------------------- what the session saved


def _keep_pending(writer: Session, snap: Snapshot, found, dry_run: bool, notes: list,
                  during: tuple | None = None) -> tuple[str, ...]:
    """Keep the agent extractor's findings as pending in the project layer
    (:mod:`memdir.prompt.pending`): those matching a tombstone are dropped
    (noted), and so are those a live memory written ``during`` the session
    covers (:func:`_held`): the agent saved it before the session's end queued
    the transcript; those a live memory on their subject already says
    (:func:`memdir.consolidation.applying.saying`); those a forget made since the session began holds
    (:func:`_forgotten`); and those a person
    dropped before (:func:`memdir.prompt.pending.dropped_texts`: `memdir review --drop`). Returns the
    texts kept (in a dry run: that would be kept)."""
    from ..prompt import pending

    texts = []
    for item in found:
        # read as a description, then as a body (a forgotten memory's text offered again as a finding)
        hit = match_tombstone(snap.stones, item[1], "", actor="extracted") \
            or match_tombstone(snap.stones, item[1], item[1], actor="extracted")
        held = _held(snap, item[1], during) or saying(snap, item[1])
        gone = _forgotten(snap, item[1], during) if hit is None else None
        if hit is not None:
            notes.append(f"pending finding not kept ({item[1][:60]}): {outcome(*hit)}")
        elif gone is not None:  # newuser38: saved, then deleted in the session, then kept as a finding at its end
            notes.append(f"pending finding not kept ({item[1][:60]}): memory {gone.name!r} holding it was "
                         f"forgotten during the session ({gone.id})")
        elif held is not None:  # trial22: saved during the session, then asked for again at the next start;
            # restate47: or a memory on its subject already says it ("needs the VPN" to "…WireGuard VPN")
            notes.append(f"pending finding not kept ({item[1][:60]}): memory {held[1]!r} ({held[0]}) holds it")
        else:
            texts.append(tuple(item))
    restated = {t[1]: stone for t in texts if (stone := _restated(snap, t[1])) is not None}
    for text, stone in restated.items():  # newuser46: kept, shown, refused at the save, and the person never told
        notes.append(f"pending finding kept ({text[:60]}): it restates forgotten memory {stone.name!r} (tombstone "
                     f"{stone.id}); the agent is told not to save it and to tell you: only a person brings it back, "
                     f"by lifting the tombstone (`{lift_command(stone.id, stone.scope)}`)")
    if not texts:
        return ()
    if writer.project_root is None:
        notes.append(f"{len(texts)} finding(s) not kept as pending: no project ({writer.project_error})")
        return ()
    refused = dict.fromkeys(pending.dropped_texts(writer.layer_dir("project"), [t[1] for t in texts]))
    for text in refused:  # pending.add refuses them too, under the lock (a drop made meanwhile)
        notes.append(f"pending finding not kept ({text[:60]}): a person dropped it before (memdir review --drop)")
    texts = [t for t in texts if t[1] not in refused]
    if not texts:
        return ()
    if dry_run:
        return tuple(t[1] for t in texts)
    layer = writer.layer("project")
    try:
        with layer.locked():
            added = pending.add(layer.path, texts, writer.id,
                                {text: {"id": stone.id, "scope": stone.scope} for text, stone in restated.items()})
    except (StoreError, LockTimeout) as exc:
        notes.append(f"{len(texts)} finding(s) not kept as pending: {exc}")
        return ()
    return tuple(item["text"] for item in added)


def _held(snap: Snapshot, text: str, during: tuple | None) -> tuple[str, str] | None:
    """``(scope, name)`` of a live memory of ``snap`` written or changed ``during`` the session (``(first, last)``
    turn times of the transcript, to the second; None: unknown) that covers ``text``
    (:func:`memdir.prompt.coverage.covers`, the rule by which a write ends a pending finding) and that ``text`` does
    not correct (:func:`memdir.prompt.coverage.corrects`: a negation the memory does not make, a value it does not
    hold — a correction made of the saved memory's words is still proposed), or whose name, title or description
    names the whole topic of a vague request (:func:`memdir.prompt.coverage.requested`: "Remember the search service
    facts" and ``search-service``); None when none does.
    A sentence of several facts the agent saved as several memories in that session ("dev postgres is on 5433,
    staging deploys need the VPN, and I prefer pnpm" → ``db-port``, ``deploy-vpn``, ``pnpm``) is held by them
    together: those of them that share a content word with it cover it and it corrects none of what they say
    together (then ``scope`` and ``name`` list each, joined by ``+``).
    What the agent (or a person) saved during the session is neither asked for again nor proposed again; a memory
    written after the session (an old transcript ingested later) is not counted: against a whole store the loose
    rule would drop findings that only share words."""
    from ..prompt import coverage

    if during is None:
        return None
    written = [(scope, entry.record) for scope, entries in snap.entries.items() for entry in entries.values()
               if _written_since(entry.record, during[0]) and entry.record.updated <= during[1]]
    for scope, record in written:
        held = coverage.memory_text(record.name, record.description, record.body)
        if (coverage.saves(text, held)
                or coverage.requested(text, coverage.memory_text(record.name, record.title, record.description))):
            return scope, record.name
    sharing = [(scope, record, held) for scope, record in written
               if coverage.shares(text, held := coverage.memory_text(record.name, record.description, record.body))]
    together = "\n".join(held for _, _, held in sharing)
    if len(sharing) > 1 and coverage.saves(text, together):
        return ("+".join(dict.fromkeys(scope for scope, _, _ in sharing)),
                "+".join(record.name for _, record, _ in sharing))
    return None


def _forgotten(snap: Snapshot, text: str, during: tuple | None):
    """The tombstone of ``snap`` made since the session's first turn (``during``: ``(first, last)`` turn times;
    None: unknown, so none) whose forgotten value holds the finding ``text``
    (:func:`memdir.prompt.pending.forgotten_by`, the rule that drops a finding already pending at a forget); None
    when none. A forget after the person said it — in the session, or after its last turn and before this run —
    would have dropped the finding had it been pending then, so it is not kept now; an older tombstone is judged
    by :func:`memdir.tombstones.match.match` alone (the loose rule against every forgotten fact would drop
    findings that only share words)."""
    from ..prompt import coverage, pending

    if during is None:
        return None
    for stone in snap.stones:
        try:
            made = datetime.fromisoformat(stone.ts) if stone.ts else None
            recent = made is not None and made >= during[0].replace(microsecond=0)
        except (TypeError, ValueError, AttributeError):  # a team tombstone keeps no time; one without a zone
            recent = False
        if recent and pending.forgotten_by(text, coverage.memory_text(stone.name, stone.description),
                                           stone.description):
            return stone
    return None


def _restated(snap: Snapshot, text: str):
    """The tombstone of ``snap`` whose forgotten memory the finding ``text`` says again
    (:func:`memdir.prompt.pending.forgotten_by`, of its name and description: a tombstone keeps no body in clear),
    of any age; None when none. Such a finding is kept (the person said it again: maybe they want it back, which
    only a person decides), marked with the tombstone (:func:`memdir.prompt.pending.restates`): the agent is told not
    to save it and to tell the person, and ``memdir review`` and ``doctor`` name the lift."""
    from ..prompt import coverage, pending

    for stone in snap.stones:
        if stone.id and pending.forgotten_by(text, coverage.memory_text(stone.name, stone.description),
                                             stone.description):
            return stone
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
    (status ``failed``, journaled), not raised. Raises :class:`~memdir.errors.InvalidInput`
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
    report = ConsolidationReport("off", parsed.summary(), max_proposals=limit, dry_run=dry_run,
                                 redaction_kinds=secrets)
    if mode == "off":
        return replace(report, gate=gate_mod.check(parsed, "off"))
    if not parsed.turns:
        return replace(report, status="empty")  # nothing readable (empty, binary, only tool output): no receipt
    if not force and not dry_run and seen(writer, parsed.digest):
        return replace(report, status="seen")
    report = replace(report, gate=gate_mod.check(parsed, mode, withdrawn(parsed)))  # what was taken back fires nothing
    if not report.gate.fire:
        return _journal(writer, replace(report, status="gated"))  # a dry run journals nothing
    chosen = resolve_extractor(extractor, settings, under_hooks=under_hooks)
    report = replace(report, extractor=chosen.name, model=chosen.model)
    snap = snapshot(writer)
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
    left_out = result.left_out + max(0, len(result.proposals) - MAX_PARSED)
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
        outcome = apply_proposal(writer, snap, index, proposal, dry_run)
        outcomes.append(outcome)
        if outcome.changes:  # a dry run's limit as the real run's: the changes it would make
            applied += 1
    kept = _keep_pending(writer, snap, result.pending, dry_run, notes, during)
    report = replace(report, model=result.model or report.model, raw=result.raw, notes=tuple(notes),
                     invalid=tuple(result.invalid), proposals=proposals, outcomes=tuple(outcomes), pending=kept,
                     left_out=left_out)
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
