"""A change of two steps that a killed process cut between them, finished (DESIGN §1.3: nothing is left
half-applied where a person or the agent looks).

Some changes commit two files, each by its own journal line (:mod:`memdir.layer.commit`): an approval
of a candidate changing another memory writes that memory (``approve``, ``data.candidate``) and then
removes the candidate; a write, rename or approval of a memory that ``supersedes`` an active one
(its line's data ``retires`` names it) then retires the old one (:func:`retire`). Killed between the two lines, the layer held the change and the
candidate still waiting for review (approving it again wrote the same text twice), or two active
memories, old and new, in ``MEMORY.md``, list and search (break22: ``memdir approve`` killed in the
lock window, 6 of 25 times). The first step's line is then the journal's last, since every transaction
finishes the cut before it changes anything (:func:`finish_cut`, one line of the journal read);
``memdir verify --repair`` finishes every such pair wherever it lies (``gateway.changes.finish_interrupted``).
"""

from __future__ import annotations

from datetime import datetime

from ..errors import MemdirError
from ..files.memfile import MalformedMemory, MemoryRecord, parse
from .commit import COMPLETED
from .journal import Event

FINISHED = " (finished after an interruption)"  # what the journal's reason of a finished second step adds


def retire(tx, old: MemoryRecord, successor: str, edge: datetime, reason: str = "") -> None:
    """Retire ``old`` for ``successor`` in transaction ``tx``: status ``superseded``, ``superseded_by``,
    updated and valid until ``edge`` (whole seconds), journaled as ``supersede``. The one rule of
    retiring a memory: the gateway's writes, renames and approvals, and the finishing of a cut one."""
    retired = old.with_(status="superseded", superseded_by=successor, updated=edge.replace(microsecond=0),
                        valid_until=min(old.valid_until or edge, edge))
    tx.apply(old.name, retired, "supersede", reason=f"superseded by {successor}{reason}")


def finish_cut(tx, now: datetime, begun: Event | None) -> bool:
    """Finish the second step of the change ``begun`` began (the journal's last line when the transaction
    took the lock, :meth:`memdir.layer.journal.Journal.last_event`) — or a write this transaction's
    sweep completed (:data:`memdir.layer.commit.COMPLETED`: killed before its own line) — when a kill cut
    it (see the module docstring): the candidate an approval merged removed (named by the ``approve``
    line, or a pending ``<name>-candidate…`` for the completed write whose text it holds), the memory the
    first step's line ``retires`` (its data), or the completed write ``supersedes``, retired while still
    active. True when something was finished. Reads files only when such a line began a change of two steps; raises what :meth:`memdir.layer.transaction.Transaction.apply` raises."""
    finished = [_finish(tx, event, now) for event in (begun, *tx.events)
                if event is not None and event.name is not None and event.after]  # every one, not the first
    return any(finished)


def _finish(tx, event, now: datetime) -> bool:
    name, completed = event.name, event.reason == COMPLETED
    merged = event.data.get("candidate") if event.action == "approve" else None
    retires = event.data.get("retires")
    if not completed and not isinstance(merged, str) and not isinstance(retires, str):
        return False  # one step, or none cut: no file read (every transaction asks)
    entry = tx.fresh(name)
    record = entry.record if entry is not None else None
    # a completed write is judged by what it wrote, not by a hand edit the sweep journaled after it (commit.cut_write)
    written = _written(tx, event) if completed and entry is not None and entry.digest != event.after else record
    done = False
    # the approve line itself never written: the candidate is known by its name and the text it proposed
    for key in [merged] if isinstance(merged, str) else [k for k in tx.scan.entries if k.startswith(f"{name}-candidate")]:
        candidate = tx.fresh(key)
        if candidate is None or candidate.record.status != "candidate" or (
                not isinstance(merged, str) and (written is None or dict(candidate.record.extra).get("candidate_for") != name
                                                 or (candidate.record.description, candidate.record.body)
                                                 != (written.description, written.body))):
            continue
        tx.apply(key, None, "approve", reason=f"merged into {name}{FINISHED}")
        done = True
    retires = retires if isinstance(retires, str) else written.supersedes if completed and written is not None else None
    if record is None or record.status != "active" or not retires or retires == name:
        return done
    old = tx.fresh(retires)
    if old is None or old.record.status != "active":
        return done
    retire(tx, old.record, name, now, FINISHED)
    return True


def _written(tx, event) -> MemoryRecord | None:
    """The record of the bytes ``event`` recorded (its stored object), or None when they cannot be read."""
    try:
        return parse(tx.layer.journal.get_object(event.after).decode("utf-8"), event.name).record
    except (MemdirError, MalformedMemory, UnicodeDecodeError):
        return None


__all__ = ["FINISHED", "finish_cut", "retire"]
