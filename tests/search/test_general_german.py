"""A German question reads as an English one does: its function words (wie, ich, auf, ist, …) are no words of it,
and its question words (wie, wo, wann, was, …) make a question around a few words ask for them
(:data:`memdir.text.words.FUNCTION_WORDS`, :data:`~memdir.text.words.QUESTION_WORDS`). Before, "Wie deploye ich
auf Staging?" counted wie, ich and auf as content words the note on staging deploys lacks: its words alone stayed
under the threshold, so the general-question rule (:mod:`memdir.search.general`) hid the project's own answer from
recall, where "how do I deploy to staging?" found it (break10)."""

from __future__ import annotations

import json

import pytest

from memdir.search import relevance, weighing
from memdir.search.tokenize import query_terms

from tests.conftest import run_cli

from .evalstore import needs_vectors
from .surfaces import cli_search, hook_block, block_names, mcp_search
from .test_general_questions import _store


def test_german_function_words_are_no_words_of_a_query_and_english_words_spelled_alike_are():
    assert query_terms("Wie deploye ich auf Staging?") == query_terms("how do I deploy to staging?") == ["deploy",
                                                                                                        "stage"]
    assert query_terms("wie deploye ich?") == ["deploy"]
    # die, dies, dir, du, mit: English words (and a command) as well, kept
    assert query_terms("why do the workers die") == ["worker", "die"]
    assert query_terms("du -sh on the dir") == ["du", "sh", "dir"]
    assert "mit" in query_terms("is it MIT licensed")


@pytest.mark.parametrize("german, english", [("Was ist uv?", "what is uv?"), ("Wo ist Staging?", "where is staging?"),
                                             ("Wann ist Code Freeze?", "when is code freeze?")])
def test_a_german_question_around_a_few_words_asks_for_them_as_the_english_one_does(german, english):
    from memdir.search.tokenize import query_tokens

    assert weighing.reads_as_request(query_tokens(german)) is weighing.reads_as_request(query_tokens(english)) is True
    assert weighing.reads_as_request(query_tokens("Staging ist kaputt")) is None  # control: no question word


@pytest.mark.parametrize("question", ["Wie deploye ich auf Staging?", "wie deploye ich nach Staging?",
                                      "how do I deploy to staging?"])
def test_a_general_german_question_finds_the_note_stating_it_as_the_english_one_does(isolated_home, project,
                                                                                     monkeypatch, question):
    mem = _store(isolated_home, project, monkeypatch)
    assert [m.name for m in mem.recall_result(question).memories] == ["staging-deploy"]
    assert [h.name for h in mem.search(question, min_score=relevance.THRESHOLD)] == ["staging-deploy"]


def test_a_general_german_question_on_a_tool_a_note_names_still_recalls_nothing(isolated_home, project,
                                                                                 monkeypatch):
    mem = _store(isolated_home, project, monkeypatch)
    general = "Wie schneide ich ein Bild mit Pillow quadratisch zu?"
    assert mem.recall_result(general).memories == ()
    assert mem.search(general, min_score=relevance.THRESHOLD) == []
    particular = "how do I stop the image worker from dying on huge PNGs?"  # control: the same store recalls
    assert [m.name for m in mem.recall_result(particular).memories] == ["oom-worker"]


NOTES = [
    ("deploy-process", "How we deploy: merge to main, then run make deploy-prod from the bastion",
     "Deploys go through the bastion host. Run make deploy-prod after the CI pipeline is green. "
     "Staging deploys happen on every merge."),
    ("db-port", "Dev Postgres database listens on port 5433, not 5432",
     "docker compose maps postgres to 5433 on the host to avoid clashing with a local install."),
    ("log-format", "Use structured JSON logging via structlog, never print()", "All services log with structlog."),
]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_mcp_and_the_prompt_hook_answer_a_german_how_to(isolated_home, project):
    from memdir import Memory

    mem = Memory.open(home=isolated_home, project=project, actor="human")
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)
    env = {"MEMDIR_HOME": str(isolated_home), "MEMDIR_PROJECT": str(project)}
    assert run_cli("reindex", env=env).returncode == 0  # the vectors, as the background embedder would
    assert block_names(hook_block(project, env, "Was ist structlog?", session="w")) == ["log-format"]
    for question in ("wie deploye ich?", "Wie deploye ich auf Staging?"):
        assert [n for n, s in cli_search(env, question) if s >= relevance.THRESHOLD] == ["deploy-process"], question
        assert block_names(hook_block(project, env, question, session=question)) == ["deploy-process"], question
    (text,) = mcp_search(isolated_home, project, "wie deploye ich?")
    assert "- deploy-process " in text and "- db-port " not in text
    control = "Wie sortiere ich eine Liste in Python absteigend?"  # general, no note's words: nothing
    assert hook_block(project, env, control, session="c") == ""
    assert json.loads(json.dumps(cli_search(env, control))) == []
