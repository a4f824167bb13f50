"""A teammate's ``git revert`` of the commit that forgot a team memory (team33; one rule with break33's, in
:mod:`memdir.tombstones.stones`).

B forgets ``deploy-day`` in the team layer and pushes; A reverts that commit and pushes; B pulls. The revert
takes the tombstone file away and brings the memory back, and before every reader took that in silently: the
fact B forgot was in B's agent's context again, with no word from ``team status`` or ``doctor``. Now the
tombstone stays in force in every home that read it (the returned file is held back) and both say so, with the
two commands that settle it, until a person there forgets it again or lifts the tombstone. A home that never
read the tombstone has nothing to keep: git's history is not read for it."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import Clone, git, shared_repository

pytestmark = pytest.mark.slow  # real git, two or three clones

FACT = "Deploys go out on Tuesday"


@pytest.fixture
def reverted(tmp_path):
    """(A, B, tombstone id) after A's revert of B's forget reached B."""
    a, b = shared_repository(tmp_path)
    a.memory().write("deploy-day", FACT, "project", "We deploy on Tuesday.", scope="team")
    a.publish("team: deploy-day", b)
    mb = b.memory(search_vectors="off")
    assert FACT in mb.context()  # the control: the memory reaches B before the forget
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
    assert (b.team_dir / "deploy-day.md").is_file()
    assert [t.id for t in mb.tombstones("team").tombstones] == [stone]  # in force here, its file gone
    assert FACT not in mb.context()  # held back
    [gone] = mb.team_status().unlifted
    assert (gone.name, gone.tombstone, gone.back) == ("deploy-day", stone, True)
    assert gone.said == (f"deploy-day is back: its tombstone {stone} left the repository with no lift here, so the "
                         "file is held back; `memdir forget deploy-day --scope team` (then commit) keeps it "
                         f"forgotten, `memdir tombstone lift {stone} --scope team` accepts the removal")
    assert [p.error for p in mb.doctor().problems if p.path == "team:deploy-day"] == [gone.said]
    # A ran the revert with git alone: A's memdir never read the tombstone, so it has none to keep (git's
    # history is not read: a lift of a removed tombstone leaves nothing there for the next clone to see)
    ma = a.memory(search_vectors="off")
    assert ma.team_status().unlifted == () and ma.tombstones("team").tombstones == ()
    assert FACT in ma.context()


def test_forgetting_it_again_settles_it(reverted):
    _, b, stone = reverted
    mb = b.memory(search_vectors="off")
    assert [u.tombstone for u in mb.team_status().unlifted] == [stone]  # the control: told before
    mb.forget("deploy-day", scope="team")
    assert [t.id for t in mb.tombstones("team").tombstones] == [stone]  # the same value, the same tombstone
    assert (b.team_dir / "tombstones" / f"{stone}.json").is_file()  # its file is back, to commit
    assert mb.team_status().unlifted == () and not (b.team_dir / "deploy-day.md").exists()
    assert "deploy-day" not in mb.context()


def test_lifting_it_here_accepts_the_removal(reverted):
    _, b, stone = reverted
    mb = b.memory(search_vectors="off")
    assert FACT not in mb.context()  # the control: held back before the lift
    lifted = mb.lift_tombstone(stone, scope="team")
    assert (lifted.id, lifted.scope, lifted.name) == (stone, "team", "deploy-day")
    assert mb.team_status().unlifted == () and (b.team_dir / "deploy-day.md").is_file()
    assert not any(p.path == "team:deploy-day" for p in mb.doctor().problems)
    assert f"- [deploy-day](deploy-day.md) — {FACT}" in mb.context()
    [line] = mb.journal(scope="team", action="tombstone-lift").entries
    assert (line.name, line.actor) == ("deploy-day", "human")
    [event] = [e for e in mb.session.layer("team").journal.events() if e.action == "tombstone-lift"]
    assert event.data == {"tombstone": stone, "removed_by": "git"}  # a lift of a file git took away


def test_the_cli_team_status_says_it(reverted):
    _, b, stone = reverted
    env = {"MEMDIR_HOME": str(b.home), "MEMDIR_SEARCH_VECTORS": "off"}
    shown = run_cli("team", "status", "--project", b.root, env=env)
    assert shown.returncode == 0, shown.stderr
    assert f"  tombstone removed, not lifted here: deploy-day is back: its tombstone {stone} left" in shown.stdout


def test_a_third_clone_that_read_the_tombstone_is_told_too(tmp_path):
    """C clones after the forget and reads the tombstones; the revert reaches C by a pull. C, whose person
    forgot nothing, keeps both in force and is told of both; a lift in C settles one."""
    a, b = shared_repository(tmp_path)
    for name, said in (("deploy-day", FACT), ("db-port", "Dev PostgreSQL listens on 5433")):
        a.memory().write(name, said, "project", f"{said}.", scope="team")
    a.publish("team: two memories", b)
    mb = b.memory(search_vectors="off")
    mb.forget("deploy-day", scope="team")
    mb.forget("db-port", scope="team")
    b.commit_all("team: forget two")
    b.push()
    c = Clone(tmp_path, tmp_path / "remote.git", "C")
    c.trust()
    mc = c.memory(search_vectors="off")
    assert mc.team_status().unlifted == () and len(mc.tombstones("team").tombstones) == 2  # read, in force
    a.pull()
    git(a.root, "revert", "--no-edit", "HEAD")  # brings both back
    a.push()
    lifted = [t.id for t in mb.tombstones("team").tombstones if t.name == "db-port"]
    b.pull()
    c.pull()
    assert sorted(u.name for u in mc.team_status().unlifted) == ["db-port", "deploy-day"]
    # C lifts db-port's here: only deploy-day is still told, and db-port reaches C's agent
    mc.lift_tombstone(lifted[0], scope="team")
    assert [u.name for u in mc.team_status().unlifted] == ["deploy-day"]
    block = mc.context()
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in block and FACT not in block


def test_a_lift_committed_by_a_person_is_not_reported(tmp_path):
    """A forgets two memories, lifts the first's tombstone with memdir (committed) and reverts the second's
    forget with git: A is told of the second alone. A clone made afterwards never read either tombstone and is
    told of neither: it sees the returned memory (git's history is not read for a home that never read it)."""
    a, _ = shared_repository(tmp_path)
    ma = a.memory(search_vectors="off")
    ma.write("deploy-day", FACT, "project", "On Tuesday.", scope="team")
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
    assert [(u.name, u.back) for u in a.memory(search_vectors="off").team_status().unlifted] == [("db-port", True)]
    c = Clone(tmp_path, tmp_path / "remote.git", "C")
    c.trust()
    mc = c.memory(search_vectors="off")
    assert mc.team_status().unlifted == ()
    assert "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433" in mc.context()
