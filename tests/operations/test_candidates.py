"""The team's candidates live in :mod:`memdir.operations.candidates` (drawn out of operations.team, which
re-exports them): an agent's team write waits in the home and reaches the team layer only by a person's
approval, through either module's name."""

from __future__ import annotations

from memdir import Memory
from memdir.operations import candidates
from memdir.operations import team as teamops


def test_a_proposal_waits_in_the_home_until_approved(team_repo, isolated_home):
    agent = Memory.open(home=isolated_home, project=team_repo.session.project_root, actor="agent")
    agent.write("deploy-day", "Deploys happen on Tuesdays", "project", "Never on Friday.", scope="team")
    waiting = [(r.name, r.description, r.status) for r in candidates.pending(team_repo.session)]
    assert waiting == [("deploy-day", "Deploys happen on Tuesdays", "candidate")]
    assert teamops.pending is candidates.pending and teamops.decide is candidates.decide  # the old names still answer
    assert team_repo.list("team").memories == ()  # not in the repository while it waits
    decision = team_repo.approve("deploy-day")
    assert (decision.name, decision.approved) == ("deploy-day", True)
    # control: approved, it is the team's and no longer waits
    assert [m.name for m in team_repo.list("team").memories] == ["deploy-day"]
    assert candidates.pending(team_repo.session) == []
