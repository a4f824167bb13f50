"""memdir's entries in a client's settings: the hook command and the MCP server entry every installer writes,
how memdir's own are recognized (a command, a server's argv, never a person's), merged beside a person's
hooks and servers, and taken out again, leaving what memdir emptied and nothing else (Claude Code's hook
groups, Cursor's flat hooks, an ``mcpServers``/``mcp_servers``/``mcp`` table).

Split from :mod:`memdir.integrations.clients.edits` (how a settings file is written and undone) along the seam
of content: these functions take and return a settings document, and touch no file.
"""

from __future__ import annotations

import json
import shlex
from pathlib import Path

from ...errors import InstallError


def hook_command(client: str, event: str, home: str | None = None, python: str | None = None,
                 portable: bool = False, env: dict | None = None) -> str:
    """The shell command a client runs for its hook ``event``: this interpreter
    by its absolute path (``-m memdir.hooks CLIENT EVENT``: works whatever PATH
    the client has), or with ``portable`` ``memdir hook CLIENT EVENT`` on PATH;
    ``env`` (name -> value: what the client's entry of memdir's server states, such as Codex's
    ``MEMDIR_TOOL_OUTPUT_CEILING``) set before it (``NAME=value …``), so the hook reads the settings the server does."""
    import shlex
    import sys

    cmd = (f"memdir hook {client} {event}" if portable
           else f"{shlex.quote(python or sys.executable)} -m memdir.hooks {client} {event}")
    prefix = "".join(f"{name}={shlex.quote(str(value))} " for name, value in sorted((env or {}).items()))
    return prefix + cmd + (f" --home {shlex.quote(str(home))}" if home else "")


def is_hook_of(client: str, command) -> bool:
    """True for a hook command memdir installs for ``client`` (either form of :func:`hook_command`)."""
    text = str(command or "")
    return f"-m memdir.hooks {client} " in text + " " or f"memdir hook {client} " in text + " "


def server_argv(home: str | None = None, python: str | None = None, portable: bool = False,
                hooks: bool = False) -> list[str]:
    """The MCP server's command line: this interpreter's ``-m memdir.cli mcp``,
    or with ``portable`` ``memdir mcp`` on PATH; ``--home`` when given; ``--hooks`` when the same install
    gives the client memdir's session-start hook (the server's instructions then leave the guidance to it)."""
    import sys

    base = ["memdir", "mcp"] if portable else [python or sys.executable, "-m", "memdir.cli", "mcp"]
    return base + (["--home", str(home)] if home else []) + (["--hooks"] if hooks else [])


def home_written(memdir_home) -> str | None:
    """The ``--home`` memdir's user-scope commands name for ``memdir_home`` (a path): None for the default home
    (:func:`memdir.paths.resolve_home` given no ``--home`` and no environment: the platform data dir), whose
    commands name none; else ``memdir_home`` as a string, so the client's hooks and server find that home without
    MEMDIR_HOME. The one rule of ``memdir install``'s ``home``, doctor's and :mod:`drift`'s."""
    from ...paths import resolve_home

    return None if Path(memdir_home) == resolve_home(None, {}) else str(memdir_home)


def entry_homes(data) -> list[str | None]:
    """The memdir home each of memdir's user-scope commands in the settings document ``data`` (parsed JSON or
    TOML; a text file's ``str`` holds none) runs, in document order: for a command of the user-scope shape (an
    interpreter by its path running ``-m memdir.hooks`` or ``-m memdir.cli``: a hook's command string, a server's
    ``args`` or ``command`` list) the path after its ``--home``, or None when it names none — the default home's
    (:func:`home_written`: a user-scope install names every other home). A portable command (``memdir hook …``,
    ``memdir mcp``: project scope, which never names a home) is left out: whose it is cannot be told."""
    plain = json.loads(json.dumps(data, default=str)) if not isinstance(data, str) else None
    return [home for argv in _argvs(plain) if (home := _home_of(argv)) is not _PORTABLE]


_PORTABLE = object()  # :func:`_home_of`'s answer for an argv that is not a user-scope memdir command


def _argvs(value):
    """Every command line in a plain JSON value that may be memdir's: each string (split as a shell would),
    each list of strings."""
    if isinstance(value, str):
        if "memdir" in value:
            try:
                yield shlex.split(value)
            except ValueError:  # an unbalanced quote: not a command memdir wrote
                return
    elif isinstance(value, list) and value and all(isinstance(v, str) for v in value):
        yield value
    elif isinstance(value, list):
        for item in value:
            yield from _argvs(item)
    elif isinstance(value, dict):
        for item in value.values():
            yield from _argvs(item)


def _home_of(argv: list[str]):
    """The home ``argv`` names after ``--home`` (None: none) when it is a user-scope memdir command (``-m
    memdir.hooks`` or ``-m memdir.cli`` in it), else :data:`_PORTABLE`."""
    if not any(argv[i] == "-m" and argv[i + 1] in ("memdir.hooks", "memdir.cli") for i in range(len(argv) - 1)):
        return _PORTABLE
    at = [i for i, arg in enumerate(argv[:-1]) if arg == "--home"]
    return argv[at[-1] + 1] if at else None


def merge_groups(settings: dict, wanted: dict[str, dict], ours, key: str = "hooks") -> dict:
    """``settings`` with one memdir hook group per event of ``wanted`` under
    ``settings[key]`` (Claude Code's shape: event → list of ``{"matcher"?,
    "hooks": [...]}``; older memdir groups replaced; ``settings`` itself when
    every group is already there, a person's own hooks added beside memdir's in it
    too). ``ours(hook)`` tells memdir's hooks.
    Raises :class:`InstallError` for a ``hooks`` value of another shape."""
    current = settings.get(key)
    if isinstance(current, dict) and all(isinstance(current.get(e), list)
                                         and any(_holds(grp, g, ours) for grp in current[e])
                                         for e, g in wanted.items()):
        mine = sum(1 for groups in current.values() if isinstance(groups, list) for grp in groups
                   if isinstance(grp, dict) and isinstance(grp.get("hooks"), list)
                   and any(ours(h) for h in grp["hooks"]))
        if mine == len(wanted):
            return settings
    out = strip_groups(settings, ours, key)
    hooks = out.setdefault(key, {})
    if not isinstance(hooks, dict):
        raise InstallError(f'"{key}" in the settings is not an object; memdir left it untouched')
    for event, group in wanted.items():
        existing = hooks.setdefault(event, [])
        if not isinstance(existing, list):
            raise InstallError(f'"{key}.{event}" in the settings is not a list; memdir left it untouched')
        existing.append(group)
    return out


def _holds(group, wanted: dict, ours) -> bool:
    """True when ``group`` is memdir's ``wanted`` group, a person's own hooks beside memdir's allowed: the
    same keys (the matcher) and memdir's hooks in it exactly ``wanted``'s (trial28: a hook a person added to
    memdir's group made every later install split the group and move the events, and doctor call the
    install an older memdir's)."""
    if not isinstance(group, dict) or not isinstance(group.get("hooks"), list):
        return False
    if {k: v for k, v in group.items() if k != "hooks"} != {k: v for k, v in wanted.items() if k != "hooks"}:
        return False
    return [h for h in group["hooks"] if ours(h)] == wanted["hooks"]


def strip_groups(settings: dict, ours, key: str = "hooks") -> dict:
    """``settings`` without memdir's hooks under ``settings[key]``; groups,
    events and the key left empty by that are dropped (only those memdir emptied).
    A flat entry (Cursor: ``{"command": …}`` in the event's list) is one hook."""
    out = json.loads(json.dumps(settings))
    hooks = out.get(key)
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(ours(h) for h in inner):
                rest = [h for h in inner if not ours(h)]
                if not rest:
                    continue
                group = {**group, "hooks": rest}
            elif inner is None and ours(group):
                continue
            kept.append(group)
        if kept:
            hooks[event] = kept
        elif groups:
            del hooks[event]
    if not hooks and key in settings and settings[key]:
        del out[key]
    return out


def set_entry(settings: dict, key: str, name: str, value) -> dict:
    """``settings`` with ``settings[key][name] = value`` (an MCP server). Raises :class:`InstallError`."""
    out = json.loads(json.dumps(settings))
    table = out.setdefault(key, {})
    if not isinstance(table, dict):
        raise InstallError(f'"{key}" is not an object; memdir left the file untouched')
    table[name] = value
    return out


def drop_entry(settings: dict, key: str, name: str, record: dict | None = None) -> dict:
    """``settings`` without ``settings[key][name]`` (and without ``key`` if that
    emptied it), or with the person's own value put back when ``record`` holds
    the ``previous`` one that a forced install replaced."""
    out = json.loads(json.dumps(settings))
    table = out.get(key)
    if isinstance(table, dict) and name in table:
        if (record or {}).get("previous") is not None and is_our_server(table[name]):
            table[name] = record["previous"]
            return out
        del table[name]
        if not table:
            del out[key]
    return out


def is_our_server(value) -> bool:
    """True for an MCP server entry memdir writes (:func:`server_argv`, as
    ``command`` + ``args`` or one ``command`` list)."""
    if not isinstance(value, dict):
        return False
    command = value.get("command")
    argv = (command if isinstance(command, list) else [command]) + (
        value.get("args") if isinstance(value.get("args"), list) else [])
    text = " ".join(str(a) for a in argv)
    return " -m memdir.cli mcp" in text or text == "memdir mcp" or text.startswith("memdir mcp ")


def foreign_entry(settings, key: str, name: str):
    """The person's own ``settings[key][name]`` (not one memdir writes), or None."""
    table = settings.get(key) if hasattr(settings, "get") else None
    value = table.get(name) if hasattr(table, "get") else None
    if value is None:
        return None
    value = value.unwrap() if hasattr(value, "unwrap") else value
    return None if is_our_server(value) else value


__all__ = ["drop_entry", "entry_homes", "foreign_entry", "home_written", "hook_command", "is_hook_of", "is_our_server",
           "merge_groups", "server_argv",
           "set_entry", "strip_groups"]
