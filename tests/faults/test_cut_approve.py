"""A team approval killed between its two steps (a real process dying with ``os._exit`` right before it removes
the candidate, as a SIGKILL there would): the team layer has the memory approved and the candidate still waits
in the home. Nothing is lost; ``memdir doctor`` names the candidate with the command that finishes it, and
``memdir verify --repair`` and approving again finish it (the rule of a cut promote's, :mod:`memdir.operations.moves`).
Before cut27 the candidate stayed in review showing "(no change)" and doctor said nothing."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from memdir import Memory
from memdir.layer.commit import COMPLETED
from memdir.layer.interrupted import FINISHED
from memdir.operations.team import candidates
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # a real process

CUT = textwrap.dedent("""
    import os, sys
    from memdir import Memory
    from memdir.layer import journal
    from memdir.operations import team
    real, append = team.gateway.delete, journal.Journal.append
    def delete(layer, name, **kwargs):
        if kwargs.get("action") == "approve":
            os._exit(9)  # dies here: the team file written and journaled, the candidate not yet removed
        return real(layer, name, **kwargs)
    def line(self, actor, action, *args, **kwargs):
        if action == "approve":
            os._exit(9)  # dies here: the team file in place, its journal line (the first "approve") not written
        return append(self, actor, action, *args, **kwargs)
    if sys.argv[4:] == ["before-line"]:
        journal.Journal.append = line
    else:
        team.gateway.delete = delete
    Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human").approve(sys.argv[3], "team")
""")

MESSAGE = ("an approval of this team candidate was cut before it was removed (the team layer has it, as {target}): "
           "memdir approve {name} --scope team finishes it")


@pytest.fixture
def person(team_repo, isolated_home):
    mem = team_repo
    mem.write("deploy-day", "Deploys happen on Tuesdays", "project", "Tuesday mornings.", scope="team")
    agent = Memory.open(home=isolated_home, project=mem.session.project_root, actor="agent")
    assert agent.write("deploy-day", "Deploys happen on Thursdays", "project", "Thursday mornings.",
                       scope="team").status == "candidate"  # a change to the team's memory
    assert agent.write("ports", "Service ports are in infra/ports.md", "reference", "See infra/ports.md.",
                       scope="team").status == "candidate"  # a new one
    assert agent.write("freeze", "Merge freeze from 2026-12-18", "project", "No merges.",
                       scope="team").status == "candidate"  # waits: the control
    return mem


def _cut(person, name, where="before-delete"):
    done = subprocess.run([sys.executable, "-c", CUT, str(person.session.home), str(person.session.project_root),
                           name, where], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 9, done.stderr


def _waiting(person):
    return [c.name for c in person.review().candidates]


def test_an_approval_cut_before_the_candidate_goes_is_named_by_doctor_and_finished_by_repair(person):
    assert person.doctor().problems == ()  # control: candidates that only wait are named by nobody
    person.review()  # the person saw it: approving deploy-day removes a line they wrote (team33)
    _cut(person, "deploy-day")
    _cut(person, "ports")
    assert person.read("deploy-day", "team", count=False).record.body == "Thursday mornings."  # the first step
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."
    assert _waiting(person) == ["deploy-day", "freeze", "ports"]  # nothing lost: the candidates still wait
    said = {bad.path: bad.error for bad in person.doctor().problems}
    assert said == {"candidate:deploy-day": MESSAGE.format(name="deploy-day", target="deploy-day"),
                    "candidate:ports": MESSAGE.format(name="ports", target="ports")}  # freeze, waiting, is not
    shown = run_cli("--project", person.session.project_root, "doctor")  # the line a person reads
    assert shown.returncode == 1
    assert f"candidate:ports: {MESSAGE.format(name='ports', target='ports')}\n" in shown.stdout
    assert shown.stdout.endswith("2 problem(s)\n")

    person.repair()
    assert _waiting(person) == ["freeze"]  # the approved ones went, the waiting one stayed
    assert person.read("deploy-day", "team", count=False).record.body == "Thursday mornings."
    team = person.session.layer("team")  # the team's journal is as the approval left it
    assert [e.action for e in team.journal.events() if e.name == "ports"] == ["approve"]
    last = [e for e in candidates(person.session).journal.events() if e.name == "ports"][-1]
    assert (last.action, last.reason) == ("approve", f"approved into ports{FINISHED}")
    assert person.doctor().problems == ()


def test_a_candidate_edited_after_the_cut_is_kept_and_not_named(person):
    _cut(person, "ports")
    agent = Memory.open(home=person.session.home, project=person.session.project_root, actor="agent")
    agent.write("ports", "Service ports are in infra/ports.md", "reference", "See infra/ports.md; 8080 is the API.",
                scope="team")  # a new proposal since, of another value
    assert person.doctor().problems == ()
    person.repair()
    assert _waiting(person) == ["deploy-day", "freeze", "ports"]  # the edited one is kept
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."


def test_approving_again_finishes_a_cut_one(person):
    _cut(person, "ports")
    done = run_cli("--project", person.session.project_root, "approve", "ports", "--scope", "team")  # what doctor says
    assert done.returncode == 0, done.stderr
    assert _waiting(person) == ["deploy-day", "freeze"]
    assert person.doctor().problems == ()


def test_an_approval_cut_before_its_team_line_is_named_by_doctor_and_finished_by_repair(person):
    """left28: killed before the team's own journal line (the team file in place), the next transaction journals
    the file as an interrupted write (``create`` for a new memory, ``update`` for a change); before, only a
    promote's such cut was named, and the candidates waited on, showing "(no change)", with doctor saying ok."""
    _cut(person, "ports", "before-line")  # a new memory
    person.review()  # the person saw it: approving deploy-day removes a line they wrote (team33)
    _cut(person, "deploy-day", "before-line")  # a change to the team's memory
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."
    assert person.read("deploy-day", "team", count=False).record.body == "Thursday mornings."
    team = person.session.layer("team")
    assert [(e.name, e.action, e.reason) for e in team.journal.events() if e.name in ("ports", "deploy-day")] == [
        ("deploy-day", "create", None), ("ports", "create", COMPLETED),
        ("deploy-day", "update", COMPLETED)]  # no "approve" line: the kill came first
    assert _waiting(person) == ["deploy-day", "freeze", "ports"]  # nothing lost
    said = {bad.path: bad.error for bad in person.doctor().problems}
    assert said == {"candidate:deploy-day": MESSAGE.format(name="deploy-day", target="deploy-day"),
                    "candidate:ports": MESSAGE.format(name="ports", target="ports")}  # freeze, waiting, is not
    person.repair()
    assert _waiting(person) == ["freeze"]  # control: the waiting candidate stays
    last = [e for e in candidates(person.session).journal.events() if e.name == "ports"][-1]
    assert (last.action, last.reason) == ("approve", f"approved into ports{FINISHED}")
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."
    assert person.doctor().problems == ()


def test_a_candidate_edited_after_a_cut_before_the_team_line_is_kept_and_not_named(person):
    """Control: the candidate proposed again with another value since is a proposal of its own."""
    _cut(person, "ports", "before-line")
    agent = Memory.open(home=person.session.home, project=person.session.project_root, actor="agent")
    agent.write("ports", "Service ports are in infra/ports.md", "reference", "See infra/ports.md; 8080 is the API.",
                scope="team")
    assert person.doctor().problems == ()
    person.repair()
    assert _waiting(person) == ["deploy-day", "freeze", "ports"]
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."
