"""A long prompt of which a memory holds only a thin share of the words is not that memory's (neg11: long near-topic
prompts and general coding tasks recalled notes sharing one word with them, "the kafka consumer group keeps
rebalancing…" and the note on pull-request size sharing "keep"). :func:`memdir.search.relevance.thin` tells it;
:func:`memdir.search.relevance.bar` decides for search, MCP and recall alike."""

from __future__ import annotations

import math

import pytest

from memdir.search import ranking, relevance
from memdir.search.relevance import Evidence

from .densestub import dense_as, notes_store
from .evalstore import cli_recaller, needs_vectors

KAFKA = ("the kafka consumer group keeps rebalancing every couple of minutes, max.poll.interval.ms is the default, "
         "what should I look at first")
HANDLER = ("here's the handler:\n```python\n@app.post('/hooks/stripe')\ndef stripe_hook(req):\n"
           "    event = json.loads(req.body)\n    process_refund(event)  # takes ~30s\n    return 200\n```\n"
           "make it handle charge.refunded events too")


def _ev(**kw) -> Evidence:
    # KAFKA and the note on pull-request size in the evaluation's store (evals/recall/neg.py's dump)
    base = dict(coverage=0.055, head=0.055, mass=1.55, cosine=0.852, matched=("keep",), gap=0.038, lead=0.007,
                missing=4.18, query=4.23, shared=("keep",))
    base.update(kw)
    return Evidence(**base)


def test_a_thin_share_of_a_long_query_is_never_returned_at_the_threshold():
    thin = _ev()
    assert relevance.score(thin) >= relevance.THRESHOLD  # what the models alone gave it
    assert relevance.thin(thin) and relevance.bar(thin) == math.inf
    assert not relevance.thin(_ev(query=3.5, missing=3.45))  # a shorter prompt: not thin (relevance.crowded may be)
    assert relevance.bar(_ev(coverage=0.3, head=0.3)) == relevance.AGREED_THRESHOLD  # a larger share: as before
    assert relevance.bar(thin, min_score=0.2) == 0.2  # a caller asking for its own bar gets it
    other_script = _ev(coverage=0.0, head=0.0, mass=0.0, matched=(), shared=(), kin=(0.03, 0.01))
    assert not relevance.thin(other_script)  # another script, no word shared: words cannot be held there
    assert relevance.thin(_ev(kin=(0.03, 0.01)))  # another script sharing a word: they can
    stating = _ev(held=1.0)  # a question after a pasted log: it holds all the store knows of the prompt
    assert not relevance.thin(stating) and relevance.bar(stating) == relevance.THRESHOLD
    several = _ev(shared=("handler", "hook", "stripe", "event"), matched=("handler", "hook", "stripe", "event"))
    assert not relevance.thin(several) and relevance.bar(several) == relevance.THRESHOLD  # four of its words: not thin


NOTES = [
    ("pr-size", "Keep pull requests under about 400 changed lines",
     "Split large changes into stacked pull requests of at most ~400 lines each. Reviewers stopped reading past "
     "that and bugs slipped through."),
    ("payment-webhooks", "Stripe payment webhooks arrive at /hooks/stripe and are handled in billing/webhooks.py",
     "The handler verifies the Stripe signature first, then enqueues the event; it must answer within 10 seconds or "
     "Stripe retries. Events are idempotent by event id (table processed_events)."),
    ("pg-port", "Dev PostgreSQL listens on port 5433", "The local dev database runs in docker compose on port 5433."),
    ("staging-deploy", "Staging deploys with make deploy-staging", "Run make deploy-staging from the ops repo."),
]


def test_the_note_sharing_one_word_with_a_long_prompt_is_not_recalled_the_one_holding_it_is(
        isolated_home, project, monkeypatch):
    mem = notes_store(isolated_home, project, NOTES)
    dense_as(monkeypatch, mem, {"pr-size": 0.87, "payment-webhooks": 0.86, "pg-port": 0.81, "staging-deploy": 0.80})
    hits, _terms, _scope = ranking.ranked(mem.session, KAFKA, pool=50, min_score=0.0)
    pr = next(h for h in hits if h.memory.name == "pr-size")
    assert pr.evidence.query >= relevance.LONG_QUERY and pr.evidence.coverage <= relevance.THIN_COVERAGE
    assert relevance.score(pr.evidence) >= relevance.THRESHOLD  # nearest in meaning: the models alone returned it
    assert [m.name for m in mem.recall_result(KAFKA).memories] == []
    assert [h.name for h in mem.search(KAFKA, min_score=relevance.THRESHOLD)] == []
    # the control: a long prompt holding six of the note's words (route, Stripe, handler, events) recalls it, though
    # in this small store they are under THIN_COVERAGE of the prompt's weight
    assert [m.name for m in mem.recall_result(HANDLER).memories] == ["payment-webhooks"]


@pytest.mark.slow
@needs_vectors
def test_real_vectors_cli_recall_of_long_near_topic_prompts_on_the_eval_store(tmp_path):
    """``memdir recall`` in a fresh process, the real embedder, the recall evaluation's store and fit prompts of
    ``probe.jsonl``: two long prompts needing no memory recall nothing, and a long task pasting the Stripe handler
    recalls the note on payment webhooks (control)."""
    recalled = cli_recaller(tmp_path)

    assert recalled(KAFKA) == []
    assert recalled("write a small python CLI with argparse that takes a csv path and prints the average of every "
                    "numeric column") == []
    assert "payment-webhooks" in recalled(HANDLER)
