"""Search as a ranked list a person can trust (issue 28): every memory sharing a content word, function words
never diluting a match, prefixes of product names, and the sentence of a long note that answers a question."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import relevance
from memdir.search.tokenize import query_terms


@pytest.fixture
def five(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL listens on 5433", "project", "Moved on 2026-11-02.")
    mem.write("staging-host", "Staging lives at staging.internal.example", "project", "VPN required.")
    mem.write("structlog", "Use structlog for logging, JSON lines in production", "project", "Set up in app/log.py.")
    mem.write("python-installs", "Use uv for Python installs, never pip", "feedback", "uv sync installs the lockfile.")
    mem.write("lunch", "Team lunch on Fridays", "project", "Noon, in the cafeteria.")
    return mem


def names(results):
    return [r.name for r in results]


def test_a_query_finds_every_memory_sharing_a_content_word(five):
    found = five.search("database port")
    assert names(found) == ["db-port"]  # "port" is shared; "database" is in no memory
    assert names(five.search("where is staging")) == ["staging-host"]
    assert five.search("where is staging")[0].score > 0.9  # "where", "is" are function words: a full match
    assert names(five.search("which logging library")) == ["structlog"]
    assert five.search("which logging library")[0].score > 0.9  # "library" is a generic word, "logging" matches


def test_filler_and_function_words_never_dilute_a_match(five):
    alone = five.search("structlog")[0].score
    assert alone > 0.99
    assert five.search("structlog go")[0].score > 0.98
    assert five.search("why does structlog")[0].score > 0.98  # "why" and "does" are stopwords once stemmed


def test_unrelated_queries_still_find_nothing(five):
    assert five.search("zxqvbnmplk") == []
    assert five.search("thanks, that works") == []
    assert names(five.search("lunch")) == ["lunch"]  # control: the same store answers


def test_stopwords_are_compared_by_their_stems():
    assert query_terms("why does the cache only expire once because of its size") == ["cach", "expir", "size"]
    assert query_terms("very") == ["veri"]  # nothing else left: stopwords are what is searched


def test_a_long_enough_term_finds_the_words_it_begins(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("pg", "Dev PostgreSQL listens on 5433", "project", "x")
    mem.write("portal", "The customer portal is a Next.js app", "project", "y")
    assert names(mem.search("postgres")) == ["pg"]
    assert names(mem.search("port")) == []  # four letters: whole words only, never "portal"
    assert names(mem.search("portal")) == ["portal"]  # control


def test_the_sentence_that_answers_beats_a_note_named_after_the_topic(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    filler = ("The team reviewed dashboards, alerts and runbooks for every environment this week. " * 12).strip()
    mem.write("shipping-review", "Shipping capacity review notes", "project",
              f"{filler} The staging Redis cluster was slow. {filler} The port mapping of production changed.")
    mem.write("notifications-review", "Notifications load test notes", "project",
              f"{filler} The staging Redis instance for shipping listens on port 6391. {filler}")
    found = mem.search("What is the port of the staging Redis instance for shipping?")
    assert names(found) == ["notifications-review", "shipping-review"]
    assert found[0].score >= relevance.THRESHOLD
