"""A forget undone by git, not by memdir (break33): a teammate's ``git revert`` of the forget commit brings the
memory file back and takes its team tombstone away in one pull. Every home that had read the tombstone keeps
it in force (the returned file is held back; ``doctor`` and ``team status`` name it with both ways to settle
it) until a person there lifts it or forgets it again. The one rule: :mod:`memdir.tombstones.stones`; its
status and doctor lines: tests/operations/test_team_reverted_forget.py."""

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
    a.publish("team: staging host", b)
    assert "staging-7" in b.memory().context()  # control: the memory reaches B before the forget
    stone = a.memory().forget("staging-host", reason="the host was retired").tombstone
    a.publish("forget the staging host", b)
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
    settles = (f"staging-host is back: its tombstone {stone} left the repository with no lift here, so the file is "
               "held back; `memdir forget staging-host --scope team` (then commit) keeps it forgotten, "
               f"`memdir tombstone lift {stone} --scope team` accepts the removal")
    assert f"team:staging-host: {settles}" in out  # the whole line: doctor's cut leaves both commands
    status = run_cli("--home", str(clone.home), "--project", str(clone.root), "team", "status")
    assert f"  tombstone removed, not lifted here: {settles}" in status.stdout
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


def test_forgetting_it_again_puts_the_tombstone_back_in_the_repository(reverted):
    """The other settle, by the CLI in B's clone (who ran the revert): the returned file goes and the tombstone's
    file is written back, to commit; a clone that pulls it holds the fact back again."""
    a, b, stone = reverted
    assert "staging-7" not in b.memory().context()  # the control: held back before
    forgot = run_cli("--home", str(b.home), "--project", str(b.root), "forget", "staging-host", "--scope", "team")
    assert forgot.returncode == 0, forgot.stderr
    assert not (b.team_dir / "staging-host.md").exists()
    assert (b.team_dir / "tombstones" / f"{stone}.json").is_file()
    assert b.memory().team_status().unlifted == ()
    b.commit_all("forget the staging host again")
    git(b.root, "push", "-q", "origin", "main")
    a.pull()
    mem_a = a.memory()
    assert [t.id for t in mem_a.tombstones("team").tombstones] == [stone] and mem_a.team_status().unlifted == ()
    assert not (a.team_dir / "staging-host.md").exists()


def test_the_tombstones_listing_says_which_left_the_repository_and_how_to_settle_it(tmp_path):
    """``memdir tombstones`` (text and --json) names a team tombstone whose file a teammate's commit took away
    (tomb33: it was listed like any other), with the lift and the restore of its file from git; the one still
    in the repository (the control) is listed plainly. Restoring the file as told makes it a plain one again."""
    import json

    a, b = shared_repository(tmp_path)
    a.memory().write("staging-host", FACT, "project", "Deploy previews go there.", scope="team")
    a.memory().write("db-port", "Dev PostgreSQL listens on 5433", "project", "Port 5433.", scope="team")
    gone = a.memory().forget("staging-host").tombstone
    kept = a.memory().forget("db-port").tombstone
    a.publish("forget two", b)
    assert len(b.memory().tombstones("team").tombstones) == 2  # B read both: the record keeps them
    git(b.root, "rm", "-q", f".claude/memory/tombstones/{gone}.json")  # a teammate's commit deleting one file
    b.commit_all("drop a tombstone by hand")
    b.push()
    a.pull()
    assert not (a.team_dir / "tombstones" / f"{gone}.json").exists() and not (a.team_dir / "staging-host.md").exists()
    args = ("--home", str(a.home), "--project", str(a.root), "tombstones")
    listed = run_cli(*args)
    assert listed.returncode == 0, listed.stderr
    settle = (f"the tombstone {gone} of staging-host left the repository with no lift here, so it stays in force "
              f"here; `memdir tombstone lift {gone} --scope team` accepts the removal; restoring "
              f"tombstones/{gone}.json from git (then commit) keeps it")
    lines = listed.stdout.splitlines()
    [at] = [i for i, line in enumerate(lines) if line.startswith(gone)]
    assert lines[at + 1] == f"    {settle}"
    [other] = [i for i, line in enumerate(lines) if line.startswith(kept)]
    assert other + 1 == len(lines) or lines[other + 1].startswith("t-")  # the control: no second line
    shown = {t["id"]: t for t in json.loads(run_cli(*args, "--json").stdout)["tombstones"]}
    assert (shown[gone]["vanished"], shown[gone]["settle"]) == (True, settle)
    assert (shown[kept]["vanished"], shown[kept]["settle"]) == (False, "")
    # the restore it names: the file back from git, and the tombstone is a plain one again
    git(a.root, "checkout", "HEAD~1", "--", f".claude/memory/tombstones/{gone}.json")
    again = {t["id"]: t for t in json.loads(run_cli(*args, "--json").stdout)["tombstones"]}
    assert (again[gone]["vanished"], again[gone]["settle"]) == (False, "")
