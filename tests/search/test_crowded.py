"""A long prompt of which a memory of its own script holds a thin share, with meaning not lifting that memory out of
the crowd, is not that memory's (false36: "write a SQL query that returns the top 5 customers by revenue…" recalled
the note on committing in multi-session work, sharing "5"; "hey so the react build takes like 4 minutes now…" two
notes at gap 0.036-0.038). :func:`memdir.search.relevance.crowded` tells it; :func:`memdir.search.relevance.bar`
decides for search, MCP and recall alike."""

from __future__ import annotations

import math

import pytest

from memdir.search import ranking, relevance
from memdir.search.relevance import Evidence

from .densestub import dense_as, notes_store
from .evalstore import cli_recaller, needs_vectors

SQL = "write a SQL query that returns the top 5 customers by revenue for each month of the last year"
REACT = ("hey so the react build takes like 4 minutes now, webpack 5, how can I profile which loader is the slow "
         "one")
SLUGGISH = "the api feels sluggish since tuesday, find out which endpoints got slower"
AGENT = "the build agent seems offline and jobs are queued forever, how do I bring it back?"


def _ev(**kw) -> Evidence:
    # SQL and the note on committing in multi-session work in the evaluation's store (evals/recall/neg.py's dump)
    base = {"coverage": 0.106, "head": 0.0, "mass": 1.834, "cosine": 0.844, "matched": ("write", "5"), "gap": 0.040,
            "lead": 0.006, "missing": 3.818, "query": 3.927, "shared": ("5",), "near": 0.106}
    base.update(kw)
    return Evidence(**base)


def test_a_thin_share_of_a_long_prompt_left_in_the_crowd_is_never_returned_at_the_threshold():
    crowded = _ev()
    assert relevance.score(crowded) >= relevance.THRESHOLD  # what the models alone gave it (0.61)
    assert relevance.crowded(crowded) and relevance.bar(crowded) == math.inf
    assert relevance.bar(crowded, min_score=0.2) == 0.2  # a caller asking for its own bar gets it
    # "the api feels sluggish since tuesday…" and the Grafana dashboard note it needs: the nearest by 0.013
    nearest = _ev(coverage=0.064, head=0.064, mass=1.346, cosine=0.852, gap=0.036, lead=0.013, query=3.82,
                  missing=3.756, matched=("api",), shared=("api",))
    assert not relevance.crowded(nearest) and relevance.bar(nearest) == relevance.THRESHOLD
    assert relevance.score(nearest) >= relevance.THRESHOLD
    assert not relevance.crowded(_ev(gap=0.05))  # standing out of the crowd
    assert not relevance.crowded(_ev(query=3.4, missing=3.3))  # a shorter prompt: the models decide
    assert not relevance.crowded(_ev(coverage=0.3))  # a larger share
    assert not relevance.crowded(_ev(kin=(0.03, 0.02)))  # another script: the language lowers its gap
    assert not relevance.crowded(_ev(held=1.0))  # stating the query in one place
    assert not relevance.crowded(_ev(stand_in=True))  # its head names a concept of the prompt: a word held
    assert not relevance.crowded(_ev(shared=("handler", "hook", "stripe", "event")))  # four of its words
    assert relevance.crowded(_ev(shared=("build", "slow", "4", "5")))  # two words and two numbers: thin
    assert not relevance.crowded(_ev(cosine=None))  # no vector: words alone


NOTES = [
    ("commit-scope", "Commit only your own files when several agents share the working tree",
     ("Several sessions edit this repository at once. Stage the paths you changed yourself, never git add -A; "
      "check git status before each commit. Three of the last 5 incidents were commits of another session's files.")),
    ("pr-size", "Keep pull requests under about 400 changed lines",
     "Split large changes into stacked pull requests of at most ~400 lines each."),
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
    ("staging-deploy", "Staging deploys with make deploy-staging", "Run make deploy-staging from the ops repo."),
    ("revenue-report", "The monthly revenue report reads the billing replica",
     "Revenue per customer and month comes from billing.invoices on the read replica, never from production."),
]


def test_the_crowded_note_is_not_recalled_the_one_standing_out_is(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    rest = {"pg-port": 0.80, "staging-deploy": 0.80, "revenue-report": 0.80}
    cosines = dense_as(monkeypatch, mem, {"commit-scope": 0.844, "pr-size": 0.838, **rest})
    hits, _terms, _scope = ranking.ranked(mem.session, SQL, pool=50, min_score=0.0)
    commit = next(h for h in hits if h.memory.name == "commit-scope")
    ev = commit.evidence
    assert ev.query >= relevance.CROWDED_QUERY and ev.coverage <= relevance.THIN_COVERAGE
    assert ev.gap < relevance.CROWDED_GAP and ev.lead < relevance.CROWDED_LEAD and relevance.crowded(ev)
    assert relevance.score(ev) >= relevance.THRESHOLD  # the models alone returned it
    assert [m.name for m in mem.recall_result(SQL).memories] == []
    assert [h.name for h in mem.search(SQL, min_score=relevance.THRESHOLD)] == []
    # the control, same store and prompt: the note on the revenue report, nearest in meaning by far and holding the
    # prompt's words, is recalled
    cosines[cosines.ids["revenue-report"]] = 0.89
    assert [m.name for m in mem.recall_result(SQL).memories] == ["revenue-report"]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_of_crowded_long_prompts_on_the_eval_store(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, the recall evaluation's store and fit prompts of
    ``probe.jsonl`` and ``prompts.jsonl``: two long prompts needing no memory recall nothing; a long task the Grafana
    note bears on (the nearest memory by 0.013, sharing one word) recalls it, and a long question on the "build
    agent" the note on the CI runner, whose head names that concept (:attr:`Evidence.stand_in`; coverage 0.16, gap
    0.015) (controls)."""
    recalled = cli_recaller(tmp_path)

    assert recalled(SQL) == []
    assert recalled(REACT) == []
    assert "grafana-dash" in recalled(SLUGGISH)
    assert "ci-runner" in recalled(AGENT)


RUNNER = ("ci-runner", "CI runs on a self-hosted GitHub Actions runner (ci-box-2)",
          ("All workflows use runs-on: [self-hosted, linux, ci-box-2]. If ci-box-2 is down, restart the actions.runner "
           "systemd unit on it; never switch a job back to ubuntu-latest."))


def test_a_note_whose_head_names_the_prompts_concept_is_not_crowded_out(isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, [*NOTES, RUNNER])
    dense_as(monkeypatch, mem, {"ci-runner": 0.824, "commit-scope": 0.835, "pr-size": 0.83, "pg-port": 0.80,
                                "staging-deploy": 0.80, "revenue-report": 0.80})
    hits, _terms, _scope = ranking.ranked(mem.session, AGENT, pool=50, min_score=0.0)
    runner = next(h for h in hits if h.memory.name == "ci-runner").evidence
    assert runner.query >= relevance.CROWDED_QUERY and runner.coverage <= relevance.THIN_COVERAGE
    assert runner.gap < relevance.CROWDED_GAP and runner.lead < 0.0
    assert relevance.crowded(runner)  # read on its words alone (ranking all: no stand-in met), it would be crowded out
    recalled = mem.recall_result(AGENT).memories
    assert [m.name for m in recalled] == ["ci-runner"]  # "build agent" met by the runner its head names
    # the must-not beside it: the note nearest in meaning, holding "job" alone of the prompt, crowded out
    commit = next(h for h in hits if h.memory.name == "commit-scope").evidence
    assert relevance.crowded(commit)
