"""Where a query's terms meet in a memory's body: the window holding the most of their weight, the tightest one.

:func:`memdir.search.relevance.evidence` reads each candidate's body through these (its best passage, the span of
its nearest terms) and :mod:`memdir.search.passage` finds a snippet's passage with :func:`best_window`. They take a
body as its tokens read as the query's terms or as a :class:`memdir.search.reading.BodyTerms` (its hits by
position). Pure but for the last body's occurrences, kept (:func:`occurrences`).
"""

from __future__ import annotations

from operator import itemgetter

from .reading import BodyTerms

PASSAGE_TOKENS = 64
NEAR_TOKENS = 16  # about one sentence: the window of :attr:`memdir.search.relevance.Evidence.near`


_last: tuple = (None, None, [], None)  # (body tokens, weights, occurrences, their terms): one memory's, read thrice


def occurrences(body_tokens: list[str], weights: dict[str, float]) -> list[tuple[int, str]]:
    """``(position, term)`` of every token of ``body_tokens`` that is a term of
    ``weights``. :func:`memdir.search.relevance.evidence` asks it for the same two objects several
    times (:func:`best_passage`, :func:`tightest`), so the last answer is kept,
    recognized by identity (a search reads a few hundred tokens per memory)."""
    global _last
    last = _last
    if last[0] is body_tokens and last[1] is weights:
        return last[2]
    if isinstance(body_tokens, BodyTerms):  # read already: those of these weights' terms (all, read with them)
        hits = body_tokens.hits if body_tokens.read_with(weights) else [hit for hit in body_tokens.hits
                                                                         if hit[1] in weights]
    else:
        hits = [(i, tok) for i, tok in enumerate(body_tokens) if tok in weights] \
            if not weights.keys().isdisjoint(body_tokens) else []
    _last = (body_tokens, weights, hits, None)
    return hits


def held_terms(body_tokens: list[str], weights: dict[str, float]) -> frozenset[str]:
    """The distinct terms of ``weights`` that ``body_tokens`` holds (:func:`occurrences`' terms), kept with them
    for the last body and weights."""
    global _last
    hits = occurrences(body_tokens, weights)
    last = _last
    if last[3] is None:
        last = _last = (last[0], last[1], last[2], frozenset(map(itemgetter(1), hits)))
    return last[3]


def best_passage(body_tokens: list[str], weights: dict[str, float], width: int = PASSAGE_TOKENS) -> set[str]:
    """The query terms found in the ``width``-token window of ``body_tokens``
    that holds the most distinct query weight (empty when none occurs; the
    first such window when several tie): :func:`best_window`'s terms."""
    hits = occurrences(body_tokens, weights)
    if not hits:
        return set()
    if hits[-1][0] - hits[0][0] < width:  # one window holds every occurrence (best_window's own first test)
        return {t for _, t in hits}
    held = held_terms(body_tokens, weights)
    if len(held) == 1:  # every window holds that term alone: the first holds the most (best_window's answer)
        return set(held)
    return best_window(body_tokens, weights, width)[2]


def best_window(body_tokens: list[str], weights: dict[str, float],
                width: int = PASSAGE_TOKENS) -> tuple[int, int, set[str]]:
    """``(first, last, terms)``: the token positions of the first and last
    query-term occurrence in the ``width``-token window of ``body_tokens``
    that holds the most distinct query weight, and the query terms in it
    (``(-1, -1, set())`` when none occurs; the first such window when several
    tie). Linear in the number of query-term occurrences: one window slides
    over them, counting each term in it, and its weight (the sum of its terms' in the order of ``weights``) is
    looked up again only when a term enters or leaves it; it stops at the first window holding
    every term the body holds (none can hold more): at once when one window holds every occurrence."""
    hits = occurrences(body_tokens, weights)
    if not hits:
        return -1, -1, set()
    first, last = hits[0][0], hits[-1][0]
    if last - first < width:  # the first window holds every occurrence: the slide would stop there
        return first, last, {t for _, t in hits}
    bit, weigh = _terms(weights)
    places, marks = [p for p, _ in hits], [bit[t] for _, t in hits]
    every = 0
    for mark in marks:
        every |= mark
    count = dict.fromkeys(marks, 0)
    inside = best = 0  # the terms in the window, in the best window (bits of ``bit``)
    best_weight, span = -1.0, (first, first)
    end, n = 0, len(hits)
    changed = True
    for start in range(n):
        limit = places[start] + width
        while end < n and places[end] < limit:
            mark = marks[end]
            if not count[mark]:
                inside |= mark
                changed = True
            count[mark] += 1
            end += 1
        if changed:  # the same terms as the window before weigh the same: not more
            weight = weigh.get(inside)
            if weight is None:
                weight = weigh[inside] = sum([w for t, w in weights.items() if bit[t] & inside])
            if weight > best_weight:
                best, best_weight, span = inside, weight, (places[start], places[end - 1])
            changed = False
        if inside == every:
            break
        mark = marks[start]
        count[mark] -= 1
        if not count[mark]:
            inside ^= mark
            changed = True
    return span[0], span[1], {t for t in weights if bit[t] & best}


_last_terms: tuple = (None, {}, {})  # (weights, term -> its bit, bits -> their weight): one query's, for each body


def _terms(weights: dict[str, float]) -> tuple[dict[str, int], dict[int, float]]:
    """``(bit, weigh)``: a bit for each term of ``weights`` and the weights of sets of terms (their bits) summed
    so far, kept while the same ``weights`` are asked (a query reads each candidate with the same)."""
    global _last_terms
    last = _last_terms
    if last[0] is not weights:
        last = _last_terms = (weights, {t: 1 << i for i, t in enumerate(weights)}, {})
    return last[1], last[2]


def tightest(body_tokens: list[str], weights: dict[str, float], width: int = NEAR_TOKENS) -> tuple[float, int]:
    """``(weight, span)``: the most distinct query weight found together in a
    window of at most ``width`` tokens of ``body_tokens``, and the fewest
    tokens a window holding that much spans (``(0.0, 0)`` when no term occurs).
    The span tells the sentence that states a fact from words that meet by chance.
    Each window is summed from its first occurrence on, term by term as they come."""
    return tightest_window(body_tokens, weights, width)[:2]


def tightest_window(body_tokens: list[str], weights: dict[str, float],
                    width: int = NEAR_TOKENS) -> tuple[float, int, set[str]]:
    """``(weight, span, terms)``: :func:`tightest`'s two and :func:`best_passage`'s answer for the same ``width``
    (the terms of the first window weighing the most, summed in the order of ``weights``), found in one pass: the
    windows of both begin at each occurrence and hold the occurrences less than ``width`` tokens after it."""
    hits = occurrences(body_tokens, weights) if width > 0 else []
    if not hits:
        return 0.0, 0, set()
    if len(hits) > 1 and len(held_terms(body_tokens, weights)) == 1:  # one term alone: each window weighs it
        tok = hits[0][1]
        weight = 0.0 + weights[tok]  # as the loop below finds it at the first start, span 1, and keeps
        return ((weight, 1) if weight > 1e-9 else (0.0, 0)) + ({tok},)
    bit = _terms(weights)[0]
    best, span, place, _ = _slide(hits, weights, width, 0)
    return best, span, {t for t in weights if bit[t] & place}


def passages(body_tokens: list[str], weights: dict[str, float]) -> tuple[set[str], float, int, set[str]]:
    """``(passage, weight, span, terms)``: :func:`best_passage` of ``body_tokens`` and ``weights`` (its
    :data:`PASSAGE_TOKENS`-token window) and :func:`tightest_window`'s three (its :data:`NEAR_TOKENS`-token ones),
    the same values, both slid over the occurrences at once when neither is found without sliding (a search reads
    its ≈ 100 candidates so: ≈ 3 of 4 hold the query's terms further apart than a passage)."""
    hits = occurrences(body_tokens, weights)
    if not hits or hits[-1][0] - hits[0][0] < PASSAGE_TOKENS or len(held_terms(body_tokens, weights)) == 1:
        return (best_passage(body_tokens, weights), *tightest_window(body_tokens, weights))
    bit = _terms(weights)[0]
    best, span, place, wide = _slide(hits, weights, NEAR_TOKENS, PASSAGE_TOKENS)
    return {t for t in weights if bit[t] & wide}, best, span, {t for t in weights if bit[t] & place}


def _slide(hits: list[tuple[int, str]], weights: dict[str, float], width: int,
           wider: int) -> tuple[float, int, int, int]:
    """``(weight, span, place, wide)`` over ``hits`` (:func:`occurrences`, two terms or more): :func:`tightest`'s
    weight and span for ``width``, the bits (:func:`_terms`) of the terms of the first ``width``-token window
    weighing the most and, when ``wider`` > ``width`` (else 0), of the first ``wider``-token one
    (:func:`best_window`'s). A window begins at each occurrence and holds those less than its width after it.
    A window (either width) that gains no occurrence over the one before it holds a subset of its terms: with no
    negative weight among them it weighs no more (each partial sum, in the order of ``weights``, is no larger), so it
    cannot be the first weighing the most and is not weighed (its tightest span is still looked for)."""
    bit, weigh = _terms(weights)
    best, span = 0.0, 0
    most, place = -1.0, 0  # best_window's: the weight of the first window weighing the most, its terms' bits
    most_wide, wide = -1.0, 0
    n = len(hits)
    stop = far = 0
    places = [p for p, _ in hits]
    marks = [bit[t] for _, t in hits]
    each = [weights[t] for _, t in hits]
    grows = min(each) >= 0.0  # a window's weight never falls as terms join it: one gaining none can gain no lead
    for start in range(n):
        pos = places[start]
        limit = pos + width
        gained = not grows or not start  # a window gaining no occurrence holds the last one's terms or fewer
        while stop < n and places[stop] < limit:
            stop += 1
            gained = True
        weight = 0.0 + each[start]
        if weight > best + 1e-9 or (abs(weight - best) <= 1e-9 and 1 < span):
            best, span = weight, 1
        inside = marks[start]
        for j in range(start + 1, stop):  # each term once: the first of its occurrences in the window
            mark = marks[j]
            if not inside & mark:
                inside |= mark
                weight += each[j]
                length = places[j] - pos + 1
                if weight > best + 1e-9 or (abs(weight - best) <= 1e-9 and length < span):
                    best, span = weight, length
        if gained:
            total = weigh.get(inside)
            if total is None:
                total = weigh[inside] = sum([w for t, w in weights.items() if bit[t] & inside])
            if total > most:
                most, place = total, inside
        if wider > width:
            limit = pos + wider
            if far < n and places[far] < limit or not grows:
                while far < n and places[far] < limit:
                    far += 1
            elif start:  # no new occurrence: this window's terms are the last one's or fewer, weighing no more
                continue
            for j in range(stop, far):
                inside |= marks[j]
            total = weigh.get(inside)
            if total is None:
                total = weigh[inside] = sum([w for t, w in weights.items() if bit[t] & inside])
            if total > most_wide:
                most_wide, wide = total, inside
    return best, span, place, wide


__all__ = ["NEAR_TOKENS", "PASSAGE_TOKENS", "best_passage", "best_window", "held_terms", "occurrences", "passages",
           "tightest", "tightest_window"]
