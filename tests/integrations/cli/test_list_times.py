"""`memdir list --as-of / --valid-at` as a new user meets them (newuser31): a time that does not read is named by
the option typed, not the library's parameter (``as_of``), and an empty list at a time before any memory says
none existed then, not "No memories yet." (there are memories: none existed then)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real subprocesses

TIME_HELP = "cannot read 'BAD' as a time (use ISO-8601, e.g. 2026-11-30T12:00:00Z, or a date, 2026-11-30)"


def test_a_bad_time_is_named_by_its_option(person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "x")
    for argv, option in ((("list", "--as-of", "BAD"), "--as-of"), (("list", "--valid-at=BAD"), "--valid-at"),
                         (("write", "other", "-d", "another fact", "--valid-from", "BAD"), "--valid-from")):
        done = run_cli("--project", project, *argv)
        assert done.returncode == 1, done.stdout
        assert done.stderr.strip() == f"memdir: {option}: {TIME_HELP}"
        assert "as_of" not in done.stderr and "valid_at" not in done.stderr and "valid_from" not in done.stderr


def test_an_empty_list_at_an_earlier_time_says_none_existed_then(person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "x")
    before = run_cli("--project", project, "list", "--as-of", "2001-01-01")
    assert before.returncode == 0, before.stderr
    assert before.stdout.strip() == "No memory existed as of 2001-01-01."
    both = run_cli("--project", project, "list", "--as-of", "2002-01-01", "--valid-at", "2001-01-01")
    assert both.stdout.strip() == "No memory existed as of 2002-01-01 and was true at 2001-01-01."
    # Control: at a time after the write the memory is listed, and "yet" is still what a store with none says.
    after = run_cli("--project", project, "list", "--as-of", "2099-01-01")
    assert after.stdout.strip() == "- db-port (type: project; layer: project) — Dev PostgreSQL listens on 5433"
    person.delete("db-port", "project")
    assert run_cli("--project", project, "list").stdout.strip() == "No memories yet."
