"""Settling a team memory's merge conflict (DESIGN §11, :mod:`memdir.files.merge`): :func:`conflict` shows
both sides of each hunk, :func:`resolve` keeps one side (of every hunk, or per field) as a person chooses,
the conflicted bytes journaled first. Drawn out of :mod:`memdir.operations.team` (its size), which re-exports
them; a person only, the result left to commit.
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from .. import git
from ..errors import InvalidInput, NotFound, StoreError
from ..files import merge as merge_rules
from ..files.conflicts import CONFLICT
from ..files.conflicts import resolve as resolve_bytes
from ..files.layout import case_twins
from ..files.memfile import MalformedMemory, parse, text_digest
from ..gateway import changes as gateway
from ..gateway.duplicates import duplicate_groups
from ..results import Result
from ..session import Session
from ..text.names import normalize_name


@dataclass(frozen=True)
class Resolved(Result):
    """A conflict settled: ``name`` now holds ``side`` (ours | theirs) of
    every hunk, or per field ``fields`` ((field, side) pairs; ``side`` then
    the side of the fields not named, or None); ``replaying``: what git is in the middle of
    (:func:`memdir.git.replaying`: ``rebase`` … or None for a merge), which says the step after ``git add``."""

    name: str
    side: str | None
    path: str
    digest: str
    fields: tuple[tuple[str, str], ...] = ()
    replaying: str | None = None


def stem_name(path: str) -> str | None:
    """The memory name a team file's name ``path`` (or path) stands for (its stem normalized), or None."""
    from pathlib import Path

    try:
        return normalize_name(Path(path).stem).name
    except InvalidInput:
        return None


def _conflicted(layer, name: str):
    for bad in layer.scan().malformed:
        if bad.error == CONFLICT and stem_name(bad.path) == name:
            return bad
    return None


DELETED_ON_ONE_SIDE = ("UD", "DU")  # git's codes of a file deleted on one side of a merge, changed on the other


def _no_conflict(session: Session, layer, key: str) -> str:
    """Why ``team resolve`` has nothing to settle for ``key``: its file deleted on one side and changed on the
    other (git's ``UD``/``DU``: no markers to choose between), with the git commands that settle it — and, when
    the side that deleted it forgot it (a team tombstone of that name), that keeping the changed text while it
    holds that value needs the tombstone lifted first, with the lift command (the file is held back until
    then); a changed text that is not the forgotten value is kept by ``git add`` alone (the tombstone named);
    else no conflict at all."""
    from pathlib import Path

    from ..tombstones.refusals import lift_command

    path = Path(layer.path) / f"{key}.md"
    try:
        changes = git.status(Path(session.checkout_path), path)
    except StoreError:
        changes = []
    for change in changes:
        if change.code not in DELETED_ON_ONE_SIDE:
            continue
        said = (f"{key!r} was deleted on one side of the merge and changed on the other ({change.path}): there "
                "are no conflict markers to choose between — ")
        try:
            stone = next((s for s in layer.tombstones() if s.name == key), None)
        except StoreError:  # tombstones that cannot be read: the git commands still settle it
            stone = None
        if stone is None:
            return said + ("`git rm` it to keep the deletion, or `git add` it to keep the changed text (memdir team "
                           "status says more)")
        if key in layer.scan().entries:  # its changed text is another value than the one forgotten: in use
            return said + (f"it was forgotten (tombstone {stone.id}), but the changed text is not the forgotten "
                           f"value: `git rm {change.path}` keeps it forgotten, `git add {change.path}` keeps the "
                           "changed text")
        return said + (f"it was forgotten (tombstone {stone.id}), and the changed text is held back by that tombstone: "
                       f"`git rm {change.path}` keeps it forgotten; to keep the changed text, lift the tombstone "
                       f"first — `{lift_command(stone.id, 'team')}` — then `git add {change.path}`")
    return f"no unresolved merge conflict for {key!r} in {layer.path} (see memdir team status)"


@dataclass(frozen=True)
class ConflictSides(Result):
    """One conflict hunk of a team memory file: its ``field`` (a frontmatter key, ``body``, or None for a hunk over
    several keys) and what each side says (:func:`memdir.files.merge.hunk_value`): ``ours`` and ``theirs`` as
    git's markers label them (whose each is: :attr:`TeamConflict.replaying`)."""

    field: str | None
    ours: str
    theirs: str


@dataclass(frozen=True)
class TeamConflict(Result):
    """A team memory held back by an unresolved merge conflict, before a person chooses: ``name``, its file
    ``path``, each hunk's two sides (``hunks``) and the command that settles it (``command``); ``error`` when its
    markers do not make whole hunks (then ``hunks`` is empty and the file is settled by hand). ``replaying``
    (:func:`memdir.git.replaying`) says whose each side is: None (a merge) — ours is this clone's branch, theirs
    the one merged in; ``rebase`` — ours is the branch rebased onto, theirs this clone's own commit;
    ``cherry-pick``/``revert`` — ours is this clone's branch, theirs the commit picked or reverted."""

    name: str
    path: str
    hunks: tuple[ConflictSides, ...]
    command: str
    error: str = ""
    replaying: str | None = None
    renamed_to: tuple[str, ...] = ()  # (ours, theirs): both sides renamed it, each to a live memory (renamed_twice)


def renamed_twice(layer, hunks) -> tuple[str, str] | None:
    """``(ours, theirs)``: the two live memories of ``layer`` that a conflict's ``superseded_by`` hunk names
    (``hunks``: :class:`ConflictSides`) — both sides renamed (or superseded) one memory, each to another name,
    so the merge left two live copies of it, both in the agent's context, which resolving the hunk alone does
    not end; None when no such hunk names two live memories."""
    for hunk in hunks:
        if hunk.field != "superseded_by" or hunk.ours == hunk.theirs:
            continue
        names = [stem_name(side.strip("'\"") + ".md") for side in (hunk.ours, hunk.theirs)]
        entries = layer.scan().entries
        if all(n is not None and n in entries and entries[n].record.status == "active" for n in names):
            return names[0], names[1]
    return None


def live_copies(layer) -> tuple[tuple[str, ...], ...]:
    """The groups of active memories of ``layer`` with the same description and body, each by name in name order
    (:func:`memdir.gateway.duplicates.duplicate_groups`): what two renames of one memory, or two people writing
    one fact, leave after a merge. Each copy is in the agent's context; deleting all but one keeps the value
    (a delete does not tombstone a value another memory holds)."""
    entries = layer.scan().entries
    groups = duplicate_groups((layer.scope, name, entry.record.status,
                               text_digest(entry.record.description, entry.record.body))
                              for name, entry in sorted(entries.items()))
    return tuple(tuple(name for _, name in group) for group in groups)


def conflict(session: Session, name: str) -> TeamConflict:
    """Both sides of each conflict hunk of team memory ``name`` and how to choose (``memdir team resolve NAME``
    without a side). Reads the file; changes nothing. Raises :class:`NotFound` (no conflict, as :func:`resolve`)."""
    layer = session.layer("team")
    key = normalize_name(name).name
    bad = _conflicted(layer, key)
    if bad is None:
        raise NotFound(_no_conflict(session, layer, key))
    from pathlib import Path

    data = Path(bad.path).read_bytes()
    try:
        hunks = tuple(ConflictSides(field, merge_rules.hunk_value(field, hunk.ours),
                                    merge_rules.hunk_value(field, hunk.theirs))
                      for field, hunk in merge_rules.conflict_hunks(data))
    except ValueError as exc:
        return TeamConflict(key, bad.path, (), "", f"its conflict markers do not make whole hunks ({exc}): edit it "
                                                  "by hand, then `git add` it", git.replaying(session.project_root))
    named = [h.field for h in hunks if h.field]
    command = (f"memdir team resolve {key} --field {named[0] if named else 'FIELD'}=ours|theirs (per field; "
               "repeat it for each), or --ours|--theirs (every hunk)") if named else \
        f"memdir team resolve {key} --ours|--theirs (its hunks span several fields: the whole file's side)"
    return TeamConflict(key, bad.path, hunks, command, replaying=git.replaying(session.project_root),
                        renamed_to=renamed_twice(layer, hunks) or ())


def resolve(session: Session, name: str, side: str | None, fields: dict[str, str] | None = None) -> Resolved:
    """Settle the merge conflict of team memory ``name`` by keeping ``side``
    (``ours`` | ``theirs``) of every hunk, or per field: ``fields`` names the
    side of each conflicting field (``{"description": "theirs", "body":
    "ours"}``; ``body`` is the body), ``side`` then the side of the fields not
    named (:func:`memdir.files.merge.resolve_fields`). The conflicted bytes
    are kept in the journal first. A person only; the result is left to
    commit. Raises :class:`NotFound` (no conflict), :class:`InvalidInput` (no
    side for a conflicting field, naming them; a side that does not make a
    memory; neither ``side`` nor ``fields``: the conflicting fields named), :class:`TombstoneRefused`."""
    if side not in ("ours", "theirs", None):
        raise InvalidInput(f"side must be ours or theirs (got {side!r})")
    layer = session.layer("team")
    key = normalize_name(name).name
    bad = _conflicted(layer, key)
    if bad is None:
        raise NotFound(_no_conflict(session, layer, key))
    from pathlib import Path

    path = Path(bad.path)
    data = path.read_bytes()
    if side is None and not fields:
        try:
            found = ", ".join(dict.fromkeys(f or "several fields at once" for f in merge_rules.conflicting_fields(data)))
        except ValueError as exc:
            found = f"markers that do not make whole hunks ({exc})"
        raise InvalidInput(f"{path.name} conflicts in: {found}; choose a side: memdir team resolve {key} "
                           "--field FIELD=ours|theirs (per field), or --ours|--theirs (every hunk)")
    if fields:
        try:
            chosen = merge_rules.resolve_fields(data, fields, side)
        except ValueError as exc:
            raise InvalidInput(f"cannot resolve {path.name}: {exc}; nothing was changed (memdir team resolve "
                               f"{key} --field FIELD=ours|theirs for each, or --ours|--theirs for all)") from None
        side_text = ", ".join(f"{field}={chosen_side}" for field, chosen_side in sorted(fields.items()))
    else:
        try:
            chosen = resolve_bytes(data, side)
        except ValueError as exc:
            raise InvalidInput(f"cannot resolve {path.name}: its conflict markers do not make whole hunks ({exc}); "
                               "nothing was changed — edit it by hand") from None
        side_text = side
    try:
        record = parse(chosen.decode("utf-8"), key).record
    except (ValueError, MalformedMemory, UnicodeDecodeError) as exc:
        raise InvalidInput(f"{side_text} of {path.name} is not a readable memory ({exc}); edit it by hand") from None
    if path.name != f"{key}.md" and case_twins(f"{key}.md", (path.name,)):
        # Deploy.md holding deploy's conflict: one rename to its name first (on macOS and Windows the two are
        # one file: writing deploy.md, then removing Deploy.md, removed the resolved memory)
        try:
            os.rename(path, path.with_name(f"{key}.md"))
        except OSError as exc:
            raise StoreError(f"cannot rename {path} to {key}.md: {exc.strerror or exc}") from None
        path = path.with_name(f"{key}.md")
    with layer.transaction(session.actor, session.id) as tx:
        kept = layer.journal.put_object(data)
        gateway.check_forgotten(tx, None, record.description, record.body, key, title=record.title)
        event = tx.apply(key, record.with_(name=key), "resolve", raw=chosen,
                         reason=f"merge conflict: kept {side_text}", data={"conflicted": kept})
        if path.name != f"{key}.md":
            path.unlink(missing_ok=True)
    return Resolved(key, side, str(layer.path / f"{key}.md"), event.after or "",
                    tuple(sorted((fields or {}).items())), git.replaying(session.project_root))


def conflict_hunks_of(path) -> tuple[ConflictSides, ...]:
    """Each conflict hunk of the file at ``path`` as :class:`ConflictSides`; () when it does not read or its
    markers do not make whole hunks."""
    from pathlib import Path

    try:
        data = Path(path).read_bytes()
        return tuple(ConflictSides(field, merge_rules.hunk_value(field, hunk.ours),
                                   merge_rules.hunk_value(field, hunk.theirs))
                     for field, hunk in merge_rules.conflict_hunks(data))
    except (OSError, ValueError):
        return ()


__all__ = ["ConflictSides", "Resolved", "TeamConflict", "conflict", "conflict_hunks_of", "live_copies", "renamed_twice",
           "resolve", "stem_name"]
