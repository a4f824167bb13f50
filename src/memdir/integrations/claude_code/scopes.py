"""memdir's Claude Code hooks registered in both scopes: the user's
``~/.claude/settings.json`` and a project's ``.claude/settings.json``. Claude
Code runs the hooks of both, so every SessionStart would inject the memory
context twice (and every prompt recall twice) but for the hooks' own guard
(:mod:`memdir.integrations.claude_code.once`: the first hook of an event gives its block, the other stays
quiet; a hook of an older memdir claims nothing). ``memdir install`` says so when an install makes it so and
``memdir doctor`` reports it; the rule is :func:`twice`, read from the files as they are (no manifest needed).

A project's ``.mcp.json`` server waits for each person's approval (:func:`approval`): until then Claude Code shows
it as "Pending approval" and an interactive ``claude`` asks; a headless ``claude -p`` runs it without asking; one
the person turned off (``disabledMcpjsonServers``) never runs, while the project's hooks still inject the context
block that names its tools (measured on Claude Code 2.1.332, trial24: a scripted model's ``memory_list`` call got
memdir's answer while pending, "No such tool available" once turned off).
"""

from __future__ import annotations

from pathlib import Path


def hooked_scopes(user_home: Path | None = None, project: Path | None = None) -> list[tuple[str, Path]]:
    """``(scope, settings.json)`` for each scope whose settings file holds a
    memdir hook (the project scope only with ``project``). A file that cannot
    be read counts as holding none; one path shared by both scopes (a project
    at the home directory) counts once."""
    from .install import InstallError, is_memdir_hook, read_settings, targets

    found: list[tuple[str, Path]] = []
    for scope in ("user", "project") if project is not None else ("user",):
        path = targets(scope, user_home, project)[0]
        if any(path == seen for _, seen in found):
            continue
        try:
            _, data = read_settings(path)
        except InstallError:
            continue
        hooks = data.get("hooks")
        groups = [g for v in hooks.values() if isinstance(v, list) for g in v] if isinstance(hooks, dict) else []
        if any(is_memdir_hook(h) for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list)
               for h in g["hooks"]):
            found.append((scope, path))
    return found


def twice(scopes: list[tuple[str, Path]]) -> str:
    """The warning for memdir hooks in more than one scope, else ``""``."""
    if len(scopes) < 2:
        return ""
    where = " and ".join(f"{path} ({scope} scope)" for scope, path in scopes)
    from .once import BOTH_RUN

    return (f"memdir's hooks are registered twice, in {where}: Claude Code runs both; {BOTH_RUN} "
            "(memdir uninstall claude-code --scope user, or --scope project)")


def _load(path: Path) -> dict:
    import json

    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _decision(data: dict, server: str) -> bool | None:
    """What one of Claude Code's settings (``data``) says of project server ``server``: False when it lists it in
    ``disabledMcpjsonServers``, True when it lists it in ``enabledMcpjsonServers`` or sets
    ``enableAllProjectMcpServers``, None when it says nothing."""
    def listed(key):
        value = data.get(key)
        return isinstance(value, list) and server in value

    if listed("disabledMcpjsonServers"):
        return False
    if listed("enabledMcpjsonServers") or data.get("enableAllProjectMcpServers") is True:
        return True
    return None


def approval(project: Path, user_home: Path | None = None, assume: bool = False) -> str:
    """:func:`approval_state`'s line alone (``""``: Claude Code runs memdir's server there)."""
    return approval_state(project, user_home, assume)[1]


def approval_state(project: Path, user_home: Path | None = None, assume: bool = False) -> tuple[str, str]:
    """``(state, line)``: ``("off", line)`` when a ``disabledMcpjsonServers`` turns memdir's server off (no
    session runs it), ``("asks", line)`` when an interactive ``claude`` asks to approve it first (a headless
    ``claude -p`` runs it: its agent reaches the memories), ``("", "")`` when it runs (or memdir's files hold no
    server there). The line says why of memdir's server in ``project``'s ``.mcp.json`` and the fix (``assume``: take
    the file to hold it, as an install about to write it), else ``""``. Claude Code 2.1.332, measured (trial24,
    ``claude mcp get memdir`` and ``claude -p``): the server runs when ``~/.claude/settings.json`` enables it
    (``enabledMcpjsonServers`` naming it, or ``enableAllProjectMcpServers: true``), or, in a project whose trust
    dialog was accepted (``~/.claude.json`` ``projects["<root>"].hasTrustDialogAccepted``), when the project's
    ``.claude/settings.json``, ``.claude/settings.local.json`` or that ``projects`` entry does; a
    ``disabledMcpjsonServers`` naming it turns it off; otherwise an interactive ``claude`` asks (``claude -p`` runs
    it without asking).

    Without ``assume`` the line is about this person's agent, so a memdir server Claude Code also has in the user
    scope (``~/.claude.json`` ``mcpServers``) or this project's local scope (its ``projects`` entry's
    ``mcpServers``) makes it ``""``: Claude Code runs that one whether the ``.mcp.json`` one waits for approval or
    is turned off (measured, trial31: ``claude mcp list`` "✔ Connected" both ways), and reaching memdir through
    either server is reaching it. An install (``assume``) still says it: it speaks to each person who clones."""
    from .install import SERVER_NAME, targets

    settings, mcp = targets("project", user_home, project)
    servers = _load(mcp).get("mcpServers")
    if not assume and not (isinstance(servers, dict) and SERVER_NAME in servers):
        return "", ""
    user_settings, claude_json = targets("user", user_home)
    registered = _load(claude_json)
    projects = registered.get("projects")
    entry = {}
    for key in (str(project), str(Path(project).resolve())):
        if isinstance(projects, dict) and isinstance(projects.get(key), dict):
            entry = projects[key]
            break
    if not assume and any(isinstance(found, dict) and SERVER_NAME in found
                          for found in (registered.get("mcpServers"), entry.get("mcpServers"))):
        return "", ""
    sources = [user_settings]
    if entry.get("hasTrustDialogAccepted") is True:
        sources += [settings, settings.with_name("settings.local.json"), claude_json]
    decisions = {}
    for source in sources:
        data = entry if source == claude_json else _load(source)
        decided = _decision(data, SERVER_NAME)
        if decided is not None:
            decisions.setdefault(decided, source)
    if False in decisions:
        return "off", (f"claude-code: memdir's server in {mcp} is turned off by disabledMcpjsonServers in "
                       f"{decisions[False]}: Claude Code will not run it there (the hooks still run); remove "
                       f'"{SERVER_NAME}" from that list')
    if True in decisions:
        return "", ""
    return "asks", (f"claude-code: Claude Code asks each person to approve memdir's server in {mcp} when they first "
                    "start `claude` in the project (`claude mcp list` shows it pending until then; a headless "
                    f'`claude -p` runs it without asking); to approve it ahead, add "enabledMcpjsonServers": '
                    f'["{SERVER_NAME}"] to {user_settings}')


__all__ = ["approval", "approval_state", "hooked_scopes", "twice"]


def competing_auto_memory(project: Path, user_home: Path | None = None, environ=None) -> str:
    """``memdir doctor``'s note when memdir's hooks are installed (:func:`hooked_scopes`) while Claude Code's own
    auto memory is still on (:func:`memdir.integrations.claude_code.install.auto_memory_on`, in the user's and the
    project's settings) and holds a ``MEMORY.md`` for ``project``
    (:func:`memdir.importing.sources.claude_code_dir`): Claude Code then puts that index in front of the model
    beside memdir's block, at every session, so the two can disagree (newuser33: after ``memdir import
    claude-code`` doctor said "ok" while the model saw both). ``""`` otherwise; never raises."""
    from ...importing.sources import claude_code_dir
    from .install import InstallError, auto_memory_on, read_settings, targets

    scopes = hooked_scopes(user_home, project)
    if not scopes:
        return ""
    try:
        if not all(auto_memory_on(read_settings(targets(scope, user_home, project)[0])[1], environ)
                   for scope in ("user", "project")):
            return ""
    except InstallError:  # a settings file that cannot be read: nothing to say about it here
        return ""
    index = claude_code_dir(project, environ, home=user_home) / "MEMORY.md"
    try:
        if not index.is_file() or not index.read_bytes().strip():
            return ""
    except OSError:
        return ""
    return (f"Claude Code's own auto memory is on beside memdir: Claude also sees {index} at every session start, "
            "so the two can disagree; bring it in with `memdir import claude-code`, then turn it off with "
            f"`memdir install claude-code --scope {scopes[0][0]} --disable-auto-memory` (uninstall turns it back on)")
