"""A write over a team memory's edit made outside memdir that no read saw says whether git brought it (its text is
what the repository's last commit holds: a pull) or a person made it by hand (no commit holds it), from git's
state (left44c; team43 left the sentence neutral: "by hand, or by git"). Real git, two clones; a personal layer,
which no git holds, keeps the neutral sentence (tests/layer/test_kept_hand_edit.py pins it)."""

from __future__ import annotations

import time

import pytest

from memdir.render.memories import kept_edit
from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow  # real git, two clones

BY_GIT = "(by git: its text is the one the repository's last commit holds (a pull, a checkout, a merge or a commit of it))"
BY_HAND = "(by hand: no commit git checked out holds its text)"


@pytest.fixture
def clones(tmp_path):
    a, b = shared_repository(tmp_path)
    a.memory().write("ci", "CI runs on GitHub Actions", "project", "Runners: linux-x64.", scope="team")
    a.commit_all("team memories")
    a.push()
    b.pull()
    b.memory().team_init()
    return a, b


def test_an_edit_a_pull_brought_is_said_to_be_git_s_and_one_by_hand_to_be_a_person_s(clones):
    a, b = clones
    time.sleep(1.1)
    a.memory().write("ci", scope="team", body="Runners: linux-x64 and arm64.")
    a.commit_all("A's change")
    a.push()
    b.pull()  # git changes B's ci.md: an edit outside B's memdir, read by nobody yet
    time.sleep(1.1)
    done = b.memory().write("ci", scope="team", body="Runners: linux-x64, arm64 and macos.")
    assert done.kept_edit is not None and done.kept_edit.by == "git"
    assert BY_GIT in kept_edit(done) and "by hand" not in kept_edit(done)
    # control, same clone: a person's save of the file that no commit holds
    time.sleep(1.1)
    path = b.team_dir / "ci.md"
    path.write_text(path.read_text().replace("and macos", "and windows"))
    time.sleep(1.1)
    out = run_cli("write", "ci", "--scope", "team", "-b", "Runners: all four.", "--project", b.root,
                  env={"MEMDIR_HOME": str(b.home)})
    assert out.returncode == 0, out.stderr
    assert BY_HAND in " ".join(out.stdout.split()) and "by git" not in out.stdout, out.stdout
