"""A search's two calls of :func:`memdir.search.ranking._evidence` (its candidates by words, then those found by
meaning) share the query's weights and reader (issue 28, the calling thread's CPU): the second call builds none
anew, and every memory's evidence is what a call of its own gives. Real SQLite and memory files, words alone."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import ranking


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("kafka-retention", "Kafka topics keep events for 7 days", "project",
              "Retention is set with retention.ms on the orders topic; analytics reads from it.")
    mem.write("lint", "Run ruff before committing", "feedback", "The pre-commit hooks run ruff format and check.")
    mem.write("backups", "Backups go to the S3 bucket acme-backups-eu", "project",
              "A lifecycle rule moves kafka snapshots to Glacier after 90 days.")
    return mem


def _recorded(monkeypatch, mem, query):
    calls, evidence = [], ranking._evidence

    def recording(conn, ids, *args):
        calls.append((conn, list(ids), args))
        return evidence(conn, ids, *args)

    monkeypatch.setattr(ranking, "_evidence", recording)
    names = [r.name for r in mem.search(query)]
    monkeypatch.setattr(ranking, "_evidence", evidence)
    return names, calls


def test_the_two_calls_share_one_reading_and_give_each_memory_its_own_calls_evidence(store, monkeypatch):
    names, calls = _recorded(monkeypatch, store, "kafka retention")
    assert names[0] == "kafka-retention" and "backups" in names  # both hold "kafka"
    (conn, ids, args), (_, _, args2) = calls
    *given, readings, names = args  # the query's product-name parts last (parts50): none in "kafka retention"
    assert names == {} and args2[-2] is readings and list(readings) == [(frozenset(), frozenset())]  # one reading, both calls
    conn.execute("BEGIN")
    try:
        alone = ranking._evidence(conn, ids, *given, None, names)  # a fresh reading: no dict passed
        shared: dict = {}
        first = ranking._evidence(conn, ids[:1], *given, shared, names)
        reader = shared[frozenset(), frozenset()][1]
        rest = ranking._evidence(conn, ids[1:], *given, shared, names)
        assert shared[frozenset(), frozenset()][1] is reader  # the second call read with the first call's reader
    finally:
        conn.execute("COMMIT")
    assert {**first, **rest} == alone and len(alone) == len(ids) == 2
    by_name = {row[1]: row[0] for row in conn.execute("SELECT id, name FROM docs")}
    assert alone[by_name["kafka-retention"]].matched == ("kafka", "retent", "kafkaretent")
    assert alone[by_name["backups"]].matched == ("kafka",)  # control: a memory holding one word of the two
