"""What consolidation passes around: proposals, the extractor protocol, outcomes
and the report of a run (DESIGN §7).

An :class:`Extractor` (the offline rules of :mod:`memdir.consolidation.extractors.rules`, the
model of :mod:`memdir.consolidation.extractors.llm`, or your own) turns a transcript and an
:class:`ExtractionContext` into :class:`Proposal` s; :mod:`memdir.consolidation.consolidate`
applies them and records an :class:`Outcome` per proposal in a
:class:`ConsolidationReport`.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field
from datetime import datetime
from typing import Any, Protocol, runtime_checkable

from ..errors import InvalidInput
from ..files.memfile import TYPES

ACTIONS = ("create", "update", "supersede", "forget")


# ---------------------------------------------------------------- values


@dataclass(frozen=True)
class Proposal:
    """One change an extractor proposes.

    ``action``: create | update | supersede | forget. ``name`` is the memory
    to write (create, supersede); ``target`` the existing memory it changes
    (update, supersede, forget) — exact name. ``scope`` user | project | None
    (None: ``user`` for type user, else ``project``). ``evidence`` the
    person's words it came from; ``turn`` their index in the transcript.
    ``body`` None: an update that gave no body, which keeps the memory's
    (:func:`memdir.gateway.fields.inherit`); ``type`` None: an update or a
    supersede that gave no type, which keeps the target's (a create's is ``project``).
    """

    action: str
    name: str | None = None
    target: str | None = None
    type: str | None = "project"
    scope: str | None = None
    description: str = ""
    body: str | None = ""
    title: str | None = None
    importance: int | None = None
    evidence: str | None = None
    turn: int | None = None

    def to_dict(self) -> dict:
        return {k: v for k, v in asdict(self).items() if v not in (None, "")}

    @classmethod
    def from_dict(cls, item: Any) -> "Proposal":
        """A proposal from a model's JSON object, tolerant of aliases
        (``op``/``kind`` for action, ``existing``/``existing_name`` for
        target, ``content``/``text`` for body, ``add``/``new`` → create,
        ``edit``/``modify``/``replace`` → update, ``delete``/``remove`` →
        forget). Raises :class:`InvalidInput` when it cannot be one."""
        if not isinstance(item, dict):
            raise InvalidInput(f"a proposal must be an object, got {type(item).__name__}")
        action = str(item.get("action") or item.get("op") or item.get("kind") or "").strip().lower()
        action = {"add": "create", "new": "create", "edit": "update", "modify": "update", "replace": "update",
                  "delete": "forget", "remove": "forget", "supersedes": "supersede"}.get(action, action)
        if action not in ACTIONS:
            raise InvalidInput(f"unknown action {action!r} (expected create, update, supersede or forget)")
        text = lambda k: (str(item[k]).strip() if item.get(k) not in (None, "") else None)  # noqa: E731
        target = text("target") or text("existing") or text("existing_name") or text("replaces")
        name = text("name")
        if action in ("update", "forget") and not target:
            target, name = name, None if action == "forget" else name
        if action != "create" and not target:
            raise InvalidInput(f"{action} needs the exact name of an existing memory (target)")
        if action == "create" and not name:
            raise InvalidInput("create needs a name")
        kind = (text("type") or "").lower()
        if kind not in TYPES:  # left out (or unknown): an update or supersede keeps the target's type
            kind = "project" if action == "create" else None
        scope = (text("scope") or "").lower() or None
        if scope not in (None, "user", "project"):
            scope = None
        importance = item.get("importance")
        # JSON's 1e999 reads as infinity, and Python's parser takes NaN and Infinity: no importance, not a crash
        if isinstance(importance, bool) or not isinstance(importance, (int, float)) or not math.isfinite(importance):
            importance = None
        else:
            importance = min(10, max(1, int(importance)))
        description = text("description") or ""
        body = text("body") or text("content") or text("text") or (None if action == "update" else "")
        if action != "forget" and not description:
            raise InvalidInput(f"{action} needs a description")
        return cls(action=action, name=name, target=target, type=kind, scope=scope, description=description,
                   body=body, title=text("title"), importance=importance, evidence=text("evidence"))


@dataclass(frozen=True)
class ExistingMemory:
    """A memory as the extractor is shown it (from the snapshot); ``body``
    for matching the subject of a statement (the model prompt shows names and
    descriptions only)."""

    scope: str
    name: str
    type: str
    description: str
    origin: str | None
    status: str
    pinned: bool = False
    body: str = ""


@dataclass(frozen=True)
class ExtractionContext:
    """What an extractor is given besides the transcript.

    ``existing``: the session's memories (both layers, candidates included);
    ``tombstones``: descriptions of forgotten values; ``workspace_text``: the
    start of the workspace's AGENTS.md/CLAUDE.md (≤ 4,000 chars) — what those
    already say must not be stored; ``max_proposals``: how many changes a run
    applies; ``reference_time``: the time relative dates count from when a
    message has none.
    """

    existing: tuple[ExistingMemory, ...] = ()
    tombstones: tuple[str, ...] = ()
    workspace_text: str = ""
    max_proposals: int = 5
    reference_time: datetime | None = None

    def existing_descriptions(self) -> list[str]:
        """The descriptions of the existing memories, in order."""
        return [m.description for m in self.existing]


@dataclass
class ExtractionResult:
    """An extractor's answer: ``proposals`` in its order, the ``raw`` reply
    (models only), the ``model`` that answered, ``notes`` on what was left
    out, ``invalid`` items that could not be read as proposals,
    ``pending`` — ``(rule, sentence[, date said])`` findings the agent extractor leaves
    for the next session's agent (:mod:`memdir.prompt.pending`) — and ``left_out``: how many
    more statements it found than it proposed (its cap), so the report says so."""

    proposals: list[Proposal]
    raw: str | None = None
    model: str | None = None
    notes: list[str] = field(default_factory=list)
    invalid: list[dict] = field(default_factory=list)
    pending: list[tuple] = field(default_factory=list)
    left_out: int = 0


@runtime_checkable
class Extractor(Protocol):
    """Turns a transcript into proposals. ``name`` identifies it in receipts
    (``rules``, ``llm``); ``model`` the model used, if any. ``extract`` raises
    :class:`~memdir.errors.ModelError` when it cannot give a usable answer —
    never a partial list."""

    name: str
    model: str | None

    def extract(self, transcript, context: ExtractionContext) -> ExtractionResult: ...


@dataclass(frozen=True)
class Outcome:
    """What happened to one proposal.

    ``result``: created | updated | superseded | forgotten | candidate |
    unchanged | skipped-changed | skipped-locked | skipped-unreadable (its layer could not be
    read: the tombstones, a file) | skipped-dismissed (a person dismissed this exact proposal) | refused-tombstone | refused |
    needs-review | not-found | invalid | over-limit — or, in a dry run,
    ``would-create`` | ``would-update`` | ``would-supersede`` | ``would-forget`` |
    ``would-candidate`` | ``would-unchanged``. ``name`` is the memory written (for a candidate: the
    candidate's name), ``target`` the memory it changes. ``warnings`` name
    every cut (limits), removed character and redacted secret of the write,
    and a layer whose tombstones could not be read, so were not checked.
    """

    index: int
    action: str
    result: str
    name: str | None = None
    target: str | None = None
    scope: str | None = None
    detail: str = ""
    warnings: tuple[str, ...] = ()

    @property
    def applied(self) -> bool:
        """True when the run wrote this change (never in a dry run)."""
        return self.result in ("created", "updated", "superseded", "forgotten", "candidate")

    @property
    def changes(self) -> bool:
        """True when this is a change: written (:attr:`applied`) or, in a dry run, one the real run would write
        (a ``would-…`` result other than ``would-unchanged``). The one rule of what a run, or its dry run, counts."""
        return self.applied or (self.result.startswith("would-") and self.result != "would-unchanged")

    def to_dict(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in asdict(self).items()
                if v not in (None, "", ())}


@dataclass(frozen=True)
class Receipt:
    """Where a run's receipt was journaled: the layer ``scope`` and the event ``seq``."""

    scope: str
    seq: int


@dataclass(frozen=True)
class ConsolidationReport:
    """The result of one run.

    ``status``: off (mode off) | empty (no readable message) | seen (this
    transcript was done before) |
    gated (nothing durable) | ok (changes made) | noop (nothing to change) |
    partial (something skipped because a target changed or was locked; a rerun
    retries) | pending (nothing written; findings kept for the next session's
    agent, ``pending``) | failed (the extractor failed; ``error`` says why) | dry-run.
    ``redaction_kinds`` counts secrets redacted from the transcript before any
    extractor saw it, by kind (``{"github-token": 2, "basic-auth": 1}``; :data:`memdir.text.redact.KINDS`),
    :attr:`redactions` in all; both are in :meth:`to_dict` (the ``--json`` and the receipt). ``left_out`` counts what the extractor found and never
    proposed (over its cap) and proposals beyond the most a reply is read for;
    :attr:`beyond_limit` adds the proposals over ``max_proposals`` (``over-limit``).
    ``transcript`` is a :class:`~memdir.consolidation.transcripts.TranscriptSummary`,
    ``gate`` a :class:`~memdir.consolidation.gate.GateResult` (None when not
    run), ``invalid`` the extractor's items that were not proposals (with
    their ``error``), ``receipt`` where the run was journaled (None for a dry run).
    """

    status: str
    transcript: Any
    gate: Any = None
    extractor: str | None = None
    model: str | None = None
    proposals: tuple[Proposal, ...] = ()
    outcomes: tuple[Outcome, ...] = ()
    error: str | None = None
    raw: str | None = None
    notes: tuple[str, ...] = ()
    invalid: tuple[dict, ...] = ()
    max_proposals: int = 5
    dry_run: bool = False
    receipt: Receipt | None = None
    pending: tuple[str, ...] = ()
    redaction_kinds: dict = field(default_factory=dict)
    left_out: int = 0

    @property
    def redactions(self) -> int:
        """How many secrets were redacted from the transcript (all kinds)."""
        return sum(self.redaction_kinds.values())

    @property
    def applied(self) -> int:
        """How many changes the run wrote (0 for a dry run: see :attr:`changes`)."""
        return sum(1 for o in self.outcomes if o.applied)

    @property
    def changes(self) -> int:
        """How many changes the run made — or, a dry run, would make (:attr:`Outcome.changes`): what a report
        of a run says, whether it wrote or not."""
        return sum(1 for o in self.outcomes if o.changes)

    @property
    def beyond_limit(self) -> int:
        """What the run found and wrote nothing for because of a cap: ``over-limit`` proposals and
        :attr:`left_out` findings."""
        return sum(1 for o in self.outcomes if o.result == "over-limit") + self.left_out

    def to_dict(self) -> dict:
        return {"status": self.status, "dry_run": self.dry_run, "transcript": self.transcript.to_dict(),
                "gate": self.gate.to_dict() if self.gate is not None else None,
                "extractor": self.extractor, "model": self.model, "max_proposals": self.max_proposals,
                "applied": self.applied, "changes": self.changes, "proposals": [p.to_dict() for p in self.proposals],
                "outcomes": [o.to_dict() for o in self.outcomes], "invalid": list(self.invalid),
                "notes": list(self.notes), "error": self.error, "pending": list(self.pending),
                "redactions": self.redactions,
                "redaction_kinds": dict(sorted(self.redaction_kinds.items())), "left_out": self.left_out,
                "receipt": asdict(self.receipt) if self.receipt else None}
