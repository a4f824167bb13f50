"""``status`` checks the search index (``PRAGMA quick_check``, every page read: 320 ms cold at 10,000 memories)
only when the file changed since the last check that passed (:mod:`memdir.search.checked`); a byte changed in the
file is still reported by the first status after it — its change time moved, even with its modification time put
back. ``doctor`` checks every time.

Real SQLite files, edited byte by byte; the status of the Python API (the CLI's and the tool's) in process, the
check counted by wrapping :func:`memdir.search.damage.is_corrupt`; the CLI as a real subprocess."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from memdir import Memory
from memdir.search import checked, damage, index, rebuild


def _store(isolated_home: Path, project: Path) -> Memory:
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for i in range(30):
        mem.write(f"note-{i}", f"Service number {i} runs on host h{i}.internal", "project",
                  " ".join(f"word{j} filler text about service {i} deployment" for j in range(40)))
    assert [h.name for h in mem.search("number 7 h7")][:1] == ["note-7"]  # the index is built
    index.connect(mem.home).execute("PRAGMA wal_checkpoint(TRUNCATE)")
    index.close_all()
    return mem


def _counted(monkeypatch) -> list[Path]:
    """The paths :func:`damage.is_corrupt` is asked about from here on (as :mod:`memdir.search.rebuild` calls it)."""
    asked: list[Path] = []

    def counting(path):
        asked.append(Path(path))
        return damage.is_corrupt(path)

    monkeypatch.setattr(rebuild, "is_corrupt", counting)
    return asked


def _flip_page_type(path: Path) -> None:
    """One byte changed in place — the b-tree page type of the file's second page — the modification time put
    back as it was: only the change time (set by the kernel on the write) says the file changed."""
    st = os.stat(path)
    page = int.from_bytes(path.read_bytes()[16:18], "big")
    with open(path, "r+b") as handle:
        handle.seek(page)
        handle.write(b"\xff")
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns))
    assert os.stat(path).st_mtime_ns == st.st_mtime_ns and os.stat(path).st_size == st.st_size


def test_an_unchanged_index_is_checked_once_and_a_flipped_byte_at_the_next_status(isolated_home, project,
                                                                                    monkeypatch):
    mem = _store(isolated_home, project)
    path = index.db_path(mem.home)
    asked = _counted(monkeypatch)
    assert mem.status().search == "bm25"
    assert asked == [path]  # checked: no pass recorded yet
    recorded = (mem.home / checked.CHECKED_FILE).read_text()
    assert mem.status().search == "bm25" and mem.status().search == "bm25"
    assert (mem.home / checked.CHECKED_FILE).read_text() == recorded == checked.stamp(path)
    assert asked == [path]  # control: the untouched index is not read again

    _flip_page_type(path)
    assert damage.is_corrupt(path)  # the premise: quick_check sees it
    said = mem.status().search
    assert asked == [path, path]  # the first status after the change checks
    assert said.startswith(f"bm25; the search index {path} was damaged (PRAGMA quick_check): moved aside to "
                           "index.sqlite.corrupt-"), said
    assert mem.status().search.startswith("bm25; the search index was set aside as damaged (index.sqlite.corrupt-")


def test_a_changed_index_is_checked_again_and_its_pass_recorded(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project)
    path = index.db_path(mem.home)
    asked = _counted(monkeypatch)
    mem.status()
    mem.write("note-new", "Another service on host h99.internal", "project", "Deployed by the ops runbook.")
    assert [h.name for h in mem.search("h99")] == ["note-new"]  # the search writes its row: the file changed
    index.close_all()
    assert mem.status().search == "bm25"
    assert asked == [path, path]  # checked again: sound, and recorded
    assert mem.status().search == "bm25"
    assert asked == [path, path]  # control: not a third time


def test_doctor_checks_every_time(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project)
    path = index.db_path(mem.home)
    asked = _counted(monkeypatch)
    mem.status()
    mem.doctor()
    mem.doctor()
    assert asked.count(path) == 3  # status once, each doctor once (its status part trusts doctor's own pass)


def test_a_stamp_names_the_file_and_its_log(isolated_home, tmp_path):
    path = tmp_path / "index.sqlite"
    assert checked.stamp(path) is None  # no index: nothing to check
    path.write_bytes(b"x" * 10)
    st = os.stat(path)
    assert checked.stamp(path) == f"{st.st_dev} {st.st_ino} 10 {st.st_mtime_ns} {st.st_ctime_ns}|-"
    Path(f"{path}-wal").write_bytes(b"")
    assert checked.stamp(path).endswith("|-")  # an empty log holds no page
    Path(f"{path}-wal").write_bytes(b"y" * 3)
    assert checked.stamp(path).split("|")[1].split()[2] == "3"  # the log's size
    assert not checked.passed(tmp_path, checked.stamp(path))  # nothing recorded
    checked.record(tmp_path, checked.stamp(path))
    assert checked.passed(tmp_path, checked.stamp(path))
    assert not checked.passed(tmp_path, None)


@pytest.mark.slow
def test_the_cli_status_reports_a_flipped_byte_after_a_status_that_passed(isolated_home, project):
    mem = _store(isolated_home, project)
    path = index.db_path(mem.home)

    def status() -> str:
        done = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "status", "--json"],
                              check=False, capture_output=True, text=True, timeout=120, cwd=project,
                              env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
        assert done.returncode == 0, done.stderr
        return json.loads(done.stdout)["search"]

    assert status() == "bm25" and status() == "bm25"  # control: sound, checked once then trusted
    assert (mem.home / checked.CHECKED_FILE).exists()
    _flip_page_type(path)
    assert status().startswith(f"bm25; the search index {path} was damaged (PRAGMA quick_check): moved aside")
