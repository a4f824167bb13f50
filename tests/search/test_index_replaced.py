"""A long-lived process (the MCP server, a harness on the Python API) follows the index file at the path: when
another process rebuilds it (``memdir reindex`` puts a new file in its place) or deletes it, the next query reads
the file at the path, never the one it had opened (break8: the MCP server searched, and embedded into, the
replaced file for the rest of its life; ``/proc/<pid>/fd`` showed ``index.sqlite (deleted)``).

Real SQLite, a real ``memdir reindex`` subprocess."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.search import index


@pytest.fixture
def home(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project)
    mem.write("lighthouse-rota", "Lighthouse keeper rota changes on Mondays", "project", "Ask Morag.")
    assert [hit.name for hit in mem.search("lighthouse rota")] == ["lighthouse-rota"]
    yield isolated_home
    index.close_all()


def _marked(home):
    """This thread's connection, marked by a row only the file it opened holds."""
    conn = index.connect(home)
    conn.execute("INSERT OR REPLACE INTO meta VALUES ('break8-mark', 7)")
    return conn


def _mark(conn):
    row = conn.execute("SELECT value FROM meta WHERE key = 'break8-mark'").fetchone()
    return None if row is None else row[0]


@pytest.mark.slow  # a reindex subprocess
def test_a_rebuild_by_another_process_is_followed(home, project):
    conn = _marked(home)
    assert index.connect(home) is conn and _mark(index.connect(home)) == 7  # control: the same file, kept open
    done = subprocess.run([sys.executable, "-m", "memdir", "--home", str(home), "--project", str(project), "reindex"],
                          capture_output=True, text=True, timeout=120, env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    now = index.connect(home)
    assert now is not conn
    assert _mark(now) is None  # the new file's rows, not the replaced one's
    assert now.execute("SELECT name FROM docs").fetchall() == [("lighthouse-rota",)]
    assert index.connect(home) is now  # kept while it stays the file at the path


def test_a_deleted_index_is_made_again_at_the_path(home, project):
    conn = _marked(home)
    for suffix in ("", "-wal", "-shm"):
        os.unlink(str(index.db_path(home)) + suffix)
    mem = Memory.open(home=home, project=project)
    assert [hit.name for hit in mem.search("lighthouse rota")] == ["lighthouse-rota"]
    now = index.connect(home)
    assert now is not conn and _mark(now) is None
    assert index.db_path(home).is_file()  # the index is at the path again, not only in a file already unlinked
