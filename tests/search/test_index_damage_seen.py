"""Damage the index's own checks do not see is still seen (issue 28 §8, the trial's leftovers).

1. A valid page whose stored text changed (a byte edit of the file): ``PRAGMA quick_check`` passes it, so
   each row carries a checksum of its values, checked on the rows a query shows; a row that fails is read
   again from its file.
2. ``memdir status`` (and ``--json``) says when the index is damaged, set aside or being rebuilt.

Real SQLite files edited byte by byte, the CLI and the prompt hook as real subprocesses."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from memdir import Memory
from memdir.search import index, integrity, rebuild

TRUE_BODY = "Dev PostgreSQL listens on Port-5433 since the November move."
FORGED = b"Port-6666"


def _run(args: list[str], project: Path, stdin: str = "") -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], input=stdin, capture_output=True, text=True, timeout=120,
                          cwd=project, env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))


def _cli(project: Path, *args: str) -> subprocess.CompletedProcess:
    return _run(["-m", "memdir.cli", "--project", str(project), *args], project)


def _store(isolated_home: Path, project: Path) -> Memory:
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Where the dev database listens", "project", TRUE_BODY)
    mem.write("staging-host", "Staging lives at staging.internal.example", "project",
              "Deploys to staging go through the ops runbook.")
    assert [h.name for h in mem.search("staging")] == ["staging-host"]  # the index is built
    conn = index.connect(mem.home)
    conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # every row in the main file, where the edit goes
    index.close_all()
    return mem


def _forge(path: Path) -> None:
    """Overwrite the port inside the docs row's body, in place: the page stays a valid page."""
    data = path.read_bytes()
    assert data.count(b"Port-5433") == 1, "the body's text is stored once (the FTS copy holds tokens)"
    path.write_bytes(data.replace(b"Port-5433", FORGED))


@pytest.mark.slow
def test_a_row_whose_text_was_changed_in_the_file_is_read_again_from_its_memory(isolated_home, project):
    mem = _store(isolated_home, project)
    path = index.db_path(mem.home)
    _forge(path)
    assert not index.is_corrupt(path)  # the premise: quick_check sees nothing
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT body FROM docs WHERE name = 'db-port'").fetchone()[0] == TRUE_BODY.replace(
        "Port-5433", FORGED.decode())  # the forged text is what the row holds now
    conn.close()

    found = _cli(project, "search", "dev postgresql listens")  # was: the forged port, silently
    assert found.returncode == 0, found.stderr
    assert "- db-port (type: project; layer: project)" in found.stdout
    assert "Port-5433" in found.stdout and "6666" not in found.stdout, found.stdout
    assert "held 1 damaged row(s) (db-port: they did not match their checksum); re-read" in found.stderr
    control = _cli(project, "search", "staging")  # an undamaged memory, found as it was
    assert "- staging-host (type: project; layer: project)" in control.stdout and not control.stderr
    conn = sqlite3.connect(path)  # repaired in the index itself, not only in the answer
    assert conn.execute("SELECT body FROM docs WHERE name = 'db-port'").fetchone()[0] == TRUE_BODY
    conn.close()


@pytest.mark.slow
def test_the_prompt_hook_never_injects_a_forged_row(isolated_home, project):
    mem = _store(isolated_home, project)
    _forge(index.db_path(mem.home))
    payload = json.dumps({"session_id": "s-forged", "cwd": str(project), "hook_event_name": "UserPromptSubmit",
                          "prompt": "which port does the dev postgresql database listen on?"})
    done = _run(["-m", "memdir.hooks", "claude-code", "UserPromptSubmit"], project, stdin=payload)
    assert done.returncode == 0, done.stderr
    context = json.loads(done.stdout)["hookSpecificOutput"]["additionalContext"]
    assert TRUE_BODY in context and "6666" not in context, context
    assert "ops runbook" not in context  # control of the recall itself: the other memory is not padded in


def test_a_row_that_cannot_be_repaired_is_left_out_and_the_rest_answers(isolated_home, project):
    from memdir.search import sync

    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Where the dev database listens", "project", TRUE_BODY)
    mem.write("db-host", "Where the dev database runs", "project", "The dev database runs on db1.internal.")
    conn = index.connect(mem.home)
    assert {h.name for h in mem.search("dev database")} == {"db-port", "db-host"}
    conn.execute("UPDATE docs SET body = ? WHERE name = 'db-port'", (TRUE_BODY.replace("5433", "6666"),))
    bad = integrity.damaged_rows(conn, None)
    assert [row[3] for row in bad] == ["db-port"]  # control: the sound row passes its check
    original = sync.repair
    try:
        sync.repair = lambda *_args: False  # the index cannot be written now (a full disk)
        hits = mem.search("dev database")
    finally:
        sync.repair = original
    assert [h.name for h in hits] == ["db-host"]
    assert all("6666" not in h.snippet for h in hits)


def test_a_checksum_is_the_same_for_what_is_written_and_what_is_read(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("odd-types", "A memory with every kind of column", "project", "Body with ünïcödé and \t tabs.",
              pinned=True)
    mem.search("memory")
    conn = index.connect(mem.home)
    assert integrity.damaged_rows(conn, None) == []
    stored = conn.execute("SELECT checksum FROM docs WHERE name = 'odd-types'").fetchone()[0]
    assert isinstance(stored, int) and stored != 0
    conn.execute("UPDATE docs SET pinned = 0 WHERE name = 'odd-types'")  # one flag changed
    assert [row[3] for row in integrity.damaged_rows(conn, None)] == ["odd-types"]


def test_an_index_of_schema_4_gets_checksums_and_keeps_its_vectors(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("db-port", "Where the dev database listens", "project", TRUE_BODY)
    mem.search("database")
    conn = index.connect(mem.home)
    conn.execute("INSERT INTO vectors VALUES ((SELECT id FROM docs WHERE name = 'db-port'), 'd', 'm', x'00')")
    conn.execute("ALTER TABLE docs DROP COLUMN checksum")
    conn.execute("PRAGMA user_version = 4")  # what the previous memdir left
    index.close_all()
    conn = index.connect(mem.home)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == index.SCHEMA_VERSION
    assert conn.execute("SELECT count(*) FROM vectors").fetchone()[0] == 1  # not rebuilt: kept
    assert conn.execute("SELECT count(*) FROM docs WHERE checksum IS NULL").fetchone()[0] == 0
    assert integrity.damaged_rows(conn, None) == []
    assert [h.name for h in mem.search("database")] == ["db-port"]


# ---------------------------------------------------------------- 2. status says so


def _damage(path: Path) -> None:
    data = bytearray(path.read_bytes())
    for i in range(len(data) // 2, min(len(data) // 2 + 8192, len(data))):
        data[i] ^= 0xA5
    path.write_bytes(bytes(data))


@pytest.mark.slow
def test_status_says_the_index_is_damaged_set_aside_or_being_rebuilt(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for i in range(40):
        mem.write(f"note-{i}", f"Service number {i} runs on host h{i}.internal", "project",
                  " ".join(f"word{j} filler text about service {i} deployment" for j in range(60)))
    mem.search("service")
    index.close_all()
    sound = _cli(project, "status", "--json")
    assert json.loads(sound.stdout)["search"] == "bm25"  # control: a sound index
    path = index.db_path(mem.home)
    _damage(path)
    assert index.is_corrupt(path)
    damaged = _cli(project, "status")  # was: "search: bm25"
    assert (f"search: bm25; the search index {path} was damaged (PRAGMA quick_check): moved aside to "
            "index.sqlite.corrupt-") in damaged.stdout, damaged.stdout
    assert "the next search rebuilds it" in damaged.stdout
    assert (damaged.stdout + damaged.stderr).count("was damaged") == 1, damaged.stderr  # once: no stderr copy
    after = json.loads(_cli(project, "status", "--json").stdout)["search"]
    assert after.startswith("bm25; the search index was set aside as damaged (index.sqlite.corrupt-"), after
    assert "- note-3 " in _cli(project, "search", "number 3").stdout  # the search rebuilt it
    assert json.loads(_cli(project, "status", "--json").stdout)["search"] == "bm25"  # nothing more to say
    working = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        path.with_name(f"{path.name}{rebuild.BUILD_SUFFIX}{working.pid}").write_bytes(b"an index being built")
        rebuilding = json.loads(_cli(project, "status", "--json").stdout)["search"]
    finally:
        working.kill()
        working.wait()
    assert rebuilding == (f"bm25; the search index is being rebuilt (into index.sqlite.new-{working.pid}); "
                          "searches answer from the old one meanwhile"), rebuilding


@pytest.mark.slow
def test_doctor_checks_every_row(isolated_home, project):
    mem = _store(isolated_home, project)
    clean = _cli(project, "doctor")
    assert "damaged row" not in clean.stdout and "db-port" not in clean.stdout  # control: sound rows
    _forge(index.db_path(mem.home))
    checked = _cli(project, "doctor")  # was: "ok" (quick_check passes a valid page)
    assert (f"note: the search index {index.db_path(mem.home)} held 1 damaged row(s) (db-port): read again from "
            "the files") in checked.stdout, checked.stdout
    assert "damaged row" not in _cli(project, "doctor").stdout  # repaired: nothing more to say
    conn = sqlite3.connect(index.db_path(mem.home))
    assert conn.execute("SELECT body FROM docs WHERE name = 'db-port'").fetchone()[0] == TRUE_BODY
    conn.close()
