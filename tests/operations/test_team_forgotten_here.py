"""doctor names a team memory that a pull brought whose value this person forgot in a personal layer (break49):
`memdir forget ci-tool` (project: "CI runs on Jenkins"), then a teammate's team memory `ci` saying the same was
pulled — git writes no memory through the gateway, so no tombstone refused it — and it reached the agent's
context while doctor said nothing. A write of it is refused (guard: another layer's tombstones); the pulled
file is now named with the two commands that settle it."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli
from tests.teamgit import shared_repository

pytestmark = pytest.mark.slow


def test_a_pulled_team_memory_holding_a_value_forgotten_in_the_project_layer_is_named_by_doctor(tmp_path):
    a, b = shared_repository(tmp_path)
    mine = b.memory()
    mine.write("ci-tool", "CI runs on Jenkins", "project")
    stone = mine.forget("ci-tool").tombstone
    a.memory().write("ci", "CI runs on Jenkins", "project", scope="team")
    a.memory().write("deploy", "Deploys run on Fridays", "project", scope="team")  # control: not forgotten
    a.publish("team memories", b)
    assert [m.name for m in mine.list(scope="team").memories] == ["ci", "deploy"]  # the team's text stays the team's
    doctor = run_cli("--home", b.home, "--project", b.root, "doctor").stdout
    said = [line for line in doctor.splitlines() if "holds a value you forgot" in line]
    assert said == [(f"note: team: ci holds a value you forgot in your project layer (tombstone {stone}), and the "
                     f"team layer brings it to your agent: `memdir forget ci --scope team` forgets it for the team "
                     f"(then commit), `memdir tombstone lift {stone} --scope project` takes your forget back")]
    assert "team layer: " in doctor and "deploy holds" not in doctor  # the control: read, and not named
    mine.forget("ci", scope="team")  # settled one way: the team forgets it too
    assert not [line for line in run_cli("--home", b.home, "--project", b.root, "doctor").stdout.splitlines()
                if "holds a value you forgot" in line]
