"""Writers wait for a layer's lock in a line, blocked in the kernel (memdir.layer.waiting): real processes.

Before, every waiter polled ``flock(LOCK_NB)`` and the writer that had just released the lock took it again
at once, while one that slept missed each window: seven writers at load 14-23 left one waiting 8-8.5 s, at
times past the 10 s timeout (a write refused as ``LockTimeout``). The order below is what the line decides,
not a race: a writer that comes back for the lock goes behind the one already waiting.
"""

import json
import os
import subprocess
import sys
import textwrap

import pytest

from memdir.files.layout import JOURNAL_FILE, QUEUE_FILE
from tests.conftest import wait_until

fcntl = pytest.importorskip("fcntl", reason="the line is an flock (POSIX); elsewhere the lock is polled as before")

HOLDER = textwrap.dedent("""
    import sys
    from memdir import Memory
    home, project = sys.argv[1], sys.argv[2]
    mem = Memory.open(home=home, project=project)
    layer = mem.session.layer("project")
    with layer.locked():
        print("held", flush=True)
        sys.stdin.readline()  # the test: another writer is in line
        # re-entrant, as consolidation's compare-and-set holds the lock across the gateway: never waits in line
        mem.write("a-first", "written holding the lock", "project", "body")
    with layer.locked():  # back for the lock at once, as a writer's next write is
        mem.write("a-second", "written right after the release", "project", "body")
    print("done", flush=True)
""")

WRITER = textwrap.dedent("""
    import sys
    from memdir import Memory
    from memdir.errors import LockTimeout
    home, project, name = sys.argv[1], sys.argv[2], sys.argv[3]
    mem = Memory.open(home=home, project=project)
    try:
        mem.write(name, f"written by {name}", "project", "body")
        print("written", flush=True)
    except LockTimeout as exc:
        print("refused:", exc, flush=True)
        sys.stdin.readline()  # the test: the lock is free again
        mem.write(name + "-later", f"written by {name} later", "project", "body")
        print("written later", flush=True)
""")


def _spawn(script: str, *args, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", script, *map(str, args)], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=dict(os.environ, **(env or {})))


def _someone_in_line(meta) -> bool:
    """True while a process holds the head of the layer's line (the flock of ``.memdir/lock.queue``)."""
    try:
        fd = os.open(meta / QUEUE_FILE, os.O_RDWR)
    except FileNotFoundError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return False
    except BlockingIOError:
        return True
    finally:
        os.close(fd)  # releases it at once when this test took it


def _created(meta) -> list[str]:
    events = [json.loads(line) for line in (meta / JOURNAL_FILE).read_text().splitlines()]
    return [e["name"] for e in events if e["action"] == "create"]


@pytest.mark.slow
def test_a_writer_coming_back_for_the_lock_goes_behind_the_one_waiting(isolated_home, project):
    from memdir import Memory

    meta = Memory.open(home=isolated_home, project=project).session.layer("project").meta
    holder = _spawn(HOLDER, isolated_home, project)
    assert holder.stdout.readline() == "held\n"
    waiting = _spawn(WRITER, isolated_home, project, "b-waiting")
    wait_until(lambda: _someone_in_line(meta), "the second writer at the head of the line", limit=60)
    holder.stdin.write("go\n")
    holder.stdin.flush()
    assert holder.communicate(timeout=120)[0] == "done\n"
    assert waiting.communicate(timeout=120)[0] == "written\n"
    # Polling, the holder took the lock back before the waiter's next try: a-first, a-second, b-waiting.
    assert _created(meta) == ["a-first", "b-waiting", "a-second"]
    mem = Memory.open(home=isolated_home, project=project)
    assert sorted(m.name for m in mem.list().memories) == ["a-first", "a-second", "b-waiting"]  # every write landed
    assert not _someone_in_line(meta)  # control of the probe: the line is empty once all are done


@pytest.mark.slow
def test_a_timeout_in_line_is_said_as_before_and_leaves_the_line_to_the_next(isolated_home, project):
    from memdir import Memory

    meta = Memory.open(home=isolated_home, project=project).session.layer("project").meta
    holder = _spawn(HOLDER, isolated_home, project)
    assert holder.stdout.readline() == "held\n"
    first = _spawn(WRITER, isolated_home, project, "c-first", env={"MEMDIR_LOCK_TIMEOUT": "120"})
    wait_until(lambda: _someone_in_line(meta), "the first waiter at the head of the line", limit=60)
    # Behind it, in the kernel, a writer with a short timeout gives up: said as a lock timeout always was.
    hasty = _spawn(WRITER, isolated_home, project, "d-hasty", env={"MEMDIR_LOCK_TIMEOUT": "0.5"})
    said = hasty.stdout.readline()
    layer_dir = meta.parent
    assert said == f"refused: layer {layer_dir} is locked by another process (waited 0.5s); try again\n"
    holder.stdin.write("go\n")
    holder.stdin.flush()
    assert holder.communicate(timeout=120)[0] == "done\n"
    assert first.communicate(timeout=120)[0] == "written\n"
    # The hasty writer's place (its helper thread's) was left when it reached the head: its next write lands.
    hasty.stdin.write("free\n")
    hasty.stdin.flush()
    assert hasty.communicate(timeout=120)[0] == "written later\n"
    names = sorted(m.name for m in Memory.open(home=isolated_home, project=project).list().memories)
    assert names == ["a-first", "a-second", "c-first", "d-hasty-later"]  # the refused write is not there, the rest is
    # The one waiting first went first; the holder, back at once, after it; the hasty writer's retry last.
    assert _created(meta) == ["a-first", "c-first", "a-second", "d-hasty-later"]


@pytest.mark.slow
def test_a_stopped_waiter_at_the_head_of_the_line_holds_up_nobody(isolated_home, project):
    """Ctrl-Z on a ``memdir write`` waiting for the lock leaves it at the head of the line: the writers behind it
    try the lock themselves every second (waiting.STUCK_SECONDS), so they write within their timeout."""
    import signal

    from memdir import Memory

    meta = Memory.open(home=isolated_home, project=project).session.layer("project").meta
    holder = _spawn(HOLDER, isolated_home, project)
    assert holder.stdout.readline() == "held\n"
    stopped = _spawn(WRITER, isolated_home, project, "e-stopped")
    wait_until(lambda: _someone_in_line(meta), "a waiter at the head of the line", limit=60)
    stopped.send_signal(signal.SIGSTOP)
    try:
        holder.stdin.write("go\n")
        holder.stdin.flush()
        # The holder, back for the lock at once, and a new writer: both behind the stopped head, the lock free.
        assert holder.communicate(timeout=120)[0] == "done\n"
        behind = _spawn(WRITER, isolated_home, project, "f-behind")
        assert behind.communicate(timeout=120)[0] == "written\n"
        assert _someone_in_line(meta)  # the stopped one is still at the head: they went past it, not through it
    finally:
        stopped.send_signal(signal.SIGCONT)
    assert stopped.communicate(timeout=120)[0] == "written\n"  # and it writes once it runs again
    names = sorted(m.name for m in Memory.open(home=isolated_home, project=project).list().memories)
    assert names == ["a-first", "a-second", "e-stopped", "f-behind"]
