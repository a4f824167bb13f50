"""A forget reverted in the sync repository by git (break34): `git revert` of the commit that carried a
tombstone removes the tombstone file and puts the memory file back. Only a person's `memdir tombstone
lift` lifts a tombstone (DESIGN §5), so a machine that syncs after the revert keeps the fact forgotten —
as the team layer keeps a tombstone whose file left the repository unlifted — while a person's lift still
travels (the control: test_sync.test_a_lift_travels_only_when_a_person_lifted). Real git, a bare remote,
two homes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.operations.test_sync import both, git, world  # noqa: F401

pytestmark = pytest.mark.slow

FACT, KEPT = "The staging host is staging-7.internal.example.com.", "Uses Neovim"


def _revert_in_remote(tmp: Path, remote: Path, grep: str) -> None:
    """A person's (or another clone's) `git revert` of the last commit of the remote touching ``grep``."""
    clone = tmp / "reverter"
    git(tmp, "clone", "-q", str(remote), str(clone))
    sha = git(clone, "log", "--format=%H", "-1", "--", grep).stdout.strip()
    assert sha
    git(clone, "revert", "--no-edit", sha)
    git(clone, "push", "-q", "origin", "HEAD:main")


def test_a_forget_reverted_by_git_in_the_sync_repository_stays_forgotten(world, tmp_path):  # noqa: F811
    a, b, remote = world
    both(a, b, remote)
    a.mem().write("staging", FACT, "user", scope="user")
    a.mem().write("editor", KEPT, "user", scope="user")
    a.sync()
    b.sync()
    a.mem().forget("staging", scope="user")
    a.sync()
    b.sync()
    assert FACT not in b.mem("agent").context() and KEPT in b.mem("agent").context()
    _revert_in_remote(tmp_path, remote, "user/tombstones")
    for machine in (b, a):
        machine.sync()
        stones = {s.name for s in machine.mem().tombstones().tombstones}
        context = machine.mem("agent").context()
        assert stones == {"staging"}, (machine.home, stones)
        assert FACT not in context and KEPT in context, context
