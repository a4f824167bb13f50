"""A prompt pointing at a thing of the conversation ("summarise the diff above", "the answer is yes",
"このコードを読みやすくして") does not recall a memory that shares only the pointer's words with it
(:mod:`memdir.search.conversation`, :attr:`memdir.search.relevance.Evidence.pointed`): the note asking for short
answers says "the user reads the diff", about another diff (false33: the fit data's false recalls). Real words, real
SQLite, vectors off (the rule reads words; a fit row recalled the note with vectors off as well)."""

from __future__ import annotations

import pytest

from memdir.search import ranking, relevance
from memdir.search.conversation import only_pointed, pointed_terms

from .densestub import notes_store

NOTES = [
    ("terse-answers", "The user wants short answers without a summary at the end",
     ("Keep replies short. Do not end with a recap of what was just done; the user reads the diff.\n"
      "**Why:** said explicitly twice (\"stop summarising, I can read\").\n"
      "**How to apply:** answer, show the change, stop.")),
    ("ja-review", "コードレビューのコメントは日本語で書く",
     ("レビューコメントは日本語で書くこと。チームの半分は英語が苦手。\n"
      "**理由：** 英語のコメントが誤解されて、間違った修正が入ったことがある。")),
    ("pg-port", "The dev PostgreSQL listens on port 5433",
     "The dev database runs in docker compose and listens on 5433, not the default 5432."),
]


@pytest.mark.parametrize("prompt, pointed", [
    ("summarise the diff above", {"the", "diff", "abov"}),
    ("the answer is yes", {"the", "answer"}),
    ("the last question", {"the", "last", "question"}),
    ("double-check your math", {"your", "math"}),
    ("why is this loop O(n^2)?", {"this", "loop"}),
    ("このコードを読みやすくして", {"この", "のコ", "コー", "ード"}),
    ("the diff above touches the dev db port", {"diff", "abov"}),  # "the" is written outside the pointer too
])
def test_the_words_a_prompt_points_at_the_conversation_with(prompt, pointed):
    assert pointed_terms(prompt) == frozenset(pointed)


@pytest.mark.parametrize("prompt", [
    "how long should your replies be for me?",  # replies in general: how to answer, the note's own topic
    "emit a warning when the queue grows above 1000 jobs",  # "above" a number compares
    "the temperature rose above the limit",
    "has the message queue fallen behind?",  # a message queue, not a message of the chat
    "leave review comments on this pull request for the team",
])
def test_a_prompt_pointing_at_no_thing_of_the_conversation_has_no_pointed_terms(prompt):
    assert pointed_terms(prompt) == frozenset()


def test_only_pointed_needs_a_shared_word_and_every_one_pointed():
    pointed = pointed_terms("summarise the diff above")
    assert only_pointed(("diff",), pointed) is True
    assert only_pointed(("diff", "port"), pointed) is False  # control: another word of the prompt shared
    assert only_pointed((), pointed) is False  # a memory carried by meaning alone is read as before


def test_a_memory_sharing_only_the_pointed_diff_is_not_recalled(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    prompt = "summarise the diff above"
    (hit,) = [h for h in ranking.ranked(mem.session, prompt, pool=12, min_score=0.0)[0]
              if h.memory.name == "terse-answers"]
    assert hit.evidence.shared == ("diff",) and hit.evidence.pointed
    assert hit.score >= relevance.THRESHOLD  # its words alone would have carried it
    assert relevance.bar(hit.evidence) == float("inf")
    assert mem.recall_result(prompt).memories == ()
    # controls in the same store: the note is recalled for a prompt about how to answer, and a prompt pointing at
    # the diff still recalls a memory sharing its other words
    assert [m.name for m in mem.recall_result("please stop recapping everything you did at the end").memories] == [
        "terse-answers"]
    assert [m.name for m in mem.recall_result("the diff above changes the dev postgres port").memories] == ["pg-port"]


def test_an_explicit_search_still_lists_the_memory(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    assert "terse-answers" in [h.name for h in mem.search("summarise the diff above")]  # recall's rule only


def test_the_answer_is_yes_recalls_nothing_but_a_question_on_answers_does(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    (hit,) = [h for h in ranking.ranked(mem.session, "the answer is yes", pool=12, min_score=0.0)[0]
              if h.memory.name == "terse-answers"]
    assert hit.evidence.shared == ("answer",) and hit.evidence.pointed
    assert mem.recall_result("the answer is yes").memories == ()
    assert [m.name for m in mem.recall_result("should the answers end with a summary?").memories] == [
        "terse-answers"]


def test_this_code_in_japanese_is_no_code_review(isolated_home, project):
    mem = notes_store(isolated_home, project, NOTES)
    assert mem.recall_result("このコードを読みやすくして").memories == ()
    assert [m.name for m in mem.recall_result("コードレビューのコメントは何語で書く？").memories] == ["ja-review"]



@pytest.mark.parametrize("prompt, pointed", [
    ("the tests pass now, thanks", {"the", "test", "pass"}),
    ("make sure the tests pass", {"the", "test", "pass"}),
    ("all tests are passing", {"all", "test", "are", "pass"}),
    ("the build is green", {"the", "build", "is", "green"}),
    ("make sure the tests pass against the real database", {"test", "pass"}),  # "the" is written outside too
    ("the tests fail on CI", set()),  # a failure is a problem a note may bear on: no pointer
])
def test_the_sessions_own_checks_said_to_succeed_point_at_the_conversation(prompt, pointed):
    assert pointed_terms(prompt) == frozenset(pointed)


TEST_NOTES = [  # the evaluation's notes holding "tests pass" (evals/recall/memories)
    ("no-mocks-db", "Integration tests must hit a real database, not mocks",
     ("Do not mock the database layer in integration tests.\n**Why:** last quarter the mocked tests passed while a "
      "migration broke production; the mock did not know about the new NOT NULL column.\n**How to apply:** use the "
      "`pg` fixture from tests/conftest.py, which creates a fresh schema per test.")),
    NOTES[2],
]


def test_tests_passing_recalls_no_note_on_tests(isolated_home, project):
    """"the tests pass now, thanks" and "make sure the tests pass" report or check the session's own work; the note on
    integration tests ("the mocked tests passed while a migration broke production") shares "test" and "pass" and was
    recalled for both, with the ops log and a session note (false35: fit folds 0 and 1, vectors on and off). Control
    in the same store: a check of what the note is about, and a prompt sharing another word with it."""
    mem = notes_store(isolated_home, project, TEST_NOTES)
    for prompt in ("the tests pass now, thanks", "make sure the tests pass"):
        (hit,) = [h for h in ranking.ranked(mem.session, prompt, pool=12, min_score=0.0)[0]
                  if h.memory.name == "no-mocks-db"]
        assert set(hit.evidence.shared) == {"test", "pass"} and hit.evidence.pointed
        assert hit.score >= relevance.THRESHOLD  # its words alone would have carried it
        assert mem.recall_result(prompt).memories == ()
    assert [m.name for m in mem.recall_result("make sure the integration tests hit a real database").memories] == [
        "no-mocks-db"]
    assert [m.name for m in mem.recall_result("make sure the tests pass without mocking the database").memories] == [
        "no-mocks-db"]
