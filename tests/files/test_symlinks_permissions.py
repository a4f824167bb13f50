"""Symlinks and file modes (issue 10, items 11 and 12): a symlinked layer or
meta file is refused, never followed; everything memdir creates is private."""

from __future__ import annotations

import os
import stat

import pytest

from memdir import Memory, StoreError
from memdir.layer.journal import Journal
from tests.conftest import run_cli


def _outside(tmp_path):
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (outside / "outside.md").write_text("---\nname: outside\ndescription: zanzibar secret plans\n"
                                        "type: project\n---\nzanzibar\n", encoding="utf-8")
    return outside


@pytest.mark.slow
def test_a_symlinked_layer_directory_is_refused_everywhere(mem, project, tmp_path):
    outside = _outside(tmp_path)
    before = (outside / "outside.md").read_bytes()
    mem.write("me", "Prefers short answers", "user")  # control: the user layer is listed once the link goes
    layer = mem.session.layer("project").path
    layer.parent.mkdir(parents=True, exist_ok=True)
    layer.symlink_to(outside, target_is_directory=True)
    # A layer that cannot be used is skipped with the reason (issue 10, item 5); the others answer.
    listed = mem.list()
    assert [m.name for m in listed.memories] == ["me"]
    assert [(m.path, m.error) for m in listed.malformed] == [
        (str(layer), f"layer skipped: {layer} is a symbolic link (to {outside}); memdir does not follow "
                     "symlinks in a layer: replace it with the real directory or file")]
    out = run_cli("--project", project, "list")
    assert out.returncode == 0 and "- me (type: user; layer: user)" in out.stdout and "is a symbolic link" in out.stdout
    out = run_cli("--project", project, "context")
    assert out.returncode == 0 and "[me](me.md)" in out.stdout and "is a symbolic link" in out.stderr
    out = run_cli("--project", project, "read", "outside")
    assert out.returncode == 1 and "not found" in out.stderr
    out = run_cli("--project", project, "search", "zanzibar")  # the search index refuses to sync it
    assert out.returncode == 1 and "is a symbolic link" in out.stderr
    for args in (("list",), ("read", "outside"), ("context",), ("search", "zanzibar")):
        out = run_cli("--project", project, *args)
        assert "zanzibar" not in out.stdout, args
    doctor = run_cli("--project", project, "doctor")
    assert doctor.returncode == 1
    assert f"  malformed: {layer}: {layer} is a symbolic link (to {outside})" in doctor.stdout
    assert (outside / "outside.md").read_bytes() == before and sorted(os.listdir(outside)) == ["outside.md"]
    # Control: a real directory in its place is a layer again.
    layer.unlink()
    layer.mkdir()
    assert [m.name for m in mem.list().memories] == ["me"]


@pytest.mark.parametrize("meta", [".memdir/journal.jsonl", ".memdir/journal.torn", ".memdir/tombstones.json",
                                  ".memdir"])
def test_a_symlinked_meta_file_is_refused(mem, tmp_path, meta):
    mem.write("db-port", "Dev DB on 5433", "project")
    layer = mem.session.layer("project").path
    target = tmp_path / "victim"
    if meta == ".memdir":
        os.rename(layer / ".memdir", target)
    else:
        target.write_bytes(b"do not touch\n")
        (layer / meta).unlink(missing_ok=True)
    (layer / meta).symlink_to(target)
    before = target.read_bytes() if target.is_file() else None
    with pytest.raises(StoreError, match=f"{layer / meta} is a symbolic link"):
        mem.write("db-port", "Dev DB on 5434", "project")
    if before is not None:
        assert target.read_bytes() == before
    assert mem.verify().layers[-1].ok is False


def test_the_journal_is_opened_without_following_a_symlink(tmp_path):
    meta = tmp_path / ".memdir"
    meta.mkdir()
    victim = tmp_path / "victim"
    victim.write_bytes(b"")
    (meta / "journal.jsonl").symlink_to(victim)
    with pytest.raises(StoreError, match="cannot append"):
        Journal(meta).append("human", "create", "x", None, None)
    assert victim.read_bytes() == b""


def _modes(root):
    found = {}
    for directory, dirs, files in os.walk(root):
        found[directory] = stat.S_IMODE(os.stat(directory).st_mode)
        for name in files:
            found[os.path.join(directory, name)] = stat.S_IMODE(os.lstat(os.path.join(directory, name)).st_mode)
    return found


def test_everything_memdir_creates_is_private(tmp_path, project, monkeypatch):
    home = tmp_path / "fresh" / "nested" / "memhome"
    monkeypatch.setenv("MEMDIR_HOME", str(home))
    previous = os.umask(0o022)  # the usual umask: what memdir creates must not depend on it
    try:
        mem = Memory.open(home=home, project=project, search_vectors="off")
        mem.write("db-port", "Dev DB on 5433", "project", "the body names otters")
        mem.write("me", "Prefers short answers", "user")
        with open(mem.session.layer("project").meta / "journal.jsonl", "ab") as journal:
            journal.write(b'{"torn')  # a torn tail: the next write keeps it in journal.torn
        mem.write("db-port", "Dev DB on 5434", "project", "the body still names otters")
        assert [hit.name for hit in mem.search("otters")] == ["db-port"]  # the index's connection stays open
        modes = _modes(tmp_path / "fresh")
    finally:
        os.umask(previous)
    names = {os.path.basename(p) for p in modes}
    # Control: the files whose modes matter are there to be checked.
    assert {"memhome", "projects", "_user", "lock", "journal.torn", "journal.jsonl", "index.sqlite",
            "index.sqlite-wal", "index.sqlite-shm", "MEMORY.md", "db-port.md"} <= names
    loose = {path: oct(mode) for path, mode in modes.items()
             if mode != (0o700 if os.path.isdir(path) else 0o600)}
    assert loose == {}
