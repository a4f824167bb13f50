"""What a search derives from the index's rows alone is kept per index generation (memdir.search.memo): the
memories writing a -y word's family (terms.y_writers) and whether one memory continues its start (the ranking's
evidence), and a snippet's text is tokenized once per text (passage._words). Faster, never different: the second
search answers the same, and a write (a new generation) is seen by the next search in the same process."""

from __future__ import annotations

import pytest

from memdir.search import index, memo, passage, spelling, terms
from memdir.search.hits import snippet
from memdir.search.sync import prepare
from memdir.search.tokenize import query_terms, word_forms

from ..conftest import indexed_store, traced
from .ranked import top

NOTES = {  # name -> (description, body)
    "token-ttl": ("Tokens expire after an hour", "Expired tokens are refreshed by the gateway."),
    "cert-dates": ("Certificate expiration dates", "Renew two weeks before expiration."),
    "scaling-factor": ("Autoscaling factor is 1.5", "The HPA scales by a factor of 1.5."),  # not expiry
}
QUERY = "token expiry"


@pytest.fixture
def store(isolated_home, project):
    return indexed_store(isolated_home, project, NOTES)


def _y_statements(conn, run):
    result, seen = traced(conn, run, lambda sql: "coalesce(d.body, '') FROM fts JOIN docs" in sql)
    return result, len(seen)


def _writers(conn, names):
    starts = spelling.starts(query_terms(QUERY), word_forms(QUERY))
    conn.execute("BEGIN")
    try:
        found, statements = _y_statements(conn, lambda: terms.y_writers(conn, starts))
    finally:
        conn.execute("COMMIT")
    return {t: sorted(names[i] for i in rows) for t, rows in found.items()}, statements


def test_the_order_is_the_same_when_kept_and_a_write_is_seen_at_once(store, isolated_home):
    first = top(store, QUERY)
    # expire, expiration: expiry's family; cert-dates's head names the expiry concept (concepts.lifted: its head
    # share), not the token: weak (0.21; 0.04 before the concept stand-ins served searches)
    assert first == [("token-ttl", 1.0), ("cert-dates", 0.21)]
    assert "scaling-factor" not in dict(first)  # control: a factor is no factory's, nor expiry's
    assert top(store, QUERY) == first  # the second search answers from what was kept: the same order and scores

    store.write("session-ttl", "Session tokens expire after 30 minutes", "project", "Expired sessions log out.")
    after = top(store, QUERY)
    assert after == [("token-ttl", 1.0), ("session-ttl", 1.0), ("cert-dates", 0.18)]  # the new memory, at once
    assert "scaling-factor" not in dict(after)  # control


def test_y_writers_are_read_once_per_generation(store, isolated_home):
    conn = index.connect(isolated_home)
    names = dict(conn.execute("SELECT id, name FROM docs").fetchall())
    terms.WRITERS.clear()
    assert _writers(conn, names) == ({"expiri": ["cert-dates", "token-ttl"]}, 1)  # not scaling-factor
    assert _writers(conn, names) == ({"expiri": ["cert-dates", "token-ttl"]}, 0)  # kept: no statement

    store.write("session-ttl", "Sessions expire after 30 minutes", "project", "Then the user logs in again.")
    prepare(store.session)  # a new generation
    names = dict(conn.execute("SELECT id, name FROM docs").fetchall())
    assert _writers(conn, names) == ({"expiri": ["cert-dates", "session-ttl", "token-ttl"]}, 1)  # read again


def test_kept_forgets_on_a_new_generation_or_connection():
    kept = memo.Kept(2)
    a, b = object(), object()
    assert kept.get(a, 1, "k", lambda: "one") == "one"
    assert kept.get(a, 1, "k", lambda: "two") == "one"  # kept
    assert kept.get(a, 2, "k", lambda: "three") == "three"  # a new generation: computed
    assert kept.get(b, 2, "k", lambda: "four") == "four"  # another connection: computed
    assert kept.get(b, None, "j", lambda: "five") == "five" and kept.get(b, None, "j", lambda: "six") == "six"
    kept.get(b, 2, "x", lambda: 1), kept.get(b, 2, "y", lambda: 2)
    assert kept.get(b, 2, "k", lambda: "seven") == "seven"  # at most 2 kept: the oldest went


def test_a_kept_texts_snippet_follows_each_querys_terms():
    text = ("Alpha service runs in the eu region. " * 6 + "The omega queue drains every night at two. "
            + "Filler sentence about nothing in particular. " * 6)
    passage._words.cache_clear()
    omega = snippet(text, ["omega"])
    alpha = snippet(text, ["alpha"])  # the same text, kept: another query's passage
    assert omega.startswith("…The omega queue drains every night at two.")
    assert alpha.startswith("Alpha service runs in the eu region.") and "omega" not in alpha  # control
    passage._words.cache_clear()
    assert snippet(text, ["omega"]) == omega and snippet(text, ["alpha"]) == alpha  # as computed afresh
