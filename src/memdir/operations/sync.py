"""A person's memory on every machine, through a private git remote (DESIGN §11, issue 27).

``memdir sync init REMOTE`` makes the sync repository, ``$MEMDIR_HOME/sync`` (0700): a git work tree
memdir alone writes, holding a copy of the layers chosen (``--layers user`` or ``user,projects``):

``user/<name>.md``, ``user/tombstones/<id>.json``
    the user layer's memory files, and one file per forgotten fact
    (:func:`memdir.tombstones.stones.sync_bytes`, who forgot it, when and why included; the same fact
    forgotten on two machines is one id, and the sync never sends one the repository has; the live
    layer keeps its ``tombstones.json``, so no store changes format);
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

1. the remote is checked first: never the project's own repository nor any project layer's (its URL,
   and after each fetch the root commits it holds; a refusal is recorded and raised); a pushed
   ``.gitattributes`` never turns the field merge off (``.git/info/attributes`` overrides it); files
   changed by hand in the work tree are saved aside in ``.git/memdir-saved/`` before it is reset;
2. a layer seen here for the first time takes in what the repository has (never sends a deletion), and
   a layer whose base (:mod:`memdir.operations.carry`: the commit it last matched) is behind HEAD —
   a run killed between its merge and its import — takes in the rest; a stale ``index.lock`` or a
   merge cut in the middle is cleared first;
3. export: each live change since the layer's base is copied in (a file the gateway's redaction would
   change — a secret planted by hand — is not, and is reported; tombstones travel redacted; a file
   missing here is a deletion only if the layer had it at its base and the import did not refuse it; a
   tombstone goes only when a person lifted it; nothing is written through a link), then committed: the
   local writes are in git before anything goes to the network;
4. fetch and merge ``origin/main`` with the team layer's field-by-field driver
   (:mod:`memdir.files.merge`); a field both machines changed keeps its markers in the commit;
5. import what the merge changed through the gateway (:func:`memdir.gateway.synced.apply`) — what
   another clone may push is checked first (:func:`memdir.operations.carry.refusal`: a name the formats
   do not give, a link or submodule, a file over ``max_file_bytes`` is not taken in, noted, and left in
   the repository) — move each layer's base, and export again what the gateway refused or forgot; a
   file with conflict markers is never written into a layer: the layer keeps this machine's version, the
   conflict is reported (exit :data:`CONFLICT_EXIT`) until ``memdir sync resolve NAME --field
   FIELD=ours|theirs`` settles it (``ours``: this machine's value, on every machine);
6. push; a push refused as not a fast-forward (git's whole stderr tells: the other machine pushed in
   between) goes back to 4 once. An unreachable remote is :attr:`SyncReport.offline`, not an error: the
   local commit waits; another refusal is a note.

A SIGKILL anywhere loses nothing: the live layers are never changed before their new state is
committed, and git's refs, index and objects are replaced atomically; the next run starts from
step 2. Credentials are git's own (ssh agent, credential helper; never a prompt).
"""

from __future__ import annotations

import os
import shutil
import socket
from dataclasses import dataclass
from pathlib import Path

from .. import git
from ..errors import InvalidInput, NotFound, Refused, StoreError
from ..files import merge as merge_rules
from ..files import repository as sync_repo
from ..files.fsio import digest, ensure_dir
from ..files.layout import META_DIR, read_layer_info
from ..gateway import synced
from ..gitfiles import origin_url
from ..layer.journal import now_utc
from ..paths import PROJECTS_DIR
from ..results import Result
from ..session import Session
from ..text.names import normalize_name
from ..vocabulary import SYNC_CONFLICT_EXIT, SYNC_LAYERS, SYNC_OFFLINE_EXIT
from . import carry as transfer
from . import contested
from .carry import Change, NotSynced
from .contested import SyncConflict
from .team import Resolved, register_driver

USER = transfer.USER
OFFLINE_EXIT = SYNC_OFFLINE_EXIT  # `memdir sync`'s exit code when the remote cannot be reached
CONFLICT_EXIT = SYNC_CONFLICT_EXIT  # `memdir sync`'s exit code when conflicts wait for the person
# How a sync ended (SyncReport.outcome, SyncStatus.outcome; "refused": the remote is a project's repository,
# a Refused raised, so only SyncStatus shows it)
OUTCOMES = ("synced", "conflicts", "offline", "refused")


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
    """One ``memdir sync``: ``outcome`` (:data:`OUTCOMES`), ``pushed`` (this run pushed commits to the
    remote), ``offline`` (why the remote could not be reached), ``waiting`` (commits made here the remote
    does not have yet), ``exported``/``imported`` (``scope:name`` of the files out and in), ``sent`` and
    ``received`` (each change with its kind: :data:`memdir.operations.carry.CHANGES`), ``conflicts``
    (held back until resolved, each field with both values), ``not_synced`` (what stays out and why),
    ``notes`` (recoveries, files skipped), ``delivered`` (files committed by earlier runs that could not
    reach the remote, sent by this one: repository paths)."""

    outcome: str
    pushed: bool
    offline: str | None = None
    waiting: int = 0
    exported: tuple[str, ...] = ()
    imported: tuple[str, ...] = ()
    sent: tuple[Change, ...] = ()
    received: tuple[Change, ...] = ()
    conflicts: tuple[SyncConflict, ...] = ()
    not_synced: tuple[NotSynced, ...] = ()
    notes: tuple[str, ...] = ()
    delivered: tuple[str, ...] = ()


@dataclass(frozen=True)
class SyncStatus(Result):
    """The sync state without the network: ``configured``; the ``remote`` and ``layers``; commits
    ``ahead``/``behind`` the remote as last fetched and ``unsent``, the files changed here the remote
    does not have (live changes not exported yet and those in commits not pushed); ``last_sync`` (the last
    run that reached the remote, ISO-8601 UTC), ``last_attempt`` and its ``outcome`` and ``error``;
    ``conflicts`` and ``not_synced`` as the last sync left them."""

    configured: bool
    path: str
    remote: str | None = None
    layers: tuple[str, ...] = ()
    ahead: int = 0
    behind: int = 0
    unsent: int = 0
    last_sync: str | None = None
    last_attempt: str | None = None
    outcome: str | None = None
    error: str | None = None
    conflicts: tuple[SyncConflict, ...] = ()
    not_synced: tuple[NotSynced, ...] = ()


# ---------------------------------------------------------------- init


def init(session: Session, remote: str, layers: str | None = None) -> SyncInit:
    """Make the sync repository for ``remote`` (a private git remote: URL or path) and the ``layers``
    chosen (:data:`SYNC_LAYERS`; None: ``user`` for a new repository, an existing one's unchanged), with
    the merge driver registered in its own config. A person only.
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
        raise InvalidInput(f"{{argument}} must be one of {', '.join(SYNC_LAYERS)} (got {layers!r})", argument="layers")
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
        (repo / ".gitattributes").write_text(merge_rules.ATTRIBUTE + "\n", encoding="utf-8")
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
                                     "last_attempt": _stamp()})
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


def _stamp() -> str:
    return now_utc().strftime("%Y-%m-%dT%H:%M:%SZ")


def _sync(session: Session, repo: Path) -> SyncReport:
    state = sync_repo.read_state(repo)
    held = contested.held_of(state)
    bases: dict[str, str] = {k: v for k, v in (state.get("bases") or {}).items() if isinstance(v, str)}
    notes = sync_repo.recover(repo)
    sync_repo.force_attributes(repo)  # a pushed .gitattributes never turns the field merge off here
    targets, left = transfer.targets(session, repo)
    _check_remote(session, repo, fetched=False)  # before anything is committed for the remote
    received: list[Change] = []

    def save_bases() -> None:  # kept as it moves: a killed run loses no layer's base
        sync_repo.write_state(repo, {**sync_repo.read_state(repo), "bases": bases,
                                     "held": held})

    head = sync_repo.rev(repo, "HEAD")
    for target in targets:  # a layer seen here for the first time takes in what the repository has first
        if target.prefix not in bases:
            received += transfer.adopt(repo, target, held, notes)
            bases[target.prefix] = head
        elif bases[target.prefix] != head:  # a run stopped between its merge and its import: finish it
            received += transfer.import_changes(repo, target, bases[target.prefix], head, held, notes)
            bases[target.prefix] = head
    save_bases()
    earlier = set(_files_waiting(repo))  # committed by a run that could not push: delivered if this one does
    sent, skipped = transfer.export(repo, targets, held, bases)
    _advance(repo, targets, bases, head)
    offline, pushed, delivered = None, False, []
    for attempt in range(2):
        try:
            git.run(repo, "fetch", "-q", "origin")
        except StoreError as exc:
            offline = str(exc)
            break
        _check_remote(session, repo, fetched=True)
        before = sync_repo.rev(repo, "HEAD")
        made_here = set(sync_repo.merge_remote(repo, notes))
        after = sync_repo.rev(repo, "HEAD")
        if after != before:
            for target in targets:
                received += transfer.import_changes(repo, target, bases[target.prefix], after, held, notes, made_here)
                bases[target.prefix] = after
            save_bases()
            more, more_skipped = transfer.export(repo, targets, held, bases)  # what the import refused or forgot
            sent += more
            skipped += [s for s in more_skipped if s not in skipped]
            _advance(repo, targets, bases, after)
        if _remote_has(repo, "HEAD"):
            break
        waiting = _files_waiting(repo)
        try:
            git.run(repo, "push", "-q", "origin", f"HEAD:refs/heads/{sync_repo.BRANCH}")
            delivered = [p for p in waiting if p in earlier and not p.endswith(transfer.PROJECT_FILE)]
            pushed = True
            break
        except StoreError as exc:
            whole = getattr(exc, "stderr", None) or str(exc)  # git's whole stderr: its last line may be a hint
            if any(mark in whole for mark in sync_repo.PUSH_RACE):
                if attempt == 0:
                    notes.append("the remote moved during the sync (another machine pushed): merged again")
                    continue
                notes.append("the remote moved again during the sync: the local commit waits for the next sync")
            elif any(mark in whole.lower() for mark in sync_repo.UNREACHABLE):
                offline = str(exc)
            else:  # the error's own message is git.said(): the fatal/error lines, not the closing hint
                notes.append(f"the remote refused the push ({exc}); the local commit waits for the next sync")
            break
    git.run(repo, "update-ref", sync_repo.SYNCED_REF, "HEAD")
    conflicts = tuple(contested.conflict_of(repo, path, held) for path in sorted(held))
    outcome = "offline" if offline else ("conflicts" if held else "synced")
    stamp = _stamp()
    previous = sync_repo.read_state(repo)
    not_synced = [*skipped, *left]
    sync_repo.write_state(repo, {**previous, "last_attempt": stamp,
                                 "last_sync": previous.get("last_sync") if offline else stamp,
                                 "outcome": outcome, "error": offline, "held": held, "bases": bases,
                                 "not_synced": [item.to_dict() for item in not_synced]})
    return SyncReport(outcome, pushed, offline, _ahead(repo), tuple(f"{c.layer}:{c.name}" for c in sent),
                      tuple(dict.fromkeys(f"{c.layer}:{c.name}" for c in received)), tuple(sent),
                      tuple(received), conflicts, tuple(not_synced), tuple(notes), tuple(delivered))


def _files_waiting(repo: Path) -> list[str]:
    """The repository paths HEAD changed that the remote (as last fetched) does not have."""
    theirs = sync_repo.rev(repo, f"refs/remotes/origin/{sync_repo.BRANCH}")
    try:
        listed = (git.run(repo, "diff", "--name-only", "-z", f"{theirs}...HEAD") if theirs
                  else git.run(repo, "ls-tree", "-r", "-z", "--name-only", "HEAD"))
    except StoreError:
        return []
    return [p for p in listed.split("\0") if p and not p.startswith(".")]


def _advance(repo: Path, targets: list, bases: dict[str, str], before: str | None) -> None:
    """Move the bases of the layers that matched ``before`` to HEAD after an export's commit (the layer is
    what it just sent)."""
    head = sync_repo.rev(repo, "HEAD")
    for target in targets:
        if bases.get(target.prefix) == before:
            bases[target.prefix] = head


def _remote_has(repo: Path, ref: str) -> bool:
    """Whether the remote (as last fetched) already has ``ref``'s commit: nothing to push."""
    theirs = sync_repo.rev(repo, f"refs/remotes/origin/{sync_repo.BRANCH}")
    if theirs is None:
        return False
    try:
        git.run(repo, "merge-base", "--is-ancestor", ref, theirs)
        return True
    except StoreError:
        return False


def _ahead(repo: Path) -> int:
    """Commits made here that the remote (as last fetched) does not have."""
    try:
        if sync_repo.rev(repo, f"refs/remotes/origin/{sync_repo.BRANCH}"):
            return int(git.run(repo, "rev-list", "--count", f"origin/{sync_repo.BRANCH}..HEAD").strip() or 0)
        return int(git.run(repo, "rev-list", "--count", "HEAD").strip() or 0)
    except (StoreError, ValueError):
        return 0


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
    held = contested.held_of(state)
    conflicts = tuple(contested.conflict_of(repo, path, held) for path in sorted(held))
    not_synced = tuple(NotSynced(**item) if isinstance(item, dict) else NotSynced(str(item), "", "")
                       for item in state.get("not_synced") or ())
    return SyncStatus(True, str(repo), origin_url(repo), sync_repo.layers_of(repo), ahead, behind,
                      _unsent(session, repo, state), state.get("last_sync"), state.get("last_attempt"),
                      state.get("outcome"), state.get("error"), conflicts, not_synced)


def _unsent(session: Session, repo: Path, state: dict) -> int:
    """Files changed here that the remote (as last fetched) does not have: live memory files and tombstones
    that differ from HEAD (since their layer's base), and files changed by commits not pushed."""
    bases = state.get("bases") or {}
    held = contested.held_of(state)
    head = sync_repo.rev(repo, "HEAD")
    tree = sync_repo.tree(repo, head)
    paths: set[str] = set()
    try:
        targets, _ = transfer.targets(session, repo)
    except (StoreError, OSError):
        targets = []
    kinds = sync_repo.entries(repo, head)
    for target in targets:
        files, _ = transfer.live(target)
        had = set(sync_repo.tree(repo, bases.get(target.prefix))) if bases.get(target.prefix) else set()
        for path in set(files) | {p for p in tree if p.startswith(target.prefix + "/")}:
            data = files.get(path)
            if sync_repo.blob_id(data) == tree.get(path) or path.endswith(transfer.PROJECT_FILE):
                continue
            if path in held and held[path].get("mine") == sync_repo.blob_id(data):
                continue  # a conflict held back while this machine's version is unchanged: nothing to send
            if data is None and (path not in had or transfer.refusal(
                    path[len(target.prefix) + 1:], kinds.get(path), target.layer.settings.max_file_bytes)):
                continue  # not this layer's yet, or refused on import: never a deletion to send
            if data is not None and path in tree and "/" + transfer.TOMBSTONES + "/" in path:
                continue
            paths.add(path)
    theirs = sync_repo.rev(repo, f"refs/remotes/origin/{sync_repo.BRANCH}")
    try:
        listed = git.run(repo, "diff", "--name-only", "-z", f"{theirs}...HEAD") if theirs else \
            "\0".join(p for p in tree if not p.startswith("."))
        paths |= {p for p in listed.split("\0") if p and not p.startswith(".")}
    except StoreError:
        pass
    return len(paths)


def summary(session: Session) -> str:
    """The one line ``memdir status`` and ``doctor`` show of sync (``""`` when it is not set up)."""
    try:
        found = status(session)
    except (StoreError, OSError):
        return ""
    if not found.configured:
        return ""
    line = (f"{found.remote} ({','.join(found.layers)}) — last sync {found.last_sync or 'never'}"
            f"{' (last attempt: ' + found.outcome + ')' if found.outcome else ''}, {found.unsent} change(s) not yet "
            f"sent, {found.behind} behind")
    if found.conflicts:
        line += (f", {len(found.conflicts)} conflict(s): "
                 f"{', '.join(c.layer + ':' + c.name for c in found.conflicts)} (memdir sync resolve NAME)")
    if found.not_synced:
        line += f", {len(found.not_synced)} not synced (memdir sync status)"
    return line


def conflicted(session: Session) -> set[tuple[str, str]]:
    """``(layer, name)`` of each memory a sync conflict holds back (``set()`` without sync). Never raises."""
    repo = sync_repo.repository(session.home)
    try:
        state = sync_repo.read_state(repo) if (sync_repo.git_dir(repo) / "HEAD").is_file() else {}
    except (StoreError, OSError):
        return set()
    return {tuple(transfer.label(path).split(":", 1)) for path in contested.held_of(state)
            if ":" in transfer.label(path)}


def show_conflict(session: Session, name: str, scope: str = "user") -> SyncConflict:
    """The sync conflict of memory ``name`` in ``scope``: each conflicting field with this machine's value and
    the other machine's. Raises :class:`NotFound` (no such conflict)."""
    repo, path, held, _ = _held_path(session, name, scope)
    return contested.conflict_of(repo, path, held)


def _held_path(session: Session, name: str, scope: str):
    if scope not in ("user", "project"):
        raise InvalidInput(f"{{argument}} must be user or project (got {scope!r})", argument="scope")
    repo = sync_repo.configured(session.home)
    key = normalize_name(name).name
    held = contested.held_of(sync_repo.read_state(repo))
    found, _ = transfer.targets(session, repo)
    target = next((t for t in found if t.scope == scope), None)
    path = f"{target.prefix}/{key}.md" if target is not None else None
    if path is None or path not in held:
        raise NotFound(f"no sync conflict for {key!r} in the {scope} layer (memdir sync status lists them)")
    return repo, path, held, target


def resolve(session: Session, name: str, scope: str = "user", side: str | None = None,
            fields: dict[str, str] | None = None) -> Resolved:
    """Settle a sync conflict of memory ``name`` in the ``scope`` layer (``user`` | ``project``): each
    conflicting field takes ``fields``' side (``{"description": "theirs"}``; ``body`` is the body), the
    others ``side``; ``ours`` is always this machine's value and ``theirs`` the other machine's, whichever
    machine's merge wrote the markers (:func:`memdir.operations.contested.marker_side`). Written through
    the gateway as a ``resolve`` event, and pushed by the next sync. A person only. Raises :class:`NotFound`
    (no such conflict), :class:`InvalidInput` (a field left without a side: the conflicting fields named, with
    both values), :class:`Refused`."""
    if session.actor != "human":
        raise Refused("only a person settles a sync conflict (memdir sync resolve)")
    repo, path, held, target = _held_path(session, name, scope)
    key = normalize_name(name).name
    if held[path].get("side") == "neither":
        raise Refused(f"{key}: two other machines changed it differently and this machine changed neither side, "
                      "so neither is 'ours' here; resolve it on one of those machines (this machine keeps its own "
                      "version meanwhile and takes the resolved one at its next sync)")
    data = sync_repo.show(repo, "HEAD", path) or b""
    if side is None and not fields:
        shown = contested.conflict_of(repo, path, held)
        both = "; ".join(f"{f.field or 'several fields at once'}: this machine {f.this_machine!r}, other machine "
                         f"{f.other_machine!r}" for f in shown.fields)
        raise InvalidInput(f"{key} conflicts in {both}; choose: memdir sync resolve {key} --scope {scope} "
                           "--field FIELD=ours|theirs (ours: this machine's value), or --ours|--theirs (every field)")
    marked = {f: contested.marker_side(held, path, s) for f, s in (fields or {}).items()}
    try:
        chosen = merge_rules.resolve_fields(data, marked, contested.marker_side(held, path, side) if side else None)
    except ValueError as exc:
        raise InvalidInput(f"cannot resolve {key}: {exc}; nothing was changed") from None
    _, digests = transfer.live(target)
    done = synced.apply(target.layer, [synced.Incoming(key, chosen, digests.get(key))], action="resolve",
                        label="a resolved sync conflict")
    if done.skipped:
        raise Refused(f"cannot resolve {key}: {done.skipped[0]}")
    del held[path]
    state = sync_repo.read_state(repo)
    sync_repo.write_state(repo, {**state, "held": held})
    return Resolved(key, side, str(target.layer.path / f"{key}.md"), digest(chosen),
                    tuple(sorted((fields or {}).items())))


__all__ = ["CONFLICT_EXIT", "OFFLINE_EXIT", "OUTCOMES", "SyncInit", "SyncReport", "SyncStatus", "conflicted", "init",
           "resolve", "show_conflict", "status", "summary", "sync"]
