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
  install (containers install filled and emptying left out), the original
  bytes are put back, or — when install created the file — the file and,
  once every file in them is gone, the directories install created are
  removed, so install followed by uninstall leaves the disk as it was. A text
  block a person edited (inside it, or a marker gone) is never removed or
  rolled back: the file stays as it is and the plan's notes say so.

What memdir's entries are in a client's settings (its hook command and MCP server entry, how they are
recognized, merged beside a person's own and taken out) is :mod:`memdir.integrations.clients.entries`.
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
from ...operations.installed import installed, manifest_path, read_manifest

BACKUPS = ("integrations", "backups")


@dataclass(frozen=True)
class FileChange:
    """One file install/uninstall would change: bytes before (None: absent)
    and after (None: remove the file), and the unified diff. ``restored``: an uninstall
    puts back the very bytes install found (else it takes memdir's entries out and keeps the rest)."""

    path: Path
    before: bytes | None
    after: bytes | None
    diff: str
    backup: Path | None = None
    record: dict = field(default_factory=dict, compare=False)  # what the edit keeps in the manifest
    fresh: dict = field(default_factory=dict, compare=False)  # what the manifest takes anew at each install
    restored: bool = False
    recorded: bool = True  # a file install recorded: uninstall drops its manifest record (False: see Edit.recorded)


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
                             "created": c.before is None, "removed": c.after is None, "restored": c.restored,
                             "diff": c.diff}
                            for c in self.changes],
                "unchanged": [str(p) for p in self.unchanged], "notes": list(self.notes)}


from .formats import (BLOCK_BEGIN, BLOCK_END, JSON, TEXT, TOML, Format, JsonFormat, JsoncFile, TextFormat,  # noqa: F401
                      TomlFormat, UnmatchedBlock, by_hand, copy_of, jsonc_data, strip_block, with_block)


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
    # before-data -> the person's own entry under memdir's name that ``add`` would replace (None: none)
    foreign: Callable | None = None
    # after-data -> dict the manifest record takes at every install, replacing the last install's (what memdir wrote)
    wrote: Callable | None = None
    # False: a file install never wrote, from which uninstall only takes traces of memdir's files out (Codex's trust
    # records of a project's hooks, kept in the user's config.toml): its manifest record, if the file is one another
    # scope's install wrote, neither guides nor is dropped by this uninstall
    recorded: bool = True


# ---------------------------------------------------------------- plan


def read(path: Path, fmt: Format):
    """``(bytes or None, parsed data)`` of ``path``. Raises :class:`InstallError`
    (a symlink to nothing too: memdir never creates a file at a link's target)."""
    if path.is_symlink() and not path.exists():
        raise InstallError(f"{path} is a symlink to {os.readlink(path)}, which does not exist; memdir left it "
                           "untouched — create that file or remove the link, then install again")
    try:
        raw = read_bytes(path)
    except OSError as exc:
        raise InstallError(f"cannot read {path}: {exc}") from None
    return raw, fmt.load(raw, path)


def hooked(path: Path, client: str) -> bool:
    """Whether the hooks file at ``path`` (a JSON object whose ``hooks`` map each event to groups holding a
    ``hooks`` list: Codex's hooks.json, Gemini CLI's settings.json) holds one of ``client``'s memdir hooks
    (:func:`memdir.integrations.clients.entries.is_hook_of`); a file that cannot be read holds none."""
    from . import entries

    try:
        data = read(path, JSON)[1]
    except InstallError:
        return False
    hooks = data.get("hooks") if isinstance(data, dict) else None
    groups = [g for v in hooks.values() if isinstance(v, list) for g in v] if isinstance(hooks, dict) else []
    return any(isinstance(h, dict) and entries.is_hook_of(client, h.get("command"))
               for g in groups if isinstance(g, dict) and isinstance(g.get("hooks"), list) for h in g["hooks"])


def doubled_hooks(client: str, runs: str, user: Path, recorded: dict, assume: Path | None) -> list[str]:
    """One line for each project hooks file install recorded (``recorded``: {path: record}; those named as
    ``user`` is, of scope project) that holds ``client``'s memdir hooks while the user's file ``user`` does too,
    as the client runs both (``runs``: who, "Codex", "Gemini CLI"). ``assume``: a file taken to hold them (what a
    dry run would add). The rule of :func:`memdir.integrations.clients.codex.doubled` and
    :func:`memdir.integrations.clients.gemini.doubled`."""
    if not (user == assume or hooked(user, client)):
        return []
    projects = sorted({Path(p) for p, r in recorded.items() if Path(p).name == user.name and Path(p) != user
                       and isinstance(r, dict) and r.get("scope") == "project"} | ({assume} - {None, user}))
    from ..claude_code.once import BOTH_RUN

    return [f"{client}: memdir's hooks are registered twice, in {user} (user scope) and {path} (project scope): "
            f"{runs} runs both in that project; {BOTH_RUN} (memdir uninstall {client} --scope user, or --scope "
            "project)" for path in projects if path == assume or hooked(path, client)]


def diff(path: Path, before: bytes | None, after: bytes | None) -> str:
    """A unified diff of two versions of ``path`` (``None``: absent). A last line without a line break is
    followed by git's ``\\ No newline at end of file`` line, so it is never glued to the next line of the
    diff (trial28: Claude Code writes ``~/.claude.json`` without one, and install showed
    ``-{"numStartups": 12}+{``)."""
    a = (before or b"").decode("utf-8", "replace").splitlines(keepends=True)
    b = (after or b"").decode("utf-8", "replace").splitlines(keepends=True)
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n"
                   for line in difflib.unified_diff(a, b, f"{path} (before)", f"{path} (after)"))


def owners(edit: Edit, data) -> set[str | None]:
    """Whose memdir's part of a client file's ``data`` (as :func:`read` gives it; what ``edit.remove`` takes out,
    so a person's own server is not counted) is: the homes its user-scope commands name, None for one naming none
    (the default home's: :func:`memdir.integrations.clients.entries.entry_homes`). Empty when that part holds no
    user-scope command (a project's files, a text file: whose they are cannot be told) or cannot be taken out."""
    from collections import Counter

    from .entries import entry_homes

    if data is None:
        return set()
    try:
        stripped = edit.remove(copy_of(data), {})
    except Exception:  # noqa: BLE001 — a part memdir cannot take out: the uninstall's own check says why
        return set()
    return set((Counter(entry_homes(data)) - Counter(entry_homes(stripped))).elements())


def other_home(edit: Edit, data, memdir_home: Path, home: str | None = None) -> str | None:
    """The memdir home whose entries the client file's ``data`` (as :func:`read` gives it) holds (:func:`owners`)
    when it is not this run's — ``memdir_home``, whose commands name ``home`` (None: none, the default home's:
    :func:`memdir.integrations.clients.entries.home_written`): two homes installed into one client file. The
    install record is kept per memdir home, so one home's uninstall took the other's entries out and left its
    record naming entries that were gone, and one home's install replaced the other's unsaid (the default home's
    too, whose commands name no home). The path (the default home's as :func:`memdir.paths.resolve_home` gives
    it, so ``memdir --home PATH`` reaches it); None when the entries are this home's, or name none (a project's
    file: whose they are cannot be told)."""
    from ...paths import resolve_home

    homes = owners(edit, data)
    if not homes:
        return None
    if None in homes and home is None:
        return None
    mine = {os.path.realpath(memdir_home)} | ({os.path.realpath(home)} if home else set())
    named = {h if h is not None else str(resolve_home(None, {})) for h in homes}
    return None if any(os.path.realpath(h) in mine for h in named) else min(named)


def _other_of(edit: Edit, memdir_home: Path, home: str | None) -> str | None:
    """:func:`other_home` of ``edit``'s file as it is now; None when it is absent or does not read."""
    try:
        return other_home(edit, read(edit.path, edit.fmt)[1], memdir_home, home)
    except Exception:  # noqa: BLE001 — the uninstall's own read says why
        return None


def plan_install(client: str, scope: str, edits: list[Edit], notes: tuple[str, ...] = (),
                 force: bool = False, memdir_home: Path | None = None, home: str | None = None) -> Plan:
    """Compute an install of ``edits`` without writing. A server entry named
    ``memdir`` that memdir did not write is refused (:class:`InstallError`)
    unless ``force``: then it is replaced, and its value recorded so that
    uninstall puts it back. So are memdir's entries of another memdir home than ``memdir_home``, whose
    commands the edits write naming ``home`` (None: none, the default home) (:func:`other_home`). Raises
    :class:`InstallError`."""
    changes, unchanged, notes = [], [], list(notes)
    for edit in edits:
        try:
            raw, data = read(edit.path, edit.fmt)
            other = other_home(edit, data, memdir_home, home) if memdir_home is not None and raw is not None else None
            if other is not None and not force:
                raise InstallError(f"{edit.path} holds memdir's entries of another memdir home, {other}; replacing "
                                   "them would leave that home's install record naming entries that are gone (and "
                                   "its uninstall would take this one's out); memdir left every file untouched — run "
                                   f"`memdir --home {other} uninstall {client}` first (it puts the file back as it "
                                   "was), or run again with --force to replace them")
            if other is not None:
                notes.append(f"replaced memdir home {other}'s entries in {edit.path} (--force); that home's "
                             f"`memdir uninstall {client}` now leaves this file alone")
        except JsoncFile as exc:
            changed = edit.add(copy_of(exc.data))
            if edit.fmt.plain(changed) == edit.fmt.plain(exc.data):  # the person added memdir's entries by hand
                unchanged.append(edit.path)
                continue
            raise by_hand(exc, changed, "Add memdir's entries", _then("install", edit.path, edits)) from None
        previous = edit.foreign(data) if edit.foreign else None
        if previous is not None and not force:
            raise InstallError(f"{edit.path} already has a server named memdir that memdir did not write "
                               f"({json.dumps(previous, default=str)[:200]}); memdir left every file untouched — "
                               "rename or remove it, or run again with --force to replace it "
                               "(uninstall then puts yours back)")
        try:
            merged = edit.add(copy_of(data))
        except UnmatchedBlock as exc:
            raise InstallError(f"{edit.path}: {exc}; memdir left every file untouched — remove the marker "
                               "that is left, then install again") from None
        except (ValueError, TypeError, KeyError) as exc:  # a library refusing the shape of the person's file
            raise InstallError(f"memdir cannot add its entries to {edit.path} ({exc}); memdir left every file "
                               "untouched — add them by hand") from None
        if raw is not None and edit.fmt.plain(merged) == edit.fmt.plain(data):
            unchanged.append(edit.path)
            continue
        after = edit.fmt.dump(merged, raw)
        record = edit.keep(data) if edit.keep else {}
        if previous is not None:
            record = {**record, "previous": previous}
            notes.append(f"replaced your own memdir server in {edit.path} (--force); uninstall puts it back")
        fresh = edit.wrote(merged) if edit.wrote else {}
        changes.append(FileChange(edit.path, raw, after, diff(edit.path, raw, after), record=record, fresh=fresh))
    return Plan("install", scope, tuple(changes), tuple(unchanged), notes=tuple(notes), client=client)


def _then(action: str, path: Path, edits: list[Edit]) -> str:
    """What the refusal of a JSONC ``path`` (:func:`formats.by_hand`) tells the person to do after the change by
    hand: run the same command again, which writes (or removes) the run's other files — memdir's own, such as the
    instructions file the settings entry names (newuser38: OpenCode's by-hand diff named a memdir.md no run ever
    created) — and leaves a settings file that already holds (or no longer holds) memdir's entries as it is.
    ``""`` when the run has no other file."""
    rest = list(dict.fromkeys(str(edit.path) for edit in edits if edit.path != path))
    if not rest:
        return ""
    does = "writes memdir's part of" if action == "install" else "takes memdir's part out of"
    return (f"Then run the same `memdir {action}` again: it {does} {', '.join(rest)} and leaves {path.name} as "
            f"you made it (nothing was written this time)")


def plan_uninstall(client: str, scope: str | None, edits: list[Edit], memdir_home: Path,
                   home: str | None = None) -> Plan:
    """Compute the uninstall of ``edits`` (one per file; a later one for the
    same path is ignored) without writing. A file memdir cannot take its part
    out of without touching a person's words (a text block edited by hand) is
    left as it is, and a note says so. So is a file holding another memdir home's entries than ``memdir_home``'s,
    whose commands name ``home`` (None: none, the default home) (:func:`other_home`). Raises
    :class:`InstallError`."""
    manifest = read_manifest(memdir_home, client)
    changes, unchanged, notes, seen = [], [], [], set()
    owner = next((other for edit in edits if (other := _other_of(edit, memdir_home, home)) is not None), None)
    for edit in edits:
        path = edit.path
        if path in seen:
            continue
        seen.add(path)
        record = manifest.get(str(path)) if isinstance(manifest.get(str(path)), dict) and edit.recorded else None
        try:
            raw, data = read(path, edit.fmt)
        except JsoncFile as exc:
            stripped = edit.remove(copy_of(exc.data), record or {})
            if stripped == exc.data:  # nothing of memdir's in it
                unchanged.append(path)
                continue
            raise by_hand(exc, stripped, "Remove memdir's entries", _then("uninstall", path, edits)) from None
        if raw is None:
            if record is not None:  # deleted by hand: forget it, clear the dirs install made
                changes.append(FileChange(path, None, None, ""))
            continue
        try:
            stripped = edit.remove(copy_of(data), record or {})
        except UnmatchedBlock as exc:
            unchanged.append(path)
            notes.append(f"{path}: {exc}; memdir left the file as it is — remove its block by hand")
            continue
        if edit.fmt.plain(stripped) == edit.fmt.plain(data):
            unchanged.append(path)
            continue
        other = other_home(edit, data, memdir_home, home)
        if other is not None or (owner is not None and not owners(edit, data)):
            # another home's install: its entries and its record are its own, and so is a file of the same install
            # that names no home (OpenCode's memdir.md beside the opencode.json that names it)
            unchanged.append(path)
            notes.append(f"{path} holds memdir's entries of another memdir home, {other or owner}, not this one's: "
                         f"left as they are (`memdir --home {other or owner} uninstall {client}` takes them out)")
            continue
        after = _restored(edit, path, raw, stripped, record)
        if after is _EDITED:
            unchanged.append(path)
            notes.append(f"{path} was edited inside memdir's block since install; memdir left the file as it is — "
                         "delete the block (or the file) by hand if you do not need it")
            continue
        original = read_bytes(Path(record["backup"])) if record and record.get("backup") else None
        changes.append(FileChange(path, raw, after, diff(path, raw, after), restored=after is not None and after == original,
                                  recorded=edit.recorded))
    return Plan("uninstall", scope or "every recorded", tuple(changes), tuple(unchanged), notes=tuple(notes),
                client=client)


_EDITED = object()  # :func:`_restored`'s answer for a file whose person's edits memdir cannot keep apart


def _restored(edit: Edit, path: Path, raw: bytes, stripped, record: dict | None):
    """What uninstall writes to ``path`` (now ``raw``; ``stripped`` is its data
    without memdir's entries): None (remove it: install created it and nothing
    else is in it), the bytes it held before install (the same data, up to
    containers left empty), else ``stripped`` written out. :data:`_EDITED` when
    that would remove or roll back a person's edit inside memdir's part."""
    after = edit.fmt.dump(stripped, raw)
    if record is None:
        return after
    original = read_bytes(Path(record["backup"])) if record.get("backup") else None
    if record.get("backup") is None and edit.fmt.empty(stripped):
        after = None  # install created the file; nothing of anyone else's is in it
    elif original is not None:
        try:  # the original as it was, and read the way uninstall reads the file now
            before = edit.fmt.load(original, path)
            olds = (before, edit.remove(copy_of(before), record))
        except InstallError:
            olds = ()
        if any(_same(edit.fmt.plain(stripped), edit.fmt.plain(old)) for old in olds):
            after = original  # byte-identical to before install
    written = record.get("installed_sha256")
    if (edit.fmt.editable_inside and after in (None, original) and written
            and hashlib.sha256(raw).hexdigest() != written):
        # Only memdir's block differs from what was there before, and not as install wrote it: the person's words.
        return _EDITED
    return after


def _same(a, b) -> bool:
    """True when ``a`` and ``b`` hold the same data once empty objects and lists are
    dropped (uninstall takes out a container its entries emptied, which may have
    been there empty before)."""
    return _pruned(a) == _pruned(b)


def _pruned(value):
    if isinstance(value, dict):
        out = {k: _pruned(v) for k, v in value.items()}
        return {k: v for k, v in out.items() if v not in ({}, [])}
    if isinstance(value, list):
        return [_pruned(v) for v in value]
    return value


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
    Returns the plan with backups filled in. The manifest's read-modify-write
    holds a lock beside it, so concurrent installs never lose a record."""
    from filelock import FileLock

    mpath = manifest_path(memdir_home, plan.client)
    mpath.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
    with FileLock(str(mpath) + ".lock", mode=0o600):
        return _apply(plan, memdir_home)


def _apply(plan: Plan, memdir_home: Path) -> Plan:
    manifest = read_manifest(memdir_home, plan.client)
    # Before anything is written: two files in one new directory both record it as install's.
    missing = {change.path: _missing_dirs(change.path) for change in plan.changes if change.before is None}
    emptied: set[str] = set()  # directories install created, to remove once every file is gone
    done = []
    for change in plan.changes:
        path = change.path
        record = manifest.get(str(path)) if isinstance(manifest.get(str(path)), dict) else {}
        # Back up what existed, unless uninstall is putting back the very bytes install found (or removing the file).
        restoring = plan.action == "uninstall" and (change.after is None or change.restored)
        backup = _backup(memdir_home, path, change.before) if change.before is not None and not restoring else None
        mode = None
        try:
            mode = path.stat().st_mode & 0o777
        except OSError:
            pass
        created_dirs = missing.get(path, [])
        # A settings file kept as a symlink (dotfiles) is written through, so the link stays.
        target = path.resolve() if path.is_symlink() else path
        if change.after is None:
            unlink(path)
            emptied.update(record.get("created_dirs", []))
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
                "installed_sha256": hashlib.sha256(change.after or b"").hexdigest(), **change.fresh}
        elif change.recorded:
            manifest.pop(str(path), None)
        done.append(replace(change, backup=backup))
    for folder in sorted(emptied, key=lambda f: -len(Path(f).parts)):  # deepest first
        try:
            os.rmdir(folder)  # only what install made, only if empty now: never a person's file with it
        except OSError:
            pass
    if done:
        mpath = manifest_path(memdir_home, plan.client)
        mpath.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        atomic_write(mpath, (json.dumps(manifest, indent=2) + "\n").encode("utf-8"))
    return replace(plan, changes=tuple(done), applied=True)


def run_install(client: str, scope: str, memdir_home: Path, edits: list[Edit], *, dry_run: bool = False,
                notes: tuple[str, ...] = (), force: bool = False, home: str | None = None) -> Plan:
    """Plan and (unless ``dry_run``) apply an install of ``edits`` (``force``, ``home``: see :func:`plan_install`)."""
    plan = plan_install(client, scope, edits, notes, force, memdir_home, home)
    return plan if dry_run else apply(plan, memdir_home)


def run_uninstall(client: str, scope: str | None, memdir_home: Path, scoped: list[Edit], edit_for, *,
                  dry_run: bool = False, home: str | None = None) -> Plan:
    """Plan and (unless ``dry_run``) apply an uninstall: ``scoped`` (the files of
    the scope asked, or the user scope's) and, with ``scope`` None, ``edit_for(path)``
    of every other file the manifest records (``home``: see :func:`plan_uninstall`)."""
    edits = list(scoped)
    if scope is None:
        edits += [edit_for(Path(p)) for p in read_manifest(memdir_home, client)]
    plan = plan_uninstall(client, scope, edits, memdir_home, home)
    return plan if dry_run else apply(plan, memdir_home)


def problems(memdir_home: Path, clients) -> list[str]:
    """What ``memdir doctor`` says of each client's recorded install: a file
    install wrote that is gone, or that no longer holds memdir's entries; and
    what the client's installer module's own ``problems(memdir_home)`` says; and
    :func:`memdir.integrations.clients.drift.behind` (an install this memdir would write otherwise; one whose
    interpreter is gone is :func:`memdir.integrations.clients.drift.broken`'s, a problem)."""
    from . import installer
    from .drift import behind

    out = []
    for client in clients:
        recorded = read_manifest(memdir_home, client)
        for path in recorded:
            raw = read_bytes(Path(path))
            if raw is None:
                out.append(f"{client}: {path} that memdir install wrote is gone; run `memdir install {client}` again "
                           f"or `memdir uninstall {client}`")
            elif b"memdir" not in raw:
                out.append(f"{client}: {path} no longer holds memdir's entries; run `memdir install {client}` again")
            elif (other := _recorded_other(client, Path(path), memdir_home)) is not None:
                out.append(f"{client}: {path} holds another memdir home's entries ({other}), not this home's: its "
                           f"hooks and server read and write that home; `memdir --home {other} uninstall {client}`, "
                           f"then `memdir install {client}` here, if this home is the one to use")
        own = getattr(installer(client), "problems", None) if recorded else None  # what only its rules see
        said = own(memdir_home) if own else []
        out += said + (behind(memdir_home, client, said) if recorded else [])
    return out


def _recorded_other(client: str, path: Path, memdir_home: Path) -> str | None:
    """:func:`other_home` of the client file ``path`` an install recorded, read as its installer's edit reads it;
    None when it does not read (the other checks of :func:`problems` say why)."""
    from . import installer
    from .entries import home_written

    module = installer(client)
    edit_for = getattr(module, "edit_for", None) or getattr(module, "_edit", None)
    if edit_for is None:
        return None
    try:
        edit = edit_for(path, None)
        return other_home(edit, read(path, edit.fmt)[1], memdir_home, home_written(memdir_home))
    except Exception:  # noqa: BLE001 — doctor reads, never fails on a file it cannot parse
        return None


def check_on_path(client: str, environ=None) -> str:
    """The ``memdir`` that project-scope commands will run, found on PATH.
    Raises :class:`InstallError` saying how to fix it when there is none."""
    import sys

    found = shutil.which("memdir", path=(environ or os.environ).get("PATH"))
    if not found:
        own = Path(sys.executable).parent / "memdir"  # this installation's script (memdir installs from a clone)
        how = (f"activate its virtualenv (. {own.parent}/activate) or link it: ln -s {own} ~/.local/bin/memdir"
               if (own.parent / "activate").is_file() else f"link it: ln -s {own} ~/.local/bin/memdir")
        raise InstallError(f"project scope writes `memdir …` commands (files a team commits name no machine "
                           f"path), but `memdir` is not on PATH; put it where {client} can run it — "
                           f"{how if own.is_file() else 'install memdir there'} — or use --scope user")
    return found


__all__ = ["FileChange", "Plan", "Format", "JSON", "TOML", "TEXT", "Edit", "BLOCK_BEGIN", "BLOCK_END",
           "strip_block", "with_block", "copy_of", "read", "diff", "manifest_path", "read_manifest",
           "plan_install", "plan_uninstall", "apply", "check_on_path", "run_install", "run_uninstall", "problems",
           "installed", "hooked", "doubled_hooks"]
