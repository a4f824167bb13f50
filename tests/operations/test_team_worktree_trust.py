"""The team layer's trust is the clone's (DESIGN §11, :mod:`memdir.files.trust`): a second worktree of the same
clone (``git worktree add``) is not asked again — its sessions are the clone's project, and the clone's mark sits
in the repository's common git directory — while another clone of the same remote by the same person, and the
clone once its origin points at another remote, are asked (trial30: checked with the real hook, it behaved so)."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from tests.teamgit import Clone, git, shared_repository


def _context(home, cwd) -> str:
    payload = {"session_id": f"s-{cwd.name}", "transcript_path": "/tmp/none.jsonl", "cwd": str(cwd),
               "hook_event_name": "SessionStart", "source": "startup"}
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"],
                          input=json.dumps(payload), capture_output=True, text=True, timeout=60, check=False,
                          env={**os.environ, "MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout else ""


@pytest.mark.slow
def test_a_worktree_of_a_trusted_clone_is_not_asked_again_another_clone_or_remote_is(tmp_path):
    a, _ = shared_repository(tmp_path)  # A's team init trusted its clone
    a.memory().write("db-port", "Team dev DB listens on 5433", "project", "", scope="team")
    a.commit_all("team memory")
    a.push()
    worktree = tmp_path / "A-feature"
    git(a.root, "worktree", "add", "-q", str(worktree), "-b", "feature")
    assert "5433" in _context(a.home, a.root)  # control: the clone itself
    context = _context(a.home, worktree)
    assert "5433" in context and "not trusted" not in context  # its worktree: no second question
    assert Memory.open(home=a.home, project=worktree, actor="agent").session.team_trusted()

    again = Clone(tmp_path, tmp_path / "remote.git", "A-again")  # the same person clones the remote again
    context = _context(a.home, again.root)
    assert "5433" not in context and "not trusted in this clone" in context  # asked: another git directory

    git(worktree, "remote", "set-url", "origin", str(tmp_path / "fork.git"))  # the clone now follows another remote
    for cwd in (worktree, a.root):
        context = _context(a.home, cwd)
        assert "5433" not in context and "not trusted in this clone" in context
    git(worktree, "remote", "set-url", "origin", str(tmp_path / "remote.git"))
    assert "5433" in _context(a.home, worktree)  # back to the remote trusted: trusted again, no question
