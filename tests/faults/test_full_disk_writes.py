"""A write on a full disk is said as a read-only home is (issue 28 audit, case 5): the disk is full, nothing was
written, what still answers and what to do — not a bare ``cannot write …/objects/<hash>: No space left on
device``. A real full disk where this machine allows it (a tmpfs filled to its last block: ENOSPC from the
kernel), else the CLI in a subprocess whose ``os.open`` refuses every file opened for writing with ENOSPC
(locks aside), said in the assertion messages."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.search.test_index_survives import _fill, _store, fs  # noqa: F401

_SHIM = """
import errno, os, runpy, sys
real_open = os.open
def opening(path, flags, *args, **kwargs):
    if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT) and not str(path).endswith("lock"):
        raise OSError(errno.ENOSPC, "No space left on device")
    return real_open(path, flags, *args, **kwargs)
os.open = opening
sys.argv = ["memdir", *sys.argv[1:]]
runpy.run_module(sys.argv.pop(1), run_name="__main__")
"""

_TOOL = """
import sys
from memdir import Memory
from memdir.tools.handlers import run_tool
out = run_tool(Memory.open(project=sys.argv[1]).session, "memory_write",
               {"name": "new-tool", "description": "A fact from the agent", "type": "project", "body": "b"})
print(("ERROR " if out.is_error else "") + out.text)
"""


def _run(project, args, full_by_shim: bool) -> subprocess.CompletedProcess:
    head = [sys.executable, "-c", _SHIM] if full_by_shim else [sys.executable, "-m"]
    return subprocess.run([*head, *args], capture_output=True, text=True, timeout=120, cwd=project,
                          env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))


@pytest.mark.slow
def test_every_write_on_a_full_disk_says_the_disk_is_full_and_nothing_was_written(fs, project):  # noqa: F811
    home, how = fs
    _store(home, project)
    layer = next((home / "projects").iterdir())
    before = {p.name: p.read_bytes() for p in layer.glob("*.md")}
    filler = _fill(home) if how == "tmpfs" else None
    shim = filler is None
    said = (f"the home {home} cannot be written: the disk is full (ENOSPC; ")
    rest = ("nothing was written (the memories, their journal and the search index are as they were); search, "
            "recall, list, read and context still answer (to write, free space on that disk)")
    cli = ["memdir.cli", "--project", str(project)]
    for args in (("write", "new-one", "-d", "A new fact"), ("write", "db-port", "-d", "Dev PostgreSQL on 6543"),
                 ("delete", "staging-host"), ("forget", "staging-host"), ("pin", "db-port")):
        done = _run(project, [*cli, *args], shim)
        assert done.returncode == 1, (how, args, done.stdout, done.stderr)
        assert done.stderr.startswith(f"memdir: {said}") and rest in done.stderr, (how, args, done.stderr)
    code = (_SHIM.split("sys.argv = ")[0] if shim else "") + _TOOL  # memory_write, the MCP tool's logic
    tool = subprocess.run([sys.executable, "-c", code, str(project)], capture_output=True, text=True, timeout=120,
                          cwd=project, env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
    assert tool.stdout.startswith("ERROR ") and said in tool.stdout and rest in tool.stdout, (how, tool.stdout)
    found = _run(project, [*cli, "search", "staging"], shim)
    assert "- staging-host (type: project" in found.stdout, (how, found.stderr)  # control: reads answer
    assert {p.name: p.read_bytes() for p in layer.glob("*.md")} == before  # nothing lost, nothing changed
    if filler is not None:
        filler.unlink()
    done = _run(project, [*cli, "write", "new-one", "-d", "A new fact"], False)  # control: room again
    assert done.returncode == 0 and "cannot be written" not in done.stderr, (how, done.stderr)
