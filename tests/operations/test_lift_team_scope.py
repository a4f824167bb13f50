"""Lifting a team tombstone held twice: by the team directory (a teammate forgot the value) and by the home's
layer of rejected team candidates (this person rejected the agent's proposal of it) — the same value, so the
same id, both listed as ``team`` (left23).

Before, ``memdir tombstone lift ID --scope team`` lifted the team directory's copy and stopped: the rejected
candidate's copy stayed, still listed under ``team`` with the same id, and the agent's next proposal of the
value for the team was still refused — the lift the person asked for did not take, and no command could name
the other copy. Both are the team scope's one fact: a lift of the id in that scope lifts every copy.
"""

from __future__ import annotations

import pytest

from memdir.errors import TombstoneRefused
from tests.conftest import run_cli
from tests.teamgit import shared_repository

VALUE = ("Staging host is staging-7.internal.example.com", "Deploy previews go there.")
OTHER = ("Deploys happen on Tuesdays", "The release train leaves at noon.")


@pytest.fixture
def held_twice(tmp_path):
    """Clone A's home holding the tombstone of VALUE twice under one id — its team directory's (forgotten by B,
    pulled) and its rejected candidates' — and OTHER's tombstone in the team directory alone (the control)."""
    a, b = shared_repository(tmp_path)
    agent = a.memory(actor="agent")
    assert agent.write("staging-host", VALUE[0], "project", VALUE[1], scope="team").status == "candidate"
    a.memory().reject("staging-host")
    person_b = b.memory()
    person_b.write("staging-host", VALUE[0], "project", VALUE[1], scope="team")
    forgotten = person_b.forget("staging-host", scope="team")
    person_b.write("deploy-day", OTHER[0], "project", OTHER[1], scope="team")
    other = person_b.forget("deploy-day", scope="team")
    b.commit_all("forget two team memories")
    b.push()
    a.pull()
    listed = [(s.id, s.scope) for s in a.memory().tombstones(scope="team").tombstones]
    assert listed.count((forgotten.tombstone, "team")) == 2 and (other.tombstone, "team") in listed
    return a, forgotten.tombstone, other.tombstone


def test_a_lift_in_the_team_scope_lifts_the_team_directory_s_copy_and_the_rejected_candidate_s(held_twice):
    a, stone, other = held_twice
    lifted = a.memory().lift_tombstone(stone, scope="team")
    assert (lifted.id, lifted.scope, lifted.name) == (stone, "team", "staging-host")
    ids = [s.id for s in a.memory().tombstones(scope="team").tombstones]
    assert stone not in ids  # before: still listed once (the rejected candidate's copy)
    assert ids == [other]  # control: the other value's tombstone stands
    assert not (a.team_dir / "tombstones" / f"{stone}.json").exists()
    agent = a.memory(actor="agent")
    assert agent.write("staging", VALUE[0], "project", VALUE[1], scope="team").status == "candidate"  # before: refused
    with pytest.raises(TombstoneRefused):  # control: the value still forgotten is refused
        agent.write("deploys", OTHER[0], "project", OTHER[1], scope="team")


def test_the_cli_lift_in_the_team_scope_lifts_both_copies(held_twice):
    a, stone, other = held_twice
    done = run_cli("--home", a.home, "--project", a.root, "tombstone", "lift", stone, "--scope", "team")
    assert done.returncode == 0, done.stderr
    assert [s.id for s in a.memory().tombstones(scope="team").tombstones] == [other]
