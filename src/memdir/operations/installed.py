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


__all__ = ["CLIENTS", "installed", "manifest_path", "read_manifest"]
