"""A pending finding a person answered by editing the memory outside memdir is no longer shown (newuser38).

The journal records the edit (``external-edit``); the finding ends with a reason a person reads in
``memdir review``, nothing deleted. The journal cannot tell an editor from ``git pull``, so an edit answers a
finding only when it saved the finding or took the finding's own value out of the memory that held it."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.prompt import answered, pending
from tests.conftest import run_cli

SAID = "Use uv not pip here, dev db is on 5433, and I use neovim."
OTHER = "Remember: the staging deploy needs the VPN."


def _start(project, session: str) -> str:
    payload = json.dumps({"session_id": session, "cwd": str(project), "hook_event_name": "SessionStart",
                          "source": "startup"})
    done = subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "SessionStart"], input=payload,
                          capture_output=True, text=True, timeout=120, check=False,
                          env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"] if done.stdout.strip() else ""


def _kept(isolated_home, project, *said: str) -> Memory:
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    report = person.consolidate([{"role": "user", "content": s} for s in said], extractor="agent")
    assert report.pending == said
    return person


def test_a_hand_edit_of_the_memory_answers_the_finding_with_its_reason(isolated_home, project):
    """newuser38: db-port said 5433, a finding asked to save "dev db is on 5433"; the person corrected the file
    to 5434 in an editor, and every session start still asked for 5433. Control: the other finding stands."""
    person = _kept(isolated_home, project, SAID, OTHER)
    path = person.session.layer("project").path / "db-port.md"
    first = _start(project, "s1")
    assert f"“{SAID}”" in first and f"“{OTHER}”" in first  # both wait before the edit

    saved = path.with_name(".db-port.md.swp")  # the person's correction in an editor that saves by a rename
    saved.write_text(path.read_text().replace("5433", "5434"))
    os.replace(saved, path)
    after = _start(project, "s2")
    assert f"“{SAID}”" not in after and "5434" in after  # answered; the block shows the corrected memory
    assert f"“{OTHER}”" in after  # control: a finding about no edited memory still waits

    history = run_cli("history", "db-port", cwd=project)
    assert "external-edit" in history.stdout  # the journal's record the rule reads
    review = run_cli("review", cwd=project)
    assert review.returncode == 0, review.stderr
    assert ("db-port was edited outside memdir and no longer holds 5433: saving the finding would undo that edit"
            in review.stdout) and f"“{SAID}”" in review.stdout
    assert "Pending findings of this project" not in review.stdout  # the other one went by its two showings


def test_an_edit_in_place_answers_once_the_sweep_took_it_up(isolated_home, project):
    """An editor that writes in place (same inode) moves no directory mtime: the store journals such an edit
    at the latest at the next sweep (memdir.files.sweeps: MEMDIR_SWEEP_INTERVAL seconds), and the answer follows
    the journal. Control: the finding about no edited memory still waits. (Whether the edit is seen before the
    sweep depends on how fresh the stamps are, RACY_NS: not asserted.)"""
    person = _kept(isolated_home, project, SAID, OTHER)
    path = person.session.layer("project").path / "db-port.md"
    first = _start(project, "s1")
    assert f"“{SAID}”" in first and f"“{OTHER}”" in first
    path.write_text(path.read_text().replace("5433", "5434"))  # in place
    os.environ["MEMDIR_SWEEP_INTERVAL"] = "0"  # the interval passed
    try:
        after = _start(project, "s2")
        assert f"“{SAID}”" not in after and f"“{OTHER}”" in after
    finally:
        del os.environ["MEMDIR_SWEEP_INTERVAL"]


def test_an_edit_that_leaves_the_value_or_one_before_the_finding_answers_nothing(isolated_home, project):
    """Controls in one setup: an edit journaled before the finding was kept is no answer to it (the finding's
    journal mark), nor is an edit that leaves 5433 in the memory; then the edit that takes 5433 out is."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    layer = person.session.layer("project")
    path = layer.path / "db-port.md"

    def edit(old: str, new: str) -> None:  # by hand, then taken up (journaled) as any memdir command does
        path.write_text(path.read_text().replace(old, new))
        assert person.history("db-port").versions[-1].action == "external-edit"

    edit("5433", "5434")  # would answer the finding below, but is journaled before it was kept
    report = person.consolidate([{"role": "user", "content": SAID}], extractor="agent")
    assert report.pending == (SAID,)
    (kept,) = pending.load(layer.path)
    *_, kept_at, receipt = layer.journal.events()
    assert receipt.action == "receipt" and kept["journal"][2] == kept_at.seq  # the mark: the journal's last event then
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]

    edit("5434", "5433")  # the memory holds 5433 again (no answer: the finding holds more than it)
    edit("listens on 5433", "listens on 5433 (docker-compose.yml)")  # 5433 stays
    assert [i["text"] for i in pending.active(layer.path)] == [SAID]
    assert answered.answered(layer.path) == {}

    edit("5433", "5434")  # the value taken out: the answer
    assert pending.active(layer.path) == []
    (entry,) = answered.answered(layer.path).values()
    assert (entry["id"], entry["name"], entry["text"]) == (kept["id"], "db-port", SAID)
    assert entry["seq"] == layer.journal.last_event().seq
    assert [i["id"] for i in pending.load(layer.path)] == [kept["id"]]  # recorded, not deleted


@pytest.mark.parametrize("finding, before, after, reason", [
    # newuser38: the finding's value taken out of the memory that held it
    (SAID, "db-port\nDev PostgreSQL listens on 5433", "db-port\nDev PostgreSQL listens on 5434",
     "db-port was edited outside memdir and no longer holds 5433: saving the finding would undo that edit"),
    # saved by the edit: the memory holds the finding now
    ("The dev db is on 5433 now.", "db-port\nDev db is on 5432", "db-port\nDev db is on 5433",
     "db-port was edited outside memdir and now holds it"),
    # a pulled (or copied) memory holding another value than both: the journal cannot tell it from a hand edit,
    # so it answers nothing (the reverted fix39 ended the finding here)
    ("The dev db is on 5433 now.", "db-port\nDev db is on 5432", "db-port\nDev db is on 5435", None),
    # the value kept: no answer
    (SAID, "db-port\nDev PostgreSQL listens on 5433", "db-port\nDev PostgreSQL listens on 5433\nSee compose.", None),
    # a memory that held the number and nothing else the finding says is not about it
    (SAID, "ticket\nTicket 5433 is closed", "ticket\nTicket 5434 is closed", None),
])
def test_an_edit_answers_a_finding_only_by_saving_it_or_taking_its_value_out(finding, before, after, reason):
    assert answered.answer(finding, before.split("\n")[0], before, after) == reason


def test_a_finding_an_older_memdir_kept_is_judged_by_time(isolated_home, project):
    """A finding kept without a journal mark (an older memdir's) is judged by the journal's times, read whole:
    waiting before the edit (the control), answered after it."""
    person = _kept(isolated_home, project, SAID)
    layer = person.session.layer("project").path
    stored = layer / ".memdir" / pending.PENDING_FILE
    data = json.loads(stored.read_text())
    data["items"][0].pop("journal")
    stored.write_text(json.dumps(data))
    assert [i["text"] for i in pending.active(layer)] == [SAID]

    path = layer / "db-port.md"
    path.write_text(path.read_text().replace("5433", "5434"))
    assert person.history("db-port").versions[-1].action == "external-edit"
    assert pending.active(layer) == []
    assert [e["name"] for e in answered.answered(layer).values()] == ["db-port"]
