"""A candidate's evidence in two steps, and the highest score it can reach between them.

A search reads each of its ≈ 100 candidates (1,000 notes) for the query's words: the row's head and body read as
the query's terms (:func:`read`, a :class:`Reading`: ≈ 20 µs a row), then the evidence the relevance model weighs
(:meth:`Reading.evidence`: the best passage, the tightest window, the share held in one place, ≈ 30 µs more).
A page of an explicit search shows ``offset + k`` hits (5 of them through ``memory_search``), so most candidates
are read in full only to be ranked below it. :func:`ceiling` bounds, from a reading alone and the memory's cosine,
the score (:func:`memdir.search.relevance.score`) its full evidence can give and the share of the query it can hold
in one place (:attr:`~memdir.search.relevance.Evidence.held`): :func:`memdir.search.ranking.ranked` reads in full
only the candidates that can reach the page, and proves the page is the one reading all would give.

The bound is sound for any signs of the models' coefficients (:data:`memdir.search.relevance.LEXICAL`,
:data:`~memdir.search.relevance.HYBRID`): the model is not monotone in every feature (``missing``, the weight a
memory leaves out, weighs positively in both, so more matched weight can lower the hybrid score), so the three
features that follow one quantity — the matched weight ``m`` (``coverage`` m/W, ``mass`` ln(1 + m), ``missing``
ln(1 + W − m)) — are maximized together over the range ``m`` can take (:func:`_matched_top`: the weight the head
holds up to the weight of every query term the memory holds anywhere), and every other feature is taken at the end
of its range that its coefficient favours. Pure.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

from . import memo, parts, relevance, rowwords, spelling
from .compounds import joined_parts
from .reading import BodyTerms
from .relevance import _complete as completeness  # the model's own rules, not copies
from .relevance import _sigmoid as sigmoid


@dataclass(frozen=True, slots=True)
class Reading:
    """One memory's words read for a query (:func:`read`): ``weights`` the query's term weights for it (term →
    weight; a term it holds only inside code identifiers weighs less, :func:`memdir.search.parts.parts_weighed`),
    ``head`` its name, title and description read as the query's terms, ``body`` its body so read, ``strong`` the
    query's terms that are not soft, ``keywords``, ``present`` (the terms some memory holds) and ``typed`` as
    :func:`memdir.search.relevance.evidence` takes them."""

    weights: dict[str, float]
    head: set[str]
    body: BodyTerms
    strong: set[str]
    keywords: bool
    present: set[str] | None
    typed: bool

    def evidence(self) -> relevance.Evidence:
        """The words' part of the memory's evidence (:func:`memdir.search.relevance.evidence`, no cosine)."""
        return relevance.evidence(self.weights, self.head, self.body, self.strong, self.keywords, None,
                                  present=self.present, typed=self.typed)


def read(conn, ids: list[int], terms: list[str], keywords: bool, counts: dict[str, int], total: int,
         compounds: dict[str, tuple[str, str]] | None = None,
         capitals: dict[int, frozenset[str]] | None = None,
         forms: dict[str, set[str]] | None = None, typed: bool = False,
         unheld: frozenset[str] = frozenset()) -> dict[int, Reading]:
    """Each memory's words read for the query (row id → :class:`Reading`; rows with no ``fts`` and ``docs`` row
    left out): what :meth:`Reading.evidence` turns into the words' part of its evidence (no cosine).
    ``forms``: the query's words by term (:func:`memdir.search.tokenize.word_forms`: which terms begin longer words,
    :func:`memdir.search.spelling.starts`; a term held only in code identifiers, in another form, weighs less).
    A memory of ``capitals`` (row id → the query's acronyms it writes in capitals,
    :func:`memdir.search.terms.in_capitals`) is read with those acronyms as content terms, weighed by
    how many memories write them so; every other memory with the query's own terms. ``typed``: a search typed as
    keywords, not a prompt (:func:`memdir.search.relevance.evidence`). ``compounds``: the query's own too.
    A y-word's start (``expir`` of ``expiry``) reads the words it begins only in a memory writing one of its
    family (:func:`memdir.search.spelling.continues`: "expires", not "factor" for ``factory``). ``unheld``: terms
    no memory needs to hold, counted as a word no memory holds is (a comparison's own words, "vs":
    :func:`memdir.search.comparison.comparison_terms`)."""
    if not ids:
        return {}
    capitals = capitals or {}
    in_caps = {t: sum(1 for held in capitals.values() if t in held) for held in capitals.values() for t in held}
    readings: dict[tuple[frozenset[str], frozenset[str]], tuple] = {}
    ys = {t: begun for t, begun in spelling.starts(terms, forms).items() if spelling.from_y(t, begun)}
    generation = memo.generation(conn) if ys else None

    def reading(acronyms: frozenset[str], lacks: frozenset[str]) -> tuple:
        if (acronyms, lacks) not in readings:
            these = terms + sorted(acronyms - set(terms))
            freq = {**counts, **{t: in_caps[t] for t in acronyms}}
            weights = relevance.term_weights(these, freq, total, acronyms, joined_parts(compounds or {}, terms))
            strong = {t for t in these if weights[t]} - relevance.soft_terms(these, kept=acronyms)  # CJK bigrams count
            present = {t for t in these if freq.get(t, 0) and t not in unheld}
            begun = {t: b for t, b in spelling.starts(these, forms).items() if t not in lacks}
            readings[acronyms, lacks] = (weights, relevance.Prefixes(weights, compounds, begun), strong, present)
        return readings[acronyms, lacks]

    out = {}
    for rowid, row in rowwords.rows(conn, ids).items():  # each row's words read once per index generation
        lacks = frozenset(t for t, begun in ys.items() if not _CONTINUES.get(  # per row, kept per generation
            conn, generation, (rowid, begun), lambda: spelling.continues(f"{row.called} {row.raw}", begun)))
        weights, as_terms, strong, present = reading(capitals.get(rowid, frozenset()), lacks)
        head = set(as_terms(row.head))
        read = row.read(as_terms)
        weighed = parts.parts_weighed(weights, row.raw, forms or {})
        out[rowid] = Reading(weighed, head, read, strong, keywords, present, typed)
    return out


_CONTINUES = memo.Kept(1 << 16)  # (row id, a y-word's start) -> whether the row's text continues it


def with_cosines(found: dict[int, relevance.Evidence], cosines: dict[int, float], asked: bool = False,
                  kin: dict[int, tuple[float, float]] | None = None) -> dict[int, relevance.Evidence]:
    """``found`` with each memory's cosine, its gap above the median and its lead (:func:`memdir.search.relevance.with_cosine`;
    ``asked``: a prompt read as keywords because it asks, as there; ``kin``: the gap and lead of the memories
    written in another script than the query among their script's, :func:`memdir.search.scripts.kin`)."""
    if not cosines:
        return found
    median, top = _spread(cosines)
    kin = kin or {}
    return {i: relevance.with_cosine(ev, cosines.get(i), median, top, asked, kin.get(i)) for i, ev in found.items()}


def _spread(cosines: dict[int, float]) -> tuple[float, tuple[float, float] | None]:
    """``(median, top)`` of a query's ``cosines`` (non-empty) as :func:`with_cosines` reads every memory's against."""
    return relevance.median(cosines.values()), tuple(heapq.nlargest(2, cosines.values())) if len(cosines) >= 2 else None


def ceilings(readings: dict[int, Reading], cosines: dict[int, float],
             kin: dict[int, tuple[float, float]]) -> dict[int, tuple[float, float] | None]:
    """Each reading's :func:`ceiling` (row id → ``(score, held)`` or None) once :func:`with_cosines` adds
    ``cosines`` and ``kin`` (as it takes them) to its evidence."""
    if not cosines:
        return {i: ceiling(words, None) for i, words in readings.items()}
    median, top = _spread(cosines)
    return {i: ceiling(words, cosines.get(i), median, top, kin.get(i)) for i, words in readings.items()}


# A logit's bound is raised by this much: the model sums its terms in another order than the bound does.
_SLACK = 1e-7


def ceiling(reading: Reading, cosine: float | None, median: float | None = None,
            top: tuple[float, float] | None = None, kin: tuple[float, float] | None = None) -> tuple[float, float] | None:
    """``(score, held)``: at least the score (:func:`memdir.search.relevance.score`) and the
    :attr:`~memdir.search.relevance.Evidence.held` that the memory of ``reading`` gets once its full evidence is read
    and its ``cosine`` (with the query's ``median`` and ``top`` cosines and its ``kin``, as
    :func:`memdir.search.relevance.with_cosine` takes them) added; None when the memory is to be read in full
    whatever its bound (a query weighing nothing, a model feature this bound does not know)."""
    weights = reading.weights
    whole = sum(weights.values())
    query = math.log1p(whole) if whole > 0 else 0.0
    if query == 0.0:  # with_cosine reads the lead into ``query`` then: read it
        return None
    head_terms = {t for t in weights if t in reading.head}
    body_terms = {t for _, t in reading.body.hits if t in weights}
    held_terms = head_terms | body_terms
    head = sum(weights[t] for t in head_terms)
    every = sum(weights[t] for t in held_terms)
    body = sum(weights[t] for t in body_terms)
    complete = 0.0
    if reading.keywords:  # _complete's first case can only hold when the memory holds every core term somewhere
        core = {t for t in reading.strong if not relevance.is_generic(t)} or reading.strong
        complete = completeness(core, held_terms, head_terms, reading.present if reading.typed else None)
    low = relevance.Evidence(coverage=0.0, head=head / whole, mass=0.0, cosine=None, matched=(), query=query)
    low = relevance.with_cosine(low, cosine, median, top, kin=kin)  # the cosine's features as the model reads them
    ranges = {"head": (head / whole, min(1.0, max(head, body) / whole)), "complete": (0.0, complete)}
    fixed = low.features()
    logits = [_top(relevance.LEXICAL, fixed, ranges, whole, head, every)]
    if cosine is not None:
        logits.append(_top(relevance.HYBRID, fixed, ranges, whole, head, every))
        if kin is not None:
            logits.append(_top(relevance.HYBRID, {**fixed, "gap": kin[0], "lead": kin[1]}, ranges, whole, head, every))
    if None in logits:
        return None
    kept = weights if reading.present is None or reading.present >= weights.keys() else \
        {t: w for t, w in weights.items() if t in reading.present}
    whole_kept = sum(kept.values())
    held = min(1.0, sum(kept[t] for t in held_terms if t in kept) / whole_kept) if whole_kept > 0 else 0.0
    return sigmoid(max(logits) + _SLACK), held


_MATCHED = ("coverage", "mass", "missing")


def _top(model: dict[str, float], fixed: dict[str, float], ranges: dict[str, tuple[float, float]], whole: float,
         low: float, high: float) -> float | None:
    """The highest logit of ``model`` (:func:`memdir.search.relevance.score`'s) for features of ``fixed`` known
    exactly, ``ranges`` (name → (lowest, highest)) known to a range, and a matched weight from ``low`` to ``high``
    (of the query's ``whole``); None for a feature neither gives."""
    z = model["bias"]
    for name, coefficient in model.items():
        if name == "bias" or name in _MATCHED:
            continue
        if name in ranges:
            lowest, highest = ranges[name]
            z += coefficient * (highest if coefficient >= 0 else lowest)
        elif name in fixed:
            z += coefficient * fixed[name]
        elif name in ("cosine", "gap", "lead"):  # no cosine: the model reads them as 0
            continue
        else:
            return None
    return z + _matched_top(model.get("coverage", 0.0) / whole, model.get("mass", 0.0), model.get("missing", 0.0),
                            whole, low, min(high, whole))


def _matched_top(a: float, b: float, d: float, whole: float, low: float, high: float) -> float:
    """The largest ``g(m) = a·m + b·ln(1 + m) + d·ln(1 + max(0, whole − m))`` for ``m`` from ``low`` to ``high``
    (``low`` ≤ ``high`` ≤ ``whole``), or a little more: each term at its own largest (sound for any signs), and,
    when ``a``, ``b`` and ``d`` are not negative (``g`` concave), ``g`` at its peak (where its slope is 0, a root of
    ``a·x² − (a·s − b − d)·x − b·s`` with ``x = 1 + m``, ``s = whole + 2``; at the nearer end when it lies outside
    the range, where ``g`` is then largest), plus, inside, its slope there (0 but for rounding) times the range (a
    concave function lies under its tangent), whichever is lower."""
    high = max(low, high)
    apart = (a * (high if a >= 0 else low) + b * math.log1p(high if b >= 0 else low)
             + d * math.log1p(max(0.0, whole - (low if d >= 0 else high))))
    if a < 0 or b < 0 or d < 0:
        return apart
    s = whole + 2.0
    if a > 0:
        c = a * s - b - d
        x = (c + math.sqrt(c * c + 4.0 * a * b * s)) / (2.0 * a)
    else:
        x = b * s / (b + d) if b + d > 0 else s
    m = min(high, max(low, x - 1.0))
    peak = a * m + b * math.log1p(m) + d * math.log1p(max(0.0, whole - m))
    if low < m < high:  # the slope there is 0 but for rounding: its tangent over the range bounds the rest
        peak += abs(a + b / (1.0 + m) - d / (1.0 + whole - m)) * (high - low)
    return min(apart, peak)


__all__ = ["Reading", "ceiling", "ceilings", "read", "with_cosines"]
