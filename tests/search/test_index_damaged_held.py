"""An index file damaged in place while another process holds it open (break29).

A running ``memdir mcp`` server or the warm search process keeps ``index.sqlite`` open in WAL mode. Truncated
in place (``truncate -s 0``) or its bytes replaced, every other process's open of it waited on the log's
recovery and failed "database is locked (SQLITE_BUSY)" — search, recall and the prompt hook — for as long as
the holder lived, and the holder read on from its cache. Now the file's shape is looked at before SQLite
opens it (:func:`memdir.search.damage.shape`): the first process that sees it sets it aside, says so once on
stderr, and rebuilds it from the memory files; the holder does the same when its file changes under it.

Real processes: the holder is a Python process on the real API, driven through its stdin; the others are the
real CLI and the real Claude Code hook.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

from memdir.search import damage, index
from tests.conftest import run_cli

HOLDER = r"""
import sys
from memdir import Memory
mem = Memory.open(home=sys.argv[1], project=sys.argv[2])
for line in sys.stdin:
    print(",".join(hit.name for hit in mem.search(line.strip())), flush=True)
"""


@pytest.fixture
def store(tmp_path, project):
    home = tmp_path / "home"
    env = {"MEMDIR_HOME": str(home), "MEMDIR_SEARCH_VECTORS": "off"}
    for name, text, body in (("staging", "The staging server is stage3", "ssh deploy@stage3.example"),
                             ("db-port", "Dev PostgreSQL listens on 5433", "Not the default 5432.")):
        assert run_cli("--project", project, "write", name, "-d", text, "--body", body, env=env).returncode == 0
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(home), str(project)], stdin=subprocess.PIPE,
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                              env={**os.environ, **env})
    yield home, env, holder
    if holder.poll() is None:
        holder.stdin.close()
        holder.wait(timeout=60)


def _ask(holder, query) -> str:
    holder.stdin.write(query + "\n")
    holder.stdin.flush()
    return holder.stdout.readline().strip()


def _hook(project, env, prompt):
    return subprocess.run([sys.executable, "-m", "memdir.hooks", "claude-code", "UserPromptSubmit"],
                          input=json.dumps({"session_id": "s1", "cwd": str(project), "prompt": prompt,
                                            "hook_event_name": "UserPromptSubmit"}),
                          capture_output=True, text=True, env={**os.environ, **env}, timeout=120, check=False)


def _damage(path, how):
    if how == "truncated":
        os.truncate(path, 0)
    else:  # its bytes replaced in place, as `cat other > index.sqlite` does: the same inode
        with open(path, "r+b") as file:
            file.write(b"this is not a database at all\n" * 700)


@pytest.mark.parametrize("how", ["truncated", "overwritten"])
def test_others_rebuild_an_index_damaged_under_a_holder_and_say_so(store, project, how):
    home, env, holder = store
    assert _ask(holder, "staging server") == "staging"  # the holder has the index open (the state under test)
    path = index.db_path(home)
    assert os.path.exists(f"{path}-wal")
    _damage(path, how)
    assert damage.shape(path) is not None

    found = run_cli("--project", project, "search", "staging server", env=env)
    assert found.returncode == 0, found.stderr  # before: 1, "database is locked (SQLITE_BUSY)"
    assert "stage3" in found.stdout and "locked" not in found.stderr
    assert found.stderr.count("was damaged") == 1 and "rebuilt from the memory files" in found.stderr
    recalled = _hook(project, env, "which port does the dev database listen on")
    assert recalled.returncode == 0 and "locked" not in recalled.stderr, recalled.stderr
    assert "5433" in json.loads(recalled.stdout)["hookSpecificOutput"]["additionalContext"]
    assert recalled.stderr == ""  # the index was rebuilt already: nothing more to say
    assert len([p for p in os.listdir(home) if index.CORRUPT_SUFFIX in p and p[-4:] not in ("-wal", "-shm")]) == 1
    assert _ask(holder, "dev database port") == "db-port"  # the holder follows the new file
    assert damage.shape(path) is None


def test_the_holder_itself_sees_its_index_damaged_and_rebuilds_it(store, project):
    home, env, holder = store
    assert _ask(holder, "staging server") == "staging"
    path = index.db_path(home)
    _damage(path, "overwritten")
    assert _ask(holder, "dev database port") == "db-port"  # the holder's next query, before anyone else's
    assert damage.shape(path) is None  # rebuilt at the path
    found = run_cli("--project", project, "search", "staging server", env=env)
    assert found.returncode == 0 and "stage3" in found.stdout and found.stderr == "", found.stderr
    holder.stdin.close()
    assert holder.wait(timeout=60) == 0
    said = holder.stderr.read()
    assert said.count("was damaged (not an SQLite database") == 1, said


def test_an_index_held_open_and_sound_is_left_alone(store, project):
    """The control: a holder and a sound index — no warning, nothing set aside, the same file."""
    home, env, holder = store
    assert _ask(holder, "staging server") == "staging"
    path = index.db_path(home)
    inode = os.stat(path).st_ino
    found = run_cli("--project", project, "search", "staging server", env=env)
    assert found.returncode == 0 and "stage3" in found.stdout and found.stderr == "", found.stderr
    recalled = _hook(project, env, "which port does the dev database listen on")
    assert "5433" in json.loads(recalled.stdout)["hookSpecificOutput"]["additionalContext"] and recalled.stderr == ""
    assert _ask(holder, "dev database port") == "db-port"
    assert os.stat(path).st_ino == inode and not [p for p in os.listdir(home) if index.CORRUPT_SUFFIX in p]


def test_shape_names_what_is_wrong_with_the_file(tmp_path, monkeypatch):
    import sqlite3

    monkeypatch.setattr(damage, "_HEADS", {})  # this test process's earlier indexes used up its kept descriptors

    path = tmp_path / "index.sqlite"
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE t (x)")
    conn.execute("INSERT INTO t VALUES (1)")
    conn.commit()
    assert damage.shape(path) is None  # a sound WAL database (control)
    log = os.stat(f"{path}-wal").st_size
    assert log > 0
    os.truncate(path, 0)
    assert damage.shape(path) == f"emptied while its write-ahead log holds {log} bytes"
    conn.close()
    empty = tmp_path / "new.sqlite"
    empty.write_bytes(b"")
    assert damage.shape(empty) is None  # a new index, before SQLite wrote its first page
    assert damage.shape(tmp_path / "absent.sqlite") is None
    cut = tmp_path / "cut.sqlite"
    cut.write_bytes(damage.HEADER + b"\x10\x00" + bytes(82) + bytes(4096 + 1000 - 100))
    assert damage.shape(cut) == "cut to 5096 bytes, not a whole number of its 4096-byte pages"
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database" * 400)
    assert damage.shape(junk) == "not an SQLite database (its first bytes are not SQLite's header)"
    monkeypatch.setattr(damage, "KEPT_HEADS", len(damage._HEADS))  # no descriptor left to keep: sizes alone
    other = tmp_path / "other.sqlite"
    other.write_bytes(b"not a database" * 400)
    assert damage.shape(other) == "cut to 5600 bytes, not a whole number of 512-byte blocks"
