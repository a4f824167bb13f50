"""A hand edit of ``MEMORY.md`` whose mtime was put back is not trusted (issue 28 §7, the trial's leftover).

``MEMORY.md`` is derived: its freshness check compared mtimes, so an edit that kept the size and put the
mtime back (``touch -d``, an editor keeping times) was injected as it was — by the context's full-text path
(when no outline describes the file), by a long-lived process's cache, and kept by the next write of a
fresh process (the manifest's stamp of the index). The ctime, which no one can put back, is now part of
what the file is known by. Real files, real subprocesses."""

from __future__ import annotations

import os
import time
from pathlib import Path

import pytest

from memdir import Memory
from memdir.files.layout import META_DIR, OUTLINE_FILE
from tests.conftest import run_cli

TRUE = "Dev PostgreSQL listens on 5433"
FORGED = "Dev PostgreSQL listens on 6666"  # the same size: only the time could tell


def _store(isolated_home: Path, project: Path) -> tuple[Memory, Path]:
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", TRUE, "project", "Moved from 5432 in November.")
    mem.write("staging-host", "Staging lives at staging.internal.example", "project", "VPN required.")
    index = mem.session.layer("project").path / "MEMORY.md"
    assert TRUE in index.read_text(encoding="utf-8")
    return mem, index


def _forge(index: Path) -> None:
    """Edit ``MEMORY.md`` in place, keeping its size, and put its times back."""
    before = index.stat()
    time.sleep(0.05)  # past the clock tick of the stamp (ctimes come from a coarse clock)
    text = index.read_text(encoding="utf-8")
    assert text.count(TRUE) == 1
    with open(index, "r+", encoding="utf-8") as handle:
        handle.write(text.replace(TRUE, FORGED))
    os.utime(index, ns=(before.st_atime_ns, before.st_mtime_ns))
    after = index.stat()
    assert (after.st_size, after.st_mtime_ns, after.st_ino) == (before.st_size, before.st_mtime_ns, before.st_ino)


def _context(project: Path) -> str:
    done = run_cli("--project", str(project), "context", env={"MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    return done.stdout


@pytest.mark.slow
def test_the_full_text_path_does_not_trust_an_edit_whose_mtime_was_put_back(isolated_home, project):
    mem, index = _store(isolated_home, project)
    (index.parent / META_DIR / OUTLINE_FILE).unlink()  # no outline: the context reads the file whole
    _forge(index)
    shown = _context(project)  # was: "listens on 6666"
    assert TRUE in shown and "6666" not in shown, shown
    assert "Staging lives at staging.internal.example" in shown  # control: the other line as it was
    assert TRUE in index.read_text(encoding="utf-8")  # rebuilt from the files


def test_a_long_lived_process_does_not_keep_an_edit_whose_mtime_was_put_back(isolated_home, project):
    mem, index = _store(isolated_home, project)
    assert TRUE in mem.context()  # read once: cached by its state
    _forge(index)
    shown = mem.context()
    assert TRUE in shown and "6666" not in shown, shown
    assert "Staging lives at staging.internal.example" in shown


@pytest.mark.slow
def test_a_fresh_processs_write_does_not_keep_a_forged_line(isolated_home, project):
    mem, index = _store(isolated_home, project)
    _forge(index)
    done = run_cli("--project", str(project), "write", "cache-ttl", "-d", "The cache keeps entries for 300 s",
                   "--body", "Set in config/cache.toml.", env={"MEMDIR_SEARCH_VECTORS": "off"})
    assert done.returncode == 0, done.stderr
    text = index.read_text(encoding="utf-8")
    assert TRUE in text and "6666" not in text, text  # was: the forged line kept, the new one added beside it
    assert "The cache keeps entries for 300 s" in text  # control: the write's own line is there
