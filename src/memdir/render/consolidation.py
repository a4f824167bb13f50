"""The texts of consolidation: a gate decision, a run (its report), a drain
of the queue and an ingest of past transcripts. Kept apart from :mod:`.memories`
(the texts of memories and their operations) for size; made printable by
:func:`memdir.render.printable_output`, as every renderer.
"""

from __future__ import annotations

from ..consolidation.said import turn_number
from ..text.redact import tally
from ..vocabulary import kind_label
from . import printable_output
from .memories import cut, cut_text


@printable_output
def gate(result) -> str:
    """A gate decision (:class:`memdir.consolidation.gate.GateResult`): which
    of the person's lines fired which rule (messages counted from 1, as people count and as ``--json`` gives them:
    :func:`memdir.consolidation.said.turn_number`; the result's ``turn`` is the 0-based index)."""
    if result.mode == "off":
        return "gate: consolidation is off (consolidation_mode = off)"
    head = {"always": "gate: mode always — runs regardless",
            "gated": "gate: fired" if result.fire else "gate: nothing durable found — no extraction"}[result.mode]
    lines = [head + (f" ({', '.join(result.rules)})" if result.hits else "")]
    for hit in result.hits:
        lines.append(f"  turn {turn_number(hit.turn)} [{hit.rule}] “{hit.cue.strip()}” in: {cut_text(hit.sentence, 160)}")
    for taken in getattr(result, "withdrawn", ()):
        turn, _, sentence = taken.cancelled
        by, of = turn_number(taken.turn), turn_number(turn)
        instead = getattr(taken, "replaced_by", None)
        if getattr(taken, "held", None):  # which of its values the correction puts right: not clear
            lines.append(f"  turn {by} puts right a value of turn {of} (“{cut_text(taken.said, 80)}”) "
                         f"but not which one: held for a person (pending), not kept: {cut_text(sentence, 120)}")
            continue
        lines.append(f"  turn {by} took back turn {of} (“{cut_text(taken.said, 80)}”), "
                     f"not kept: {cut_text(sentence, 120)}"
                     + (f" — in its place: {cut_text(instead, 120)}" if instead else ""))
    return "\n".join(lines)


_RUN_MESSAGES = {
    "off": "consolidation is off (consolidation_mode = off); nothing done",
    "seen": "this transcript was consolidated before; nothing done (--force runs it again)",
    "empty": "no message from the person or the assistant could be read; nothing done",
    "gated": "nothing durable was said; no extraction",
}


@printable_output
def consolidation(report, *, explain: bool = False) -> str:
    """A consolidation run (:class:`memdir.consolidation.proposals.ConsolidationReport`):
    the transcript, the gate (always with ``explain``, else when it held the
    run back), each proposal's outcome and the count of changes."""
    t = report.transcript
    lines = [f"transcript: {t.source or '(inline)'} ({t.format}, {t.turns} messages, "
             f"{t.user_turns} from the person; digest {t.digest[:12]})"]
    if t.malformed:  # one unreadable line costs that line: said, by number, never silently
        named = ", ".join(map(str, t.bad_lines)) + (", …" if t.malformed > len(t.bad_lines) else "")
        lines.append(f"transcript: {t.malformed} unreadable line(s) left out (line {named})")
    if t.dropped or t.cut:
        lines.append(f"transcript bounded: {t.cut} message(s) cut to the per-message limit, "
                     f"{t.dropped} oldest message(s) left out")
    if report.gate is not None and (explain or not report.gate.fire):
        lines.append(gate(report.gate))
    if report.status in _RUN_MESSAGES:
        lines.append(_RUN_MESSAGES[report.status])
        return "\n".join(lines)
    lines.append(f"extractor: {report.extractor}" + (f" (model {report.model})" if report.model else ""))
    if report.error:
        lines.append(f"failed: {report.error} — nothing was written")
    for outcome in report.outcomes:
        proposal = report.proposals[outcome.index]
        what = proposal.action + " " + (outcome.target or "" if proposal.action != "create" else "")
        shown = outcome.name or outcome.target or proposal.name or "?"
        kind_ = (proposal.type or None) if proposal.action != "forget" else "-"  # None: the type is unchanged
        lines.append(f"{outcome.index + 1}. {what.strip()} → {shown} {kind_label(kind_, outcome.scope or '-')}: "
                     f"{outcome.result}" + (f" — {outcome.detail}" if outcome.detail else ""))
        if proposal.description:
            lines.append(f"   {cut(proposal.description)}")
        lines += [f"   warning: {w}" for w in outcome.warnings]
    lines += [f"unreadable proposal: {item.get('error')}" for item in report.invalid]
    if report.left_out:  # what the extractor found past its cap: said, never dropped unsaid
        lines.append(f"{report.left_out} more statement(s) found but not proposed: the extractor proposes a "
                     "limited number per run; nothing was written for them")
    if report.redactions:
        lines.append(f"{report.redactions} secret(s) redacted from the transcript before extraction "
                     f"({tally(report.redaction_kinds)})")
    if report.pending:
        lines.append(f"kept for the next session's agent ({len(report.pending)} pending, "
                     f"{'not written: dry run' if report.dry_run else 'shown at its start'}):")
        lines += [f"   “{cut(text)}”" for text in report.pending]
    lines += [f"note: {note}" for note in (report.notes if explain else ())]
    if not report.outcomes and not report.error and not report.pending:
        lines.append("no proposals")
    lines.append(f"{report.changes} change(s) {'would be made' if report.dry_run else 'made'} "
                 f"(at most {report.max_proposals} per run)"
                 + (f"; the run is recorded in the {report.receipt.scope} layer's journal "
                    f"(event {report.receipt.seq}, so this transcript is not consolidated twice)"
                    if report.receipt and report.status != "failed" else
                    f"; the failed run is recorded in the {report.receipt.scope} layer's journal "
                    f"(event {report.receipt.seq}); the next run of this transcript asks again"
                    if report.receipt else ""))
    return "\n".join(lines)


@printable_output
def drain_started(pid: int, log) -> str:
    """A drain of the consolidation queue started in the background."""
    return f"draining the consolidation queue in the background (pid {pid}); log: {log}"


@printable_output
def drain(rows) -> str:
    """What a drain of the consolidation queue did, one line per transcript."""
    lines = [f"{r.status}: {r.transcript_path} ({r.applied} change(s))" + (f" — {r.error}" if r.error else "")
             for r in rows]
    return "\n".join(lines) or "queue is empty"


# What became of a transcript, per a run's status, as an ingest's counts say it (``--json`` keeps the status
# words). newuser36: "1 seen" did not say the session had been consolidated before and was skipped.
_INGESTED = {
    "ok": "consolidated into memories",
    "partial": "partly consolidated (some changes skipped)",
    "noop": "read, nothing new to remember",
    "pending": "read, findings kept for the next session's agent",
    "gated": "read, nothing durable said",
    "empty": "unreadable or empty",
    "seen": "consolidated before, skipped (`memdir consolidate --force FILE` consolidates one again)",
    "off": "not read: consolidation is off",
    "dry-run": "read in a dry run, nothing written",
    "failed": "failed (the extractor)",
    "error": "could not be consolidated",
}


@printable_output
def ingest(result) -> str:
    """An ingest of past transcripts: the counts (each status said as what became of those transcripts:
    :data:`_INGESTED`), then each that failed."""
    where = result.project or "every project"
    text = (f"{len(result.transcripts)} transcript(s) for {where} under {result.projects_dir}: "
            + (", ".join(f"{v} {_INGESTED.get(k, k)}" for k, v in sorted(result.counts.items())) or "none")
            + f"; {result.changes} change(s)" + (" would be made" if result.dry_run else ""))
    for row in result.transcripts:
        if row.status in ("failed", "error", "partial"):
            text += f"\n{row.status}: {row.transcript_path}" + (f" — {row.error}" if row.error else "")
    return text


__all__ = ["consolidation", "drain", "drain_started", "gate", "ingest"]
