"""The person's sync repository on disk: where it is, what it holds, git's plumbing in it (DESIGN §11).

The rules of a sync — which layers travel, what is exported and imported, when it pushes — are
:mod:`memdir.operations.sync`; this module is what that porcelain stands on: the repository's paths
and names (``sync/`` in the home, the branch, :data:`SYNCED_REF`: the commit the live layers
last matched), a remote URL normalized (:func:`normalize_remote`) and a project's identity as a
directory name (:func:`project_key`), the few git commands it runs (every one through
:func:`memdir.git.run`, imported by the functions that run git: a write reads the state file alone), the state
file in ``.git`` (:func:`read_state`), the recovery after a
stopped run (:func:`recover`) and the merge of the other machines' commits (:func:`merge_remote`).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import stat
from pathlib import Path

from ..errors import NotFound, Refused, StoreError
from ..paths import PROJECTS_DIR, sync_dir
from .fsio import atomic_write, read_bytes, read_foreign

BRANCH = "main"
PROJECT_FILE = "project.json"  # a project's identity in the repository (shared_identity)
SYNCED_REF = "refs/memdir/synced"  # the commit the live layers last matched
STATE_FILE = "memdir-sync.json"  # in the repository's .git: last sync, conflicts held, files not synced
LOCK_FILE = "memdir-sync.lock"  # in .git: one sync at a time
IGNORED = "# derived on each machine, never synced (memdir sync)\nMEMORY.md\n.memdir/\n*.tmp\n"
STALE_LOCKS = ("index.lock", "HEAD.lock", "packed-refs.lock", "config.lock")
FILE_MODES = ("100644", "100755")  # what a tree entry the sync takes in may be: a regular file (no link, no submodule)
PROJECT_KEY = re.compile(r"^[a-z0-9-]{1,40}-[0-9a-f]{12}$")  # projects/<key> (project_key)
UNREACHABLE = ("could not read from remote", "unable to access", "does not appear to be a git repository",
               "could not resolve host", "connection refused", "connection timed out", "timed out",
               "network is unreachable", "no route to host")  # git's words for a remote it cannot reach
PUSH_RACE = ("non-fast-forward", "fetch first", "[rejected]", "failed to push some refs")  # what git says when the remote moved


# ---------------------------------------------------------------- remotes and identities


_SCHEME = re.compile(r"^[A-Za-z][A-Za-z0-9+.-]*://")
_SCP = re.compile(r"^(?:[^@/]+@)?(?P<host>[^/:]{2,}):(?P<path>.*)$")


CASELESS_HOSTS = ("github.com", "gitlab.com", "bitbucket.org")  # hosts whose repository paths ignore case
_HOST_ALIASES = {"ssh.github.com": "github.com", "altssh.gitlab.com": "gitlab.com",
                 "altssh.bitbucket.org": "bitbucket.org"}  # the ssh-over-443 names of those hosts


def normalize_remote(url: str) -> str:
    """``url`` as one spelling per repository, to compare two remotes: the host in lower case (without
    ``www.``, the ssh-over-443 name of a known host as the host) and the path, without a user, port,
    scheme, doubled or trailing ``/`` or ``.git`` in any case; the path in lower case too on the hosts of
    :data:`CASELESS_HOSTS` (``git@github.com:o/app.git``, ``ssh://git@ssh.github.com:443/O/App.GIT`` and
    ``https://www.github.com//o/app`` are all ``github.com/o/app``); a local path resolved (``file://``
    too, a checkout's ``.git`` standing for the checkout)."""
    text = url.strip()
    host = None
    if _SCHEME.match(text) and not text.lower().startswith("file://"):
        from urllib.parse import urlsplit

        parts = urlsplit(text)
        host, path = (parts.hostname or "").lower(), parts.path
    elif (scp := _SCP.match(text)) and not text.lower().startswith("file:"):
        host, path = scp.group("host").lower(), scp.group("path")
    if host is not None:
        host = host[4:] if host.startswith("www.") else host
        host = _HOST_ALIASES.get(host, host)
        path = re.sub(r"/+", "/", path).strip("/")
        found = f"{host}/{path.lower() if host in CASELESS_HOSTS else path}"
    else:
        local = text[len("file://"):] if text.lower().startswith("file://") else text
        found = os.path.realpath(os.path.expanduser(local))
    found = found.rstrip("/")
    for suffix in ("/.git", ".git"):
        if found.lower().endswith(suffix):
            found = found[: -len(suffix)]
    return found.rstrip("/")


def same_repository(one: dict, other: dict) -> bool:
    """Whether two identities (``remote``, ``first_commit``) name one repository: the first commits
    when both know theirs, else the normalized remotes."""
    if one.get("first_commit") and other.get("first_commit"):
        return one["first_commit"] == other["first_commit"]
    return bool(one.get("remote") and other.get("remote")
                and normalize_remote(one["remote"]) == normalize_remote(other["remote"]))


def project_key(found: dict) -> str:
    """``projects/<key>`` of an identity: a slug of the repository's name and 12 hex of its first commit
    (else of its normalized remote), the same on every machine."""
    mark = found.get("first_commit") or normalize_remote(found["remote"])
    name = re.sub(r"[^a-z0-9]+", "-", (normalize_remote(found.get("remote") or "") or "project")
                  .rsplit("/", 1)[-1].lower()).strip("-")[:40] or "project"
    return f"{name}-{hashlib.sha256(mark.encode()).hexdigest()[:12]}"


def shared_identity(found: dict) -> bytes:
    """``project.json``: only what is the same on every machine (the first commit, else the remote)."""
    kept = {"first_commit": found["first_commit"]} if found.get("first_commit") else {
        "remote": normalize_remote(found["remote"])}
    return json.dumps(kept, sort_keys=True).encode() + b"\n"


def mirrored_projects(repo: Path) -> dict[str, dict]:
    """``projects/<key>`` → the identity its ``project.json`` holds, in the work tree (a link or a name
    :func:`project_key` does not give is never read)."""
    found = {}
    base = repo / PROJECTS_DIR
    if inside(repo, f"{PROJECTS_DIR}/x") is not None and base.is_dir():
        for item in sorted(base.iterdir()):
            if not PROJECT_KEY.match(item.name) or item.is_symlink():
                continue  # a link or a name no project_key gives: never read
            try:
                info = json.loads(read_foreign(item / PROJECT_FILE, 64 * 1024, follow=False).data or b"")
            except ValueError:
                continue
            if isinstance(info, dict):
                found[f"{PROJECTS_DIR}/{item.name}"] = info
    return found


def refuse_own(own: list[tuple[Path, dict]], remote: str, roots: set[str] | None = None) -> None:
    """Raise :class:`Refused` when ``remote`` is the repository of one of ``own`` (the projects this home knows):
    the same normalized URL or path, or (``roots``: the root commits the remote holds, once fetched) the
    project's first commit among them."""
    wanted = normalize_remote(remote)
    for root, found in own:
        if (found.get("remote") and normalize_remote(found["remote"]) == wanted) or \
                normalize_remote(str(root)) == wanted:
            raise Refused(f"{remote} is the repository of the project {root}: personal memory must never land in "
                          "a project's repository; nothing was sent. Sync needs a private remote of your own: "
                          "move the sync repository away and run memdir sync init with one")
        if roots and found.get("first_commit") in roots:
            raise Refused(f"{remote} holds the history of the project {root} (its first commit "
                          f"{found['first_commit'][:12]}): personal memory must never land in a project's "
                          "repository; nothing was sent. Sync needs a private remote of your own: move the sync "
                          "repository away and run memdir sync init with one")


# ---------------------------------------------------------------- git in the repository


def repository(home: Path) -> Path:
    """The sync repository's work tree, ``<home>/sync`` (it may not exist): :func:`memdir.paths.sync_dir`."""
    return sync_dir(home)


def _git(repo: Path, *args: str) -> str:
    from .. import git

    return git.run(repo, *args)


def rev(repo: Path, ref: str) -> str | None:
    """The commit ``ref`` names in ``repo``, or None (no such ref, no commit yet)."""
    try:
        return _git(repo, "rev-parse", "-q", "--verify", f"{ref}^{{commit}}").strip() or None
    except StoreError:
        return None


def tree(repo: Path, commit: str | None) -> dict[str, str]:
    """Path → blob id of every file at ``commit`` (``{}`` for None)."""
    if commit is None:
        return {}
    out = _git(repo, "ls-tree", "-r", "-z", commit)
    found = {}
    for item in out.split("\0"):
        if "\t" in item:
            meta, path = item.split("\t", 1)
            found[path] = meta.split()[2]
    return found


def entries(repo: Path, commit: str | None) -> dict[str, tuple[str, int]]:
    """Path → (mode, size in bytes) of every entry at ``commit`` (``{}`` for None): a mode outside
    :data:`FILE_MODES` is a symbolic link (``120000``) or a submodule (``160000``, size ``-1``)."""
    if commit is None:
        return {}
    found = {}
    for item in _git(repo, "ls-tree", "-r", "-l", "-z", commit).split("\0"):
        if "\t" in item:
            meta, path = item.split("\t", 1)
            mode, _, _, size = meta.split()
            found[path] = (mode, int(size) if size.isdigit() else -1)
    return found


def inside(repo: Path, path: str) -> Path | None:
    """``repo / path`` when writing or deleting it stays in the work tree: ``path`` is relative with no
    ``..``, every directory on the way that exists is a real directory (not a symbolic link) and the file,
    when it exists, is a regular file; None otherwise (a link planted there is never followed)."""
    parts = path.split("/")
    if not path or path.startswith("/") or any(part in ("", ".", "..", ".git") for part in parts):
        return None
    where = repo
    for part in parts[:-1]:
        where = where / part
        try:
            if not stat.S_ISDIR(os.lstat(where).st_mode):
                return None
        except FileNotFoundError:
            break
        except OSError:
            return None
    try:
        if not stat.S_ISREG(os.lstat(repo / path).st_mode):
            return None
    except FileNotFoundError:
        pass
    except OSError:
        return None
    return repo / path


def force_attributes(repo: Path) -> None:
    """Write ``.git/info/attributes`` (``* merge=text -text`` then :data:`memdir.files.merge.ATTRIBUTE`): git
    reads it after every ``.gitattributes`` of the tree, so one pushed from another clone (``*.md merge=union``,
    ``-merge``) never turns the field-by-field merge driver off here."""
    from .merge import ATTRIBUTE

    local = ("* merge=text -text\n" + ATTRIBUTE + "\n").encode()  # over the tree's
    info = git_dir(repo) / "info"
    info.mkdir(mode=0o700, exist_ok=True)
    if read_bytes(info / "attributes") != local:
        atomic_write(info / "attributes", local, sync_dir=False)


def show(repo: Path, commit: str | None, path: str) -> bytes | None:
    """The bytes of ``path`` at ``commit``; None when it has no such file (or ``commit`` is None)."""
    if commit is None:
        return None
    try:
        from .. import git

        return git.run(repo, "show", f"{commit}:{path}", binary=True)
    except StoreError:
        return None


def blob_id(data: bytes | None) -> str | None:
    """git's blob id of ``data`` (what ``ls-tree`` lists), computed here: no process per file."""
    if data is None:
        return None
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def git_dir(repo: Path) -> Path:
    """The repository's ``.git`` directory (the state, lock and refs of memdir's sync live there)."""
    return repo / ".git"


def configured(home: Path) -> Path:
    """The sync repository of ``home``. Raises :class:`NotFound` when sync is not set up there."""
    repo = repository(home)
    if not (git_dir(repo) / "HEAD").is_file():
        raise NotFound(f"sync is not set up in {home}: run `memdir sync init REMOTE` (a private git remote)")
    return repo


def layers_of(repo: Path) -> tuple[str, ...]:
    """The layers ``sync init --layers`` chose (``("user",)`` or ``("user", "projects")``), from the
    repository's own config (``memdir.layers``)."""
    from .. import git

    chosen = git.local_config(repo, "memdir.layers") or "user"
    return tuple(chosen.split(","))


def read_state(repo: Path) -> dict:
    """What the last sync recorded in ``.git/`` :data:`STATE_FILE` (``last_sync``, ``outcome``, ``error``,
    ``held``: path → this machine's blob id of each conflict held back, ``not_synced``); ``{}`` when none
    or unreadable (it is rebuilt by the next sync)."""
    data = read_bytes(git_dir(repo) / STATE_FILE) if (git_dir(repo) / STATE_FILE).is_file() else None
    try:
        state = json.loads(data or b"{}")
    except ValueError:
        state = {}
    return state if isinstance(state, dict) else {}


def held_memories(home: Path) -> set[tuple[str, str]]:
    """``(layer, name)`` of each memory a sync conflict holds back in ``home`` (``user`` | ``project``; read from
    the state file alone, no git): what ``list`` marks, ``doctor`` reports and a write warns about. ``set()``
    without sync. Never raises."""
    repo = repository(home)
    try:
        held = read_state(repo).get("held") or {} if (git_dir(repo) / "HEAD").is_file() else {}
    except OSError:
        return set()
    found = set()
    for path in held if isinstance(held, dict) else ():
        parts = str(path).split("/")
        if parts[-1].endswith(".md") and len(parts) in (2, 3):
            found.add(("user" if len(parts) == 2 else "project", parts[-1][:-3]))
    return found


def write_state(repo: Path, state: dict) -> None:
    """Replace the state file with ``state``, atomically. Raises :class:`StoreError`."""
    atomic_write(git_dir(repo) / STATE_FILE, json.dumps(state, indent=1, sort_keys=True).encode() + b"\n")


def recover(repo: Path) -> list[str]:
    """Clear what a killed git or sync left (called with the sync lock held, so no other git of ours runs
    here): stale lock files, a merge cut in the middle, a half-written work tree (everything in it is
    either committed or still in the live layers)."""
    notes = []
    gitdir = git_dir(repo)
    stale = [gitdir / name for name in STALE_LOCKS] + list((gitdir / "refs").rglob("*.lock"))
    for lock in stale:
        if lock.exists():
            lock.unlink()
            notes.append(f"removed {lock.name} left by a git process that was stopped")
    if (gitdir / "MERGE_HEAD").exists():
        notes.append("a merge cut by a stopped sync was undone and is done again")
    changed = _git(repo, "status", "--porcelain", "-z", "--untracked-files=all") if rev(repo, "HEAD") else ""
    if changed and not (gitdir / "MERGE_HEAD").exists():  # edits by hand (or a cut export): kept aside first
        notes += _save_aside(repo, changed)
    if rev(repo, "HEAD") is not None and (changed or (gitdir / "MERGE_HEAD").exists()):
        _git(repo, "reset", "-q", "--hard", "HEAD")
        _git(repo, "clean", "-q", "-fd")
    return notes


SAVED_DIR = "memdir-saved"  # in .git: work-tree files recover found changed, one directory per run


def _save_aside(repo: Path, porcelain: str) -> list[str]:
    """Copy each changed or new file ``git status --porcelain -z`` lists into ``.git/``:data:`SAVED_DIR```/<time>/``
    (regular files only, never through a link) before :func:`recover` resets the work tree: nothing
    written there by hand is deleted silently. Returns the note naming where they are."""
    from datetime import datetime, timezone

    items = porcelain.split("\0")
    paths, index = [], 0
    while index < len(items):
        item = items[index]
        index += 1
        if len(item) < 4:
            continue
        if item[0] in "RC":
            index += 1  # the old name of a rename follows
        if "D" not in item[:2]:
            paths.append(item[3:])
    place = git_dir(repo) / SAVED_DIR / datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%S%fZ")
    saved = []
    for path in paths:
        found = read_foreign(repo / path, 64 * 1024 * 1024, follow=False) if inside(repo, path) else None
        if found is not None and found.data is not None:
            (place / path).parent.mkdir(parents=True, exist_ok=True, mode=0o700)
            atomic_write(place / path, found.data, sync_dir=False)
            saved.append(path)
    if not saved:
        return []
    return [f"{len(saved)} file(s) changed by hand in the sync repository ({', '.join(saved[:5])}) were saved "
            f"aside in {place} before it was reset: edit memories with memdir, not in the sync repository"]


# The merge's timeout per changed file, above git.TIMEOUT. A driver run is a Python process: ~0.1 s idle, 0.9-6.6 s
# at load 19 on 2 cores (1 s a file failed merges of ten files and more at load 11-19, on every sync while it lasted).
MERGE_SECONDS_PER_FILE = 10.0
GIT_TEMP_PREFIX = ".merge_file_"  # git's own copies of a merge's sides for the driver, at the top of the work tree


def merge_remote(repo: Path, notes: list[str]) -> list[str]:
    """Merge ``origin/main`` into HEAD with the field-by-field driver; what still conflicts is committed
    as it is (markers in the memory file: the sync holds it back from the live layer; a tombstone or ``project.json``
    both machines wrote keeps this machine's bytes, the same fact either way). Returns the memory files this
    merge left with markers (their ``ours`` is this machine)."""
    from .. import git

    theirs = rev(repo, f"refs/remotes/origin/{BRANCH}")
    if theirs is None:
        return []
    try:
        _git(repo, "merge-base", "--is-ancestor", theirs, "HEAD")
        return []  # nothing new there
    except StoreError:
        pass
    # One merge-driver process per memory both sides changed: the timeout grows with what the merge holds, so
    # a large merge finishes rather than timing out on every sync.
    changed = _git(repo, "diff", "--name-only", "-z", "HEAD", theirs).count("\0")
    seconds = git.TIMEOUT + MERGE_SECONDS_PER_FILE * changed
    temps = _git_temps(repo)
    try:
        git.run(repo, "merge", "-q", "--no-edit", "--allow-unrelated-histories", "-m",
                "memdir sync: merge from another machine", theirs, timeout=seconds, group=True)
        return []
    except StoreError as exc:
        if getattr(exc, "timed_out", False):  # cut: never committed as it is, undone now
            raise StoreError(_undo_cut_merge(repo, temps, seconds, changed)) from None
        unmerged = [p for p in _git(repo, "diff", "--name-only", "-z", "--diff-filter=U").split("\0") if p]
        if not unmerged:
            raise
    merged_here = {path for path in unmerged if path.endswith(".md") and _merge_unmarked(repo, path)}
    for path in unmerged:
        if not path.endswith(".md"):
            try:
                _git(repo, "checkout", "-q", "--ours", "--", path)
            except StoreError:
                pass  # deleted here: git add below takes the other side's file or the removal
        if (repo / path).exists():
            _git(repo, "add", "--", path)
        else:
            _git(repo, "rm", "-q", "--cached", "--ignore-unmatch", "--", path)
    _git(repo, "commit", "-q", "--no-edit")
    if len(merged_here) < len(unmerged):
        notes.append(f"merged with conflicts in {len(unmerged) - len(merged_here)} file(s)")
    return [path for path in unmerged if path.endswith(".md") and path not in merged_here]


def _merge_unmarked(repo: Path, path: str) -> bool:
    """Merge here, field by field (:func:`memdir.files.merge.merge_sides`), the memory file ``path`` git left
    unmerged with no conflict that reads: the driver did not run (its program gone: git takes the failure for
    a conflict and leaves this machine's side alone, which the commit below would send as the merge, the
    other machine's text dropped) or git's line merge put its hunk inside fenced code. A file both sides
    still hold only (git's modify/delete is left as it is). True when it merged cleanly (no markers)."""
    from .conflicts import has_conflict

    target = inside(repo, path)
    try:
        data = None if target is None else read_bytes(target, follow=False)
    except StoreError:
        return False
    ours, theirs = show(repo, ":2", path), show(repo, ":3", path)
    if data is None or has_conflict(data) or ours is None or theirs is None:
        return False
    from .merge import merge_sides

    merged = merge_sides(show(repo, ":1", path) or b"", ours, theirs)
    atomic_write(target, merged.data)
    return not merged.conflicts


def _git_temps(repo: Path) -> set[str]:
    try:
        return {name for name in os.listdir(repo) if name.startswith(GIT_TEMP_PREFIX)}
    except OSError:
        return set()


def _undo_cut_merge(repo: Path, temps_before: set[str], seconds: float, changed: int) -> str:
    """After a merge killed at its timeout (git and its drivers, :func:`memdir.git.run`'s ``group``): git's
    copies of the sides it left are removed (only those this merge made, regular files), then :func:`recover`
    puts the repository back at HEAD — what the export committed — saving aside any file that differs, so no
    text is lost; the live layers were never touched (they take in a merge only once it is committed).
    Returns what the sync says."""
    for name in _git_temps(repo) - temps_before:
        try:
            if stat.S_ISREG(os.lstat(repo / name).st_mode):
                os.unlink(repo / name)
        except OSError:
            pass  # gone already
    notes = recover(repo)
    return (f"the merge from another machine timed out after {seconds:g}s ({changed} file(s) changed, a merge-driver "
            f"run for each that both sides changed: a busy machine) and was undone; nothing here changed, and the "
            f"next sync merges again" + "".join(f"; {note}" for note in notes))
