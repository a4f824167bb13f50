"""MEMORY.md replaced by a directory, a FIFO or a symlink loop (break23). A directory cannot be replaced by
a rename and memdir never removes what a person put there: every write said "the index is rebuilt on the
next operation", which never came, and doctor said ok. Now the write and doctor name the directory and
what to do (files.layout.index_refusal); a FIFO or a symlink loop is replaced by the next write. The
context block lists the memories in every case (rendered from the files)."""

from __future__ import annotations

import os
import stat

import pytest

from tests.conftest import run_cli

LINE = "- [db-port](db-port.md) — Dev PostgreSQL listens on 5433"


def _layer(person):
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "moved")
    return person.session.layer("project").path


def test_a_directory_in_place_of_memory_md_is_named_and_kept(person, project):
    layer = _layer(person)
    (layer / "MEMORY.md").unlink()
    (layer / "MEMORY.md").mkdir()
    (layer / "MEMORY.md" / "notes.txt").write_text("a person's file\n")
    assert LINE in run_cli("--project", project, "context").stdout  # rendered from the files
    wrote = run_cli("--project", project, "write", "kafka", "-d", "Kafka listens on 9092", "-t", "project")
    said = (f"{layer / 'MEMORY.md'} is a directory, so memdir cannot write its index there (it never removes "
            "what is in its place): move it away, and the next change writes MEMORY.md again")
    assert wrote.returncode == 0 and f"the change is saved, but {said}" in wrote.stderr
    assert "rebuilt on the next operation" not in wrote.stderr
    assert (layer / "MEMORY.md" / "notes.txt").read_text() == "a person's file\n"  # nothing of it touched
    doctor = run_cli("--project", project, "doctor")
    assert doctor.returncode == 1 and f"index: {said}" in doctor.stdout
    os.rename(layer / "MEMORY.md", layer / "moved-away")
    wrote = run_cli("--project", project, "write", "redis", "-d", "Redis listens on 6380", "-t", "project")
    assert wrote.returncode == 0 and wrote.stderr == ""
    assert LINE in (layer / "MEMORY.md").read_text()  # control: written again once it is free
    assert "index:" not in run_cli("--project", project, "doctor").stdout


@pytest.mark.parametrize("kind", ["fifo", "symlink-loop"])
def test_a_fifo_or_a_symlink_loop_in_place_of_memory_md_is_replaced_by_the_next_write(person, project, kind):
    layer = _layer(person)
    (layer / "MEMORY.md").unlink()
    if kind == "fifo":
        os.mkfifo(layer / "MEMORY.md")
    else:
        os.symlink("MEMORY.md", layer / "MEMORY.md")
    assert LINE in run_cli("--project", project, "context").stdout  # never opened (a FIFO would block)
    wrote = run_cli("--project", project, "write", "kafka", "-d", "Kafka listens on 9092", "-t", "project")
    assert wrote.returncode == 0 and wrote.stderr == ""
    assert stat.S_ISREG(os.lstat(layer / "MEMORY.md").st_mode) and LINE in (layer / "MEMORY.md").read_text()
