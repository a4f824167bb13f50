"""A body's windows read in one pass (issue 28, search speed): :func:`memdir.search.windows.tightest_window` gives
what :func:`~memdir.search.windows.tightest` and :func:`~memdir.search.windows.best_passage` at the same width each
gave — the most distinct weight in a window of ``width`` tokens, the fewest tokens holding it, and the first window
weighing the most — and a body holding one query term, or fewer than two core terms, is answered without sliding a
window. Checked against plain readings of every window on bodies drawn at random (whole-number weights: ties sum
exactly), on worked examples, and a search result's JSON form against :func:`dataclasses.asdict`."""

from __future__ import annotations

import random
from bisect import bisect_left
from dataclasses import asdict

from memdir.search import evidence, windows
from memdir.search.hits import SearchResult


def every_window(body: list[str], weights: dict[str, float], width: int) -> tuple[float, int, set[str]]:
    """The plain reading: from each occurrence, every window of fewer than ``width`` tokens after it; the most
    distinct weight and the fewest tokens spanning it; the terms of the first window (all its occurrences)
    weighing the most."""
    hits = [(i, tok) for i, tok in enumerate(body) if tok in weights]
    positions = [i for i, _ in hits]
    best, span, most, place = 0.0, 0, -1.0, set()
    for start, (pos, _) in enumerate(hits):
        stop = bisect_left(positions, pos + width, lo=start)
        for end in range(start + 1, stop + 1):
            found = {tok for _, tok in hits[start:end]}
            weight = sum(weights[t] for t in found)
            length = hits[end - 1][0] - pos + 1
            if weight > best or weight == best and weight > 0 and length < span:
                best, span = weight, length
        found = {tok for _, tok in hits[start:stop]}
        if sum(weights[t] for t in found) > most:
            most, place = sum(weights[t] for t in found), found
    return best, span, place


def test_one_pass_gives_what_every_window_gives():
    rng = random.Random(28)
    vocabulary = [f"w{i}" for i in range(12)]
    single = several = 0
    for _ in range(1500):
        terms = rng.sample(vocabulary, rng.randint(1, 6))
        weights = {t: float(rng.choice([0, 1, 1, 2, 3])) for t in terms}
        body = [rng.choice(vocabulary) for _ in range(rng.randint(0, 60))]
        width = rng.choice([4, 8, 16])
        got = windows.tightest_window(body, weights, width)
        assert got == every_window(body, weights, width), (body, weights, width)
        assert got[:2] == windows.tightest(body, weights, width)
        assert got[2] == windows.best_window(body, weights, width)[2]  # the sliding window's own answer
        held = {t for t in body if t in weights}
        single += len(held) == 1 and body.count(next(iter(held))) > 1
        several += len(held) > 2
    assert single > 50 and several > 500  # controls: both kinds of body were drawn


def test_passages_give_the_best_passage_and_the_tightest_window_at_once():
    """:func:`windows.passages` (both slides in one pass over a body's occurrences, issue 28 speed27) gives the
    plain reading's first 64-token window weighing the most and its 16-token tightest window, on bodies long enough
    that most hold their terms further apart than a passage."""
    rng = random.Random(2827)
    vocabulary = [f"w{i}" for i in range(10)]
    slid = 0
    for _ in range(600):
        terms = rng.sample(vocabulary, rng.randint(1, 6))
        weights = {t: float(rng.choice([0, 1, 1, 2, 3])) for t in terms}
        body = [rng.choice(vocabulary + ["x"] * 30) for _ in range(rng.randint(0, 300))]
        wide = every_window(body, weights, windows.PASSAGE_TOKENS)[2]
        got = windows.passages(body, weights)
        assert got == (wide, *every_window(body, weights, windows.NEAR_TOKENS)), (body, weights)
        assert got[0] == windows.best_passage(body, weights)  # the passage evidence read before
        hits = [i for i, t in enumerate(body) if t in weights]
        slid += bool(hits) and hits[-1] - hits[0] >= windows.PASSAGE_TOKENS and len({body[i] for i in hits}) > 1
    assert slid > 300  # control: most bodies took the slide, not a shortcut
    weights = {"kafka": 2.0, "retention": 3.0, "drop": 1.0}
    body = ["kafka"] + ["x"] * 70 + ["retention", "x", "drop", "kafka"]  # kafka first, the three together last
    assert windows.passages(body, weights) == ({"kafka", "retention", "drop"}, 6.0, 4, {"kafka", "retention", "drop"})


def test_worked_examples():
    weights = {"kafka": 2.0, "retention": 3.0, "drop": 1.0}
    body = ["kafka", "is", "fine", ".", "retention", "drop", "seen", "after", "the", "kafka", "upgrade"]
    assert windows.tightest_window(body, weights, 4) == (4.0, 2, {"retention", "drop"})
    assert windows.tightest_window(body, weights, 16) == (6.0, 6, {"kafka", "retention", "drop"})  # 0–5
    one = ["kafka", "kafka", "then", "more", "kafka"]  # one term alone: its weight, one token, that term
    assert windows.tightest_window(one, weights, 16) == (2.0, 1, {"kafka"})
    assert windows.tightest_window(one, {"kafka": 0.0}, 16) == (0.0, 0, {"kafka"})  # as the slide gave: no weight
    assert windows.tightest_window(["nothing", "here"], weights, 16) == (0.0, 0, set())
    assert windows.best_passage(one, weights, 2) == {"kafka"}  # wider than any window: the one term


def test_a_body_with_one_core_term_holds_the_query_only_in_its_head():
    weights = {"kafka": 2.0, "retention": 3.0}
    core = set(weights)
    body = ["retention", "retention", "is", "what", "we", "set"]  # one core term in the body: not the query stated
    assert evidence._held(weights, set(), body, core, None) == 0.0
    assert evidence._held(weights, {"kafka", "retention"}, body, core, None) == 1.0  # control: the head states it
    both = ["kafka", "retention", "is", "what", "we", "set"]  # control: a body sentence holding both states it
    assert evidence._held(weights, set(), both, core, None) == 1.0


def test_a_search_result_s_json_form_is_what_asdict_gives():
    result = SearchResult("deploys", "project", "note", "When deploys go out", "Deploys go out on Tuesdays", 0.8731,
                          "Deploys", True, {"terms": ["deploy", "tuesday"], "cosine": 0.912})
    out = result.to_dict()
    assert out == asdict(result) and list(out) == list(asdict(result))
    assert out["why"] == {"terms": ["deploy", "tuesday"], "cosine": 0.912}
    assert out["why"] is not result.why and out["why"]["terms"] is not result.why["terms"]  # copied, as asdict does


def test_a_window_gaining_no_occurrence_is_not_weighed():
    """:func:`windows._slide` weighs a window only when it gains an occurrence over the one before it (issue 28,
    speed31): one that gains none holds a subset of the last one's terms and, no weight being negative, weighs no
    more. Counted by the weights it sums (:func:`windows._terms`' cache, emptied first): the same answer, fewer
    sums; with a negative weight every window is weighed and the answer is still the plain reading's."""
    weights = {"kafka": 2.0, "retention": 3.0, "drop": 1.0}
    # kafka, then retention+drop 20 tokens on (a 16-token window starting at kafka holds kafka alone), then kafka
    body = ["kafka"] + ["x"] * 19 + ["retention", "drop"] + ["x"] * 60 + ["kafka"]
    hits = [(i, t) for i, t in enumerate(body) if t in weights]
    windows._last_terms = (None, {}, {})
    got = windows._slide(hits, weights, windows.NEAR_TOKENS, windows.PASSAGE_TOKENS)
    bit = windows._terms(weights)[0]
    assert got == (4.0, 2, bit["retention"] | bit["drop"], bit["kafka"] | bit["retention"] | bit["drop"])
    assert windows.passages(body, weights) == ({"kafka", "retention", "drop"}, 4.0, 2, {"retention", "drop"})
    # every window gains an occurrence but "drop"'s narrow one (it starts inside retention's) and the wide ones
    # after the first reach kafka's last occurrence only at the end: four sets weighed, not one per window
    assert sorted(windows._terms(weights)[1].values()) == [2.0, 4.0, 6.0]
    # control: a negative weight makes a subset weigh more; every window is weighed, as the plain reading says
    signed = {"kafka": -2.0, "retention": 3.0, "drop": 1.0}
    body = ["kafka", "retention"] + ["x"] * 80 + ["drop"]  # retention's windows gain nothing over kafka's
    assert windows.passages(body, signed) == ({"retention"}, 3.0, 1, {"retention"})  # the subset weighs more
    assert windows.passages(body, signed)[0] == every_window(body, signed, windows.PASSAGE_TOKENS)[2]
    assert windows.passages(body, signed)[1:] == every_window(body, signed, windows.NEAR_TOKENS)
