"""A result's ``why.terms`` are the query's words as written, not the index's stems (why16)."""

from __future__ import annotations

from memdir import Memory
from memdir.search.why import written


def test_written_maps_each_term_to_the_word_the_query_writes():
    assert written("Which ports are listening?") == {"which": "which", "port": "ports", "are": "are",
                                                     "listen": "listening"}
    # one word giving two terms is shown once, accents kept; an identifier's joined term is the identifier
    assert written("Zürich request_id") == {"zurich": "zürich", "zuerich": "zürich", "requestid": "request_id",
                                            "request": "request", "id": "id"}


def test_search_and_recall_show_the_words_the_query_matched(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("db-port", "Dev PostgreSQL port", "project", "Dev PostgreSQL listens on 5433 for the billing services.")
    mem.write("office", "Where the team sits", "project", "The Zürich office hosts the platform team.")
    found = mem.search("which ports are listening")
    assert [(r.name, r.why["terms"]) for r in found] == [("db-port", ["ports", "listening"])]
    found = mem.search("Zurich office")  # control: the other memory, its words as this query writes them
    assert [(r.name, r.why["terms"]) for r in found] == [("office", ["zurich", "office"])]
    recalled = mem.recall_result("which ports is the dev postgresql listening on?").memories
    assert [(m.name, m.why["terms"]) for m in recalled] == [("db-port", ["ports", "dev", "postgresql", "listening"])]


def test_a_word_read_as_a_longer_spelling_shows_as_the_query_writes_it(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, search_vectors="off")
    mem.write("pg", "Dev Postgres port", "project", "Postgres listens on 5433.")
    mem.write("cache", "Redis for sessions", "project", "Sessions live in Redis db 3.")
    # "postgresql" is read as the "postgr" of "Postgres" (no memory writes postgresql): shown as the query wrote it
    assert [(r.name, r.why["terms"]) for r in mem.search("postgresql port")] == [("pg", ["postgresql", "port"])]
    assert [(r.name, r.why["terms"]) for r in mem.search("redis sessions")] == [("cache", ["redis", "sessions"])]
    recalled = mem.recall_result("which port does the dev postgresql use?").memories
    assert [(m.name, m.why["terms"]) for m in recalled] == [("pg", ["port", "dev", "postgresql"])]
