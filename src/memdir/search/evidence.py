"""Evidence: what the score of one memory for a query rests on, read from its words and its cosine.

:func:`evidence` reads a memory's words for a query (its head, its best passage, the tightest window holding the
query's words, whether it holds every one of them) into an :class:`Evidence`; :func:`with_cosine` adds the memory's
cosine, its gap above the query's median cosine and its lead over the nearest other memory, from the query's
:func:`standing`. The words' part and the cosine's part are apart: a search reads the words while the query embeds.
What the evidence is worth (the fitted models, the threshold and the bars a memory must reach) is
:mod:`memdir.search.relevance`'s, which re-exports these names.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields

# how a memory's words are read as the query's, how the query's terms weigh, where its terms meet:
from .reading import BodyTerms
from .weighing import is_generic
from .windows import NEAR_TOKENS, best_passage, held_terms, passages

# A question read as its keywords is complete only in a memory ASKED_GAP above the query's median cosine, the
# store's noise floor (:func:`with_cosine`).
ASKED_GAP = 0.03
# The median cosine is the store's noise floor (ASKED_GAP) only over a crowd: with fewer than CROWD memories holding a
# vector it is the nearest itself (one memory: its own cosine, gap 0; two: half their difference), and "When do we
# deploy?" found nothing beside the one memory saying when deploys go out once it was embedded (trial23; recalled
# with vectors off). Not fitted (the evaluation's store holds 45 memories): the smallest store whose median is
# another memory than the nearest.
CROWD = 3
# A store in which one memory alone has a vector gives it no other memory to lead nor crowd to stand out of: its gap
# and lead were 0, the hybrid model read its cosine alone, and a new user's first memory was missed for 30 of 128 fit
# prompts needing it (evals/recall/small.py; 15 of 128 beside two others). :func:`standing` compares it with an
# imagined second memory at SOLO_COSINE (a store of two: its gap half, its lead all of the difference); a query's
# median cosine over the 45 memories of the evaluation store is 0.784–0.803 (quartiles, fit rows). Chosen by pooled
# 2-fold cross-validation on every fit set in stores of one memory (evals/recall/tiny.py cv, 2026-12-05 recall26) from
# 0.76–0.86, a false recall weighed as three hits: both folds choose 0.78; read on the other fold, [hits, needing,
# false, none] fold 0 [101, 145, 1, 114] → [124, 145, 4, 114], fold 1 [94, 136, 4, 121] → [118, 136, 4, 121]. (A
# false recall weighed as one hit: fold 0 0.77–0.78, fold 1 0.76, +25 hits and +7 false recalls on fold 0.)
SOLO_COSINE = 0.78


@dataclass(frozen=True)
class Evidence:
    """What the score of one memory rests on: ``coverage`` and ``head`` in [0, 1], ``mass`` ≥ 0, ``cosine`` in [−1, 1] or
    None (no current vector), ``matched`` the query terms found (head or best passage), ``shared`` the query's
    content terms (not soft; not :func:`~memdir.search.weighing.is_generic` when it has others) found anywhere in
    the memory, ``near`` the share of the query's weight found together in one :data:`NEAR_TOKENS`-token window of
    the body (about a sentence: what orders memories of equal score, so the one sentence holding every word of a
    question comes before notes that hold them far apart), ``span`` the tokens that window spans at its tightest,
    ``held`` the larger share of the weight of the query terms the store holds at all (a word no memory has, such as
    ``hostname`` where notes say "reachable at", cannot be held) that the head alone or that one window holds (not
    counted when it holds only one core word of several): at least :data:`~memdir.search.relevance.STRONG` is a
    memory stating the query in one place (:func:`~memdir.search.relevance.stated`); ``kin`` the cosine's gap and
    lead among the memories written in the memory's script when that is not the query's
    (:func:`memdir.search.scripts.kin`; None otherwise): :func:`~memdir.search.relevance.score` weighs them as it
    weighs ``gap`` and ``lead``; ``compared`` True when the query compares things
    (:func:`~memdir.search.comparison.compares`): then only a memory stating it is returned at the threshold
    (:func:`~memdir.search.relevance.bar`); ``general`` True when it asks in general (how to do something, what
    something is, about no particular thing: :func:`memdir.search.general.asks_in_general`): then only a memory
    whose words alone reach the threshold (:func:`~memdir.search.relevance.lexical`) is returned at it, in any
    script (a memory written in another script sharing no word with the query is not exempt:
    :func:`~memdir.search.relevance.bar`, recall25); ``defines`` True when it asks so what a kind of thing is
    (:func:`memdir.search.general.asks_what_it_is`): then not even those words; ``anyone`` True when a prompt is a
    question anyone could ask that :func:`~memdir.search.general.asks_in_general` does not read
    (:func:`memdir.search.general.asks_broadly`: "why do people use feature flags?") or a remark of the chat
    (:func:`memdir.search.conversation.remarks`, recall only): then only a memory whose words alone reach the
    threshold is returned at it, its cosine never (:func:`~memdir.search.relevance.bar`, recall49); ``foreign`` True when the prompt is
    written in another language than English and the store holds few of its words
    (:func:`memdir.search.foreign.reads_foreign`, recall only): then its nearest memory standing out is returned by
    meaning alone (:func:`memdir.search.foreign.by_meaning`, :func:`~memdir.search.relevance.bar`); ``pointed`` True
    when every content term the memory shares with the prompt is written only where the prompt points at the
    conversation itself ("the diff above": :func:`memdir.search.conversation.pointed_terms`, recall only): then it
    is not returned at the threshold; ``stand_in`` True when the memory's head meets a concept of the prompt by
    another form ("build agent" and the note on the CI runner: :func:`memdir.search.concepts.met`, recall only): a
    word held, so it is never :func:`~memdir.search.relevance.crowded` out; ``common`` True for a memory written in
    another script than the prompt whose shared words (a number not counted) are held as well by at least
    :data:`~memdir.search.relevance.COMMON_NEARER` memories of the prompt's script nearer to it in meaning
    (:func:`memdir.search.relevance.commonly_held`, recall only): "api" in a Japanese note and an English prompt about
    "the api pods" (:func:`~memdir.search.relevance.loaned`); ``clashes`` the query's dotted numbers the memory
    contradicts, holding another of their shape instead (:func:`memdir.search.versions.clashes`: ``10.0.0.12`` for
    a query's ``10.0.0.13``): then it is scored a fraction of what its words and meaning say, never states the
    query and is not returned at the threshold (:func:`~memdir.search.relevance.score`,
    :func:`~memdir.search.relevance.bar`); ``word_lead`` the memory's score less the next memory's and their ratio
    when the prompt is ranked by words alone (no memory has a cosine) and it scores first, else None (recall only): then its words
    lead the store's and :func:`~memdir.search.relevance.led_by_words` may lower its bar."""

    coverage: float
    head: float
    mass: float
    cosine: float | None
    matched: tuple[str, ...]
    gap: float = 0.0
    missing: float = 0.0
    query: float = 0.0
    complete: float = 0.0
    lead: float = 0.0
    shared: tuple[str, ...] = ()
    near: float = 0.0
    span: int = 0
    held: float = 0.0
    kin: tuple[float, float] | None = None
    compared: bool = False
    general: bool = False
    defines: bool = False
    anyone: bool = False
    foreign: bool = False
    pointed: bool = False
    stand_in: bool = False
    common: bool = False
    clashes: tuple[str, ...] = ()
    word_lead: tuple[float, float] | None = None

    def features(self) -> dict[str, float]:
        """The model's inputs by name (``cosine`` and ``gap`` only when there is a cosine)."""
        # One sentence of the body holding the query's words is as strong as the head holding them: a long
        # note's answer is one sentence, and its name and description are about something wider.
        out = {"coverage": self.coverage, "head": max(self.head, self.near), "mass": self.mass, "missing": self.missing,
               "query": self.query, "complete": self.complete}
        if self.cosine is not None:
            out["cosine"] = self.cosine
            out["gap"] = self.gap
            out["lead"] = self.lead
        return out


def replaced(record, **changes):
    """``dataclasses.replace(record, **changes)`` for this package's frozen records that have no ``__post_init__``
    (:class:`Evidence`, :class:`memdir.search.hits.Hit`): the same values, without a pass through ``__init__``
    (0.8 against 5.3 µs; a search replaces ≈ 240 records). ``changes`` must name fields: nothing checks them."""
    new = object.__new__(type(record))
    new.__dict__.update(record.__dict__)
    new.__dict__.update(changes)
    return new


def median(values) -> float:
    """The median of a non-empty iterable of numbers (the mean of the two
    middle ones when their count is even), as ``statistics.median`` gives it
    — without its import (``fractions``, ``decimal``: ≈ 15–30 ms of a fresh
    prompt hook). Raises ``ValueError`` when ``values`` is empty."""
    ordered = sorted(values)
    n = len(ordered)
    if not n:
        raise ValueError("median of no values")
    middle = n // 2
    return ordered[middle] if n % 2 else (ordered[middle - 1] + ordered[middle]) / 2


def standing(cosines) -> tuple[float, tuple[float, float] | None]:
    """``(median, top)`` of a query's cosines (an iterable of floats in [−1, 1], one per memory in scope holding a
    vector; at least one): their median and their two highest (None for a single cosine), as :func:`evidence` and
    :func:`with_cosine` take them — with an imagined second memory at :data:`SOLO_COSINE` when there is one cosine
    alone (its gap is then half its distance from that, its lead all of it). Raises ``ValueError`` when empty."""
    values = list(cosines)
    if len(values) == 1:
        values.append(SOLO_COSINE)
    ordered = sorted(values)
    return median(ordered), ((ordered[-1], ordered[-2]) if len(ordered) >= 2 else None)


def evidence(weights: dict[str, float], head_tokens: set[str], body_tokens: list[str], strong: set[str],
             keywords: bool,
             cosine: float | None, median: float | None = None, top: tuple[float, float] | None = None,
             present: set[str] | None = None, typed: bool = False) -> Evidence:
    """The :class:`Evidence` of one memory for a query whose terms weigh
    ``weights`` (see :func:`~memdir.search.weighing.term_weights`); ``median`` is the query's median
    cosine over the memories in scope, ``top`` its two highest; ``strong``
    the query terms that are not soft, ``keywords`` True when the query is
    keywords alone (see the module docstring); ``present`` the query terms
    some memory of the store holds (None: all), what :attr:`Evidence.held`
    is a share of; ``typed`` a search a person or a model typed as keywords
    (a word no memory holds does not keep a memory from being complete:
    :func:`_complete`). The words' part and the cosine's part are apart
    (:func:`with_cosine`): a search reads the words while the query embeds."""
    whole, core, strong_held, log_whole = _per_query(weights, strong)
    head = {t for t in weights if t in head_tokens}
    passage, near_weight, span, window = passages(body_tokens, weights)  # the best passage, the tightest window
    found = head | passage
    anywhere = head | (held_terms(body_tokens, weights) & strong if strong_held
                       else {t for t in (body_tokens.tokens() if isinstance(body_tokens, BodyTerms)
                                          else body_tokens) if t in strong})
    shared = tuple(t for t in weights if t in core and t in anywhere)  # "use" alone is no shared topic
    if whole <= 0:
        return with_cosine(Evidence(0.0, 0.0, 0.0, None, (), shared=shared), cosine, median, top)
    matched = sum([w for t, w in weights.items() if t in found])  # in the query's order, not a set's hash order
    held = _held(weights, head, body_tokens, core, present, window)
    made = object.__new__(Evidence)  # Evidence(...) field by field, without the frozen __init__'s setattr calls
    made.__dict__.update(_DEFAULTS)
    made.__dict__.update(coverage=matched / whole, head=sum([w for t, w in weights.items() if t in head]) / whole,
                         mass=math.log1p(matched), cosine=None, matched=tuple(t for t in weights if t in found),
                         missing=math.log1p(max(0.0, whole - matched)), query=log_whole,
                         complete=_complete(core, found, head, present if typed else None, weights) if keywords
                         else 0.0,
                         shared=shared, near=near_weight / whole, span=span, held=held)
    return with_cosine(made, cosine, median, top)


_DEFAULTS = {f.name: f.default for f in fields(Evidence)}  # every field has one but the five given first
_last_query: tuple = (None, None, ())  # (weights, strong, what _per_query gives): one query's, for each memory


def _per_query(weights: dict[str, float], strong: set[str]) -> tuple[float, set[str], bool, float]:
    """``(whole, core, strong held, log1p(whole))`` of :func:`evidence`: the same for every memory a query reads with
    the same ``weights`` and ``strong`` (the same objects), so kept for the last of them."""
    global _last_query
    last = _last_query
    if last[0] is not weights or last[1] is not strong:
        whole = sum(weights.values())
        core = {t for t in strong if not is_generic(t)} or strong
        last = _last_query = (weights, strong, (whole, core, strong <= weights.keys(), math.log1p(whole)))
    return last[2]


def _complete(core: set[str], found: set[str], head: set[str], present: set[str] | None, order=()) -> float:
    """:attr:`Evidence.complete`: 1.0 when ``found`` (the head and best passage's query terms) holds every
    core term of the query; with ``present`` (a search typed as keywords: the query terms some memory holds), when
    the memory's ``head`` (name, title, description: what it is about, not a word its body mentions in
    passing) holds every core term the store holds at all, those are at least half of them and they come before
    every core term the store lacks in the query's ``order`` (its terms as written), the share of
    the core terms they are (``changelog entry``, no memory holding "entry": 0.5; ``gateway timeout value``:
    2/3) — a word no memory has cannot be found in any, so it does not make the memory holding all the rest
    a weak match, and it still leaves open whether that memory is what was asked for ("s3 glacier"); else 0.0.
    A word the store lacks written before one it holds says which of its kind the query means (``dark mode``,
    ``package manager``: the head noun last, as English and the CJK languages write a compound): the memory
    holding only the kind ("mypy in strict mode", "release manager") is another of that kind, not a match to a
    share (search35: "dark mode" listed the mypy memory at 0.70 where no memory is on UI themes)."""
    if not core:
        return 0.0
    if core <= found:
        return 1.0
    known = core if present is None else core & present
    if not known or 2 * len(known) < len(core) or not known <= head:
        return 0.0
    if present is not None and _lacked_first(core, known, order):
        return 0.0
    return len(known) / len(core)


def _lacked_first(core: set[str], known: set[str], order) -> bool:
    """True when a core term of the query that the store lacks comes before one it holds (``known``) in ``order``
    (the query's terms as written): ``dark mode`` with no memory holding "dark". A lacked bigram of a script
    written without spaces is no word but mostly a pair across two words ("我审" of 请帮我审查代码): not counted."""
    from .tokenize import has_cjk  # imported by every caller already

    lacked = False
    for term in order:
        if term in core:
            if term not in known:
                lacked = lacked or not has_cjk(term)
            elif lacked:
                return True
    return False


def with_cosine(evidence: Evidence, cosine: float | None, median: float | None = None,
                top: tuple[float, float] | None = None, asked: bool = False,
                kin: tuple[float, float] | None = None) -> Evidence:
    """``evidence`` (its words' part, :func:`evidence` with no cosine) with
    the memory's ``cosine``, its gap above the query's ``median`` cosine and
    its lead over ``top`` (the query's two highest cosines; see :func:`evidence`). A memory complete only to a
    share (a typed search's word no memory holds, :func:`_complete`) is not complete when another memory is
    nearer in meaning (its lead negative): the word the store lacks may be what the search is about ("install
    lodash": the memory on installing JS packages, not the one whose head says "Python installs"). ``asked``: a prompt
    read as its keywords because it asks (:func:`~memdir.search.weighing.reads_as_request`) is complete only in a
    memory at least
    :data:`ASKED_GAP` above the median, the store's noise floor ("what's next?" is no note saying "next" in passing;
    "where's staging?" stands out of the crowd, 0.036–0.12 on the fit half, chat questions under it). ``kin``:
    :attr:`Evidence.kin`, kept as given."""
    if cosine is None:
        return evidence
    gap = 0.0 if median is None else cosine - median
    lead = 0.0 if top is None else max(-0.1, min(0.1, cosine - (top[1] if cosine >= top[0] else top[0])))
    if 0.0 < evidence.complete < 1.0 and lead < 0.0 or asked and evidence.complete and gap < ASKED_GAP:
        evidence = replaced(evidence, complete=0.0)
    if evidence.query == 0.0:  # a query with no term weight: its lead has always sat in ``query`` (left as scored)
        return replaced(evidence, cosine=cosine, gap=gap, query=lead)
    return replaced(evidence, cosine=cosine, gap=gap, lead=lead, kin=kin)


def _held(weights: dict[str, float], head: set[str], body_tokens: list[str], core: set[str],
          present: set[str] | None, window: set[str] | None = None) -> float:
    """:attr:`Evidence.held`: the larger share of the present terms' weight
    found in the head or in one :data:`NEAR_TOKENS`-token window of the
    body; a place holding only one of the query's several core terms (not
    soft, not generic) does not count (one shared word is not the query stated). ``window``: that window's terms
    for ``weights`` (:func:`~memdir.search.windows.tightest_window`), used when the present terms are all of them."""
    kept, whole, several = _kept(weights, core, present)
    if whole <= 0:
        return 0.0
    best = 0.0
    # A body holding fewer than two core terms in all holds fewer in any window: its window is not looked for.
    body = () if several and len(core.intersection(held_terms(body_tokens, kept))) < 2 else \
        (window if window is not None and kept is weights else best_passage(body_tokens, kept, NEAR_TOKENS),)
    for place in (head.intersection(kept), *body):
        if not several or len(core.intersection(place)) >= 2:
            best = max(best, sum([w for t, w in kept.items() if t in place]))
    return min(1.0, best / whole)



_last_kept: tuple = (None, None, None, ())  # (weights, core, present, what _kept gives)


def _kept(weights: dict[str, float], core: set[str], present: set[str] | None) -> tuple[dict[str, float], float, bool]:
    """``(kept, whole, several)`` of :func:`_held`: the present terms' weights (``weights`` itself when all are, so
    its occurrences are known), their sum, and whether the query has several core terms; kept for the last query."""
    global _last_kept
    last = _last_kept
    if last[0] is not weights or last[1] is not core or last[2] is not present:
        kept = weights if present is None or present >= weights.keys() else \
            {t: w for t, w in weights.items() if t in present}  # the same object when all: its occurrences are known
        last = _last_kept = (weights, core, present, (kept, sum(kept.values()), len(core) >= 2))
    return last[3]


__all__ = ["ASKED_GAP", "CROWD", "SOLO_COSINE", "Evidence", "evidence", "median", "replaced", "standing",
           "with_cosine"]
