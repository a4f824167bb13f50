"""Recall must not hide the memory a person plainly asks for (issue 28, the db-port report).

Before: with vectors off, "make sure the db port is right" recalled nothing although `memdir search` ranked the note
db-port 0.997: the task frame ("make sure … is right") made the prompt read as a sentence, not as its keywords
(0.457 < the threshold 0.5; :func:`memdir.search.keywords.unframed`). Then (recall30) "double-check the db port"
still recalled nothing (0.378): "double" counted as a word the memory must hold; and a frame in mid-prompt ("add the
price field and make sure …") was not read at all (:func:`memdir.search.keywords.frame_at`, ``frame_terms``). And once the note's body wrote
``DATABASE_URL``, its "database" counted as a mere identifier's part (0.121) although the note's own name and
description are about the database (:func:`memdir.search.parts.parts_weighed`, ``head``)."""

from __future__ import annotations

import pytest

from memdir.search import parts, ranking, relevance
from memdir.search.keywords import frame_terms, reads_as_keywords, unframed
from memdir.search.tokenize import query_terms, query_tokens, word_forms

from .densestub import dense_as, notes_store

DB_PORT = ("db-port", "Dev PostgreSQL listens on 5433, not 5432",
           ("Moved on 2026-11-02 because the host runs another Postgres on 5432.\n"
            "**How to apply:** DATABASE_URL in .env.dev uses 5433."))
NOTES = [
    DB_PORT,
    ("retry-lib", "Use tenacity for retries",
     "Retries use the tenacity library with wait_exponential(max=30); never hand-roll sleep loops."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
]


@pytest.mark.parametrize(("prompt", "words"), [
    ("make sure the db port is right", ["the", "databas", "port"]),
    ("check that the db port is correct", ["the", "databas", "port"]),
    ("verify the staging url is up to date", ["the", "stage", "url"]),
    ("ensure the retry limit is set", ["the", "retri", "limit"]),
    ("make sure the tests pass", ["the", "test", "pass"]),
    ("make sure", ["make", "sure"]),  # nothing but the frame: the words as they are
    ("the db port is right", ["the", "databas", "port", "is", "right"]),  # no opening: no frame
    ("double-check the db port", ["the", "databas", "port"]),
    ("double check the db port", ["the", "databas", "port"]),
    ("can you double-check the db port?", ["the", "databas", "port"]),
    ("please verify that the db port is set", ["the", "databas", "port"]),
    # in mid-prompt: an opening of two words anywhere, a one-word one where a clause starts
    ("add the price field and make sure the product page shows it",
     ["add", "the", "price", "field", "and", "the", "product", "page", "show", "it"]),
    ("rename it and check the db port is set", ["renam", "it", "and", "the", "databas", "port"]),
    ("the health check endpoint", ["the", "health", "check", "endpoint"]),  # "check" inside a clause: no frame
])
def test_a_task_frame_is_no_word_of_the_prompt(prompt, words):
    assert unframed(query_tokens(prompt)) == words


@pytest.mark.parametrize(("prompt", "terms"), [
    ("double-check the db port", ["databas", "port"]),
    ("can you double check the db port?", ["databas", "port"]),
    ("add the price field and make sure the product page shows it", ["add", "price", "field", "product", "page",
                                                                     "show"]),
    ("check the health check endpoint", ["check", "health", "endpoint"]),  # "check" also outside the frame: kept
    ("the health check endpoint", ["health", "check", "endpoint"]),  # no frame: every term
    ("make sure", ["make", "sure"]),  # nothing but the frame: the terms as they are
])
def test_a_task_frame_is_no_term_a_memory_must_hold(prompt, terms):
    assert frame_terms(prompt, query_terms(prompt)) == terms


def test_a_framed_prompt_reads_as_its_keywords():
    prompt = "make sure the db port is right"
    assert reads_as_keywords(prompt, query_terms(prompt)) == (True, False)
    # Control: the same words as a sentence with no frame read as one ("the … is" make a third of them stopwords).
    plain = "the db port is right"
    assert reads_as_keywords(plain, query_terms(plain)) == (False, False)


def test_a_term_the_head_holds_is_not_softened_as_an_identifier_part():
    weights = {"databas": 4.0, "port": 4.0}
    raw = DB_PORT[2]
    forms = word_forms("what is the db port")
    assert parts.parts_weighed(weights, raw, forms) == {"databas": 1.0, "port": 4.0}  # control: no head given
    assert parts.parts_weighed(weights, raw, forms, head={"databas", "port", "dev"}) is weights


@pytest.mark.parametrize("prompt", [
    "make sure the db port is right",
    "check that the db port is correct",
    "verify the db port is set",
    "what is the db port",
    "double-check the db port",  # 0.378 before recall30: "double" a word the memory had to hold
    "double check the db port",
    "can you double-check the db port?",
    "ok, now double-check the db port",  # a frame in mid-prompt: 0.326 before recall30
    "then double-check the db port",
])
def test_a_framed_prompt_recalls_the_note_it_names(isolated_home, project, prompt):
    mem = notes_store(isolated_home, project, NOTES)
    assert [m.name for m in mem.recall_result(prompt).memories] == ["db-port"]
    hits, _, _ = ranking.ranked(mem.session, prompt, pool=50, min_score=0.0)
    assert {h.memory.name: h.score for h in hits}["db-port"] >= relevance.THRESHOLD


@pytest.mark.parametrize("prompt", [
    "make sure the tests pass",  # no note on tests
    "make sure the cache is warm",
    "check that the build is green",
    "make sure it is right",
    "double-check the spelling in the README",
    "can you double check your math?",
    "fix the typo and double-check the rest of the paragraph",
])
def test_a_frame_around_nothing_the_store_holds_recalls_nothing(isolated_home, project, prompt):
    mem = notes_store(isolated_home, project, NOTES)
    assert mem.recall_result(prompt).memories == ()
    # Control in the same store: the frame around the note's words recalls it.
    assert [m.name for m in mem.recall_result("make sure the db port is right").memories] == ["db-port"]


def test_the_framed_prompt_is_found_by_its_words_whatever_the_cosines(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    cosines = dense_as(monkeypatch, mem, {"db-port": 0.44, "retry-lib": 0.45, "pr-size": 0.45})  # a stale vector
    assert [m.name for m in mem.recall_result("make sure the db port is right").memories] == ["db-port"]
    # Control in the same store: the frame around nothing it holds recalls nothing, the note nearest in meaning either.
    cosines[cosines.ids["db-port"]] = 0.60
    assert mem.recall_result("make sure the tests pass").memories == ()


def test_a_typed_search_keeps_the_frame_words(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    _, terms, _ = ranking.ranked(mem.session, "double-check the db port", pool=50, min_score=0.0, explicit=True)
    assert terms[:3] == ["doublecheck", "doubl", "check"]  # a search for "check constraint" keeps "check"
    # Control: the same words as a prompt have no frame word.
    _, terms, _ = ranking.ranked(mem.session, "double-check the db port", pool=50, min_score=0.0)
    assert "doubl" not in terms and "check" not in terms and {"databas", "port"} <= set(terms)
