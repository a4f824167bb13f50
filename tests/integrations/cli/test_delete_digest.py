"""`memdir forget|delete NAME --digest D` deletes only the version the person looked at (issue 28 leftovers): the
library's delete/forget check the caller's digest (12+ hex) under the lock; the command line now passes it, like
`approve --digest`. A memory changed since is refused, naming its digest now; nothing is lost."""

from __future__ import annotations

import json

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real subprocesses


def _digest(project, name: str) -> str:
    shown = run_cli("--project", project, "read", name, "--json")
    assert shown.returncode == 0, shown.stderr
    return json.loads(shown.stdout)["digest"]


def _tombstones(project) -> str:
    return run_cli("--project", project, "tombstones").stdout.strip()


@pytest.mark.parametrize("command", ["forget", "delete"])
def test_a_digest_of_an_older_version_deletes_nothing_and_names_the_digest_now(person, project, command):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    seen = _digest(project, "db-port")
    person.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.")  # changed since it was seen
    now = _digest(project, "db-port")
    for given in (seen[:12], seen):  # a person's prefix, and all 64 digits
        stale = run_cli("--project", project, command, "db-port", "--digest", given)
        assert stale.returncode == 1, stale.stdout
        assert "memory 'db-port' changed since it was read" in stale.stderr and now[:16] in stale.stderr
        assert f"the {command} was not made" in stale.stderr and "`memdir read db-port`" in stale.stderr
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 6543"
    assert _tombstones(project) == "No tombstones."
    done = run_cli("--project", project, command, "db-port", "--digest", now[:12].upper())  # control: the one now
    # (a prefix in any case, as a person types it)
    assert done.returncode == 0, done.stderr
    assert "db-port" in done.stdout
    assert run_cli("--project", project, "read", "db-port").returncode != 0
    assert "6543" in _tombstones(project)


def test_a_digest_that_is_not_one_is_a_clear_error_and_deletes_nothing(person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    for given, said in (("not-a-digest!", "is not a digest"), ("5d11cb", "is too short")):
        bad = run_cli("--project", project, "forget", "db-port", "--digest", given)
        assert bad.returncode != 0 and said in bad.stderr, bad.stderr
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 5433"
    assert _tombstones(project) == "No tombstones."
    plain = run_cli("--project", project, "forget", "db-port")  # control: without --digest, as before
    assert plain.returncode == 0, plain.stderr
    assert "5433" in _tombstones(project)
