"""Where memories live: the home directory, project roots and project keys.

DESIGN §2. The home is ``--home`` / ``MEMDIR_HOME``, else ``$DSH_HOME/memory``
when ``DSH_HOME`` is set, else the platform user-data dir. A project root is the
canonical (symlink-resolved) directory moved up to the top of its git work
tree; worktrees of one repository share the main checkout's root. A project key
is a readable slug plus 12 hex digits of SHA-256 of the root, ≤ 100 bytes, safe
as a directory name on Linux, macOS and Windows.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

from .errors import InvalidInput, ScopeError

USER_LAYER_DIR = "_user"
PROJECTS_DIR = "projects"
MAX_KEY_BYTES = 100
_SLUG_CHARS = 60
_SLUG_KEPT = frozenset("abcdefghijklmnopqrstuvwxyz0123456789")  # a slug's characters; every run of others is one "-"
NO_PROJECT = "no project root is known; run inside a project directory, pass --project DIR or set MEMDIR_PROJECT"
CWD_GONE = ("the working directory no longer exists; run inside a project directory, "
            "pass --project DIR or set MEMDIR_PROJECT")


def resolve_home(explicit: str | os.PathLike | None = None, environ=None) -> Path:
    """The memdir home: explicit argument, ``MEMDIR_HOME``, ``$DSH_HOME/memory``,
    else ``platformdirs.user_data_dir("memdir")``. ``~`` is expanded; the
    result is absolute, not created.

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
        chosen = Path(raw).expanduser()
    except RuntimeError:  # ~nosuchuser, or ~ with no HOME
        raise InvalidInput(f"the memdir home {raw!r} ({source}) starts with a '~' that names no known user's home; "
                           "give an absolute path") from None
    if "$" in str(chosen):
        raise InvalidInput(f"the memdir home {raw!r} ({source}) holds a '$' that no shell expanded; "
                           "give the absolute path itself")
    if not chosen.is_absolute():
        raise InvalidInput(f"the memdir home {raw!r} ({source}) is a relative path, which would put a different "
                           "home in every directory memdir runs from; give an absolute path")
    try:
        not_a_directory = chosen.exists() and not chosen.is_dir()
    except OSError as exc:  # a name too long, a directory that cannot be searched: no home can be there
        raise InvalidInput(f"the memdir home {raw!r} ({source}) cannot be used: {exc.strerror or exc}") from None
    if not_a_directory:
        raise InvalidInput(f"the memdir home {raw!r} ({source}) is not a directory; give a directory "
                           "(it is created when missing)")
    return chosen


def git_dir_of(path: Path) -> Path | None:
    """The git directory of the repository at ``path``: its ``.git``
    directory, the directory its ``.git`` file names (``gitdir: <path>``,
    relative to ``path``: a linked worktree's or a submodule's), or ``path``
    itself when it is a bare repository (``HEAD`` and ``objects/``); None
    otherwise. The one reader of a ``.git`` file. Raises :class:`OSError`
    when the file cannot be read."""
    dotgit = Path(path) / ".git"
    if dotgit.is_dir():
        return dotgit
    if dotgit.is_file():
        text = dotgit.read_text(encoding="utf-8", errors="replace").strip()
        if text.startswith("gitdir:"):
            gitdir = Path(text[len("gitdir:"):].strip())
            return gitdir if gitdir.is_absolute() else (Path(path) / gitdir).resolve()
    if (Path(path) / "HEAD").is_file() and (Path(path) / "objects").is_dir():
        return Path(path)
    return None


def common_dir_of(git_dir: Path) -> Path | None:
    """The repository's common git directory that a linked worktree's git
    directory ``git_dir`` names in its ``commondir`` file (resolved against
    ``git_dir``); None when it names none (a main checkout's, a submodule's).
    Raises :class:`OSError` when the file cannot be read."""
    common = Path(git_dir) / "commondir"
    if not common.is_file():
        return None
    return (Path(git_dir) / common.read_text().strip()).resolve()


# Patterns are compiled at their first use (re's cache), never at import: the hot path imports this.
_REMOTE = r'(?ms)^\s*\[remote "origin"\]\s*$(.*?)^\s*\['
_URL = r"(?m)^\s*url\s*=\s*(.+?)\s*$"
MAX_GIT_CONFIG_BYTES = 1024 * 1024


def origin_url(root: Path) -> str | None:
    """The URL of the ``origin`` remote of the repository at ``root`` (from the common git
    directory's ``config``, at most :data:`MAX_GIT_CONFIG_BYTES` read; git is not run), or None:
    no repository, no origin, a config that cannot be read. The one reader of it
    (:func:`memdir.git.identity`, the team layer's trust record). Never raises."""
    try:
        gitdir = git_dir_of(Path(root))
        if gitdir is None:
            return None
        gitdir = common_dir_of(gitdir) or gitdir  # a linked worktree's: the repository's own
        with open(gitdir / "config", "rb") as handle:
            config = handle.read(MAX_GIT_CONFIG_BYTES).decode("utf-8", "replace") + "\n["
    except (OSError, ValueError):
        return None
    section = re.search(_REMOTE, config)
    url = re.search(_URL, section.group(1)) if section else None
    return url.group(1) if url else None


def _git_top(start: Path) -> Path | None:
    """The top of the git work tree holding ``start``; for a linked worktree,
    the repository's common git directory's owner — the main checkout when
    it is ``<main>/.git``, else (a bare repository, ``git -C repo.git
    worktree add``) the checkout its ``core.worktree`` names (a submodule's
    ``.git/modules/sm`` → the submodule checkout) or the common git
    directory itself — so every worktree of one repository shares a layer."""
    for candidate in (start, *start.parents):
        dotgit = candidate / ".git"
        if dotgit.is_dir():
            return candidate
        if dotgit.is_file():
            try:
                gitdir = git_dir_of(candidate)
                common_dir = common_dir_of(gitdir) if gitdir is not None else None
            except OSError:
                return candidate
            if common_dir is None:  # no linked worktree: this checkout is the top
                return candidate
            if common_dir.name == ".git":
                return common_dir.parent
            return _core_worktree(common_dir) or common_dir
    return None


def _core_worktree(git_dir: Path) -> Path | None:
    """The checkout a git directory names with ``core.worktree`` (a
    submodule's ``<super>/.git/modules/sm`` names ``<super>/sm``), resolved
    against ``git_dir``; None when it names none or that is no directory."""
    try:
        text = (git_dir / "config").read_text(encoding="utf-8", errors="replace")
    except OSError:
        return None
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]").strip().lower()
        elif section == "core" and line.split("=")[0].strip().lower() == "worktree" and "=" in line:
            owner = (git_dir / line.split("=", 1)[1].strip().strip('"')).resolve()
            return owner if owner.is_dir() else None
    return None


def work_tree_top(path: str | os.PathLike) -> Path:
    """The top of the git work tree holding ``path`` itself — for a linked
    worktree, that worktree, not the checkout it shares a layer with — or
    ``path`` resolved when it is in no work tree. Where files that belong to
    this checkout go (the installer's project-scope files)."""
    start = Path(path).expanduser().resolve()
    for candidate in (start, *start.parents):
        if (candidate / ".git").exists():
            return candidate
    return start


def project_dir(path: str | os.PathLike) -> Path:
    """The canonical project root of a session directory: symlinks resolved,
    then moved up to the top of its git work tree when there is one.

    Raises :class:`ScopeError` when ``path`` is empty, does not exist, is
    not a directory or cannot be examined (a NUL, a name too long). Does not judge the result (see :func:`refusal`); the
    rule that combines both is :func:`project_root_of`.
    """
    raw = str(path).strip() if path is not None else ""
    if not raw:
        raise ScopeError(NO_PROJECT)
    try:
        root = Path(raw).expanduser().resolve()
    except ValueError:  # a NUL byte: no file system has such a directory
        raise ScopeError(f"project directory {raw!r} is not a valid path") from None
    except OSError:  # a relative path, and the working directory was deleted
        raise ScopeError(f"project directory {raw!r} cannot be found: {CWD_GONE}") from None
    try:
        is_dir = root.is_dir()
    except OSError as exc:  # a name too long, a directory that cannot be searched
        raise ScopeError(f"project directory {raw!r} cannot be examined: {exc.strerror or exc}") from None
    if not is_dir:
        fact = f"project directory {raw!r} " + ("is not a directory" if root.exists() else "does not exist")
        raise ScopeError(fact + "; give an existing directory (--project DIR or MEMDIR_PROJECT)", fact=fact)
    top = _git_top(root)
    return top if top is not None else root


def refusal(root: Path) -> str | None:
    """Why ``root`` cannot be a project root, or None when it can: memdir
    never treats ``/`` or the whole ``$HOME`` as one project (DESIGN §2)."""
    home = Path(os.path.expanduser("~")).resolve()
    if root == Path(root.anchor) or root == home:
        return (f"refusing to use {str(root)!r} as a project root (it is / or $HOME); "
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


def project_root_of(source: str | os.PathLike) -> tuple[Path | None, str | None]:
    """The project root of the directory ``source``: ``(root, None)`` for a
    directory that can be a project (canonical, see :func:`project_dir`),
    ``(None, reason)`` for ``$HOME`` or ``/`` (:func:`refusal`). Raises
    :class:`ScopeError` when ``source`` is not an existing directory."""
    root = project_dir(source)
    reason = refusal(root)
    return (None, reason) if reason else (root, None)


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


def user_layer_dir(home: Path) -> Path:
    """``<home>/_user``: the user layer, shared by every project."""
    return home / USER_LAYER_DIR


SYNC_DIR = "sync"  # the person's sync repository in the home (memdir.files.repository)


def sync_dir(home: Path) -> Path:
    """``<home>/sync``: the sync repository's work tree (it may not exist; set up by ``memdir sync init``)."""
    return Path(home) / SYNC_DIR


def project_layer_dir(home: Path, root: Path) -> Path:
    """``<home>/projects/<key>``: the layer of one canonical project root."""
    return home / PROJECTS_DIR / project_key(root)


def layer_dirs(home: Path) -> list[Path]:
    """Every layer directory that exists under ``home``: ``_user`` first, then
    each ``projects/<key>`` in name order."""
    out = []
    user = user_layer_dir(home)
    if user.is_dir():
        out.append(user)
    projects = Path(home) / PROJECTS_DIR
    if projects.is_dir():
        out.extend(sorted(p for p in projects.iterdir() if p.is_dir()))
    return out


TEAM_DIR = "team"  # under the home: the local side of each repository's team layer


def team_files_dir(root: Path, team_dir: str) -> Path:
    """The team layer's memory files: ``team_dir`` (the setting, default
    ``.claude/memory``) under the repository root ``root``. Raises
    :class:`InvalidInput` for an absolute ``team_dir`` or one leaving the root."""
    rel = Path(str(team_dir).strip() or ".claude/memory")
    if (rel.is_absolute() or ".." in rel.parts or str(team_dir).startswith(("/", "\\"))
            or str(team_dir).strip().startswith("~")):
        raise InvalidInput(f"team_dir must be a path inside the repository, relative to its root (got {team_dir!r}; "
                           "'~' is not expanded)")
    path = Path(root) / rel
    problem = team_dir_problem(Path(root), path)
    if problem:
        raise ScopeError(problem)
    return path


def team_dir_problem(root: Path, path: Path) -> str | None:
    """Why the team directory ``path`` cannot be used, or None: it (or one
    of its ancestors below the repository root ``root``, or its
    ``tombstones`` directory) is a symbolic link, or its real path is not
    inside the real path of ``root``. Memories are never read, written or
    deleted outside the repository through a link."""
    current = Path(root)
    for part in path.relative_to(root).parts + ("tombstones",):
        current = current / part
        if current.is_symlink():
            return (f"the team directory {path} passes through a symbolic link ({current} -> "
                    f"{os.readlink(current)}); memdir does not read or write team memories through a link "
                    "(replace it by a real directory inside the repository)")
    real_root = os.path.realpath(root)
    if os.path.commonpath([real_root, os.path.realpath(path)]) != real_root:
        return f"the team directory {path} is outside the repository {root}"
    return None


def team_meta_dir(home: Path, root: Path) -> Path:
    """``<home>/team/<key>``: this machine's side of the team layer of the
    repository at ``root`` (journal, version objects, lock, derived
    ``MEMORY.md``, the candidates waiting for this person), keyed like a
    project layer so it never enters the repository."""
    return home / TEAM_DIR / project_key(root)


def team_journal_dirs(home: Path) -> list[Path]:
    """The ``.memdir`` of every team layer's local side under ``<home>/team``
    (each ``team/<key>`` and its ``candidates``), in name order."""
    base = Path(home) / TEAM_DIR
    if not base.is_dir():
        return []
    out = []
    for key in sorted(p for p in base.iterdir() if p.is_dir()):
        out += [meta for meta in (key / ".memdir", key / "candidates" / ".memdir") if meta.is_dir()]
    return out
