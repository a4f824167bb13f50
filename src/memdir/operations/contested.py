"""The conflicts a sync holds back, as a person settles them (DESIGN §11, issue 27).

A memory both machines changed where git cannot merge the fields is held back (:mod:`memdir.operations.carry`
records it, with the marker label that is this machine's: ``side``) until ``memdir sync resolve`` settles it.
This module reads what was recorded: the conflicts a state file holds (:func:`held_of`), which marker label a
person's choice of ``ours`` or ``theirs`` is (:func:`marker_side`: ``ours`` always means this machine's value),
and each conflicting field with both machines' values (:func:`conflict_of`). Split from
:mod:`memdir.operations.carry` along that seam: carry moves files between the live layers and the repository,
this names what it could not move.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from ..files import merge as merge_rules
from ..files import repository as sync_repo
from ..results import Result
from .carry import label


@dataclass(frozen=True)
class ConflictField(Result):
    """One conflicting field (a frontmatter key, ``body``, or None for a hunk over several) with
    ``this_machine``'s value and the ``other_machine``'s."""

    field: str | None
    this_machine: str
    other_machine: str


@dataclass(frozen=True)
class SyncConflict(Result):
    """A memory held back until a person settles it: ``name``, ``layer`` and its conflicting ``fields``."""

    name: str
    layer: str
    fields: tuple[ConflictField, ...] = ()



def held_of(state: dict) -> dict[str, dict]:
    """The conflicts a state file holds: path → ``{"mine": blob id, "side": ours|theirs}`` (an older state's
    bare blob id reads as this machine's merge: ``ours``)."""
    found = {}
    for path, value in (state.get("held") or {}).items():
        if isinstance(value, dict):
            side = value.get("side")
            found[path] = {"mine": value.get("mine"), "side": side if side in ("theirs", "neither") else "ours"}
        else:
            found[path] = {"mine": value, "side": "ours"}
    return found


def marker_side(held: dict, path: str, choice: str) -> str:
    """The marker label of ``choice`` (``ours``: this machine's value, ``theirs``: the other machine's)."""
    if held.get(path, {}).get("side") == "theirs":
        return {"ours": "theirs", "theirs": "ours"}[choice]
    return choice


def conflict_of(repo: Path, path: str, held: dict) -> SyncConflict:
    """The conflict of ``path`` as HEAD holds it: each conflicting field with this machine's value and the
    other machine's."""
    data = sync_repo.show(repo, "HEAD", path) or b""
    scope_name = label(path)
    scope, _, name = scope_name.partition(":")
    fields = []
    try:
        named = merge_rules.conflict_hunks(data)
    except ValueError:
        named = []
    flip = held.get(path, {}).get("side") == "theirs"
    if held.get(path, {}).get("side") == "neither":  # a third machine: both values are other machines'
        fields = [ConflictField(key, "(unchanged here: this machine keeps its own value)",
                                f"one machine: {merge_rules.hunk_value(key, hunk.ours)!r}; another: {merge_rules.hunk_value(key, hunk.theirs)!r}")
                  for key, hunk in named]
        return SyncConflict(name or path, scope if name else "", tuple(fields))
    for key, hunk in named:
        mine, other = (hunk.theirs, hunk.ours) if flip else (hunk.ours, hunk.theirs)
        fields.append(ConflictField(key, merge_rules.hunk_value(key, mine), merge_rules.hunk_value(key, other)))
    return SyncConflict(name or path, scope if name else "", tuple(fields))


__all__ = ["ConflictField", "SyncConflict", "conflict_of", "held_of", "marker_side"]
