"""The order of hits: lexical evidence first, ties broken by meaning at the sentence that answers.

One order for every path (CLI ``search``, ``memory_search``, the Python API,
the panel, recall): :func:`order_key` — memories stating the query first,
then the score to a hundredth, then where the memory holds the query
(:func:`place`), then — a query asking a phrasal noun (``login``) — the
memory writing that one word before one holding its words apart
(:func:`joined_nouns`: "Log in with …" before "logs in Loki"), then for hits
still equal: pinned first, the most recently updated first, the higher BM25,
the name, the layer. No clock, caller or
embedding progress enters it, so equal hits never swap between calls or
paths. An explicit search with vectors on then orders the tie at its head by
meaning (:func:`broken`), on a basis that does not move as the background
embedder works (:func:`head_cosines`).

Once memories' heads are embedded, a note whose name and description read
like the question has a high cosine, and the hybrid model would rank it over
the note whose one body sentence holds every word of the question (planted
facts, 1,000 notes: 36 of 50 first against 46 by words alone). So when some
memory states the query in one place (:func:`memdir.search.relevance.stated`:
its head or one sentence holds nearly all the query's weight that the store
holds at all), :func:`lexical_first` ranks those memories by the lexical
model alone, before every other hit, and no other hit shows a higher score;
the cosine then only breaks their ties (below). Without such a memory the
calibrated score (dense similarity included) decides, as for recall.

When the lexical evidence cannot tell the first memories of a search apart
— the same calibrated score, the same share of the query in one sentence,
the same span (several notes say "the sandbox PostgreSQL for inventory",
one of them "… is reachable at db-12.eu.internal", and the question asks
for its hostname) — the sentence of each that holds the most of the query
is embedded (:func:`memdir.search.vectors.embed`) and the tied memories are
ordered by its cosine to the query. A memory's stored vectors cover its
head or a window of 80 words, where the answering sentence is a small part;
one sentence is what tells these apart (planted facts in 1,000 long notes:
8 of 8 such ties put the answering note first; the best 80-word passage's
cosine, 1 of 8). At 10,000 notes a tie can hold more notes than
:data:`TIE_MAX`: those whose sentence repeats the longest run of the
question's own words (:func:`echoed`) are embedded.

Only for an explicit search (:func:`memdir.search.ranking.ranked`, which
embeds its query anyway), only with the ``vectors`` extra, only on a tie: at
most :data:`TIE_MAX` memories and :data:`SENTENCE_CHARS` characters each,
their vectors kept per process (:func:`memdir.search.vectors.sentence_vectors`) and in the index — every
sentence a tie may pick embedded ahead by the background embedder (:func:`memdir.search.sentencestore.fill`),
so a tie met after it has run embeds none on the query path;
a query of fewer than :data:`SENTENCE_TERMS` content words (:func:`words_asked`:
``RabbitMQ catalog`` is two, though read as four terms) is ordered by the
tied memories' own (head) cosines instead, with nothing embedded.
"""

from __future__ import annotations

import re
import sys
from functools import lru_cache
from time import time

from ..layer.index import read_as_now
from . import relevance, weighing
from .oneword import PHRASAL_NOUNS

# Tied memories whose sentences are embedded; a larger tie embeds those echoing the question most (echoed). A tie
# grows with the store when the query's distinctive word is one no memory holds ("hostname" where notes say
# "reachable at"): 24–33 notes at 10,000 planted-fact notes (seed 7). Of its 8 such questions, the answering note
# came first in 3 with 8 embedded, in 8 with 16 or 32; each tie costs ≈ 0.2, 0.3 and 0.5 s of CPU to embed.
TIE_MAX = 16
# Content words a query needs (words_asked: a compound once) before its tie is broken sentence by sentence. A
# shorter query ("kafka", "staging redis", "RabbitMQ catalog") ties every note that names it, and which of its
# sentences reads most like the bare word says little; the heads' cosines, already at hand, say which note is
# about it. Embedding the sentences cost 100-400 ms of CPU per tied query (8 sentences of ~25 tokens); 1-3-word
# queries were 73 of the 93 ties among compare_basic_memory.py's 200 queries (1,000 notes).
SENTENCE_TERMS = 3
SENTENCE_CHARS = 300
_SENTENCE = re.compile(r"(?<=[.!?。！？])\s+|\n+")


def lexical_first(hits: list) -> list:
    """``hits`` (:class:`memdir.search.hits.Hit`, any order) with those
    that state the query (:func:`memdir.search.relevance.stated`) first,
    placed (``rank``) by the lexical model alone (the cosine left out), and
    every other hit placed at most the lowest of them; their scores are
    left as they are; ``hits`` unchanged when none states it. The caller
    sorts by ``Hit.order`` (no other hit can pass one that states it) and
    shows no hit a higher score than the one before it."""
    first = [relevance.replaced(h, rank=relevance.lexical(h.evidence)) for h in hits if relevance.stated(h.evidence)]
    if not first:
        return hits
    floor = min(h.rank for h in first)
    return first + [relevance.replaced(h, rank=min(h.score, floor)) for h in hits if not relevance.stated(h.evidence)]


def place(evidence) -> tuple[float, bool, float, int]:
    """Where a memory (its :class:`memdir.search.relevance.Evidence`) holds the
    query, as an ascending sort key: the most of the query's weight one place
    holds (its head — name, title, description — or one sentence of its body,
    :attr:`~memdir.search.relevance.Evidence.near`; to a hundredth, negated);
    then whether its head does not state the query (False when the head holds
    :data:`~memdir.search.relevance.STRONG` of its weight or more, and no less
    than a sentence: a memory whose head states the query is about it, one
    whose body holds it as much mentions it — ``Store all timestamps in UTC``
    before a note using ``timezone.utc``; a head holding one word of a
    question states nothing: among 10,000 notes whose sentences all hold
    "the sandbox PostgreSQL for inventory", titles naming "inventory" came
    before the note answering the planted question, whose title does not); then the body sentence's share (negated: a
    head backed by its body first) and its span (``1 << 30`` for none). A body
    sentence holding more than any head still comes first (a planted fact
    under a wider title)."""
    head, near = round(evidence.head, 2), round(evidence.near, 2)
    best = max(head, near)
    return (-best, not head >= max(near, relevance.STRONG), -near, evidence.span or 1 << 30)


def tie_key(hit) -> tuple:
    """What the lexical order of a hit (:class:`memdir.search.hits.Hit`) rests
    on, as an ascending sort key: its score to a hundredth (negated), then
    :func:`place`, then how many of the phrasal nouns it matches it writes as
    that one word (:func:`joined_nouns`, negated). Hits with equal keys are
    tied (:func:`tied`)."""
    return (-round(hit.order, 2), *place(hit.evidence), -joined_nouns(hit))


def joined_nouns(hit) -> int:
    """How many of the phrasal nouns (:data:`memdir.search.oneword.PHRASAL_NOUNS`:
    ``login``, ``signup``) among the terms a hit (:class:`memdir.search.hits.Hit`)
    matches (:attr:`~memdir.search.relevance.Evidence.matched`) its memory
    writes as that one word — its name, title, description or body read by
    :func:`memdir.search.tokenize.tokens`, which joins a phrasal verb wherever
    :mod:`memdir.search.oneword` reads one ("Log in with the seed user"). A
    query writing "log in" before a word that rule cannot read ("how do I log
    in here") looks for ``login`` and ``log`` both
    (:func:`memdir.search.compounds.spaced_pairs`), and a memory holding the two
    words apart matches it as much ("Service logs in Loki"); by the module's
    rule those words are no login, so between hits otherwise equal the one
    writing the noun comes first, whatever their writes' order. 0 (nothing
    read) when the hit matches no phrasal noun: every other tie as it was."""
    nouns = PHRASAL_NOUNS.intersection(hit.evidence.matched)
    if not nouns:
        return 0
    memory = hit.memory
    return len(nouns & _written(f"{memory.name}\n{memory.title or ''}\n{memory.description}\n{memory.body or ''}"))


@lru_cache(maxsize=256)  # a memory's text read once per process for every hit of it (ties are sorted, then counted)
def _written(text: str) -> frozenset[str]:
    """The phrasal nouns (:data:`memdir.search.oneword.PHRASAL_NOUNS`) among ``text``'s tokens. Pure."""
    from .tokenize import tokens

    return PHRASAL_NOUNS.intersection(tokens(text))


def order_key(hit, stated_first: bool = False, now: float | None = None) -> tuple:
    """The one order of a search's or recall's hits (:class:`memdir.search.hits.Hit`),
    as an ascending sort key: with ``stated_first`` (some hit states the query),
    those that state it (:func:`memdir.search.relevance.stated`) first; then
    :func:`tie_key` (the score to a hundredth, :func:`place`, :func:`joined_nouns`); then — hits
    of equal relevance — pinned before not, the most recently updated first
    (a memory with no ``updated`` last), the higher BM25, the name, the layer.
    Nothing in it depends on the clock, the path that asks (CLI, MCP, the
    Python API, the panel) or how far the background embedder has got, so
    equal hits come in the same order on every path and every call; an
    explicit search with vectors on then breaks the tie at its head by meaning
    (:func:`broken`), on the same basis everywhere. An ``updated`` after ``now``
    (Unix seconds; the clock when None) is read as ``now``
    (:func:`memdir.layer.index.read_as_now`): a date in the future wins no tie."""
    memory = hit.memory
    updated = float("inf") if memory.updated is None else -read_as_now(memory.updated, time() if now is None else now)
    return (stated_first and not relevance.stated(hit.evidence), *tie_key(hit), not memory.pinned, updated,
            -memory.bm25, memory.name, memory.layer)


def tied(hits: list) -> int:
    """How many hits at the head of ``hits`` (ranked) share the first one's
    :func:`tie_key`; 0 or 1 mean no tie."""
    if len(hits) < 2:
        return len(hits)
    first = tie_key(hits[0])
    count = 1
    while count < len(hits) and tie_key(hits[count]) == first:
        count += 1
    return count


def best_sentence(text: str, read, terms: set[str]) -> str:
    """The sentence (or line) of ``text`` holding the most distinct ``terms``
    once its tokens are read as the query's terms by ``read`` (a
    :class:`memdir.search.relevance.Prefixes`), the first of equals; at most
    :data:`SENTENCE_CHARS` characters."""
    best, most = "", -1
    for sentence, words in _sentences(text):
        found = len(terms.intersection(read(list(words))))
        if found > most:
            best, most = sentence, found
    return best.strip()[:SENTENCE_CHARS]


@lru_cache(maxsize=256)  # texts (≈ 7.7 KB each at 1.6 KB of text: ≈ 2 MB; a tie comes back to the same notes)
def _sentences(text: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """Each sentence (or line) of ``text`` with its tokens (:func:`memdir.search.tokenize.tokens`). Pure."""
    from .tokenize import tokens

    return tuple((sentence, tuple(sys.intern(t) for t in tokens(sentence))) for sentence in sentences(text))


def sentences(text: str) -> list[str]:
    """``text`` cut into the sentences (or lines) :func:`best_sentence` chooses from, as they stand (not stripped,
    not cut; an empty one where two breaks meet an end). Pure."""
    return _SENTENCE.split(text)


def echoed(query: str, sentence: str) -> int:
    """The most tokens of ``query``, in its order and function words
    included, that ``sentence`` holds one after another: "the sandbox Kafka
    for ledger is reachable at …" echoes 5 of "what is the hostname of the
    sandbox Kafka for ledger", "access to the sandbox Kafka of ledger …" 3."""
    from .tokenize import tokens

    asked, said = tokens(query), tokens(sentence)
    best = 0
    previous = [0] * (len(said) + 1)
    for word in asked:
        current = [0] * (len(said) + 1)
        for j, other in enumerate(said, 1):
            if word == other:
                current[j] = previous[j - 1] + 1
                best = max(best, current[j])
        previous = current
    return best


def words_asked(terms: list[str], query: str) -> int:
    """How many content words ``query`` asks with its ``terms`` (a search's
    terms): the terms that are not :func:`memdir.search.weighing.soft_terms`,
    a compound the query writes (:func:`memdir.search.tokenize.compound_groups`:
    ``MongoDB``, ``back-off``) once — its whole counted, not the parts it is
    also read as (``mongodb``, ``mongo``, ``databas``: one word). Pure."""
    from .tokenize import compound_groups

    whole = set(terms)
    parts = {p for w, ps in compound_groups(query).items() if w in whole for p in ps if p != w}
    return len(whole - parts - weighing.soft_terms(terms))


def head_cosines(hits: list, query_vector, embed=None, measure=None) -> list[float] | None:
    """Each hit's head cosine to ``query_vector``: its stored one
    (:attr:`memdir.search.relevance.Evidence.cosine`), or — for a memory the
    background embedder has not reached yet (or one a page leaves out,
    :mod:`memdir.search.paging`) — its head (:func:`memdir.search.vectors.memory_text`,
    what the embedder will store) embedded now, so that a tie is ordered the
    same before and after the store is embedded. None (the tie keeps its
    lexical order, :func:`order_key`) when more than :data:`TIE_MAX` lack a
    vector or the embedding engine fails. ``embed``: what embeds the heads
    (:func:`memdir.search.vectors.sentence_vectors` when None); ``measure``, when given, what gives their cosines
    instead (see :func:`broken`)."""
    from . import vectors

    missing = [i for i, h in enumerate(hits) if h.evidence.cosine is None]
    cosines = [h.evidence.cosine for h in hits]
    if len(missing) > TIE_MAX:
        return None
    if missing:
        texts = [vectors.memory_text(hits[i].memory.title, hits[i].memory.description, hits[i].memory.body or "")
                 for i in missing]
        try:
            found = _cosines(texts, query_vector, embed, measure)
        except (RuntimeError, OSError, ValueError, MemoryError):
            return None
        for i, cosine in zip(missing, found):
            cosines[i] = cosine
    return cosines


def _cosines(texts: list[str], query_vector, embed, measure) -> list[float]:
    """Each of ``texts``' cosine to the query: ``measure(texts)`` when given, else ``embed(texts) @ query_vector``."""
    from . import vectors

    return measure(texts) if measure is not None else ((embed or vectors.sentence_vectors)(texts) @ query_vector).tolist()


def broken(hits: list, query_vector, read, terms: list[str], query: str = "", embed=None, measure=None) -> list:
    """``hits`` with the tie at their head (:func:`tied`) ordered by the
    cosine between ``query_vector`` (the query's embedding) and each tied
    memory's :func:`best_sentence` — for a query of fewer than
    :data:`SENTENCE_TERMS` content words (:func:`words_asked`), by each memory's own head cosine
    (:func:`head_cosines`: a memory not embedded yet is embedded now); the
    order of equal cosines and of the rest unchanged.
    A tie of more than :data:`TIE_MAX` memories embeds the :data:`TIE_MAX`
    whose sentences echo most of ``query`` (:func:`echoed`; the first of
    equals), the others following in that order. ``hits`` unchanged when
    there is no tie or the embedding engine fails. ``embed``: what embeds
    sentences and heads, ``list[str]`` → vectors (:func:`memdir.search.vectors.sentence_vectors`
    when None; a search passes :func:`memdir.search.sentencestore.vectors_for` on its index). ``measure``:
    ``list[str]`` → each text's cosine to the query (floats), in place of ``embed`` and ``query_vector`` (a
    search whose warm process embeds for it, :func:`memdir.search.warm.tie_cosines`); raises as ``embed`` does."""
    count = tied(hits)
    if count < 2:
        return hits
    wanted = set(terms)
    if words_asked(terms, query) < SENTENCE_TERMS:
        cosines = head_cosines(hits[:count], query_vector, embed, measure)
        if cosines is None:
            return hits
        order = sorted(range(count), key=lambda i: -cosines[i])
        return [hits[i] for i in order] + hits[count:]
    sentences = [best_sentence(h.memory.body or h.memory.description, read, wanted) for h in hits[:count]]
    order = list(range(count))
    if count > TIE_MAX:
        order.sort(key=lambda i: -echoed(query, sentences[i]))
    embedded = order[:TIE_MAX]
    try:
        cosines = _cosines([sentences[i] for i in embedded], query_vector, embed, measure)
    except (RuntimeError, OSError, ValueError, MemoryError):
        return hits
    ranked = [i for _, i in sorted(zip(cosines, embedded), key=lambda pair: -pair[0])]
    return [hits[i] for i in ranked + order[TIE_MAX:]] + hits[count:]


__all__ = ["SENTENCE_CHARS", "SENTENCE_TERMS", "TIE_MAX", "best_sentence", "broken", "echoed", "head_cosines",
           "joined_nouns", "lexical_first", "order_key", "place", "sentences", "tie_key", "tied", "words_asked"]
