"""A directory's planted ``.git`` file cannot make it another project's worktree (break38): a downloaded tree
(a tarball, a zip — git never checks a ``.git`` out) holding ``.git`` (``gitdir: fakegit``) and
``fakegit/commondir`` naming ``/path/to/victim/.git`` was read as a linked worktree of the victim's repository, so
a session there listed, searched and wrote the victim project's memories; git itself says "not a git repository"
there. A linked worktree shares its repository's layer only when its git directory is one of the common
directory's ``worktrees/`` and names this checkout back (what ``git worktree add`` writes), and a checkout
``core.worktree`` names is that repository's. A real ``git worktree add`` still shares the layer (the control)."""

from __future__ import annotations

import os
import subprocess

from tests.conftest import run_cli

GIT = ["git", "-c", "user.name=t", "-c", "user.email=t@example.com", "-c", "init.defaultBranch=main"]
ENV = {"MEMDIR_SEARCH_VECTORS": "off"}
LINE = "- secret-db (type: project; layer: project) — Prod DB hint is under vault path ops/prod"


def _list(cwd) -> str:
    done = run_cli("list", cwd=cwd, env=ENV)
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def test_a_planted_git_file_does_not_reach_another_projects_layer(tmp_path, isolated_home):
    victim = tmp_path / "victim"
    victim.mkdir()
    subprocess.run([*GIT, "-C", str(victim), "init", "-q"], check=True)
    subprocess.run([*GIT, "-C", str(victim), "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    assert run_cli("write", "secret-db", "-d", "Prod DB hint is under vault path ops/prod", "--body", "",
                   cwd=victim, env=ENV).returncode == 0
    subprocess.run([*GIT, "-C", str(victim), "worktree", "add", "-q", str(tmp_path / "real-wt")], check=True)
    assert _list(tmp_path / "real-wt") == LINE  # control: a real worktree shares the repository's layer

    # 1: a .git file naming a git directory of its own whose commondir is the victim's
    one = tmp_path / "download-1"
    (one / "fakegit").mkdir(parents=True)
    (one / ".git").write_text("gitdir: fakegit\n")
    (one / "fakegit" / "commondir").write_text(f"{victim / '.git'}\n")
    # 2: a common directory of its own (with a worktree that names this checkout back), core.worktree the victim
    two = tmp_path / "download-2"
    (two / "fc" / "worktrees" / "w").mkdir(parents=True)
    (two / ".git").write_text("gitdir: fc/worktrees/w\n")
    (two / "fc" / "worktrees" / "w" / "commondir").write_text("../..\n")
    (two / "fc" / "worktrees" / "w" / "gitdir").write_text("../../../.git\n")
    (two / "fc" / "config").write_text(f"[core]\n\tworktree = {victim}\n")
    # 3: a real worktree's git directory named by a second checkout (it names the real one back, not this)
    (wt_dir,) = (victim / ".git" / "worktrees").iterdir()
    three = tmp_path / "download-3"
    three.mkdir()
    (three / ".git").write_text(f"gitdir: {wt_dir}\n")
    # the second's own common directory is its top, as a bare repository's is for its worktrees
    for planted, root in ((one, one), (two, two / "fc"), (three, three)):
        assert _list(planted) == "No memories yet.", planted.name
        status = run_cli("status", cwd=planted, env=ENV).stdout
        assert f"project: {root}\n" in status, planted.name
    assert _list(victim) == LINE and os.path.isdir(tmp_path / "real-wt")  # the victim's own still lists it


def test_a_planted_commondir_names_no_origin_identity_or_trust_of_another_repository(tmp_path):
    """break38's leftover: ``origin_url`` and ``git.identity`` still read the ``config`` of the repository a
    planted ``commondir`` named (and the team trust mark lived there). Control: a real worktree reads its
    repository's origin and is named a worktree."""
    from memdir import git
    from memdir.files.trust import _git_dir
    from memdir.gitfiles import linked_common_dir, origin_url

    victim = tmp_path / "victim"
    victim.mkdir()
    subprocess.run([*GIT, "-C", str(victim), "init", "-q"], check=True)
    subprocess.run([*GIT, "-C", str(victim), "commit", "-q", "--allow-empty", "-m", "one"], check=True)
    subprocess.run([*GIT, "-C", str(victim), "remote", "add", "origin", "https://example.com/victim.git"], check=True)
    subprocess.run([*GIT, "-C", str(victim), "worktree", "add", "-q", str(tmp_path / "real-wt")], check=True)
    planted = tmp_path / "download"
    (planted / "fakegit").mkdir(parents=True)
    (planted / ".git").write_text("gitdir: fakegit\n")
    (planted / "fakegit" / "commondir").write_text(f"{victim / '.git'}\n")

    assert origin_url(planted) is None and git.identity(planted) == {}
    assert _git_dir(planted) == str(planted / "fakegit")  # its own, never the victim's .git
    assert linked_common_dir(planted, planted / "fakegit") is None
    real = tmp_path / "real-wt"  # control: a real worktree is the repository's
    assert origin_url(real) == "https://example.com/victim.git"
    assert linked_common_dir(real, git.git_dir_of(real)) == str(victim / ".git")
    found = git.identity(real)
    assert found["remote"] == "https://example.com/victim.git" and found["worktree"] == str(git.git_dir_of(real))
    assert _git_dir(real) == str(victim / ".git")
