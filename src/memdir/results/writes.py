"""The result of a write (:class:`WriteResult`, with the hand edit it kept and the version it replaced): a module of
their own, so a write in a fresh process builds these three classes and not the thirteen other results of
:mod:`memdir.results.memories` (a listing, a read, a delete, a history…: ≈ 4 M instructions each; hot46). Named in
:mod:`memdir.results.memories` too."""

from __future__ import annotations

from dataclasses import dataclass, field

from . import Result


@dataclass(frozen=True)
class KeptEdit(Result):
    """A person's hand edit a write replaced, that no read of the memory had seen since it was made
    (:func:`memdir.layer.lasts.unseen_edit`): kept as ``version`` of the memory's history, journaled at
    ``made`` (ISO-8601 UTC). ``by``: what git's state says of it, for a team memory
    (:func:`memdir.gateway.writing.came_by`): ``git`` — its text is what the repository's last commit (or the merge
    under way) holds, a pull, a checkout or a commit; ``hand`` — no such commit holds it; ``""`` — not known (a
    personal layer, which no git holds; git could not say)."""

    version: int
    made: str
    by: str = ""


@dataclass(frozen=True)
class ReplacedVersion(Result):
    """The version of a memory an update replaced: its file's ``digest``, when it was ``written``
    (ISO-8601 UTC, whole seconds, its ``updated``; None when the file has none) and ``by`` whom (its
    ``origin``; None when the file does not say). ``outside``: the version was an edit made outside memdir (a
    person's editor, a pull: journaled as ``external-edit``), whose ``written`` and ``by`` are of the version the
    edit changed, not of the edit (told by ``kept_edit``, not as another writer's version: flaky48)."""

    digest: str
    written: str | None
    by: str | None
    outside: bool = False


@dataclass(frozen=True)
class WriteResult(Result):
    """What a write did: ``operation`` is created | updated | renamed | reactivated
    (a superseded memory made active again) | unchanged | dismissed (a proposal a person dismissed
    before, byte for byte: not proposed again, the warning says so); ``redactions``
    counts secrets replaced (``redaction_kinds`` by kind); ``warnings`` name every cut and normalization; ``status`` and ``pinned``
    are the memory's now; ``digest`` is its file's SHA-256; ``kept_edit``: the hand edit it replaced that
    no read had seen, kept in history (None: none, or not known); ``replaced``: the version an update
    replaced (None for any other operation)."""

    name: str
    scope: str
    operation: str
    redactions: int = 0
    redaction_kinds: dict = field(default_factory=dict)
    warnings: tuple[str, ...] = ()
    status: str = "active"
    pinned: bool = False
    digest: str | None = None
    kept_edit: KeptEdit | None = None
    replaced: ReplacedVersion | None = None


__all__ = ["KeptEdit", "ReplacedVersion", "WriteResult"]
