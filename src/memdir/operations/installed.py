"""Which coding agents memdir is installed into: the records ``memdir install`` keeps in
``$MEMDIR_HOME/integrations/<client>.json`` (written by :func:`memdir.integrations.clients.edits.apply`),
read here for every path that reports them — :meth:`memdir.Memory.status`, ``memdir status``,
``memdir doctor`` and the ``memory_status`` tool — so they list the same clients (trial20: the Python
API said ``clients: []`` where the CLI listed two). Reads files only; imports no installer."""

from __future__ import annotations

import json
from pathlib import Path
from typing import TYPE_CHECKING

from ..files.fsio import read_bytes
from ..files.layout import INSTALLS_DIR

if TYPE_CHECKING:
    from ..results.maintenance import InstalledClient

# The clients memdir has an installer for, in the order they are listed
# (memdir.integrations.clients.INSTALLERS has one module for each).
CLIENTS = ("claude-code", "codex", "gemini", "cursor", "opencode")
# Each client as a person names it (the installers' notes, doctor's warnings).
LABELS = {"claude-code": "Claude Code", "codex": "Codex", "gemini": "Gemini CLI", "cursor": "Cursor",
          "opencode": "OpenCode"}


def manifest_path(memdir_home: str | Path, client: str) -> Path:
    """``$MEMDIR_HOME/integrations/<client>.json``: what install recorded for ``client``."""
    return Path(memdir_home) / INSTALLS_DIR / f"{client}.json"


def read_manifest(memdir_home: str | Path, client: str) -> dict:
    """The install records of ``client`` by absolute file path, each a dict with at least ``scope``
    (``{}`` when there is none or it cannot be read or parsed). Never raises for a bad file."""
    try:
        raw = read_bytes(manifest_path(memdir_home, client))
    except OSError:
        return {}
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def installed(memdir_home: str | Path, clients=CLIENTS) -> tuple[InstalledClient, ...]:
    """One :class:`InstalledClient` per ``(client, scope)`` a manifest records, in the order of
    ``clients`` then user before project, each with its files as recorded (a record without a
    string scope is listed as ``unknown``). A client without a record is not listed."""
    # here, not at the top: the CLI's parser imports CLIENTS on every command, a write's too
    from ..results.maintenance import InstalledClient

    out = []
    for client in clients:
        by_scope: dict[str, list[str]] = {}
        for path, record in read_manifest(memdir_home, client).items():
            scope = record.get("scope") if isinstance(record, dict) else None
            by_scope.setdefault(scope if isinstance(scope, str) else "unknown", []).append(path)
        out += [InstalledClient(client, scope, tuple(by_scope[scope]))
                for scope in sorted(by_scope, key=lambda s: (s != "user", s != "project", s))]
    return tuple(out)


def unnamed_home(client: str, home: str | None) -> tuple[str, ...]:
    """The note of a project-scope install given ``home`` (a home other than the default, which user scope
    writes into the commands): the project's files name no machine path, so ``client`` (as a person names it:
    ``Claude Code``) finds that home only through MEMDIR_HOME in its environment. Empty when ``home`` is None
    (the default home: nothing to say). The one wording of ``memdir install``'s note and doctor's warning
    (:func:`home_warnings`)."""
    if not home:
        return ()
    return ((f"the project's files name no home; this home ({home}) is not the default, so give {client} "
             "MEMDIR_HOME in its environment, or install with --scope user"),)


def home_warnings(memdir_home: str | Path, environ=None) -> tuple[str, ...]:
    """One warning per client installed in project scope into ``memdir_home`` when that home is not the default
    (:func:`memdir.paths.resolve_home` with no ``--home`` and no environment; ``environ`` for tests): its hooks
    and server run ``memdir …`` naming no home, so without MEMDIR_HOME in the client's environment they read the
    default home, another one (ux49: install said it, doctor did not) — ``claude-code: its project-scope install's
    hooks would read another home: the project's files name no home; … give Claude Code MEMDIR_HOME … or install
    with --scope user (without it, they read /home/u/.local/share/memdir)``, the client's id first as in every
    doctor warning (``<client>: <why>: <fix>``, the verdict names the clients by it).
    ``()`` for the default home or no project-scope install. The rule of :meth:`memdir.Memory.doctor`, ``memdir
    doctor`` and the ``memory_status`` path alike. Reads files only; never raises."""
    from ..paths import resolve_home

    try:
        default = resolve_home(None, environ if environ is not None else {})
    except Exception:  # noqa: BLE001 — no default home can be named (no data dir): nothing to compare with
        return ()
    if Path(memdir_home) == default:
        return ()
    return tuple(f"{c.client}: its project-scope install's hooks would read another home: {line} (without it, "
                 f"they read {default})"
                 for c in installed(memdir_home) if c.scope == "project"
                 for line in unnamed_home(LABELS.get(c.client, c.client), str(memdir_home)))


__all__ = ["CLIENTS", "LABELS", "home_warnings", "installed", "manifest_path", "read_manifest", "unnamed_home"]
