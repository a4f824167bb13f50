"""A forget undone by git, not by memdir (break33): a teammate's ``git revert`` of the forget commit brings the
memory file back and takes its team tombstone away in one pull. Every home that had read the tombstone keeps
it in force (the returned file is held back and ``doctor`` names it) until a person there lifts it."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.errors import TombstoneRefused
from tests.conftest import run_cli
from tests.teamgit import git, shared_repository

pytestmark = pytest.mark.slow  # real git, two clones

FACT = "Staging host is staging-7.internal.example.com"


@pytest.fixture
def reverted(tmp_path):
    """A wrote and forgot a team memory; B pulled both, then reverted the forget commit and pushed; A pulled."""
    a, b = shared_repository(tmp_path)
    a.memory().write("staging-host", FACT, "project", "Deploy previews go there.", scope="team")
    a.commit_all("team: staging host")
    a.push()
    b.pull()
    assert "staging-7" in b.memory().context()  # control: the memory reaches B before the forget
    stone = a.memory().forget("staging-host", reason="the host was retired").tombstone
    a.commit_all("forget the staging host")
    a.push()
    b.pull()
    assert "staging-7" not in b.memory().context()
    git(b.root, "revert", "--no-edit", "HEAD")
    git(b.root, "push", "-q", "origin", "main")
    a.pull()
    assert (a.team_dir / "staging-host.md").is_file() and not (a.team_dir / "tombstones" / f"{stone}.json").exists()
    return a, b, stone


@pytest.mark.parametrize("who", ["A", "B"])
def test_a_reverted_forget_is_held_back_and_named_until_a_person_lifts_it(reverted, who):
    a, b, stone = reverted
    clone = a if who == "A" else b
    mem = clone.memory()
    assert "staging-7" not in mem.context()
    assert [m.name for m in mem.list().memories] == []
    doctor = run_cli("--home", str(clone.home), "--project", str(clone.root), "doctor")
    assert doctor.returncode == 1
    out = doctor.stdout + doctor.stderr
    assert f"(the same value; tombstone {stone}, its file left the repository unlifted)" in out
    assert f"memdir tombstone lift {stone} --scope team" in out
    with pytest.raises(TombstoneRefused):  # written again by the agent: refused as before the revert
        clone.memory(actor="agent").write("staging", FACT, "project", scope="project")
    assert clone.memory(actor="agent").write("build-server", "The build server is ci-3.internal.example.com",
                                              "project", scope="project").operation == "created"  # control
    listed = run_cli("--home", str(clone.home), "--project", str(clone.root), "tombstones")
    assert stone in listed.stdout
    lifted = run_cli("--home", str(clone.home), "--project", str(clone.root), "tombstone", "lift", stone)
    assert lifted.returncode == 0, lifted.stderr
    after = clone.memory()
    assert "- [staging-host](staging-host.md) — " + FACT in after.context()  # the person kept the revert
    assert stone not in run_cli("--home", str(clone.home), "--project", str(clone.root), "tombstones").stdout
    lifts = after.journal(scope="team", action="tombstone-lift").entries
    assert [(e.name, e.actor) for e in lifts] == [("staging-host", "human")]


def test_a_home_that_never_read_the_tombstone_sees_the_reverted_memory(reverted, tmp_path):
    """Control: the returned file is a sound memory; only a home that read its tombstone holds it back."""
    a, _, _ = reverted
    fresh = Memory.open(home=tmp_path / "home-fresh", project=a.root, actor="human")
    fresh.team_trust()
    assert "- [staging-host](staging-host.md) — " + FACT in fresh.context()
