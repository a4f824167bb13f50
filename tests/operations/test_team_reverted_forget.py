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
    # A ran the revert with git, not memdir: A's memdir sees the commit that brought it back, and says so too
    [seen] = a.memory(search_vectors="off").team_status().unlifted
    head = git(a.root, "rev-parse", "HEAD").stdout.strip()
    assert (seen.name, seen.tombstone, seen.commit) == ("deploy-day", stone, head)
    assert seen.said.startswith(f"deploy-day is back in the team directory: commit {head[:12]} (")


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


def test_a_third_clone_that_never_saw_the_forget_is_told_too(tmp_path):
    """C clones after the forget; the revert reaches C by a pull. A person's lift in memdir, committed, is no
    finding (the control: it deletes the tombstone without adding the memory back)."""
    from tests.teamgit import Clone

    a, b = shared_repository(tmp_path)
    for name, said in (("deploy-day", "Deploys go out on Tuesday"), ("db-port", "Dev PostgreSQL listens on 5433")):
        a.memory().write(name, said, "project", f"{said}.", scope="team")
    a.commit_all("team: two memories")
    a.push()
    b.pull()
    mb = b.memory(search_vectors="off")
    mb.forget("deploy-day", scope="team")
    mb.forget("db-port", scope="team")
    b.commit_all("team: forget two")
    b.push()
    c = Clone(tmp_path, tmp_path / "remote.git", "C")
    c.trust()
    mc = c.memory(search_vectors="off")
    assert mc.team_status().unlifted == ()
    a.pull()
    git(a.root, "revert", "--no-edit", "HEAD")  # brings both back
    a.push()
    lifted = [t.id for t in mb.tombstones("team").tombstones if t.name == "db-port"]
    b.pull()
    c.pull()
    assert sorted(u.name for u in mc.team_status().unlifted) == ["db-port", "deploy-day"]
    # C lifts db-port's here: only deploy-day is still told
    mc.lift_tombstone(lifted[0], scope="team")
    assert [u.name for u in mc.team_status().unlifted] == ["deploy-day"]


def test_a_lift_committed_by_a_person_is_not_reported(tmp_path):
    """A forgets two memories, lifts the first's tombstone with memdir (committed) and reverts the second's
    forget with git: a clone made afterwards is told of the second alone."""
    from tests.teamgit import Clone

    a, _ = shared_repository(tmp_path)
    ma = a.memory(search_vectors="off")
    ma.write("deploy-day", "Deploys go out on Tuesday", "project", "On Tuesday.", scope="team")
    ma.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Port 5433.", scope="team")
    a.commit_all("team: two memories")
    ma.forget("deploy-day", scope="team")
    a.commit_all("team: forget deploy-day")
    ma.forget("db-port", scope="team")
    a.commit_all("team: forget db-port")
    [stone] = [t for t in ma.tombstones("team").tombstones if t.name == "deploy-day"]
    ma.lift_tombstone(stone.id, scope="team")
    a.commit_all("team: lift deploy-day's tombstone")
    git(a.root, "revert", "--no-edit", "HEAD~1")
    a.push()
    c = Clone(tmp_path, tmp_path / "remote.git", "C")
    c.trust()
    assert [(u.name, bool(u.commit)) for u in c.memory(search_vectors="off").team_status().unlifted] == [
        ("db-port", True)]
