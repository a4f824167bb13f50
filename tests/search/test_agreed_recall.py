"""Two kinds of recall error on the recall evaluation's fit half (issue 28, item 2), each fixed in
:mod:`memdir.search.relevance` and so on every path that ranks (:func:`memdir.search.ranking.ranked`: CLI search and
recall, MCP ``memory_search``, the prompt hook):

* a paraphrase whose memory is the one nearest in meaning and shares a core word with it, scored under the
  threshold ("where do compiled wheels end up after a CI run?" → the S3 bucket note, 0.44): meaning and words agreeing
  lower the bar to :data:`~memdir.search.relevance.AGREED_THRESHOLD` (0.4) (:func:`~memdir.search.relevance.bar`),
  for the nearest memory and those tied with it (within :data:`~memdir.search.relevance.TIE`, recall13);
* a chat question read as its keywords ("what changed?", "what is docker?") made every memory holding that word
  anywhere complete (0.98–0.999): a question's keywords complete only a memory standing out of the store's noise
  floor in meaning (its cosine :data:`~memdir.search.relevance.ASKED_GAP` above the query's median).
"""

from __future__ import annotations

import json

import pytest

from memdir import Memory
from memdir.search import ranking, relevance
from memdir.search.relevance import (
    AGREED_THRESHOLD,
    ASKED_GAP,
    THRESHOLD,
    Evidence,
    agreed,
    bar,
    with_cosine,
)

from .densestub import dense_as
from .evalstore import cli_recaller, needs_vectors, warm_eval_store


def _ev(**kw) -> Evidence:
    base = dict(coverage=0.42, head=0.0, mass=1.2, cosine=0.862, matched=("wheel", "ci"), shared=("wheel", "ci"),
                lead=0.001, gap=0.079)
    base.update(kw)
    return Evidence(**base)


def test_the_nearest_memory_sharing_the_prompts_words_has_the_lower_bar():
    assert agreed(_ev()) and bar(_ev()) == AGREED_THRESHOLD == 0.4  # 0.3 before: under it sat memories agreed, unneeded
    assert bar(_ev(lead=-relevance.TIE)) == THRESHOLD  # another memory is nearer by more than a tie: the usual bar
    assert bar(_ev(lead=-0.001)) == bar(_ev(lead=0.0)) == AGREED_THRESHOLD  # tied with the nearest (recall13)
    assert bar(_ev(coverage=0.1)) == THRESHOLD  # too little of the prompt's words
    assert bar(_ev(shared=())) == THRESHOLD  # generic words only
    assert bar(_ev(cosine=None, lead=0.0)) == THRESHOLD  # no vector: the words alone decide
    assert bar(_ev(), min_score=0.0) == 0.0 and bar(_ev(), min_score=0.7) == 0.7  # a caller's own bar stands


def test_a_memory_is_returned_at_its_bar_or_sharing_a_word_with_an_explicit_search():
    assert relevance.returned(_ev(), 0.4) and not relevance.returned(_ev(lead=-0.02), 0.4)  # the agreed bar, a control
    assert not relevance.returned(_ev(), 0.39)  # 0.386: "commit my changes to the parser", the docker env note
    assert relevance.returned(_ev(lead=-0.02), 0.5)  # the usual bar reached
    assert relevance.returned(_ev(lead=-0.02), 0.04, explicit=True)  # a typed search lists it at its low score
    assert not relevance.returned(_ev(lead=-0.02, shared=()), 0.04, explicit=True)  # no content word shared
    assert not relevance.returned(_ev(lead=-0.02), 0.04)  # recall: not at the bar, not returned


def test_a_questions_keywords_complete_only_a_memory_standing_out_in_meaning():
    whole = Evidence(coverage=1.0, head=0.0, mass=1.0, cosine=None, matched=("chang",), complete=1.0, query=1.0)
    top = (0.9, 0.85)
    assert with_cosine(whole, 0.80, 0.80 - ASKED_GAP / 2, top, asked=True).complete == 0.0  # in the crowd
    assert with_cosine(whole, 0.80, 0.80 - ASKED_GAP, top, asked=True).complete == 1.0  # stands out
    assert with_cosine(whole, 0.80, 0.80 - ASKED_GAP / 2, top).complete == 1.0  # not asked (keywords, a search)
    assert with_cosine(whole, None, asked=True).complete == 1.0  # no vector: the words alone


NOTES = [
    ("s3-bucket", "Build artifacts bucket", "CI uploads wheels and sdists to s3://acme-build-artifacts/ after a run."),
    ("ci-runner", "CI runner", "Jobs run on the self-hosted runner ci-box-2; restart it with systemctl."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
    ("staging", "Staging", "Staging lives at staging.internal.example; deploy with make deploy-staging."),
]


def _store(isolated_home, project):
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in NOTES:
        mem.write(name, description, "project", body)
    return mem


def _cosines(monkeypatch, mem, table: dict[str, float]) -> None:
    """The dense side as ``table`` (memory name → cosine; the rest 0.80): the words are read for real."""
    dense_as(monkeypatch, mem, table, rest=0.80)


def test_recall_takes_the_nearest_memory_sharing_words_and_not_a_farther_one(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project)
    prompt = "where do compiled wheels end up after a CI run?"
    _cosines(monkeypatch, mem, {"s3-bucket": 0.82, "ci-runner": 0.819, "pr-size": 0.815, "staging": 0.815})
    (hit,) = [h for h in ranking.ranked(mem.session, prompt, pool=12, min_score=0.0)[0] if h.memory.name == "s3-bucket"]
    assert AGREED_THRESHOLD <= hit.score < THRESHOLD  # under the usual bar: taken because meaning and words agree
    # ci-runner shares "CI", tied with it in meaning, but scores 0.23: under even the agreed bar
    assert [m.name for m in mem.recall_result(prompt).memories] == ["s3-bucket"]
    _cosines(monkeypatch, mem, {"s3-bucket": 0.819, "ci-runner": 0.835, "pr-size": 0.815, "staging": 0.815})
    assert "s3-bucket" not in [m.name for m in mem.recall_result(prompt).memories]  # control: another is nearer
    _cosines(monkeypatch, mem, {"s3-bucket": 0.819, "ci-runner": 0.82, "pr-size": 0.815, "staging": 0.815})
    assert "s3-bucket" in [m.name for m in mem.recall_result(prompt).memories]  # tied with the nearest (recall13)


def test_a_chat_question_recalls_nothing_and_a_topic_question_its_memory(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project)
    _cosines(monkeypatch, mem, {"pr-size": 0.81, "staging": 0.80})  # "changed" in passing: in the crowd
    assert [m.name for m in mem.recall_result("what changed?").memories] == []
    _cosines(monkeypatch, mem, {"staging": 0.86})  # the staging note stands out for "where's staging?"
    assert [m.name for m in mem.recall_result("where's staging?").memories] == ["staging"]
    _cosines(monkeypatch, mem, {"pr-size": 0.81, "staging": 0.80})
    assert [h.name for h in mem.search("changed")][:1] == ["pr-size"]  # a typed search keeps its word's memory


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_on_the_eval_store(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, on the recall evaluation's store (its memories/ and
    the real memory files beside them, embedded): chat questions recall nothing (each recalled 1–3 memories before:
    every note holding "next", "fail", "fix" or "put" anywhere, at 0.98–0.999), topic questions their memory, and a
    fit-half paraphrase the nearest memory sharing its words (0.44 before: nothing). A store of a few notes has no
    noise floor to stand out of: there "what changed?" still finds the one note about changed lines."""
    recalled = cli_recaller(tmp_path)

    assert recalled("where's staging?")[:1] == ["staging-deploy"]  # controls
    assert "merge-freeze" in recalled("when is the merge freeze?")
    assert "s3-bucket" in recalled("where do compiled wheels end up after a CI run?")
    for prompt in ("what's next?", "why did that fail?", "how do I fix it?", "where did you put it?"):
        assert (prompt, recalled(prompt)) == (prompt, [])


@pytest.mark.slow
@needs_vectors
def test_the_prompt_hook_with_a_warm_process_on_the_eval_store():
    """The prompt hook in a fresh process, its cosines from the standalone warm process (no MCP server running), on
    the recall evaluation's store: the same three kinds as the CLI's recall."""
    from ..conftest import run_prompt_hook

    with warm_eval_store("ag") as (_home, project, env):
        def block(prompt: str, session: str) -> str:
            out = run_prompt_hook(project, prompt, env, session=session)
            return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""

        assert "## staging-deploy " in block("where's staging?", "a")  # control
        assert "## s3-bucket " in block("where do compiled wheels end up after a CI run?", "b")
        assert block("what's next?", "c") == "" and block("how do I fix it?", "d") == ""
