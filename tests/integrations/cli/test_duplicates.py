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


def test_a_copy_in_another_unicode_form_or_case_is_the_copy_delete_keeps_the_value_for(project):
    """One rule of "the same value" (memdir.text.values): the copy warning, doctor and delete agree."""
    text = "Ménage happens on Fridays"
    nfd = "Me\u0301nage happens on Fridays"
    assert nfd != text
    warned = {}
    for name, description in [("dup-a", text), ("dup-b", text), ("dup-c", nfd), ("dup-d", text.upper()),
                              ("dup-e", "Ménage happens on Saturdays")]:
        done = run_cli("--project", project, "write", name, "-d", description)
        assert done.returncode == 0, done.stderr
        warned[name] = done.stderr
    for name in ("dup-b", "dup-c", "dup-d"):
        assert warned[name] == (f"memdir: warning: memory 'dup-a' (project) holds the same description and "
                                f"body; {name!r} is a copy of it (memdir doctor lists duplicates)\n")
    assert warned["dup-a"] == "" and warned["dup-e"] == ""  # control: another day is another value
    doctor = run_cli("--project", project, "doctor")
    assert ("duplicates: project:dup-a = project:dup-b = project:dup-c = project:dup-d "
            "(the same description and body)\n") in doctor.stdout
    assert "dup-e" not in doctor.stdout
    kept = run_cli("--project", project, "delete", "dup-d")
    assert kept.stdout == ("Deleted memory: dup-d (project). Its value is not tombstoned: the memory 'dup-a' "
                           "(project) holds it too.\n")
    gone = run_cli("--project", project, "delete", "dup-e")  # control: a value no other memory holds
    assert gone.stdout.startswith("Deleted memory: dup-e (project). Its value is tombstoned and will not be "
                                  "written again (tombstone t-")
