"""``memdir context`` in a fresh process reads the lines it shows, not the index (issue 28 §7).

A project layer's ``MEMORY.md`` holds one line per memory (1.25 MB at 10,000); the block shows about
35 of them. Before, a fresh process read the whole file to check it against its outline's CRC; now
the outline's stat of the file (its ctime too: no one sets that back) stands for it, and only the
blocks holding the lines asked for are read (:data:`memdir.files.outline.BLOCK_BYTES`). Counted in
the real fresh process (``python -m memdir context``), through a wrapper that counts the opens of
``MEMORY.md`` and the bytes read from them, at two layer sizes.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

import pytest

from memdir.files.outline import BLOCK_BYTES
from tests.counted import told_then_run
from tests.seeded import seeded

COUNTING = """
import atexit, builtins, json, os, runpy, sys
real_open, real_close, real_pread, real_read, real_bopen = os.open, os.close, os.pread, os.read, builtins.open
fds, got = set(), {"opens": 0, "bytes": 0, "whole": 0}
def opened(path, *args, **kwargs):
    fd = real_open(path, *args, **kwargs)
    if os.path.basename(os.fspath(path)) == "MEMORY.md":
        fds.add(fd)
        got["opens"] += 1
    return fd
def closed(fd):
    fds.discard(fd)
    return real_close(fd)
def pread(fd, n, offset):
    data = real_pread(fd, n, offset)
    got["bytes"] += len(data) if fd in fds else 0
    return data
def read(fd, n):
    data = real_read(fd, n)
    got["bytes"] += len(data) if fd in fds else 0
    return data
def bopen(file, *args, **kwargs):
    handle = real_bopen(file, *args, **kwargs)
    if isinstance(file, int) and file in fds:  # the whole-file read of an index without a usable outline
        fds.discard(file)
        got["whole"] += 1
        got["bytes"] += os.fstat(file).st_size
    elif not isinstance(file, int) and os.path.basename(os.fspath(file)) == "MEMORY.md":
        got["opens"] += 1
        got["whole"] += 1
        got["bytes"] += os.stat(file).st_size
    return handle
os.open, os.close, os.pread, os.read, builtins.open = opened, closed, pread, read, bopen
""" + told_then_run("got", "real_bopen")


def _context(tmp_path, project) -> tuple[str, dict]:
    """``memdir context`` as a fresh process: (its stdout, {"opens", "bytes", "whole"} of ``MEMORY.md``)."""
    counts = tmp_path / f"counts-{time.monotonic_ns()}.jsonl"
    done = subprocess.run([sys.executable, "-c", COUNTING, "memdir", "--project", str(project), "context"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ, COUNTS_TO=str(counts)))
    assert done.returncode == 0, done.stderr
    return done.stdout, json.loads(counts.read_text().splitlines()[-1])


@pytest.mark.slow
def test_a_fresh_context_reads_one_block_of_the_index_at_any_size(tmp_path, monkeypatch):
    read = {}
    for size in (60, 1200):
        home, project = tmp_path / f"home-{size}", tmp_path / f"proj-{size}"
        (project / ".git").mkdir(parents=True)
        monkeypatch.setenv("MEMDIR_HOME", str(home))
        mem = seeded(home, project, size)
        index = mem.session.layer_dir("project") / "MEMORY.md"
        out, read[size] = _context(tmp_path, project)
        assert "(seed-0000.md) — seeded fact 0" in out and f"left out: project {size - out.count('(seed-')}" in out
        assert read[size]["opens"] == 1 and read[size]["whole"] == 0  # through the outline, one open
        assert read[size]["bytes"] == min(index.stat().st_size, BLOCK_BYTES)
    assert (mem.session.layer_dir("project") / "MEMORY.md").stat().st_size > 3 * BLOCK_BYTES  # control: a big index
    assert read[1200] == {"opens": 1, "bytes": BLOCK_BYTES, "whole": 0}  # before: the whole 54 KB

    # control: the index a write changed is read (its new line shown), still one block of it
    mem.write("late-fact", "written after the seeding, pinned", "project", "Body.", pinned=True)
    out, after = _context(tmp_path, project)
    assert "(late-fact.md) 📌 — written after the seeding, pinned" in out
    assert after == {"opens": 1, "bytes": BLOCK_BYTES, "whole": 0}

    # control: without its outline the index is read whole, and the block is the same
    outline = mem.session.layer_dir("project") / ".memdir" / "index-outline"
    outline.unlink()
    whole_out, whole = _context(tmp_path, project)
    assert whole_out == out
    assert whole["whole"] == 1 and whole["bytes"] == (mem.session.layer_dir("project") / "MEMORY.md").stat().st_size
