"""The results of a person's trust decisions (:mod:`memdir.operations.trust`): the tombstones in force and a lift,
the candidates waiting for review (:class:`Candidate`) and a decision on one, a pin or mute."""

from __future__ import annotations

from dataclasses import dataclass

from . import Result
from .memories import MemoryInfo


@dataclass(frozen=True)
class TombstoneInfo(Result):
    """A tombstone in force: its ``id``, the ``scope`` it lives in, the
    memory ``name``, the forgotten ``description``, who forgot it, why, when
    (``actor``, ``ts`` empty when its file does not say: a team tombstone's),
    and ``forgotten``, who and why as a person reads it
    (:func:`memdir.tombstones.refusals.forgotten_by`); ``kept``: where it lives when that is not the layer of
    ``scope`` itself (a rejected team candidate's: ``your rejections, in your home``), else empty.
    ``vanished``: a team tombstone whose file left the repository with nobody lifting it here, still in force
    here (:attr:`memdir.tombstones.match.Tombstone.vanished`); ``settle`` then says so and how a person settles
    it (:func:`memdir.tombstones.stones.unlifted_note`), else empty."""

    id: str
    scope: str
    name: str
    description: str
    actor: str
    reason: str | None
    ts: str
    forgotten: str = ""
    kept: str = ""
    vanished: bool = False
    settle: str = ""


@dataclass(frozen=True)
class TombstoneList(Result):
    """The tombstones in force, per layer, oldest first; ``warnings`` name a
    layer whose tombstones could not be read and a team tombstone file that
    does not read, each left out of the list."""

    tombstones: tuple[TombstoneInfo, ...]
    warnings: tuple[str, ...] = ()


@dataclass(frozen=True)
class LiftResult(Result):
    """A lifted tombstone: its value may be written again."""

    id: str
    scope: str
    name: str


@dataclass(frozen=True)
class Candidate(MemoryInfo):
    """A candidate as review shows it (:func:`memdir.operations.trust.review`): a :class:`MemoryInfo` plus
    what approving it does. ``change``: ``new`` (a memory is added: ``proposed`` is its whole text),
    ``change`` (memory ``target`` takes ``proposed``; ``live`` is its text now, ``diff`` the unified diff
    live → proposed) or ``replace`` (the new memory retires ``target``, whose text is ``live``). ``digest``
    names what was shown (SHA-256 hex): approve and dismiss carry it and are refused once it changed.
    ``drops``: the lines of ``target``'s body that approving a ``change`` removes from the live memory (its
    history keeps them), in body order; () when approving keeps every line of it."""

    change: str = "new"
    target: str | None = None
    proposed: str = ""
    live: str | None = None
    diff: str | None = None
    digest: str = ""
    drops: tuple[str, ...] = ()


@dataclass(frozen=True)
class ReviewResult(Result):
    """Candidates waiting for a person (:class:`Candidate`), per scope, in index order."""

    candidates: tuple[Candidate, ...]


@dataclass(frozen=True)
class Decision(Result):
    """A person's decision on the candidate ``candidate``: approved (``name``
    is the memory that now holds its content), rejected (its value is
    tombstoned; ``name`` is the candidate's) or, with ``dismissed``, dropped with no tombstone
    (``name``: the memory it was for; the same proposal is not proposed again)."""

    name: str
    scope: str
    candidate: str
    approved: bool
    warnings: tuple[str, ...] = ()  # e.g. a layer whose tombstones could not be checked (operations.lookup.guard)
    dismissed: bool = False


@dataclass(frozen=True)
class FlagResult(Result):
    """A pin or mute: ``flag`` (pinned | disabled) set to ``value``;
    ``changed`` False when it already was."""

    name: str
    scope: str
    flag: str
    value: bool
    changed: bool
