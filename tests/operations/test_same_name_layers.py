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


def test_a_write_that_creates_a_name_another_layer_holds_says_so(person, project):
    """newuser49: `memdir write db-port --scope user -d moved` beside the project's db-port said only "Memory
    created: db-port (user)"; the person meant to change the one they had, and learned of the second only when the
    next unscoped write of db-port was refused. The write creating it warns, naming the other layer; the controls,
    a scoped write of a name no other layer holds and the update of the new one, warn nothing of the kind."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    made = person.write("db-port", "Dev PostgreSQL listens on 5434", "user", scope="user")
    assert (made.operation, made.scope) == ("created", "user")
    assert made.warnings == (("another memory named db-port is in the project layer (scope project): this created a "
                              "second one, in the user layer; a write or delete of db-port now needs its scope"),)
    assert person.write("editor", "I use vim", "user", scope="user").warnings == ()  # control: no other holder
    assert person.write("db-port", "moved again", scope="user").warnings == ()  # control: an update, not a creation
    shown = run_cli("write", "lint", "-d", "ruff before each commit", "--scope", "project", "--project", project)
    assert shown.returncode == 0 and "another memory named" not in shown.stderr
    cli = run_cli("write", "style", "-d", "Black, 100 columns", "--scope", "user", "--project", project)
    assert cli.returncode == 0 and "warning" not in cli.stderr  # control
    both = run_cli("write", "style", "-d", "Black, 88 columns", "--scope", "project", "--project", project, "--json")
    assert both.returncode == 0, both.stderr
    assert json.loads(both.stdout)["warnings"] == [("another memory named style is in the user layer (scope user): "
                                                    "this created a second one, in the project layer; a write or "
                                                    "delete of style now needs its scope")]
