"""`memdir recall --json` says which relevant memories it does not give and why: a body that only repeats
the description, or none, says nothing the index line does not (DESIGN §6), so it is left out by design —
and now named with the reason. What is recalled does not change."""

from __future__ import annotations

import json

import pytest

from memdir.search.recall import NO_BODY, REPEATS_DESCRIPTION
from tests.conftest import run_cli

ENV = {"MEMDIR_SEARCH_VECTORS": "off"}
PROMPT = "which port does the dev postgresql database use"


def write(project, name, description, body):
    out = run_cli("write", name, "-d", description, "-t", "project", "--body", body, "--project", project, env=ENV)
    assert out.returncode == 0, out.stderr


@pytest.mark.slow
def test_recall_json_names_what_it_leaves_out_by_design_and_why(isolated_home, project):
    write(project, "db-port", "Dev PostgreSQL database listens on port 5433",
          "Moved because 5432 is taken by the system cluster.")
    write(project, "db-host", "Dev PostgreSQL database host is db.internal", "Dev PostgreSQL database host is  db.internal")
    write(project, "db-user", "Dev PostgreSQL database user is app_dev on port 5433", "")
    out = run_cli("recall", "--json", "--prompt", PROMPT, "--project", project, env=ENV)
    assert out.returncode == 0, out.stderr
    data = json.loads(out.stdout)
    assert [m["name"] for m in data["memories"]] == ["db-port"]  # the one whose body says more
    assert "## db-port" in data["recall"] and "db.internal" not in data["recall"]
    assert sorted((m["name"], m["scope"], m["reason"]) for m in data["not_recalled"]) == [
        ("db-host", "project", REPEATS_DESCRIPTION), ("db-user", "project", NO_BODY)]
    text = run_cli("recall", "--prompt", PROMPT, "--project", project, env=ENV)
    assert text.stdout.rstrip("\n") == data["recall"]  # the block itself is what it was: no reasons in it
    out = run_cli("recall", "--json", "--prompt", "thanks, that works", "--project", project, env=ENV)
    assert json.loads(out.stdout)["not_recalled"] == []  # control: nothing relevant, nothing named
