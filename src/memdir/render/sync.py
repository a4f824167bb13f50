"""The texts of sync's results (:mod:`memdir.operations.sync`), for the CLI and any other adapter; the
same conventions as :mod:`memdir.render.memories` (made printable by
:func:`memdir.render.printable_output`)."""

from __future__ import annotations

from . import printable_output
from .memories import cut

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..operations.sync import SyncInit, SyncReport, SyncStatus
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
    ])


@printable_output
def sync_report(result: SyncReport) -> str:
    """What one sync did: out, in, conflicts, files left out, and whether the remote has it all."""
    lines = []
    if result.exported:
        lines.append(f"sent: {', '.join(cut(n, 80) for n in result.exported)}")
    if result.imported:
        lines.append(f"received: {', '.join(cut(n, 80) for n in result.imported)}")
    lines += [f"conflict: {cut(n, 120)} — this machine's version stays in use; settle it with `memdir sync resolve "
              f"{n.split(':', 1)[-1]} --scope {n.split(':', 1)[0]} --field FIELD=ours|theirs`"
              for n in result.conflicts]
    lines += [f"not synced: {cut(line, 300)}" for line in result.not_synced]
    lines += [f"note: {cut(line, 300)}" for line in result.notes]
    if result.offline:
        lines.append(f"remote not reachable, the changes wait in the local sync repository: {cut(result.offline, 300)}")
    elif result.pushed:
        lines.append("synced" + ("" if result.exported or result.imported else ": nothing new"))
    return "\n".join(lines)


@printable_output
def sync_status(result: SyncStatus) -> str:
    """The sync state as this machine last saw it."""
    if not result.configured:
        return f"sync is not set up (memdir sync init REMOTE makes {result.path})"
    lines = [f"sync repository: {result.path}", f"remote: {result.remote}", f"layers: {', '.join(result.layers)}",
             f"last sync: {result.last_sync or 'never'}" + (f" ({result.outcome})" if result.outcome else ""),
             f"ahead: {result.ahead}, behind: {result.behind} (as last fetched)"]
    if result.error:
        lines.append(f"last error: {cut(result.error, 300)}")
    lines += [f"conflict: {cut(n, 120)}" for n in result.conflicts]
    lines += [f"not synced: {cut(line, 300)}" for line in result.not_synced]
    return "\n".join(lines)


@printable_output
def resolved(result: Resolved) -> str:
    """A settled sync conflict."""
    kept = ", ".join(f"{side} of {field}" for field, side in result.fields)
    if result.side and result.fields:
        kept += f", {result.side} of the rest"
    return f"Resolved {result.name}: kept {kept or result.side} ({result.path}). The next `memdir sync` sends it."
