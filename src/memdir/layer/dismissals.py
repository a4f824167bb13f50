"""Dismissed proposals: what a person said no to without calling it wrong (DESIGN §4, issue 24).

Dismissing a candidate drops it with no tombstone: the fact may be right, the
person does not want it now. So that the agent or consolidation does not put
the very same proposal back in front of them at the next session, the digest
of each dismissed proposal (:func:`proposal_digest`: the memory it is for and
its text, byte for byte) is kept in ``<layer>/.memdir/dismissed.json``, newest
last, at most :data:`MAX_DISMISSED`. It is derived state: deleting the file
loses nothing but the memory of those refusals. A different proposal (one
changed byte) is proposed as any other.

Read and written under the layer's lock by the gateway
(:func:`memdir.gateway.changes.dismiss`, :func:`memdir.gateway.changes.write`).
"""

from __future__ import annotations

import json
from pathlib import Path

from ..files.fsio import atomic_write, digest, read_bytes
from ..files.memfile import MemoryRecord

DISMISSED_FILE = "dismissed.json"
MAX_DISMISSED = 500  # the oldest dismissals are forgotten first
MAX_FILE_BYTES = 256 * 1024  # a larger (hand-made) file is not read: nothing counts as dismissed


def proposal_digest(target: str, record: MemoryRecord) -> str:
    """SHA-256 hex of a proposal for memory ``target``: its type, title, description and body as written.
    The same for a proposal and for the candidate file it became (the gateway writes those fields as given)."""
    fields = [target, record.type, record.title or "", record.description, record.body]
    return digest(json.dumps(fields, ensure_ascii=False).encode("utf-8"))


def _entries(meta: Path) -> list[dict]:
    try:
        data = read_bytes(Path(meta) / DISMISSED_FILE, MAX_FILE_BYTES + 1, follow=False)
    except Exception:  # derived state: an unreadable file holds no dismissal (nothing is lost by that)
        return []
    if not data or len(data) > MAX_FILE_BYTES:
        return []
    try:
        found = json.loads(data.decode("utf-8"))
    except (ValueError, UnicodeDecodeError, RecursionError):
        return []
    items = found.get("dismissed") if isinstance(found, dict) else None
    return [item for item in items if isinstance(item, dict) and isinstance(item.get("digest"), str)] \
        if isinstance(items, list) else []


def dismissed(meta: Path, proposal: str) -> dict | None:
    """The record (``digest``, ``name``, ``ts``, ``actor``) of the dismissal of ``proposal`` (a
    :func:`proposal_digest`) in the layer whose meta directory is ``meta``, or None."""
    return next((item for item in reversed(_entries(meta)) if item["digest"] == proposal), None)


def remember(meta: Path, proposal: str, name: str, ts: str, actor: str) -> None:
    """Record that ``proposal`` for memory ``name`` was dismissed at ``ts`` (ISO-8601) by ``actor``;
    keeps the newest :data:`MAX_DISMISSED`. Raises :class:`StoreError` when the file cannot be written."""
    items = [item for item in _entries(meta) if item["digest"] != proposal]
    items.append({"digest": proposal, "name": name, "ts": ts, "actor": actor})
    data = json.dumps({"dismissed": items[-MAX_DISMISSED:]}, ensure_ascii=False, indent=0).encode("utf-8")
    atomic_write(Path(meta) / DISMISSED_FILE, data + b"\n")


__all__ = ["DISMISSED_FILE", "MAX_DISMISSED", "dismissed", "proposal_digest", "remember"]
