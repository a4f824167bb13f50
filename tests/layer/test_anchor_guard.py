"""The journal anchor cannot be switched off (issue 10, trial item 6): a
``journal.anchor`` that is a symlink or not a regular, writable file refuses
every change (like the other meta files) and is reported by verify and
doctor; a journal deleted together with its anchor, while version objects and
memory files remain, is named — never "ok, 0 events"."""

from __future__ import annotations

import os

import pytest

from memdir import Memory
from memdir.errors import StoreError
from tests.conftest import run_cli


@pytest.fixture
def mem(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("port", "Dev DB listens on 5433", "project")
    assert mem.verify().ok  # control
    return mem


@pytest.mark.slow
@pytest.mark.parametrize("kind", ["symlink", "directory"])
def test_an_anchor_that_is_not_a_regular_file_refuses_writes_and_is_reported(mem, project, tmp_path, kind):
    anchor = mem.session.layer("project").meta / "journal.anchor"
    anchor.unlink()
    if kind == "symlink":
        os.symlink(tmp_path / "elsewhere", anchor)
        says = "journal.anchor is a symbolic link"
    else:
        anchor.mkdir()
        says = "journal.anchor is not a regular file"
    seen = len(mem.session.layer("project").journal.events())
    with pytest.raises(StoreError, match=says):
        mem.write("runner", "Tests run with pytest", "project")
    assert len(mem.session.layer("project").journal.events()) == seen and not (mem.session.layer("project").path / "runner.md").exists()
    out = run_cli("--project", project, "write", "runner", "-d", "Tests run with pytest", "-t", "project")
    assert out.returncode != 0 and says in out.stderr
    doctor = run_cli("--project", project, "doctor")
    assert says in doctor.stdout + doctor.stderr
    assert not mem.verify().ok
    # Control: with the anchor a file again, the same write goes through.
    anchor.unlink() if kind == "symlink" else anchor.rmdir()
    assert mem.write("runner", "Tests run with pytest", "project").operation == "created"
    assert mem.verify().ok


def test_a_journal_deleted_with_its_anchor_is_named(mem, project):
    meta = mem.session.layer("project").meta
    (meta / "journal.jsonl").unlink()
    (meta / "journal.anchor").unlink()
    check = mem.verify().layers[0]
    assert not check.ok and check.events == 0
    assert "the journal is missing but the layer holds 1 version object(s) and 1 memory file(s)" in check.error
    out = run_cli("--project", project, "verify")
    assert out.returncode != 0 and "the journal is missing" in out.stdout + out.stderr


def test_a_layer_never_written_by_memdir_verifies(isolated_home, project, person):
    path = person.session.layer("project").path
    path.mkdir(parents=True)
    (path / "hand.md").write_text("---\nname: hand\ndescription: by hand\ntype: project\n---\n")
    assert person.verify().ok  # nothing journaled yet, nothing lost: fine


@pytest.mark.parametrize("scope", ["project", "user"])
def test_a_layer_replaced_by_a_file_is_reported(mem, scope):
    mem.write("editor", "The user edits with Helix", "user")
    path = mem.session.layer(scope).path
    other = mem.session.layer("user" if scope == "project" else "project").path
    import shutil

    shutil.rmtree(path)
    path.write_text("not a layer")
    checks = {c.layer: c for c in mem.verify().layers}
    assert not checks[str(path)].ok and "is not a directory: a layer was replaced by a file" in checks[str(path)].error
    assert checks[str(other)].ok  # control: the other layer is checked and fine


def test_a_line_cut_before_the_anchored_head_is_named_as_such(mem):
    """break21: a line in the middle of the journal cut short (its head, the last line, whole) refused every
    write saying 'event 3 (the anchored head) was edited', which it was not; verify names line 2."""
    mem.write("runner", "Tests run with pytest", "project")
    mem.write("editor", "The user edits with Helix", "project")
    layer = mem.session.layer("project")
    lines = layer.journal.path.read_bytes().split(b"\n")
    removed = len(lines[1]) - len(lines[1]) // 2
    lines[1] = lines[1][:len(lines[1]) // 2]
    layer.journal.path.write_bytes(b"\n".join(lines))
    with pytest.raises(StoreError) as refused:
        mem.write("kafka", "Kafka listens on 9092", "project")
    assert str(refused.value) == (f"{layer.journal.path}: the journal is {removed} bytes shorter "
                                  "than when event 3 was anchored, its last line as it was: a line before it was "
                                  "cut or edited; nothing was changed (see `memdir verify`; `memdir verify --repair` "
                                  "keeps it and chains it again)")
    assert not (layer.path / "kafka.md").exists()
    assert "line 2 is not a valid event" in run_cli("verify").stdout  # control: verify names the line
