"""Each candidate row's words are read once per index generation (memdir.search.rowwords): the second search reads
no row again, a changed memory (a new generation) is read afresh by the next search, and what a kept row reads
as a query's terms is exactly what the indexed body read afresh gives (memdir.search.reading.read_body)."""

from __future__ import annotations

import random

import pytest

from memdir.search import index, memo, rowwords
from memdir.search.reading import Prefixes, read_body

from ..conftest import indexed_store, traced
from .ranked import top

NOTES = {  # name -> (description, body)
    "staging-db": ("Staging database host", "The staging PostgreSQL database runs on db-stage-2, port 5433."),
    "deploy-steps": ("How deploys go", "Deploys run from CI after the tests pass; staging first, then production."),
}
QUERY = "staging postgresql port"


@pytest.fixture
def store(isolated_home, project):
    return indexed_store(isolated_home, project, NOTES)


def _row_reads(conn, run):
    result, seen = traced(conn, run, lambda sql: "FROM fts f JOIN docs d" in sql)
    return result, len(seen)


def test_rows_are_read_once_per_generation_and_a_change_is_seen_by_the_next_search(store, isolated_home):
    rowwords._KEPT.clear()
    first = top(store, QUERY)
    assert first == [("staging-db", 1.0), ("deploy-steps", 0.03)]
    assert top(store, QUERY) == first  # from the kept rows: the same order and scores

    store.write("deploy-steps", body="Deploys to the staging PostgreSQL go through port 5433 of the proxy.")
    after = top(store, QUERY)
    assert dict(after)["deploy-steps"] == 1.0  # the changed memory's new words, at once
    assert dict(after)["staging-db"] == 1.0  # control: the unchanged memory as before

    conn = index.connect(isolated_home)
    ids = [i for (i,) in conn.execute("SELECT id FROM docs ORDER BY id")]
    conn.execute("BEGIN")
    try:
        rows, statements = _row_reads(conn, lambda: rowwords.rows(conn, ids))
        assert statements == 0 and set(rows) == set(ids)  # the searches kept every row of this generation
        rowwords._KEPT.clear()
        rows, statements = _row_reads(conn, lambda: rowwords.rows(conn, ids))
        assert statements == 1 and set(rows) == set(ids)
        again, statements = _row_reads(conn, lambda: rowwords.rows(conn, ids))
        assert statements == 0 and again == rows  # kept: no statement, the same rows
    finally:
        conn.execute("COMMIT")


def test_kept_many_computes_only_what_is_missing_and_forgets_on_a_new_generation():
    kept, asked = memo.Kept(3), []

    def compute(keys):
        asked.append(list(keys))
        return {k: k * 10 for k in keys if k != 4}  # 4 has no value

    conn = object()
    assert kept.many(conn, 1, [1, 2, 4], compute) == {1: 10, 2: 20}
    assert kept.many(conn, 1, [2, 1, 3], compute) == {2: 20, 1: 10, 3: 30}  # in the order asked
    assert asked == [[1, 2, 4], [3]]  # only 3 was computed (4 again, had it been asked: nothing kept for it)
    assert kept.many(conn, 2, [1], compute) == {1: 10} and asked[-1] == [1]  # a new generation: computed again
    assert kept.many(conn, None, [5], compute) == {5: 50} and kept.many(conn, None, [5], compute) == {5: 50}
    assert asked[-2:] == [[5], [5]]  # no generation: nothing kept
    for key in (6, 7, 8, 9):
        kept.many(conn, 2, [key], compute)
    assert len(kept.values()) == 3  # at most 3 kept


WORDS = ["postgr", "postgresql", "postgr", "sql", "time", "out", "timeout", "stage", "port", "5433", "deploy",
         "expir", "expiri", "factor", "jetpack", "compos", "jetpackcompos", "polic", "polici", "a", "the", "db"]


@pytest.mark.parametrize("seed", range(40))
def test_a_kept_row_reads_the_body_as_read_body_does(seed):
    rng = random.Random(seed)
    body = " ".join(rng.choice(WORDS) for _ in range(rng.randrange(0, 60)))
    if seed % 5 == 4:
        body = body.replace(" ", "  ", 1) + " "  # not single-spaced: read as it is
    weights = {t: 1.0 + i for i, t in enumerate(rng.sample(["postgr", "timeout", "stage", "port", "expir",
                                                             "jetpackcompos", "polici", "deploy", "db"], 5))}
    compounds = {t: words for t, words in {"timeout": ("time", "out"), "jetpackcompos": ("jetpack", "compos")}.items()}
    starts = {t: t[:-1] if t.endswith("i") else t for t in weights if len(t) >= 4 and t.isalpha()}
    prefixes = Prefixes(weights, compounds, starts)
    row = rowwords.Row("name", None, "description", body, "raw", "called")
    fresh = read_body(body, Prefixes(weights, compounds, starts))
    for _ in range(3):  # read as it is, then by its words' positions (kept)
        kept = row.read(prefixes)
        assert kept.hits == fresh.hits
        assert kept.tokens() == fresh.tokens()
        assert row.body() == body
    assert (row._places is None) == (seed % 5 == 4)  # positions kept for a single-spaced body only


def test_a_kept_texts_best_sentence_follows_each_querys_terms():
    from memdir.search import ties

    text = "The API clock runs on UTC. Backups start at two at night.\nThe queue drains every hour."
    ties._sentences.cache_clear()
    backups = ties.best_sentence(text, Prefixes({"backup": 1.0, "night": 1.0}), {"backup", "night"})
    queue = ties.best_sentence(text, Prefixes({"queue": 1.0}), {"queue"})  # the same text, kept: another query's
    assert backups == "Backups start at two at night."
    assert queue == "The queue drains every hour."  # control
    assert ties._sentences.cache_info().hits == 1
    ties._sentences.cache_clear()
    assert ties.best_sentence(text, Prefixes({"queue": 1.0}), {"queue"}) == queue  # as computed afresh


def test_a_kept_row_reads_two_terms_at_one_position_as_read_body_does():
    # "time out" is the compound timeout, and time is a term of the query too: its first word's position holds
    # both (the compound's and the word's own, and the part it implies): the hits are sorted by term there too
    weights = {"timeout": 2.0, "time": 1.0, "staging": 1.5}
    body = "staging saw a time out and the time out came back to staging"
    prefixes = Prefixes(weights, {"timeout": ("time", "out")}, {})
    row = rowwords.Row("name", None, "description", body, "raw", "called")
    fresh = read_body(body, Prefixes(weights, {"timeout": ("time", "out")}, {}))
    row.read(prefixes)  # the first reading reads the text itself
    kept = row.read(prefixes)  # then by positions
    positions = [p for p, _ in kept.hits]
    assert len(positions) > len(set(positions))  # the case itself: one position holds two terms
    assert kept.hits == fresh.hits
    assert kept.hits[:4] == [(0, "staging"), (3, "time"), (3, "time"), (3, "timeout")]


def test_occurrences_are_a_bodys_own_hits_only_for_the_weights_it_was_read_with():
    from memdir.search.windows import occurrences

    weights = {"staging": 1.0, "port": 2.0}
    body = rowwords.Row("name", None, "description", "the staging port is 5433 on staging", "raw", "called")
    read = body.read(Prefixes(weights))
    assert occurrences(read, weights) == [(1, "staging"), (2, "port"), (6, "staging")]
    assert occurrences(read, {"port": 2.0}) == [(2, "port")]  # other weights: only their terms (control)
    assert occurrences(read, dict(weights)) == [(1, "staging"), (2, "port"), (6, "staging")]  # equal, not the same
