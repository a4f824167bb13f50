"""A promote killed between its two steps (a real process dying with ``os._exit`` right before it removes the
personal copy, as a SIGKILL there would): the team layer has the memory and the project layer still has the
copy promoted. Nothing is lost, and ``memdir doctor`` names it as a problem with the command that finishes it;
``memdir verify --repair`` and ``memdir promote`` again finish it. Before break27 (found by SIGKILLing ``memdir
promote`` as soon as the team file appeared: 4 kills of 4) doctor said only ``duplicates: team:pm31 =
project:pm31`` and ``ok`` — nothing said a promote was cut, nor what to do."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from memdir.layer.interrupted import FINISHED
from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # a real process

CUT = textwrap.dedent("""
    import os, sys
    from memdir import Memory
    from memdir.layer import journal
    from memdir.operations import team
    real, append = team.gateway.delete, journal.Journal.append
    def delete(layer, name, **kwargs):
        if kwargs.get("action") == "promote":
            os._exit(9)  # dies here: the team file written and journaled, the personal copy not yet removed
        return real(layer, name, **kwargs)
    def line(self, actor, action, *args, **kwargs):
        if action == "promote":
            os._exit(9)  # dies here: the team file in place, its journal line not written
        return append(self, actor, action, *args, **kwargs)
    if sys.argv[4] == "before-line":
        journal.Journal.append = line
    else:
        team.gateway.delete = delete
    Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human").promote(sys.argv[3])
""")


@pytest.fixture
def person(team_repo):
    mem = team_repo
    mem.write("ports", "Service ports are in infra/ports.md", "reference", "See infra/ports.md.", scope="project")
    mem.write("lint", "Lint runs before the tests", "project", "ruff first", scope="project")
    return mem


def _cut(person, name, where="before-delete"):
    done = subprocess.run([sys.executable, "-c", CUT, str(person.session.home), str(person.session.project_root),
                           name, where], capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 9, done.stderr


def _names(person, scope):
    return [m.name for m in person.list(scope).memories]


def test_a_promote_cut_before_the_personal_copy_goes_is_named_by_doctor_and_finished_by_repair(person):
    _cut(person, "ports")
    assert _names(person, "team") == ["ports"]  # the first step happened
    assert _names(person, "project") == ["lint", "ports"]  # nothing lost: the copy promoted is still here
    said = {bad.path: bad.error for bad in person.doctor().problems}
    assert said == {"project:ports": "a promote to the team layer was cut before this copy was removed "
                                     "(the team layer has it): memdir promote ports --to team finishes it"}
    shown = run_cli("--project", person.session.project_root, "doctor")  # counted, so said: the line a person reads
    assert shown.returncode == 1
    assert ("project:ports: a promote to the team layer was cut before this copy was removed (the team layer has "
            "it): memdir promote ports --to team finishes it\n") in shown.stdout
    assert shown.stdout.endswith("1 problem(s)\n")

    person.repair()
    assert _names(person, "project") == ["lint"]  # the copy promoted went, the other memory stayed
    assert _names(person, "team") == ["ports"]
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."
    last = person.history("ports", "project").versions[-1]
    assert (last.action, last.reason) == ("promote", f"promoted to the team layer{FINISHED}")
    assert person.doctor().problems == ()


def test_a_copy_changed_after_the_cut_is_kept_and_not_named(person):
    _cut(person, "ports")
    person.write("ports", body="See infra/ports.md; 8080 is the API.", scope="project")  # a person's edit since
    assert person.doctor().problems == ()  # two memories now, not a cut promote
    person.repair()
    assert person.read("ports", "project", count=False).record.body == "See infra/ports.md; 8080 is the API."
    assert person.read("ports", "team", count=False).record.body == "See infra/ports.md."


def test_promote_again_finishes_a_cut_one(person):
    _cut(person, "ports")
    again = person.promote("ports")
    assert again.warnings == ()
    assert _names(person, "project") == ["lint"]
    assert _names(person, "team") == ["ports"]


def test_a_promote_cut_before_its_team_line_is_named_with_what_to_do_and_left_to_the_person(person):
    _cut(person, "ports", "before-line")
    assert _names(person, "team") == ["ports"]  # the next transaction journals the file it finds as a create
    assert _names(person, "project") == ["lint", "ports"]
    said = {bad.path: bad.error for bad in person.doctor().problems}
    assert said == {"project:ports": "the team layer holds this same memory, written by a change cut before its "
                                     "journal line (a promote cut?): memdir promote ports --to team removes this "
                                     "copy, else edit one of them"}
    person.repair()  # the journal does not say promote: the person settles it
    assert _names(person, "project") == ["lint", "ports"]
    assert person.promote("ports").warnings == ()  # what doctor says to run
    assert (_names(person, "project"), _names(person, "team")) == (["lint"], ["ports"])
    assert person.doctor().problems == ()
