"""Reading git for the team layer: status, the commits of a file, a file at a commit.

memdir reads git and never writes it: no ``commit``, ``push``, ``add`` or
``checkout`` is ever run (DESIGN §2, the team layer). Each call runs the
``git`` program in the repository root with a timeout; a missing ``git``, a
directory that is not a repository or a failing command raise
:class:`StoreError` with git's own message.
"""

from __future__ import annotations

import os
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import NotFound, StoreError

TIMEOUT = 30.0  # seconds for one git command
_SEP = "\x1f"


@dataclass(frozen=True)
class Commit:
    """One commit that touched a file: its ``commit`` id (40 hex), ``author``,
    ``date`` (ISO-8601 as git prints it) and ``message`` (the subject line)."""

    commit: str
    author: str
    date: str
    message: str


@dataclass(frozen=True)
class Change:
    """One path of ``git status`` under the team directory: ``path``
    (relative to the repository root), ``state`` (``modified``, ``added``,
    ``deleted``, ``untracked``, ``renamed``, ``conflicted``) and the two
    status letters git printed (``code``)."""

    path: str
    state: str
    code: str


def _git(root: Path, *args: str, binary: bool = False):
    env = {**os.environ, "GIT_TERMINAL_PROMPT": "0", "LC_ALL": "C"}
    try:
        done = subprocess.run(["git", "-C", str(root), *args], capture_output=True, timeout=TIMEOUT, env=env)
    except FileNotFoundError:
        raise StoreError("git is not installed (the team layer reads its status and history from git)") from None
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise StoreError(f"git {args[0]} failed: {exc}") from None
    if done.returncode != 0:
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise StoreError(f"git {args[0]} failed: {message[-1] if message else done.returncode}")
    return done.stdout if binary else done.stdout.decode("utf-8", "replace")


def _state(code: str) -> str:
    if code in ("DD", "AU", "UD", "UA", "DU", "AA", "UU"):
        return "conflicted"
    if code == "??":
        return "untracked"
    for letter, state in (("R", "renamed"), ("D", "deleted"), ("A", "added"), ("M", "modified")):
        if letter in code:
            return state
    return "modified"


def status(root: Path, path: Path) -> list[Change]:
    """What ``git status`` says of ``path`` (a directory in the repository at
    ``root``): every changed, new, deleted or conflicted file, ignored files
    left out. Raises :class:`StoreError`."""
    out = _git(root, "status", "--porcelain=v1", "-z", "--untracked-files=all", "--", str(path))
    changes = []
    items = out.split("\0")
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if len(item) < 4:
            continue
        code, rel = item[:2], item[3:]
        if "R" in code or "C" in code:
            i += 1  # the rename's source path follows
        changes.append(Change(rel, _state(code), code))
    return changes


def log(root: Path, path: Path) -> list[Commit]:
    """The commits that changed ``path``, newest first (renames followed).
    ``[]`` when git has none (new, uncommitted or not a repository)."""
    try:
        out = _git(root, "log", "--follow", f"--format=%H{_SEP}%an{_SEP}%aI{_SEP}%s", "--", str(path))
    except StoreError:
        return []
    commits = []
    for line in out.splitlines():
        parts = line.split(_SEP)
        if len(parts) == 4:
            commits.append(Commit(*parts))
    return commits


def show(root: Path, commit: str, path: Path) -> bytes:
    """The bytes of ``path`` at ``commit``. Raises :class:`NotFound` when git
    has no such file there."""
    rel = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    try:
        return _git(root, "show", f"{commit}:{rel}", binary=True)
    except StoreError as exc:
        raise NotFound(f"git has no {rel} at {commit!r} ({exc})") from None


__all__ = ["Change", "Commit", "log", "show", "status"]
