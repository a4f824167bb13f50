"""History follows a gateway rename (leftover): `memdir write ci2 --rename-from ci` then `memdir history ci2` showed
ci2's one version and none of ci's, though they were the same memory's. The rename's line (``rename``, data
``retires: ci``) names the name it came from; the history now lists those versions under that name, with the
numbers `show` and `restore` of that name take (memdir.layer.history.earlier_versions). A memory never renamed
lists none (control). Real CLI subprocesses; the agent's memory_history through the tools."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def _cli(person, *args):
    done = run_cli(*args, "--project", person.session.root_path, env={"MEMDIR_HOME": str(person.session.home_path)})
    assert done.returncode == 0, done.stderr
    return done.stdout


def test_a_renamed_memory_s_history_shows_its_versions_under_the_old_name(person):
    person.write("ci", "CI runs on GitHub Actions", "project", "First body.\n", scope="project")
    person.write("ci", "CI runs on GitHub Actions nightly", "project", "Second body.\n", scope="project")
    _cli(person, "write", "ci2", "--rename-from", "ci", "-d", "CI runs nightly at 2am", "--body", "Third.",
         "--scope", "project")
    person.write("cd", "CD deploys on merge", "project", scope="project")  # the control: never renamed

    text = _cli(person, "history", "ci2")
    lines = text.splitlines()
    assert lines[0] == "1 version(s) of ci2 (project):"
    assert lines[1] == "2 earlier version(s) under ci (show or restore one by that name: `memdir show ci --version N`):"
    assert lines[2].startswith("ci v1  ") and " create " in lines[2] and lines[2].endswith("— CI runs on GitHub Actions")
    assert lines[3].startswith("ci v2  ") and lines[3].endswith("— CI runs on GitHub Actions nightly")
    assert lines[4] == "under ci2:"
    assert lines[5].startswith("   v1  ") and " rename " in lines[5] and lines[5].endswith("— CI runs nightly at 2am")
    assert len(lines) == 6

    data = json.loads(_cli(person, "history", "ci2", "--json"))
    assert [(v["name"], v["version"], v["action"]) for v in data["earlier"]] == [("ci", 1, "create"), ("ci", 2, "update")]
    assert [(v["name"], v["version"], v["action"]) for v in data["versions"]] == [(None, 1, "rename")]
    assert "earlier version(s) under ci" in person.call_tool("memory_history", {"name": "ci2"})

    # the versions it names are read and restored by that name and number
    assert "description: CI runs on GitHub Actions\n" in _cli(person, "show", "ci", "--version", "1")
    _cli(person, "restore", "ci", "--version", "1", "--reactivate")
    assert person.read("ci", scope="project").record.description == "CI runs on GitHub Actions"

    control = _cli(person, "history", "cd").splitlines()
    assert control[0] == "1 version(s) of cd (project):" and len(control) == 2 and control[1].startswith("v1  ")
    assert json.loads(_cli(person, "history", "cd", "--json"))["earlier"] == []
