"""The texts of setting memdir up: an install or uninstall into an agent
(:mod:`memdir.integrations.claude_code.install`) and a layer re-keyed to a moved project
(:mod:`memdir.operations.relocate`). Kept apart from :mod:`.memories` (the texts of
memories and their operations) for size; made printable by
:func:`memdir.render.printable_output`, as every renderer.
"""

from __future__ import annotations

from ..text.plural import counted
from . import printable_output


@printable_output
def layer_move(result) -> str:
    """A re-keyed layer (:class:`memdir.operations.relocate.LayerMove`)."""
    return (f"Moved layer {result.moved_from} → {result.moved_to}: {counted(result.memories, 'memory')} now {'belongs' if result.memories == 1 else 'belong'} to "
            f"{result.root}.")


@printable_output
def install_plan(plan, diff: bool | None = None) -> str:
    """An install or uninstall (:class:`memdir.integrations.claude_code.install.Plan`): the diff of every change
    when ``diff`` (None: only for a dry run, which shows what it would write — an applied install or uninstall
    says its files, newuser46: 70 lines of diff after each install), then one line per file and the notes."""
    shown = (not plan.applied) if diff is None else diff
    lines = [c.diff.rstrip("\n") for c in plan.changes if c.diff] if shown else []
    for c in plan.changes:
        if c.after is None and c.before is None:
            what = "already gone (its install record and the empty folders install made are cleared)"
        elif c.after is None:
            what = "deleted (install had created it)"
        elif c.before is None:
            what = "created"
        elif plan.action == "uninstall":  # what it did, not what install had done: the file may have moved on since
            what = ("restored (as it was before install)" if c.restored
                    else "updated (memdir's entries removed, the rest kept)")
        else:
            what = "updated"
        lines.append(("would be " if not plan.applied else "") + f"{what}: {c.path}"
                     + (f" (backup: {c.backup})" if c.backup else ""))
    lines += [f"unchanged: {p}" for p in plan.unchanged]
    lines += [f"note: {note}" for note in getattr(plan, "notes", ())]
    if not plan.changes:
        lines.append("nothing to do: " + ("memdir is already installed" if plan.action == "install"
                                           else "no memdir entries found"))
    elif not plan.applied:
        lines.append("dry run: nothing was written")
    return "\n".join(lines)


__all__ = ["install_plan", "layer_move"]
