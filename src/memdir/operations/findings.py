"""Pending findings as a person sees and drops them (`memdir review`, `memdir review --drop ID`).

Consolidation's ``agent`` extractor keeps what the person said as pending findings of the project layer
(:mod:`memdir.prompt.pending`); the next session start shows them to the agent, which saves what is
durable. They are not candidates: nothing waits for approval, and until now a wrong one could only
age out (shown in :data:`~memdir.prompt.pending.SHOW_LIMIT` sessions, or
:data:`~memdir.prompt.pending.MAX_AGE_DAYS` days). :func:`findings` lists the ones still to show;
:func:`drop_findings` removes some or all of them at once, under the project layer's lock, so no
later session start offers them again, and their words are remembered (a digest, not the text:
:func:`~memdir.prompt.pending.remember_dropped`, the newest :data:`~memdir.prompt.pending.MAX_DROPPED`) so no later
session's end keeps the same sentence again. Nothing is journaled or tombstoned: a finding is not a memory.
"""

from __future__ import annotations

from dataclasses import dataclass
from time import gmtime, strftime

from ..errors import InvalidInput, NotFound
from ..prompt import pending
from ..results import Result
from ..results.findings import AnsweredFinding, Finding
from ..session import Session

ALL = "all"  # `memdir review --drop all`: every finding of the project


@dataclass(frozen=True)
class FindingsResult(Result):
    """The project's pending findings still to show, in the order they were kept, and those an edit outside
    memdir ``answered`` (oldest first); ``project``: the project directory, None with no project (then there
    are none)."""

    project: str | None
    findings: tuple[Finding, ...]
    answered: tuple[AnsweredFinding, ...] = ()


@dataclass(frozen=True)
class FindingsDropped(Result):
    """What :func:`drop_findings` removed, how many findings are ``left`` to show, and (``--drop all``) the
    records of findings an edit outside memdir answered that were ``cleared`` (`memdir review` no longer lists
    them)."""

    dropped: tuple[Finding, ...]
    left: int
    cleared: tuple[AnsweredFinding, ...] = ()


def _finding(item: dict, shown: dict[str, set[str]]) -> Finding:
    said = str(item.get("said") or strftime("%Y-%m-%d", gmtime(float(item.get("ts") or 0))))[:10]
    return Finding(item["id"], item["text"], said, str(item.get("rule") or ""), len(shown.get(item["id"], ())),
                   pending.restates(item))


def project_findings(layer_dir) -> tuple[tuple[Finding, ...], tuple[AnsweredFinding, ...]]:
    """``(waiting, answered)`` of the project layer at ``layer_dir``: its pending findings still to show
    (:func:`memdir.prompt.pending.active`, in the order they were kept) and those an edit outside memdir answered
    in the last :data:`~memdir.prompt.pending.MAX_AGE_DAYS` days (oldest first). The one way a finding reads as a
    result — and so as JSON: ``memdir review`` (:func:`findings`), ``memdir status`` and ``doctor``
    (:func:`memdir.operations.maintenance.status`), the panel's layers and ``memory_status``. Reads small files
    and, while a finding waits, the journal since it was kept; takes no lock."""
    shown = pending.showings(layer_dir)
    waiting = tuple(_finding(i, shown) for i in pending.active(layer_dir))
    return waiting, tuple(_answered(e) for e in pending.answered_lately(layer_dir))


def findings(session: Session) -> FindingsResult:
    """The pending findings of the session's project still to show, and those an edit outside memdir answered
    lately, with the reason (:func:`project_findings`); none without a project. Takes no lock."""
    if session.project_root is None:
        return FindingsResult(None, ())
    waiting, done = project_findings(session.layer_dir("project"))
    return FindingsResult(str(session.project_root), waiting, done)


def _answered(entry: dict) -> AnsweredFinding:
    return AnsweredFinding(entry["id"], str(entry.get("text") or ""), str(entry.get("name") or ""),
                           _int(entry.get("seq")), str(entry.get("ts") or ""), entry["reason"])


def held_in(scope: str | None) -> bool:
    """Whether the layer ``scope`` (``None``: every layer) holds pending findings: only the project's does
    (they are kept in its ``.memdir/pending.json``), so `memdir review --scope user` lists none and drops none."""
    return scope in (None, "project")


def drop_findings(session: Session, ids: list[str] | tuple[str, ...], scope: str | None = None) -> FindingsDropped:
    """Remove the pending findings ``ids`` (as :func:`findings` gives them, any case; :data:`ALL`: every one) of
    the session's project, all or none: an id that is not pending refuses the whole call before anything is
    removed, beside ``all`` too. ``all`` also clears the records of the findings an edit outside memdir answered
    (:func:`memdir.prompt.pending.drop_every`: the person said none of them matters; each is named in the result's
    ``cleared``), so `memdir review` lists none after it. ``scope`` is the layer the person named (:func:`held_in`).
    Raises :class:`InvalidInput` (no id, no project, a ``scope`` that holds no findings), :class:`NotFound` (an id not
    pending, quoted cut to 40 characters: the ones that are are named), :class:`~memdir.errors.StoreError` /
    :class:`~memdir.errors.LockTimeout`."""
    if not held_in(scope):
        raise InvalidInput(f"pending findings are kept in the project layer, and --scope {scope} holds none: "
                           "drop them without --scope (or with --scope project)")
    asked = list(dict.fromkeys(i.strip().lower() for i in ids if i and i.strip()))
    if not asked:
        raise InvalidInput("give the id of a pending finding (`memdir review` lists them) or 'all'")
    if session.project_root is None:
        raise InvalidInput(f"pending findings are kept per project, and there is none: {session.project_error}")
    named = [i for i in asked if i != ALL]
    layer_dir = session.layer_dir("project")
    if not pending.active(layer_dir) and not (ALL in asked and not named and pending.answered_lately(layer_dir)):
        if not named:  # nothing pending, nothing answered to clear: no lock, no layer made for it
            return FindingsDropped((), 0)
        raise NotFound(f"no pending finding {_quoted(named)} in this project (none is pending)")
    layer = session.layer("project")
    with layer.locked():
        kept = pending.active(layer.path)
        known = {i["id"] for i in kept}
        missing = [i for i in named if i not in known]
        if missing:
            listed = ", ".join(sorted(known)) if known else "none is pending"
            raise NotFound(f"no pending finding {_quoted(missing)} in this project ({listed}); "
                           "`memdir review` lists them")
        shown = pending.showings(layer.path)
        if ALL in asked:
            gone, cleared = pending.drop_every(layer.path)
            return FindingsDropped(tuple(_finding(i, shown) for i in gone), 0, tuple(map(_answered, cleared)))
        gone = pending.drop(layer.path, named)
        left = len(pending.active(layer.path))
    return FindingsDropped(tuple(_finding(i, shown) for i in gone), left)


def _int(value) -> int:
    """``value`` as an int (a hand-edited line's anything: 0)."""
    try:
        return int(value)
    except (TypeError, ValueError, OverflowError):
        return 0


def _quoted(ids: list[str]) -> str:
    return ", ".join(i if len(i) <= 40 else f"{i[:40]}…" for i in ids)


__all__ = ["ALL", "AnsweredFinding", "Finding", "FindingsDropped", "FindingsResult", "drop_findings", "findings", "held_in"]
