"""The texts of sync's results (:mod:`memdir.operations.sync`), for the CLI and any other adapter; the
same conventions as :mod:`memdir.render.memories` (made printable by
:func:`memdir.render.printable_output`). The words are the JSON's: ``sent``, ``received``, the kind of
each change (new, changed, deleted, forgotten, lifted), ``this machine`` / ``other machine``."""

from __future__ import annotations

from . import printable_output
from .memories import cut

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..operations.sync import SyncInit, SyncReport, SyncStatus
    from ..operations.carry import Change
    from ..operations.contested import SyncConflict
    from ..operations.team import Resolved


@printable_output
def sync_init(result: SyncInit) -> str:
    """Where the sync repository is, which layers travel, and the next step."""
    return "\n".join([
        f"Sync repository: {result.path} (this user only), remote {result.remote}",
        f"Layers synced: {', '.join(result.layers)}",
        f"Memory files merge field by field (merge.memdir.driver = {result.merge_driver or 'not set'}).",
        "Run `memdir sync` now, and on every other machine: `memdir sync init " + result.remote
        + " --layers " + ",".join(result.layers) + "` then `memdir sync`.",
        "To sync when each session ends: add `sync_on_session_end = true` to config.toml in the memdir home.",
    ])


def _changes(changes: tuple[Change, ...]) -> str:
    return ", ".join(cut(f"{c.change} {c.layer}:{c.name}" + (f" ({c.note})" if c.note else ""), 200) for c in changes)


@printable_output
def conflict_lines(conflicts: tuple[SyncConflict, ...]) -> list[str]:
    """Each conflict held back, with both values of each conflicting field, and how to settle them."""
    lines = []
    for found in conflicts:
        lines.append(f"conflict: {found.layer}:{found.name} — this machine's version stays in use until you choose")
        for item in found.fields:
            lines.append(f"  {item.field or 'several fields'}: this machine: {cut(item.this_machine, 160)!r}"
                         f" | other machine: {cut(item.other_machine, 160)!r}")
    if conflicts:
        first = conflicts[0]
        field = next((f.field for f in first.fields if f.field), "FIELD")
        lines.append(f"{len(conflicts)} conflict(s) wait: memdir sync resolve {first.name} --scope {first.layer} "
                     f"--field {field}=ours|theirs (ours: this machine's value, theirs: the other machine's)")
    return lines


@printable_output
def sync_report(result: SyncReport) -> str:
    """What one sync did: sent (or committed and waiting), received, conflicts with both values, files
    left out, and how it ended."""
    lines = []
    if result.sent:
        head = "sent" if result.pushed else "committed locally, waiting to be sent"
        lines.append(f"{head}: {_changes(result.sent)}")
    if result.delivered:
        lines.append(f"sent what waited from an earlier sync: {', '.join(cut(p, 80) for p in result.delivered)}")
    if result.received:
        lines.append(f"received: {_changes(result.received)}")
    lines += conflict_lines(result.conflicts)
    lines += [f"not synced: {n.layer}:{cut(n.name, 80)}: {cut(n.reason, 300)}" for n in result.not_synced]
    lines += [f"note: {cut(line, 300)}" for line in result.notes]
    if result.offline:
        lines.append(f"remote not reachable: {cut(result.offline, 300)}")
        if result.waiting:
            lines.append(f"{result.waiting} commit(s) committed locally, waiting to be sent (the next `memdir sync`)")
    elif not result.conflicts:
        quiet = not (result.sent or result.received or result.delivered)
        lines.append("synced" + (": nothing new" if quiet else ""))
    return "\n".join(lines)


@printable_output
def sync_status(result: SyncStatus) -> str:
    """The sync state as this machine last saw it."""
    if not result.configured:
        return f"sync is not set up (memdir sync init REMOTE makes {result.path})"
    lines = [f"sync repository: {result.path}", f"remote: {result.remote}", f"layers: {', '.join(result.layers)}",
             f"last sync: {result.last_sync or 'never'}",
             f"last attempt: {result.last_attempt or 'never'}" + (f" ({result.outcome})" if result.outcome else ""),
             f"changes not yet sent: {result.unsent}",
             f"commits ahead: {result.ahead}, behind: {result.behind} (as last fetched)"]
    if result.error:
        lines.append(f"last error: {cut(result.error, 300)}")
    lines += conflict_lines(result.conflicts)
    lines += [f"not synced: {n.layer}:{cut(n.name, 80)}: {cut(n.reason, 300)}" for n in result.not_synced]
    return "\n".join(lines)


@printable_output
def sync_conflict(result: SyncConflict) -> str:
    """One conflict with both values of each field."""
    return "\n".join(conflict_lines((result,)))


@printable_output
def resolved(result: Resolved) -> str:
    """A settled sync conflict."""
    kept = ", ".join(f"{'this machine' if side == 'ours' else 'the other machine'}'s {field}"
                     for field, side in result.fields)
    rest = {"ours": "this machine's", "theirs": "the other machine's"}.get(result.side or "", "")
    if result.side and result.fields:
        kept += f", {rest} for the rest"
    return f"Resolved {result.name}: kept {kept or rest + ' version'} ({result.path}). The next `memdir sync` sends it."
