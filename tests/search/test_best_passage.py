"""best_passage slides one window over a body's query-term occurrences (issue 28, search speed): it picks the
same window as looking at every window from every occurrence did — the one holding the most distinct query
weight, the first of equals. Checked against that plain reading on bodies drawn at random, ties included
(whole-number weights sum exactly), and on a worked example."""

from __future__ import annotations

import random
from bisect import bisect_left

from memdir.search import relevance


def every_window(body: list[str], weights: dict[str, float], width: int) -> set[str]:
    """The plain reading: each window starting at an occurrence, its distinct terms summed, the first best kept."""
    hits = [(i, tok) for i, tok in enumerate(body) if tok in weights]
    positions = [i for i, _ in hits]
    best: set[str] = set()
    best_weight = -1.0
    for start, (pos, _) in enumerate(hits):
        found = {tok for _, tok in hits[start:bisect_left(positions, pos + width, lo=start)]}
        weight = sum(weights[t] for t in found)
        if weight > best_weight:
            best, best_weight = found, weight
    return best


def test_the_sliding_window_picks_what_every_window_picks():
    rng = random.Random(28)
    vocabulary = [f"w{i}" for i in range(12)]
    checked = 0
    for _ in range(1200):
        terms = rng.sample(vocabulary, rng.randint(1, 6))
        weights = {t: float(rng.choice([1, 1, 2, 3])) for t in terms}
        body = [rng.choice(vocabulary) for _ in range(rng.randint(0, 60))]
        width = rng.choice([4, 8, 16])
        relevance._last_occurrences = (None, None, [])
        assert relevance.best_passage(body, weights, width) == every_window(body, weights, width), (body, weights)
        checked += bool(set(body) & set(weights))
    assert checked > 800  # control: most bodies held some term


def test_a_worked_example_keeps_the_first_of_equal_windows():
    body = "a x b x x x x x x c x a x x x x x x b c".split()
    weights = {"a": 1.0, "b": 1.0, "c": 1.0}
    assert relevance.best_passage(body, weights, 4) == {"a", "b"}  # positions 0-2; "c a" (9-11) weighs the same
    assert relevance.best_passage(body, {"a": 1.0, "b": 1.0, "c": 3.0}, 4) == {"a", "c"}  # c weighs more: 9-11
    assert relevance.best_passage(body, weights, 64) == {"a", "b", "c"}
    assert relevance.best_passage(["x", "y"], weights, 4) == set()  # control: no term, no passage
