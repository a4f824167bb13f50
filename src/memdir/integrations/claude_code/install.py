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

import difflib
import hashlib
import json
import os
import re
import shlex
import shutil
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

from ...errors import InstallError, InvalidInput
from ...files.fsio import atomic_write, read_bytes, unlink

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
}
MANIFEST = ("integrations", "claude-code.json")
BACKUPS = ("integrations", "backups")


@dataclass(frozen=True)
class FileChange:
    """One file install/uninstall would change: bytes before (None: absent)
    and after (None: remove the file), and the unified diff."""

    path: Path
    before: bytes | None
    after: bytes | None
    diff: str
    backup: Path | None = None


@dataclass(frozen=True)
class Plan:
    """What one install/uninstall run does: the files it ``changes`` and those
    it leaves ``unchanged``; ``applied`` is False for a dry run. Its text is
    :func:`memdir.render.setup.install_plan`."""

    action: str
    scope: str
    changes: tuple[FileChange, ...] = ()
    unchanged: tuple[Path, ...] = ()
    applied: bool = False
    notes: tuple[str, ...] = ()

    def to_dict(self) -> dict:
        return {"action": self.action, "scope": self.scope, "applied": self.applied,
                "changed": [{"path": str(c.path), "backup": str(c.backup) if c.backup else None,
                             "created": c.before is None, "removed": c.after is None, "diff": c.diff}
                            for c in self.changes],
                "unchanged": [str(p) for p in self.unchanged], "notes": list(self.notes)}


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
    cmd = f"{PORTABLE_HOOK} {event}" if portable else f"{shlex.quote(python or sys.executable)} {HOOK_MARKER} {event}"
    return cmd + (f" --home {shlex.quote(str(home))}" if home else "")


def server_entry(home: str | None = None, python: str | None = None, portable: bool = False) -> dict:
    """The ``mcpServers.memdir`` value: a stdio server run by this interpreter
    (or, ``portable``, by ``memdir`` on PATH)."""
    home_args = ["--home", str(home)] if home else []
    if portable:
        return {"type": "stdio", "command": "memdir", "args": ["mcp", *home_args]}
    return {"type": "stdio", "command": python or sys.executable, "args": ["-m", "memdir.cli", "mcp", *home_args]}


def check_on_path(environ=None) -> str:
    """The ``memdir`` that project-scope commands will run, found on PATH.
    Raises :class:`InstallError` saying how to fix it when there is none."""
    found = shutil.which("memdir", path=(environ or os.environ).get("PATH"))
    if not found:
        raise InstallError("project scope writes `memdir …` commands (files a team commits name no machine "
                           "path), but `memdir` is not on PATH; install it where Claude Code can run it "
                           "(pipx install memdir, or activate its environment), or use --scope user")
    return found


# ---------------------------------------------------------------- JSON edits


def read_settings(path: Path) -> tuple[bytes | None, dict]:
    """The bytes of a Claude Code settings file (None when absent) and its JSON
    object (``{}`` for an absent or empty file). Raises :class:`InstallError`
    for an unreadable file or one that is not a JSON object: memdir never
    rewrites what it cannot read."""
    try:
        raw = read_bytes(path)
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None
    if raw is None or not raw.strip():
        return raw, {}
    try:
        data = json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, ValueError) as exc:
        raise InstallError(f"{path} is not valid JSON ({exc}); fix it by hand — memdir left it untouched") from None
    if not isinstance(data, dict):
        raise InstallError(f"{path} does not hold a JSON object; memdir left it untouched")
    return raw, data


def _indent(raw: bytes | None) -> int:
    match = re.search(rb"\n([ ]+)\S", raw or b"")
    return len(match.group(1)) if match else 2


def _dump(data: dict, raw: bytes | None) -> bytes:
    return (json.dumps(data, indent=_indent(raw), ensure_ascii=False) + "\n").encode("utf-8")


def is_memdir_hook(hook: dict) -> bool:
    """True for a hook entry whose command is one memdir installs (:data:`HOOK_MARKERS`)."""
    return isinstance(hook, dict) and any(marker in str(hook.get("command", "")) for marker in HOOK_MARKERS)


def _strip_hooks(settings: dict) -> dict:
    """``settings`` without memdir's hooks; groups and events left empty by
    that are dropped (only those memdir emptied)."""
    out = json.loads(json.dumps(settings))
    hooks = out.get("hooks")
    if not isinstance(hooks, dict):
        return out
    for event in list(hooks):
        groups = hooks[event]
        if not isinstance(groups, list):
            continue
        kept = []
        for group in groups:
            inner = group.get("hooks") if isinstance(group, dict) else None
            if isinstance(inner, list) and any(is_memdir_hook(h) for h in inner):
                rest = [h for h in inner if not is_memdir_hook(h)]
                if not rest:
                    continue
                group = {**group, "hooks": rest}
            kept.append(group)
        if kept:
            hooks[event] = kept
        elif groups:
            del hooks[event]
    if not hooks and "hooks" in settings and settings["hooks"]:
        del out["hooks"]
    return out


def merge_hooks(settings: dict, home: str | None = None, python: str | None = None, portable: bool = False) -> dict:
    """``settings`` with memdir's hook groups (older memdir entries replaced;
    ``settings`` itself, unchanged, when every group is already there)."""
    wanted = {}
    for event, (matcher, timeout) in HOOK_EVENTS.items():
        group: dict = {"matcher": matcher} if matcher else {}
        group["hooks"] = [{"type": "command", "command": hook_command(event, home, python, portable),
                           "timeout": timeout}]
        wanted[event] = group
    current = settings.get("hooks")
    if isinstance(current, dict) and all(
            isinstance(current.get(e), list) and g in current[e] for e, g in wanted.items()):
        ours = sum(1 for groups in current.values() if isinstance(groups, list) for grp in groups
                   if isinstance(grp, dict) and isinstance(grp.get("hooks"), list)
                   and any(is_memdir_hook(h) for h in grp["hooks"]))
        if ours == len(wanted):
            return settings
    out = _strip_hooks(settings)
    hooks = out.setdefault("hooks", {})
    if not isinstance(hooks, dict):
        raise InstallError('"hooks" in settings.json is not an object; memdir left it untouched')
    for event, group in wanted.items():
        existing = hooks.setdefault(event, [])
        if not isinstance(existing, list):
            raise InstallError(f'"hooks.{event}" in settings.json is not a list; memdir left it untouched')
        existing.append(group)
    return out


def merge_server(config: dict, home: str | None = None, python: str | None = None, portable: bool = False) -> dict:
    """``config`` with ``mcpServers.memdir`` set."""
    out = json.loads(json.dumps(config))
    servers = out.setdefault("mcpServers", {})
    if not isinstance(servers, dict):
        raise InstallError('"mcpServers" is not an object; memdir left the file untouched')
    servers[SERVER_NAME] = server_entry(home, python, portable)
    return out


def strip_server(config: dict) -> dict:
    """``config`` without ``mcpServers.memdir`` (and without ``mcpServers`` if that emptied it)."""
    out = json.loads(json.dumps(config))
    servers = out.get("mcpServers")
    if isinstance(servers, dict) and SERVER_NAME in servers:
        del servers[SERVER_NAME]
        if not servers:
            del out["mcpServers"]
    return out


# ---------------------------------------------------------------- plan and apply


def _diff(path: Path, before: bytes | None, after: bytes | None) -> str:
    a = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    return "".join(difflib.unified_diff(a, b, f"{path} (before)", f"{path} (after)"))


def _manifest_path(memdir_home: Path) -> Path:
    return Path(memdir_home).joinpath(*MANIFEST)


def _read_manifest(memdir_home: Path) -> dict:
    raw = read_bytes(_manifest_path(memdir_home))
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def plan_install(scope: str, *, user_home: Path | None = None, project: Path | None = None,
                 home: str | None = None, python: str | None = None) -> Plan:
    """Compute the install without writing. ``home`` is written into the
    commands when given (user scope only: project files name no machine
    path). Project scope checks that ``memdir`` is on PATH. Raises
    :class:`InstallError`."""
    settings_path, mcp_path = targets(scope, user_home, project)
    portable = scope == "project"
    notes = []
    if portable:
        check_on_path()
        if home:
            notes.append(f"the project's files name no home; this home ({home}) is not the default, so give "
                         "Claude Code MEMDIR_HOME in its environment, or install with --scope user")
            home = None
    changes, unchanged = [], []
    for path, merge in ((settings_path, lambda d: merge_hooks(d, home, python, portable)),
                        (mcp_path, lambda d: merge_server(d, home, python, portable))):
        raw, data = read_settings(path)
        merged = merge(data)
        if raw is not None and merged == data:
            unchanged.append(path)
            continue
        after = _dump(merged, raw)
        changes.append(FileChange(path, raw, after, _diff(path, raw, after)))
    return Plan("install", scope, tuple(changes), tuple(unchanged), notes=tuple(notes))


def _strip_for(path: Path):
    """How memdir's entries leave ``path``: hooks from a ``settings.json``, the server from an MCP file."""
    return _strip_hooks if path.name.startswith("settings") else strip_server


def plan_uninstall(scope: str | None, memdir_home: Path, *, user_home: Path | None = None,
                   project: Path | None = None) -> Plan:
    """Compute the uninstall without writing: the files of ``scope`` — or,
    with ``scope`` None, every file the manifest records (any scope) and the
    user-scope files. Raises :class:`InstallError`."""
    manifest = _read_manifest(memdir_home)
    if scope is None:
        paths = list(targets("user", user_home)) + [Path(p) for p in manifest]
    else:
        paths = list(targets(scope, user_home, project))
    changes, unchanged, seen = [], [], set()
    for path in paths:
        if path in seen:
            continue
        seen.add(path)
        raw, data = read_settings(path)
        if raw is None:
            if isinstance(manifest.get(str(path)), dict):  # deleted by hand: forget it, clear the dirs install made
                changes.append(FileChange(path, None, None, ""))
            continue
        stripped = _strip_for(path)(data)
        if stripped == data:
            unchanged.append(path)
            continue
        after = _dump(stripped, raw)
        record = manifest.get(str(path))
        if isinstance(record, dict):
            original = read_bytes(Path(record["backup"])) if record.get("backup") else None
            if record.get("backup") is None and stripped == {}:
                after = None  # install created the file; nothing of anyone else's is in it
            elif original is not None:
                try:
                    if json.loads(original.decode("utf-8-sig") or "{}") == stripped:
                        after = original  # byte-identical to before install
                except (UnicodeDecodeError, ValueError):
                    pass
        changes.append(FileChange(path, raw, after, _diff(path, raw, after)))
    return Plan("uninstall", scope or "every recorded", tuple(changes), tuple(unchanged))


def _backup(memdir_home: Path, path: Path, data: bytes) -> Path:
    """A copy of ``data`` (``path``'s bytes) under ``$MEMDIR_HOME/integrations/backups/``."""
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    folder = Path(memdir_home).joinpath(*BACKUPS)
    folder.mkdir(mode=0o700, parents=True, exist_ok=True)
    label = re.sub(r"[^A-Za-z0-9._-]+", "_", str(path)).strip("_")[-150:]
    target = folder / f"{label}.{stamp}"
    n = 1
    while target.exists():
        n += 1
        target = folder / f"{label}.{stamp}-{n}"
    atomic_write(target, data)
    return target


def _missing_dirs(path: Path) -> list[str]:
    """The parent directories of ``path`` that do not exist yet, deepest first."""
    out = []
    parent = path.parent
    while not parent.exists():
        out.append(str(parent))
        parent = parent.parent
    return out


def apply(plan: Plan, memdir_home: Path) -> Plan:
    """Write ``plan``: back up each file that existed (into the memdir home),
    write atomically (keeping each file's mode), remove created files and
    directories on uninstall, and update the install manifest. Returns the
    plan with backups filled in."""
    manifest = _read_manifest(memdir_home)
    done = []
    for change in plan.changes:
        path = change.path
        record = manifest.get(str(path)) if isinstance(manifest.get(str(path)), dict) else {}
        restoring = plan.action == "uninstall" and (
            change.after is None or (record.get("backup") and change.after == read_bytes(Path(record["backup"]))))
        # Back up what existed, unless uninstall is putting back the very bytes install found.
        backup = _backup(memdir_home, path, change.before) if change.before is not None and not restoring else None
        mode = None
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            pass
        created_dirs = _missing_dirs(path) if change.before is None else []
        # A settings file kept as a symlink (dotfiles) is written through, so the link stays.
        target = path.resolve() if path.is_symlink() else path
        if change.after is None:
            unlink(path)
            for folder in record.get("created_dirs", []):  # only what install made, only if empty now
                try:
                    os.rmdir(folder)
                except OSError:
                    break
        else:
            target.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(target, change.after)
            if mode is not None:
                os.chmod(path, mode)
        if plan.action == "install":
            first = record  # a re-install keeps the pre-memdir original
            manifest[str(path)] = {
                "scope": plan.scope,
                "backup": first["backup"] if "backup" in first else (str(backup) if backup else None),
                "created_dirs": first.get("created_dirs", created_dirs),
                "installed_sha256": hashlib.sha256(change.after or b"").hexdigest()}
        else:
            manifest.pop(str(path), None)
        done.append(FileChange(path, change.before, change.after, change.diff, backup))
    if done:
        mpath = _manifest_path(memdir_home)
        mpath.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(mpath, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return replace(plan, changes=tuple(done), applied=True)


def install(scope: str, memdir_home: Path, *, dry_run: bool = False, **where) -> Plan:
    """Plan and (unless ``dry_run``) apply an install. See :func:`plan_install`."""
    plan = plan_install(scope, **where)
    return plan if dry_run else apply(plan, memdir_home)


def uninstall(scope: str | None, memdir_home: Path, *, dry_run: bool = False, **where) -> Plan:
    """Plan and (unless ``dry_run``) apply an uninstall. See :func:`plan_uninstall`."""
    plan = plan_uninstall(scope, memdir_home, **where)
    return plan if dry_run else apply(plan, memdir_home)


__all__ = ["InstallError", "FileChange", "Plan", "targets", "hook_command", "server_entry", "merge_hooks",
           "merge_server", "strip_server", "plan_install", "plan_uninstall", "apply", "install", "uninstall",
           "HOOK_EVENTS", "SERVER_NAME", "check_on_path"]
