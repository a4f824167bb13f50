"""A read or a history of a memory says when another layer holds a memory of the same name (newuser36: a project
memory and a personal one named alike; `read` without a scope showed the personal one, `--scope project` the
other, and neither said the second was there)."""

from __future__ import annotations

import json

from tests.conftest import run_cli


def test_read_and_history_name_the_other_layer_of_the_same_name(person, project):
    person.write("deploy-notes", "Deploys go through Argo", "project", "Argo syncs main.")
    person.write("deploy-notes", "I deploy on Mondays", "user", "Mondays only.", scope="user")
    person.write("ci-notes", "CI runs on GitHub Actions", "project", "Workflows in .github.")
    shown = run_cli("read", "deploy-notes", "--scope", "project", "--project", project)
    assert shown.returncode == 0, shown.stderr
    assert "also: another memory named deploy-notes is in the user layer (scope user)" in shown.stdout.splitlines()
    plain = run_cli("read", "deploy-notes", "--project", project)  # no scope: the user layer's, first
    assert "layer: user" in plain.stdout.splitlines()
    assert "also: another memory named deploy-notes is in the project layer (scope project)" in plain.stdout
    history = run_cli("history", "deploy-notes", "--scope", "project", "--project", project)
    assert history.stdout.splitlines()[-1] == "also: another memory named deploy-notes is in the user layer (scope user)"
    data = json.loads(run_cli("read", "deploy-notes", "--scope", "project", "--project", project, "--json").stdout)
    assert (data["scope"], data["also_in"]) == ("project", ["user"])
    # control: a name one layer alone holds says nothing of the kind
    alone = run_cli("read", "ci-notes", "--project", project)
    assert "layer: project" in alone.stdout.splitlines() and "also:" not in alone.stdout
    assert "also:" not in run_cli("history", "ci-notes", "--project", project).stdout
    assert person.read("ci-notes", count=False).also_in == ()
