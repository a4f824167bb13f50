"""A journal's events and their vocabulary (DESIGN §5): :class:`Event` (one line of ``journal.jsonl``), the
time it is stamped with, and which actions record bytes or content versions. Kept apart from
:mod:`memdir.layer.journal` (which re-exports them), the file that appends and reads the lines.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from datetime import datetime, timezone


def now_utc() -> datetime:
    """The current time, timezone-aware UTC."""
    return datetime.now(timezone.utc)


def iso_micro(value: datetime) -> str:
    """``value`` as ISO-8601 UTC with microseconds: ``2026-11-02T09:14:00.123456Z``."""
    return value.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


# ---------------------------------------------------------------- events


@dataclass(frozen=True)
class Event:
    """One journal line. ``before``/``after`` are object digests (None = absent)."""

    seq: int
    ts: str
    actor: str
    action: str
    name: str | None
    before: str | None
    after: str | None
    reason: str | None
    session: str | None
    prev: str | None
    data: dict = field(default_factory=dict)

    def to_line(self) -> bytes:
        """The event as one JSON object in UTF-8, without the newline. A lone
        surrogate (a path whose name is not UTF-8, as Python decodes it:
        a moved project's root) cannot be UTF-8: that line is ASCII JSON,
        the surrogate kept as a ``\\udcXX`` escape that reads back the same."""
        record = {k: v for k, v in asdict(self).items() if k != "data"}
        record.update(self.data)
        try:
            return json.dumps(record, ensure_ascii=False, separators=(",", ":"), sort_keys=False).encode()
        except UnicodeEncodeError:
            return json.dumps(record, separators=(",", ":"), sort_keys=False).encode()

    @classmethod
    def from_json(cls, obj: dict) -> "Event":
        known = {"seq", "ts", "actor", "action", "name", "before", "after", "reason", "session", "prev"}
        return cls(
            seq=int(obj["seq"]), ts=str(obj["ts"]), actor=str(obj.get("actor", "")),
            action=str(obj["action"]), name=obj.get("name"), before=obj.get("before"),
            after=obj.get("after"), reason=obj.get("reason"), session=obj.get("session"),
            prev=obj.get("prev"), data={k: v for k, v in obj.items() if k not in known},
        )


# Journal actions that record no bytes of a memory (its head stays what it was): a
# consolidation receipt, a tombstone lift.
BYTELESS = frozenset({"receipt", "intent", "tombstone-lift"})
# ... and those that record bytes but no content version: a counted read rewrites the file
# (reads, last_read), which is no version a person would restore or an import would mind.
NOT_VERSIONS = BYTELESS | {"read"}
# ... and those that are bookkeeping alone, no change a person made or would review: consolidation's receipt
# that a transcript was read and the intent step before it (one of each per headless session). A journal
# listing leaves them out unless asked (memdir.operations.maintenance.journal); ``--all`` shows them.
BOOKKEEPING = frozenset({"receipt", "intent"})


def records_bytes(event: Event) -> bool:
    """Whether ``event`` records what a memory's file holds after it
    (``after``: its bytes' digest, None for a deletion): every event naming a
    memory but a receipt or a tombstone lift (:data:`BYTELESS`). The
    journal's heads and a layer's past (``--as-of``) follow these."""
    return event.name is not None and event.action not in BYTELESS


def changes_content(event: Event) -> bool:
    """Whether ``event`` is a content version of its memory (a write, edit,
    deletion, restore, flag…): :func:`records_bytes`, and not a counted read
    (:data:`NOT_VERSIONS`). History numbers these; an import asks whether
    the last one was its own."""
    return event.name is not None and event.action not in NOT_VERSIONS


__all__ = ["BOOKKEEPING", "BYTELESS", "NOT_VERSIONS", "Event", "changes_content", "iso_micro", "now_utc",
           "records_bytes"]
