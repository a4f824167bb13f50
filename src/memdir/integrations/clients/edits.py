"""Editing a client's settings files: the one rule of ``memdir install`` and
``memdir uninstall`` for every client (Claude Code, Codex, Gemini CLI, Cursor,
OpenCode).

A client's installer says *what* memdir adds to which file — an
:class:`Edit`: the file, its :class:`Format` (JSON, TOML, or a text file with
a marked block), how memdir's entries are added and how they are removed.
This module says *how* that is written and undone:

* Every key, hook, server and line that is not memdir's is kept; memdir's are
  recognized by what they are (a command, a server name, a marked block), so
  installing twice changes nothing the second time and a newer install
  replaces an older memdir entry instead of adding one.
* A file that existed is first copied to ``$MEMDIR_HOME/integrations/backups/``
  (never next to it: a project's files live in a repository), then written
  atomically, keeping its mode and writing through a symlink; a unified diff is
  returned for printing. A file that cannot be read or parsed is left untouched
  and the whole run stops with :class:`InstallError` before anything is written.
* Uninstall removes exactly what install added. Install records in
  ``$MEMDIR_HOME/integrations/<client>.json`` every file it touched (scope, the
  backup of what it held, the directories it created, what an edit needs to
  undo a changed value); uninstall without a scope finds every recorded
  install. When removing memdir's entries leaves the same data as before
  install, the original bytes are put back, or — when install created the
  file — the file and the directories install created are removed, so install
  followed by uninstall leaves the disk as it was.
"""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
import shutil
import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Callable

from ...errors import InstallError
from ...files.fsio import atomic_write, read_bytes, unlink

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
    record: dict = field(default_factory=dict, compare=False)  # what the edit keeps in the manifest


@dataclass(frozen=True)
class Plan:
    """What one install/uninstall run does for one ``client``: the files it
    ``changes`` and those it leaves ``unchanged``; ``applied`` is False for a
    dry run. Its text is :func:`memdir.render.setup.install_plan`."""

    action: str
    scope: str
    changes: tuple[FileChange, ...] = ()
    unchanged: tuple[Path, ...] = ()
    applied: bool = False
    notes: tuple[str, ...] = ()
    client: str = "claude-code"

    def to_dict(self) -> dict:
        return {"client": self.client, "action": self.action, "scope": self.scope, "applied": self.applied,
                "changed": [{"path": str(c.path), "backup": str(c.backup) if c.backup else None,
                             "created": c.before is None, "removed": c.after is None, "diff": c.diff}
                            for c in self.changes],
                "unchanged": [str(p) for p in self.unchanged], "notes": list(self.notes)}


# ---------------------------------------------------------------- formats


class Format:
    """How one kind of settings file is read, compared and written. ``load``
    returns the parsed data (an empty value for an absent or blank file) and
    raises :class:`InstallError` for what it cannot parse."""

    name = "format"

    def load(self, raw: bytes | None, path: Path):
        raise NotImplementedError

    def dump(self, data, raw: bytes | None) -> bytes:
        raise NotImplementedError

    def plain(self, data):
        """A comparable plain value of ``data``."""
        return data

    def empty(self, data) -> bool:
        return not self.plain(data)


class JsonFormat(Format):
    """A JSON object (Claude Code, Gemini CLI, Cursor, OpenCode settings).
    Written with the file's own indentation (2 by default), UTF-8, a final newline."""

    name = "JSON"

    def load(self, raw, path):
        if raw is None or not raw.strip():
            return {}
        try:
            data = json.loads(raw.decode("utf-8-sig"))
        except (UnicodeDecodeError, ValueError) as exc:
            lenient = jsonc_data(raw)
            if isinstance(lenient, dict):
                raise JsoncFile(path, lenient) from None
            raise InstallError(f"{path} is not valid JSON ({exc}); fix it by hand — memdir left it untouched") \
                from None
        if not isinstance(data, dict):
            raise InstallError(f"{path} does not hold a JSON object; memdir left it untouched")
        return data

    def dump(self, data, raw):
        match = re.search(rb"\n([ ]+)\S", raw or b"")
        indent = len(match.group(1)) if match else 2
        return (json.dumps(data, indent=indent, ensure_ascii=False) + "\n").encode("utf-8")


_STRING = r'"(?:\\.|[^"\\\n])*"'
_COMMENTS = re.compile(_STRING + r"|//[^\n]*|/\*.*?\*/", re.S)
_TRAILING = re.compile(_STRING + r"|,(?=\s*[}\]])")


def jsonc_data(raw: bytes):
    """The value of ``raw`` read as JSONC (JSON with ``//`` and ``/* */`` comments and trailing commas, which
    OpenCode and VS Code accept), or None when it does not read even so. Strings are left as they are."""
    try:
        text = raw.decode("utf-8-sig")
        text = _COMMENTS.sub(lambda m: m.group(0) if m.group(0).startswith('"') else " ", text)
        return json.loads(_TRAILING.sub(lambda m: m.group(0) if m.group(0).startswith('"') else "", text))
    except (UnicodeDecodeError, ValueError):
        return None


class JsoncFile(InstallError):
    """A settings file that is JSONC (comments, trailing commas), not JSON: memdir does not rewrite it, as a
    rewrite would drop the person's comments and uninstall could not give back exactly their text; the
    person makes the change by hand (:func:`by_hand` says which). ``data``: its value, read leniently."""

    def __init__(self, path: Path, data: dict):
        super().__init__(f"{path} holds comments or trailing commas (JSONC)")
        self.path, self.data = path, data


def by_hand(exc: JsoncFile, changed, verb: str) -> InstallError:
    """The refusal to edit the JSONC file of ``exc``, with the change to make by hand: ``changed`` (its data
    after memdir's edit) shown as a diff of the settings as plain JSON."""
    before = json.dumps(exc.data, indent=2, ensure_ascii=False).splitlines(keepends=True)
    after = json.dumps(changed, indent=2, ensure_ascii=False).splitlines(keepends=True)
    lines = "".join(difflib.unified_diff(before, after, "now", "with memdir", n=1))
    return InstallError(f"{exc} — which OpenCode accepts, but memdir edits only plain JSON, so that uninstall "
                        f"gives back exactly your text and no comment is lost; memdir left it untouched. "
                        f"{verb} by hand (keeping your comments):\n{lines}")


class TomlFormat(Format):
    """A TOML document (Codex's ``config.toml``), edited with tomlkit so every
    comment, order and spelling of the rest of the file stays as written."""

    name = "TOML"

    def load(self, raw, path):
        import tomlkit
        from tomlkit.exceptions import TOMLKitError

        try:
            return tomlkit.parse((raw or b"").decode("utf-8-sig"))
        except (UnicodeDecodeError, TOMLKitError) as exc:
            raise InstallError(f"{path} is not valid TOML ({exc}); fix it by hand — memdir left it untouched") \
                from None

    def dump(self, data, raw):
        import tomlkit

        return tomlkit.dumps(data).encode("utf-8")

    def plain(self, data):
        return data.unwrap()


class TextFormat(Format):
    """A text file (an instructions file) where memdir owns one block between
    :data:`BLOCK_BEGIN` and :data:`BLOCK_END` lines; the data is the text."""

    name = "text"

    def load(self, raw, path):
        try:
            return (raw or b"").decode("utf-8-sig")
        except UnicodeDecodeError:
            raise InstallError(f"{path} is not UTF-8 text; memdir left it untouched") from None

    def dump(self, data, raw):
        return data.encode("utf-8")

    def empty(self, data) -> bool:
        return not data.strip()


JSON, TOML, TEXT = JsonFormat(), TomlFormat(), TextFormat()
BLOCK_BEGIN = "<!-- memdir:begin (memdir install wrote this block; memdir uninstall removes it) -->"
BLOCK_END = "<!-- memdir:end -->"


def strip_block(text: str) -> str:
    """``text`` without memdir's marked block (and the blank line install put before it)."""
    pattern = re.compile(r"(\n?\n)?" + re.escape(BLOCK_BEGIN) + r".*?" + re.escape(BLOCK_END) + r"\n?", re.S)
    return pattern.sub("", text, count=1)


def with_block(text: str, body: str) -> str:
    """``text`` with memdir's block holding ``body`` (replacing an older one), at the end."""
    rest = strip_block(text)
    block = f"{BLOCK_BEGIN}\n{body.rstrip()}\n{BLOCK_END}\n"
    return block if not rest.strip() else rest.rstrip("\n") + "\n\n" + block


def copy_of(data):
    """A deep copy of parsed data of any :class:`Format` (tomlkit documents included)."""
    if isinstance(data, str):
        return data
    if isinstance(data, dict) and type(data) is dict:
        return json.loads(json.dumps(data))
    import tomlkit

    return tomlkit.parse(tomlkit.dumps(data))


@dataclass(frozen=True)
class Edit:
    """What memdir adds to one file: ``add(data) -> data`` (a new value, or
    ``data`` itself when everything is there) and ``remove(data, record) ->
    data`` (memdir's entries gone; ``record`` is this file's manifest entry,
    with what ``keep(before_data)`` stored at install)."""

    path: Path
    fmt: Format
    add: Callable
    remove: Callable
    keep: Callable | None = None  # before-data -> dict merged into the manifest record at install


# ---------------------------------------------------------------- plan


def read(path: Path, fmt: Format):
    """``(bytes or None, parsed data)`` of ``path``. Raises :class:`InstallError`."""
    try:
        raw = read_bytes(path)
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None
    return raw, fmt.load(raw, path)


def diff(path: Path, before: bytes | None, after: bytes | None) -> str:
    """A unified diff of two versions of ``path`` (``None``: absent)."""
    a = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    return "".join(difflib.unified_diff(a, b, f"{path} (before)", f"{path} (after)"))


def manifest_path(memdir_home: Path, client: str) -> Path:
    """``$MEMDIR_HOME/integrations/<client>.json``: what install recorded for ``client``."""
    return Path(memdir_home) / "integrations" / f"{client}.json"


def read_manifest(memdir_home: Path, client: str) -> dict:
    """The install records of ``client`` by path (``{}`` when none or unreadable)."""
    raw = read_bytes(manifest_path(memdir_home, client))
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    return data if isinstance(data, dict) else {}


def plan_install(client: str, scope: str, edits: list[Edit], notes: tuple[str, ...] = ()) -> Plan:
    """Compute an install of ``edits`` without writing. Raises :class:`InstallError`."""
    changes, unchanged = [], []
    for edit in edits:
        try:
            raw, data = read(edit.path, edit.fmt)
        except JsoncFile as exc:
            raise by_hand(exc, edit.add(copy_of(exc.data)), "Add memdir's entries") from None
        merged = edit.add(copy_of(data))
        if raw is not None and edit.fmt.plain(merged) == edit.fmt.plain(data):
            unchanged.append(edit.path)
            continue
        after = edit.fmt.dump(merged, raw)
        record = edit.keep(data) if edit.keep else {}
        changes.append(FileChange(edit.path, raw, after, diff(edit.path, raw, after), record=record))
    return Plan("install", scope, tuple(changes), tuple(unchanged), notes=tuple(notes), client=client)


def plan_uninstall(client: str, scope: str | None, edits: list[Edit], memdir_home: Path) -> Plan:
    """Compute the uninstall of ``edits`` (one per file; a later one for the
    same path is ignored) without writing. Raises :class:`InstallError`."""
    manifest = read_manifest(memdir_home, client)
    changes, unchanged, seen = [], [], set()
    for edit in edits:
        path = edit.path
        if path in seen:
            continue
        seen.add(path)
        record = manifest.get(str(path)) if isinstance(manifest.get(str(path)), dict) else None
        try:
            raw, data = read(path, edit.fmt)
        except JsoncFile as exc:
            stripped = edit.remove(copy_of(exc.data), record or {})
            if stripped == exc.data:  # nothing of memdir's in it
                unchanged.append(path)
                continue
            raise by_hand(exc, stripped, "Remove memdir's entries") from None
        if raw is None:
            if record is not None:  # deleted by hand: forget it, clear the dirs install made
                changes.append(FileChange(path, None, None, ""))
            continue
        stripped = edit.remove(copy_of(data), record or {})
        if edit.fmt.plain(stripped) == edit.fmt.plain(data):
            unchanged.append(path)
            continue
        after = edit.fmt.dump(stripped, raw)
        if record is not None:
            original = read_bytes(Path(record["backup"])) if record.get("backup") else None
            if record.get("backup") is None and edit.fmt.empty(stripped):
                after = None  # install created the file; nothing of anyone else's is in it
            elif original is not None:
                try:
                    if edit.fmt.plain(edit.fmt.load(original, path)) == edit.fmt.plain(stripped):
                        after = original  # byte-identical to before install
                except InstallError:
                    pass
        changes.append(FileChange(path, raw, after, diff(path, raw, after)))
    return Plan("uninstall", scope or "every recorded", tuple(changes), tuple(unchanged), client=client)


# ---------------------------------------------------------------- apply


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
    directories on uninstall, and update ``plan.client``'s install manifest.
    Returns the plan with backups filled in."""
    manifest = read_manifest(memdir_home, plan.client)
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
            first = record  # a re-install keeps the pre-memdir original and what the edit kept then
            manifest[str(path)] = {
                **change.record, **{k: v for k, v in first.items() if k not in ("scope", "installed_sha256")},
                "scope": plan.scope,
                "backup": first["backup"] if "backup" in first else (str(backup) if backup else None),
                "created_dirs": first.get("created_dirs", created_dirs),
                "installed_sha256": hashlib.sha256(change.after or b"").hexdigest()}
        else:
            manifest.pop(str(path), None)
        done.append(replace(change, backup=backup))
    if done:
        mpath = manifest_path(memdir_home, plan.client)
        mpath.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(mpath, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return replace(plan, changes=tuple(done), applied=True)


# ---------------------------------------------------------------- what clients share


def hook_command(client: str, event: str, home: str | None = None, python: str | None = None,
                 portable: bool = False) -> str:
    """The shell command a client runs for its hook ``event``: this interpreter
    by its absolute path (``-m memdir.hooks CLIENT EVENT``: works whatever PATH
    the client has), or with ``portable`` ``memdir hook CLIENT EVENT`` on PATH."""
    import shlex
    import sys

    cmd = (f"memdir hook {client} {event}" if portable
           else f"{shlex.quote(python or sys.executable)} -m memdir.hooks {client} {event}")
    return cmd + (f" --home {shlex.quote(str(home))}" if home else "")


def is_hook_of(client: str, command) -> bool:
    """True for a hook command memdir installs for ``client`` (either form of :func:`hook_command`)."""
    text = str(command or "")
    return f"-m memdir.hooks {client} " in text + " " or f"memdir hook {client} " in text + " "


def server_argv(home: str | None = None, python: str | None = None, portable: bool = False) -> list[str]:
    """The MCP server's command line: this interpreter's ``-m memdir.cli mcp``,
    or with ``portable`` ``memdir mcp`` on PATH; ``--home`` when given."""
    import sys

    base = ["memdir", "mcp"] if portable else [python or sys.executable, "-m", "memdir.cli", "mcp"]
    return base + (["--home", str(home)] if home else [])


def merge_groups(settings: dict, wanted: dict[str, dict], ours, key: str = "hooks") -> dict:
    """``settings`` with one memdir hook group per event of ``wanted`` under
    ``settings[key]`` (Claude Code's shape: event → list of ``{"matcher"?,
    "hooks": [...]}``; older memdir groups replaced; ``settings`` itself when
    every group is already there). ``ours(hook)`` tells memdir's hooks.
    Raises :class:`InstallError` for a ``hooks`` value of another shape."""
    current = settings.get(key)
    if isinstance(current, dict) and all(isinstance(current.get(e), list) and g in current[e]
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


def drop_entry(settings: dict, key: str, name: str) -> dict:
    """``settings`` without ``settings[key][name]`` (and without ``key`` if that emptied it)."""
    out = json.loads(json.dumps(settings))
    table = out.get(key)
    if isinstance(table, dict) and name in table:
        del table[name]
        if not table:
            del out[key]
    return out


def run_install(client: str, scope: str, memdir_home: Path, edits: list[Edit], *, dry_run: bool = False,
                notes: tuple[str, ...] = ()) -> Plan:
    """Plan and (unless ``dry_run``) apply an install of ``edits``."""
    plan = plan_install(client, scope, edits, notes)
    return plan if dry_run else apply(plan, memdir_home)


def run_uninstall(client: str, scope: str | None, memdir_home: Path, scoped: list[Edit], edit_for, *,
                  dry_run: bool = False) -> Plan:
    """Plan and (unless ``dry_run``) apply an uninstall: ``scoped`` (the files of
    the scope asked, or the user scope's) and, with ``scope`` None, ``edit_for(path)``
    of every other file the manifest records."""
    edits = list(scoped)
    if scope is None:
        edits += [edit_for(Path(p)) for p in read_manifest(memdir_home, client)]
    plan = plan_uninstall(client, scope, edits, memdir_home)
    return plan if dry_run else apply(plan, memdir_home)


def problems(memdir_home: Path, clients) -> list[str]:
    """What ``memdir doctor`` says of each client's recorded install: a file
    install wrote that is gone, or that no longer holds memdir's entries."""
    out = []
    for client in clients:
        for path in read_manifest(memdir_home, client):
            raw = read_bytes(Path(path))
            if raw is None:
                out.append(f"{client}: {path} that memdir install wrote is gone; run `memdir install {client}` again "
                           f"or `memdir uninstall {client}`")
            elif b"memdir" not in raw:
                out.append(f"{client}: {path} no longer holds memdir's entries; run `memdir install {client}` again")
    return out


def check_on_path(client: str, environ=None) -> str:
    """The ``memdir`` that project-scope commands will run, found on PATH.
    Raises :class:`InstallError` saying how to fix it when there is none."""
    found = shutil.which("memdir", path=(environ or os.environ).get("PATH"))
    if not found:
        raise InstallError(f"project scope writes `memdir …` commands (files a team commits name no machine "
                           f"path), but `memdir` is not on PATH; install it where {client} can run it "
                           "(pipx install memdir, or activate its environment), or use --scope user")
    return found


__all__ = ["FileChange", "Plan", "Format", "JSON", "TOML", "TEXT", "Edit", "BLOCK_BEGIN", "BLOCK_END",
           "strip_block", "with_block", "copy_of", "read", "diff", "manifest_path", "read_manifest",
           "plan_install", "plan_uninstall", "apply", "check_on_path", "hook_command", "is_hook_of", "server_argv",
           "merge_groups", "strip_groups", "set_entry", "drop_entry", "run_install", "run_uninstall", "problems"]
