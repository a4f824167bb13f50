"""Memory files placed by hand in bulk are taken in with one journal fsync, not one per file.

300 files copied straight into ``<home>/_user`` (a person's notes, a ``git pull``) are journaled by the
next write's sweep each as an ``external-edit`` with its bytes stored — once — and the journal is fsynced
once for the whole sweep (:meth:`memdir.layer.journal.Journal.batched`) and once for the write's own line:
before, once per file (8,000 files: minutes of fsyncs before a write). Counted in a real fresh
``python -m memdir`` process through a wrapper that counts the real ``os.fsync`` calls on the journal
(and kills the process, in the fault case, after a given number of journal lines).
"""

from __future__ import annotations

import hashlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from tests.counted import JOURNAL_FSYNCS, told_then_run

HAND = 300

COUNTING = """
import atexit, json, os, runpy, signal, sys
""" + JOURNAL_FSYNCS + told_then_run("counts")

NOTE = """---
name: {name}
description: hand note {i}
type: user
created: 2026-12-05T10:00:00Z
updated: 2026-12-05T10:00:00Z
origin: human
status: active
---

Copied in by hand: note {i}.
"""


def _env(tmp_path: Path) -> dict:
    project = tmp_path / "project"
    project.mkdir(exist_ok=True)
    home = tmp_path / "home"
    return dict(os.environ, MEMDIR_HOME=str(home), MEMDIR_PROJECT=str(project), MEMDIR_SEARCH_VECTORS="off",
                JOURNAL_AT=str(home / "_user" / ".memdir" / "journal.jsonl"), COUNTS_TO=str(tmp_path / "counts.jsonl"))


def _memdir(env: dict, *args: str, kill_at: int = 0) -> tuple[subprocess.CompletedProcess, dict | None]:
    """``python -m memdir args`` in a fresh process, counting the user journal's fsyncs and lines."""
    counts = Path(env["COUNTS_TO"])
    counts.unlink(missing_ok=True)
    done = subprocess.run([sys.executable, "-c", COUNTING, "memdir", *args], capture_output=True, text=True,
                          timeout=300, env=dict(env, KILL_AT=str(kill_at)), check=False)
    told = json.loads(counts.read_text().splitlines()[-1]) if counts.exists() else None
    return done, told


def _seed(tmp_path: Path, hand: int) -> tuple[dict, dict[str, bytes]]:
    """A home with one user memory written through memdir and ``hand`` files placed beside it by hand."""
    env = _env(tmp_path)
    done, _ = _memdir(env, "write", "seed", "-d", "a seed memory", "-t", "user", "--scope", "user", "--body", "s")
    assert done.returncode == 0, done.stderr
    user = tmp_path / "home" / "_user"
    placed = {}
    for i in range(hand):
        name = f"hand-note-{i:03d}"
        placed[name] = NOTE.format(name=name, i=i).encode()
        (user / f"{name}.md").write_bytes(placed[name])
    time.sleep(0.01)
    return env, placed


def _events(tmp_path: Path) -> list[dict]:
    path = tmp_path / "home" / "_user" / ".memdir" / "journal.jsonl"
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


def _intake_of(events: list[dict]) -> dict[str, list[dict]]:
    out: dict[str, list[dict]] = {}
    for event in events:
        if str(event.get("name", "")).startswith("hand-note-"):
            out.setdefault(event["name"], []).append(event)
    return out


def _verify(env: dict) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "memdir", "verify"], capture_output=True, text=True, timeout=300,
                          env=env, check=False)


def test_bulk_hand_files_are_journaled_once_each_with_one_fsync(tmp_path):
    env, placed = _seed(tmp_path, HAND)
    done, told = _memdir(env, "write", "after", "-d", "written after the copy", "-t", "user", "--scope", "user",
                         "--body", "b")
    assert done.returncode == 0, done.stderr
    intake = _intake_of(_events(tmp_path))
    assert sorted(intake) == sorted(placed)  # every hand file, nothing else
    objects = tmp_path / "home" / "_user" / ".memdir" / "objects"
    for name, data in placed.items():
        (event,) = intake[name]  # journaled once
        assert (event["action"], event["actor"], event["before"]) == ("external-edit", "human", None)
        assert event["after"] == hashlib.sha256(data).hexdigest()
        assert (objects / event["after"]).read_bytes() == data  # its text kept
    # the sweep's 300 lines and the write's own: 301 lines, two fsyncs (one per batch; before: 301)
    assert told == {"fsyncs": 2, "lines": HAND + 1}
    assert [e["action"] for e in _events(tmp_path)][-1] == "create"
    assert _verify(env).returncode == 0


def test_control_a_write_with_nothing_to_take_in_fsyncs_its_own_line_once(tmp_path):
    env, placed = _seed(tmp_path, 0)
    assert placed == {}
    done, told = _memdir(env, "write", "after", "-d", "written with nothing copied", "-t", "user", "--scope", "user",
                         "--body", "b")
    assert done.returncode == 0, done.stderr
    assert told == {"fsyncs": 1, "lines": 1}
    assert [e["action"] for e in _events(tmp_path)] == ["create", "create"]


def test_a_kill_mid_intake_leaves_a_store_verify_accepts_and_the_rest_is_taken_in_once(tmp_path):
    env, placed = _seed(tmp_path, HAND)
    done, told = _memdir(env, "write", "after", "-d", "written after the copy", "-t", "user", "--scope", "user",
                         "--body", "b", kill_at=120)
    assert done.returncode == -signal.SIGKILL
    assert told is None  # killed: no exit handler ran
    cut = _intake_of(_events(tmp_path))
    assert len(cut) == 120 and all(len(v) == 1 for v in cut.values())  # the lines written before the kill stand
    assert not (tmp_path / "home" / "user" / "after.md").exists()
    verified = _verify(env)
    assert verified.returncode == 0, verified.stdout + verified.stderr
    done, told = _memdir(env, "write", "after", "-d", "written after the copy", "-t", "user", "--scope", "user",
                         "--body", "b")
    assert done.returncode == 0, done.stderr
    intake = _intake_of(_events(tmp_path))
    assert sorted(intake) == sorted(placed)
    assert all(len(events) == 1 for events in intake.values())  # nothing journaled twice, nothing lost
    assert told == {"fsyncs": 2, "lines": HAND - 120 + 1}
    assert (tmp_path / "home" / "_user" / "after.md").exists()
    assert _verify(env).returncode == 0
