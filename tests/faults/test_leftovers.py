"""Side files of writers killed mid-change (memdir.layer.leftovers), and a reader's view of a cut delete.

Writers are real processes SIGKILLed at named points (a forked child that patches the step to kill
itself, as tests/faults/test_faults.py does): the side files checked are those the writer made, their
names read from the directory. A lock held "by another writer" is a real process holding the layer's
filelock.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
from contextlib import contextmanager
from pathlib import Path

import pytest

from memdir import Memory
from memdir.files import sweeps
from memdir.files.fsio import (
    ASIDE_SUFFIX,
    BACKUP_SUFFIX,
    TEMP_SUFFIX,
    atomic_write,
    side_name,
    side_of,
)
from memdir.files.layout import WRITER_FILE
from memdir.layer import commit
from memdir.layer.journal import Journal
from tests.conftest import run_cli


def seed(home, project) -> Memory:
    mem = Memory.open(home=home, project=project, actor="human")
    mem.write("pm2", "Processes run under pm2", "project", "pm2 start ecosystem.config.js")
    mem.write("deploy", "Deploys run on Fridays", "project", "after the standup")
    mem.write("editor", "The user edits with Helix", "user", "and vim keys")
    return mem


def _replace_killer(hit):
    """``os.replace`` that SIGKILLs the process instead of the rename ``hit(dst)`` names."""
    real = os.replace

    def replace(src, dst, *args, **kwargs):
        if hit(Path(dst)):
            os.kill(os.getpid(), signal.SIGKILL)
        return real(src, dst, *args, **kwargs)

    os.replace = replace


def _after(owner, attr):
    real = getattr(owner, attr)

    def wrapper(*args, **kwargs):
        result = real(*args, **kwargs)
        os.kill(os.getpid(), signal.SIGKILL)
        return result

    setattr(owner, attr, wrapper)


POINTS = {
    # the new bytes are in a temp file, the old file linked as a backup, the rename not done
    "memory-file-rename": lambda: _replace_killer(lambda p: p.suffix == ".md" and p.name != "MEMORY.md"),
    # a version object's temp file written, not renamed
    "object-rename": lambda: _replace_killer(lambda p: p.parent.name == "objects"),
    # committed; MEMORY.md's temp file written, not renamed
    "index-rename": lambda: _replace_killer(lambda p: p.name == "MEMORY.md"),
    # a delete renamed the file aside and was killed before its journal line
    "renamed-aside": lambda: _after(commit, "stage_remove"),
    # a delete's journal line written (committed), the file still renamed aside
    "journal-line": lambda: _after(Journal, "_write_line"),
}


def cut(home, project, call, point: str, actor: str = "agent") -> None:
    """Run ``call(memory)`` in a forked child that SIGKILLs itself at ``point``; assert it was killed."""
    pid = os.fork()
    if pid == 0:
        try:
            POINTS[point]()
            call(Memory.open(home=home, project=project, actor=actor))
        finally:
            os._exit(3)
    _, status = os.waitpid(pid, 0)
    assert os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL, point


def side_files(layer) -> list[Path]:
    """Every dot-file ending as a side file does in the directories a writer of ``layer`` writes."""
    folders = {layer.path, layer.meta, layer.meta / "objects"}
    return sorted(p for folder in folders for p in folder.iterdir()
                  if p.name.startswith(".") and p.name.endswith((TEMP_SUFFIX, BACKUP_SUFFIX, ASIDE_SUFFIX)))


@contextmanager
def holding(*layers):
    """The layers' locks held by another process (as a live writer holds them) until the block ends."""
    locks = [str(layer.meta / "lock") for layer in layers]
    proc = subprocess.Popen([sys.executable, "-c", textwrap.dedent(f"""
        import sys
        from filelock import FileLock
        locks = [FileLock(p) for p in {locks!r}]
        for lock in locks:
            lock.acquire()
        print("held", flush=True)
        sys.stdin.read()
    """)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert proc.stdout.readline().strip() == "held"
        yield
    finally:
        proc.stdin.close()
        proc.wait(timeout=30)


# ---------------------------------------------------------------- names


def test_side_file_names_are_the_writers_own(tmp_path):
    seen = []
    (folder := tmp_path / "layer").mkdir()
    target = folder / "db-port.md"
    target.write_bytes(b"old")
    atomic_write(target, b"new", before_replace=lambda: seen.extend(p.name for p in folder.iterdir()))
    (temp,) = [name for name in seen if name != "db-port.md"]
    assert side_of(temp) == "db-port.md" and temp.endswith(".tmp")
    assert side_of(side_name(target, BACKUP_SUFFIX).name) == "db-port.md"
    assert side_of(side_name(target, ASIDE_SUFFIX).name) == "db-port.md"
    assert side_of(".usage.json.k2x_9qaz.tmp") == "usage.json"
    # a person's dot-files are not memdir's: never listed, never removed
    assert [side_of(n) for n in (".notes.md.bak", ".db-port.md.del", "db-port.md.abc12345.tmp",
                                 ".db-port.md.ABCDEF12.tmp", ".db-port.md.abc.tmp")] == [None] * 5


# ---------------------------------------------------------------- the next write removes a dead holder's


@pytest.mark.slow
@pytest.mark.parametrize("point,call,left", [
    ("memory-file-rename", lambda m: m.write("deploy", "Deploys run on Thursdays", "project", "moved"),
     {("deploy.md", TEMP_SUFFIX), ("deploy.md", BACKUP_SUFFIX)}),
    ("object-rename", lambda m: m.write("deploy", "Deploys run on Thursdays", "project", "moved"),
     {("<object>", TEMP_SUFFIX)}),
    ("index-rename", lambda m: m.write("deploy", "Deploys run on Thursdays", "project", "moved"),
     {("MEMORY.md", TEMP_SUFFIX)}),
    ("journal-line", lambda m: m.delete("deploy"), {("deploy.md", ASIDE_SUFFIX)}),
])
def test_the_next_write_removes_what_a_killed_writer_left_and_nothing_else(isolated_home, project, point, call, left):
    home = isolated_home
    layer = seed(home, project).session.layer("project")
    before = layer.path / ".pm2.md.ab12cd_e.tmp"  # a side file made before the killed writer took the lock:
    before.write_bytes(b"not the dead writer's")  # younger than the lock timeout, maybe a live writer's
    persons = layer.path / ".notes.md.bak"
    persons.write_bytes(b"a person's")
    time.sleep(0.05)  # past the file system clock's tick: made before the killed writer's mark
    cut(home, project, call, point)
    found = [p for p in side_files(layer) if p not in (before, persons)]
    assert {("<object>" if p.parent.name == "objects" else side_of(p.name), p.name[-4:]) for p in found} == left
    assert (layer.meta / WRITER_FILE).exists()  # the killed writer's mark: it held the lock
    mem = Memory.open(home=home, project=project, actor="agent")
    mem.write("after", "A write after the kill", "project")
    assert side_files(layer) == sorted([before, persons])  # the dead writer's gone; those before its mark stay
    assert not (layer.meta / WRITER_FILE).exists()
    assert mem.verify().ok
    events = [e.action for e in layer.journal.events()]
    assert events[-1] == "create" and "external-delete" not in events


def test_a_write_with_no_dead_writer_lists_nothing_and_leaves_its_own_mark_behind(mem, project):
    mem.write("pm2", "Processes run under pm2", "project")
    layer = mem.session.layer("project")
    young = layer.path / ".pm2.md.ab12cd_e.tmp"
    young.write_bytes(b"maybe a live writer's")
    mem.write("pm2", "Processes run under pm2 in cluster mode", "project")
    assert young.exists()  # no mark was found: nothing was listed, nothing removed
    assert not (layer.meta / WRITER_FILE).exists()  # the write's own mark went with its lock
    with layer.locked():
        assert (layer.meta / WRITER_FILE).read_text() == f"{os.getpid()}\n"  # control: there while held
        with layer.locked():  # re-entrant: the inner release keeps it
            pass
        assert (layer.meta / WRITER_FILE).exists()
    assert not (layer.meta / WRITER_FILE).exists()


@pytest.mark.slow
def test_sigkilled_writers_leave_no_side_files_after_the_next_write(isolated_home, project):
    """What break18 saw: 1,000 kills left 72 to 234 side files that only `verify --repair` removed."""
    import random

    from tests.faults import forked

    home = isolated_home
    rng = random.Random(18)
    layer = Memory.open(home=home, project=project).session.layer("project")
    assert all(forked.killed(rng, home, project, 0.15) for _ in range(30))  # each killed mid-loop, none ended
    left = side_files(layer)
    print(f"side files after 30 kills, before the next write: {len(left)}")
    out = run_cli("--project", project, "write", "after", "--description", "A write after the kills", "--body", "")
    assert out.returncode == 0, out.stderr
    assert side_files(layer) == []
    assert not (layer.meta / WRITER_FILE).exists()
    assert run_cli("--project", project, "verify").returncode == 0


# ---------------------------------------------------------------- doctor


def test_doctor_notes_side_files_repair_would_remove_and_none_when_there_are_none(isolated_home, project, monkeypatch):
    home = isolated_home
    monkeypatch.setenv("MEMDIR_LOCK_TIMEOUT", "0.1")
    layer = seed(home, project).session.layer("project")
    assert not [n for n in Memory.open(home=home, project=project).doctor().notes if "killed mid-change" in n]
    cut(home, project, lambda m: m.write("deploy", "Deploys run on Thursdays", "project", "moved"),
        "memory-file-rename")
    (layer.meta / WRITER_FILE).unlink()  # as a power cut loses it (never fsynced): rule 1 alone is left
    left = side_files(layer)
    assert len(left) == 2
    time.sleep(0.2)  # past the lock timeout
    size = sum(p.stat().st_size for p in left)
    notes = Memory.open(home=home, project=project).doctor().notes
    assert f"{layer.path}: 2 files ({size:,} bytes) left by writers killed mid-change (temp files, backups); " \
           "`memdir verify --repair` removes them" in notes
    out = run_cli("--project", project, "doctor")
    assert f"note: {layer.path}: 2 files ({size:,} bytes) left by writers killed mid-change" in out.stdout
    assert run_cli("--project", project, "verify", "--repair").returncode == 0
    assert side_files(layer) == []
    assert not [n for n in Memory.open(home=home, project=project).doctor().notes if "killed mid-change" in n]


# ---------------------------------------------------------------- a reader's view of a cut delete


@pytest.mark.slow
def test_lock_free_reads_show_a_memory_whose_delete_never_reached_the_journal(isolated_home, project):
    home = isolated_home
    mem = seed(home, project)
    user, proj = mem.session.layer("user"), mem.session.layer("project")
    cut(home, project, lambda m: m.delete("pm2", "project"), "renamed-aside")  # never journaled: still there
    with holding(proj):  # the next cut's process reads this layer too: it must not put pm2 back
        cut(home, project, lambda m: m.delete("editor", "user"), "journal-line")  # committed: stays deleted
    (kept,) = [p for p in side_files(proj) if p.name.endswith(ASIDE_SUFFIX)]
    (gone,) = [p for p in side_files(user) if p.name.endswith(ASIDE_SUFFIX)]
    assert (side_of(kept.name), side_of(gone.name)) == ("pm2.md", "editor.md")
    assert not (proj.path / "pm2.md").exists()
    with holding(user, proj):  # a writer holds both layers: a reader cannot put anything back
        listed = json.loads(run_cli("--project", project, "--json", "list").stdout)
        names = {(m["scope"], m["name"]) for m in listed["memories"]}
        assert ("project", "pm2") in names and ("project", "deploy") in names
        assert ("user", "editor") not in names  # control: its delete reached the journal
        read = run_cli("--project", project, "read", "pm2", env={"MEMDIR_LOCK_TIMEOUT": "0.2"})
        assert read.returncode == 0 and "Processes run under pm2" in read.stdout, read.stderr
        assert "was deleted" in run_cli("--project", project, "read", "editor").stderr
        found = run_cli("--project", project, "search", "ecosystem")
        assert "pm2" in found.stdout, found.stdout + found.stderr
        assert "No memories match" in run_cli("--project", project, "search", "Helix").stdout
        assert kept.exists() and not (proj.path / "pm2.md").exists()  # nothing written by the readers
    listed = json.loads(run_cli("--project", project, "--json", "list").stdout)  # the lock is free: put back
    assert ("project", "pm2") in {(m["scope"], m["name"]) for m in listed["memories"]}
    assert (proj.path / "pm2.md").exists() and not kept.exists()
    assert "pm2" in run_cli("--project", project, "search", "ecosystem").stdout
    assert "external-delete" not in [e.action for e in proj.journal.events()]
    assert run_cli("--project", project, "verify").returncode == 0


def test_a_write_after_a_read_that_counted_a_cut_delete_puts_the_file_back(isolated_home, project, monkeypatch):
    """A reader's scan that counts a memory from its aside file is never a write's quick scan (a large
    layer swept a moment ago): the write sweeps, and the file comes back before anything else."""
    monkeypatch.setattr(sweeps, "SWEEP_ALWAYS_MAX", 2)  # three files: a large layer, for this test
    home = isolated_home
    mem = seed(home, project)
    mem.write("plain", "The CI cache lives in S3", "project")
    layer = mem.session.layer("project")
    cut(home, project, lambda m: m.delete("pm2", "project"), "renamed-aside")
    (layer.meta / WRITER_FILE).unlink()  # no mark (a power cut): the write has only its scan to go by
    with holding(layer):
        assert "pm2" in {m.name for m in mem.list().memories}  # counted from its aside file
    assert "pm2" in layer._last_scan[1].counted
    mem.write("later", "A later fact", "project")
    assert (layer.path / "pm2.md").exists() and [p.name for p in side_files(layer)] == []
    assert [e.action for e in layer.journal.events()][-1] == "create"
    assert "external-delete" not in [e.action for e in layer.journal.events()]
    assert mem.read("pm2", count=False).record.description == "Processes run under pm2"
