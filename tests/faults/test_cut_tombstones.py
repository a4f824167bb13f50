"""A tombstone change killed before its journal line is undone by the next ordinary operation.

A delete writes ``tombstones.json`` before its journal line (the commit); a lift removes the tombstone
before its line. A SIGKILL between the two used to leave, until a person ran ``memdir verify --repair``:
for a delete, the memory (never deleted) held back from every reader and journaled as an
``external-delete`` by "human" at the next command; for a lift, the value writable again while the
journal said it was still forgotten. The next transaction of the layer now undoes both
(:func:`memdir.layer.drift.settle_tombstones`), with no repair.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.errors import MemdirError
from memdir.layer import commit
from memdir.tombstones.stones import TombstoneFile
from tests.conftest import run_cli
from tests.faults.test_faults import UNPRIVILEGED, _read_only, _writable


def _on_disk(mem) -> tuple:
    """The project layer's tombstones as ``tombstones.json`` holds them (``memdir tombstones`` lists those in force:
    a tombstone a cut left there is not)."""
    return tuple(mem.session.layer("project").tombstone_file.all())


FACT = ("the staging server is at stage3.example", "ssh deploy@stage3")


def _cut(home, project, call, owner, attr) -> bool:
    """Run ``call(memory)`` in a forked child that SIGKILLs itself right after ``owner.attr`` returns."""
    pid = os.fork()
    if pid == 0:  # the child: never returns to pytest
        original = getattr(owner, attr)

        def then_die(*args, **kwargs):
            result = original(*args, **kwargs)
            os.kill(os.getpid(), signal.SIGKILL)
            return result

        setattr(owner, attr, then_die)
        try:
            call(Memory.open(home=home, project=project, actor="human"))
        except BaseException:  # noqa: BLE001
            os._exit(3)
        os._exit(0)
    _, status = os.waitpid(pid, 0)
    return os.WIFSIGNALED(status) and os.WTERMSIG(status) == signal.SIGKILL


@pytest.mark.parametrize("point", [(TombstoneFile, "save"), (commit, "stage_remove")],
                         ids=["tombstone-saved", "file-renamed-aside"])
def test_a_delete_cut_before_its_commit_is_undone_by_the_next_write(tmp_path, project, point):
    home = tmp_path / "home"
    human = Memory.open(home=home, project=project, actor="human")
    human.write("staging", FACT[0], "project", FACT[1])
    human.write("keep", "a control memory", "project", "control body")
    assert _cut(home, project, lambda m: m.delete("staging"), *point)
    assert _on_disk(human) != ()  # the cut left its tombstone (the state under test)

    after = Memory.open(home=home, project=project, actor="human")
    after.write("next", "the next ordinary write", "project", "anything")  # no repair

    assert after.read("staging", count=False).record.description == FACT[0]
    assert [m.name for m in after.list().memories] == ["keep", "next", "staging"]
    assert "[staging](staging.md)" in after.context()
    assert after.tombstones().tombstones == ()
    actions = [(e.action, e.name) for e in after.session.layer("project").journal.events()]
    assert actions == [("create", "staging"), ("create", "keep"), ("create", "next")]  # no external-delete
    assert after.verify().ok
    after.delete("staging")  # control: a delete that completes still tombstones the value
    with pytest.raises(MemdirError, match="forgotten|tombstone"):
        after.write("staging", FACT[0], "project", FACT[1])


@pytest.mark.parametrize("command", [("list",), ("read", "staging"), ("search", "stage3")])
def test_a_forget_cut_before_its_commit_is_undone_by_the_next_read(tmp_path, project, command):
    """break28 (SIGKILL at every step of `memdir forget`): a read right after the cut, before any write, held
    the never-forgotten memory back ("held back: it holds a value forgotten as 'staging' … `memdir delete
    staging` removes it") — the next read, or a write, showed it again. The read settles the cut first."""
    home = tmp_path / "home"
    human = Memory.open(home=home, project=project, actor="human")
    human.write("staging", FACT[0], "project", FACT[1])
    human.write("keep", "a control memory", "project", "control body")
    assert _cut(home, project, lambda m: m.forget("staging"), TombstoneFile, "save")
    assert _on_disk(human) != ()  # the cut left its tombstone (the state under test)
    env = {"MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off"}

    first = run_cli("--project", project, *command, env=env)
    assert first.returncode == 0, first.stderr
    assert "held back" not in first.stdout + first.stderr  # before: "…/staging.md: held back: it holds a value …"
    assert "stage3.example" in first.stdout
    assert run_cli("--project", project, "tombstones", env=env).stdout.strip() == "No tombstones."
    listed = run_cli("--project", project, "list", env=env).stdout.splitlines()
    assert [line.split()[1] for line in listed] == ["keep", "staging"]
    assert run_cli("--project", project, "verify", env=env).returncode == 0
    # The control: a forget that completes holds the value back and lists the memory no more.
    assert run_cli("--project", project, "forget", "staging", env=env).returncode == 0
    assert [line.split()[1] for line in run_cli("--project", project, "list", env=env).stdout.splitlines()] == ["keep"]
    again = run_cli("--project", project, "write", "staging", "-d", FACT[0], "--body", FACT[1], env=env)
    assert again.returncode == 1 and "forgotten" in again.stderr


def test_a_lift_cut_before_its_commit_is_undone_by_the_next_write(tmp_path, project):
    home = tmp_path / "home"
    human = Memory.open(home=home, project=project, actor="human")
    human.write("staging", FACT[0], "project", FACT[1])
    stone = human.forget("staging").tombstone
    assert _cut(home, project, lambda m: m.lift_tombstone(stone), TombstoneFile, "save")
    assert _on_disk(human) == ()  # the cut took the tombstone away (the state under test)

    after = Memory.open(home=home, project=project, actor="human")
    after.write("next", "the next ordinary write", "project", "anything")  # no repair

    assert [s.id for s in after.tombstones().tombstones] == [stone]
    with pytest.raises(MemdirError, match="forgotten|tombstone"):
        after.write("staging", FACT[0], "project", FACT[1])
    assert after.verify().ok
    after.lift_tombstone(stone)  # control: a lift that completes lets the value back
    assert after.write("staging", FACT[0], "project", FACT[1]).operation == "created"


def test_a_lift_whose_journal_line_fails_leaves_the_tombstone_in_force(tmp_path, project, monkeypatch):
    """A full disk at the lift's journal line used to leave the tombstone lifted while the error said
    nothing was written (and ``memdir verify`` said the journal's tombstone was missing)."""
    home = tmp_path / "home"
    human = Memory.open(home=home, project=project, actor="human")
    human.write("staging", FACT[0], "project", FACT[1])
    stone = human.forget("staging").tombstone
    real_write = os.write

    def short(fd, data):  # the journal line is cut short, as on a full disk
        if bytes(data[:7]) == b'{"seq":':
            return real_write(fd, bytes(data[: len(data) // 2]))
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", short)
    with pytest.raises(MemdirError, match="short write"):
        human.lift_tombstone(stone)
    monkeypatch.setattr(os, "write", real_write)

    assert [s.id for s in human.tombstones().tombstones] == [stone]
    assert human.verify().ok
    with pytest.raises(MemdirError, match="forgotten|tombstone"):
        human.write("staging", FACT[0], "project", FACT[1])
    human.lift_tombstone(stone)  # control: the same lift on a disk with room lets the value back
    assert human.write("staging", FACT[0], "project", FACT[1]).operation == "created"


def test_tombstones_newer_than_the_journal_are_checked_once_not_at_every_read(tmp_path, project, monkeypatch):
    """``verify --repair`` or a person can leave ``tombstones.json`` newer than the journal with nothing cut:
    5 rounds of context, list, search and read read the whole journal 26 times before it took the journal's
    mtime once settled."""
    from memdir.layer import drift

    home = tmp_path / "home"
    human = Memory.open(home=home, project=project, actor="human")
    for i in range(20):
        human.write(f"fact-{i}", f"fact number {i} about the build", "project", f"body {i}")
    human.forget("fact-1")
    os.utime(human.session.layer("project").tombstone_file.path)  # newer than the journal, nothing cut
    calls = []
    monkeypatch.setattr(drift, "orphan_tombstones", lambda *a: calls.append(1) or [])
    for _ in range(5):  # the first read checks (break28: a cut forget held its memory back from it), and
        reader = Memory.open(home=home, project=project)  # settles the mtime: the next reads do not
        reader.context(), reader.list(), reader.search("build"), reader.read("fact-5")
    # the first read checks twice (the tombstones read as settled, then the settle itself), the next reads never
    assert len(calls) == 2  # control: checked (0 would mean never)
    for i in range(3):  # nor do the transactions after it
        Memory.open(home=home, project=project, actor="human").write("fact-5", "fact number 5 about the build",
                                                                     "project", f"body 5, take {i}")
        reader = Memory.open(home=home, project=project)
        reader.context(), reader.list(), reader.search("build"), reader.read("fact-5")
    assert len(calls) == 2
    assert [s.name for s in human.tombstones().tombstones] == ["fact-1"]


def test_a_forget_cut_before_its_commit_does_not_hide_the_memory_from_a_read_only_reader(tmp_path, project):
    """break29: a forget killed between tombstones.json and its journal line, then read by a process that
    cannot write the home (another user's, a read-only mount): the read could not settle the orphan
    tombstone, so it held the never-forgotten memory back ("held back: it holds a value forgotten …") from
    context, list, read and search for as long as nobody wrote. It reads the tombstones as the settle would."""

    home = tmp_path / "home"
    human = Memory.open(home=home, project=project, actor="human")
    human.write("staging", FACT[0], "project", FACT[1])
    human.write("keep", "a control memory", "project", "control body")
    human.write("gone", "a memory forgotten for real", "project", "the old mirror at mirror9.example")
    human.forget("gone")  # the control: a forget that completed still holds its value back from this reader
    assert _cut(home, project, lambda m: m.forget("staging"), TombstoneFile, "save")
    assert len(_on_disk(human)) == 2  # the cut left its tombstone (the state under test)
    env = {**os.environ, "MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off", "HOME": str(tmp_path)}
    _read_only(home)
    try:
        def reader(*args):
            return subprocess.run([*UNPRIVILEGED, sys.executable, "-m", "memdir.cli", "--project", str(project), *args],
                                  capture_output=True, text=True, env=env, timeout=120, check=False)

        listed = reader("list")
        assert listed.returncode == 0, listed.stderr
        assert [line.split()[1] for line in listed.stdout.splitlines()] == ["keep", "staging"]  # before: ["keep"]
        assert "held back" not in listed.stdout + listed.stderr
        read = reader("read", "staging")
        assert read.returncode == 0 and "stage3.example" in read.stdout, read.stdout + read.stderr
        found = reader("search", "stage3")
        assert found.returncode == 0 and "staging" in found.stdout, found.stdout + found.stderr
        context = reader("context")
        assert "[staging](staging.md)" in context.stdout and "[keep](keep.md)" in context.stdout, context.stderr
        assert "mirror9.example" not in reader("search", "mirror9").stdout  # the completed forget still holds
        assert reader("read", "gone").returncode == 1
    finally:
        _writable(home)
    assert len(_on_disk(human)) == 2  # the reader wrote nothing: the orphan is still on disk
