"""Text of pending findings for a person (`memdir review`, `memdir review --drop`;
:mod:`memdir.operations.findings`)."""

from __future__ import annotations

from ..prompt.pending import MAX_DROPPED, SHOW_LIMIT
from . import printable_output
from .memories import cut


@printable_output
def findings(result) -> str:
    """The pending findings of a :class:`~memdir.operations.findings.FindingsResult`, each with its id
    and the command that drops it, then those an edit outside memdir answered, each with why; ``""`` when
    there are none."""
    if not result.findings:
        return answered(result)
    lines = [f"Pending findings of this project ({len(result.findings)}): what you said at the end of an earlier "
             f"session, offered to the next session's agent to save (each until it was shown in {SHOW_LIMIT} "
             "sessions); not memories, nothing to approve:"]
    for f in result.findings:
        lines.append(f"  {f.id}  ({f.said}, shown in {f.shown} of {SHOW_LIMIT}) “{cut(f.text)}”"
                     + (f"\n    {f.forgotten}" if getattr(f, "forgotten", "") else ""))  # the agent cannot save it
    lines.append("  drop a wrong one: memdir review --drop ID (or --drop all)")
    return "\n".join(filter(None, ("\n".join(lines), answered(result))))


@printable_output
def answered(result) -> str:
    """The findings of a :class:`~memdir.operations.findings.FindingsResult` an edit outside memdir answered,
    each with the reason and the journal event of the edit; ``""`` when none."""
    if not result.answered:
        return ""
    lines = [f"Findings answered by an edit outside memdir ({len(result.answered)}), no longer offered to the agent:"]
    for f in result.answered:
        lines.append(f"  {f.id}  “{cut(f.text)}” — {f.reason} (journal event {f.seq}, {f.ts[:19]}Z)")
    return "\n".join(lines)


@printable_output
def dropped(result) -> str:
    """What `memdir review --drop` removed (a :class:`~memdir.operations.findings.FindingsDropped`): the findings
    dropped (their words remembered: :func:`memdir.prompt.pending.remember_dropped`), then (``--drop all``) the
    records of answered findings cleared."""
    lines = [(f"Dropped {len(result.dropped)} pending finding(s), {result.left} left; no session will offer them again, "
              f"nor keep the same words said again (the newest {MAX_DROPPED} drops are remembered):")
             ] if result.dropped else []
    lines += [f"  {f.id}  “{cut(f.text)}”" for f in result.dropped]
    if result.cleared:
        lines.append(f"Cleared the records of {len(result.cleared)} finding(s) answered by an edit outside memdir; "
                     "`memdir review` no longer lists them:")
        lines += [f"  {f.id}  “{cut(f.text)}”" for f in result.cleared]
    return "\n".join(lines) or "No pending findings to drop."


__all__ = ["answered", "dropped", "findings"]
