"""Another process holding the index's write lock (a ``sqlite3`` shell left in ``BEGIN EXCLUSIVE``, a writer
that hangs) does not fail a search nor hide what changed since: the sync's write meets SQLITE_BUSY once, after
the busy timeout, and the files it lacks are read into a copy in memory (memdir.search.sync.sync,
memdir.search.locked.locked_out). break19: a search failed with 'database is locked' after 26 s, a prompt
hook recalled nothing after 15 s."""

from __future__ import annotations

import subprocess
import sys

from memdir import Memory
from memdir.search import index, locked

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


def test_a_process_that_met_the_lock_marks_the_home_so_the_next_asks_briefly(isolated_home, project, capsys):
    """break21: every fresh process (a prompt hook, `memdir search`) waited the whole 5 s busy timeout again
    before reading the copy (5.4-5.8 s each, benchmarks/bench_index_lock.py); marked, 0.7-1.1 s."""
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The dev database listens on 5433.")
    mem.write("redis-ttl", "Redis cache entries expire after 300 s", "project", "The redis ttl is 300 seconds.")
    assert [h.name for h in mem.search("postgresql 5433")] == ["db-port"]
    conn = index.connect(isolated_home)
    with locked.waiting(conn, isolated_home):  # control: unmarked, the index's own busy timeout
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    assert not (isolated_home / locked.LOCK_MARK).exists()
    holder = subprocess.Popen([sys.executable, "-c", HOLD, str(index.db_path(isolated_home))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        mem.write("etcd-ports", "etcd listens on 2379", "project", "etcd serves clients on 2379, peers on 2380.")
        assert [h.name for h in mem.search("etcd clients")] == ["etcd-ports"]  # met the lock: the copy
        assert locked.marked(isolated_home)
        with locked.waiting(conn, isolated_home):
            assert conn.execute("PRAGMA busy_timeout").fetchone() == (int(locked.QUICK_WAIT * 1000),)
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (5000,)  # restored after the block
        mem.delete("db-port")
        mem.write("nats-port", "NATS listens on 4222", "project", "The nats server listens on 4222.")
        capsys.readouterr()
        # A fresh process, marked: the copy again, with what was written and deleted since (never the stale rows).
        found = subprocess.run([sys.executable, "-m", "memdir", "search", "nats 4222"], capture_output=True, check=False,
                               text=True, cwd=project, timeout=120)
        assert "nats-port" in found.stdout and "is locked by another process" in found.stderr
        gone = subprocess.run([sys.executable, "-m", "memdir", "search", "postgresql 5433"], capture_output=True, check=False,
                              text=True, cwd=project, timeout=120)
        assert "db-port" not in gone.stdout and "No memories match" in gone.stdout
        kept = subprocess.run([sys.executable, "-m", "memdir", "search", "redis ttl"], capture_output=True, check=False,
                              text=True, cwd=project, timeout=120)
        assert "redis-ttl" in kept.stdout  # control: the rows as they were
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    assert locked.marked(isolated_home)  # still marked: the next process asks briefly, and takes the free lock
    mem.write("kafka-port", "Kafka listens on 9092", "project", "The kafka brokers listen on 9092.")
    found = subprocess.run([sys.executable, "-m", "memdir", "search", "kafka 9092"], capture_output=True, check=False,
                           text=True, cwd=project, timeout=120)
    assert "kafka-port" in found.stdout and "locked" not in found.stderr
    assert not (isolated_home / locked.LOCK_MARK).exists()  # it wrote: the mark is gone, waits are as usual
    index.close_all()


def test_a_lock_mark_holds_for_its_minute_and_never_from_the_future(isolated_home):
    isolated_home.mkdir(parents=True, exist_ok=True)
    mark = isolated_home / locked.LOCK_MARK
    assert not locked.marked(isolated_home)  # none written
    mark.write_text("1000000000\n")
    assert locked.marked(isolated_home, now=1000000000 + locked.MARK_SKIP - 1)
    assert not locked.marked(isolated_home, now=1000000000 + locked.MARK_SKIP)  # a minute on: waited for again
    assert not locked.marked(isolated_home, now=1000000000 - 3600)  # dated after now (a clock set back): none
    mark.write_text("not a time\n")
    assert not locked.marked(isolated_home, now=1000000000)


def test_an_agents_hook_asks_briefly_as_the_first_to_meet_the_lock(isolated_home, project):
    """break30: a long writer's lock (``BEGIN IMMEDIATE``) met first by a prompt hook cost that prompt the whole
    5 s busy timeout (5.3-7.7 s a prompt, benchmarks/bench_index_lock.py --hook-first); an agent's session now
    asks with :data:`memdir.search.locked.QUICK_WAIT`, marked or not, and answers from the copy."""
    import json
    import os

    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "The dev database listens on 5433.")
    assert [h.name for h in mem.search("postgresql 5433")] == ["db-port"]
    conn = index.connect(isolated_home)
    with locked.waiting(conn, isolated_home, quick=True):  # an agent's session, unmarked: briefly
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (int(locked.QUICK_WAIT * 1000),)
    with locked.waiting(conn, isolated_home):  # control: a person's, unmarked: the index's own busy timeout
        assert conn.execute("PRAGMA busy_timeout").fetchone() == (5000,)
    index.close_all()
    held = HOLD.replace("BEGIN EXCLUSIVE", "BEGIN IMMEDIATE")  # the write lock alone: readers read on
    holder = subprocess.Popen([sys.executable, "-c", held, str(index.db_path(isolated_home))],
                              stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert holder.stdout.readline() == "locked\n"
        mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
        mem.write("etcd-ports", "etcd listens on 2379", "project", "etcd serves clients on 2379, peers on 2380.")
        index.close_all()
        assert not locked.marked(isolated_home)  # nobody met the lock yet: the hook is the first

        def prompt(text):
            return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                                  input=json.dumps({"session_id": "s1", "cwd": str(project), "prompt": text,
                                                    "hook_event_name": "UserPromptSubmit"}),
                                  capture_output=True, text=True, timeout=120, check=False,
                                  env={**os.environ, "MEMDIR_SEARCH_VECTORS": "off"})
        first = prompt("which port does etcd serve clients on")
        assert "2379" in json.loads(first.stdout)["hookSpecificOutput"]["additionalContext"]  # written under the lock
        assert "is locked by another process" in first.stderr and first.stderr.count("memdir: warning:") == 1
        assert locked.marked(isolated_home)  # it met the lock (and gave up on it): later processes ask briefly too
        second = prompt("which port does the dev postgresql listen on")
        assert "5433" in json.loads(second.stdout)["hookSpecificOutput"]["additionalContext"]
        assert second.stderr == ""  # once per session
    finally:
        holder.stdin.close()
        holder.wait(timeout=30)
    index.close_all()
