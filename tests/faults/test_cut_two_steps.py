"""A change of two steps killed between them (a real process dying with ``os._exit`` at the chosen point,
as a SIGKILL would): the next process finishes it before anything else (layer.interrupted.finish_cut), so
no half-applied state is seen in MEMORY.md, list, review or search. Before break22 (found by SIGKILLing
``memdir approve`` inside its lock window: 6 of 25 kills) an approval cut after the memory took the
candidate's text left the candidate waiting in review, and a rename cut after the new memory's line left
the old one active beside it in MEMORY.md, list and search, until `memdir verify --repair`."""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from memdir import Memory
from memdir.layer.interrupted import FINISHED

pytestmark = pytest.mark.slow  # real processes

CUT = textwrap.dedent("""
    import os, sys
    from memdir import Memory
    from memdir.layer import journal, transaction
    home, proj, where, step, what = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), sys.argv[5:]
    calls = [0]
    cls, attr = (journal.Journal, "append") if where == "append" else (transaction.Transaction, "apply")
    original = getattr(cls, attr)
    def cut(self, *args, **kwargs):
        calls[0] += 1
        if calls[0] == step:
            os._exit(9)  # dies here: nothing after it runs, no finally, no lock released but by the kernel
        return original(self, *args, **kwargs)
    setattr(cls, attr, cut)
    mem = Memory.open(home=home, project=proj, actor="human")
    if what[0] == "approve":
        mem.approve(what[1])
    else:
        mem.write(what[1], "Dev PostgreSQL moved to 6543", "project", "renamed", rename_from=what[2])
""")


def _store(home, project):
    person = Memory.open(home=home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "old")
    person.write("editor", "Prefers tabs", "project", "tabs")
    agent = Memory.open(home=home, project=project)
    agent.write("db-port", "Dev PostgreSQL listens on 6543", "project", "new", status="candidate")
    agent.write("editor", "Prefers spaces", "project", "spaces", status="candidate")  # another, left waiting
    person.review()  # the person saw it: an approval removing a line they wrote needs that (team33)
    return person


def _cut(home, project, where, step, *what):
    done = subprocess.run([sys.executable, "-c", CUT, str(home), str(project), where, str(step), *what],
                          capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 9, done.stderr


def _seen(home, project):
    mem = Memory.open(home=home, project=project, actor="human")
    layer = mem.session.layer("project")
    listed = [(m.name, m.description) for m in mem.list().memories]
    waiting = [c.name for c in mem.review().candidates]
    found = [r.name for r in mem.search("PostgreSQL", k=5)]
    index = (layer.path / "MEMORY.md").read_text(encoding="utf-8")
    last = json.loads(layer.journal.path.read_text(encoding="utf-8").splitlines()[-1])
    return listed, waiting, found, index, last


@pytest.mark.parametrize("where, step", [("apply", 2), ("append", 2), ("append", 1)],
                         ids=["after-the-memory-s-line", "candidate-removed-not-journaled", "before-the-memory-s-line"])
def test_an_approval_cut_between_its_steps_is_finished_by_the_next_process(isolated_home, project, monkeypatch,
                                                                          where, step):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    _store(isolated_home, project)
    _cut(isolated_home, project, where, step, "approve", "db-port-candidate")
    listed, waiting, found, index, last = _seen(isolated_home, project)
    assert listed == [("db-port", "Dev PostgreSQL listens on 6543"), ("editor", "Prefers tabs")]
    assert waiting == ["editor-candidate"]  # control: a candidate not decided still waits
    assert found == ["db-port"]
    assert index.splitlines() == ["- [db-port](db-port.md) — Dev PostgreSQL listens on 6543",
                                  "- [editor](editor.md) — Prefers tabs"]
    assert (last["action"], last["name"], last["reason"]) == (
        "approve", "db-port-candidate", f"merged into db-port{FINISHED}")


@pytest.mark.parametrize("where, edit", [("apply", False), ("append", False), ("apply", True)],
                         ids=["after-the-new-line", "retired-not-journaled", "then-a-hand-edit-of-the-old"])
def test_a_rename_cut_between_its_steps_leaves_one_memory_active(isolated_home, project, monkeypatch, where, edit):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    person = _store(isolated_home, project)
    person.approve("db-port-candidate")
    _cut(isolated_home, project, where, 2, "rename", "pg-port", "db-port")
    if edit:  # journaled by the next transaction's sweep before it finishes the cut: the cut line is no longer last
        with open(person.session.layer("project").path / "db-port.md", "a", encoding="utf-8") as handle:
            handle.write("A line a person added.\n")
    listed, _, found, index, _ = _seen(isolated_home, project)
    assert listed == [("editor", "Prefers tabs"), ("pg-port", "Dev PostgreSQL moved to 6543")]
    assert found == ["pg-port"]
    assert index.splitlines() == ["- [editor](editor.md) — Prefers tabs",
                                  "- [pg-port](pg-port.md) — Dev PostgreSQL moved to 6543"]
    old = Memory.open(home=isolated_home, project=project).read("db-port", count=False).record
    assert (old.status, old.superseded_by) == ("superseded", "pg-port")


@pytest.mark.parametrize("killed", [True, False], ids=["killed-before-its-line", "control-no-kill"])
def test_an_approval_killed_before_its_line_then_edited_by_hand_is_finished_with_both_versions(
        isolated_home, project, monkeypatch, killed):
    """break23 (c): approve killed before the memory's line, then db-port.md edited by hand before the next
    process: the sweep journaled one external-edit (the approved version lost from history) and
    db-port-candidate kept waiting in review. Now the killed writer's stored version is journaled as the
    write it was (commit.cut_write), the hand edit after it, and the candidate finished. Control: with no kill,
    the same hand edit is one external-edit and the candidate still waits."""
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    person = _store(isolated_home, project)
    layer = person.session.layer("project")
    old_head = layer.journal.head("db-port")
    if killed:
        _cut(isolated_home, project, "append", 1, "approve", "db-port-candidate")
    with open(layer.path / "db-port.md", "a", encoding="utf-8") as handle:
        handle.write("A line a person added.\n")
    listed, waiting, _, _, _ = _seen(isolated_home, project)
    events = [json.loads(line) for line in layer.journal.path.read_text(encoding="utf-8").splitlines()]
    kinds = [(e["action"], e["name"]) for e in events[4:]]
    if not killed:
        assert waiting == ["db-port-candidate", "editor-candidate"]
        assert kinds == [("external-edit", "db-port")] and events[4]["before"] == old_head
        return
    assert waiting == ["editor-candidate"]
    assert listed == [("db-port", "Dev PostgreSQL listens on 6543"), ("editor", "Prefers tabs")]
    assert kinds == [("update", "db-port"), ("external-edit", "db-port"), ("approve", "db-port-candidate")]
    approved, edited = events[4], events[5]
    assert (approved["before"], approved["reason"]) == (old_head, "interrupted write, completed")
    assert edited["before"] == approved["after"] and edited["after"] == layer.journal.head("db-port")
    assert b"new\n" in layer.journal.get_object(approved["after"])  # the approved text, kept as its own version
    assert (layer.path / "db-port.md").read_text(encoding="utf-8").endswith("\n---\n\nnew\nA line a person added.\n")
