"""Words alone do not carry a memory that meaning places behind another, and a memory tied in meaning with the nearest
agrees as the nearest does (recall13, issue 28 item 2).

The score of a memory with a vector is the larger of the lexical and the hybrid model; on the recall evaluation's
fit data the lexical model alone returned notes holding a few of a question's words while another note was nearer
in meaning ("how do I read a YAML file in Python?" and the note on Docker env files: "read", "yaml", "file",
lexical 0.52, lead −0.043). :func:`memdir.search.relevance.outranked` tells it and
:func:`memdir.search.relevance.bar` decides, for search, MCP and recall alike. And a task prompt's memory sitting
0.006 behind the nearest ("upload the build output somewhere the release job can pick it up": the note on release
tags, then the S3 bucket note it needs) is tied with it (:data:`memdir.search.relevance.TIE`): sharing its words, it
has the agreed bar (:func:`memdir.search.relevance.agreed`; the API's cases in test_agreed_recall.py)."""

from __future__ import annotations

import json
import math

import pytest

from memdir.search import relevance
from memdir.search.relevance import THRESHOLD, Evidence

from .densestub import dense_as, notes_store
from .evalstore import cli_recaller, needs_vectors, warm_eval_store


def _ev(**kw) -> Evidence:
    # "how do I read a YAML file in Python?" and the note on Docker env files in the evaluation's store
    # (evals/recall/neg.py's dump of the fit data)
    base = dict(coverage=0.768, head=0.245, mass=2.424, cosine=0.794, matched=("read", "yaml", "file"), gap=0.009,
                lead=-0.043, missing=1.414, query=2.667, shared=("read", "yaml", "file"), near=0.523, span=2,
                held=0.523, general=True)
    base.update(kw)
    return Evidence(**base)


def test_a_memory_only_the_words_carry_while_another_is_nearer_in_meaning_is_not_returned():
    carried = _ev()
    assert relevance.lexical(carried) >= THRESHOLD and relevance.score(carried) == relevance.lexical(carried)
    assert relevance.outranked(carried) and relevance.bar(carried) == math.inf
    assert relevance.bar(carried, min_score=0.2) == 0.2  # a caller asking for its own bar gets it
    assert relevance.returned(carried, relevance.score(carried), explicit=True)  # a typed search still lists it
    nearest = _ev(lead=0.02)  # the control: the nearest in meaning, the same words
    assert not relevance.outranked(nearest) and relevance.returned(nearest, relevance.score(nearest))
    assert not relevance.outranked(_ev(lead=0.0))  # no other memory to be nearer (a store of one): lead 0
    assert not relevance.outranked(_ev(cosine=None, lead=0.0, gap=0.0))  # no vector: the words alone decide
    assert not relevance.outranked(_ev(held=1.0))  # stating the query in one place: an exact match stands
    # another script: nearest among its own script's memories is nearest (the language lowers all its cosines)
    assert not relevance.outranked(_ev(kin=(0.03, 0.01)))
    assert relevance.outranked(_ev(kin=(0.0, -0.01)))


NOTES = [
    ("ci-runner", "CI runs on GitHub Actions with the self-hosted runner ci-box-2",
     "Every GitHub Actions job runs on the self-hosted runner ci-box-2; restart it with systemctl restart gh-runner."),
    ("ops-log", "Ops log: what the platform team did each week",
     "Week 12: the docs build job moved to the nightly batch; the wiki page on it is stale."),
    ("pr-size", "Keep pull requests small", "Under 400 changed lines; split refactors from behaviour changes."),
    ("staging", "Staging", "Staging lives at staging.internal.example; deploy with make deploy-staging."),
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
]
PROMPT = "add a GitHub Actions job that builds the docs"


def test_recall_and_search_leave_out_the_note_the_words_alone_carry(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    assert [m.name for m in mem.recall_result(PROMPT).memories] == ["ci-runner", "ops-log"]  # vectors off: words
    dense_as(monkeypatch, mem, {"ci-runner": 0.85, "ops-log": 0.83, "pr-size": 0.81}, rest=0.80)
    assert [m.name for m in mem.recall_result(PROMPT).memories] == ["ci-runner"]  # ops-log: lexical 0.61, lead −0.02
    assert [h.name for h in mem.search(PROMPT, min_score=THRESHOLD)] == ["ci-runner"]
    dense_as(monkeypatch, mem, {"ci-runner": 0.85, "ops-log": 0.845, "pr-size": 0.81}, rest=0.80)
    assert [m.name for m in mem.recall_result(PROMPT).memories] == ["ci-runner", "ops-log"]  # a close second: kept


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_on_the_eval_store(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, the recall evaluation's store and fit prompts: two
    general questions recall nothing (each recalled the note on Docker env files before) and two task prompts only
    the note they need (ops-log and pg-port came beside it before); two prompts whose memory is tied with the nearest
    recall it (nothing or only the nearest before)."""
    recalled = cli_recaller(tmp_path)

    assert recalled("how do I read a YAML file in Python?") == []
    assert recalled("how do I parse a JSON lines file in Python?") == []
    assert recalled(PROMPT) == ["ci-runner"]  # controls
    assert recalled("run the integration tests against MySQL on my laptop") == ["zh-test-db", "no-mocks-db"]
    assert recalled("upload the build output somewhere the release job can pick it up") == ["release-tagging",
                                                                                               "s3-bucket"]
    assert recalled("has the platform team written anything about consumers falling behind on the message "
                    "queue?") == ["ops-log"]


@pytest.mark.slow
@needs_vectors
def test_the_prompt_hook_with_a_warm_process_on_the_eval_store():
    """The prompt hook in a fresh process, its cosines from the standalone warm process, on the same store."""
    from ..conftest import run_prompt_hook

    with warm_eval_store("out") as (_home, project, env):
        def block(prompt: str, session: str) -> str:
            out = run_prompt_hook(project, prompt, env, session=session)
            return json.loads(out)["hookSpecificOutput"]["additionalContext"] if out.strip() else ""

        assert block("how do I read a YAML file in Python?", "a") == ""
        shown = block(PROMPT, "b")
        assert "## ci-runner " in shown and "## ops-log " not in shown  # the control and the note left out
        assert "## s3-bucket " in block("upload the build output somewhere the release job can pick it up", "c")
