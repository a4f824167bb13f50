"""What a consolidation run has begun, journaled before it is done, so a rerun after a kill knows.

A run journals (in its receipt layer, as an ``intent`` event of kind :data:`KIND`) two steps of one
transcript (its digest: the span of turns read and bounded, :mod:`memdir.consolidation.transcripts`):
``started`` just before the extractor is called, and ``replied`` with the extractor's answer (its
proposals, raw reply, model, notes, pending findings; redacted like every receipt) just after, before
any proposal is applied. The run's receipt (:func:`memdir.consolidation.consolidate.seen`) closes both.

A rerun of the same transcript (:func:`prior`) after a kill:

* between the reply and the receipt (the proposals applied, or some of them): the recorded answer is
  applied again without calling the extractor — a model call is the costly step, and its proposals
  meet what the killed run wrote as ``unchanged``;
* between ``started`` and ``replied`` (cut during the model call): no answer was kept, so the extractor
  is asked again, and the report says so.

``--force`` asks the extractor again whatever was recorded.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields

from ..gateway.changes import receipt
from .proposals import ExtractionResult, Proposal

KIND = "consolidation-intent"
_PROPOSAL_FIELDS = frozenset(f.name for f in fields(Proposal))


@dataclass(frozen=True)
class Prior:
    """What the journal holds of an unfinished run of one transcript: ``seq`` of its last step,
    ``stage`` (``started``, ``replied``) and, once replied, the extractor's answer as recorded
    (``reply``: :func:`answer` reads it)."""

    seq: int
    stage: str
    reply: dict | None = None


def prior(layer, digest: str) -> Prior | None:
    """The last step a run of the transcript ``digest`` journaled in ``layer`` that no consolidation
    receipt of that digest closed since (whatever its status: the run ended); None when there is none."""
    found = None
    for event in layer.journal.events():
        if event.action not in ("intent", "receipt") or (event.data.get("transcript") or {}).get("digest") != digest:
            continue
        if event.action == "intent" and event.data.get("kind") == KIND:
            found = Prior(event.seq, event.data.get("stage", ""), event.data.get("reply"))
        elif event.action == "receipt" and event.data.get("kind") == "consolidation":
            found = None
    return found


def record(layer, digest: str, stage: str, *, actor: str, session: str | None, reply: dict | None = None,
           scrub=lambda value: value) -> None:
    """Journal step ``stage`` (``started``, ``replied``) of a run of transcript ``digest`` in ``layer``,
    with the extractor's answer (:func:`reply_of`) once replied; ``scrub`` redacts it as receipts are.
    Raises :class:`~memdir.errors.StoreError`, :class:`~memdir.errors.LockTimeout`."""
    data = {"kind": KIND, "stage": stage, "transcript": {"digest": digest}}
    if reply is not None:
        data["reply"] = scrub(reply)
    receipt(layer, data, actor=actor, session=session, action="intent")


def reply_of(result: ExtractionResult, raw_limit: int) -> dict:
    """An extractor's answer as :func:`record` keeps it: every field of every proposal (a body left
    out, None, is not an empty one), the raw reply (its first ``raw_limit`` characters), model, notes,
    invalid items and pending findings."""
    return {"proposals": [asdict(p) for p in result.proposals], "raw": (result.raw or "")[:raw_limit] or None,
            "model": result.model, "notes": list(result.notes), "invalid": list(result.invalid),
            "pending": [list(item) for item in result.pending]}


def answer(reply: dict) -> ExtractionResult:
    """The :class:`ExtractionResult` a recorded ``reply`` (:func:`reply_of`) holds; a proposal that does
    not read back (a field memdir no longer knows) is left out with a note."""
    proposals, notes = [], list(reply.get("notes") or [])
    for item in reply.get("proposals") or []:
        try:
            proposals.append(Proposal(**{k: v for k, v in item.items() if k in _PROPOSAL_FIELDS}))
        except TypeError:
            notes.append(f"a recorded proposal could not be read back: {str(item)[:80]}")
    return ExtractionResult(proposals, reply.get("raw"), reply.get("model"), notes, list(reply.get("invalid") or []),
                            [tuple(item) for item in reply.get("pending") or []])


__all__ = ["KIND", "Prior", "answer", "prior", "record", "reply_of"]
