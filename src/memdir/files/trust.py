"""The trust record: which repository's team memory this person let reach an agent (DESIGN §11).

A team layer is text from other people, arriving by ``git pull``. Like ``direnv allow`` or
an editor's workspace trust, memdir shows a repository's team memory to an agent only after
the person trusted it once in that clone (``memdir team trust``; ``memdir team init`` trusts
what it creates). The record is ``trust.json`` in the team layer's local side in the home
(:func:`memdir.paths.team_meta_dir`, keyed by the clone's path, never in the repository):
``{"root", "remote", "first_commit", "clone", "trusted_at"}`` — the path, the repository's
identity as :func:`memdir.git.identity` gives it (as a project layer's ``layer.json`` keeps it),
and the clone's mark.

The clone's mark binds the trust to this very git directory: a random token memdir keeps in the
repository's common git directory (:data:`CLONE_MARK`, made on the first trust and kept after;
``.git`` is never cloned, pulled or committed, so no other repository can carry it). A clone is
trusted while the record names its root, its ``origin`` URL still is the one recorded
(:func:`memdir.gitfiles.origin_url`) and its git directory holds the recorded mark — two small file
reads, git is not run (this is on the hooks' hot path). So a clone replaced at the same path by
another repository's (with or without an origin, with or without commits yet), or one whose origin
was pointed elsewhere, is untrusted again; an unknown identity never matches "any". A directory
with no git directory is trusted only while it still has none. A record without a mark (written
before marks) trusts nothing: the person trusts once again. The first commit is kept for the
person to see (``team trust``), not compared on every prompt (asking git costs a process).

What untrusted means is :class:`memdir.session.Session`'s rule: an agent's, consolidation's
or an importer's session does not see the team layer (not in the context block, recall, or
the tools' list, search and read; a team proposal is refused); its tombstones still bind
their writes (forgetting only takes away). A person sees, writes and reviews it as before.
Standard library only: the hot path loads this module.
"""

from __future__ import annotations

import os

from ..gitfiles import git_dir, linked_common_dir, origin_url

TRUST_FILE = "trust.json"
MAX_TRUST_BYTES = 64 * 1024
CLONE_MARK = "memdir-clone"  # in the repository's common git directory: this clone's random token
MAX_MARK_BYTES = 256


def read_trust(local: Path) -> dict | None:
    """The trust record in ``local`` (a team layer's local side), or None: none, unreadable, not a
    JSON object, a symlink (never followed)."""
    import json  # late: most layers' context path reads no JSON file (a few ms of every hook)

    try:
        fd = os.open(os.path.join(local, TRUST_FILE), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            info = json.loads(handle.read(MAX_TRUST_BYTES).decode("utf-8", "surrogateescape"))
    except (OSError, ValueError, RecursionError):
        return None
    return info if isinstance(info, dict) else None


def _git_dir(root: str | os.PathLike) -> str | None:
    """The repository's common git directory at ``root`` (a linked worktree's: the repository's own), or None."""
    gitdir = git_dir(root)
    return None if gitdir is None else (linked_common_dir(root, gitdir) or gitdir)


def clone_mark(root: Path) -> str | None:
    """The clone's mark (see the module docstring) of the repository at ``root``: its token; ``""`` when its
    git directory holds none (or it does not read: a symlink, too long, not text); None when there is no
    git directory. Never raises."""
    try:
        gitdir = _git_dir(root)
        if gitdir is None:
            return None
        fd = os.open(os.path.join(gitdir, CLONE_MARK), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            token = handle.read(MAX_MARK_BYTES + 1).decode("ascii").strip()
    except (OSError, ValueError):
        return ""
    return token if 0 < len(token) <= MAX_MARK_BYTES and token.isalnum() else ""


def make_clone_mark(root: Path) -> str | None:
    """The clone's mark of the repository at ``root``, made first when its git directory holds none (kept
    after, so another home's trust of the same clone stays valid); None when there is no git directory.
    Raises :class:`StoreError` when the mark cannot be written."""
    import secrets

    from .fsio import atomic_write  # late: the hot path never writes

    token = clone_mark(root)
    if token is None or token:
        return token
    from pathlib import Path

    token = secrets.token_hex(16)
    gitdir = _git_dir(root)
    mark = Path(gitdir) / CLONE_MARK
    if mark.is_symlink():  # never written through a link; replaced whole
        from .fsio import unlink

        unlink(mark)
    atomic_write(mark, token.encode("ascii") + b"\n")
    return token


def is_trusted(local: Path, root: Path) -> bool:
    """True when the record in ``local`` names ``root``, the repository's ``origin`` URL is the
    one recorded (both absent counts as the same) and its git directory holds the recorded clone
    mark (:func:`clone_mark`; no git directory then and now counts as the same). Three small reads;
    never raises."""
    info = read_trust(local)
    if info is None or info.get("root") != str(root) or info.get("remote") != origin_url(root):
        return False
    recorded, now = info.get("clone"), clone_mark(root)
    return recorded == now and (recorded is None or (isinstance(recorded, str) and recorded != ""))


def write_trust(local: Path, info: dict) -> None:
    """Record ``info`` (see the module docstring) as ``local``'s trust, atomically. Raises
    :class:`StoreError`."""
    import json

    from pathlib import Path

    from .fsio import atomic_write, ensure_dir  # late: the hot path never writes

    ensure_dir(Path(local))
    atomic_write(Path(local) / TRUST_FILE, json.dumps(info, indent=1).encode("ascii") + b"\n")


def remove_trust(local: Path) -> bool:
    """Forget ``local``'s trust; False when there was none. Raises :class:`StoreError`."""
    from pathlib import Path

    from .fsio import unlink

    return unlink(Path(local) / TRUST_FILE)


def untrusted_note(team_dir: Path) -> str:
    """The one line an agent (SessionStart), ``status`` and ``doctor`` are told of an untrusted team layer.
    Valid Unicode whatever the path: a name that is not UTF-8 shows its bytes as ``\\xNN`` (``ls -b``'s
    form), as the context block and the hooks' JSON must be UTF-8."""
    shown = os.fsencode(team_dir).decode("utf-8", "backslashreplace")
    return (f"this repository has a team memory layer ({shown}) not trusted in this clone: none of its "
            "memories reach the agent; a person reviews them (`memdir list --scope team`) and runs "
            "`memdir team trust`")


__all__ = ["CLONE_MARK", "TRUST_FILE", "clone_mark", "is_trusted", "make_clone_mark", "read_trust", "remove_trust", "untrusted_note", "write_trust"]
