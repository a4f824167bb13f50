"""Where memories live: the home directory, project roots and project keys.

DESIGN §2. The home is ``--home`` / ``MEMDIR_HOME``, else ``$DSH_HOME/memory``
when ``DSH_HOME`` is set, else the platform user-data dir. A project root is the
canonical (symlink-resolved) directory moved up to the top of its git work
tree; worktrees of one repository share the main checkout's root, while the files a checkout holds (the
team layer's) are each worktree's own (its *checkout*: :func:`root_paths_of`). A project key
is a readable slug plus 12 hex digits of SHA-256 of the root, ≤ 100 bytes, safe
as a directory name on Linux, macOS and Windows.

Which work tree and repository a directory is in is read from git's own files (:mod:`memdir.gitfiles`).
"""

from __future__ import annotations

import errno
import os
import stat

from .errors import InvalidInput, ScopeError
from .gitfiles import git_tops, pure_path

USER_LAYER_DIR = "_user"
PROJECTS_DIR = "projects"
INDEX_DB = "index.sqlite"  # under the home: the search index (memdir.search.index), derived from the layers
EMBED_LOG = "embed.log"  # under the home: the background embedder's output (memdir.search.embedder)
MAX_KEY_BYTES = 100
_SLUG_CHARS = 60
_SLUG_KEPT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")  # a slug's characters; every run of others is one "-"
NO_PROJECT = "no project root is known; run inside a project directory, pass --project DIR or set MEMDIR_PROJECT"
CWD_GONE = ("the working directory no longer exists; run inside a project directory, "
            "pass --project DIR or set MEMDIR_PROJECT")


def _expanduser(raw: str) -> str:
    """``raw`` with a leading ``~`` or ``~user`` expanded, written as :func:`memdir.gitfiles.pure_path` writes it (as
    ``Path(raw).expanduser()``). Raises :class:`RuntimeError` when the ``~`` names no known home."""
    path = pure_path(raw)
    if path[:1] != "~":
        return path
    first, sep, rest = path.partition("/")
    home = os.path.expanduser(first)
    if home[:1] == "~":
        raise RuntimeError("Could not determine home directory.")
    return pure_path(home + sep + rest)


_ABSENT = (errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP)  # what pathlib's exists/is_dir take for "no"


def _stat_mode(path: str) -> int | None:
    """The mode of ``path`` (symlinks followed), or None when there is nothing there (as
    ``Path.exists`` judges it). Raises :class:`OSError` for any other failure (a name too long)."""
    try:
        return os.stat(path).st_mode
    except OSError as exc:
        if exc.errno in _ABSENT:
            return None
        raise
    except ValueError:
        return None


def home_path(explicit: str | os.PathLike | None = None, environ=None) -> str:
    """The memdir home: explicit argument, ``MEMDIR_HOME``, ``$DSH_HOME/memory``,
    else ``platformdirs.user_data_dir("memdir")``. ``~`` is expanded; the
    result is absolute (a string, as :class:`pathlib.Path` writes it), not created.
    The rule; :func:`resolve_home` gives it as a :class:`~pathlib.Path`.

    Raises :class:`InvalidInput` for a path that would put memories somewhere
    nobody meant: a relative path (run from two directories it makes two
    homes, one perhaps inside a git repository), a ``$`` left unexpanded
    (``${CLAUDE_PROJECT_DIR}/mem`` would become a directory of that name), or
    an existing file that is not a directory, an empty ``explicit`` (``--home=``:
    a home meant but not named, never the default one), a ``~user`` that names no
    user, whitespace around the path, a NUL character, a path the system
    cannot examine (a name too long). ``environ`` defaults to ``os.environ``.
    """
    environ = os.environ if environ is None else environ
    if explicit is not None and not str(explicit):  # `--home=`: a home meant but not named, never the default one
        raise InvalidInput("the memdir home '' (--home) is empty; give an absolute path, or leave --home out for "
                           "the default home")
    if explicit:
        raw, source = str(explicit), "--home"
    elif environ.get("MEMDIR_HOME"):
        raw, source = environ["MEMDIR_HOME"], "MEMDIR_HOME"
    elif environ.get("DSH_HOME"):
        raw, source = os.path.join(environ["DSH_HOME"], "memory"), "DSH_HOME"
    else:
        import platformdirs  # imported late: only this branch needs it

        raw, source = platformdirs.user_data_dir("memdir", appauthor=False), "the platform data dir"
    if raw != raw.strip():
        raise InvalidInput(f"the memdir home {raw!r} ({source}) begins or ends with whitespace, which would make "
                           "a second home beside the one meant; give the path without surrounding spaces")
    if "\0" in raw:  # os functions refuse it with a ValueError at the first write, list or status
        raise InvalidInput(f"the memdir home {raw!r} ({source}) holds a NUL character, which no path can hold; "
                           "give the path without it")
    try:
        chosen = _expanduser(raw)
    except RuntimeError:  # ~nosuchuser, or ~ with no HOME
        raise InvalidInput(f"the memdir home {raw!r} ({source}) starts with a '~' that names no known user's home; "
                           "give an absolute path") from None
    if "$" in chosen:
        raise InvalidInput(f"the memdir home {raw!r} ({source}) holds a '$' that no shell expanded; "
                           "give the absolute path itself")
    if not os.path.isabs(chosen):
        raise InvalidInput(f"the memdir home {raw!r} ({source}) is a relative path, which would put a different "
                           "home in every directory memdir runs from; give an absolute path")
    try:
        mode = _stat_mode(chosen)
    except OSError as exc:  # a name too long, a directory that cannot be searched: no home can be there
        raise InvalidInput(f"the memdir home {raw!r} ({source}) cannot be used: {exc.strerror or exc}") from None
    if mode is not None and not stat.S_ISDIR(mode):
        raise InvalidInput(f"the memdir home {raw!r} ({source}) is not a directory; give a directory "
                           "(it is created when missing)")
    return chosen


def resolve_home(explicit: str | os.PathLike | None = None, environ=None) -> Path:
    """:func:`home_path` as a :class:`~pathlib.Path`; raises as it does."""
    from pathlib import Path

    return Path(home_path(explicit, environ))


def work_tree_top(path: str | os.PathLike) -> Path:
    """The top of the git work tree holding ``path`` itself — for a linked
    worktree, that worktree, not the checkout it shares a layer with — or
    ``path`` resolved when it is in no work tree. Where files that belong to
    this checkout go (the installer's project-scope files)."""
    from pathlib import Path  # late: only the installer asks

    start = str(Path(path).expanduser().resolve())
    tops = git_tops(start)  # the checkout: the rule root_paths_of gives a session
    return Path(tops[1] if tops is not None else start)


def project_dir_path(path: str | os.PathLike) -> str:
    """The canonical project root of a session directory: symlinks resolved,
    then moved up to the top of its git work tree when there is one. A string;
    :func:`project_dir` gives it as a :class:`~pathlib.Path`.

    Raises :class:`ScopeError` when ``path`` is empty, does not exist, is
    not a directory or cannot be examined (a NUL, a name too long). Does not judge the result (see :func:`refusal`); the
    rule that combines both is :func:`project_root_of`.
    """
    return _dirs_path(path)[0]


def _dirs_path(path: str | os.PathLike) -> tuple[str, str]:
    """``(root, checkout)`` of a session directory: :func:`project_dir_path`'s root, and the top of the work
    tree holding ``path`` itself (for a linked worktree that worktree, else the root). Raises as
    :func:`project_dir_path`."""
    raw = str(path).strip() if path is not None else ""
    if not raw:
        raise ScopeError(NO_PROJECT)
    try:
        root = os.path.realpath(_expanduser(raw))
    except ValueError:  # a NUL byte: no file system has such a directory
        raise ScopeError(f"project directory {raw!r} is not a valid path") from None
    except OSError:  # a relative path, and the working directory was deleted
        raise ScopeError(f"project directory {raw!r} cannot be found: {CWD_GONE}") from None
    try:
        mode = _stat_mode(root)
    except OSError as exc:  # a name too long, a directory that cannot be searched
        raise ScopeError(f"project directory {raw!r} cannot be examined: {exc.strerror or exc}") from None
    if mode is None or not stat.S_ISDIR(mode):
        fact = f"project directory {raw!r} " + ("is not a directory" if mode is not None else "does not exist")
        raise ScopeError(fact + "; give an existing directory (--project DIR or MEMDIR_PROJECT)", fact=fact)
    tops = git_tops(root)
    return tops if tops is not None else (root, root)


def project_dir(path: str | os.PathLike) -> Path:
    """:func:`project_dir_path` as a :class:`~pathlib.Path`; raises as it does."""
    from pathlib import Path

    return Path(project_dir_path(path))


# The kernel's virtual file systems (POSIX): what is under them is the running system's state, never a
# project a person keeps (``file:///proc/self`` from an MCP client is the server's own process directory).
VIRTUAL_TREES = ("/proc", "/sys", "/dev")


def refusal(root: str | os.PathLike) -> str | None:
    """Why ``root`` (canonical) cannot be a project root, or None when it can: memdir
    never treats ``/`` or the whole ``$HOME`` as one project (DESIGN §2), nor a directory
    of the kernel's virtual file systems (:data:`VIRTUAL_TREES`: ``/proc``, ``/sys``,
    ``/dev`` and anything under them — ``/proc/self`` resolves to ``/proc/<pid>``, a
    process's state that vanishes with it). Whatever is not a directory never gets here
    (:func:`project_dir_path` refuses it). Every source alike: ``--project``, a hook's
    ``cwd``, an MCP root (which the server then skips for the next root or its fallback)."""
    root = os.fspath(root)
    home = os.path.realpath(pure_path(os.path.expanduser("~")))
    if root == os.path.splitdrive(root)[0] + os.sep or root == home:
        return (f"refusing to use {root!r} as a project root (it is / or $HOME); "
                "run inside a project directory, pass --project DIR or set MEMDIR_PROJECT")
    if os.sep == "/" and any(root == tree or root.startswith(tree + "/") for tree in VIRTUAL_TREES):
        return (f"refusing to use {root!r} as a project root (it is in {root.split('/')[1]!r}, a virtual file "
                "system of the running system, not a project's files); "
                "run inside a project directory, pass --project DIR or set MEMDIR_PROJECT")
    return None


def project_source(project: str | os.PathLike | None = None, *, use_cwd: bool = True,
                   environ=None) -> tuple[str | os.PathLike | None, str | None]:
    """Where a session's project comes from, first given wins: ``project``
    (``--project``, a hook's ``cwd``, an MCP root; None or ``""``: none),
    then — with ``use_cwd`` — ``MEMDIR_PROJECT`` and the working directory
    (DESIGN §2). ``(source, None)``, or ``(None, reason)`` when no source is
    given or the working directory was deleted (:data:`CWD_GONE`). The
    source is not checked: :func:`project_root_of` judges it. ``environ``
    defaults to ``os.environ``."""
    if project not in (None, ""):
        return project, None
    if not use_cwd:
        return None, NO_PROJECT
    environ = os.environ if environ is None else environ
    if environ.get("MEMDIR_PROJECT"):
        return environ["MEMDIR_PROJECT"], None
    try:
        return os.getcwd(), None
    except OSError:  # the directory was deleted under us: no project, but the user layer works
        return None, CWD_GONE


def root_path_of(source: str | os.PathLike) -> tuple[str | None, str | None]:
    """The project root of the directory ``source``: ``(root, None)`` for a
    directory that can be a project (canonical, a string: see :func:`project_dir_path`),
    ``(None, reason)`` for ``$HOME`` or ``/`` (:func:`refusal`). Raises
    :class:`ScopeError` when ``source`` is not an existing directory. The rule;
    :func:`project_root_of` gives the root as a :class:`~pathlib.Path`."""
    root, _checkout, reason = root_paths_of(source)
    return root, reason


def root_paths_of(source: str | os.PathLike) -> tuple[str | None, str | None, str | None]:
    """``(root, checkout, None)`` of the directory ``source``: its project root (:func:`root_path_of`: where
    its project layer is keyed, shared by every worktree of a repository) and its checkout, the top of the
    work tree holding ``source`` itself — a linked worktree's own (``git worktree add``), else the root —
    where the files the checkout holds are: the team layer's (DESIGN §11, "a directory inside the
    repository ... shared through git": a worktree's team memories are committed on its own branch).
    ``(None, None, reason)`` as :func:`root_path_of` refuses. Raises as it does."""
    root, checkout = _dirs_path(source)
    reason = refusal(root)
    return (None, None, reason) if reason else (root, checkout, None)


def project_root_of(source: str | os.PathLike) -> tuple[Path | None, str | None]:
    """:func:`root_path_of` with the root as a :class:`~pathlib.Path`; raises as it does."""
    root, reason = root_path_of(source)
    if root is None:
        return None, reason
    from pathlib import Path

    return Path(root), None


def project_root(source: str | os.PathLike) -> Path:
    """The project root of the directory ``source``, for a caller that needs
    one (re-keying a layer to it): as :func:`project_root_of`, and
    :class:`ScopeError` with the same message a session gets for ``$HOME``
    or ``/``."""
    root, reason = project_root_of(source)
    if root is None:
        raise ScopeError(str(reason))
    return root


def sha256(data: bytes):
    """A SHA-256 hash object of ``data`` (``.hexdigest()``), from CPython's own implementation when
    it has one (``_sha256``; ``_sha2`` from 3.12): importing :mod:`hashlib` loads OpenSSL, about 5 ms of
    every hook and ``memdir context``, which need only short digests (the project key, a session's
    record). The same digest either way."""
    try:
        from _sha256 import sha256
    except ImportError:
        try:
            from _sha2 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(data)


def project_key(root: str | os.PathLike) -> str:
    """The layer directory name for a canonical project root.

    ``<slug>-<12 hex>``: the slug is the root's last two components, lower-case
    ``[a-z0-9-]`` (``project`` when nothing ASCII survives), the hex is SHA-256
    of the root string. Windows (``C:\\w\\x``) and POSIX separators are both
    understood. ≤ 100 bytes; distinct roots get distinct keys (up to SHA-256).
    """
    text = str(root)
    # String methods, no pattern: every hook and `memdir context` computes this once (compiling two
    # patterns cost more than the rest of the key).
    parts = [p for p in text.replace("\\", "/").split("/") if p and not p.endswith(":")]
    kept = "".join(ch if ch in _SLUG_KEPT else "-" for ch in "-".join(parts[-2:]).lower())
    slug = "-".join(run for run in kept.split("-") if run)
    slug = slug[:_SLUG_CHARS].strip("-") or "project"
    digest = sha256(text.encode("utf-8", "surrogatepass")).hexdigest()[:12]
    key = f"{slug}-{digest}"
    assert len(key.encode()) <= MAX_KEY_BYTES
    return key


def user_layer_path(home: str | os.PathLike) -> str:
    """``<home>/_user``: the user layer, shared by every project (a string; the rule
    :func:`user_layer_dir` gives as a :class:`~pathlib.Path`)."""
    return os.path.join(os.fspath(home), USER_LAYER_DIR)


def user_layer_dir(home) -> Path:
    """:func:`user_layer_path` as a :class:`~pathlib.Path`."""
    from pathlib import Path

    return Path(user_layer_path(home))


SYNC_DIR = "sync"  # the person's sync repository in the home (memdir.files.repository)


def sync_dir(home: Path) -> Path:
    """``<home>/sync``: the sync repository's work tree (it may not exist; set up by ``memdir sync init``)."""
    from pathlib import Path

    return Path(home) / SYNC_DIR


def project_layer_path(home: str | os.PathLike, root: str | os.PathLike) -> str:
    """``<home>/projects/<key>``: the layer of one canonical project root (a string; the rule
    :func:`project_layer_dir` gives as a :class:`~pathlib.Path`)."""
    return os.path.join(os.fspath(home), PROJECTS_DIR, project_key(root))


def project_layer_dir(home, root) -> Path:
    """:func:`project_layer_path` as a :class:`~pathlib.Path`."""
    from pathlib import Path

    return Path(project_layer_path(home, root))


def layer_dirs(home: Path) -> list[Path]:
    """Every layer directory that exists under ``home``: ``_user`` first, then
    each ``projects/<key>`` in name order."""
    from pathlib import Path

    out = []
    user = user_layer_dir(home)
    if user.is_dir():
        out.append(user)
    projects = Path(home) / PROJECTS_DIR
    if projects.is_dir():
        out.extend(sorted(p for p in projects.iterdir() if p.is_dir()))
    return out


TEAM_DIR = "team"  # under the home: the local side of each repository's team layer
CANDIDATE_DIR = "candidates"  # in a team's side (team_meta_path): the candidates waiting for this person


def team_files_path(root: str | os.PathLike, team_dir: str) -> str:
    """The team layer's memory files: ``team_dir`` (the setting, default
    ``.claude/memory``) under the repository root ``root`` (a string; the rule
    :func:`team_files_dir` gives as a :class:`~pathlib.Path`). Raises
    :class:`InvalidInput` for an absolute ``team_dir`` or one leaving the root,
    :class:`ScopeError` for one :func:`team_dir_problem` refuses."""
    rel = pure_path(str(team_dir).strip() or ".claude/memory")
    if (os.path.isabs(rel) or ".." in rel.split("/") or str(team_dir).startswith(("/", "\\"))
            or str(team_dir).strip().startswith("~")):
        raise InvalidInput(f"team_dir must be a path inside the repository, relative to its root (got {team_dir!r}; "
                           "'~' is not expanded)")
    root = pure_path(os.fspath(root))
    path = pure_path(os.path.join(root, rel))
    problem = team_dir_problem(root, path)
    if problem:
        raise ScopeError(problem)
    return path


def team_files_dir(root, team_dir: str) -> Path:
    """:func:`team_files_path` as a :class:`~pathlib.Path`; raises as it does."""
    from pathlib import Path

    return Path(team_files_path(root, team_dir))


def team_dir_problem(root: str | os.PathLike, path: str | os.PathLike) -> str | None:
    """Why the team directory ``path`` (under ``root``) cannot be used, or None: it (or one
    of its ancestors below the repository root ``root``, or its
    ``tombstones`` directory) is a symbolic link, or its real path is not
    inside the real path of ``root``. Memories are never read, written or
    deleted outside the repository through a link. Raises :class:`ValueError` when ``path``
    is not under ``root``."""
    root, path = pure_path(os.fspath(root)), pure_path(os.fspath(path))
    if path != root and not path.startswith(root.rstrip("/") + "/"):
        raise ValueError(f"{path!r} is not in the subpath of {root!r}")
    current = root
    for part in [p for p in path[len(root):].split("/") if p] + ["tombstones"]:
        current = os.path.join(current, part)
        if os.path.islink(current):
            return (f"the team directory {path} passes through a symbolic link ({current} -> "
                    f"{os.readlink(current)}); memdir does not read or write team memories through a link "
                    "(replace it by a real directory inside the repository)")
    real_root = os.path.realpath(root)
    if os.path.commonpath([real_root, os.path.realpath(path)]) != real_root:
        return f"the team directory {path} is outside the repository {root}"
    return None


def team_meta_path(home: str | os.PathLike, root: str | os.PathLike) -> str:
    """``<home>/team/<key>``: this machine's side of the team layer of the
    repository at ``root`` (journal, version objects, lock, derived
    ``MEMORY.md``, the candidates waiting for this person), keyed like a
    project layer so it never enters the repository. A string; the rule
    :func:`team_meta_dir` gives as a :class:`~pathlib.Path`."""
    return os.path.join(os.fspath(home), TEAM_DIR, project_key(root))


def team_meta_dir(home, root) -> Path:
    """:func:`team_meta_path` as a :class:`~pathlib.Path`."""
    from pathlib import Path

    return Path(team_meta_path(home, root))
