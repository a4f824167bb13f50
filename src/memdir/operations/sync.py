"""A person's memory on every machine, through a private git remote (DESIGN §11, issue 27).

``memdir sync init REMOTE`` makes the sync repository, ``$MEMDIR_HOME/sync`` (0700): a git work tree
memdir alone writes, holding a copy of the layers chosen (``--layers user`` or ``user,projects``):

``user/<name>.md``, ``user/tombstones/<id>.json``
    the user layer's memory files, and one file per forgotten fact
    (:func:`memdir.tombstones.stones.shared_bytes`: the same fact forgotten on two machines is the
    same bytes, which git merges cleanly; the live layer keeps its ``tombstones.json``, so no store
    changes format);
``projects/<key>/…`` and ``projects/<key>/project.json``
    a personal project layer, named by the repository's identity, not its path: the first commit
    (else the ``origin`` URL, normalized: :func:`normalize_remote`), as ``layer.json`` records it
    (:func:`memdir.git.identity`). ``~/src/app`` on one machine and ``/srv/app`` on another share
    ``projects/app-<hash>``; a machine takes in a project it has a layer for, or the session's own.

What does not travel, on purpose: ``MEMORY.md`` and everything under ``.memdir`` (the index, usage
counts, caches, the layer manifest: derived, rebuilt on each machine; ``.gitignore`` says so too),
and the journal with its version objects: a journal is one machine's hash chain and two chains
cannot merge. Each machine journals what a sync brings as its own ``sync`` events
(:mod:`memdir.gateway.synced`), so its history stays whole; the sync repository's git log is the
history the machines share (as git's is the team layer's).

``memdir sync`` — export, commit, fetch, merge, import, push; never a force-push:

1. finish an import a killed run left (HEAD ahead of ``refs/memdir/synced``, the commit the live
   layers last matched); a stale ``index.lock`` or a merge cut in the middle is cleared first;
2. export: each live file that differs from HEAD is copied in (a memory file the gateway's redaction
   would change — a secret planted by hand — is not, and is reported), then committed: the local
   writes are in git before anything goes to the network;
3. fetch and merge ``origin/main`` with the team layer's field-by-field driver
   (:mod:`memdir.files.merge`); a field both machines changed keeps its markers in the commit;
4. import what the merge changed through the gateway (:func:`memdir.gateway.synced.apply`), then
   move ``refs/memdir/synced``; a file with conflict markers is never written into a layer: the
   layer keeps this machine's version, the conflict is reported until ``memdir sync resolve NAME
   --field FIELD=ours|theirs`` settles it;
5. push; a push refused as not a fast-forward (the other machine pushed in between) goes back to 3
   once. An unreachable remote is :attr:`SyncReport.offline`, not an error: the local commit waits.

A SIGKILL anywhere loses nothing: the live layers are never changed before their new state is
committed, and git's refs, index and objects are replaced atomically; the next run starts from
step 1. Credentials are git's own (ssh agent, credential helper; never a prompt).
"""

from __future__ import annotations

import json
import os
import shutil
import socket
from dataclasses import dataclass, field, replace
from pathlib import Path

from .. import git
from ..errors import InvalidInput, InvalidName, NotFound, Refused, StoreError
from ..files import merge as merge_rules
from ..files import repository as sync_repo
from ..files.conflicts import has_conflict
from ..files.fsio import atomic_write, digest, ensure_dir, read_bytes
from ..files.layout import META_DIR, read_layer_info
from ..gateway import synced
from ..layer.journal import now_utc
from ..paths import PROJECTS_DIR, origin_url, project_layer_dir, user_layer_dir
from ..results import Result
from ..session import Session
from ..text.names import normalize_name
from ..text.redact import redact
from ..tombstones.match import ID_FORM
from ..tombstones.stones import shared_bytes, stone_of
from ..vocabulary import SYNC_LAYERS, SYNC_OFFLINE_EXIT
from .team import Resolved, register_driver

USER = "user"  # the user layer's directory in the repository (a project's: projects/<key>)
TOMBSTONES = "tombstones"  # a layer's tombstones in the repository: one file per forgotten fact
PROJECT_FILE = sync_repo.PROJECT_FILE  # a project's identity in the repository
OFFLINE_EXIT = SYNC_OFFLINE_EXIT  # `memdir sync`'s exit code when the remote cannot be reached


# ---------------------------------------------------------------- results


@dataclass(frozen=True)
class SyncInit(Result):
    """The sync repository ``path`` made for ``remote`` and the ``layers`` chosen; ``merge_driver``:
    the field-by-field merge driver's command in its config."""

    path: str
    remote: str
    layers: tuple[str, ...]
    merge_driver: str | None = None


@dataclass(frozen=True)
class SyncReport(Result):
    """One ``memdir sync``: ``pushed`` (the remote has this machine's writes), ``offline`` (why the
    remote could not be reached: the local commit waits), ``exported``/``imported`` (files out and in,
    ``scope:name``), ``conflicts`` (``scope:name`` held back until resolved), ``not_synced`` (why a
    file or layer stays out: a secret, no repository identity), ``notes`` (recoveries, files skipped)."""

    pushed: bool
    offline: str | None = None
    exported: tuple[str, ...] = ()
    imported: tuple[str, ...] = ()
    conflicts: tuple[str, ...] = ()
    not_synced: tuple[str, ...] = ()
    notes: tuple[str, ...] = ()


@dataclass(frozen=True)
class SyncStatus(Result):
    """The sync state without the network: ``configured``; the ``remote`` and ``layers``; commits
    ``ahead``/``behind`` the remote as last fetched; ``last_sync`` (ISO-8601 UTC) and its ``outcome``;
    ``conflicts`` and ``not_synced`` as the last sync left them."""

    configured: bool
    path: str
    remote: str | None = None
    layers: tuple[str, ...] = ()
    ahead: int = 0
    behind: int = 0
    last_sync: str | None = None
    outcome: str | None = None
    error: str | None = None
    conflicts: tuple[str, ...] = ()
    not_synced: tuple[str, ...] = ()


# ---------------------------------------------------------------- remotes


# ---------------------------------------------------------------- the repository


# ---------------------------------------------------------------- which layers travel


@dataclass
class _Target:
    prefix: str  # "user" or "projects/<key>"
    layer: object  # memdir.layer.layer.Layer
    identity: dict = field(default_factory=dict)

    @property
    def scope(self) -> str:
        return self.layer.scope


def _targets(session: Session, repo: Path) -> tuple[list[_Target], list[str]]:
    """The live layers this machine syncs, each with its place in the repository, and why a project
    layer is left out (no repository identity, its project gone, another layer of the same repository)."""
    from ..layer.layer import Layer

    kinds = sync_repo.layers_of(repo)
    targets = [_Target(USER, Layer(user_layer_dir(session.home), "user", session.settings))]
    left = []
    if "projects" not in kinds:
        return targets, left
    candidates = []
    if session.project_root is not None:  # the session's project first: it wins a tie of one repository
        candidates.append((session.project_root, git.identity(session.project_root)))
    base = Path(session.home) / PROJECTS_DIR
    for path in sorted(base.iterdir()) if base.is_dir() else ():
        info = read_layer_info(path / META_DIR) or {}
        root = info.get("root")
        if not isinstance(root, str) or not Path(root).is_dir():
            left.append(f"project layer {path.name}: its project {root} is gone (memdir doctor)")
            continue
        found = {k: info[k] for k in ("remote", "first_commit") if info.get(k)} or git.identity(Path(root))
        candidates.append((Path(root), found))
    mirrored = sync_repo.mirrored_projects(repo)
    seen: list[dict] = []
    for root, found in candidates:
        layer_dir = project_layer_dir(session.home, root)
        if not found:
            if layer_dir.is_dir():
                left.append(f"project layer {layer_dir.name} ({root}): no git remote or commit identifies it")
            continue
        if any(sync_repo.same_repository(found, other) for other in seen):
            if layer_dir.is_dir() and root != session.project_root:
                left.append(f"project layer {layer_dir.name} ({root}): another checkout of the same repository "
                            "is synced")
            continue
        seen.append(found)
        prefix = next((p for p, info in mirrored.items() if sync_repo.same_repository(found, info)),
                      f"{PROJECTS_DIR}/{sync_repo.project_key(found)}")
        targets.append(_Target(prefix, Layer(layer_dir, "project", session.settings, root), found))
    return targets, left


def _live(target: _Target) -> tuple[dict[str, bytes], dict[str, str]]:
    """(path in the repository → bytes, name → the live file's digest) of a target layer's memory files and
    tombstones."""
    files, digests = {}, {}
    layer = target.layer
    if layer.path.is_dir():
        for name, entry in layer.scan().entries.items():
            data = read_bytes(entry.path)
            if data is not None:
                files[f"{target.prefix}/{name}.md"] = data
                digests[name] = digest(data)
        for stone in layer.tombstones():
            if ID_FORM.match(stone.id):  # a tombstone travels redacted: its digests still forget the value
                files[f"{target.prefix}/{TOMBSTONES}/{stone.id}.json"] = shared_bytes(
                    replace(stone, description=redact(stone.description).text))
    if target.identity:
        files[f"{target.prefix}/{PROJECT_FILE}"] = sync_repo.shared_identity(target.identity)
    return files, digests


def _refused(rel: str, kind: tuple[str, int] | None, max_bytes: int) -> str | None:
    """Why a path of a layer's directory in the merged tree (``rel``: ``name.md``, ``tombstones/<id>.json``,
    ``project.json``; ``kind``: its mode and size there, None when it is gone) is not taken into the live
    layer: a name the formats do not give (a path out of the layer, a name no memory has), a link or
    submodule, a file over ``max_file_bytes``. None: it may be taken."""
    if rel.endswith(".md") and "/" not in rel:
        try:
            if normalize_name(rel[:-3]).name != rel[:-3]:
                return "not a memory name"
        except InvalidName:
            return "not a memory name"
    elif rel.startswith(TOMBSTONES + "/") and rel.endswith(".json"):
        if not ID_FORM.match(rel[len(TOMBSTONES) + 1:-5]):
            return "not a tombstone id"
    elif rel != PROJECT_FILE:
        return "not a file of a memory layer"
    if kind is not None and kind[0] not in sync_repo.FILE_MODES:
        return "a symbolic link or a submodule, never followed"
    if kind is not None and kind[1] > max_bytes:
        return f"{kind[1]} bytes, over the {max_bytes}-byte ceiling of a memory file (max_file_bytes)"
    return None


def _secret(data: bytes) -> str | None:
    """The kinds of secret the gateway's redaction would take out of a memory file, or None."""
    found = redact(data.decode("utf-8", "replace"))
    return ", ".join(sorted(found.counts)) if found.total else None


# ---------------------------------------------------------------- init


def init(session: Session, remote: str, layers: str | None = None) -> SyncInit:
    """Make the sync repository for ``remote`` (a private git remote: URL or path) and the ``layers``
    chosen (:data:`SYNC_LAYERS`; None: ``user`` for a new repository, an existing one's unchanged), with the merge driver registered in its own config. A person only.
    Raises :class:`Refused` (not a person; a remote that is the project's own repository — the same
    normalized URL or path, or the same first commit when the remote can be read: personal memory must
    never land in a team's repository), :class:`InvalidInput` (layers), :class:`Conflict`-free
    :class:`StoreError` (already set up for another remote; git failing)."""
    if session.actor != "human":
        raise Refused("only a person sets up sync (memdir sync init)")
    if layers is None:
        known = sync_repo.repository(session.home)
        layers = ",".join(sync_repo.layers_of(known)) if (sync_repo.git_dir(known) / "HEAD").is_file() else USER
    if layers not in SYNC_LAYERS:
        raise InvalidInput(f"--layers must be one of {', '.join(SYNC_LAYERS)} (got {layers!r})")
    if not remote or remote.startswith("-") or remote != remote.strip():
        raise InvalidInput(f"not a git remote: {remote!r}")
    repo = sync_repo.repository(session.home)
    own = _own_repositories(session)
    wanted = sync_repo.normalize_remote(remote)
    sync_repo.refuse_own(own, remote)
    if (sync_repo.git_dir(repo) / "HEAD").is_file():
        there = origin_url(repo)
        if there and sync_repo.normalize_remote(there) != wanted:
            raise StoreError(f"sync is already set up with {there} ({repo}); to change it, run "
                             f"`git -C {repo} remote set-url origin {remote}`")
        _configure(repo, remote, layers)
        return SyncInit(str(repo), remote, tuple(layers.split(",")), git.local_config(repo, "merge.memdir.driver"))
    if repo.exists() and (not repo.is_dir() or any(repo.iterdir())):
        raise StoreError(f"{repo} exists and is not a sync repository; move it away first")
    ensure_dir(repo.parent)
    repo.mkdir(mode=0o700, exist_ok=True)
    os.chmod(repo, 0o700)  # the mode asked for, whatever the umask: personal memory, this user only
    try:
        git.run(repo, "init", "-q", "-b", sync_repo.BRANCH)
        _configure(repo, remote, layers)
        (repo / ".gitignore").write_text(sync_repo.IGNORED, encoding="utf-8")
        (repo / ".gitattributes").write_text(sync_repo.ATTRIBUTES, encoding="utf-8")
        git.run(repo, "add", ".gitignore", ".gitattributes")
        git.run(repo, "commit", "-q", "-m", "memdir sync: start")
        git.run(repo, "update-ref", sync_repo.SYNCED_REF, "HEAD")
        try:
            git.run(repo, "fetch", "-q", "origin")
            roots = set(git.run(repo, "rev-list", "--max-parents=0", "--remotes=origin").split())
        except StoreError:  # not reachable now: the URL check above stands; the first sync fetches
            roots = set()
        sync_repo.refuse_own(own, remote, roots)
    except BaseException:
        shutil.rmtree(repo, ignore_errors=True)  # made (or found empty) by this call: nothing else is in it
        raise
    return SyncInit(str(repo), remote, tuple(layers.split(",")), git.local_config(repo, "merge.memdir.driver"))


def _check_remote(session: Session, repo: Path, fetched: bool) -> None:
    """Before any merge or push of a sync: the remote must not be the session's project's repository or any
    project layer's (the URL now; with ``fetched``, the root commits it holds too), whatever it was when
    ``sync init`` ran (init may have run outside the project). A refusal is recorded as the last outcome
    and raised (:class:`Refused`)."""
    remote = origin_url(repo) or ""
    roots = set(git.run(repo, "rev-list", "--max-parents=0", "--remotes=origin").split()) if fetched else None
    try:
        sync_repo.refuse_own(_own_repositories(session), remote, roots)
    except Refused as exc:
        sync_repo.write_state(repo, {**sync_repo.read_state(repo), "outcome": "refused", "error": str(exc),
                                     "last_sync": now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")})
        raise


def _own_repositories(session: Session) -> list[tuple[Path, dict]]:
    """(root, identity) of the session's project and of every project layer the home has: repositories
    personal memory must not be pushed to."""
    found = []
    if session.project_root is not None:
        found.append((session.project_root, git.identity(session.project_root)))
    base = Path(session.home) / PROJECTS_DIR
    for path in sorted(base.iterdir()) if base.is_dir() else ():
        info = read_layer_info(path / META_DIR) or {}
        if isinstance(info.get("root"), str):
            found.append((Path(info["root"]), {k: info.get(k) for k in ("remote", "first_commit")}))
    return found


def _configure(repo: Path, remote: str, layers: str) -> None:
    if origin_url(repo) is None:
        git.run(repo, "remote", "add", "origin", remote)
    for key, value in (("memdir.layers", layers), ("user.name", f"memdir sync ({socket.gethostname()})"),
                       ("user.email", "memdir-sync@localhost"), ("commit.gpgsign", "false"),
                       ("merge.conflictStyle", "merge"), ("core.autocrlf", "false"),
                       ("core.sharedRepository", "0600")):  # what git makes in .git: this user only
        git.set_local_config(repo, key, value)
    register_driver(repo)
    sync_repo.force_attributes(repo)


# ---------------------------------------------------------------- sync


def sync(session: Session) -> SyncReport:
    """Export, commit, fetch, merge, import, push (see the module docstring). One sync at a time: a
    second waits for the first (at most ``lock_timeout`` seconds). Raises :class:`NotFound` (not set up),
    :class:`StoreError` (git failing other than by the network), :class:`LockTimeout`."""
    from filelock import FileLock, Timeout

    from ..errors import LockTimeout

    repo = sync_repo.configured(session.home)
    try:
        with FileLock(str(sync_repo.git_dir(repo) / sync_repo.LOCK_FILE), timeout=session.settings.lock_timeout):
            return _sync(session, repo)
    except Timeout:
        raise LockTimeout("another memdir sync is running in this home; try again when it is done") from None


def _sync(session: Session, repo: Path) -> SyncReport:
    state = sync_repo.read_state(repo)
    held: dict[str, str | None] = dict(state.get("held") or {})
    notes = sync_repo.recover(repo)
    sync_repo.force_attributes(repo)
    targets, left = _targets(session, repo)
    imported, exported, skipped = [], [], []
    head = sync_repo.rev(repo, "HEAD")
    if head != sync_repo.rev(repo, sync_repo.SYNCED_REF):  # a run stopped between its merge and its import: finish it
        imported += _import(repo, targets, sync_repo.rev(repo, sync_repo.SYNCED_REF), head, held, notes)
    _check_remote(session, repo, fetched=False)
    exported, skipped = _export(repo, targets, held)
    offline, pushed = None, False
    for attempt in range(2):
        try:
            git.run(repo, "fetch", "-q", "origin")
        except StoreError as exc:
            offline = str(exc)
            break
        _check_remote(session, repo, fetched=True)
        before = sync_repo.rev(repo, "HEAD")
        sync_repo.merge_remote(repo, notes)
        imported += _import(repo, targets, before, sync_repo.rev(repo, "HEAD"), held, notes)
        try:
            git.run(repo, "push", "-q", "origin", f"HEAD:refs/heads/{sync_repo.BRANCH}")
            pushed = True
            break
        except StoreError as exc:
            said = getattr(exc, "stderr", None) or str(exc)  # git's whole message: its last line is a hint
            if any(mark in said for mark in sync_repo.PUSH_RACE):
                if attempt == 0:
                    notes.append("the remote moved during the sync (another machine pushed): merged again")
                    continue
                notes.append("the remote moved again during the sync: the local commit waits for the next sync")
            elif any(mark in said.lower() for mark in sync_repo.UNREACHABLE):
                offline = str(exc)
            else:
                notes.append(f"the remote refused the push: {said.splitlines()[-1] if said else exc}")
            break
    conflicts = tuple(sorted(_label(path) for path in held))
    sync_repo.write_state(repo, {"last_sync": now_utc().strftime("%Y-%m-%dT%H:%M:%SZ"),
                        "outcome": "offline" if offline else ("conflicts" if held else "synced"),
                        "error": offline, "held": held, "not_synced": [*skipped, *left]})
    return SyncReport(pushed, offline, tuple(exported), tuple(dict.fromkeys(imported)), conflicts,
                      tuple([*skipped, *left]), tuple(notes))


def _label(path: str) -> str:
    """``scope:name`` of a memory file's path in the repository (``user/x.md`` → ``user:x``,
    ``projects/<key>/x.md`` → ``project:x``); other paths as they are."""
    parts = path.split("/")
    if path.endswith(".md") and parts[0] == USER and len(parts) == 2:
        return f"user:{parts[1][:-3]}"
    if path.endswith(".md") and parts[0] == PROJECTS_DIR and len(parts) == 3:
        return f"project:{parts[2][:-3]}"
    return path


def _export(repo: Path, targets: list[_Target], held: dict) -> tuple[list[str], list[str]]:
    """Copy each live file that differs from HEAD into the work tree and commit them: (``scope:name`` or
    tombstone paths exported, why files were not)."""
    tree = sync_repo.tree(repo, sync_repo.rev(repo, "HEAD"))
    exported, skipped = [], []
    for target in targets:
        live, _ = _live(target)
        mine = {path for path in tree if path.startswith(target.prefix + "/")}
        for path in sorted(set(live) | mine):
            data = live.get(path)
            sha = sync_repo.blob_id(data)
            if sha == tree.get(path) or (path in held and held[path] == sha):
                continue  # unchanged, or a conflict held back while this machine's version is unchanged
            if path.endswith(PROJECT_FILE) and data is None:
                continue
            if data is not None and (kinds := _secret(data)):  # every file committed, tombstones too
                skipped.append(f"{_label(path)}: holds what looks like a secret ({kinds}); not synced "
                               "— remove it from the file (memdir write rewrites it redacted)")
                continue
            where = sync_repo.inside(repo, path)
            if where is None:
                skipped.append(f"{path}: a link or another non-file is on its way in the sync repository; "
                               "not written (memdir writes only inside it)")
                continue
            held.pop(path, None)
            if data is None:
                where.unlink(missing_ok=True)
            else:
                ensure_dir(where.parent)
                atomic_write(where, data, sync_dir=False)
            exported.append(_label(path))
    git.run(repo, "add", "-A", "--", ".")
    if git.run(repo, "diff", "--cached", "--name-only").strip():
        git.run(repo, "commit", "-q", "-m", f"memdir sync: {len(exported)} change(s) from {socket.gethostname()}")
    return exported, skipped


def _import(repo: Path, targets: list[_Target], base: str | None, head: str | None, held: dict,
            notes: list[str]) -> list[str]:
    """Bring what changed from ``base`` to ``head`` into the live layers (:func:`memdir.gateway.synced.apply`),
    then record ``head`` as synced. Returns ``scope:name`` of what was written or deleted."""
    if head is None:
        return []
    old, new = sync_repo.tree(repo, base), sync_repo.tree(repo, head)
    kinds = sync_repo.entries(repo, head)
    changed = {path for path in set(old) | set(new) if old.get(path) != new.get(path)}
    changed |= set(held)
    brought = []
    for target in targets:
        prefix = target.prefix + "/"
        mine = sorted(path for path in changed if path.startswith(prefix))
        if not mine:
            continue
        live, digests = _live(target)
        files, added, lifted = [], [], []
        for path in mine:
            rel = path[len(prefix):]
            if why := _refused(rel, kinds.get(path), target.layer.settings.max_file_bytes):
                notes.append(f"{path}: not taken in: {why}")
                continue
            theirs = sync_repo.show(repo, head, path) if path in new else None
            if rel.startswith(TOMBSTONES + "/") and rel.endswith(".json"):
                if theirs is not None:
                    try:
                        stone = stone_of(json.loads(theirs))
                        if stone.id != rel[len(TOMBSTONES) + 1:-5]:
                            raise ValueError(f"its id {stone.id!r} is not its file name")
                        if normalize_name(stone.name).name != stone.name:
                            raise ValueError(f"{stone.name!r} is not a memory name")
                        added.append(stone)
                    except (ValueError, InvalidName) as exc:
                        notes.append(f"{path}: not taken in: not a readable tombstone ({exc})")
                elif path in old:
                    lifted.append(Path(rel).stem)
                continue
            if not rel.endswith(".md") or "/" in rel:
                continue
            name, mine_now = rel[:-3], live.get(path)
            if theirs is not None and has_conflict(theirs):
                if path not in held:
                    held[path] = sync_repo.blob_id(mine_now)  # this machine's version stays until the person resolves
                continue
            if path in held:  # the other machine settled it: take theirs
                del held[path]
                files.append(synced.Incoming(name, theirs, digests.get(name)))
                continue
            before = sync_repo.show(repo, base, path) if path in old else None
            if mine_now == theirs:
                continue
            if mine_now == before:
                files.append(synced.Incoming(name, theirs, digests.get(name)))
            elif mine_now is not None and theirs is not None:  # changed here after a stopped run's merge
                merged = merge_rules.merge(before or b"", mine_now, theirs)
                if merged.conflicts:
                    notes.append(f"{_label(path)}: changed here and there; this machine's version is "
                                 "kept (the other is in the sync repository's history)")
                else:
                    files.append(synced.Incoming(name, merged.data, digests.get(name)))
        if files or added or lifted:
            done = synced.apply(target.layer, files, added, lifted, label="another machine (memdir sync)")
            brought += [f"{target.scope}:{name}" for name in (*done.written, *done.deleted, *done.forgotten)]
            notes += [f"{target.scope}:{line}" for line in done.skipped]
    git.run(repo, "update-ref", sync_repo.SYNCED_REF, head)
    return brought


# ---------------------------------------------------------------- status and resolve


def status(session: Session) -> SyncStatus:
    """The sync state as this machine knows it, without the network (see :class:`SyncStatus`). Never raises
    for a home without sync (``configured`` False)."""
    repo = sync_repo.repository(session.home)
    if not (sync_repo.git_dir(repo) / "HEAD").is_file():
        return SyncStatus(False, str(repo))
    state = sync_repo.read_state(repo)
    ahead = behind = 0
    try:
        if sync_repo.rev(repo, f"refs/remotes/origin/{sync_repo.BRANCH}"):
            counts = git.run(repo, "rev-list", "--left-right", "--count", f"HEAD...origin/{sync_repo.BRANCH}").split()
            ahead, behind = int(counts[0]), int(counts[1])
        else:
            ahead = int(git.run(repo, "rev-list", "--count", "HEAD").strip() or 0)
    except (StoreError, ValueError, IndexError):
        pass
    labels = [_label(path) for path in sorted(state.get("held") or {})]
    return SyncStatus(True, str(repo), origin_url(repo), sync_repo.layers_of(repo), ahead, behind, state.get("last_sync"),
                      state.get("outcome"), state.get("error"), tuple(labels), tuple(state.get("not_synced") or ()))


def summary(session: Session) -> str:
    """The one line ``memdir status`` and ``doctor`` show of sync (``""`` when it is not set up)."""
    try:
        found = status(session)
    except (StoreError, OSError):
        return ""
    if not found.configured:
        return ""
    line = (f"{found.remote} ({','.join(found.layers)}) — last sync {found.last_sync or 'never'}"
            f"{' (' + found.outcome + ')' if found.outcome else ''}, {found.ahead} ahead, {found.behind} behind")
    if found.conflicts:
        line += f", {len(found.conflicts)} conflict(s): {', '.join(found.conflicts)} (memdir sync resolve NAME)"
    if found.not_synced:
        line += f", {len(found.not_synced)} not synced (memdir sync status)"
    return line


def resolve(session: Session, name: str, scope: str = "user", side: str | None = None,
            fields: dict[str, str] | None = None) -> Resolved:
    """Settle a sync conflict of memory ``name`` in the ``scope`` layer (``user`` | ``project``): each
    conflicting field takes ``fields``' side (``{"description": "theirs"}``; ``body`` is the body), the
    others ``side`` (:func:`memdir.files.merge.resolve_fields`); written through the gateway as a
    ``resolve`` event, and pushed by the next sync. A person only. Raises :class:`NotFound` (no such
    conflict), :class:`InvalidInput` (a field left without a side: the conflicting fields named), :class:`Refused`."""
    if session.actor != "human":
        raise Refused("only a person settles a sync conflict (memdir sync resolve)")
    if scope not in ("user", "project"):
        raise InvalidInput(f"--scope must be user or project (got {scope!r})")
    repo = sync_repo.configured(session.home)
    key = normalize_name(name).name
    state = sync_repo.read_state(repo)
    held = dict(state.get("held") or {})
    targets, _ = _targets(session, repo)
    target = next((t for t in targets if t.scope == scope), None)
    path = f"{target.prefix}/{key}.md" if target is not None else None
    if path is None or path not in held:
        raise NotFound(f"no sync conflict for {key!r} in the {scope} layer (memdir sync status lists them)")
    data = sync_repo.show(repo, "HEAD", path) or b""
    if side is None and not fields:
        found = ", ".join(dict.fromkeys(f or "several fields at once" for f in merge_rules.conflicting_fields(data)))
        raise InvalidInput(f"{key} conflicts in: {found}; choose: memdir sync resolve {key} --scope {scope} "
                           "--field FIELD=ours|theirs (per field), or --ours|--theirs (every hunk)")
    try:
        chosen = merge_rules.resolve_fields(data, fields or {}, side)
    except ValueError as exc:
        raise InvalidInput(f"cannot resolve {key}: {exc}; nothing was changed") from None
    _, digests = _live(target)
    done = synced.apply(target.layer, [synced.Incoming(key, chosen, digests.get(key))], action="resolve",
                        label="a resolved sync conflict")
    if done.skipped:
        raise Refused(f"cannot resolve {key}: {done.skipped[0]}")
    del held[path]
    sync_repo.write_state(repo, {**state, "held": held})
    return Resolved(key, side, str(target.layer.path / f"{key}.md"), digest(chosen),
                    tuple(sorted((fields or {}).items())))


__all__ = ["OFFLINE_EXIT", "SyncInit", "SyncReport", "SyncStatus", "init", "normalize_remote",
           "repository", "resolve", "status", "summary", "sync"]
