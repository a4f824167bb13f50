"""The trust record: which repository's team memory this person let reach an agent (DESIGN §11).

A team layer is text from other people, arriving by ``git pull``. Like ``direnv allow`` or
an editor's workspace trust, memdir shows a repository's team memory to an agent only after
the person trusted it once in that clone (``memdir team trust``; ``memdir team init`` trusts
what it creates). The record is ``trust.json`` in the team layer's local side in the home
(:func:`memdir.paths.team_meta_dir`, keyed by the clone's path, never in the repository):
``{"root", "remote", "first_commit", "trusted_at"}`` — the path and the repository's
identity as :func:`memdir.git.identity` gives it (as a project layer's ``layer.json`` keeps it).

A clone is trusted while the record names its root and its ``origin`` URL still is the one
recorded (:func:`memdir.paths.origin_url`: read from git's config, git is not run — this is
on the hooks' hot path): a clone replaced at the same path by another repository's, or one
whose origin was pointed elsewhere, is untrusted again. The first commit is kept for the
person to see (``team trust``), not compared on every prompt (asking git costs a process).

What untrusted means is :class:`memdir.session.Session`'s rule: an agent's, consolidation's
or an importer's session does not see the team layer (not in the context block, recall, or
the tools' list, search and read; a team proposal is refused); its tombstones still bind
their writes (forgetting only takes away). A person sees, writes and reviews it as before.
Standard library only: the hot path loads this module.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from ..paths import origin_url

TRUST_FILE = "trust.json"
MAX_TRUST_BYTES = 64 * 1024


def read_trust(local: Path) -> dict | None:
    """The trust record in ``local`` (a team layer's local side), or None: none, unreadable, not a
    JSON object, a symlink (never followed)."""
    try:
        fd = os.open(os.path.join(local, TRUST_FILE), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with open(fd, "rb") as handle:
            info = json.loads(handle.read(MAX_TRUST_BYTES).decode("utf-8", "surrogateescape"))
    except (OSError, ValueError, RecursionError):
        return None
    return info if isinstance(info, dict) else None


def is_trusted(local: Path, root: Path) -> bool:
    """True when the record in ``local`` names ``root`` and the repository's ``origin`` URL is the
    one recorded (both absent counts as the same). Two small reads; never raises."""
    info = read_trust(local)
    return (info is not None and info.get("root") == str(root)
            and info.get("remote") == origin_url(root))


def write_trust(local: Path, info: dict) -> None:
    """Record ``info`` (see the module docstring) as ``local``'s trust, atomically. Raises
    :class:`StoreError`."""
    from .fsio import atomic_write, ensure_dir  # late: the hot path never writes

    ensure_dir(Path(local))
    atomic_write(Path(local) / TRUST_FILE, json.dumps(info, indent=1).encode("ascii") + b"\n")


def remove_trust(local: Path) -> bool:
    """Forget ``local``'s trust; False when there was none. Raises :class:`StoreError`."""
    from .fsio import unlink

    return unlink(Path(local) / TRUST_FILE)


def untrusted_note(team_dir: Path) -> str:
    """The one line an agent (SessionStart), ``status`` and ``doctor`` are told of an untrusted team layer."""
    return (f"this repository has a team memory layer ({team_dir}) not trusted in this clone: none of its "
            "memories reach the agent; a person reviews them (`memdir list --scope team`) and runs "
            "`memdir team trust`")


__all__ = ["TRUST_FILE", "is_trusted", "read_trust", "remove_trust", "untrusted_note", "write_trust"]
