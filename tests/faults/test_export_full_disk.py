"""`memdir export` on a full disk says the disk is full, that nothing was exported and that no partial export
was left — and leaves none — exiting 1 (left28 item 2). Before: ``memdir: cannot write
…/.exported.export-ppmdq1s9/project/db-port.md: No space left on device`` (a temp path), which said neither. On a real tmpfs filled to its last block where this machine
allows a mount (else the CLI whose ``os.open`` refuses every file opened for writing, as in
``test_full_disk_writes``), and with a disk that fills after two files of the export were written (a partial
export made, then removed)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from tests.faults.test_full_disk_writes import _SHIM
from tests.search.test_index_survives import _fill, _store, fs  # noqa: F401

pytestmark = pytest.mark.slow  # the CLI in a subprocess

_REFUSE_ALL = _SHIM  # the CLI whose os.open refuses every file opened for writing (locks aside)

# The disk fills after the export wrote two files: the third file it opens under its staging directory fails.
_FILLS_AFTER_TWO = """
import errno, os, runpy, sys
real_open, opened = os.open, []
def opening(path, flags, *args, **kwargs):
    if flags & os.O_CREAT and ".export-" in str(path):
        opened.append(path)
        if len(opened) > 2:
            raise OSError(errno.ENOSPC, "No space left on device")
    return real_open(path, flags, *args, **kwargs)
os.open = opening
sys.argv = ["memdir", *sys.argv[1:]]
runpy.run_module(sys.argv.pop(1), run_name="__main__")
"""


def _export(project, out, shim: str | None) -> subprocess.CompletedProcess:
    head = [sys.executable, "-c", shim] if shim else [sys.executable, "-m"]
    return subprocess.run([*head, "memdir.cli", "--project", str(project), "export", str(out)], check=False,
                          capture_output=True,
                          text=True, timeout=120, cwd=project, env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))


def _left_beside(out) -> list[str]:
    return sorted(p.name for p in out.parent.iterdir() if p.name.startswith(f".{out.name}.export-"))


def test_an_export_on_a_full_disk_says_nothing_was_exported_and_leaves_nothing(fs, project):  # noqa: F811
    home, how = fs
    _store(home, project)
    out = home.parent / "exported"
    filler = _fill(home) if how == "tmpfs" else None
    done = _export(project, out, None if filler is not None else _REFUSE_ALL)
    assert done.returncode == 1, (how, done.stdout, done.stderr)
    assert done.stderr == (f"memdir: cannot write the export into {str(out)!r}: the disk is full (ENOSPC): nothing "
                           f"was exported; no partial export was left ({str(out)!r} is as it was)\n"), (how, done.stderr)
    assert done.stdout == "" and not out.exists() and _left_beside(out) == []
    if filler is not None:
        filler.unlink()
    done = _export(project, out, None)  # control: with room, the same export is written whole
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (out / "project").iterdir()) == ["db-port.md", "staging-host.md"]
    assert _left_beside(out) == []


def test_an_export_the_disk_fills_midway_removes_what_it_wrote(isolated_home, project, tmp_path):
    _store(isolated_home, project)
    mem_dir = next((isolated_home / "projects").iterdir())
    (mem_dir / "third.md").write_bytes((mem_dir / "db-port.md").read_bytes().replace(b"db-port", b"third"))
    out = tmp_path / "exported"
    done = _export(project, out, _FILLS_AFTER_TWO)  # two files written into the staging directory, then ENOSPC
    assert done.returncode == 1, done.stderr
    assert done.stderr == (f"memdir: cannot write the export into {str(out)!r}: the disk is full (ENOSPC): nothing "
                           f"was exported; no partial export was left ({str(out)!r} is as it was)\n")
    assert not out.exists() and _left_beside(out) == []
    out.mkdir()  # an empty directory given: it stays, empty
    done = _export(project, out, _FILLS_AFTER_TWO)
    assert done.returncode == 1 and list(out.iterdir()) == [] and _left_beside(out) == []
    done = _export(project, out, None)  # control: the three files, when the disk has room
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in (out / "project").iterdir()) == ["db-port.md", "staging-host.md", "third.md"]
