"""A change of two steps that a killed process cut between them, finished (DESIGN §1.3: nothing is left
half-applied where a person or the agent looks).

Some changes commit two files, each by its own journal line (:mod:`memdir.layer.commit`): an approval
of a candidate changing another memory writes that memory (``approve``, ``data.candidate``) and then
removes the candidate; a write, rename or approval of a memory that ``supersedes`` an active one then
retires the old one (:func:`retire`). Killed between the two lines, the layer held the change and the
candidate still waiting for review (approving it again wrote the same text twice), or two active
memories, old and new, in ``MEMORY.md``, list and search (break22: ``memdir approve`` killed in the
lock window, 6 of 25 times). The first step's line is then the journal's last, since every transaction
finishes the cut before it changes anything (:func:`finish_cut`, one line of the journal read);
``memdir verify --repair`` finishes every such pair wherever it lies (``gateway.changes.finish_interrupted``).
"""

from __future__ import annotations

from datetime import datetime

from ..files.memfile import MemoryRecord
from .commit import COMPLETED

FINISHED = " (finished after an interruption)"  # what the journal's reason of a finished second step adds


def retire(tx, old: MemoryRecord, successor: str, edge: datetime, reason: str = "") -> None:
    """Retire ``old`` for ``successor`` in transaction ``tx``: status ``superseded``, ``superseded_by``,
    updated and valid until ``edge`` (whole seconds), journaled as ``supersede``. The one rule of
    retiring a memory: the gateway's writes, renames and approvals, and the finishing of a cut one."""
    retired = old.with_(status="superseded", superseded_by=successor, updated=edge.replace(microsecond=0),
                        valid_until=min(old.valid_until or edge, edge))
    tx.apply(old.name, retired, "supersede", reason=f"superseded by {successor}{reason}")


def finish_cut(tx, now: datetime) -> bool:
    """Finish the second step of the change the journal's last line began — or a write this transaction's
    sweep completed (:data:`memdir.layer.commit.COMPLETED`: killed before its own line) — when a kill cut
    it (see the module docstring): the candidate an approval merged removed (named by the ``approve``
    line, or a pending ``<name>-candidate…`` for the completed write whose text it holds), the active
    memory the one written ``supersedes`` retired. True when something was finished. Reads the journal's
    last line and a few files; raises what :meth:`memdir.layer.transaction.Transaction.apply` raises."""
    events = list(tx.events) or [event for event in (tx.layer.journal.last_event(),) if event is not None]
    return any([_finish(tx, event, now) for event in events if event.name is not None and event.after])


def _finish(tx, event, now: datetime) -> bool:
    name = event.name
    if event.action == "approve" and isinstance(event.data.get("candidate"), str):
        merged = [event.data["candidate"]]
    elif event.reason == COMPLETED:  # the approve line itself was never written: its candidate by its text
        merged = [key for key in tx.scan.entries if key.startswith(f"{name}-candidate")]
    else:
        merged = []
    entry = tx.fresh(name)
    record = entry.record if entry is not None else None
    done = False
    for key in merged:
        candidate = tx.fresh(key)
        if candidate is None or candidate.record.status != "candidate" or (
                event.reason == COMPLETED and (record is None or dict(candidate.record.extra).get("candidate_for") != name
                                               or (candidate.record.description, candidate.record.body)
                                               != (record.description, record.body))):
            continue
        tx.apply(key, None, "approve", reason=f"merged into {name}{FINISHED}")
        done = True
    if record is None or record.status != "active" or not record.supersedes or record.supersedes == name:
        return done
    old = tx.fresh(record.supersedes)
    if old is None or old.record.status != "active":
        return done
    retire(tx, old.record, name, now, FINISHED)
    return True


__all__ = ["FINISHED", "finish_cut", "retire"]
