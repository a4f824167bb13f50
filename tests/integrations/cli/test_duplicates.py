"""`memdir write` of an exact copy of another memory is written with a warning naming it (a person's path:
the copy may be on purpose); `memdir doctor` lists the copies (issue 24 §5)."""

from __future__ import annotations

import pytest

from tests.conftest import run_cli

pytestmark = pytest.mark.slow  # real subprocesses


def test_a_persons_copy_is_warned_naming_the_memory_and_doctor_lists_it(person, project):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    copy = run_cli("--project", project, "write", "pg-port", "-d", "Dev PostgreSQL listens on 5433",
                   "--body", "Moved from 5432.")
    assert copy.returncode == 0 and copy.stdout.startswith("Memory created: pg-port (project)")
    assert copy.stderr == ("memdir: warning: memory 'db-port' (project) holds the same description and body; "
                           "'pg-port' is a copy of it (memdir doctor lists duplicates)\n")
    other = run_cli("--project", project, "write", "pg-host", "-d", "Dev PostgreSQL listens on 5433",
                    "--body", "Host db.local.")
    assert other.returncode == 0 and other.stderr == ""  # control: the same description alone is no copy
    doctor = run_cli("--project", project, "doctor")
    assert doctor.returncode == 0, doctor.stderr
    assert "duplicates: project:db-port = project:pg-port (the same description and body)\n" in doctor.stdout
    assert "pg-host" not in doctor.stdout and doctor.stdout.rstrip().endswith("ok")
