"""A prompt naming a concept by one word meets a memory whose head names it by another (issue 28 item 2; the rule:
:mod:`memdir.search.concepts`, the lexicon: :mod:`memdir.search.lexicon`).

"when does the cron job run?" beside a memory titled "The nightly batch job runs at 02:00 UTC" scored 0.22 on words
alone: "cron" is no word of the memory. A cron job and a nightly batch job are one concept of the lexicon, so the
memory is scored also as if its head held "cron" (head coverage too: "push changes live to production" beside a
memory titled "Deploys go out on Fridays only") and is recalled. A memory that mentions the concept only in its body (a
word met in passing) is not lifted; a prompt naming no concept of the memory's head changes nothing. Real SQLite and
memory files, words alone."""

from __future__ import annotations

import pytest

from memdir import Memory
from memdir.search import concepts
from memdir.search.conceptterms import FORMS
from memdir.search.tokenize import query_terms


@pytest.fixture
def store(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    mem.write("nightly", "The nightly batch job runs at 02:00 UTC", "project",
              "It rebuilds the sales report; failures page the data team.")
    mem.write("sales-report", "The sales report lives in Metabase", "project",
              "Its numbers come from the nightly batch job; ask the data team for access.")
    mem.write("pg-port", "Dev PostgreSQL listens on 5433", "project", "Not the default 5432: set PGPORT=5433.")
    return mem


def recalled(mem, prompt):
    return [m.name for m in mem.recall_result(prompt).memories]


def test_a_concept_named_otherwise_in_the_memory_head_is_recalled(store):
    assert recalled(store, "when does the cron job run?") == ["nightly"]
    assert recalled(store, "when does the scheduled job run?") == ["nightly"]
    # control in the same store: the memory's own words recall it, and another memory's words recall that one
    assert recalled(store, "when does the nightly batch job run?")[0] == "nightly"
    assert recalled(store, "which port does the dev postgres listen on?") == ["pg-port"]


def test_a_concept_met_only_in_a_body_lifts_nothing():
    # "sales-report" holds "nightly batch job" in its body only: no stand-in for it; "nightly" holds it in its head
    terms = query_terms("when does the cron job run?")
    wanted = concepts.asked(terms)
    assert "cron" in wanted
    assert concepts.stand_ins(wanted, set(query_terms("The sales report lives in Metabase"))) == set()
    assert concepts.stand_ins(wanted, set(query_terms("The nightly batch job runs at 02:00 UTC"))) == {"cron"}


def test_met_reads_only_heads_holding_a_whole_form():
    # met skips a head holding no word of any form; one holding a word of a form but not all of it is read and meets
    # nothing ("batch" without "job"); the control holding a whole form ("batch job") meets "cron" at its weight
    from memdir.search import weighing

    terms = query_terms("when does the cron job run?")
    counts = dict.fromkeys(terms, 1)
    heads = {1: tuple(query_terms("nightly batch job runs at 02:00")), 2: tuple(query_terms("batch size for uploads")),
             3: tuple(query_terms("The sales report lives in Metabase"))}
    weight = weighing.term_weights(terms, counts, 10)["cron"]
    assert weight > 0
    assert concepts.met(heads, terms, counts, 10) == {1: {"cron": weight}}


def test_a_word_the_memory_holds_is_not_counted_twice(store):
    import math

    from memdir.search.ranking import ranked

    hits, _terms, _scope = ranked(store.session, "when does the cron job run?", pool=50, min_score=0.0)
    ev = next(h.evidence for h in hits if h.memory.name == "nightly")
    assert "job" in ev.matched and "cron" not in ev.matched
    less = concepts.lifted(ev, {"job": 5.0})  # "job" is matched already: only the head's share moves
    assert (less.coverage, less.mass, less.missing) == (ev.coverage, ev.mass, ev.missing)
    more = concepts.lifted(ev, {"cron": 5.0})  # control: the stand-in raises its share and matched weight
    assert more.coverage > ev.coverage and more.mass > ev.mass and more.missing < ev.missing
    assert more.head == pytest.approx(min(1.0, ev.head + 5.0 / math.expm1(ev.query)))
    assert (more.matched, more.held, more.complete) == (ev.matched, ev.held, ev.complete)
    assert concepts.lifted(ev, {}) is ev


DEPLOYS = [("deploy-day", "Deploys go out on Fridays only",
            "Deploys to production go out on Fridays only, after the release review."),
           ("flags", "Feature flags live in LaunchDarkly", "Every unfinished screen ships dark; the flag key is the ticket id."),
           ("pg-port", "Dev PostgreSQL listens on 5433", "Not the default 5432: set PGPORT=5433.")]


def test_a_stand_in_counts_in_the_head_it_is_met_in(isolated_home, project, monkeypatch):
    # "push live" is a form of deploy, which the memory's title says: its head is scored as holding "push" and "live"
    # (its head held none of the prompt's words): 0.04 on its own words, 0.67 so
    from memdir.search import relevance
    from memdir.search.ranking import ranked

    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project, actor="human", search_vectors="off")
    for name, description, body in DEPLOYS:
        mem.write(name, description, "project", body)
    prompt = "when am I allowed to push changes live to production?"
    result = mem.recall_result(prompt).memories
    assert [m.name for m in result] == ["deploy-day"] and result[0].score == pytest.approx(0.67, abs=0.005)
    hits, terms, _scope = ranked(mem.session, prompt, pool=50, min_score=0.0)
    ev = next(h.evidence for h in hits if h.memory.name == "deploy-day")
    assert ev.head == 0.0 and relevance.score(ev) == pytest.approx(0.037, abs=0.001)
    assert concepts.stand_ins(concepts.asked(terms), set(query_terms(DEPLOYS[0][1]))) == {"push", "live"}
    # control in the same store: another concept met in another head, and a prompt naming none recalls nothing
    assert recalled(mem, "put the new screen behind a kill switch") == ["flags"]
    assert recalled(mem, "which port does the dev postgres listen on?") == ["pg-port"]
    assert recalled(mem, "what's the weather like today?") == []
    # and the head's share is what recalls it: with only coverage and matched weight raised, nothing is recalled
    real = concepts.lifted
    monkeypatch.setattr(concepts, "lifted", lambda ev, got, **kw: relevance.replaced(real(ev, got, **kw), head=ev.head))
    assert recalled(mem, prompt) == []
    assert recalled(mem, "which port does the dev postgres listen on?") == ["pg-port"]


def test_the_read_lexicon_is_current():
    # conceptterms.py is the lexicon read by today's tokenizer; regenerate it with concepts.write() when this fails
    assert FORMS == concepts.read_forms()
