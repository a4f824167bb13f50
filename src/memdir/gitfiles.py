"""git's own files read without running git (DESIGN §2, §11): a repository's git directory (the one reader of a
``.git`` file), a linked worktree's common directory, the ``origin`` remote's URL, and the top of the work tree
that holds a directory — what the project root (:mod:`memdir.paths`) and the team layer's trust record
(:mod:`memdir.files.trust`) are keyed by. Running git is :mod:`memdir.git`.

Paths are strings, and neither :mod:`pathlib` nor :mod:`re` is loaded at import (the hooks' hot path reads a
project root through this); the ``*_of`` forms give a :class:`~pathlib.Path`.
"""

from __future__ import annotations

import os

TYPE_CHECKING = False  # as typing.TYPE_CHECKING, without importing typing
if TYPE_CHECKING:
    from pathlib import Path


def pure_path(path: str) -> str:
    """``path`` written as :class:`pathlib.PurePath` writes it (on POSIX: repeated and trailing
    slashes and ``.`` parts dropped, ``..`` kept, a leading ``//`` kept; ``""`` is ``"."``), without
    loading :mod:`pathlib` (nor the :mod:`re` it loads: the hot path's paths are strings)."""
    if os.name != "posix":  # another separator's rules: pathlib's own
        from pathlib import PurePath

        return str(PurePath(path))
    lead = "//" if path[:2] == "//" and path[2:3] != "/" else "/" if path[:1] == "/" else ""
    body = "/".join(part for part in path.split("/") if part and part != ".")
    return (lead + body) or "."


def _read_git_text(path: str) -> str:
    """The text of a file git keeps (a ``.git`` file, ``commondir``, a git directory's ``config``):
    git writes the paths in them as the file system's bytes, so they are decoded as the file system
    decodes names (:func:`os.fsdecode`: a Latin-1 ``caf\\xe9`` stays the directory it names, never
    ``caf\\ufffd``, and no byte is refused). Raises :class:`OSError` when it cannot be read."""
    with open(path, "rb") as handle:
        return os.fsdecode(handle.read())


def git_dir(path: str | os.PathLike) -> str | None:
    """The git directory of the repository at ``path``: its ``.git``
    directory, the directory its ``.git`` file names (``gitdir: <path>``,
    relative to ``path``: a linked worktree's or a submodule's), or ``path``
    itself when it is a bare repository (``HEAD`` and ``objects/``); None
    otherwise. A string (:func:`pure_path`'s form); :func:`git_dir_of` gives it as a
    :class:`~pathlib.Path`. The one reader of a ``.git`` file (its bytes as the file system
    decodes names). Raises :class:`OSError` when the file cannot be read, :class:`ValueError` when
    a relative ``gitdir`` holds a NUL."""
    path = pure_path(os.fspath(path))
    dotgit = pure_path(os.path.join(path, ".git"))
    if os.path.isdir(dotgit):
        return dotgit
    if os.path.isfile(dotgit):
        text = _read_git_text(dotgit).strip()
        if text.startswith("gitdir:"):
            gitdir = pure_path(text[len("gitdir:"):].strip())
            return gitdir if os.path.isabs(gitdir) else os.path.realpath(os.path.join(path, gitdir))
    if os.path.isfile(os.path.join(path, "HEAD")) and os.path.isdir(os.path.join(path, "objects")):
        return path
    return None


def git_dir_of(path) -> Path | None:
    """:func:`git_dir` as a :class:`~pathlib.Path`; raises as it does."""
    from pathlib import Path

    found = git_dir(path)
    return None if found is None else Path(found)


def common_dir(git_dir: str | os.PathLike) -> str | None:
    """The repository's common git directory that a linked worktree's git
    directory ``git_dir`` names in its ``commondir`` file (resolved against
    ``git_dir``); None when it names none (a main checkout's, a submodule's). A string;
    :func:`common_dir_of` gives it as a :class:`~pathlib.Path`. The file's bytes are read as the file
    system decodes names. Raises :class:`OSError` when the file cannot be read, :class:`ValueError`
    when it holds a NUL."""
    common = os.path.join(os.fspath(git_dir), "commondir")
    if not os.path.isfile(common):
        return None
    text = _read_git_text(common)
    return os.path.realpath(os.path.join(pure_path(os.fspath(git_dir)), pure_path(text.strip())))


def common_dir_of(git_dir) -> Path | None:
    """:func:`common_dir` as a :class:`~pathlib.Path`; raises as it does."""
    from pathlib import Path

    found = common_dir(git_dir)
    return None if found is None else Path(found)


def linked_common_dir(checkout: str | os.PathLike, gitdir: str | os.PathLike) -> str | None:
    """The repository's common git directory when ``gitdir`` (what :func:`git_dir` of ``checkout`` found) is a
    linked worktree's git directory of it (:func:`_linked`: its ``commondir`` names a repository that lists it among
    its ``worktrees/`` and that names ``checkout``'s ``.git`` back); None otherwise — a main checkout, a
    submodule, a bare repository, and a ``.git`` file and ``commondir`` planted in a downloaded tree to name another
    repository (break38): its config, origin and trust mark are never read for this one. The one rule of which
    ``commondir`` is honoured (:func:`git_tops`, :func:`origin_url`, :func:`memdir.git.identity`, the trust mark).
    Never raises."""
    dotgit = os.path.join(pure_path(os.fspath(checkout)), ".git")
    try:
        common = common_dir(gitdir) if os.path.isfile(dotgit) else None
    except (OSError, ValueError):
        return None
    return common if common is not None and _linked(os.fspath(gitdir), common, dotgit) else None


def git_dir_holding(path: str | os.PathLike) -> str | None:
    """The git directory that ``path`` (canonical) lies in — itself or an ancestor, met walking up before any
    work tree's ``.git``: a bare repository (``HEAD`` and ``objects/``, :func:`git_dir`'s rule), a checkout's
    ``.git`` directory, a linked worktree's ``worktrees/<name>`` (``HEAD`` and ``commondir``) — or None: ``path``
    is in a work tree, or in no repository. git's own discovery in that order (a directory's ``.git`` first, then
    the directory as a git directory), without running git: what a command that needs a work tree refuses
    (``team init`` in a bare repository made its team directory inside the git directory, where git tracks
    nothing). Never raises."""
    candidate = pure_path(os.fspath(path))
    while True:
        if os.path.lexists(os.path.join(candidate, ".git")):
            return None
        if os.path.isfile(os.path.join(candidate, "HEAD")) and (
                os.path.isdir(os.path.join(candidate, "objects")) or os.path.isfile(os.path.join(candidate, "commondir"))):
            return candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return None
        candidate = parent


# Patterns are compiled at their first use (re's cache; re itself is imported then), never at import: the
# hot path imports this.
_REMOTE = r'(?ms)^\s*\[remote "origin"\]\s*$(.*?)^\s*\['
_URL = r"(?m)^\s*url\s*=\s*(.+?)\s*$"
MAX_GIT_CONFIG_BYTES = 1024 * 1024


def origin_url(root: Path) -> str | None:
    """The URL of the ``origin`` remote of the repository at ``root`` (from the common git
    directory's ``config``, at most :data:`MAX_GIT_CONFIG_BYTES` read; git is not run), or None:
    no repository, no origin, a config that cannot be read. The one reader of it
    (:func:`memdir.git.identity`, the team layer's trust record). Never raises."""
    try:
        gitdir = git_dir(root)
        if gitdir is None:
            return None
        gitdir = linked_common_dir(root, gitdir) or gitdir  # a linked worktree's: the repository's own
        with open(os.path.join(gitdir, "config"), "rb") as handle:
            config = handle.read(MAX_GIT_CONFIG_BYTES).decode("utf-8", "replace") + "\n["
    except (OSError, ValueError):
        return None
    import re  # late: the hot path never reads a remote

    section = re.search(_REMOTE, config)
    url = re.search(_URL, section.group(1)) if section else None
    return url.group(1) if url else None


def git_tops(start: str) -> tuple[str, str] | None:
    """``(top, checkout)`` of the git work tree holding ``start`` (canonical), None outside one. ``checkout``:
    the directory holding the ``.git`` found, the work tree whose files ``start`` sees. ``top``: that
    checkout, or for a linked worktree,
    the repository's common git directory's owner — the main checkout when
    it is ``<main>/.git``, else (a bare repository, ``git -C repo.git
    worktree add``) the checkout its ``core.worktree`` names (a submodule's
    ``.git/modules/sm`` → the submodule checkout) or the common git
    directory itself — so every worktree of one repository shares a layer."""
    candidate = start
    while True:
        dotgit = os.path.join(candidate, ".git")
        if os.path.isdir(dotgit):
            return candidate, candidate
        if os.path.isfile(dotgit):
            try:
                gitdir = git_dir(candidate)
            except (OSError, ValueError):  # unreadable, or naming a path with a NUL: no directory it can name
                return candidate, candidate
            common = linked_common_dir(candidate, gitdir) if gitdir is not None else None
            if common is None:  # no linked worktree (or a planted one)
                return candidate, candidate
            if os.path.basename(common) == ".git":
                return os.path.dirname(common), candidate
            owner = _core_worktree(common)
            return (owner if owner is not None and _git_dir_is(owner, common) else common), candidate
        parent = os.path.dirname(candidate)
        if parent == candidate:
            return None
        candidate = parent


def _linked(gitdir: str, common: str, dotgit: str) -> bool:
    """Whether ``gitdir`` (named by the ``.git`` file ``dotgit``) is a linked worktree's git directory of the
    repository whose common directory is ``common``: one of ``common``'s ``worktrees/``, naming ``dotgit`` back in
    its ``gitdir`` file — what ``git worktree add`` writes. A ``.git`` file and git directory planted in a
    downloaded tree (a tarball: git never checks a ``.git`` out), whose ``commondir`` names another repository,
    made that tree the other project's (break38); a worktree moved without ``git worktree repair`` no longer
    names itself back and is a checkout of its own. Never raises."""
    try:
        real = os.path.realpath(gitdir)
        if os.path.dirname(real) != os.path.join(os.path.realpath(common), "worktrees"):
            return False
        back = _read_git_text(os.path.join(real, "gitdir")).strip()
        return bool(back) and os.path.realpath(os.path.join(real, pure_path(back))) == os.path.realpath(dotgit)
    except (OSError, ValueError):
        return False


def _git_dir_is(checkout: str, common: str) -> bool:
    """Whether ``checkout``'s own git directory is ``common`` (a submodule checkout's ``.git`` file naming
    ``<super>/.git/modules/sm``): a ``core.worktree`` naming another repository's checkout names no top. Never
    raises."""
    try:
        found = git_dir(checkout)
    except (OSError, ValueError):
        return False
    return found is not None and os.path.realpath(found) == os.path.realpath(common)


def _core_worktree(git_dir: str) -> str | None:
    """The checkout a git directory names with ``core.worktree`` (a
    submodule's ``<super>/.git/modules/sm`` names ``<super>/sm``), resolved
    against ``git_dir``; None when it names none or that is no directory."""
    try:
        text = _read_git_text(os.path.join(git_dir, "config"))
    except OSError:
        return None
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if line.startswith("["):
            section = line.strip("[]").strip().lower()
        elif section == "core" and line.split("=")[0].strip().lower() == "worktree" and "=" in line:
            owner = os.path.realpath(os.path.join(git_dir, pure_path(line.split("=", 1)[1].strip().strip('"'))))
            return owner if os.path.isdir(owner) else None
    return None


__all__ = ["MAX_GIT_CONFIG_BYTES", "common_dir", "common_dir_of", "git_dir", "git_dir_holding", "git_dir_of", "git_tops",
           "linked_common_dir", "origin_url", "pure_path"]
