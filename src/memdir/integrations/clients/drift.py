"""What ``memdir doctor`` says of a user-scope install that is no longer what this memdir installs: the
interpreter its commands name is gone (:func:`broken`, a problem: the checkout or virtualenv was moved or
deleted, every hook then fails and the agent gets no memory), or its entries are an older memdir's
(:func:`behind`, a note: after an upgrade, a hook event added since — Claude Code's PostToolUse — is missing
until the install runs again). Seen in trial26: a store and install made by a memdir of 2026-12-02, upgraded
to main, `memdir doctor` said "ok" while the install lacked PostToolUse in Claude Code's and Codex's files."""

from __future__ import annotations

import os
import re
from pathlib import Path

from ...errors import MemdirError
from ...files.fsio import read_bytes
from ...operations.installed import read_manifest

# The interpreter a user-scope entry runs: ``PY -m memdir.hooks …`` in a hook command, or a server's
# ``command`` followed by its ``args`` starting ``-m memdir.cli`` (JSON and TOML spell it alike), or one
# ``command`` list holding both (OpenCode).
_HOOK = re.compile(r"""(/[^\s"']+)\s+-m\s+memdir\.hooks\b""")
_SERVER = re.compile(r""""(/[^"]+)"\s*,?\s*(?:"?args"?\s*[:=]\s*\[\s*)?"-m"\s*,\s*"memdir\.cli\"""")


def named_interpreter(raw: bytes) -> str | None:
    """The absolute interpreter path memdir's entries in a settings file's ``raw`` bytes run (the first
    found: install writes one), or None when they name none (project scope runs ``memdir`` from PATH)."""
    text = raw.decode("utf-8", "replace")
    found = _HOOK.search(text) or _SERVER.search(text)
    return found.group(1) if found else None


def broken(memdir_home: Path, clients) -> list[str]:
    """Lines for ``memdir doctor`` to count as problems (exit 1), not notes: for each of ``clients`` (names), each
    file of its user-scope install recorded in ``memdir_home`` whose entries run an interpreter that no longer
    exists (the memdir checkout or virtualenv moved or was deleted), since then every hook of that client fails
    and its agent gets no memory (trial27: `memdir doctor` said "ok" and exited 0 there). ``[]`` when none."""
    out = []
    for client in clients:
        named = _named(_recorded(memdir_home, client))
        out += [(f"{client}: memdir's entries in {path} run {named[path]}, which no longer exists (the memdir "
                 f"checkout or virtualenv moved or was deleted), so each of them fails; run `memdir install {client} "
                 "--scope user` again with the memdir you use now")
                for path in sorted(p for p, python in named.items() if not os.path.exists(python))]
    return out


def _recorded(memdir_home: Path, client: str) -> dict[Path, bytes]:
    """The bytes of each file of ``client``'s user-scope install recorded in ``memdir_home`` that still holds
    memdir's entries (a file gone or unreadable is left out: the generic check says those)."""
    recorded = [Path(p) for p, r in read_manifest(memdir_home, client).items()
                if isinstance(r, dict) and r.get("scope") == "user"]
    return {path: raw for path in recorded if (raw := _bytes(path)) is not None and b"memdir" in raw}


def _named(raws: dict[Path, bytes]) -> dict[Path, str]:
    """The interpreter each of ``raws`` (:func:`_recorded`'s files) runs, for those naming one."""
    return {path: python for path, raw in raws.items() if (python := named_interpreter(raw))}


def behind(memdir_home: Path, client: str, said: list[str]) -> list[str]:
    """Notes for ``memdir doctor`` on ``client``'s user-scope install recorded in ``memdir_home``: when a dry run
    of this memdir's install (with the interpreter the files name, so running doctor from another path to the
    same memdir says nothing) would change a recorded file, one line naming those files — none when a line of
    ``said`` (the client's own, more precise check: Codex's changed output limit) already asks for the install
    again, which rewrites every file, and none when an interpreter the files name is gone (:func:`broken` says
    that, as a problem). A file that is gone or unreadable is left out (the generic check says those). An install
    that cannot be planned (a JSONC file, a refused entry) says nothing here."""
    from . import installer
    from .entries import home_written

    raws = _recorded(memdir_home, client)
    if not raws:
        return []
    named = _named(raws)
    if any(not os.path.exists(python) for python in named.values()):
        return []
    again = f"run `memdir install {client} --scope user` again"
    extra = {"home": home_written(memdir_home)}
    python = next(iter(named.values()), None)
    try:
        plan = installer(client).install("user", memdir_home, dry_run=True, python=python, **extra)
    except MemdirError:
        return []
    stale = [str(c.path) for c in plan.changes if c.path in raws and c.before is not None]
    if not stale or any(f"memdir install {client}" in line for line in said):  # that install rewrites every file
        return []
    return [(f"{client}: memdir's entries in {', '.join(stale)} are not what this memdir installs (an older "
             f"memdir wrote them, so what was added since is missing); {again} "
             f"(`memdir install {client} --dry-run` shows the difference)")]


def _bytes(path: Path) -> bytes | None:
    try:
        return read_bytes(path)
    except OSError:
        return None


__all__ = ["behind", "broken", "named_interpreter"]
