"""`memdir forget|delete NAME --digest D` deletes only the version the person looked at (issue 28 leftovers): the
library's delete/forget check the caller's digest (12+ hex) under the lock; the command line now passes it, like
`approve --digest`. A memory changed since is refused, naming its digest now; nothing is lost."""

from __future__ import annotations

import json

import pytest

from memdir import InvalidInput
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


def test_read_shows_the_digest_forget_takes(person, project):
    """newuser31: plain `memdir read` showed no digest; only --json did. Its header now says the first 16 hex
    digits, and that prefix is what `forget --digest` accepts."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    whole = _digest(project, "db-port")
    shown = run_cli("--project", project, "read", "db-port")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.splitlines()[:5] == ["name: db-port", "description: Dev PostgreSQL listens on 5433",
                                             "type: project", "layer: project", f"digest: {whole[:16]}"]
    done = run_cli("--project", project, "forget", "db-port", "--digest", whole[:16])
    assert done.returncode == 0, done.stderr
    assert "5433" in _tombstones(project)


def test_a_digest_the_memory_never_had_is_not_called_a_change(person, project):
    """newuser31: `forget NAME --digest 000000000000` said the memory "changed since it was read"; a digest no
    version of it ever had is said to be one, naming the digest now; nothing is deleted. An older version's
    digest (the control) is still a change since."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    old = _digest(project, "db-port")
    person.write("db-port", "Dev PostgreSQL listens on 6543", "project", "Moved again.")
    now = _digest(project, "db-port")
    for given in ("0" * 12, "0" * 64):
        made_up = run_cli("--project", project, "forget", "db-port", "--digest", given)
        assert made_up.returncode == 1, made_up.stdout
        assert made_up.stderr.strip() == (
            f"memdir: digest {given} is not one memory 'db-port' ever had (its digest now is {now[:16]}; "
            "reading it shows it, its history every version's); the forget was not made")
        assert "changed since" not in made_up.stderr
        # The Python API says the library's words: no CLI command in them (left32), the digest now in them.
        with pytest.raises(InvalidInput) as caught:
            person.forget("db-port", expect_digest=given)
        assert str(caught.value) == (f"digest {given} is not one memory 'db-port' ever had (its digest now is "
                                     f"{now[:16]}; reading it shows it, its history every version's); the forget "
                                     "was not made")
    stale = run_cli("--project", project, "forget", "db-port", "--digest", old[:12])  # control: a real older one
    assert stale.returncode == 1 and "memory 'db-port' changed since it was read" in stale.stderr, stale.stderr
    assert person.read("db-port", count=False).record.description == "Dev PostgreSQL listens on 6543"
    assert _tombstones(project) == "No tombstones."


def test_tombstones_say_the_day_once(person, project):
    """newuser31: each line of `memdir tombstones` printed the date twice ("forgotten by human on D  DT…Z")."""
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    assert run_cli("--project", project, "forget", "db-port", "--reason", "host retired").returncode == 0
    (stone,) = person.tombstones().tombstones
    day = stone.ts[:10]
    assert _tombstones(project) == (f"{stone.id}  project db-port  forgotten by human on {day}: host retired  "
                                    "— Dev PostgreSQL listens on 5433")
    assert _tombstones(project).count(day) == 1
