"""An explicit search puts the memory that states the query in one place first; the cosine only breaks ties."""

from __future__ import annotations

from memdir import Memory
from memdir.search import ranking, relevance
from memdir.search.hits import Hit, IndexedMemory
from memdir.search.ranking import _below_by_rank
from memdir.search.ties import lexical_first

FILLER = ("Alice looked at the latency spike for checkout and wrote down what changed. Dashboards for search now "
          "show queue depth, error rate and p99 latency side by side. Bob agreed to repeat the drill next quarter. ")
QUESTION = "What is the port of the staging Redis instance for billing?"


def _store(isolated_home, project, monkeypatch):
    monkeypatch.setenv("MEMDIR_SEARCH_VECTORS", "off")
    mem = Memory.open(home=isolated_home, project=project)
    mem.write("billing-redis-overview", "Billing staging Redis instance overview", "project",
              FILLER + "The staging cluster for billing was resized; Redis memory grew.")
    mem.write("load-test", "Load test of the notifications workers", "project",
              FILLER + "The staging Redis instance for billing listens on port 6391. " + FILLER)
    for i in range(6):
        mem.write(f"other-{i}", f"Notes on the cost review number {i}", "project", FILLER)
    return mem


def _cosines(monkeypatch, mem, nearest: str):
    """Dense cosines as an embedded store would give them: ``nearest`` (a head like the question) far ahead."""
    from memdir.search.sync import sync

    conn = sync(mem.session.home, mem.session.layers(None))
    ids = {name: i for i, name in conn.execute("SELECT id, name FROM docs")}
    assert len(ids) == 8
    table = {i: (0.95 if name == nearest else 0.80) for name, i in ids.items()}
    monkeypatch.setattr(ranking, "_dense", lambda *args, **kwargs: dict(table))


def test_the_sentence_holding_the_question_outranks_a_head_near_it_in_meaning(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch)
    _cosines(monkeypatch, mem, "billing-redis-overview")
    found = mem.search(QUESTION, k=3)
    assert [r.name for r in found][:2] == ["load-test", "billing-redis-overview"]
    assert found[0].score >= found[1].score  # no hit below shows a higher score
    assert found[0].why["cosine"] == 0.8  # the cosine is still reported
    # Recall ranks with the same rule (issue 28 audit, item 2): the memory stating the question first there too.
    hits, _terms, _scopes = ranking.ranked(mem.session, QUESTION, pool=50, min_score=0.0)
    assert [h.memory.name for h in hits][:2] == ["load-test", "billing-redis-overview"]
    assert hits[0].score >= hits[1].score


def test_without_a_memory_stating_the_query_the_cosine_still_ranks(isolated_home, project, monkeypatch):
    mem = _store(isolated_home, project, monkeypatch)
    _cosines(monkeypatch, mem, "other-3")
    # No memory holds "invoices" or "archived": nothing states this query, the calibrated score decides.
    found = mem.search("where are the old invoices archived for the billing team", k=3)
    assert [r.name for r in found][:1] == ["other-3"]


def _hit(name, score, held, cosine=None, near=0.0):
    ev = relevance.Evidence(coverage=1.0, head=0.0, mass=2.0, cosine=cosine, matched=("x",), held=held, near=near,
                            complete=1.0)
    return Hit(IndexedMemory(0, "layer", name, "project", None, "", "", 0, None, 0.0), score, ev)


def test_lexical_first_places_stated_hits_lexically_and_caps_the_rest():
    stated = _hit("stated", 0.97, held=1.0, cosine=0.8, near=1.0)
    head_like = _hit("head-like", 0.999, held=0.6, cosine=0.95)
    out = lexical_first([head_like, stated])
    assert [h.memory.name for h in out] == ["stated", "head-like"]
    assert out[0].rank == relevance.lexical(stated.evidence)  # placed with the cosine left out ...
    assert out[0].score == 0.97  # ... and its score is the calibrated one, as recall shows it
    assert out[1].rank == out[0].rank and out[1].score == 0.999  # placed at most the lowest stated, never above
    # What is shown falls down the list: the hit placed after shows no more than the one before.
    assert [h.score for h in ranking._falling(sorted(out, key=lambda h: -h.order))] == [0.97, 0.97]
    # Control: when no hit states the query, nothing changes.
    assert lexical_first([head_like, _hit("weak", 0.5, held=0.5)]) == [head_like, _hit("weak", 0.5, held=0.5)]


def test_held_is_a_share_of_the_weight_the_store_holds():
    weights = {"staging": 1.0, "redis": 1.0, "hostnam": 4.0}
    body = "the staging redis for billing is reachable at db-12".split()
    known = relevance.evidence(weights, set(), body, set(weights), True, None, present={"staging", "redis"})
    assert known.held == 1.0 and relevance.stated(known)
    assert round(known.near, 3) == round(2 / 6, 3)
    # Control: counted against every query term (hostname included), the sentence holds a third.
    every = relevance.evidence(weights, set(), body, set(weights), True, None)
    assert round(every.held, 3) == round(2 / 6, 3) and not relevance.stated(every)
    # The head holding the words counts as one place too.
    head = relevance.evidence(weights, {"staging", "redis"}, [], set(weights), True, None, present={"staging", "redis"})
    assert head.held == 1.0


def test_below_the_threshold_kept_hits_stay_in_front():
    hits = [_hit("a", 0.2, 1.0, cosine=0.1), _hit("b", 0.1, 0.5, cosine=0.2), _hit("c", 0.05, 0.5, cosine=0.9)]
    assert [h.memory.name for h in _below_by_rank(hits, 1)][:1] == ["a"]
    # Control: not kept, the dense rank is fused in and c (nearest in meaning) passes a.
    assert [h.memory.name for h in _below_by_rank(hits)].index("c") < 2


def test_a_hit_lowered_under_its_bar_is_dropped_and_only_lowered_hits_are_asked_again(monkeypatch):
    first = relevance.replaced(_hit("first", 0.45, held=1.0), rank=0.9)  # placed first by its lexical rank
    first = relevance.replaced(first, evidence=relevance.replaced(first.evidence, shared=("x",)))
    lowered = _hit("lowered", 0.8, held=0.5)  # shares no content word: returned by its score alone
    shares = relevance.replaced(_hit("shares", 0.6, held=0.5), evidence=relevance.replaced(
        _hit("shares", 0.6, held=0.5).evidence, shared=("x",)))  # listed in an explicit search whatever its score
    left = relevance.replaced(_hit("left", 0.3, held=0.5), evidence=relevance.replaced(
        _hit("left", 0.3, held=0.5).evidence, shared=("x",)))
    hits = [first, lowered, shares, left]
    assert all(relevance.returned(h.evidence, h.score, relevance.THRESHOLD, True) for h in hits)  # as ranked
    asked = []
    returned = relevance.returned
    monkeypatch.setattr(relevance, "returned", lambda ev, value, *args: asked.append(value) or returned(ev, value,
                                                                                                       *args))
    out = ranking._fallen(hits, relevance.THRESHOLD, True)
    # "lowered" falls to 0.45, under the bar of 0.5, and shares no word: gone; "shares" falls too but stays listed.
    assert [(h.memory.name, h.score) for h in out] == [("first", 0.45), ("shares", 0.45), ("left", 0.3)]
    assert asked == [0.45, 0.45]  # only the two lowered hits were asked again; "first" and "left" were not
