"""What git ignores of the team directory (DESIGN §2, :mod:`memdir.operations.team`): a team file a ``.gitignore``
line matches is never committed, so never reaches a teammate — the one rule of it, said by ``team init`` and ``team
status`` alike."""

from __future__ import annotations

from pathlib import Path

from .. import git


def shared_file(path: str) -> bool:
    """Whether the team directory's file ``path`` (``/``-separated) is one teammates get by git: a memory file
    (``MEMORY.md`` is derived, ignored on purpose) or a tombstone. A ``.gitignore`` line matching one
    (``.claude/`` ignored whole, ``*.md``) keeps it out of every commit: a team write never reaches the
    team, a forget's tombstone never binds another clone (break39: `team status` said "Nothing to commit")."""
    parent, _, name = path.rpartition("/")
    return (name.endswith(".md") and name != "MEMORY.md") or (parent.endswith("tombstones") and name.endswith(".json"))


# What git would do with a team file not yet written: a memory file's name and a tombstone's (shared_file), asked of
# `git check-ignore` (the files need not exist) — a fresh team directory holds neither, and `.claude/` ignored whole
# keeps every one out of every commit.
IGNORE_PROBES = ("memory.md", "tombstones/memory.json")


def git_ignores(checkout: Path, team: Path, listed) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """What git ignores of the team directory ``team`` in the work tree ``checkout`` — never committed, so never
    shared — the one rule of it, for ``team init`` and ``team status``: ``(files, new)``. ``files``: the paths of
    ``listed`` (:func:`memdir.git.status` ``ignored=True``'s changes) in state ``ignored`` that teammates get by git
    (:func:`shared_file`); ``new``: the paths of :data:`IGNORE_PROBES` in ``team`` that git would ignore (``git
    check-ignore``, one call), so every memory or tombstone written there would be. Paths relative to the work
    tree, ``/``-separated; ``new`` is () when git cannot say."""
    files = tuple(c.path for c in listed if c.state == "ignored" and shared_file(c.path))
    try:
        rel = Path(team).relative_to(checkout).as_posix()
    except ValueError:
        return files, ()
    probes = [f"{rel}/{name}" for name in IGNORE_PROBES]
    found = git.check_ignore(checkout, probes) or set()
    return files, tuple(path for path in probes if path in found)


__all__ = ["IGNORE_PROBES", "git_ignores", "shared_file"]
