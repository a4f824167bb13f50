"""Promote deletes only the version it promoted: an update that lands meanwhile is never lost (issue 24, §5)."""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from memdir import Memory
from memdir.operations import team as teamops


@pytest.fixture
def person(team_repo):
    return team_repo


def test_an_update_between_the_team_write_and_the_delete_is_kept(person, monkeypatch):
    person.write("ports", "Service ports are in infra/ports.md", "reference", "v1", scope="project")
    real_write = teamops.gateway.write

    def write_then_update(*args, **kwargs):  # another process updates the memory right after the team write
        result = real_write(*args, **kwargs)
        monkeypatch.setattr(teamops.gateway, "write", real_write)
        person.write("ports", body="v2", scope="project")
        return result

    monkeypatch.setattr(teamops.gateway, "write", write_then_update)
    promoted = person.promote("ports")
    assert person.read("ports", "project", count=False).record.body == "v2"  # the acknowledged update is kept
    assert person.read("ports", "team", count=False).record.body == "v1"  # the version promoted
    assert any("changed while it was promoted" in w for w in promoted.warnings)
    # control: with nothing in between, the personal copy goes
    person.write("lint", "Lint runs before the tests", "project", "v1", scope="project")
    assert person.promote("lint").warnings == ()
    assert [m.name for m in person.list("project").memories] == ["ports"]


WRITER = textwrap.dedent("""
    import sys
    from memdir import Memory
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    for i in range(int(sys.argv[3])):
        mem.write("ports", "Service ports are in infra/ports.md", "reference", f"update {i}", scope="project")
        print(i, flush=True)  # acknowledged
""")
PROMOTER = textwrap.dedent("""
    import sys
    from memdir import Memory
    from memdir.errors import MemdirError
    mem = Memory.open(home=sys.argv[1], project=sys.argv[2], actor="human")
    for _ in range(int(sys.argv[3])):
        try:
            mem.promote("ports")
        except MemdirError:
            pass  # nothing to promote right now
""")


@pytest.mark.slow
def test_promote_racing_updates_in_real_processes_loses_no_acknowledged_update(person, isolated_home):
    root = person.session.project_root
    person.write("ports", "Service ports are in infra/ports.md", "reference", "start", scope="project")
    writer = subprocess.Popen([sys.executable, "-c", WRITER, str(isolated_home), str(root), "60"],
                              stdout=subprocess.PIPE, text=True)
    promoter = subprocess.Popen([sys.executable, "-c", PROMOTER, str(isolated_home), str(root), "60"])
    acked = writer.communicate(timeout=120)[0].split()
    assert promoter.wait(timeout=120) == 0 and writer.returncode == 0
    assert acked[-1] == "59"
    last = "update 59"
    mem = Memory.open(home=isolated_home, project=root, actor="human")
    held = {m.scope: mem.read("ports", m.scope, count=False).record.body for m in mem.list(include_all=True).memories
            if m.name == "ports"}
    assert last in held.values(), held  # the last acknowledged update survives in a layer
    assert set(held) <= {"project", "team"} and held  # control: it is somewhere named
