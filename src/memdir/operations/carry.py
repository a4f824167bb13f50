"""What moves between the live layers and the sync repository's work tree (DESIGN §11, issue 27).

:mod:`memdir.operations.sync` runs a sync (export, commit, fetch, merge, import, push); this module is
the part that touches the live layers: which layers travel (:func:`targets`), what one of them holds
as repository files (:func:`live`), the export of this machine's changes (:func:`export`), the import
of what a merge brought (:func:`import_changes`), a layer seen for the first time (:func:`adopt`), and
which side of a conflict it holds back is this machine's (:func:`_side_of`; the conflicts held, as a person
settles them: :mod:`memdir.operations.contested`).

**What this machine's layer last matched.** Each synced layer has its own base: the commit of the
sync repository its live files last matched (``bases`` in the state file, one per repository
directory, ``user`` or ``projects/<key>``). A file missing from a live layer is a deletion to send
only when that layer had it at its base; a layer with no base yet — a new machine, a project first
synced here, a project layer first made on this machine — takes in what the repository holds first
(:func:`adopt`: files only there are imported, a memory on both sides is merged field by field as
if both had added it) and never sends a deletion. A tombstone goes from the repository only when a
person lifted it here (a ``tombstone-lift`` the layer's journal records), with a lift record
(:data:`LIFTS`); a tombstone just missing from a live layer, or gone from the repository without
one (a ``git revert`` of the forget), is put back, never lifted everywhere.

**Which side is this machine's.** git's conflict markers say ``ours`` for the machine that ran the
merge, which is the other machine once the conflicted file travels. Each conflict held records the
marker label that is this machine's (``side``), so ``ours`` in ``memdir sync resolve`` always means
this machine's value (:func:`memdir.operations.contested.conflict_of` shows both per field).
"""

from __future__ import annotations

import json
import socket
from dataclasses import dataclass, field
from pathlib import Path

from .. import git
from ..errors import InvalidName
from ..files import merge as merge_rules
from ..files import repository as sync_repo
from ..files.conflicts import Hunk, has_conflict, segments
from ..files.fsio import atomic_write, digest, ensure_dir, read_bytes
from ..files.layout import META_DIR, case_twins, read_layer_info
from ..gateway import synced
from ..layer.journal import now_utc
from ..paths import PROJECTS_DIR, project_layer_dir, user_layer_dir
from ..results import Result
from ..session import Session
from ..text.names import normalize_name
from ..text.redact import redact
from ..tombstones.match import ID_FORM, Tombstone
from ..tombstones.stones import stone_of, sync_bytes

USER = "user"  # the user layer's directory in the repository (a project's: projects/<key>)
TOMBSTONES = "tombstones"  # a layer's tombstones in the repository: one file per forgotten fact
# A person's lift, as it travels: ``lifted/<id>.json`` written beside the removal of the tombstone's file. A
# tombstone file that leaves the repository without one (a `git revert` of the forget, a hand `git rm`) is
# not a lift: only a person lifts a tombstone (DESIGN §5), and the machine puts it back (break34).
LIFTS = "lifted"
PROJECT_FILE = "project.json"  # a project's identity in the repository (memdir.files.repository.shared_identity)
CHANGES = ("new", "changed", "deleted", "forgotten", "lifted")  # the kinds of change a sync sends or receives


@dataclass(frozen=True)
class Change(Result):
    """One change sent or received: the memory's (or forgotten fact's) ``name``, its ``layer`` (``user`` |
    ``project``) and the ``change`` (:data:`CHANGES`); ``note``: what else a person should know (an edit
    kept in history)."""

    name: str
    layer: str
    change: str
    note: str | None = None


@dataclass(frozen=True)
class NotSynced(Result):
    """A file or layer left out of the sync: ``name`` (a memory, or a project layer's directory),
    ``layer`` and ``reason``."""

    name: str
    layer: str
    reason: str


# ---------------------------------------------------------------- which layers travel


@dataclass
class Target:
    """A live layer that syncs and its directory in the repository (``prefix``)."""

    prefix: str  # "user" or "projects/<key>"
    layer: object  # memdir.layer.layer.Layer
    identity: dict = field(default_factory=dict)

    @property
    def scope(self) -> str:
        """The layer's scope (``user`` | ``project``)."""
        return self.layer.scope


def targets(session: Session, repo: Path) -> tuple[list[Target], list[NotSynced]]:
    """The live layers this machine syncs, each with its place in the repository, and why a project
    layer is left out (no repository identity, its project gone, another layer of the same repository)."""
    from ..layer.layer import Layer

    kinds = sync_repo.layers_of(repo)
    found_targets = [Target(USER, Layer(user_layer_dir(session.home), "user", session.settings))]
    left: list[NotSynced] = []
    if "projects" not in kinds:
        return found_targets, left
    candidates = []
    if session.project_root is not None:  # the session's project first: it wins a tie of one repository
        candidates.append((session.project_root, git.identity(session.project_root)))
    base = Path(session.home) / PROJECTS_DIR
    for path in sorted(base.iterdir()) if base.is_dir() else ():
        info = read_layer_info(path / META_DIR) or {}
        root = info.get("root")
        if not isinstance(root, str) or not Path(root).is_dir():
            left.append(NotSynced(path.name, "project", f"its project {root} is gone (memdir doctor)"))
            continue
        found = {k: info[k] for k in ("remote", "first_commit") if info.get(k)} or git.identity(Path(root))
        candidates.append((Path(root), found))
    mirrored = sync_repo.mirrored_projects(repo)
    seen: list[dict] = []
    for root, found in candidates:
        layer_dir = project_layer_dir(session.home, root)
        if not found:
            if layer_dir.is_dir():
                left.append(NotSynced(layer_dir.name, "project", f"{root}: no git remote or commit identifies it"))
            continue
        if any(sync_repo.same_repository(found, other) for other in seen):
            if layer_dir.is_dir() and root != session.project_root:
                left.append(NotSynced(layer_dir.name, "project",
                                      f"{root}: another checkout of the same repository is synced"))
            continue
        seen.append(found)
        prefix = next((p for p, info in mirrored.items() if sync_repo.same_repository(found, info)),
                      f"{PROJECTS_DIR}/{sync_repo.project_key(found)}")
        found_targets.append(Target(prefix, Layer(layer_dir, "project", session.settings, root), found))
    return found_targets, left


def live(target: Target) -> tuple[dict[str, bytes], dict[str, str]]:
    """(path in the repository → bytes, name → the live file's digest) of a target layer's memory files and
    tombstones (:func:`memdir.tombstones.stones.sync_bytes`: who forgot it, when and why travel too, its
    description and reason redacted; only an id :data:`memdir.tombstones.match.ID_FORM` gives travels)."""
    files, digests = {}, {}
    layer = target.layer
    if layer.path.is_dir():
        for name, entry in layer.scan().entries.items():
            data = read_bytes(entry.path)
            if data is not None:
                files[f"{target.prefix}/{name}.md"] = data
                digests[name] = digest(data)
        for stone in layer.tombstones():
            if ID_FORM.match(stone.id):  # the id is a file name in the repository
                files[f"{target.prefix}/{TOMBSTONES}/{stone.id}.json"] = sync_bytes(stone)
    if target.identity:
        files[f"{target.prefix}/{PROJECT_FILE}"] = sync_repo.shared_identity(target.identity)
    return files, digests


def refusal(rel: str, kind: tuple[str, int] | None, max_bytes: int) -> str | None:
    """Why a path of a layer's directory in the merged tree (``rel``: ``name.md``, ``tombstones/<id>.json``,
    ``project.json``; ``kind``: its mode and size there, :func:`memdir.files.repository.entries`; None when it
    is gone) is not taken into the live layer: a name the formats do not give (a path out of the layer, a
    name no memory has), a link or submodule, a file over ``max_bytes`` (``max_file_bytes``). None: it may
    be taken. What is refused is never deleted from the repository by this machine either (:func:`export`)."""
    if rel.endswith(".md") and "/" not in rel:
        try:
            if normalize_name(rel[:-3]).name != rel[:-3]:
                return "not a memory name"
        except InvalidName:
            return "not a memory name"
    elif rel.startswith(TOMBSTONES + "/") and rel.endswith(".json"):
        if not ID_FORM.match(rel[len(TOMBSTONES) + 1:-5]):
            return "not a tombstone id"
    elif _is_lift(rel):
        if not ID_FORM.match(rel[len(LIFTS) + 1:-5]):
            return "not a tombstone id"
    elif rel != PROJECT_FILE:
        return "not a file of a memory layer"
    if kind is not None and kind[0] not in sync_repo.FILE_MODES:
        return "a symbolic link or a submodule, never followed"
    if kind is not None and kind[1] > max_bytes:
        return f"{kind[1]} bytes, over the {max_bytes}-byte ceiling of a memory file (max_file_bytes)"
    return None


def twin_refusal(path: str, paths) -> str | None:
    """Why the export does not write or delete the repository file ``path`` (``user/deploy.md``) while
    ``paths`` (the repository's and the live layer's) hold a file whose name differs from it only by case
    (:func:`memdir.files.layout.case_twins`: ``user/Deploy.md``, put there by hand or by another tool):
    macOS and Windows keep one of the two in a checkout, so writing one would overwrite the other — the
    rule a layer's own writes follow (:meth:`memdir.layer.transaction.Transaction.apply` refuses another
    memory's case twin). Refused, never renamed: the name is the memory's, and the twin is no file this
    machine deletes (:func:`refusal`). None when there is no twin. (Two memory files are never twins:
    memory file names are lower case; the twin is always a file the import refuses, :func:`twin_note`.)"""
    twins = case_twins(path, paths)
    if not twins:
        return None
    return (f"the sync repository holds {twins[0]}, whose name differs from {path}'s only by case (macOS and "
            f"Windows keep one of the two, so one would overwrite the other); not synced — remove or rename "
            f"{twins[0]} in the sync repository")


def twin_note(path: str, paths) -> str:
    """What the import adds to a refused repository file ``path`` (``user/Deploy.md``: not a memory name)
    when ``paths`` (the repository's) hold its case twin (``user/deploy.md``, :func:`twin_refusal`): which
    memory it would overwrite in a macOS or Windows checkout. ``""`` when none does. The memory itself is
    taken in from git's objects, which hold both apart."""
    twins = case_twins(path, paths)
    return (f"; its name differs from {twins[0]}'s only by case (macOS and Windows keep one of the two in a "
            f"checkout): remove or rename it in the sync repository") if twins else ""


def _stone_in(data: bytes, rel: str) -> Tombstone:
    """The tombstone a repository file ``rel`` (``tombstones/<id>.json``) holds. Raises :class:`ValueError`:
    not a readable tombstone, its id not its file name, its name no memory's."""
    stone = stone_of(json.loads(data))
    if stone.id != rel[len(TOMBSTONES) + 1:-5]:
        raise ValueError(f"its id {stone.id!r} is not its file name")
    try:
        if normalize_name(stone.name).name != stone.name:
            raise ValueError(f"{stone.name!r} is not a memory name")
    except InvalidName:
        raise ValueError(f"{stone.name!r} is not a memory name") from None
    return stone


def _secret(data: bytes) -> str | None:
    """The kinds of secret the gateway's redaction would take out of a memory file, or None."""
    found = redact(data.decode("utf-8", "replace"))
    return ", ".join(sorted(found.counts)) if found.total else None


def label(path: str) -> str:
    """``scope:name`` of a memory file's path in the repository (``user/x.md`` → ``user:x``,
    ``projects/<key>/x.md`` → ``project:x``); other paths as they are."""
    parts = path.split("/")
    if path.endswith(".md") and parts[0] == USER and len(parts) == 2:
        return f"user:{parts[1][:-3]}"
    if path.endswith(".md") and parts[0] == PROJECTS_DIR and len(parts) == 3:
        return f"project:{parts[2][:-3]}"
    return path


def _is_stone(rel: str) -> bool:
    return rel.startswith(TOMBSTONES + "/") and rel.endswith(".json") and rel.count("/") == 1


def _is_lift(rel: str) -> bool:
    return rel.startswith(LIFTS + "/") and rel.endswith(".json") and rel.count("/") == 1


def _lift_path(stone_path: str) -> str:
    """``user/tombstones/t-….json`` → ``user/lifted/t-….json``: where a person's lift of it travels (:data:`LIFTS`)."""
    head, _, filename = stone_path.rpartition(f"/{TOMBSTONES}/")
    return f"{head}/{LIFTS}/{filename}"


def _stone_name(data: bytes | None, fallback: str) -> str:
    try:
        return stone_of(json.loads(data or b"")).name
    except ValueError:
        return fallback


def _person_lifted(layer) -> set[str]:
    """Ids of the tombstones a person lifted in ``layer`` (its journal's ``tombstone-lift`` events)."""
    try:
        events = layer.journal.events() if layer.path.is_dir() else []
    except (OSError, ValueError):
        return set()
    return {str((event.data or {}).get("tombstone")) for event in events
            if event.action == "tombstone-lift" and event.actor == "human" and not str(event.reason or "").startswith(
                "lifted on ")}


# ---------------------------------------------------------------- export


def export(repo: Path, found: list[Target], held: dict, bases: dict[str, str]) -> tuple[list[Change], list[NotSynced]]:
    """Copy each live change since the layer's base into the work tree and commit them: (the changes sent,
    the files left out). A file missing from the live layer is deleted only when the layer had it at its
    base; a tombstone only when a person lifted it here (else it is put back into the layer)."""
    head = sync_repo.rev(repo, "HEAD")
    tree = sync_repo.tree(repo, head)
    kinds = sync_repo.entries(repo, head)
    sent: list[Change] = []
    skipped: list[NotSynced] = []
    for target in found:
        files, _ = live(target)
        paths = set(tree) | set(files)  # the names a checkout of the repository holds, for case twins
        max_bytes = target.layer.settings.max_file_bytes
        had = {p for p in sync_repo.tree(repo, bases.get(target.prefix)) if p.startswith(target.prefix + "/")}
        mine = {path for path in tree if path.startswith(target.prefix + "/")}
        lifted_here = None
        restore = []
        for path in sorted(set(files) | mine):
            rel = path[len(target.prefix) + 1:]
            if _is_lift(rel):
                continue  # written and removed with its tombstone's file, below
            data = files.get(path)
            sha = sync_repo.blob_id(data)
            if sha == tree.get(path) or (path in held and held[path].get("mine") == sha):
                continue  # unchanged, or a conflict held back while this machine's version is unchanged
            if path.endswith("/" + PROJECT_FILE) and data is None:
                continue
            if data is None and refusal(rel, kinds.get(path), max_bytes):
                continue  # refused on import (a link, a name or size this machine does not take): never deleted
            if _is_stone(rel):
                if data is not None and path in tree:
                    continue  # the same forgotten fact (who, when or why may differ): nothing to send
                if data is None:
                    lifted_here = _person_lifted(target.layer) if lifted_here is None else lifted_here
                    if path not in had or Path(rel).stem not in lifted_here:
                        restore.append(path)  # missing is not lifted: only a person lifts a tombstone
                        continue
            elif data is None and path not in had:
                continue  # not this layer's yet (arrived after its base): imported, never deleted
            shown = rel[:-3] if rel.endswith(".md") else _stone_name(data, rel) if _is_stone(rel) else rel
            if data is not None and (secrets := _secret(data)):  # every file committed, tombstones too
                skipped.append(NotSynced(shown, target.scope, f"holds what looks like a secret ({secrets}); not "
                                         "synced — remove it from the file (memdir write rewrites it redacted)"))
                continue
            if twin := twin_refusal(path, paths):  # written or deleted, it would land on its twin there
                skipped.append(NotSynced(shown, target.scope, twin))
                continue
            where = sync_repo.inside(repo, path)
            if where is None:
                skipped.append(NotSynced(shown, target.scope, "a link or another non-file is on its way in the sync "
                                         "repository; not written (memdir writes only inside it)"))
                continue
            held.pop(path, None)
            if data is None:
                where.unlink(missing_ok=True)
            else:
                ensure_dir(where.parent)
                atomic_write(where, data, sync_dir=False)
            if _is_stone(rel) and (record := sync_repo.inside(repo, _lift_path(path))) is not None:
                if data is None:  # a person's lift: it travels as one (LIFTS), not as a file gone
                    ensure_dir(record.parent)
                    lifted = {"id": Path(rel).stem, "lifted": now_utc().strftime("%Y-%m-%dT%H:%M:%S.%fZ")}
                    atomic_write(record, json.dumps(lifted).encode() + b"\n", sync_dir=False)
                else:  # forgotten again: an older lift of the same id lifts it no more
                    record.unlink(missing_ok=True)
            if _is_stone(rel):
                sent.append(Change(_stone_name(data or sync_repo.show(repo, head, path), Path(rel).stem), target.scope,
                                   "forgotten" if data is not None else "lifted"))
            elif path.endswith(".md"):
                kind = "deleted" if data is None else ("changed" if path in tree else "new")
                sent.append(Change(rel[:-3], target.scope, kind))
        if restore:
            stones = []
            for path in restore:
                try:
                    stones.append(_stone_in(sync_repo.show(repo, head, path) or b"", path[len(target.prefix) + 1:]))
                except ValueError:
                    continue  # refused on import (noted there): never put into the layer
            synced.apply(target.layer, [], stones, label="the sync repository (a tombstone missing here, not lifted)")
    git.run(repo, "add", "-A", "--", ".")
    if git.run(repo, "diff", "--cached", "--name-only").strip():
        git.run(repo, "commit", "-q", "-m", f"memdir sync: {len(sent)} change(s) from {socket.gethostname()}")
    return _forgotten_not_deleted(sent), skipped


def _forgotten_not_deleted(changes: list[Change]) -> list[Change]:
    """One change per memory: a memory forgotten is ``forgotten``, not also ``deleted``."""
    gone = {(c.name, c.layer) for c in changes if c.change == "forgotten"}
    out = {}
    for change in changes:
        if change.change == "deleted" and (change.name, change.layer) in gone:
            continue
        out.setdefault((change.name, change.layer, change.change), change)
    return list(out.values())


# ---------------------------------------------------------------- import


def adopt(repo: Path, target: Target, held: dict, notes: list[str]) -> list[Change]:
    """Take in what the repository holds for a layer with no base yet (see the module docstring): files
    only there are imported; a memory on both sides is merged as two additions (a clean merge is
    written to both, a conflict is held back with this machine's version in use). Never deletes."""
    head = sync_repo.rev(repo, "HEAD")
    prefix = target.prefix + "/"
    theirs_tree = {p: b for p, b in sync_repo.tree(repo, head).items() if p.startswith(prefix)}
    kinds = sync_repo.entries(repo, head)
    files, digests = live(target)
    incoming, added = [], []
    for path in sorted(theirs_tree):
        rel = path[len(prefix):]
        if why := refusal(rel, kinds.get(path), target.layer.settings.max_file_bytes):
            notes.append(f"{path}: not taken in: {why}{twin_note(path, theirs_tree)}")
            continue
        mine = files.get(path)
        if sync_repo.blob_id(mine) == theirs_tree[path]:
            continue
        theirs = sync_repo.show(repo, head, path)
        if _is_stone(rel):
            if mine is None and theirs is not None:
                try:
                    added.append(_stone_in(theirs, rel))
                except ValueError as exc:
                    notes.append(f"{path}: not taken in: not a readable tombstone ({exc})")
            continue
        if not rel.endswith(".md") or "/" in rel or theirs is None:
            continue
        name = rel[:-3]
        if mine is None:
            if not has_conflict(theirs):
                incoming.append(synced.Incoming(name, theirs, None))
            continue
        merged = merge_rules.merge(b"", mine, theirs)
        where = sync_repo.inside(repo, path)
        if where is None:  # a link on the way: neither side is written there (the export says so)
            continue
        atomic_write(where, merged.data, sync_dir=False)  # committed by the export that follows
        if merged.conflicts:
            held[path] = {"mine": sync_repo.blob_id(mine), "side": "ours"}
        else:
            incoming.append(synced.Incoming(name, merged.data, digests.get(name)))
    if not (incoming or added):
        return []
    done = synced.apply(target.layer, incoming, added, label="another machine (memdir sync)")
    notes += [f"{target.scope}:{line}" for line in done.skipped]
    return received_of(done, target.scope)


def import_changes(repo: Path, target: Target, base: str | None, head: str, held: dict, notes: list[str],
                   made_here: set[str] = frozenset()) -> list[Change]:
    """Bring what changed in ``target``'s directory from ``base`` to ``head`` into its live layer
    (:func:`memdir.gateway.synced.apply`). A conflicted file is held back (``made_here``: the paths whose
    markers this machine's merge wrote, so ``ours`` is this machine). Returns the changes received."""
    prefix = target.prefix + "/"
    old, new = sync_repo.tree(repo, base), sync_repo.tree(repo, head)
    mine_paths = sorted(p for p in (set(old) | set(new) | set(held)) if p.startswith(prefix)
                        and (old.get(p) != new.get(p) or p in held))
    if not mine_paths:
        return []
    files_now, digests = live(target)
    kinds = sync_repo.entries(repo, head)
    files, added, lifted, edits = [], [], [], {}
    for path in mine_paths:
        rel = path[len(prefix):]
        if why := refusal(rel, kinds.get(path), target.layer.settings.max_file_bytes):
            notes.append(f"{path}: not taken in: {why}{twin_note(path, new)}")
            continue
        theirs = sync_repo.show(repo, head, path) if path in new else None
        if _is_stone(rel):
            if theirs is not None:
                try:
                    added.append(_stone_in(theirs, rel))
                except ValueError as exc:
                    notes.append(f"{path}: not taken in: not a readable tombstone ({exc})")
            elif path in old and (record := _lift_path(path)) in new and new[record] != old.get(record):
                lifted.append(Path(rel).stem)  # else gone without a person's lift: the export puts it back
            continue
        if not rel.endswith(".md") or "/" in rel:
            continue
        name, mine_now = rel[:-3], files_now.get(path)
        before = sync_repo.show(repo, base, path) if path in old else None
        if theirs is not None and has_conflict(theirs):
            if path not in held:  # this machine's version stays until the person resolves
                held[path] = {"mine": sync_repo.blob_id(mine_now),
                              "side": "ours" if path in made_here else _side_of(theirs, mine_now)}
            continue
        if path in held:  # the other machine settled it: take theirs
            del held[path]
            files.append(synced.Incoming(name, theirs, digests.get(name)))
            continue
        if mine_now == theirs:
            continue
        if mine_now == before:
            files.append(synced.Incoming(name, theirs, digests.get(name)))
        elif mine_now is not None and theirs is not None:  # changed here after a stopped run's merge
            merged = merge_rules.merge(before or b"", mine_now, theirs)
            if merged.conflicts:
                notes.append(f"{label(path)}: changed here and there; this machine's version is "
                             "kept (the other is in the sync repository's history)")
            else:
                files.append(synced.Incoming(name, merged.data, digests.get(name)))
    # edited here, forgotten there (a tombstone of its name came): the forget wins, the edit stays in history
    for stone in added:
        path = f"{prefix}{stone.name}.md"
        if path in files_now and path in new and sync_repo.show(repo, head, path) == files_now[path]:
            edits[stone.name] = path  # this machine's edit survived the merge only because git keeps a modify
    files = [item for item in files if item.name not in edits]
    files += [synced.Incoming(name, None, digests.get(name), forgotten=True) for name in edits]
    held_back = [path for path in edits.values() if path in held]
    for path in held_back:
        del held[path]
    if not (files or added or lifted):
        return []
    done = synced.apply(target.layer, files, added, lifted, label="another machine (memdir sync)")
    notes += [f"{target.scope}:{line}" for line in done.skipped]
    return received_of(done, target.scope, {n: f"forgotten on the other machine; your edit is kept in history: "
                                                f"memdir history {n} --scope {target.scope}" for n in edits})


def received_of(done, scope: str, notes: dict[str, str] | None = None) -> list[Change]:
    """The changes a layer took (:class:`memdir.gateway.synced.Applied`), one per memory or fact."""
    notes = notes or {}
    changes = [Change(n, scope, "new" if n in done.created else "changed") for n in done.written]
    changes += [Change(n, scope, "deleted") for n in done.deleted]
    changes += [Change(n, scope, "forgotten", notes.get(n)) for n in (*done.forgotten, *done.added_names)]
    changes += [Change(n, scope, "lifted") for n in done.lifted_names]
    return _forgotten_not_deleted(changes)


# ---------------------------------------------------------------- conflicts


def _side_of(data: bytes, mine: bytes | None) -> str:
    """The marker label (``ours`` | ``theirs``) holding this machine's value in a conflicted file that
    arrived from another machine's merge: the side whose hunk text this machine's file has; ``neither`` when
    this machine's file has neither side's text of a hunk (two other machines changed it: a third machine);
    ``theirs`` when nothing tells (the machine that merged wrote its own value as ``ours``)."""
    if mine is None:
        return "theirs"
    try:
        parts = segments(data)
    except ValueError:
        return "theirs"
    for part in parts:
        if isinstance(part, Hunk) and part.ours != part.theirs:
            if part.theirs and part.theirs in mine and part.ours not in mine:
                return "theirs"
            if part.ours and part.ours in mine and part.theirs not in mine:
                return "ours"
            if part.ours and part.theirs and part.ours not in mine and part.theirs not in mine:
                return "neither"
    return "theirs"


__all__ = [
    "CHANGES",
    "LIFTS",
    "PROJECT_FILE",
    "TOMBSTONES",
    "USER",
    "Change",
    "NotSynced",
    "Target",
    "adopt",
    "export",
    "import_changes",
    "label",
    "live",
    "received_of",
    "refusal",
    "targets",
    "twin_note",
    "twin_refusal",
]
