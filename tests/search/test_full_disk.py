"""Reads on a full disk (issue 28 item 8): search and the prompt hook answer from the existing index, and
a real SQLITE_FULL is reported as such, never hidden by "cannot rollback - no transaction is active".

Two real simulations, no root needed: a SQLite ``max_page_count`` at the index's current size (a real
SQLITE_FULL from a real database), and a process whose file-size limit (RLIMIT_FSIZE) refuses to grow
any file — SQLite cannot make its ``-shm`` file, as on a full disk (where it says SQLITE_IOERR_SHMSIZE)."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys

import pytest

from memdir.search import index, sync

HAND = ("---\nname: staging-host\ndescription: Staging lives at staging.internal.example\ntype: project\n---\n"
        + "Ask ops before a deploy to staging; the runbook lists every step. " * 600 + "\n")  # 40 KB: new pages


@pytest.fixture(autouse=True)
def _lexical(isolated_home, monkeypatch):
    # Words only: with vectors on, a write starts the background embedder (memdir.search.embedder), whose
    # open connection keeps the index's -shm file; these tests need the index closed by every process.
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")


def _store(mem):
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved from 5432 on 2026-11-02.")
    mem.write("style", "Indent with tabs", "feedback", "The linter enforces tabs.")
    assert [h.name for h in mem.search("postgresql port")] == ["db-port"]  # the index is built
    return mem.session.layer("project").path


def test_a_full_index_is_reported_as_sqlite_full_and_search_answers_from_it(mem, capsys):
    layer = _store(mem)
    (layer / "staging-host.md").write_text(HAND, encoding="utf-8")  # a change the sync must write
    conn = index.connect(mem.home)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")  # the file may not grow: SQLITE_FULL, for real
    try:
        with pytest.raises(sqlite3.OperationalError) as raised:
            sync.sync_layer(conn, mem.home, mem.session.layer("project"), force=True)
        assert raised.value.sqlite_errorname == "SQLITE_FULL"  # not "cannot rollback - no transaction is active"
        assert not conn.in_transaction
        hits = mem.search("postgresql port")
        assert [h.name for h in hits] == ["db-port"]  # answered from the index as it is
        # the file the index lacks is still found (issue 28 audit): an in-memory copy brought up to date
        assert [h.name for h in mem.search("staging internal")] == ["staging-host"]
        err = capsys.readouterr().err
        assert ("could not be brought up to date (database or disk is full (SQLITE_FULL)); it is stale: 1 memory "
                "changed since its last update, read from their files into a copy of it in memory") in err
        assert err.count("memdir: warning:") == 1  # said once
        assert conn.execute("SELECT count(*) FROM docs WHERE name = 'staging-host'").fetchone() == (0,)  # disk as it was
    finally:
        conn.execute("PRAGMA max_page_count = 1073741823")
    assert [h.name for h in mem.search("staging internal")] == ["staging-host"]  # control: room again, synced


_LIMITED = """
import io, json, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead of killing us
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
from memdir.integrations.cli.main import main
from memdir.integrations.claude_code import hooks
rc = main(["search", "--project", sys.argv[1], sys.argv[2]])
out = hooks.run("UserPromptSubmit", stdin=io.StringIO(json.dumps(
    {"session_id": "s1", "cwd": sys.argv[1], "hook_event_name": "UserPromptSubmit", "prompt": sys.argv[3]})))
print("HOOK " + json.dumps(out))
sys.exit(rc)
"""


def _limited(project, query: str, prompt: str, limit: bool = True) -> subprocess.CompletedProcess:
    code = _LIMITED if limit else _LIMITED.replace("resource.setrlimit", "(lambda *a: None)")
    return subprocess.run([sys.executable, "-c", code, str(project), query, prompt], capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))


@pytest.mark.slow
def test_search_and_the_prompt_hook_read_the_index_when_nothing_can_be_written(mem, project):
    layer = _store(mem)
    index.close_all()  # the last connection closes: SQLite removes its -wal and -shm files
    assert not os.path.exists(str(index.db_path(mem.home)) + "-shm")
    (layer / "staging-host.md").write_text(HAND, encoding="utf-8")
    done = _limited(project, "postgresql port", "which port does the dev postgresql listen on?")
    assert done.returncode == 0, done.stderr
    assert "- db-port (type: project; layer: project) relevance" in done.stdout
    hook = json.loads(done.stdout.split("HOOK ", 1)[1])
    assert "Moved from 5432 on 2026-11-02." in json.loads(hook)["hookSpecificOutput"]["additionalContext"]
    assert "cannot be written (disk I/O error (SQLITE_IOERR_SHMSIZE)" in done.stderr
    assert "it is stale: 1 memory changed since its last update" in done.stderr  # staging-host.md, by hand
    stale = _limited(project, "staging internal", "Before a deploy to staging, whom do I ask?")  # lacking: found
    assert stale.returncode == 0 and "- staging-host (type: project; layer: project)" in stale.stdout, stale.stderr
    assert "it is stale: 1 memory changed since its last update" in stale.stderr
    assert "Ask ops before a deploy" in json.loads(json.loads(stale.stdout.split("HOOK ", 1)[1]))[
        "hookSpecificOutput"]["additionalContext"]
    fresh = _limited(project, "staging internal", "where is staging?", limit=False)  # control: room again
    assert "- staging-host (type: project; layer: project)" in fresh.stdout and "cannot be written" not in fresh.stderr


@pytest.mark.slow
def test_a_full_index_while_vectors_are_embedded_is_reported_as_sqlite_full(mem):
    """Building vectors wrote in three transactions of its own, each with a copy of the rollback rule;
    they go through index.write_transaction: SQLITE_FULL comes out as such, no transaction is left open,
    and the vectors are written once there is room."""
    from memdir.search import vectors

    _store(mem)
    for i in range(12):
        mem.write(f"note-{i}", f"Service {i} runs on host h{i}.internal", "project", "Deploys on Mondays. " * 20)
    mem.search("service")  # the rows are in, no vector yet (vectors off)
    conn = index.connect(mem.home)
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.execute(f"PRAGMA max_page_count = {pages}")
    try:
        with pytest.raises(sqlite3.OperationalError) as raised:
            vectors.embed_missing(conn, None)
        assert raised.value.sqlite_errorname == "SQLITE_FULL"  # not "cannot rollback - no transaction is active"
        assert not conn.in_transaction
        assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 0
    finally:
        conn.execute("PRAGMA max_page_count = 1073741823")
    assert vectors.embed_missing(conn, None) == 14  # control: room again, every memory embedded
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 14


def test_a_file_edited_by_hand_while_the_index_is_full_is_searched_as_it_is_now(mem, capsys):
    """Issue 28 audit case 2: a row the index holds stale is read from its file (an in-memory copy)."""
    layer = _store(mem)
    text = (layer / "db-port.md").read_text(encoding="utf-8")
    grown = text.replace("Moved from 5432", "Moved to the A100 GPU host from 5432") + "Ask ops first. " * 2500
    (layer / "db-port.md").write_text(grown, encoding="utf-8")  # 40 KB: new pages the full index cannot take
    conn = index.connect(mem.home)
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")  # SQLITE_FULL
    try:
        assert [h.name for h in mem.search("A100 GPU")] == ["db-port"]  # before: no match (the stale row)
        assert [h.name for h in mem.search("tabs")] == ["style"]  # control: the unchanged rows answer as before
        assert mem.search("nonsenseword") == []  # control: nothing padded in
        assert "it is stale: 1 memory changed since its last update" in capsys.readouterr().err
        stored = conn.execute("SELECT count(*) FROM docs WHERE body LIKE '%A100%'").fetchone()
        assert stored == (0,)  # the file on disk was not written
    finally:
        conn.execute("PRAGMA max_page_count = 1073741823")
    assert [h.name for h in mem.search("A100 GPU")] == ["db-port"]  # room again: synced on disk


_HOOK_ONLY = """
import io, json, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
from memdir.integrations.claude_code import hooks
sys.exit(hooks.handle("UserPromptSubmit", stdin=io.StringIO(json.dumps(
    {"session_id": sys.argv[2], "cwd": sys.argv[1], "hook_event_name": "UserPromptSubmit", "prompt": sys.argv[3]}))))
"""


@pytest.mark.slow
def test_the_stale_index_warning_is_said_once_per_session_and_to_every_command(mem, project):
    """Leftover 1: each hook is a process of its own, so "once per process" was every prompt. The first prompt
    of a session says it (and recalls), the next prompts of that session do not; another session and a
    person's `memdir search` are told."""
    _store(mem)
    index.close_all()
    said = "memdir: warning: the search index"

    def hook(session: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", _HOOK_ONLY, str(project), session, "which port does the dev "
                               "postgresql listen on?"], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))

    first, second, third = hook("s1"), hook("s1"), hook("s1")
    assert first.stderr.count(said) == 1 and "SQLITE_IOERR_SHMSIZE" in first.stderr  # the first time: visible
    assert "Moved from 5432 on 2026-11-02." in first.stdout
    assert said not in second.stderr and said not in third.stderr  # the rest of the session: not again
    assert "db-port" in second.stdout  # recall still answers (named: its body was given before)
    assert hook("s2").stderr.count(said) == 1  # control: a new session is told
    for _ in range(2):  # a person's command is always told
        done = _limited(project, "postgresql port", "")
        assert "- db-port (type: project; layer: project)" in done.stdout and done.stderr.count(said) == 1


def test_a_warm_process_hands_the_stale_index_warning_to_the_hook_once_per_session(mem, project, capsys):
    """Leftover 1, the warm path: a warm process runs the prompt hook for a fresh process, whose stderr the
    person sees; the warning went to the warm process's own stderr (its log), and said once there."""
    from memdir.integrations.claude_code import hooks

    layer = _store(mem)
    (layer / "staging-host.md").write_text(HAND, encoding="utf-8")  # a change the sync must write
    conn = index.connect(mem.home)
    conn.execute(f"PRAGMA max_page_count = {conn.execute('PRAGMA page_count').fetchone()[0]}")  # SQLITE_FULL

    def answer(session: str) -> dict:
        return hooks.answer_warm({"client": "claude-code", "event": "UserPromptSubmit", "home": str(mem.home),
                                  "input": json.dumps({"session_id": session, "cwd": str(project),
                                                       "prompt": "which port does the dev postgresql listen on?"})})
    try:
        first, second, other = answer("w1"), answer("w1"), answer("w2")
    finally:
        conn.execute("PRAGMA max_page_count = 1073741823")
    said = "memdir: warning: the search index"
    assert first["stderr"].count(said) == 1 and "SQLITE_FULL" in first["stderr"]  # handed to the hook's process
    assert "Moved from 5432 on 2026-11-02." in first["stdout"]
    assert second["stderr"] is None and "db-port" in second["stdout"]  # the same session: not again
    assert other["stderr"].count(said) == 1  # control: another session is told
    assert said not in capsys.readouterr().err  # not the warm process's own stderr
