"""``memdir install codex``: Codex CLI (``@openai/codex``, tested with 0.171).

=========  ===========================================  ===============================
scope      MCP server (``[mcp_servers.memdir]``)        hooks
=========  ===========================================  ===============================
user       ``$CODEX_HOME/config.toml`` (``~/.codex``)   ``$CODEX_HOME/hooks.json``
project    ``<root>/.codex/config.toml``                ``<root>/.codex/hooks.json``
=========  ===========================================  ===============================

Codex's hooks take Claude Code's shape and fields: SessionStart (also after a compaction) prints the
context block, UserPromptSubmit the recall block, PostToolUse (after memdir's
``memory_read`` or ``memory_write``) records a body the model read or wrote
whole as given in the session (each hook's command sets the ``MEMDIR_TOOL_OUTPUT_CEILING`` the server's entry
states, so it judges "whole" by the bytes Codex keeps, as the server sizes its reads), Stop (the end of each turn: Codex has no
session-end hook) and PreCompact queue the session's transcript. Codex 0.171's
PostToolUse input, read from the real binary: ``tool_name``
``mcp__memdir__memory_read``, ``tool_input`` the call's arguments,
``tool_response`` the MCP result ``{"content": [{"type": "text", "text":
…}], "isError": false}`` (the text the tool printed, which
:func:`memdir.tools.handlers.seen_in_conversation` reads as it is).
A person's ``tool_output_token_limit`` lower than memdir's default budget — the one Codex applies where the
server serves (:mod:`.outputlimit`: the system's, the user's, a trusted project's ``.codex/config.toml`` files
from its root down to where a session starts, the managed file; the user's entry serves every project, so the
smallest of them) — gives the server ``env = {MEMDIR_TOOL_OUTPUT_CEILING = …}`` (:func:`.outputlimit.entry_env`),
a cap on memdir's ``tool_output_max_bytes``, so its memory_read comes in parts Codex keeps whole while a person's
own lower budget stays in force. A project's entry always names its ceiling, the default too: Codex 0.171 merges
the project's ``[mcp_servers.memdir]`` into the user's key by key, ``env`` too (read back with ``codex mcp get
memdir``, trial23, trial24), so a project entry without one ran with the user's entry's. Other variables of
memdir's entry (a person's own) stay at a new install. A limit changed
afterwards, or set in a project's layer, is
rechecked by ``memdir doctor`` (:func:`problems`), which says which install writes the entry that budget calls for.
``config.toml`` is edited with tomlkit, so the person's comments and layout
stay. Codex runs a new or changed hook only after the person trusts it (its
``/hooks`` review), and loads a project's ``.codex/`` only in a trusted
project; the install says so, and ``memdir doctor`` says which of memdir's hooks Codex's own record
(``[hooks.state]`` of the user's config.toml) does not let run (:mod:`.hooktrust`).
"""

from __future__ import annotations

import os
from dataclasses import replace
from pathlib import Path

from ...errors import InvalidInput
from ...operations import installed as installs
from . import edits, entries
from ..claude_code.dialects import mcp_tool
from .outputlimit import CEILING, LEGACY, entry_env, kept_bytes, unrecorded

CLIENT = "codex"
SERVER_NAME = "memdir"
# event -> (matcher or None, timeout in seconds)
HOOK_EVENTS = {"SessionStart": ("startup|resume|clear|compact", 10), "UserPromptSubmit": (None, 10),
               "Stop": (None, 5), "PreCompact": (None, 10),
               # what the model read or wrote whole; Codex 0.171 names an MCP tool mcp__SERVER__TOOL and
               # takes the matcher as a regular expression, as Claude Code does
               "PostToolUse": (mcp_tool(CLIENT, "memory_(read|write)", SERVER_NAME), 5)}
NOTE = ("Codex runs a new hook only once you trust it: start `codex` and approve memdir's hooks in /hooks "
        "(automation: `codex exec --dangerously-bypass-hook-trust`)")


def approval_note() -> str:
    """What install says of memdir's destructive tools (``destructiveHint``, :mod:`memdir.tools.specs`): Codex 0.171
    asks the person before each call, so ``codex exec`` (approval policy never) refuses them ("MCP tool call
    requires approval, but approval policy is never": newuser37, a forget the context block's guidance asks for
    failed), unless the person approves a tool for good in config.toml."""
    from ...tools import tool_specs

    names = [spec.name for spec in tool_specs() if spec.destructive]
    return (f"Codex asks you before memdir's tools that delete ({', '.join(names)}) run; `codex exec` refuses them "
            f"unless approved ahead in config.toml, per tool: [mcp_servers.{SERVER_NAME}.tools.{names[0]}] "
            'approval_mode = "approve"')


def targets(scope: str, user_home: Path | None = None, project: Path | None = None) -> tuple[Path, Path]:
    """``(config.toml, hooks.json)`` of ``scope``. Raises :class:`InvalidInput`."""
    if scope == "user":
        env = os.environ.get("CODEX_HOME") if user_home is None else None
        base = Path(env) if env else Path(user_home or os.path.expanduser("~")) / ".codex"
    elif scope == "project":
        if project is None:
            raise InvalidInput("project scope needs a project directory (--project DIR or run inside it)")
        base = Path(project) / ".codex"
    else:
        raise InvalidInput(f"scope must be user or project, not {scope!r}")
    return base / "config.toml", base / "hooks.json"


def _ours(hook) -> bool:
    return isinstance(hook, dict) and entries.is_hook_of(CLIENT, hook.get("command"))


def _server_text(value: dict) -> str:
    import tomlkit

    return tomlkit.dumps({"mcp_servers": {SERVER_NAME: value}}).replace("[mcp_servers]\n", "", 1)


def _checked(text: str, expected: dict):
    """``text`` parsed, when it holds exactly ``expected``: every other key keeps its path."""
    import tomlkit
    from tomlkit.exceptions import TOMLKitError

    try:
        doc = tomlkit.parse(text)
        same = doc.unwrap() == expected
    except (TOMLKitError, ValueError):
        same = False
    if not same:
        raise edits.InstallError("memdir cannot add or remove its [mcp_servers.memdir] table in config.toml without "
                                 "moving other keys (an inline mcp_servers table?); memdir left it untouched — "
                                 "add it by hand")
    return doc


def merge_server(doc, argv: list[str], limit=..., named: bool = False, written: dict | None = None):
    """The TOML ``doc`` with ``[mcp_servers.memdir]`` running ``argv``: a table
    appended at the very end of the document, so no key of the person's
    (top-level keys after dotted ``mcp_servers.x.y`` keys included) changes
    its path. ``limit``: the ``tool_output_token_limit`` Codex applies where the
    server serves (tokens, None for Codex's default: :func:`.outputlimit.token_limit`);
    left out, ``doc``'s own. ``named``: the entry names its ceiling even when it is memdir's default (a
    project's entry, which Codex merges into the user's). ``written``: the env memdir's last install wrote into
    the entry (:func:`written`; None: not known), so that a variable holding memdir's value is replaced and the
    person's own kept (:func:`.outputlimit.entry_env`). Raises :class:`InstallError` when that cannot be done."""
    import tomlkit

    servers = doc.get("mcp_servers")
    if servers is not None and not hasattr(servers, "get"):
        raise edits.InstallError("mcp_servers in config.toml is not a table; memdir left it untouched")
    if limit is ...:
        limit = _plain(doc.get("tool_output_token_limit"))
    entry = servers.get(SERVER_NAME) if servers is not None else None
    ours = entry is not None and entries.is_our_server(_plain(entry))  # a person's own entry's env is not carried
    before = _plain(entry.get("env")) if ours and hasattr(entry.get("env"), "get") else None
    env = entry_env(limit, named, before, written)
    # the person's own keys of memdir's entry (a tool's approval_mode, startup_timeout_sec) stay (newuser37: a
    # new install, as after an upgrade, dropped the [mcp_servers.memdir.tools.memory_delete] approval)
    own = {key: value for key, value in _plain(entry).items() if key not in ("command", "args", "env")} if ours else {}
    wanted = {"command": argv[0], "args": argv[1:], **({"env": env} if env else {}), **own}
    if entry is not None and getattr(entry, "unwrap", lambda: entry)() == wanted:
        return doc
    expected = doc.unwrap()
    if entry is not None:  # an older memdir entry (or the person's, forced): replaced at the end
        del servers[SERVER_NAME]
        if not servers:
            del doc["mcp_servers"]
    expected.setdefault("mcp_servers", {})[SERVER_NAME] = wanted
    text = tomlkit.dumps(doc).rstrip("\n")
    return _checked((text + "\n\n" if text else "") + _server_text(wanted), expected)


def _plain(value):
    """A tomlkit item as plain Python data (anything else as it is)."""
    return value.unwrap() if hasattr(value, "unwrap") else value


def _entry_env(entry) -> dict:
    """The ``env`` of a server ``entry`` (a TOML table) as plain data; ``{}`` when it has none."""
    env = entry.get("env") if hasattr(entry, "get") else None
    return _plain(env) if hasattr(env, "get") else {}


def written(memdir_home: Path, path: Path) -> dict | None:
    """The ``env`` memdir's last install wrote into its entry in the Codex ``config.toml`` at ``path``, as install
    recorded it (``server_env``, from trial25 on); for an older install, the entry's env when the file is byte for
    byte what that install wrote (nobody edited it since: all of it is memdir's); else None (not known)."""
    import hashlib

    record = edits.read_manifest(memdir_home, CLIENT).get(str(path))
    if not isinstance(record, dict):
        return None
    if isinstance(record.get("server_env"), dict):
        return record["server_env"]
    from ...files.fsio import read_bytes

    raw = read_bytes(path)
    if raw is None or hashlib.sha256(raw).hexdigest() != record.get("installed_sha256"):
        return None
    entry = _entry(path)
    return _entry_env(entry) if entry is not None and entries.is_our_server(_plain(entry)) else None


def _wrote(doc) -> dict:
    """What the manifest records of the ``config.toml`` ``doc`` install writes: the env memdir itself put in its
    entry (the ceiling; a variable it kept there is the person's, never recorded as memdir's)."""
    servers = doc.get("mcp_servers")
    entry = servers.get(SERVER_NAME) if hasattr(servers, "get") else None
    env = _entry_env(entry) if entry is not None else {}
    return {"server_env": {key: value for key, value in env.items() if key == CEILING}} if entry is not None else {}


def _server_bytes(entry) -> int | None:
    """The ceiling (:data:`.outputlimit.CEILING`) memdir's server ``entry`` (a TOML table) sets, as an int; None
    when it sets none (memdir's default budget)."""
    env = entry.get("env") if hasattr(entry, "get") else None
    value = env.get(CEILING) if hasattr(env, "get") else None
    value = _plain(value)
    return int(value) if isinstance(value, str) and value.isdigit() else None


def problems(memdir_home: Path) -> list[str]:
    """What ``memdir doctor`` says of Codex beyond a missing file (:func:`memdir.integrations.clients.edits.problems`):
    :func:`_limit_problems` of the files install recorded and their hooks registered twice (:func:`doubled`). Hooks
    Codex does not run yet are :func:`warnings`."""
    recorded = _recorded(memdir_home)
    return _limit_problems(recorded, memdir_home) + doubled(recorded)


def warnings(memdir_home: Path) -> list[str]:
    """What ``memdir doctor`` warns of Codex: memdir's hooks in a ``hooks.json`` install recorded that Codex will
    not run until the person trusts them (:func:`_trust_problems`)."""
    return _trust_problems(_recorded(memdir_home))


def _recorded(memdir_home: Path) -> dict:
    """{path: record} of the Codex files install recorded in ``memdir_home``."""
    return {Path(name): record for name, record in edits.read_manifest(memdir_home, CLIENT).items()
            if isinstance(record, dict)}


def doubled(recorded: dict, user_home: Path | None = None, assume: Path | None = None) -> list[str]:
    """One line for each project ``hooks.json`` install recorded (``recorded``: {path: record}) that holds memdir's
    hooks while the user's does too: Codex 0.171 runs both in that project (measured, trial23: SessionStart twice,
    two context blocks reached the model; one since the hooks' guard, :mod:`memdir.integrations.claude_code.once`),
    as Claude Code does. ``assume``: a file taken to hold them (what a dry
    run would add)."""
    return edits.doubled_hooks(CLIENT, "Codex", targets("user", user_home)[1], recorded, assume)


_SAID = {"untrusted": "not trusted yet", "modified": "changed since you trusted it", "disabled": "turned off"}


def _trust_problems(recorded: dict) -> list[str]:
    """For each ``hooks.json`` install recorded, one line when Codex will not run some of memdir's hooks in it, as
    Codex's own record in the user's ``config.toml`` says (:func:`memdir.integrations.clients.hooktrust.states`):
    each such hook's event and why (not trusted yet, changed since trusted, turned off), and what to do."""
    from .hooktrust import TRUSTED, states

    user_config = targets("user")[0]
    out = []
    for path in recorded:
        if path.name != "hooks.json":
            continue
        idle = [f"{event} ({_SAID[state]})" for event, state in states(path, user_config, _ours) if state != TRUSTED]
        if idle:
            out.append(f"{CLIENT}: Codex does not run {len(idle)} of memdir's hooks in {path}: {', '.join(idle)} "
                       f"(its record: {user_config}); start `codex` and review them in /hooks")
    return out


def _limit(scope: str, path: Path, user_config: Path) -> tuple[int | None, Path | None]:
    """``(limit, layer)`` that memdir's entry in ``path``, installed in ``scope``, is sized by
    (:mod:`.outputlimit`): a project's entry by the smallest limit a session anywhere in that project applies;
    the user's, which serves every project, by the smallest limit any of them applies."""
    from .outputlimit import project_limit, smallest_limit

    return project_limit(user_config, path.parent.parent) if scope == "project" else smallest_limit(user_config)


def _limit_problems(recorded: dict, home: Path) -> list[str]:
    """For each ``config.toml`` install recorded, when the ``[mcp_servers.memdir]`` entry's tool output budget is
    not the one :func:`merge_server` would write for the ``tool_output_token_limit`` Codex applies where it serves
    (:func:`_limit`: the person changed the limit after installing, in the user's file or a trusted project's —
    reads are cut by Codex again, or come in needlessly small parts), one line naming the limit and the file
    setting it, both budgets in UTF-8 bytes and the command that rewrites the entry; or, for an entry an older
    install gave ``MEMDIR_TOOL_OUTPUT_MAX_BYTES`` (a budget overriding the person's own, which
    :func:`.outputlimit.entry_env` drops), that line instead. Nothing for a file that cannot be read or parsed, or
    without memdir's entry (the generic check says those)."""
    from ...settings import DEFAULTS

    user_config = targets("user")[0]
    users = _entry(user_config)
    out = []
    for path, record in recorded.items():
        if path.suffix != ".toml":
            continue
        entry = _entry(path)
        if entry is None or not entries.is_our_server(_plain(entry)):
            continue
        scope = record.get("scope") if record.get("scope") in ("user", "project") else "user"
        limit, layer = _limit(scope, path, user_config)
        default = DEFAULTS["tool_output_max_bytes"]
        env, wrote = _entry_env(entry), written(home, path)
        if LEGACY in env and LEGACY not in entry_env(limit, scope == "project", env, wrote):  # an older install's
            out.append(f"{CLIENT}: memdir's server entry in {path} sets {LEGACY} = {env[LEGACY]} itself (an older "
                       "`memdir install` wrote it), which overrides your own tool_output_max_bytes; run "
                       f"`memdir install {CLIENT} --scope {scope}` again (it states a ceiling instead)")
            continue
        if unrecorded(env, wrote) is not None:  # memdir's or the person's: not known, so kept and said
            out.append(f"{CLIENT}: memdir's server entry in {path} sets {LEGACY} = {env[LEGACY]}, which overrides "
                       "tool_output_max_bytes; an older `memdir install` wrote that variable and this one keeps it "
                       "as yours: if you did not set it, remove the line and run "
                       f"`memdir install {CLIENT} --scope {scope}` again")
        now, wanted = _server_bytes(entry), kept_bytes(limit)
        taken = scope == "project" and _server_bytes(entry) is None and _server_bytes(users) is not None
        now = _server_bytes(users) if taken else now or default  # Codex merges a project's entry into the user's
        if now == wanted:
            continue
        where = f"in {layer} is {limit}" if layer is not None else f"in {path} is not set"
        server = "there" if layer in (None, path) else f"in {path}"
        server += f" (it names no budget, so Codex gives it the one of {user_config})" if taken else ""
        out.append(f"{CLIENT}: tool_output_token_limit {where}: memdir's server {server} gives memory_read "
                   f"in parts of up to {now} bytes where that limit calls for {wanted}; "
                   f"run `memdir install {CLIENT} --scope {scope}` again")
    return out


def _entry(path: Path):
    """memdir's ``[mcp_servers.memdir]`` table in the Codex ``config.toml`` at ``path``; None when the file is
    missing, cannot be read or has none."""
    try:
        doc = edits.read(path, edits.TOML)[1]
    except edits.InstallError:
        return None
    servers = doc.get("mcp_servers")
    return servers.get(SERVER_NAME) if hasattr(servers, "get") else None


def unseen(project: Path, user_home: Path | None = None) -> str:
    """One line when memdir's server is registered for Codex only in ``project``'s own ``.codex/config.toml``
    (``project``: its root; the user's config has no memdir entry) and the user's config does not trust the
    project (:func:`.outputlimit.trusted`): Codex 0.171 reads no ``.codex/`` of an untrusted project, so its agent
    has neither memdir's tools nor its hooks there; else ``""``."""
    from .outputlimit import trusts

    user_config, mine = targets("user", user_home)[0], targets("project", None, project)[0]
    entry = _entry(mine)
    if entry is None or not entries.is_our_server(_plain(entry)) or _entry(user_config) is not None:
        return ""
    if trusts(user_config, project):
        return ""
    return (f"{CLIENT}: Codex reads {mine.parent} only in a trusted project and {user_config} does not trust "
            f"{project}, so neither memdir's server nor its hooks run there: trust the project when `codex` asks, "
            f'or add [projects."{project}"] trust_level = "trusted" to {user_config}')


def strip_server(doc, record=None):
    """The TOML ``doc`` without ``[mcp_servers.memdir]`` (and without an
    ``mcp_servers`` it left empty, when install created it: ``record`` says).
    Raises :class:`InstallError` when the rest would not stay as it was."""
    import tomlkit

    servers = doc.get("mcp_servers")
    if servers is None or not hasattr(servers, "get") or SERVER_NAME not in servers:
        return doc
    expected = doc.unwrap()
    entry = expected["mcp_servers"].pop(SERVER_NAME)
    del servers[SERVER_NAME]
    previous = (record or {}).get("previous")
    if previous is not None and entries.is_our_server(entry):  # a forced install replaced the person's own
        expected["mcp_servers"][SERVER_NAME] = previous
        return _checked(tomlkit.dumps(doc).rstrip("\n") + "\n\n" + _server_text(previous), expected)
    if not servers and (not (record or {}).get("mcp_servers_before") or "mcp_servers" not in tomlkit.dumps(doc)):
        del doc["mcp_servers"]
        del expected["mcp_servers"]
    return _checked(tomlkit.dumps(doc), expected)


def strip_trust(doc, hooks: Path):
    """The TOML ``doc`` (a user's ``config.toml``) without Codex's trust records of memdir's hooks in ``hooks``
    (the ``hooks.json`` beside it, still holding them: :func:`.hooktrust.keys`), and without a ``[hooks.state]``
    or ``[hooks]`` table that taking them out left empty, nor the blank line left at the end. The person's own
    records stay."""
    import tomlkit

    from .hooktrust import keys

    table = doc.get("hooks")
    state = table.get("state") if hasattr(table, "get") else None
    gone = [key for key in keys(hooks, _ours) if hasattr(state, "get") and key in state]
    if not gone:
        return doc
    for key in gone:
        del state[key]
    if not state:
        del table["state"]
        if not table:
            del doc["hooks"]
    text = tomlkit.dumps(doc)
    # Codex appends a record as a table after a blank line; the blank line left at the end once it goes was its
    # (newuser38: a project's uninstall left the user's file one "\n" longer than before install)
    return tomlkit.parse(text.rstrip("\n") + "\n") if text.endswith("\n\n") else doc


def _strip(path: Path, projects: tuple[Path, ...] = ()):
    """The ``remove`` of the Codex ``config.toml`` at ``path``: memdir's server (:func:`strip_server`) and, in
    the user's file, Codex's trust records of memdir's hooks in the ``hooks.json`` beside it and in the
    ``projects`` hooks.json files uninstalled with it (:func:`strip_trust`: Codex keeps them only there)."""
    return lambda doc, record=None: _untrusted(strip_server(doc, record), (path.parent / "hooks.json", *projects))


def _untrusted(doc, hooks_files):
    """``doc`` (the user's ``config.toml``) without Codex's trust records of memdir's hooks in ``hooks_files``."""
    for hooks in hooks_files:
        doc = strip_trust(doc, hooks)
    return doc


def _trust_edit(user_config: Path, projects: tuple[Path, ...]) -> edits.Edit:
    """The edit a project-scope uninstall makes to the user's ``config.toml``, which it never wrote: Codex's trust
    records of memdir's hooks in the ``projects`` hooks.json files out (newuser38: a project's uninstall left its
    ``[hooks.state."<project>/.codex/hooks.json:…"]`` tables there); another project's records, a user-scope
    install's entry and its manifest record stay (:attr:`edits.Edit.recorded` False)."""
    return edits.Edit(user_config, edits.TOML, None, lambda doc, record=None: _untrusted(doc, projects),
                      recorded=False)


def _keep(doc) -> dict:
    return {"mcp_servers_before": doc.get("mcp_servers") is not None}


def _edits(scope, user_home, project, home, python, portable, memdir_home) -> list[edits.Edit]:
    config, hooks = targets(scope, user_home, project)
    wrote = written(memdir_home, config)  # what memdir's last install wrote there: replaced, the rest kept
    # no --hooks: Codex runs a hook only once the person trusted it (.hooktrust), so its server keeps the whole
    # guidance — an untrusted SessionStart gives none
    argv = entries.server_argv(home, python, portable)
    limit = _limit(scope, config, targets("user", user_home)[0])[0]  # where this entry serves (.outputlimit)
    ceiling = entry_env(limit, portable)  # the hooks read the ceiling the server's entry states (its other env: not)
    wanted = {}
    for event, (matcher, timeout) in HOOK_EVENTS.items():
        group: dict = {"matcher": matcher} if matcher else {}
        command = entries.hook_command(CLIENT, event, home, python, portable, ceiling)
        group["hooks"] = [{"type": "command", "command": command, "timeout": timeout}]
        wanted[event] = group
    return [edit_for(config, lambda d: merge_server(d, argv, limit, named=portable, written=wrote)),
            edit_for(hooks, lambda d: entries.merge_groups(d, wanted, _ours))]


def edit_for(path: Path, add=None) -> edits.Edit:
    """The edit of one Codex file, by its name."""
    if path.suffix == ".toml":
        return edits.Edit(path, edits.TOML, add, _strip(path), _keep,
                          lambda d: entries.foreign_entry(d, "mcp_servers", SERVER_NAME), _wrote)
    return edits.Edit(path, edits.JSON, add, lambda d, record: entries.strip_groups(d, _ours))


def install(scope: str, memdir_home: Path, *, dry_run: bool = False, user_home: Path | None = None,
            project: Path | None = None, home: str | None = None, python: str | None = None,
            force: bool = False) -> edits.Plan:
    """Register memdir's server and hooks with Codex in ``scope``. Raises :class:`InstallError`."""
    portable = scope == "project"
    notes = [NOTE, approval_note()]
    if portable:
        edits.check_on_path("Codex")
        notes.append("Codex reads a project's .codex/ only in a trusted project (trust it when Codex asks)")
        notes += installs.unnamed_home("Codex", home)
        home = None
    changes = _edits(scope, user_home, project, home, python, portable, memdir_home)
    plan = edits.run_install(CLIENT, scope, memdir_home, changes,
                             dry_run=dry_run, notes=tuple(notes), force=force, home=home)
    recorded = {Path(name): record for name, record in edits.read_manifest(memdir_home, CLIENT).items()}
    twice = doubled(recorded, user_home, targets(scope, user_home, project)[1])
    return replace(plan, notes=(*plan.notes, *twice)) if twice else plan


def uninstall(scope: str | None, memdir_home: Path, *, dry_run: bool = False, user_home: Path | None = None,
              project: Path | None = None, home: str | None = None) -> edits.Plan:
    """Remove what :func:`install` added (every recorded scope when ``scope`` is None), and Codex's trust records of
    memdir's hooks in each hooks.json uninstalled (kept in the user's ``config.toml`` for a project's too).
    ``home``: the ``--home`` this home's commands name (None: the default home's): another home's entries are left."""
    paths = targets(scope or "user", user_home, project)
    user_config = targets("user", user_home)[0]
    if scope == "project":
        projects: tuple[Path, ...] = (paths[1],)
    elif scope is None:
        projects = tuple(Path(p) for p, r in edits.read_manifest(memdir_home, CLIENT).items()
                         if Path(p).name == "hooks.json" and isinstance(r, dict) and r.get("scope") == "project")
    else:
        projects = ()
    scoped = [edit_for(p) for p in paths]
    if scope is None:  # the user's config.toml is uninstalled too: one edit takes every record out
        scoped[0] = replace(scoped[0], remove=_strip(paths[0], projects))
    elif projects:
        scoped.append(_trust_edit(user_config, projects))
    return edits.run_uninstall(CLIENT, scope, memdir_home, scoped, edit_for, dry_run=dry_run, home=home)


__all__ = ["install", "uninstall", "targets", "merge_server", "strip_server", "strip_trust", "edit_for", "problems", "doubled", "unseen", "warnings",
           "HOOK_EVENTS", "CLIENT"]
