"""The shapes of a project's findings (:mod:`memdir.operations.findings`): one pending (:class:`Finding`) and one an edit
outside memdir answered (:class:`AnsweredFinding`), as ``memdir review``, ``status``, ``doctor``, the panel's layers and
``memory_status`` give them (:class:`memdir.results.maintenance.LayerStatus` holds them). Apart from
:mod:`memdir.results.maintenance`, which every write loads (its facade imports the upkeep): two dataclasses made at
import cost a fresh write ≈ 8 M instructions (benchmarks/bench_hooks.py --fresh --instructions), and only the
commands that list findings make these."""

from __future__ import annotations

from dataclasses import dataclass

from . import Result


@dataclass(frozen=True)
class Finding(Result):
    """One pending finding: its ``id`` (12 hex digits, what ``--drop`` takes), the person's ``text``
    (redacted, at most :data:`~memdir.prompt.pending.MAX_TEXT` characters), the day it was ``said``
    (``YYYY-MM-DD``), the gate ``rule`` that kept it and the number of sessions it was ``shown`` in
    (it expires at :data:`~memdir.prompt.pending.SHOW_LIMIT`); ``forgotten``: for one that restates a forgotten
    memory, what :func:`memdir.prompt.pending.restates` says (its tombstone and the lift command), else ``""``."""

    id: str
    text: str
    said: str
    rule: str
    shown: int
    forgotten: str = ""


@dataclass(frozen=True)
class AnsweredFinding(Result):
    """A finding an edit of a memory outside memdir answered, no longer shown (:mod:`memdir.prompt.answered`):
    its ``id``, the person's ``text``, the memory edited (``name``), the journal event of that edit (``seq``,
    ``ts`` ISO-8601 UTC) and the ``reason``, one sentence."""

    id: str
    text: str
    name: str
    seq: int
    ts: str
    reason: str


__all__ = ["AnsweredFinding", "Finding"]
