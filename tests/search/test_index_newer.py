"""An index of a newer schema than this memdir's is never deleted by it (break8).

After an upgrade an older memdir can still run beside the new one (an MCP server started before it). Each used to
delete the other's index as "another schema" and build its own, for as long as both ran. An older process now
leaves a newer index as it is and answers from an index in memory built from the memory files; an index of an
older schema that cannot be upgraded in place is still rebuilt (the control)."""

from __future__ import annotations

import os
import sqlite3
import subprocess
import sys

import pytest

from memdir import Memory
from memdir.search import index
from memdir.search.schema import SCHEMA_VERSION


def _user_version(path) -> int:
    conn = sqlite3.connect(path)
    try:
        return conn.execute("PRAGMA user_version").fetchone()[0]
    finally:
        conn.close()


@pytest.mark.parametrize("version, kept", [(SCHEMA_VERSION + 1, True), (3, False)])
def test_an_index_of_a_newer_schema_is_left_as_it_is_and_an_older_one_rebuilt(isolated_home, project, version, kept):
    mem = Memory.open(home=isolated_home, project=project, actor="human")
    mem.write("staging-host", "Staging lives at staging.internal.example", "project", "Ask ops.")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432.")
    assert [h.name for h in mem.search("staging")] == ["staging-host"]
    index.close_all()
    path = index.db_path(isolated_home)
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {version}")  # what a newer memdir (or a long-gone older one) wrote
    conn.close()
    before = path.stat().st_ino

    found = subprocess.run([sys.executable, "-m", "memdir.cli", "--project", str(project), "search", "staging"],
                           capture_output=True, text=True, timeout=120,
                           env=dict(os.environ, MEMDIR_HOME=str(isolated_home), MEMDIR_SEARCH_VECTORS="off"))

    assert found.returncode == 0, found.stderr
    assert "- staging-host (type: project; layer: project)" in found.stdout  # answered either way
    assert "db-port" not in found.stdout  # control: only what matches
    if kept:
        assert _user_version(path) == version and path.stat().st_ino == before  # the newer index stands
        assert f"is of schema {version}, newer than this memdir's {SCHEMA_VERSION}" in found.stderr
        assert "searching an in-memory index" in found.stderr
    else:
        assert _user_version(path) == SCHEMA_VERSION  # the older one was rebuilt at this schema
        assert "newer" not in found.stderr and "in-memory" not in found.stderr
