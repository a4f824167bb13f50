"""A drop by id (`memdir review --drop ID`) killed while it takes the dropped findings' records out of
``pending-answered.jsonl`` loses no other record (misc46).

:func:`memdir.prompt.answered.dropping` rewrote the file in place (``ftruncate`` then ``pwrite``): a process killed
between the two left it empty, every answered finding's record gone. It now writes the records left to a temp file
and renames it over the old one, the lock still held: a kill at any point leaves the old records or the new ones.
Real subprocesses, SIGKILL at set points and at random moments."""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import sys
import time

import pytest

from memdir.prompt import answered

pytestmark = pytest.mark.slow  # real processes, killed

N = 3000  # records: a file of ~600 KB, so a rewrite takes long enough to be killed in the middle of at random
DROPPED = "f-7"

# A drop by id of DROPPED, paused (when `where` names a point) until killed: "before-rename": the temp file written
# whole and synced, before it is renamed over the records; "after-rename": renamed, before the directory's fsync.
CHILD = """
import os, sys, time
from memdir.files import fsio
from memdir.prompt import answered
layer, flags, where = sys.argv[1:]

def pause():
    open(os.path.join(flags, "paused"), "w").close()
    time.sleep(120)

if where == "before-rename":
    real_replace = os.replace
    def replace(src, dst, **kw):
        if str(dst).endswith(answered.ANSWERED_FILE):
            pause()
        return real_replace(src, dst, **kw)
    os.replace = replace
elif where == "after-rename":
    fsio.fsync_dir = lambda directory: pause()

def change():
    open(os.path.join(flags, "changed"), "w").close()

open(os.path.join(flags, "started"), "w").close()
began = time.perf_counter()
answered.dropping(layer, [DROPPED], change)
print(f"done {time.perf_counter() - began:.6f}")
""".replace("DROPPED", repr(DROPPED))


def _record(i: int) -> dict:
    return {"id": f"f-{i}", "text": f"finding {i} " + "x" * 150, "name": f"memory-{i}", "seq": i, "ts": "t",
            "reason": f"memory-{i} was edited outside memdir and now holds it", "at": 1.0}


@pytest.fixture
def layer(tmp_path):
    layer = tmp_path / "layer"
    answered._record(layer, answered.ANSWERED_FILE, [_record(i) for i in range(N)])
    assert len(answered.answered(layer)) == N
    return layer


def _run(layer, flags, where: str) -> subprocess.Popen:
    flags.mkdir()
    return subprocess.Popen([sys.executable, "-c", CHILD, str(layer), str(flags), where],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=dict(os.environ))


def _until(path, child: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while not path.exists():
        assert child.poll() is None and time.monotonic() < deadline, child.communicate()
        time.sleep(0.005)


def _ids(layer) -> set[str]:
    raw = (layer / ".memdir" / answered.ANSWERED_FILE).read_bytes()
    assert raw.endswith(b"\n") and all(json.loads(line) for line in raw.splitlines())  # no torn line
    return set(answered.answered(layer))


OTHERS = {f"f-{i}" for i in range(N)} - {DROPPED}


def test_a_drop_run_to_its_end_takes_out_only_the_dropped_findings_record(layer, tmp_path):
    child = _run(layer, tmp_path / "flags", "")
    assert child.communicate(timeout=120)[0].startswith("done ")
    assert _ids(layer) == OTHERS and DROPPED not in _ids(layer)  # the dropped one out, every other one kept
    assert answered.answered(layer)["f-8"] == _record(8)  # the records left, byte for byte the same values
    assert sorted(os.listdir(layer / ".memdir")) == [answered.ANSWERED_FILE]  # no temp file left


@pytest.mark.parametrize("where", ["before-rename", "after-rename"])
def test_a_drop_killed_mid_rewrite_loses_no_record(layer, tmp_path, where):
    flags = tmp_path / "flags"
    child = _run(layer, flags, where)
    _until(flags / "paused", child)
    assert (flags / "changed").exists()  # pending.json's change made: the rewrite was under way
    if where == "before-rename":  # the new records written whole beside the old ones
        (temp,) = [n for n in os.listdir(layer / ".memdir") if n != answered.ANSWERED_FILE]
        assert len((layer / ".memdir" / temp).read_bytes().splitlines()) == N - 1
    child.send_signal(signal.SIGKILL)
    child.wait(30)
    assert child.returncode == -signal.SIGKILL
    ids = _ids(layer)
    assert ids >= OTHERS  # nothing lost
    assert (DROPPED in ids) == (where == "before-rename")  # the old records whole, or the new ones
    # a drop run again (the person's next `memdir review --drop`) finishes the job
    answered.dropping(layer, [DROPPED], lambda: None)
    assert _ids(layer) == OTHERS


def test_drops_killed_at_random_moments_lose_no_record(layer, tmp_path):
    answered._record(layer, answered.ANSWERED_FILE, [_record(7)])
    timed = _run(layer, tmp_path / "timed", "")
    took = float(timed.communicate(timeout=120)[0].split()[1])  # seconds one drop takes on this machine now
    rng = random.Random(46)
    killed = 0
    for attempt in range(8):
        answered._record(layer, answered.ANSWERED_FILE, [_record(7)])  # the dropped one back, for each round
        flags = tmp_path / f"flags-{attempt}"
        child = _run(layer, flags, "")
        _until(flags / "started", child)
        time.sleep(rng.uniform(0.0, took))  # somewhere inside the drop
        child.send_signal(signal.SIGKILL)
        child.wait(30)
        killed += child.returncode == -signal.SIGKILL
        assert _ids(layer) >= OTHERS, attempt  # whatever point it was killed at
    assert killed >= 4  # most rounds killed before their end (a round that finished dropped it: fine)


def test_a_hook_that_opened_the_records_before_a_drop_renamed_them_writes_to_the_new_file(layer, monkeypatch):
    """The hook's side of the rename: a hook (:func:`memdir.prompt.answered._record`) that opened the old file and
    waited for its lock while the drop renamed a new one over it opens again, so its record is not written to a
    file nobody reads."""
    real = answered._flock
    opened = []

    def flock(fd, *, exclusive):
        if not exclusive and not opened:  # the hook, first time: the drop runs before it gets the lock
            opened.append(os.fstat(fd).st_ino)
            answered.dropping(layer, [DROPPED], lambda: None)
        return real(fd, exclusive=exclusive)

    monkeypatch.setattr(answered, "_flock", flock)
    late = {**_record(N), "id": "late"}
    answered._record(layer, answered.ANSWERED_FILE, [late], kept=lambda: {"late"})
    assert opened[0] != os.stat(layer / ".memdir" / answered.ANSWERED_FILE).st_ino  # it had the old file open
    ids = _ids(layer)
    assert "late" in ids and ids == OTHERS | {"late"} and DROPPED not in ids
