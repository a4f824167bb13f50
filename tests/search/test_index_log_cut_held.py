"""break30: the index's write-ahead log (``index.sqlite-wal``) cut while a process holds the index open (a running
``memdir mcp``), and its shared memory (``-shm``) cut likewise.

A cut log was not seen by :func:`memdir.search.damage.shape` (the main file is sound): every other process's open
said "disk I/O error (SQLITE_IOERR_SHORT_READ)", read as a home that cannot be written, and search, recall and the
prompt hook each warned and searched an index in memory built by scanning every memory file, for as long as the
holder lived. Now the log's size is held against the frames the shared memory says it holds: the first process that
sees it sets the index aside, says so once, and rebuilds it, as for a main file cut in place.

The shared memory cut (``truncate -s 0 index.sqlite-shm``) killed the holder with SIGBUS at its next query (SQLite
maps the file; the mapping outlived its end). Now the holder extends it back with zeros before it hands out its
connection (:func:`memdir.search.damage.restore_shared_memory`), and SQLite rebuilds it from the log.
"""

from __future__ import annotations

import json
import os

import pytest

from memdir.search import damage, index
from tests.conftest import run_cli
from tests.search.test_index_damaged_held import _ask, _hook, store  # noqa: F401 - store is the fixture


def test_a_log_cut_under_a_holder_is_set_aside_and_rebuilt(store, project, monkeypatch):  # noqa: F811
    # This process looks at the files with descriptors of its own: past damage.KEPT_HEADS files seen (a long
    # pytest run sees more), it reads sizes alone and cannot see the log's cut (it failed so in full runs only).
    monkeypatch.setattr(damage, "_HEADS", {})
    home, env, holder = store
    assert _ask(holder, "staging server") == "staging"  # the holder has the index open
    # A change indexed while the holder keeps its connection: frames committed to the log, which no last close
    # checkpoints away (the writes before the holder started may have indexed everything and closed the log).
    assert run_cli("--project", project, "write", "ci-runner", "-d", "CI runs on GitHub Actions", "--body",
                   "Self-hosted runners.", env=env).returncode == 0
    assert _ask(holder, "github actions") == "ci-runner"
    path = index.db_path(home)
    assert damage.shape(path) is None  # control: sound, log and all
    os.truncate(f"{path}-wal", 0)
    assert damage.shape(path).startswith("its write-ahead log cut to 0 bytes, short of the ")

    found = run_cli("--project", project, "search", "staging server", env=env)
    assert found.returncode == 0 and "stage3" in found.stdout, found.stderr
    assert "in-memory index" not in found.stderr  # before: every process scanned the memory files, warning so
    assert found.stderr.count("was damaged (its write-ahead log cut to 0 bytes") == 1, found.stderr
    recalled = _hook(project, env, "which port does the dev database listen on")
    assert "5433" in json.loads(recalled.stdout)["hookSpecificOutput"]["additionalContext"]
    assert recalled.stderr == ""  # rebuilt already: nothing more to say
    assert _ask(holder, "dev database port") == "db-port"  # the holder follows the new file
    assert damage.shape(path) is None


def test_a_sound_log_growing_under_writes_is_never_read_as_cut(tmp_path, monkeypatch):
    """Control: a WAL database written to by another connection between looks: each look says nothing."""
    import sqlite3

    monkeypatch.setattr(damage, "_HEADS", {})
    path = tmp_path / "index.sqlite"
    writer = sqlite3.connect(path, isolation_level=None)
    writer.execute("PRAGMA journal_mode = WAL")
    writer.execute("PRAGMA wal_autocheckpoint = 0")
    writer.execute("CREATE TABLE t (x)")
    for n in range(50):
        writer.execute("INSERT INTO t VALUES (?)", ("x" * 3000 * (n % 3),))
        assert damage.shape(path) is None
    assert os.stat(f"{path}-wal").st_size > 100_000
    writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # the log emptied by SQLite itself: its count goes first
    assert os.stat(f"{path}-wal").st_size == 0 and damage.shape(path) is None
    writer.execute("INSERT INTO t VALUES (1)")
    assert damage.shape(path) is None
    os.truncate(f"{path}-wal", 100)
    assert damage.shape(path) == ("its write-ahead log cut to 100 bytes, short of the 1 frames its shared memory "
                                  "says it holds")
    writer.close()


def test_a_holder_survives_its_shared_memory_cut(store, project):  # noqa: F811
    home, env, holder = store
    assert _ask(holder, "staging server") == "staging"
    shm = f"{index.db_path(home)}-shm"
    assert os.stat(shm).st_size == damage.SHM_REGION  # the holder maps its first region
    os.truncate(shm, 0)
    assert _ask(holder, "dev database port") == "db-port"  # before: '' and the holder gone, -7 (SIGBUS)
    assert os.stat(shm).st_size == damage.SHM_REGION  # extended back, its wal-index rebuilt from the log
    written = run_cli("--project", project, "write", "redis", "-d", "Redis cache runs on cache7", "--body", "port 6380",
                      env=env)
    assert written.returncode == 0, written.stderr
    assert _ask(holder, "redis cache") == "redis"  # it reads what others write after, through the rebuilt one
    holder.stdin.close()
    assert holder.wait(timeout=60) == 0
    assert holder.stderr.read() == ""  # nothing to say: the shared memory is derived, nothing was set aside


CUT = r"""
import os, sqlite3, sys
from memdir.search import damage
path, restore = sys.argv[1], sys.argv[2] == "restore"
conn = sqlite3.connect(path, isolation_level=None)
conn.execute("PRAGMA journal_mode = WAL")
conn.execute("PRAGMA wal_autocheckpoint = 0")  # every row in the log alone: the file holds its first page
conn.execute("CREATE TABLE t (x)")
conn.executemany("INSERT INTO t VALUES (?)", [(n,) for n in range(100)])
print(damage.restore_shared_memory(path), flush=True)  # control: a sound -shm is left as it is
os.truncate(f"{path}-shm", 0)
if restore:
    print(damage.restore_shared_memory(path), os.stat(f"{path}-shm").st_size, os.stat(path).st_size, flush=True)
print(conn.execute("SELECT count(*), sum(x) FROM t").fetchone(), flush=True)
"""


@pytest.mark.parametrize("restore", [True, False])
def test_a_shared_memory_cut_under_its_mapping_is_extended_back_and_rebuilt_from_the_log(tmp_path, restore):
    """The connection that mapped the -shm reads every row of the log once it is extended back with zeros; not
    extended, its read dies of SIGBUS (the control: the cut is what kills it)."""
    import subprocess
    import sys

    path = tmp_path / "index.sqlite"
    done = subprocess.run([sys.executable, "-c", CUT, str(path), "restore" if restore else "cut"], capture_output=True,
                          text=True, timeout=60, check=False)
    if restore:
        # The file holds its first page alone (4096 bytes): every row is read back from the log
        expected = f"False\nTrue {damage.SHM_REGION} 4096\n(100, 4950)\n"
        assert (done.returncode, done.stdout) == (0, expected), done.stderr
    else:
        assert (done.returncode, done.stdout) == (-7, "False\n")  # SIGBUS, at the read
