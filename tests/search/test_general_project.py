"""A project question asked in general form ("how do I report a pipeline bug?": no article, nothing pointing at the
project) is still the project's when the memory holds most of its words: the general-question rule
(:mod:`memdir.search.general`, :func:`memdir.search.relevance.bar`) leaves a memory holding
:data:`~memdir.search.relevance.GENERAL_COVERAGE` of the query's weight to meaning, where a question on a tool a
memory names asks what the memory does not hold ("how do I add a watermark to an image with Pillow?") and still
recalls nothing (general9, found by break10: the project's own answers hidden)."""

from __future__ import annotations

import json
import math

import pytest

from memdir.search import ranking, relevance

from tests.conftest import run_cli

from .densestub import nearest_store
from .evalstore import needs_vectors, warm_eval_store
from .surfaces import block_names, hook_block
from .test_general_questions import NOTES, _ev

MORE = NOTES + [
    ("bug-tracker", "Bugs are tracked in Linear project INGEST, not GitHub issues",
     "Pipeline bugs go to the Linear project INGEST. Link the Linear id in the commit message."),
]
PROJECT = "how do I report a pipeline bug?"
GENERAL = "how do I add a watermark to an image with Pillow?"


def test_a_memory_holding_most_of_a_general_questions_weight_is_left_to_meaning():
    assert relevance.GENERAL_COVERAGE == 0.6
    held = _ev(coverage=0.614, head=0.3, near=0.3)  # "how do I report a pipeline bug?" and the bug tracker
    assert relevance.lexical(held) < relevance.THRESHOLD <= relevance.score(held)
    assert relevance.bar(held) == relevance.NEAREST_THRESHOLD  # as for a particular question (nearest, most words held)
    assert relevance.bar(_ev(coverage=0.59, head=0.3, near=0.3)) == math.inf  # just under: words alone decide
    assert relevance.bar(_ev()) == math.inf  # control: "crop … with Pillow" (0.432) still needs its words


def _store(isolated_home, project, monkeypatch, nearest: str):
    """:data:`MORE`, words read for real, ``nearest`` at cosine 0.88 and every other memory at 0.80."""
    return nearest_store(isolated_home, project, monkeypatch, MORE, nearest, 0.88)


def test_the_project_question_is_recalled_and_the_general_one_on_a_named_tool_is_not(isolated_home, project,
                                                                                     monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, "bug-tracker")
    (hit,) = [h for h in ranking.ranked(mem.session, PROJECT, pool=12, min_score=0.0)[0]
              if h.memory.name == "bug-tracker"]
    assert hit.evidence.general and relevance.lexical(hit.evidence) < relevance.THRESHOLD  # hidden before
    assert round(hit.evidence.coverage, 2) == 0.61
    assert [m.name for m in mem.recall_result(PROJECT).memories] == ["bug-tracker"]
    assert [h.name for h in mem.search(PROJECT, min_score=relevance.THRESHOLD)] == ["bug-tracker"]


def test_a_general_question_on_a_tool_a_memory_names_still_recalls_nothing(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch, "oom-worker")
    (hit,) = [h for h in ranking.ranked(mem.session, GENERAL, pool=12, min_score=0.0)[0]
              if h.memory.name == "oom-worker"]
    assert hit.score >= relevance.THRESHOLD and hit.evidence.coverage < relevance.GENERAL_COVERAGE
    assert mem.recall_result(GENERAL).memories == ()
    assert mem.search(GENERAL, min_score=relevance.THRESHOLD) == []
    particular = "how do I stop the image worker from dying on huge PNGs?"  # control: the same store recalls it
    assert [m.name for m in mem.recall_result(particular).memories] == ["oom-worker"]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_the_prompt_hook_and_cli_recall_answer_the_project_question_not_the_general_one():
    """The recall evaluation's store, the real embedder: the prompt hook in a fresh process with its cosines from the
    standalone warm process (no MCP server), and ``memdir recall`` embedding in its own process."""
    with warm_eval_store("gp") as (_home, project, env):
        def recalled(prompt: str) -> list[str]:
            done = run_cli("recall", "--json", "--project", project, prompt, env=env)
            assert done.returncode == 0, done.stderr
            return [m["name"] for m in json.loads(done.stdout)["memories"]]

        assert block_names(hook_block(project, env, PROJECT, session="p")) == ["bug-tracker"]
        assert recalled(PROJECT) == ["bug-tracker"]
        assert hook_block(project, env, GENERAL, session="g") == ""
        assert recalled(GENERAL) == []
