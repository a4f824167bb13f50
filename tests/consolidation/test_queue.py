"""The consolidation queue (memdir.consolidation.queue): one drain at a time,
orphaned work files picked up, nothing drained twice."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from memdir.consolidation import queue
from memdir.session import open_session

HOLD_THE_LOCK = """
import sys, time
from filelock import FileLock
lock = FileLock(sys.argv[1])
lock.acquire()
print("held", flush=True)
sys.stdin.readline()
"""


def _transcript(path, project, text):
    line = {"type": "user", "timestamp": "2026-11-25T09:00:00Z", "sessionId": path.stem, "cwd": str(project),
            "uuid": "u1", "message": {"role": "user", "content": text}}
    path.write_text(json.dumps(line) + "\n", encoding="utf-8")
    return path


def test_one_drain_at_a_time_and_the_running_one_takes_new_lines(tmp_path, isolated_home, project):
    home = open_session(isolated_home, project).home
    t1 = _transcript(tmp_path / "a.jsonl", project, "Remember that CI runs on Buildkite.")
    queue.append(home, str(t1), cwd=str(project), session_id="a", event="SessionEnd")
    lock_path = queue.queue_path(home).parent / "drain.lock"
    holder = subprocess.Popen([sys.executable, "-c", HOLD_THE_LOCK, str(lock_path)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline().strip() == "held"
        assert queue.drain(home, extractor="rules") == []  # another drain runs: leave the queue to it
        assert queue.queue_path(home).exists()
    finally:
        holder.stdin.write("\n")
        holder.stdin.close()
        holder.wait(timeout=30)
    rows = queue.drain(home, extractor="rules")
    assert [(r.transcript_path, r.status, r.applied) for r in rows] == [(str(t1), "ok", 1)]
    assert queue.drain(home, extractor="rules") == []  # control: nothing is drained twice


def test_a_work_file_left_by_a_dead_drain_is_drained(tmp_path, isolated_home, project):
    home = open_session(isolated_home, project).home
    t1 = _transcript(tmp_path / "a.jsonl", project, "Remember that the staging host is stg-4.")
    t2 = _transcript(tmp_path / "b.jsonl", project, "Remember that releases ship on Tuesdays.")
    queue.append(home, str(t1), cwd=str(project), event="SessionEnd")
    orphan = queue.queue_path(home).with_name(f"{queue.QUEUE_FILE}.99999999.work")
    queue.queue_path(home).rename(orphan)  # as a drain killed mid-way leaves it
    queue.append(home, str(t2), cwd=str(project), event="PreCompact")
    rows = queue.drain(home, extractor="rules")
    assert sorted((r.transcript_path, r.status) for r in rows) == [(str(t1), "ok"), (str(t2), "ok")]
    assert not orphan.exists() and not queue.queue_path(home).exists()
    log = queue.log_path(home).read_text(encoding="utf-8")
    assert f"ok applied=1 event=SessionEnd {t1}" in log and f"ok applied=1 event=PreCompact {t2}" in log


# A hook paused at one point of queue.append (the sleep patched in where it pauses), in its own process.
PAUSED_HOOK = """
import os, sys, time
from pathlib import Path
from memdir.consolidation import queue
where, home = sys.argv[1], Path(sys.argv[2])
if where == "write":  # between opening the queue and writing the line
    real = os.write
    def slow(fd, data):
        print("paused", flush=True); time.sleep(1.0); return real(fd, data)
    os.write = slow
else:  # between opening the queue and locking it
    import fcntl
    real = fcntl.flock
    def slow(fd, op):
        print("paused", flush=True); time.sleep(1.0); return real(fd, op)
    fcntl.flock = slow
queue.append(home, "/tmp/late.jsonl", cwd="/tmp", session_id="late", event="SessionEnd")
print("queued", flush=True)
"""


def _drain_lines(home):
    """What a drain reads: claim, read every file, delete them (as queue._drain_files does)."""
    lines = []
    for path in queue.claim(home):
        lines += [json.loads(raw)["session_id"] for raw in path.read_text(encoding="utf-8").splitlines()]
        path.unlink()
    return lines


@pytest.mark.slow
def test_a_line_queued_while_a_drain_moves_the_queue_is_never_lost(tmp_path):
    """A hook that opened the queue just before a drain moved it aside wrote its line into the drain's work
    file after the drain had read it; the drain then deleted the file (flaky-test hunt, read in the code)."""
    for where in ("write", "lock"):
        home = tmp_path / where
        queue.append(home, "/tmp/early.jsonl", session_id="early", event="SessionEnd")
        hook = subprocess.Popen([sys.executable, "-c", PAUSED_HOOK, where, str(home)], stdout=subprocess.PIPE,
                                text=True)
        try:
            assert hook.stdout.readline().strip() == "paused"
            first = _drain_lines(home)  # the drain runs while the hook is paused
        finally:
            out, _ = hook.communicate(timeout=30)
        assert out.splitlines()[-1] == "queued"  # (paused again in "lock": it found the queue moved, retried)
        second = _drain_lines(home)
        assert sorted(first + second) == ["early", "late"], where  # the late line is read once, by one drain
        assert "early" in first  # control: the drain did run while the hook was paused


def test_a_transcript_that_breaks_its_reader_is_reported_and_the_queue_moves_on(tmp_path, isolated_home, project,
                                                                                 monkeypatch):
    from memdir.consolidation import consolidate as consolidate_module

    home = open_session(isolated_home, project).home
    bad = _transcript(tmp_path / "bad.jsonl", project, "Remember that CI runs on Buildkite.")
    good = _transcript(tmp_path / "good.jsonl", project, "Remember that the staging host is lava.")
    real = consolidate_module.consolidate

    def breaking(session, transcript, **kw):
        if str(transcript).endswith("bad.jsonl"):
            raise RecursionError("maximum recursion depth exceeded")
        return real(session, transcript, **kw)

    monkeypatch.setattr(consolidate_module, "consolidate", breaking)
    queue.append(home, str(bad), cwd=str(project), session_id="b", event="SessionEnd")
    queue.append(home, str(good), cwd=str(project), session_id="g", event="SessionEnd")
    rows = {r.transcript_path: r for r in queue.drain(home)}
    assert rows[str(bad)].status == "error" and rows[str(bad)].error.startswith("RecursionError")
    assert rows[str(good)].status != "error"  # control: the next session is consolidated
    assert not list(queue.queue_path(home).parent.glob("*.work")) and queue.drain(home) == []  # not retried forever


FILE_SIZE_LIMITED = """
import resource, runpy, sys
limit = int(sys.argv.pop(1))
resource.setrlimit(resource.RLIMIT_FSIZE, (limit, resource.getrlimit(resource.RLIMIT_FSIZE)[1]))
sys.argv = ["memdir", *sys.argv[1:]]
runpy.run_module("memdir", run_name="__main__")
"""


def test_a_disk_that_fills_mid_line_says_so_and_the_next_queued_transcript_is_not_lost(tmp_path, isolated_home,
                                                                                       project):
    """break35: the SessionEnd hook's queue line cut short by a full disk (a tmpfs writes what fits and returns
    the count) went unnoticed ("queued"), and the next hook's line, glued to the torn one, was skipped as
    malformed: both sessions lost. Here the kernel cuts the write for real (RLIMIT_FSIZE: a file may not grow
    past ``limit``, as a full disk, with no root)."""
    home = open_session(isolated_home, project).home
    early = _transcript(tmp_path / "early.jsonl", project, "Remember that CI runs on Buildkite.")
    cut = _transcript(tmp_path / "cut.jsonl", project, "Remember that the staging host is stg-4.")
    late = _transcript(tmp_path / "late.jsonl", project, "Remember that releases ship on Tuesdays.")
    queue.append(home, str(early), cwd=str(project), session_id="early", event="SessionEnd")
    limit = queue.queue_path(home).stat().st_size + 40  # room for 40 bytes of the next line
    hook = json.dumps({"hook_event_name": "SessionEnd", "session_id": "cut", "cwd": str(project),
                       "transcript_path": str(cut), "reason": "exit"})
    done = subprocess.run([sys.executable, "-c", FILE_SIZE_LIMITED, str(limit), "hook", "claude-code",
                           "SessionEnd", "--home", str(home)], input=hook, capture_output=True, text=True, check=False,
                          timeout=120)
    assert done.returncode == 0, done.stderr  # a hook never fails the agent
    assert done.stderr.startswith(f"memdir hook SessionEnd: transcript {cut} was not queued for consolidation: the "
                                  "disk is full (ENOSPC; short write (40 of "), done.stderr
    assert f"once there is room, `memdir consolidate {cut}` consolidates it" in done.stderr
    assert queue.queue_path(home).stat().st_size == limit  # the torn line is on disk (what the drain must read past)
    queue.append(home, str(late), cwd=str(project), session_id="late", event="SessionEnd")  # room again
    rows = [(r.transcript_path, r.status, r.applied) for r in queue.drain(home, extractor="rules")]
    assert rows == [(str(early), "ok", 1), (str(late), "ok", 1)]  # the line after the torn one is read
    log = queue.log_path(home).read_text(encoding="utf-8")
    assert "skipped a torn queue line (the disk filled while it was written)" in log
