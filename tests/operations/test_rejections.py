"""A rejected team candidate's tombstone lives in the person's home: `memdir tombstones` says so, and the
rejected value binds the agent's writes in every layer of the project, while the person's own write is only
warned (a new user's trial, issue 24)."""

from __future__ import annotations

import pytest

from memdir.errors import TombstoneRefused
from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow


def test_a_rejected_team_value_is_listed_where_it_lives_and_binds_the_agent_everywhere(tmp_path):
    a, _ = shared_repository(tmp_path)
    person, agent = a.memory(), a.memory(actor="agent")
    agent.write("deploy-day", "Deploys happen on Fridays", "project", "Any Friday.", scope="team")
    (c,) = person.review().candidates
    person.reject("deploy-day", "team", digest=c.digest)
    person.write("ci", "CI runs on GitHub Actions", "project", scope="team")
    person.forget("ci", "team")  # control: a tombstone of the team directory itself
    listed = run_cli("--home", a.home, "--project", a.root, "tombstones")
    rejected, forgotten = (next(line for line in listed.stdout.splitlines() if f" {n} " in line)
                           for n in ("deploy-day", "ci"))
    assert "  team (your rejections, in your home) deploy-day " in rejected, listed.stdout
    assert "  team    ci " in forgotten and "your rejections" not in forgotten, listed.stdout
    stones = {s.name: s for s in person.tombstones().tombstones}
    assert (stones["deploy-day"].scope, stones["deploy-day"].kept) == ("team", "your rejections, in your home")
    assert stones["ci"].kept == ""
    # The agent writes the rejected value into the project layer, and into the user layer: refused.
    for scope in ("project", "user"):
        with pytest.raises(TombstoneRefused, match=stones["deploy-day"].id):
            agent.write("release-day", "Deploys happen on Fridays", "project", "Any Friday.", scope=scope)
    assert agent.write("release-day", "Deploys happen on Tuesdays", "project", scope="project").operation == "created"
    # The person's own write of it is written, with a warning naming the tombstone.
    mine = person.write("deploy-friday", "Deploys happen on Fridays", "project", "Our rule.", scope="project")
    assert mine.operation == "created"
    assert any(stones["deploy-day"].id in w for w in mine.warnings), mine.warnings
