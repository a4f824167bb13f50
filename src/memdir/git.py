"""Reading git: a repository's identity, status, the commits of a file, a file at a commit.

memdir reads git and never writes the repository: no ``commit``, ``push``, ``add`` or
``checkout`` is ever run (DESIGN §2, the team layer). Its two other uses:
``git merge-file`` as a text merge of three files (:func:`merge_file`, for
memdir's merge driver), and :func:`set_local_config`, the clone's own
``.git/config`` (``team init`` registers the merge driver there: local, never
shared, never committed). Every command goes
through :func:`run`: the ``git`` program in one directory, with one timeout
and one environment (nothing in it may point git at another repository, no
prompt, no optional lock, messages in English); a missing ``git``, a directory
that is not a repository or a failing command raise :class:`StoreError` with
git's own message. Where a repository's files are (the ``.git`` file of a
worktree or submodule) is :mod:`memdir.paths`'s rule.
"""

from __future__ import annotations

import os
import signal
import subprocess
from dataclasses import dataclass
from pathlib import Path

from .errors import NotFound, StoreError
from .gitfiles import git_dir_of, linked_common_dir, origin_url

TIMEOUT = 30.0  # seconds for one git command
# What would make git read another repository than the one it runs in: the variables
# `git rev-parse --local-env-vars` lists (git itself clears them when it enters a submodule).
# They are set when memdir runs from a hook of another repository, or left in a shell.
LOCAL_ENV_VARS = frozenset({
    "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT",
    "GIT_OBJECT_DIRECTORY", "GIT_DIR", "GIT_WORK_TREE", "GIT_IMPLICIT_WORK_TREE", "GIT_GRAFT_FILE",
    "GIT_INDEX_FILE", "GIT_NO_REPLACE_OBJECTS", "GIT_REPLACE_REF_BASE", "GIT_PREFIX", "GIT_INTERNAL_SUPER_PREFIX",
    "GIT_SHALLOW_FILE", "GIT_COMMON_DIR",
})
# A repository's own `.git/config` can name a program git runs while it only reads: `core.fsmonitor`
# runs at every `status` and `ls-files`. A folder that arrives with its `.git` (an archive, a shared disk)
# is not the person's, so memdir's reads (`memdir import dir` of it, `team status`, `doctor`) would run its
# program (break37). Git's `-c` outranks every config file.
NO_PROGRAMS = ("-c", "core.fsmonitor=false")
_SEP = "\x1f"


def environment() -> dict[str, str]:
    """The environment every git command runs with: this process's, without
    :data:`LOCAL_ENV_VARS`, with ``GIT_TERMINAL_PROMPT=0`` (never wait for a
    password), ``GIT_OPTIONAL_LOCKS=0`` (``status`` does not rewrite the
    index: memdir never writes git) and ``LC_ALL=C`` (git's messages as
    written, whatever the locale)."""
    env = {name: value for name, value in os.environ.items() if name not in LOCAL_ENV_VARS}
    env.update(GIT_TERMINAL_PROMPT="0", GIT_OPTIONAL_LOCKS="0", LC_ALL="C")
    return env


def run(where: Path, *args: str, binary: bool = False, timeout: float = TIMEOUT, group: bool = False,
        accept: tuple[int, ...] = (0,)) -> str | bytes:
    """The output of ``git -C where -c core.fsmonitor=false ARGS`` (text, undecodable bytes replaced;
    bytes with ``binary``), run with :func:`environment` and at most
    ``timeout`` seconds (:data:`TIMEOUT` unless a caller scales it to its work). ``where`` is a work tree or a git directory.
    ``group``: git in a process group of its own, killed whole on a timeout (a merge: no merge driver it
    started goes on writing after; not for a fetch or push, whose ssh may ask the person's terminal).
    ``accept``: the exit codes that are answers (``git check-ignore`` exits 1 for "none ignored").
    Raises :class:`StoreError`: git missing, timed out (the error's ``timed_out`` is True), or exited with another
    code (what its stderr says: :func:`said`; all of it in the error's ``stderr``)."""
    argv = ["git", "-C", str(where), *NO_PROGRAMS, *args]
    try:
        done = _run_group(argv, timeout) if group else subprocess.run(argv, capture_output=True, timeout=timeout,
                                                                      env=environment())
    except FileNotFoundError:
        raise StoreError("git is not installed (the team layer reads its status and history from git)") from None
    except subprocess.TimeoutExpired as exc:
        error = StoreError(f"git {args[0]} failed: {exc}")
        error.timed_out = True
        raise error from None
    except OSError as exc:
        raise StoreError(f"git {args[0]} failed: {exc}") from None
    if done.returncode not in accept:
        error = StoreError(f"git {args[0]} failed: {said(done.stderr) or done.returncode}")
        error.stderr = done.stderr.decode("utf-8", "replace").strip()  # all of git's messages (a refused push's)
        raise error
    return done.stdout if binary else done.stdout.decode("utf-8", "replace")


def _run_group(argv: list[str], timeout: float) -> subprocess.CompletedProcess:
    """``argv`` run to its end in a process group of its own, killed whole when ``timeout`` passes or the wait is
    interrupted: ``subprocess.run`` kills git alone, and a merge driver it started would go on, writing a file of
    a merge nobody finishes (POSIX; elsewhere git alone, as before)."""
    proc = subprocess.Popen(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=environment(),
                            start_new_session=hasattr(os, "killpg"))
    try:
        out, err = proc.communicate(timeout=timeout)
    except BaseException:
        try:
            if hasattr(os, "killpg"):
                os.killpg(proc.pid, signal.SIGKILL)
            else:
                proc.kill()
        except OSError:
            proc.kill()  # the group is gone already: git alone, if it is still there
        proc.communicate()
        raise
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def said(stderr: bytes) -> str:
    """What git's ``stderr`` says that matters: its ``fatal:``/``error:`` lines (joined by ``; ``), else its
    last line (``""`` for none). A remote git cannot read ends with advice ("…and the repository exists."):
    the lines before it name the cause."""
    lines = [line.strip() for line in stderr.decode("utf-8", "replace").splitlines() if line.strip()]
    useful = [line for line in lines if line.startswith(("fatal:", "error:"))]
    return "; ".join(dict.fromkeys(useful)) if useful else (lines[-1] if lines else "")


def identity(root: Path) -> dict:
    """What identifies the repository at ``root`` wherever it is cloned or
    moved: ``{"remote": origin's URL, "first_commit": hash}``, each present
    only when known, and ``"worktree"``: the linked worktree's own git directory when ``root`` is one (``git
    worktree add``; ``git worktree remove`` or ``prune`` removes it: a team layer's local side keyed by such a
    checkout is then no checkout's, :func:`memdir.operations.relocate.gone_checkouts`). Reads the common git directory's ``config``
    (:func:`memdir.gitfiles.origin_url`); asks git for the first commit (no git, no commits, a timeout: left out). Never
    raises. Recorded in a project layer's ``layer.json`` when it is made, so
    :mod:`memdir.operations.relocate` can tell where a moved project went."""
    found: dict = {}
    try:
        gitdir = git_dir_of(Path(root))
        if gitdir is None:
            return found
        linked = linked_common_dir(Path(root), gitdir)  # never a commondir planted to name another repository
        common = Path(linked) if linked is not None else None
        if common is not None:  # a linked worktree's: its own git directory, gone once the worktree is removed
            found["worktree"] = str(gitdir)
        gitdir = common or gitdir  # the repository's own
        url = origin_url(Path(root))
        if url:
            found["remote"] = url
        first = run(gitdir, "rev-list", "--max-parents=0", "HEAD").split()
        if first:
            found["first_commit"] = sorted(first)[0]
    except (OSError, ValueError, StoreError):
        pass
    return found


@dataclass(frozen=True)
class Commit:
    """One commit that touched a file: its ``commit`` id (40 hex), ``author``,
    ``date`` (ISO-8601 as git prints it) and ``message`` (the subject line)."""

    commit: str
    author: str
    date: str
    message: str


@dataclass(frozen=True)
class Change:
    """One path of ``git status`` under the team directory: ``path``
    (relative to the repository root), ``state`` (``modified``, ``added``,
    ``deleted``, ``untracked``, ``renamed``, ``conflicted``) and the two
    status letters git printed (``code``)."""

    path: str
    state: str
    code: str


def _state(code: str) -> str:
    if code in ("DD", "AU", "UD", "UA", "DU", "AA", "UU"):
        return "conflicted"
    if code == "??":
        return "untracked"
    if code == "!!":
        return "ignored"
    for letter, state in (("R", "renamed"), ("D", "deleted"), ("A", "added"), ("M", "modified")):
        if letter in code:
            return state
    return "modified"


def status(root: Path, path: Path, ignored: bool = False) -> list[Change]:
    """What ``git status`` says of ``path`` (a directory in the repository at
    ``root``): every changed, new, deleted or conflicted file, and with ``ignored``
    each file a ``.gitignore`` line (or ``info/exclude``) keeps out of git (state
    ``ignored``, code ``!!``), each file of a wholly ignored directory too (``--ignored=matching`` named only
    ``.claude/``, not the memory files in it). Raises :class:`StoreError`."""
    listing = ("--ignored=traditional",) if ignored else ()  # with -uall: each file of an ignored directory
    out = run(root, *no_filters(root), "status", "--porcelain=v1", "-z", "--untracked-files=all", *listing, "--",
              str(path))
    changes = []
    items = out.split("\0")
    i = 0
    while i < len(items):
        item = items[i]
        i += 1
        if len(item) < 4:
            continue
        code, rel = item[:2], item[3:]
        if "R" in code or "C" in code:
            i += 1  # the rename's source path follows
        changes.append(Change(rel, _state(code), code))
    return changes


def no_filters(root: Path) -> tuple[str, ...]:
    """``-c`` options that turn off every filter driver the repository's config names (``filter.<name>.clean``,
    ``.process``; ``.required`` false, so an emptied one is no error): ``git status`` runs a file's clean filter
    to compare a file whose stat changed, and a ``.git/config`` that came with the folder names that program
    (a ``.gitattributes`` line, committed, picks it). Reading the config runs nothing."""
    try:
        out = run(root, "config", "-z", "--get-regexp", r"^filter\.")
    except StoreError:
        return ()  # none configured (git exits 1), or no config to read
    names = {item.split("\n", 1)[0][len("filter."):].rpartition(".")[0] for item in out.split("\0") if item}
    return tuple(option for name in sorted(names - {""}) for option in
                 ("-c", f"filter.{name}.clean=", "-c", f"filter.{name}.process=", "-c", f"filter.{name}.required=false"))


def log(root: Path, path: Path) -> list[Commit]:
    """The commits that changed ``path``, newest first (renames followed), each once, merge commits too.
    ``[]`` when git has none (new, uncommitted or not a repository).

    ``-m``: ``git log --follow`` alone leaves out every merge commit, so a team memory merged field by field
    (one side's description, the other's body: a text neither side committed) had no commit to restore its
    current text from (trial31). ``-m`` diffs a merge against each parent, so it is listed when the file differs
    from any of them, once per such parent: kept once here. (``--diff-merges=first-parent`` would need git 2.31.)"""
    try:
        out = run(root, "log", "--follow", "-m", f"--format=%H{_SEP}%an{_SEP}%aI{_SEP}%s", "--", str(path))
    except StoreError:
        return []
    commits, seen = [], set()
    for line in out.splitlines():
        parts = line.split(_SEP)
        if len(parts) == 4 and parts[0] not in seen:
            seen.add(parts[0])
            commits.append(Commit(*parts))
    return commits


def path_at(root: Path, path: Path, commit: str) -> Path | None:
    """Where the file now at ``path`` (in the repository at ``root``) was at ``commit`` (a commit id or any name
    git takes for one) as :func:`log` follows it through renames: the path one of its commits gave it, for a
    commit of that history (the ones ``memdir history`` lists); None when ``commit`` names no commit of it (or
    git cannot say). A team memory renamed (``db-port.md`` from ``pg-port.md``) has its earlier versions under
    its earlier name."""
    try:
        full = run(root, "rev-parse", "--verify", "--quiet", f"{commit}^{{commit}}").strip()
        out = run(root, "log", "--follow", "-m", "--name-only", "--format=%x00%H", "--", str(path))
    except StoreError:
        return None
    for block in out.split("\0")[1:]:
        lines = [line for line in block.splitlines() if line.strip()]
        if lines and lines[0] == full and len(lines) > 1:
            return Path(root) / lines[1]
    return None


def show(root: Path, commit: str, path: Path) -> bytes:
    """The bytes of ``path`` at ``commit``. Raises :class:`NotFound` when git
    has no such file there."""
    rel = Path(path).resolve().relative_to(Path(root).resolve()).as_posix()
    try:
        return run(root, "show", f"{commit}:{rel}", binary=True)
    except StoreError as exc:
        raise NotFound(f"git has no {rel} at {commit!r} ({exc})") from None


def ignored(where: Path) -> set[str] | None:
    """What git ignores under the directory ``where`` (``.gitignore``, ``.git/info/exclude``, the
    global excludes), as paths relative to ``where`` with ``/`` separators, a wholly ignored directory
    once with a trailing ``/`` (``git ls-files --others --ignored --exclude-standard --directory``).
    None when ``where`` is not inside a git work tree, or git cannot say (missing, failing): the
    caller then has no ignore rules to apply."""
    try:
        if run(where, "rev-parse", "--is-inside-work-tree").strip() != "true":
            return None
        out = run(where, "ls-files", "-z", "--others", "--ignored", "--exclude-standard", "--directory")
    except StoreError:
        return None
    return {path for path in out.split("\0") if path}


def check_ignore(root: Path, paths: list[str]) -> set[str] | None:
    """Which of ``paths`` (relative to the work tree at ``root``, ``/``-separated, no line break: git quotes
    such a name; they need not exist) git
    ignores (``git check-ignore``: ``.gitignore`` lines, ``info/exclude``, the global excludes; a tracked file is
    never ignored), as given; None when git cannot say (no work tree, git missing or failing)."""
    if not paths:
        return set()
    try:
        out = run(root, "-c", "core.quotePath=false", "check-ignore", "--", *paths,  # -z needs --stdin
                  accept=(0, 1))
    except StoreError:
        return None
    return {path for path in out.split("\n") if path} & set(paths)


def merge_file(ours: bytes, base: bytes, theirs: bytes, labels: tuple[str, str, str] = ("ours", "base", "theirs"),
               ) -> tuple[bytes, int]:
    """Git's three-way text merge of ``ours`` and ``theirs`` from ``base``
    (``git merge-file -p``, run in a temporary directory: no repository
    needed): the merged bytes, with ``<<<<<<< ours`` / ``=======`` /
    ``>>>>>>> theirs`` hunks (7-character markers, the ``labels`` after
    them) where both changed the same lines, and how many such hunks there
    are (0: a clean merge). Raises :class:`StoreError` (git missing or failed)."""
    import tempfile

    with tempfile.TemporaryDirectory(prefix="memdir-merge-") as temp:
        paths = []
        for label, data in zip(("ours", "base", "theirs"), (ours, base, theirs)):
            path = Path(temp) / label
            path.write_bytes(data)
            paths.append(str(path))
        try:
            done = subprocess.run(["git", "merge-file", "-p", "--marker-size=7", "-L", labels[0], "-L", labels[1],
                                   "-L", labels[2], *paths], capture_output=True, timeout=TIMEOUT,
                                  env=environment(), cwd=temp)
        except FileNotFoundError:
            raise StoreError("git is not installed (merging memory files needs git merge-file)") from None
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise StoreError(f"git merge-file failed: {exc}") from None
    if not 0 <= done.returncode < 128:  # a count of conflicts below 128; above: git's own error
        message = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise StoreError(f"git merge-file failed: {message[-1] if message else done.returncode}")
    return done.stdout, done.returncode


def replaying(root: Path | None) -> str | None:
    """What git is replaying in the work tree at ``root`` while its conflicts wait: ``"rebase"`` (``git rebase``,
    ``git pull --rebase``: the git directory's ``rebase-merge`` or ``rebase-apply``), ``"cherry-pick"``
    (``CHERRY_PICK_HEAD``), ``"revert"`` (``REVERT_HEAD``), or None (a merge, nothing, or ``root`` no readable
    repository). It says whose a conflict's sides are: in a rebase git's "ours" is the branch rebased onto and
    "theirs" this clone's own commit being replayed — the other way round from a merge. Reads the git
    directory's entries (the worktree's own, where git keeps them); runs no git."""
    try:
        found = git_dir_of(root) if root is not None else None
    except (OSError, ValueError):
        return None
    if found is None:
        return None
    if (found / "rebase-merge").is_dir() or (found / "rebase-apply").is_dir():
        return "rebase"
    if (found / "CHERRY_PICK_HEAD").is_file():
        return "cherry-pick"
    if (found / "REVERT_HEAD").is_file():
        return "revert"
    return None


def local_config(root: Path, key: str) -> str | None:
    """``key``'s value in the local config of the clone at ``root``; None
    when it is not set there (or git cannot say)."""
    try:
        return run(root, "config", "--local", "--get", key).rstrip("\n") or None
    except StoreError:
        return None


def attribute(root: Path, path: Path, name: str) -> str | None:
    """The value git gives attribute ``name`` for ``path`` in the clone at ``root``, as a merge or diff
    would see it (``git check-attr``: every ``.gitattributes`` of the tree, then ``.git/info/attributes``);
    ``"unspecified"`` when no line sets it, None when git cannot say. The file need not exist."""
    try:
        said_line = run(root, "check-attr", name, "--", str(path)).rstrip("\n")
    except StoreError:
        return None
    return said_line.rsplit(": ", 1)[-1] if said_line else None


def attributes(root: Path, paths: list[Path], name: str) -> dict[str, str] | None:
    """:func:`attribute` for each of ``paths`` at once (one ``git check-attr``): the value by the path as
    given; None when git cannot say."""
    found = attribute_sets(root, paths, (name,))
    return None if found is None else {path: values[name] for path, values in found.items() if name in values}


def attribute_sets(root: Path, paths: list[Path], names: tuple[str, ...]) -> dict[str, dict[str, str]] | None:
    """The values git gives each of the attributes ``names`` for each of ``paths`` (one ``git check-attr``, as
    :func:`attribute`): ``{path as given: {name: value}}``; None when git cannot say."""
    if not paths:
        return {}
    try:
        said_out = run(root, "check-attr", "-z", *names, "--", *map(str, paths))
    except StoreError:
        return None
    fields = said_out.split("\0")
    found: dict[str, dict[str, str]] = {}
    for i in range(0, len(fields) - 2, 3):
        found.setdefault(fields[i], {})[fields[i + 1]] = fields[i + 2]
    return found


def set_local_config(root: Path, key: str, value: str) -> None:
    """Set ``key`` to ``value`` in the local config (``.git/config``) of the
    clone at ``root``: this clone only, never committed or pushed. Raises
    :class:`StoreError` (not a repository, git missing or refusing)."""
    run(root, "config", "--local", key, value)


__all__ = [
    "LOCAL_ENV_VARS", "TIMEOUT", "Change", "Commit", "attribute", "attribute_sets", "attributes", "check_ignore", "environment", "identity", "ignored", "local_config", "log",
    "merge_file", "replaying", "run", "said", "set_local_config", "show", "status",
]
