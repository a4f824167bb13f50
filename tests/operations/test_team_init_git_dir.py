"""`memdir team init` needs a work tree (team40): run in a bare repository it made `.claude/memory` inside the git
directory, among its refs, where git tracks nothing and no teammate ever gets a file. Run in a bare repository, a
directory below one, a checkout's `.git` or a linked worktree's git directory, it refuses and says where to run it;
a normal checkout and a linked worktree (of a checkout and of a bare repository) still get their team layer."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import git

pytestmark = pytest.mark.slow


def _repository(tmp_path):
    """A bare repository with one commit, a clone of it, and a linked worktree of each."""
    bare = tmp_path / "app.git"
    git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    clone = tmp_path / "clone"
    git(tmp_path, "clone", "-q", str(bare), str(clone))
    git(clone, "checkout", "-q", "-b", "main")
    git(clone, "-c", "user.name=A", "-c", "user.email=a@example.com", "commit", "-q", "--allow-empty", "-m", "start")
    git(clone, "push", "-q", "origin", "main")
    git(clone, "worktree", "add", "-q", str(tmp_path / "clone-wt"))
    git(bare, "worktree", "add", "-q", str(tmp_path / "bare-wt"))
    return bare, clone


def _init(tmp_path, where, *, project: bool = False):
    args = ("--home", tmp_path / "home", *(("--project", where) if project else ()), "team", "init")
    return run_cli(*args, cwd=None if project else where)


def test_team_init_refuses_a_git_directory_and_says_where_to_run_it(tmp_path):
    bare, clone = _repository(tmp_path)
    in_a_checkout = f"in a checkout of it (`git clone {bare} DIR`, or `git -C {bare} worktree add DIR`)"
    cases = [(bare, bare, in_a_checkout), (bare / "refs", bare, in_a_checkout),
             (bare / "worktrees" / "bare-wt", bare / "worktrees" / "bare-wt", in_a_checkout),
             (clone / ".git", clone / ".git", f"in its work tree, {clone}"),
             (clone / ".git" / "worktrees" / "clone-wt", clone / ".git" / "worktrees" / "clone-wt",
              f"in its work tree, {clone}")]
    for where, inside, advice in cases:
        for project in (False, True):
            done = _init(tmp_path, where, project=project)
            assert done.returncode != 0, (where, done.stdout)
            assert done.stderr.strip() == (f"memdir: {where} is inside the git directory {inside}, not a work tree: "
                                           "a team layer is files committed from a checkout's work tree; run "
                                           f"`memdir team init` {advice}"), where
    assert not (bare / ".claude").exists() and not (bare / "refs" / ".claude").exists()
    assert not (clone / ".claude").exists()  # the session from .git moved up to the work tree: nothing made there
    # control: the checkout, a linked worktree of it and one of the bare repository get a team layer
    for checkout in (clone, tmp_path / "clone-wt", tmp_path / "bare-wt"):
        done = _init(tmp_path, checkout)
        assert done.returncode == 0, done.stderr
        assert done.stdout.splitlines()[0] == f"Team memory directory: {checkout / '.claude' / 'memory'}"
        assert (checkout / ".claude" / "memory" / ".gitattributes").is_file()
