"""A teammate's ``git revert`` of the commit that forgot a team memory (team33).

B forgets ``deploy-day`` in the team layer and pushes; A reverts that commit and pushes; B pulls. The revert
takes the tombstone file away and brings the memory back, and before every reader took that in silently: the
fact B forgot was in B's agent's context again, with no word from ``team status`` or ``doctor``. Now both say
so, with the two commands that settle it, until B forgets it again or lifts the tombstone here."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import git, shared_repository


@pytest.fixture
def reverted(tmp_path):
    """(A, B, tombstone id) after A's revert of B's forget reached B."""
    a, b = shared_repository(tmp_path)
    a.memory().write("deploy-day", "Deploys go out on Tuesday", "project", "We deploy on Tuesday.", scope="team")
    a.commit_all("team: deploy-day")
    a.push()
    b.pull()
    mb = b.memory(search_vectors="off")
    mb.forget("deploy-day", scope="team")
    [stone] = mb.tombstones("team").tombstones
    b.commit_all("team: forget deploy-day")
    b.push()
    # the control: B's own forget, in force, is no finding
    assert mb.team_status().unlifted == () and not any(p.path == "team:deploy-day" for p in mb.doctor().problems)
    a.pull()
    git(a.root, "revert", "--no-edit", "HEAD")
    a.push()
    b.pull()
    return a, b, stone.id


def test_status_and_doctor_say_the_forgotten_memory_is_back(reverted):
    a, b, stone = reverted
    mb = b.memory(search_vectors="off")
    assert (b.team_dir / "deploy-day.md").is_file() and mb.tombstones("team").tombstones == ()
    [gone] = mb.team_status().unlifted
    assert (gone.name, gone.tombstone, gone.back) == ("deploy-day", stone, True)
    assert gone.said.startswith(f"deploy-day is back in the team directory: the tombstone {stone} that forgot it "
                                "here (")
    assert "`memdir forget deploy-day --scope team` (then commit) keeps it forgotten" in gone.said
    assert f"`memdir tombstone lift {stone} --scope team` accepts its removal" in gone.said
    assert [p.error for p in mb.doctor().problems if p.path == "team:deploy-day"] == [gone.said]
    # A reverted it: A made no tombstone here, and nothing is reported to A
    assert a.memory(search_vectors="off").team_status().unlifted == ()


def test_forgetting_it_again_settles_it(reverted):
    _, b, stone = reverted
    mb = b.memory(search_vectors="off")
    mb.forget("deploy-day", scope="team")
    assert [t.id for t in mb.tombstones("team").tombstones] == [stone]  # the same value, the same tombstone
    assert mb.team_status().unlifted == () and not (b.team_dir / "deploy-day.md").exists()
    assert "deploy-day" not in mb.context()


def test_lifting_it_here_accepts_the_removal(reverted):
    _, b, stone = reverted
    mb = b.memory(search_vectors="off")
    lifted = mb.lift_tombstone(stone, scope="team")
    assert (lifted.id, lifted.scope, lifted.name) == (stone, "team", "deploy-day")
    assert mb.team_status().unlifted == () and (b.team_dir / "deploy-day.md").is_file()
    assert not any(p.path == "team:deploy-day" for p in mb.doctor().problems)


def test_the_cli_team_status_says_it(reverted):
    _, b, stone = reverted
    env = {"MEMDIR_HOME": str(b.home), "MEMDIR_SEARCH_VECTORS": "off"}
    shown = run_cli("team", "status", "--project", b.root, env=env)
    assert shown.returncode == 0, shown.stderr
    assert (f"  forgotten here, not lifted: deploy-day is back in the team directory: the tombstone {stone}"
            in shown.stdout)
