"""``memdir install claude-code`` / ``memdir uninstall claude-code``.

Install merges memdir's hooks into a Claude Code ``settings.json`` and
registers the ``memdir`` MCP server (formats: ``reference/landscape.md``
§2.6 and §2.8):

=========  ==================================  ==================================
scope      hooks                               MCP server
=========  ==================================  ==================================
user       ``~/.claude/settings.json``         ``~/.claude.json``, top-level ``mcpServers``
project    ``<root>/.claude/settings.json``    ``<root>/.mcp.json``
=========  ==================================  ==================================

Rules: every existing key, hook and server is kept; memdir's entries are
recognized by their command (``-m memdir.hooks claude-code`` or ``memdir hook
claude-code`` for hooks, the server named ``memdir``), so installing twice
changes nothing the second time and a newer install replaces an older memdir
entry instead of adding one. A file that existed is first copied to
``$MEMDIR_HOME/integrations/backups/`` (never next to it: a project's files
live in a repository), then written atomically; a unified diff is returned for
printing. A file that is not valid JSON (or not a JSON object) is left
untouched and the whole install stops with :class:`InstallError` before
anything is written.

Commands: user scope names this interpreter by its absolute path (it works
whatever ``PATH`` Claude Code has); project scope writes files a team commits,
so it names ``memdir`` on ``PATH`` (checked at install time) and no machine
path. A home other than the default is written into user-scope commands
(``--home``), so Claude Code's hooks and server find it without
``MEMDIR_HOME`` in their environment.

Uninstall removes exactly what install added. Install records in
``$MEMDIR_HOME/integrations/claude-code.json`` every file it touched (scope,
the backup of what it held, the directories it created); uninstall without
``--scope`` finds every recorded install whatever its scope. When removing
memdir's entries leaves the same JSON as before install, the original bytes
are put back, or — when install created the file — the file and the
directories install created are removed, so install followed by uninstall
leaves the disk as it was.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

from ...errors import InstallError, InvalidInput
from ...operations import installed as installs
from ..clients import edits, entries
from ..clients.edits import FileChange, Plan
from .dialects import mcp_tool

CLIENT = "claude-code"
SERVER_NAME = "memdir"
HOOK_MARKER = "-m memdir.hooks claude-code"
PORTABLE_HOOK = "memdir hook claude-code"  # project scope: `memdir` on PATH, no machine path
HOOK_MARKERS = (HOOK_MARKER, PORTABLE_HOOK)
# event -> (matcher or None, timeout in seconds)
HOOK_EVENTS: dict[str, tuple[str | None, int]] = {
    "SessionStart": ("startup|resume|clear|compact", 10),
    "UserPromptSubmit": (None, 10),
    "PreCompact": (None, 10),
    "SessionEnd": (None, 5),
    "PostToolUse": (mcp_tool(CLIENT, "memory_(read|write)", SERVER_NAME), 5),  # what the model read or wrote whole
}
# Read from the real Claude Code 2.1.332 (trial22): `claude -p` refuses an MCP tool nobody allowed ("Claude requested
# permissions to use mcp__memdir__memory_write, but you haven't granted it yet."); an interactive session asks.
TOOLS_NOTE = ("Claude Code asks before it first runs each of memdir's tools; a headless `claude -p` has no one to "
              "ask and refuses them: allow them with `--allowedTools 'mcp__memdir__*'` (or list them under "
              "permissions.allow in its settings)")


# ---------------------------------------------------------------- where


def targets(scope: str, user_home: Path | None = None, project: Path | None = None) -> tuple[Path, Path]:
    """``(settings.json, MCP file)`` for ``scope``. Raises :class:`InvalidInput`."""
    if scope == "user":
        home = Path(user_home or os.path.expanduser("~"))
        return home / ".claude" / "settings.json", home / ".claude.json"
    if scope == "project":
        if project is None:
            raise InvalidInput("project scope needs a project directory (--project DIR or run inside it)")
        return project / ".claude" / "settings.json", project / ".mcp.json"
    raise InvalidInput(f"scope must be user or project, not {scope!r}")


def hook_command(event: str, home: str | None = None, python: str | None = None, portable: bool = False) -> str:
    """The shell command Claude Code runs for ``event``: this interpreter by
    its absolute path (works whatever PATH Claude Code has), or with
    ``portable`` ``memdir hook claude-code EVENT`` resolved on PATH."""
    return entries.hook_command("claude-code", event, home, python, portable)  # one rule for every client's hooks


def server_entry(home: str | None = None, python: str | None = None, portable: bool = False) -> dict:
    """The ``mcpServers.memdir`` value: a stdio server run by this interpreter
    (or, ``portable``, by ``memdir`` on PATH), with ``--hooks``: install gives Claude Code the
    SessionStart hook too, whose block carries the guidance the server's instructions then leave out."""
    home_args = (["--home", str(home)] if home else []) + ["--hooks"]
    if portable:
        return {"type": "stdio", "command": "memdir", "args": ["mcp", *home_args]}
    return {"type": "stdio", "command": python or sys.executable, "args": ["-m", "memdir.cli", "mcp", *home_args]}


def check_on_path(environ=None) -> str:
    """The ``memdir`` that project-scope commands will run, found on PATH.
    Raises :class:`InstallError` saying how to fix it when there is none."""
    return edits.check_on_path("Claude Code", environ)


# ---------------------------------------------------------------- JSON edits


def read_settings(path: Path) -> tuple[bytes | None, dict]:
    """The bytes of a Claude Code settings file (None when absent) and its JSON
    object (``{}`` for an absent or empty file). Raises :class:`InstallError`
    for an unreadable file or one that is not a JSON object: memdir never
    rewrites what it cannot read."""
    return edits.read(path, edits.JSON)


def is_memdir_hook(hook: dict) -> bool:
    """True for a hook entry whose command is one memdir installs (:data:`HOOK_MARKERS`)."""
    return isinstance(hook, dict) and any(marker in str(hook.get("command", "")) for marker in HOOK_MARKERS)


def _strip_hooks(settings: dict) -> dict:
    """``settings`` without memdir's hooks; groups and events left empty by
    that are dropped (only those memdir emptied)."""
    return entries.strip_groups(settings, is_memdir_hook)


def merge_hooks(settings: dict, home: str | None = None, python: str | None = None, portable: bool = False) -> dict:
    """``settings`` with memdir's hook groups (older memdir entries replaced;
    ``settings`` itself, unchanged, when every group is already there)."""
    wanted = {}
    for event, (matcher, timeout) in HOOK_EVENTS.items():
        group: dict = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": hook_command(event, home, python, portable),
                           "timeout": timeout}]
        wanted[event] = group
    return entries.merge_groups(settings, wanted, is_memdir_hook)


def merge_server(config: dict, home: str | None = None, python: str | None = None, portable: bool = False) -> dict:
    """``config`` with ``mcpServers.memdir`` set."""
    return entries.set_entry(config, "mcpServers", SERVER_NAME, server_entry(home, python, portable))


def strip_server(config: dict, record: dict | None = None) -> dict:
    """``config`` without ``mcpServers.memdir`` (and without ``mcpServers`` if that emptied it; the person's
    own entry back when a forced install replaced it: ``record["previous"]``)."""
    return entries.drop_entry(config, "mcpServers", SERVER_NAME, record)


# ---------------------------------------------------------------- plan and apply


AUTO_MEMORY_KEY = "autoMemoryEnabled"  # Claude Code's own auto memory (reference/landscape.md §2.2)


def auto_memory_on(settings: dict, environ=None) -> bool:
    """True when Claude Code's auto memory is on for these settings: not
    ``autoMemoryEnabled: false`` and no ``CLAUDE_CODE_DISABLE_AUTO_MEMORY`` set."""
    env = os.environ if environ is None else environ
    return settings.get(AUTO_MEMORY_KEY) is not False and env.get("CLAUDE_CODE_DISABLE_AUTO_MEMORY") in (None, "", "0")


def _keep_auto_memory(settings: dict) -> dict:
    """What uninstall needs to put ``autoMemoryEnabled`` back as it was."""
    return {"auto_memory_before": settings.get(AUTO_MEMORY_KEY, "absent")}


def _strip_settings(data: dict, record: dict) -> dict:
    out = _strip_hooks(data)
    if "auto_memory_before" in record and out.get(AUTO_MEMORY_KEY) is False:  # install turned it off
        before = record["auto_memory_before"]
        if before == "absent":
            out.pop(AUTO_MEMORY_KEY, None)
        else:
            out[AUTO_MEMORY_KEY] = before
    return out


def _edit(path: Path, add, auto_memory_off: bool = False) -> edits.Edit:
    """The edit of one Claude Code file: hooks (and, asked, auto memory off) in a ``settings.json``, the
    server in an MCP file."""
    if path.name.startswith("settings"):
        return edits.Edit(path, edits.JSON, add, _strip_settings, _keep_auto_memory if auto_memory_off else None)
    return edits.Edit(path, edits.JSON, add, strip_server,
                      foreign=lambda d: entries.foreign_entry(d, "mcpServers", SERVER_NAME))


def plan_install(scope: str, *, user_home: Path | None = None, project: Path | None = None,
                 home: str | None = None, python: str | None = None, disable_auto_memory: bool = False,
                 force: bool = False, memdir_home: Path | None = None) -> Plan:
    """Compute the install without writing. ``home`` is written into the
    commands when given (user scope only: project files name no machine
    path). Project scope checks that ``memdir`` is on PATH. When Claude
    Code's own auto memory is on, a note says so and how to import and turn
    it off; ``force`` replaces a hand-made ``memdir`` server (see
    :func:`memdir.integrations.clients.edits.plan_install`); ``disable_auto_memory``
    writes ``autoMemoryEnabled: false`` into the settings memdir manages (uninstall puts back what was there). Raises
    :class:`InstallError`."""
    settings_path, mcp_path = targets(scope, user_home, project)
    portable = scope == "project"
    notes = [TOOLS_NOTE]
    if portable:
        check_on_path()
        notes += installs.unnamed_home("Claude Code", home)
        home = None
    _, current = read_settings(settings_path)
    _, user = read_settings(targets("user", user_home)[0]) if scope == "project" else (None, current)
    on = auto_memory_on(current) and auto_memory_on(user)
    if on and not disable_auto_memory:
        notes.append("Claude Code's own auto memory is also on: two memories would compete for the same facts. "
                     "Bring its memories in with `memdir import claude-code`, and turn it off with "
                     f"`memdir install claude-code --scope {scope} --disable-auto-memory` (uninstall turns it back on)")

    def add_settings(data: dict) -> dict:
        out = merge_hooks(data, home, python, portable)
        if disable_auto_memory and on:
            out = {**out, AUTO_MEMORY_KEY: False}
        return out

    return edits.plan_install(CLIENT, scope, [
        _edit(settings_path, add_settings, disable_auto_memory and on),
        _edit(mcp_path, lambda d: merge_server(d, home, python, portable))], tuple(notes), force, memdir_home, home)


def plan_uninstall(scope: str | None, memdir_home: Path, *, user_home: Path | None = None,
                   project: Path | None = None, home: str | None = None) -> Plan:
    """Compute the uninstall without writing: the files of ``scope`` — or,
    with ``scope`` None, every file the manifest records (any scope) and the
    user-scope files. ``home``: the ``--home`` the install's user-scope commands name (None: none, the default
    home's), by which its entries are told from another memdir home's
    (:func:`memdir.integrations.clients.edits.plan_uninstall`). Raises :class:`InstallError`."""
    if scope is None:
        paths = list(targets("user", user_home)) + [Path(p) for p in edits.read_manifest(memdir_home, CLIENT)]
    else:
        paths = list(targets(scope, user_home, project))
    return edits.plan_uninstall(CLIENT, scope, [_edit(p, None) for p in paths], memdir_home, home)


def apply(plan: Plan, memdir_home: Path) -> Plan:
    """Write ``plan`` (:func:`memdir.integrations.clients.edits.apply`)."""
    return edits.apply(plan, memdir_home)


def install(scope: str, memdir_home: Path, *, dry_run: bool = False, **where) -> Plan:
    """Plan and (unless ``dry_run``) apply an install. See :func:`plan_install`."""
    plan = plan_install(scope, memdir_home=memdir_home, **where)
    return plan if dry_run else apply(plan, memdir_home)


def uninstall(scope: str | None, memdir_home: Path, *, dry_run: bool = False, **where) -> Plan:
    """Plan and (unless ``dry_run``) apply an uninstall. See :func:`plan_uninstall`."""
    plan = plan_uninstall(scope, memdir_home, **where)
    return plan if dry_run else apply(plan, memdir_home)


__all__ = ["InstallError", "FileChange", "Plan", "targets", "hook_command", "server_entry", "merge_hooks",
           "merge_server", "strip_server", "plan_install", "plan_uninstall", "apply", "install", "uninstall",
           "HOOK_EVENTS", "SERVER_NAME", "check_on_path", "CLIENT"]
