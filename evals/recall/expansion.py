"""Query expansion by a coding-domain thesaurus (``thesaurus_groups.py`` beside it, written blind): an experiment
on memdir's ranking, not part of memdir (evals/recall/thesaurus.py read it by pooled 2-fold CV: no gain).

A prompt's core term with thesaurus neighbours (``postgres`` → psql, dsn, 5432, …; ``package`` → pip, uv, npm, …)
is *substituted* in a memory that does not hold the term but holds one of its neighbours: the term's weight counts
for that memory at :data:`WEIGHT` (< 1) in its coverage, mass and missing weight (:class:`memdir.search.relevance.
Evidence`), never in ``matched``, ``held`` or ``complete``: a neighbour alone never makes a memory complete or
stated. :func:`install` puts it into :func:`memdir.search.ranking.ranked` (after the cosines, where a rule of
memdir's would go) for a prompt's recall (:data:`RECALL`) and an explicit search (:data:`SEARCH`).
"""

from __future__ import annotations

import math
from functools import lru_cache

from memdir.search import ranking, relevance, rowwords, weighing

RECALL = True  # expand a prompt's terms for recall (ranked(..., explicit=False))
SEARCH = True  # expand an explicit search's terms
WEIGHT = 0.5  # a substituted term's share of its weight
SHARED = False  # a substituted term counts as shared (relevance.agreed, relevance.thin)


@lru_cache(maxsize=1)
def neighbours() -> dict[str, frozenset[str]]:
    """``{term: the terms sharing a thesaurus group with it}``, each word read as a query term
    (:func:`memdir.search.tokenize.query_terms`: stemmed; a word reading as several terms or none is left out)."""
    from thesaurus_groups import GROUPS

    from memdir.search.tokenize import query_terms

    out: dict[str, set[str]] = {}
    for group in GROUPS:
        terms = {t[0] for t in (query_terms(word) for word in group) if len(t) == 1}
        for t in terms:
            out.setdefault(t, set()).update(terms - {t})
    return {t: frozenset(n) for t, n in out.items() if n}


def substitutes(conn, ids, terms: list[str], counts: dict[str, int], total: int) -> dict[int, dict[str, float]]:
    """``{row id: {query term: its weight}}``: per memory of ``ids``, the query's core terms (weighted, not soft,
    not generic) it does not hold but holds a thesaurus neighbour of; weights as
    :func:`memdir.search.weighing.term_weights` gives them. Memories with none are left out."""
    table = neighbours()
    weights = weighing.term_weights(terms, counts, total)
    soft = weighing.soft_terms(terms, counts)
    core = [t for t in terms if weights[t] > 0 and t not in soft and not weighing.is_generic(t) and t in table]
    if not core:
        return {}
    out = {}
    for rowid, row in rowwords.rows(conn, list(ids)).items():
        held = set(row.head) | set(row.body().split())
        got = {t: weights[t] for t in core if t not in held and table[t] & held}
        if got:
            out[rowid] = got
    return out


def widened(evidence: relevance.Evidence, got: dict[str, float], weight: float = WEIGHT,
            shared: bool = SHARED) -> relevance.Evidence:
    """``evidence`` with the substituted terms ``got`` (:func:`substitutes`) counted at ``weight`` of their weight:
    coverage, mass and missing moved as a found term's share would move them (coverage stays ≤ 1), ``head``,
    ``matched``, ``held`` and ``complete`` as they were; with ``shared`` the terms are added to ``shared``."""
    if not got:
        return evidence
    whole = math.expm1(evidence.query)
    if whole <= 0:
        return evidence
    matched = math.expm1(evidence.mass)
    extra = min(weight * sum(got.values()), max(0.0, whole - matched))
    more = tuple(t for t in got if t not in evidence.shared) if shared else ()
    return relevance.replaced(evidence, coverage=min(1.0, evidence.coverage + extra / whole),
                              mass=math.log1p(matched + extra), missing=math.log1p(max(0.0, whole - matched - extra)),
                              shared=evidence.shared + more)


def expanded(conn, found: dict[int, relevance.Evidence], terms: list[str], counts: dict[str, int], total: int,
             explicit: bool) -> dict[int, relevance.Evidence]:
    """``found`` (row id → evidence) with :func:`widened` applied to each memory that :func:`substitutes` gives,
    when :data:`RECALL` (a prompt) or :data:`SEARCH` (``explicit``) is on; else ``found`` itself."""
    if not (SEARCH if explicit else RECALL):
        return found
    subs = substitutes(conn, found, terms, counts, total)
    return {i: widened(ev, subs.get(i, {})) for i, ev in found.items()}


def install(hook=None):
    """Put :func:`expanded` (or ``hook``, of the same signature) into :func:`memdir.search.ranking.ranked` of this
    process, applied to the candidates' evidence once the cosines are in (where a rule of memdir's would go), as
    :data:`RECALL` and :data:`SEARCH` say; returns a function that takes it out again. Nothing of memdir changes on
    disk: ranking's ``ranked`` (whether the search is explicit), ``_evidence`` (the query's terms, counts and
    total) and ``_with_cosines`` are wrapped. Call it before importing ``ranked`` by name."""
    ranked, words, cosines, seen = ranking.ranked, ranking._evidence, ranking._with_cosines, {}

    def ranked_(*args, **named):
        seen["explicit"] = named.get("explicit", False)
        return ranked(*args, **named)

    def evidence(conn, ids, terms, keywords, counts, total, *rest):
        seen.update(conn=conn, terms=terms, counts=counts, total=total)
        return words(conn, ids, terms, keywords, counts, total, *rest)

    def with_cosines(found, *rest):
        out = cosines(found, *rest)
        return (hook or expanded)(seen["conn"], out, seen["terms"], seen["counts"], seen["total"],
                                  seen.get("explicit", False))

    ranking.ranked, ranking._evidence, ranking._with_cosines = ranked_, evidence, with_cosines

    def undo():
        ranking.ranked, ranking._evidence, ranking._with_cosines = ranked, words, cosines
    return undo
