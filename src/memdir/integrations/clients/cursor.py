"""``memdir install cursor``: Cursor's agent (editor and ``cursor-agent``).

=========  ==========================  ============================
scope      MCP server                  hooks
=========  ==========================  ============================
user       ``~/.cursor/mcp.json``      ``~/.cursor/hooks.json``
project    ``<root>/.cursor/mcp.json`` ``<root>/.cursor/hooks.json``
=========  ==========================  ============================

Cursor's ``hooks.json`` is ``{"version": 1, "hooks": {event: [{"command": …}]}}``
(flat entries, camelCase events). sessionStart prints the context block as
``additional_context``; sessionEnd queues the transcript. Cursor's prompt
hook (beforeSubmitPrompt) cannot add context, so there is no per-prompt
recall: the agent searches with ``memory_search``.
"""

from __future__ import annotations

import os
from pathlib import Path

from ...errors import InvalidInput
from ...operations import installed as installs
from . import edits, entries

CLIENT = "cursor"
SERVER_NAME = "memdir"
HOOK_EVENTS = ("sessionStart", "sessionEnd")


def targets(scope: str, user_home: Path | None = None, project: Path | None = None) -> tuple[Path, Path]:
    """``(mcp.json, hooks.json)`` of ``scope``. Raises :class:`InvalidInput`."""
    if scope == "user":
        base = Path(user_home or os.path.expanduser("~")) / ".cursor"
    elif scope == "project":
        if project is None:
            raise InvalidInput("project scope needs a project directory (--project DIR or run inside it)")
        base = Path(project) / ".cursor"
    else:
        raise InvalidInput(f"scope must be user or project, not {scope!r}")
    return base / "mcp.json", base / "hooks.json"


def _ours(hook) -> bool:
    return isinstance(hook, dict) and entries.is_hook_of(CLIENT, hook.get("command"))


def merge_hooks(data: dict, home=None, python=None, portable=False) -> dict:
    """``data`` (hooks.json) with memdir's flat hook entries (and ``version: 1`` when it has none)."""
    hooks = data.get("hooks")
    if hooks is not None and not isinstance(hooks, dict):
        raise edits.InstallError('"hooks" in hooks.json is not an object; memdir left it untouched')
    wanted = {e: {"command": entries.hook_command(CLIENT, e, home, python, portable)} for e in HOOK_EVENTS}
    if hooks and all(isinstance(hooks.get(e), list) and w in hooks[e] for e, w in wanted.items()) and sum(
            1 for v in hooks.values() if isinstance(v, list) for h in v if _ours(h)) == len(wanted):
        return data
    out = entries.strip_groups(data, _ours)
    out.setdefault("version", 1)
    table = out.setdefault("hooks", {})
    for event, entry in wanted.items():
        existing = table.setdefault(event, [])
        if not isinstance(existing, list):
            raise edits.InstallError(f'"hooks.{event}" in hooks.json is not a list; memdir left it untouched')
        existing.append(entry)
    return out


def strip_hooks(data: dict, record=None) -> dict:
    """``data`` without memdir's hooks, and without the ``version`` install added
    (``record``'s ``version_before`` is False) once no hook is left. An install
    recorded before that was kept: a file left holding only ``version`` is empty."""
    out = entries.strip_groups(data, _ours)
    added = (record or {}).get("version_before")
    if "hooks" not in out and (added is False or (added is None and out == {"version": 1})):
        out.pop("version", None)
    return out


def _keep(data: dict) -> dict:
    return {"version_before": "version" in data}


def edit_for(path: Path, add=None) -> edits.Edit:
    """The edit of one Cursor file, by its name."""
    if path.name == "hooks.json":
        return edits.Edit(path, edits.JSON, add, strip_hooks, _keep)
    return edits.Edit(path, edits.JSON, add, lambda d, record: entries.drop_entry(d, "mcpServers", SERVER_NAME, record),
                      foreign=lambda d: entries.foreign_entry(d, "mcpServers", SERVER_NAME))


def install(scope: str, memdir_home: Path, *, dry_run: bool = False, user_home: Path | None = None,
            project: Path | None = None, home: str | None = None, python: str | None = None,
            force: bool = False) -> edits.Plan:
    """Register memdir's server and hooks with Cursor in ``scope``. Raises :class:`InstallError`."""
    portable = scope == "project"
    unnamed = installs.unnamed_home("Cursor", home) if portable else ()
    if portable:
        edits.check_on_path("Cursor")
        home = None
    mcp, hooks = targets(scope, user_home, project)
    argv = entries.server_argv(home, python, portable, hooks=True)
    server = {"command": argv[0], "args": argv[1:]}
    return edits.run_install(CLIENT, scope, memdir_home, [
        edit_for(mcp, lambda d: d if (d.get("mcpServers") or {}).get(SERVER_NAME) == server
                 else entries.set_entry(d, "mcpServers", SERVER_NAME, server)),
        edit_for(hooks, lambda d: merge_hooks(d, home, python, portable))], dry_run=dry_run,
        notes=("Cursor's prompt hook cannot add context: no per-prompt recall (the agent uses memory_search)",
               *unnamed),
        force=force, home=home)


def uninstall(scope: str | None, memdir_home: Path, *, dry_run: bool = False, user_home: Path | None = None,
              project: Path | None = None, home: str | None = None) -> edits.Plan:
    """Remove what :func:`install` added (every recorded scope when ``scope`` is None). ``home``: the ``--home``
    this home's commands name (None: the default home's): another home's entries are left."""
    paths = targets(scope or "user", user_home, project)
    return edits.run_uninstall(CLIENT, scope, memdir_home, [edit_for(p) for p in paths], edit_for, dry_run=dry_run,
                               home=home)


__all__ = ["install", "uninstall", "targets", "merge_hooks", "strip_hooks", "edit_for", "HOOK_EVENTS", "CLIENT"]
