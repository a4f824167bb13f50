"""``memdir install gemini``: Gemini CLI (``@google/gemini-cli``, tested with 0.61).

One file holds both: ``~/.gemini/settings.json`` (user scope) or
``<root>/.gemini/settings.json`` (project scope), with ``mcpServers.memdir``
and hooks in Claude Code's shape under Gemini's event names: SessionStart
(the context block), BeforeAgent (the recall block of the prompt), AfterTool
(after memdir's ``memory_read`` or ``memory_write``: a body the model read or
wrote whole counts as given in the session), SessionEnd and PreCompress (queue
the transcript). Gemini CLI 0.61's AfterTool input, read from the real binary:
``tool_name`` ``mcp_memdir_memory_read``, ``tool_input`` the call's arguments,
``tool_response`` ``{"llmContent": [{"text": …}], "returnDisplay": …}`` and
``mcp_context`` ``{"server_name": "memdir", "tool_name": "memory_read", …}``
(the hook translates the name:
:func:`memdir.integrations.claude_code.hooks.translate`). Gemini's hook
timeouts are in milliseconds. Gemini CLI 0.61 asks nothing of a project's
hooks (read from the real binary, misc42): in a folder the person trusts it runs
them, its first session there warning that project-level hooks were detected and
"will be executed" and recording them in ``~/.gemini/trusted_hooks.json`` (no
warning after); in a folder not trusted it runs none, nor any MCP server
(:data:`TRUST_NOTE`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from ...errors import InvalidInput
from ...operations import installed as installs
from . import edits, entries
from ..claude_code.dialects import mcp_tool

CLIENT = "gemini"
SERVER_NAME = "memdir"
# event -> (matcher or None, timeout in milliseconds)
HOOK_EVENTS = {"SessionStart": (None, 10_000), "BeforeAgent": (None, 10_000), "SessionEnd": (None, 5_000),
               "PreCompress": (None, 10_000),
               # what the model read or wrote whole: Gemini CLI 0.61 names an MCP tool mcp_SERVER_TOOL (one
               # underscore) and takes the matcher as a regular expression
               "AfterTool": (mcp_tool(CLIENT, "memory_(read|write)", SERVER_NAME), 5_000)}


def targets(scope: str, user_home: Path | None = None, project: Path | None = None) -> tuple[Path]:
    """``(settings.json,)`` of ``scope``. Raises :class:`InvalidInput`."""
    if scope == "user":
        return (Path(user_home or os.path.expanduser("~")) / ".gemini" / "settings.json",)
    if scope == "project":
        if project is None:
            raise InvalidInput("project scope needs a project directory (--project DIR or run inside it)")
        return (Path(project) / ".gemini" / "settings.json",)
    raise InvalidInput(f"scope must be user or project, not {scope!r}")


def _ours(hook) -> bool:
    return isinstance(hook, dict) and entries.is_hook_of(CLIENT, hook.get("command"))


def merge(settings: dict, home=None, python=None, portable=False) -> dict:
    """``settings`` with memdir's server and hooks."""
    # --hooks in both scopes: Gemini CLI 0.61 runs a project's hooks exactly where it runs the project's MCP servers
    # and puts a server's instructions into the project's context (a trusted folder: its hooks are only warned of,
    # then trusted), so a project's server with the whole guidance gave it twice beside SessionStart's block (team41)
    argv = entries.server_argv(home, python, portable, hooks=True)
    wanted = {}
    for event, (matcher, timeout) in HOOK_EVENTS.items():
        group: dict = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "name": f"memdir-{event}",
                           "command": entries.hook_command(CLIENT, event, home, python, portable), "timeout": timeout}]
        wanted[event] = group
    out = entries.merge_groups(settings, wanted, _ours)
    entry = {"command": argv[0], "args": argv[1:]}
    if (out.get("mcpServers") or {}).get(SERVER_NAME) == entry:
        return out
    return entries.set_entry(out, "mcpServers", SERVER_NAME, entry)


def strip(settings: dict, record=None) -> dict:
    """``settings`` without memdir's server and hooks."""
    return entries.drop_entry(entries.strip_groups(settings, _ours), "mcpServers", SERVER_NAME, record)


def edit_for(path: Path, add=None) -> edits.Edit:
    """The edit of Gemini CLI's settings file."""
    return edits.Edit(path, edits.JSON, add, strip,
                      foreign=lambda d: entries.foreign_entry(d, "mcpServers", SERVER_NAME))


# Read from the real Gemini CLI 0.61 (trial23): a headless `gemini -p` offers the model none of an MCP server's tools
# nobody allowed (its request lists only the built-in read tools); --allowed-mcp-server-names memdir, --allowed-tools
# mcp_memdir_memory_write or --yolo offer them. An interactive session asks before a tool runs.
TOOLS_NOTE = ("Gemini CLI asks before it runs memdir's tools; a headless `gemini -p` offers the model none of them "
              "unless allowed: `gemini -p \"…\" --allowed-mcp-server-names memdir`")


# Read from the real Gemini CLI 0.61 (trial24): in a folder the person has not trusted, Gemini CLI turns off every MCP
# server, the user's own too (`gemini mcp list`: "Disabled", "User-level servers are also suppressed in untrusted
# folders"), and a headless `gemini -p` there exits 55 before any request; trusting the folder (its prompt, or
# ~/.gemini/trustedFolders.json) or GEMINI_CLI_TRUST_WORKSPACE=true runs memdir's server ("Connected").
TRUST_NOTE = ("Gemini CLI runs MCP servers, memdir's user-scope one too, only in a folder you trust: trust each "
              "project when Gemini CLI asks (`gemini mcp list` shows memdir \"Disabled\" until then); for automation "
              "GEMINI_CLI_TRUST_WORKSPACE=true or `--skip-trust`")

# Read from the real Gemini CLI 0.61 (misc42; its hookRegistry checkProjectHooksTrust): in a trusted folder a project's
# hooks run; new ones are warned of ("These hooks will be executed"), never asked about, and recorded in
# ~/.gemini/trusted_hooks.json. In a folder not trusted none run (TRUST_NOTE).
PROJECT_HOOKS_NOTE = ("Gemini CLI runs a project's hooks in a folder you trust without asking: its first session "
                      "there warns they were detected and runs them")


TRUSTED_FOLDERS = "trustedFolders.json"  # beside the user's settings.json in ~/.gemini (Gemini CLI 0.61)
_TRUSTING = ("TRUST_FOLDER", "TRUST_PARENT")


def _json(path: Path):
    import json

    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None


def folder_trusted(folder: Path, user_home: Path | None = None) -> bool:
    """Whether Gemini CLI 0.61 trusts ``folder``, as its ``trust.ts`` decides (read from the bundle): trusted when
    the user's ``settings.json`` turns folder trust off (``security.folderTrust.enabled: false``), else by the
    longest rule of ``~/.gemini/trustedFolders.json`` (``{"<path>": "TRUST_FOLDER" | "TRUST_PARENT" |
    "DO_NOT_TRUST"}``, a ``TRUST_PARENT`` rule naming its path's parent) whose folder holds ``folder`` (paths
    resolved): ``DO_NOT_TRUST`` or no rule is not trusted (an interactive ``gemini`` asks; ``gemini -p`` exits 55).
    ``GEMINI_CLI_TRUST_WORKSPACE`` is the client's environment, not read here. A file that cannot be read or
    parsed sets nothing (Gemini CLI refuses a broken ``trustedFolders.json`` outright). Never raises."""
    base = Path(user_home or os.path.expanduser("~")) / ".gemini"
    settings = _json(base / "settings.json")
    trust = ((settings.get("security") or {}) if isinstance(settings, dict) else {})
    trust = trust.get("folderTrust") if isinstance(trust, dict) else None
    if isinstance(trust, dict) and trust.get("enabled") is False:
        return True
    rules = _json(base / TRUSTED_FOLDERS)
    where = Path(folder).resolve()
    best, level = -1, None
    for path, value in rules.items() if isinstance(rules, dict) else ():
        if not isinstance(path, str) or value not in (*_TRUSTING, "DO_NOT_TRUST"):
            continue
        holder = Path(path).parent if value == "TRUST_PARENT" else Path(path)
        if where.is_relative_to(holder.resolve()) and len(path) > best:
            best, level = len(path), value
    return level in _TRUSTING


def unseen(project: Path, user_home: Path | None = None) -> str:
    """One line when memdir is registered with Gemini CLI for ``project`` (its root: the user's settings.json or
    the project's ``.gemini/settings.json`` holds ``mcpServers.memdir``) but Gemini CLI does not trust the
    folder (:func:`folder_trusted`): it then runs no MCP server there, memdir's user-scope one too, and a
    headless ``gemini -p`` exits 55 before any request (measured, trial24); else ``""``."""
    def registered(path: Path) -> bool:
        data = _json(path)
        servers = data.get("mcpServers") if isinstance(data, dict) else None
        return isinstance(servers, dict) and SERVER_NAME in servers

    if not any(registered(path) for path in (targets("user", user_home)[0], targets("project", None, project)[0])):
        return ""
    if folder_trusted(project, user_home):
        return ""
    rules = Path(user_home or os.path.expanduser("~")) / ".gemini" / TRUSTED_FOLDERS
    return (f"{CLIENT}: Gemini CLI does not trust {project}, so it runs no MCP server there, memdir's too (a "
            f"headless `gemini -p` exits 55): trust the folder when `gemini` asks, or add "
            f'"{project}": "TRUST_FOLDER" to {rules} (automation: GEMINI_CLI_TRUST_WORKSPACE=true)')


def doubled(recorded: dict, user_home: Path | None = None, assume: Path | None = None) -> list[str]:
    """One line for each project ``settings.json`` install recorded (``recorded``: {path: record}) that holds
    memdir's hooks while the user's does too: Gemini CLI 0.61 concatenates the hook lists of its settings files
    (``mergeStrategy: concat`` for every event) and runs both in that project, as Claude Code and Codex do
    (newuser39: one context block reached the model, the hooks' guard
    :mod:`memdir.integrations.claude_code.once` keeping the second quiet). ``assume``: a file taken to hold them
    (what a dry run would add)."""
    (user,) = targets("user", user_home)
    return edits.doubled_hooks(CLIENT, "Gemini CLI", user, recorded, assume)


def problems(memdir_home: Path) -> list[str]:
    """What ``memdir doctor`` says of Gemini CLI beyond a missing file (:func:`memdir.integrations.clients.edits.problems`):
    :func:`doubled` of the files install recorded."""
    return doubled({Path(name): record for name, record in edits.read_manifest(memdir_home, CLIENT).items()
                    if isinstance(record, dict)})


def install(scope: str, memdir_home: Path, *, dry_run: bool = False, user_home: Path | None = None,
            project: Path | None = None, home: str | None = None, python: str | None = None,
            force: bool = False) -> edits.Plan:
    """Register memdir's server and hooks with Gemini CLI in ``scope``. Raises :class:`InstallError`."""
    portable = scope == "project"
    notes: tuple[str, ...] = (TOOLS_NOTE, TRUST_NOTE)
    if portable:
        edits.check_on_path("Gemini CLI")
        notes += (PROJECT_HOOKS_NOTE,
                  *installs.unnamed_home("Gemini CLI", home))
        home = None
    (settings,) = targets(scope, user_home, project)
    plan = edits.run_install(CLIENT, scope, memdir_home,
                             [edit_for(settings, lambda d: merge(d, home, python, portable))],
                             dry_run=dry_run, notes=notes, force=force, home=home)
    recorded = {Path(name): record for name, record in edits.read_manifest(memdir_home, CLIENT).items()}
    twice = doubled(recorded, user_home, settings)
    return replace(plan, notes=(*plan.notes, *twice)) if twice else plan


def uninstall(scope: str | None, memdir_home: Path, *, dry_run: bool = False, user_home: Path | None = None,
              project: Path | None = None, home: str | None = None) -> edits.Plan:
    """Remove what :func:`install` added (every recorded scope when ``scope`` is None). ``home``: the ``--home``
    this home's commands name (None: the default home's): another home's entries are left."""
    paths = targets(scope or "user", user_home, project)
    return edits.run_uninstall(CLIENT, scope, memdir_home, [edit_for(p) for p in paths], edit_for, dry_run=dry_run,
                               home=home)


__all__ = ["install", "uninstall", "targets", "merge", "strip", "edit_for", "folder_trusted", "unseen", "doubled", "problems",
           "HOOK_EVENTS",
           "CLIENT"]
