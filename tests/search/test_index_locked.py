"""Another process holding the index's write lock (a ``sqlite3`` shell left in ``BEGIN EXCLUSIVE``, a writer
that hangs) does not fail a search nor hide what changed since: the sync's write meets SQLITE_BUSY once, after
the busy timeout, and the files it lacks are read into a copy in memory (memdir.search.sync.sync,
memdir.search.locked.locked_out). break19: a search failed with 'database is locked' after 26 s, a prompt
hook recalled nothing after 15 s."""

from __future__ import annotations

import subprocess
import sys

from memdir import Memory
from memdir.search import index

HOLD = "import sqlite3, sys; c = sqlite3.connect(sys.argv[1], isolation_level=None); " \
       "c.execute('BEGIN EXCLUSIVE'); print('locked', flush=True); sys.stdin.read()"


def test_a_search_while_another_process_holds_the_lock_sees_the_files(isolated_home, project, capsys):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The dev database listens on 5433.")
    mem.write("redis-ttl", "Redis cache entries expire after 300 s", "project", "The redis ttl is 300 seconds.")
    assert [h.name for h in mem.search("postgresql 5433")] == ["db-port"]  # control: the index answers
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(index.db_path(isolated_home))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        mem.write("etcd-ports", "etcd listens on 2379", "project", "etcd serves clients on 2379, peers on 2380.")
        mem.delete("db-port")
        capsys.readouterr()
        assert [h.name for h in mem.search("etcd clients")] == ["etcd-ports"]  # written while it was locked
        assert [h.name for h in mem.search("redis ttl")] == ["redis-ttl"]  # control: the rows as they were
        assert [h.name for h in mem.search("postgresql 5433")] == []  # deleted while it was locked
        err = capsys.readouterr().err
        assert f"the search index {index.db_path(isolated_home)} is locked by another process" in err
        assert "SQLITE_BUSY" in err and err.count("memdir: warning:") == 1
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    index.close_all()
