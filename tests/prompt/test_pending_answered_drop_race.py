"""A hook recording a finding's answer while `memdir review --drop all` clears the records, or `--drop ID` drops
that finding (real processes).

The hook judges a finding answered by an edit outside memdir and appends its record with no layer lock
(:func:`memdir.prompt.answered._record`); `--drop all` drops the findings, then removes the records
(:func:`memdir.prompt.answered.clear`). A hook that judged before the drop and wrote after it brought the
record back: `memdir review` listed an answered finding the person had just cleared. The record is now written
only for a finding ``pending.json`` still keeps, checked after the file is opened and under its shared
``flock``, which the clear takes exclusively, and a drop by id too (:func:`memdir.prompt.answered.dropping`)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from memdir import Memory
from memdir.prompt import answered, pending
from tests.conftest import run_cli

SAID = "Use uv not pip here, dev db is on 5433, and I use neovim."
OTHER = "Remember: the staging deploy needs the VPN."

pytestmark = pytest.mark.slow  # real processes: a hook's judging and the CLI's drop

# The hook's path (pending.active, as a session start runs it), paused at one point until the file `go` appears:
# "before": judged, before the record is opened; "inside": the record opened and locked, before the check;
# "checked": the check made, before the write. `also`: a finding the hook's rule answers too (a hook of another
# memdir version judging an edit otherwise than the drop's own judging does), "" for none.
HOOK = """
import json, os, sys, time
from memdir.prompt import answered, pending
layer, flags, where, also = sys.argv[1:]

if also:
    real_answer = answered.answer
    def answer(item_text, name, before, after):
        found = real_answer(item_text, name, before, after)
        return found if found or item_text != also else "another memdir's rule answers it"
    answered.answer = answer

def wait():
    open(os.path.join(flags, "paused"), "w").close()
    deadline = time.monotonic() + 60
    while not os.path.exists(os.path.join(flags, "go")):
        if time.monotonic() > deadline:
            sys.exit(3)
        time.sleep(0.01)

if where == "before":
    real = answered._record
    def paused(layer_dir, name, entries, kept=None):
        if name == answered.ANSWERED_FILE:
            wait()
        return real(layer_dir, name, entries, kept)
    answered._record = paused
elif where == "inside":
    real = pending.kept_ids
    def paused(layer_dir):
        wait()
        return real(layer_dir)
    pending.kept_ids = paused
else:
    real = pending.kept_ids
    def paused(layer_dir):
        ids = real(layer_dir)
        wait()
        return ids
    pending.kept_ids = paused
print(json.dumps([item["text"] for item in pending.active(layer)]))
"""


@pytest.fixture
def edited(isolated_home, project):
    """Two findings, the first answered by a hand edit of db-port (5433 -> 5434) that nothing has judged yet."""
    person = Memory.open(home=isolated_home, project=project, actor="human")
    person.write("db-port", "Dev PostgreSQL listens on 5433", "project", "")
    assert person.consolidate([{"role": "user", "content": s} for s in (SAID, OTHER)],
                              extractor="agent").pending == (SAID, OTHER)
    layer = person.session.layer("project")
    path = layer.path / "db-port.md"
    path.write_text(path.read_text().replace("5433", "5434"))
    assert person.history("db-port").versions[-1].action == "external-edit"  # journaled, not judged
    assert answered.answered(layer.path) == {}
    return layer


def _hook(layer, flags, where: str, also: str = "") -> subprocess.Popen:
    hook = subprocess.Popen([sys.executable, "-c", HOOK, str(layer.path), str(flags), where, also],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))
    deadline = time.monotonic() + 60
    while not (flags / "paused").exists():
        assert hook.poll() is None and time.monotonic() < deadline, hook.communicate()
        time.sleep(0.01)
    return hook


def _drop_all(project, which: str = "all") -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "memdir.cli", "--project", str(project), "review", "--drop", which],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))


def _finish(process: subprocess.Popen) -> str:
    out, err = process.communicate(timeout=120)
    assert process.returncode == 0, err
    return out


def _until_dropped(layer) -> None:
    deadline = time.monotonic() + 60
    while pending.load(layer.path):
        assert time.monotonic() < deadline
        time.sleep(0.01)


@pytest.mark.parametrize("where", ["before", "inside"])
def test_an_answer_judged_before_drop_all_and_written_after_it_does_not_come_back(project, edited, tmp_path, where):
    flags = tmp_path / f"flags-{where}"
    flags.mkdir()
    hook = _hook(edited, flags, where)
    drop = _drop_all(project)
    _until_dropped(edited)  # the drop has emptied pending.json: the hook resumes after it
    if where == "before":
        dropped = _finish(drop)  # nothing held it: it ran to its end while the hook was paused
    else:
        time.sleep(0.3)
        assert drop.poll() is None  # the clear waits for the hook holding the records' file
    (flags / "go").touch()
    assert json.loads(_finish(hook)) == [OTHER]  # the hook judged SAID answered, as before the drop
    if where == "inside":
        dropped = _finish(drop)
    assert dropped.startswith("Dropped 1 pending finding(s)") and f"“{OTHER}”" in dropped
    assert answered.answered(edited.path) == {}  # the record did not come back
    assert run_cli("--project", project, "review").stdout == "No candidates waiting for review.\n"


def test_control_an_answer_written_with_no_drop_is_recorded(project, edited, tmp_path):
    flags = tmp_path / "flags"
    flags.mkdir()
    hook = _hook(edited, flags, "before")
    (flags / "go").touch()
    assert json.loads(_finish(hook)) == [OTHER]
    assert [e["text"] for e in answered.answered(edited.path).values()] == [SAID]
    review = run_cli("--project", project, "review").stdout
    assert "Findings answered by an edit outside memdir (1)" in review and f"“{SAID}”" in review


def _until_waiting(process: subprocess.Popen, path) -> None:
    """Until ``process`` waits for the ``flock`` of ``path`` (a ``->`` line of /proc/locks naming its pid and the
    file's inode)."""
    inode = f":{os.stat(path).st_ino} "
    deadline = time.monotonic() + 60
    while not any(" -> " in f" {line} " and f" {process.pid} " in line and inode in line
                  for line in Path("/proc/locks").read_text().splitlines()):
        assert process.poll() is None and time.monotonic() < deadline, process.communicate()
        time.sleep(0.01)


def _id_of(layer, text: str) -> str:
    return next(item["id"] for item in pending.load(layer.path) if item["text"] == text)


def test_an_answer_checked_before_a_drop_by_id_and_written_after_it_does_not_come_back(project, edited, tmp_path):
    flags = tmp_path / "flags"
    flags.mkdir()
    other = _id_of(edited, OTHER)
    hook = _hook(edited, flags, "checked", also=OTHER)  # it judged OTHER answered too and found it still kept
    drop = _drop_all(project, other)
    _until_waiting(drop, edited.meta / answered.ANSWERED_FILE)  # for the hook, between its check and its write
    assert drop.poll() is None and _id_of(edited, OTHER) == other  # nothing dropped yet
    (flags / "go").touch()
    assert json.loads(_finish(hook)) == []  # the hook judged both answered
    dropped = _finish(drop)
    assert dropped.startswith("Dropped 1 pending finding(s)") and f"“{OTHER}”" in dropped
    assert [i["text"] for i in pending.load(edited.path)] == [SAID]
    assert [e["text"] for e in answered.answered(edited.path).values()] == [SAID]  # OTHER's record taken out
    review = run_cli("--project", project, "review").stdout
    assert "Findings answered by an edit outside memdir (1)" in review and f"“{SAID}”" in review
    assert OTHER not in review


def test_control_the_other_rule_records_its_answer_with_no_drop(project, edited, tmp_path):
    flags = tmp_path / "flags"
    flags.mkdir()
    hook = _hook(edited, flags, "checked", also=OTHER)
    (flags / "go").touch()
    assert json.loads(_finish(hook)) == []
    assert sorted(e["text"] for e in answered.answered(edited.path).values()) == sorted([SAID, OTHER])
