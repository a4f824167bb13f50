"""The texts of the team layer's results (:mod:`memdir.operations.team`) and
of an import (:mod:`memdir.importing.run`), for the CLI and any other
adapter; the same conventions as :mod:`memdir.render.memories` (made
printable by :func:`memdir.render.printable_output`, as every renderer)."""

from __future__ import annotations

from ..text.plural import counted
from ..vocabulary import TYPES
from . import printable_output
from .memories import cut

TYPE_CHECKING = False
if TYPE_CHECKING:
    from ..files.merge import Merged
    from ..operations.team import (
        Promoted,
        Resolved,
        TeamConflict,
        TeamInit,
        TeamStatus,
        TeamTrust,
    )


@printable_output
def team_init(result: TeamInit) -> str:
    """What ``team init`` created or adopted, and what to commit."""
    lines = [f"Team memory directory: {result.path}"]
    if result.adopted:
        lines.append(f"Adopted {result.adopted} memory file(s) already there, unchanged.")
    lines.append("Created: " + ", ".join(result.created) if result.created else "Nothing to create: it was set up.")
    if result.merge_driver_set:
        lines.append("Memory files now merge field by field in this clone: the merge driver was set in its "
                     f".git/config (merge.memdir.driver = {result.merge_driver}).")
    elif result.merge_driver:
        lines.append(f"Memory files merge field by field in this clone (merge.memdir.driver = {result.merge_driver}).")
    else:
        lines.append(f"The merge driver was not set in this clone ({cut(result.merge_driver_error or '', 200)}).")
    lines.append("Each clone registers it once, in its own .git/config (git never takes it from the repository): "
                 f"a teammate runs `memdir team trust` in their clone, or: {result.merge_driver_line}")
    lines += _ignored_lines(result.ignored, result.ignores_new)
    if result.repository:
        lines.append("Commit it (git add the directory, git commit): memdir never commits or pushes.")
    else:
        lines.append("There is no git repository here, so nothing shares it yet: a team layer reaches teammates "
                     "through git — `git init` (or work in a clone), run `memdir team init` again, then commit it.")
    return "\n".join(lines)


def _ignored_lines(files: tuple[str, ...], new: tuple[str, ...]) -> list[str]:
    """What ``team init`` and ``team status`` say of the team files git ignores
    (:func:`memdir.operations.ignored.git_ignores`): the files there (at most 10 named), else the files not yet
    written that git would ignore, with the command that names the ``.gitignore`` line (``git check-ignore -v``)."""
    if files:
        shown = ", ".join(cut(path, 200) for path in files[:10])
        more = f" and {len(files) - 10} more" if len(files) > 10 else ""
        return [(f"Ignored by git, so never committed and never shared: {len(files)} team file(s) ({shown}{more}) — "
                 "`git check-ignore -v PATH` names the .gitignore line; remove it (or `git add -f` the files)")]
    if new:
        named = ", ".join(cut(path, 200) for path in new)
        return [(f"Ignored by git: a .gitignore line matches the team directory's files ({named}), so no team "
                 "memory or tombstone written there is ever committed or shared — "
                 f"`git check-ignore -v {cut(new[0], 200)}` names the line; remove it")]
    return []


@printable_output
def team_trust(result: TeamTrust) -> str:
    """What ``team trust``/``team untrust`` recorded, and what it means for the agent."""
    if not result.trusted:
        return (f"Team memory of {result.path} is {'no longer' if result.changed else 'not'} trusted in this "
                "clone: none of its memories reach the agent (its tombstones still bind).")
    known = ", ".join(f"{label} {value}" for label, value in (("remote", result.remote),
                                                               ("first commit", result.first_commit)) if value)
    text = (f"Team memory of {result.path} {'is now' if result.changed else 'was already'} trusted in this clone"
            f" ({result.root}{'; ' + known if known else ''}): its memories reach the agent. "
            "`memdir team untrust` takes that back.")
    if result.merge_driver_set:
        text += ("\nMemory files now merge field by field in this clone: the merge driver was set in its .git/config "
                 f"(merge.memdir.driver = {result.merge_driver}).")
    elif result.merge_driver_error:
        text += f"\nThe merge driver was not set in this clone ({cut(result.merge_driver_error, 200)})."
    return text


@printable_output
def team_status(result: TeamStatus) -> str:
    """Uncommitted team memory changes, conflicts and pending candidates."""
    lines = [f"Team memory: {result.path}"]
    if result.git_error:
        lines.append(f"Cannot tell what is not committed: {cut(result.git_error, 200)}")
    elif result.changes:
        lines.append(f"{len(result.changes)} change(s) not committed (git status):")
        lines += [f"  {c.state:<10} {cut(c.path, 200)}" for c in result.changes]
    else:
        lines.append("Nothing to commit: the team memories match git." if not (result.ignored or result.ignores_new)
                     else "Nothing git would commit: the team files it sees match it.")
    for path in result.conflicts:
        name = path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".md")
        lines.append(f"  unresolved merge conflict: {cut(path, 200)} — held back from the agent until settled: "
                     f"`memdir team resolve {name}` shows both sides; add --field FIELD=ours|theirs, or "
                     "--ours|--theirs, to keep one")
    for path, name, stone, held in result.deleted_on_one_side:
        if stone and not held:
            lines.append(f"  deleted on one side, changed on the other: {cut(path, 200)} — {name} was forgotten "
                         f"(tombstone {stone}), but the changed text is not the forgotten value, so the agent sees "
                         f"it until settled: `git rm {cut(path, 200)}` keeps it forgotten; `git add` keeps the "
                         "changed text")
        elif stone:
            # here: the CLI's parser imports this module on every command
            from ..tombstones.refusals import lift_command

            lines.append(f"  deleted on one side, changed on the other: {cut(path, 200)} — {name} was forgotten "
                         f"(tombstone {stone}); held back until settled: `git rm {cut(path, 200)}` "
                         f"keeps it forgotten; `{lift_command(stone, 'team')}` then `git add` keeps the changed text")
        else:
            lines.append(f"  deleted on one side, changed on the other: {cut(path, 200)} — `git rm` it to keep "
                         f"the deletion, or `git add` it to keep the changed text")
    lines += [f"  settled, not yet added: {cut(path, 200)} — `git add` it, then commit the merge"
              for path in result.settled]
    lines += [f"  too large to read: {cut(path, 200)} — over the max_file_bytes ceiling, so memdir never reads it "
              "and it is in no agent's context (a merge of two additions can pass it): shorten it, or move part of "
              "its body into another memory file, then `git add` it" for path in result.too_large]
    lines += _copies_lines(result)
    if result.nested:  # imported here: the CLI's parser imports this module on every command
        from ..layer.team import nested_note

        lines += [f"  {nested_note(result.path, path)}" for path in result.nested]
    lines += [f"  unresolved merge conflict inside a code block: {cut(path, 200)} — git's markers lie in fenced "
              "code, where they read as text, so the agent sees both sides: edit the file to keep one, then `git "
              "add` it (memdir's merge driver keeps such hunks outside the fence: `memdir team trust` registers it)"
              for path in result.fenced]
    lines += [f"  tombstone removed, not lifted here: {gone.said}" for gone in result.unlifted]
    lines += _ignored_lines(result.ignored, result.ignores_new)
    if result.merge_driver_missing:
        lines.append(f"Note: {result.merge_driver_missing}")
    if result.pending:
        lines.append(f"{len(result.pending)} candidate(s) for the team wait for your review (memdir review): "
                     + ", ".join(result.pending))
    return "\n".join(lines)


def _copies_lines(result: TeamStatus) -> list[str]:
    """The team memories both sides renamed (two live copies of one memory) and the groups of live copies
    (:func:`memdir.operations.merges.live_copies`) not already named with a rename, with how to keep one."""
    lines, named = [], set()
    for name, ours, theirs in result.renamed_twice:
        named |= {ours, theirs}
        lines.append(f"  renamed on both sides: {name} became {ours} (ours) and {theirs} (theirs) — two live copies "
                     f"of one memory, both in the agent's context: keep one, e.g. `memdir team resolve {name} --theirs` "
                     f"(their rename's fields) then `memdir delete {ours} --scope team` (a delete does not tombstone "
                     "a value the kept copy holds too)")
    for group in result.copies:
        if set(group) <= named:
            continue
        keep, *rest = group
        lines.append(f"  live copies of one memory: {', '.join(group)} (the same description and body, each in the "
                     f"agent's context) — keep one: `memdir delete {rest[0]} --scope team`"
                     + (" (and each other copy)" if len(rest) > 1 else "") + f" (the value stays while {keep} holds it)")
    return lines


# Whose each side of a conflict is, by what git is replaying (operations.merges.TeamConflict.replaying): in a
# rebase git's "ours" is the branch rebased onto and "theirs" this clone's own commit.
_SIDES = {None: ("ours (this clone)", "theirs (the side merged in)"),
          "rebase": ("ours (the branch rebased onto)", "theirs (your commit being rebased)"),
          "cherry-pick": ("ours (this clone)", "theirs (the commit picked)"),
          "revert": ("ours (this clone)", "theirs (the commit reverted)")}


@printable_output
def team_conflict(result: TeamConflict) -> str:
    """A team memory's merge conflict before a person chooses: each conflicting field with both sides, and the
    command that settles it (nothing was changed)."""
    lines = [(f"{result.name}: unresolved merge conflict in {cut(result.path, 200)} — held back from the agent "
              "until you choose; nothing was changed.")]
    if result.error:
        return "\n".join([*lines, f"It cannot be resolved by a side: {cut(result.error, 300)}."])
    ours, theirs = _SIDES.get(result.replaying, _SIDES[None])
    width = max(len(ours), len(theirs)) + 1
    for hunk in result.hunks:
        lines.append(f"  {hunk.field or 'several fields at once'}:")
        lines.append(f"    {ours + ':':<{width}} {cut(hunk.ours, 300)!r}")
        lines.append(f"    {theirs + ':':<{width}} {cut(hunk.theirs, 300)!r}")
    lines.append(f"Choose: {result.command}.")
    if result.renamed_to:
        mine, other = result.renamed_to
        lines.append(f"Both sides renamed {result.name}: to {mine} (ours) and to {other} (theirs), so {mine} and "
                     f"{other} are two live copies of one memory, both in the agent's context. Keep one: choose the "
                     f"side whose rename names it (`--theirs` for {other}, `--ours` for {mine}: a rename's "
                     f"superseded_by and valid_until together), then delete the other (`memdir delete {mine} --scope "
                     f"team` to keep {other}; a delete does not tombstone a value the kept copy holds too).")
    return "\n".join(lines)


@printable_output
def resolved(result: Resolved) -> str:
    """A settled merge conflict."""
    kept = ", ".join(f"{side} of {field}" for field, side in result.fields)
    if result.side and result.fields:
        kept += f", {result.side} of the rest"
    then = f"`git {result.replaying} --continue`" if result.replaying else "commit the merge"
    return f"Resolved {result.name}: kept {kept or result.side} ({result.path}). Now `git add` it and {then}."


@printable_output
def merged_file(result: Merged, path: str, ceiling_from: str = "") -> str:
    """What the merge driver says on stderr (git shows it): the fields left
    with conflict markers, and how to settle them; a clean merge over the file-size ceiling — which one: the
    merging person's ``max_file_bytes``, set by ``ceiling_from`` (:func:`memdir.settings.set_by`) — and what to
    do; "" for a clean merge."""
    name = path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".md")
    if result.ceiling and not result.conflicts:
        source = f", from {ceiling_from}" if ceiling_from else ""
        return (f"{cut(path, 200)}: merged without a conflict, but the result is {len(result.data)} bytes, over "
                f"the {result.ceiling}-byte ceiling of a memory file (max_file_bytes of the person merging"
                f"{cut(source, 240)}; a teammate's memdir reads with their own): memdir would not read it, "
                "so git holds it as a conflict; both sides' text is in it. Shorten it, or move part of its body "
                "into another memory file, then `git add` it and commit the merge")
    if not result.conflicts:
        return ""
    fields = "the whole file" if result.conflicts == ("file",) else ", ".join(result.conflicts)
    said = f"both sides changed {fields}"
    if result.retiring:  # one side alone changed these: say which, and what the other did
        other = "theirs" if result.retired_by == "ours" else "ours"
        both = [field for field in result.conflicts if field not in result.retiring]
        said = (f"{result.retired_by} renamed or superseded it ({', '.join(result.retiring)}) while {other} "
                "changed it" + (f"; both sides changed {', '.join(both)}" if both else ""))
    return (f"{cut(path, 200)}: {said}; it stays out of every agent's context until settled "
            f"(memdir team resolve {name} --field FIELD=ours|theirs, or --ours|--theirs)")


@printable_output
def promoted(result: Promoted) -> str:
    """A project memory moved into the team layer."""
    text = f"Promoted {result.name} to the team layer ({result.path}, {result.operation}); commit it to share it."
    if result.redactions:
        text += f"\n{result.redactions} secret(s) were redacted before saving."
    return text


@printable_output
def import_report(result, *, max_lines: int = 200) -> str:
    """An import: one line per item that did something or was skipped (the
    first ``max_lines``; a body cut to fit the file ceiling marked ``[cut]``),
    then the counts by result and how many items were kept whole or cut; a line for the items whose
    type is none of memdir's (what each such type became, how many);
    when nothing was imported, why (:meth:`~memdir.importing.run.ImportReport.nothing`)."""
    lines = [("Dry run — nothing written. " if result.dry_run else "") + f"Import from {result.kind}: {result.source}"]
    shown = [o for o in result.outcomes if not o.result.endswith("unchanged")]
    for o in shown[:max_lines]:
        where = f"{o.name} ({o.scope})" if o.name else "-"
        lines.append(f"  {o.result:<16} {where}  ← {cut(o.source, 120)}" + (" [cut]" if o.cut else "")
                     + (f"  — {cut(o.detail, 300)}" if o.detail else ""))
    if len(shown) > max_lines:
        lines.append(f"  …{len(shown) - max_lines} more")
    counts = {k: result.count(k) for k in ("imported", "updated", "candidate", "unchanged", "skipped")}
    kept = [o.kept for o in result.outcomes]
    lines.append(("would be: " if result.dry_run else "") + ", ".join(f"{v} {k}" for k, v in counts.items())
                 + f" (kept whole: {kept.count('whole')}, cut: {kept.count('cut')}).")
    retyped = result.retyped()
    if retyped:
        lines.append(f"Type not one of {', '.join(TYPES)} (kept as original_type): " + ", ".join(
            f"{cut(original, 40)!r} → {kind} ({counted(n, 'item')})" for (original, kind), n in retyped.items()) + ".")
    if result.nothing():
        lines.append(result.nothing() + ".")
    return "\n".join(lines)


@printable_output
def export_report(result) -> str:
    """An export: where, how many memories and files, then each thing left out and why."""
    lines = [f"Exported {counted(len(result.exported), 'memory')} as {result.format} into {result.directory} "
             f"({result.files} file(s)" + (f", {result.versions} past version(s))" if result.with_history else ")")]
    lines += [f"  left out  {cut(what, 160)}  — {cut(why, 200)}" for what, why in result.left]
    return "\n".join(lines)


__all__ = ["export_report", "import_report", "merged_file", "promoted", "resolved", "team_init", "team_status",
           "team_trust"]
