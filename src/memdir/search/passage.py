"""Where in a memory's text a query's best passage lies, as character offsets (what recall shows of a cut body).

The passage is :func:`memdir.search.relevance.best_window`'s — the one passage finder — over the text's tokens
read as the query's terms (:func:`memdir.search.relevance.as_terms`), each token mapped back to the word of the
text (a match of :func:`memdir.search.tokenize.segments`) it came from. Pure.
"""

from __future__ import annotations

import re
import sys
from array import array
from functools import lru_cache

from . import relevance, weighing
from .reading import BodyTerms
from .spelling import PREFIX_MIN
from .tokenize import segments, word_tokens

SENTENCE_BACK = 240  # characters looked back from the passage's first word for the start of its sentence
_SENTENCE_END = re.compile(r"[.!?;:](?=\s)|\n")


def located(text: str, terms: list[str], width: int = relevance.NEAR_TOKENS) -> tuple[int, int] | None:
    """``(start, end)``: the character offsets in ``text`` of the passage of
    at most ``width`` tokens holding the most distinct weight of the query's
    ``terms`` (:func:`memdir.search.weighing.term_weights`, without the
    store's frequencies), ``start`` moved back to the start of its sentence or
    line (at most :data:`SENTENCE_BACK` characters back), ``end`` the end of
    its last query word; None when no term of the query occurs in ``text``."""
    weights, read = _reading(tuple(dict.fromkeys(terms)))
    if not weights or not text:
        return None
    toks, spans, _ = _words(text)
    if read.pairs or read.implies:  # words joined into a compound, or a term standing for others: every token read
        first, last, found = relevance.best_window(read(list(toks)), weights, width)
    else:  # only the words that are terms or begin one (:func:`_term_hits`): the same occurrences
        first, last, found = relevance.best_window(BodyTerms(_term_hits(text, weights, read), text, read), weights,
                                                   width)
    if not found:
        return None
    start, end = spans[2 * first], spans[2 * last + 1]
    back = max(0, start - SENTENCE_BACK)
    ends = [m.end() for m in _SENTENCE_END.finditer(text, back, start)]
    return _word_at(text, ends[-1] if ends else (0 if back == 0 else start), start), end


@lru_cache(maxsize=16)
def _reading(terms: tuple[str, ...]) -> tuple[dict[str, float], relevance.Prefixes]:
    """``(weights, prefixes)``: the query's ``terms`` weighed without the store's frequencies (those above 0) and
    the :class:`memdir.search.relevance.Prefixes` reading a text's tokens as them (:func:`memdir.search.relevance.
    as_terms`), kept per ``terms``: a search's snippets ask for the same ones, result after result."""
    weights = {t: w for t, w in weighing.term_weights(list(terms), {}, 0).items() if w > 0}
    return weights, relevance.Prefixes(weights)


# Texts whose words are kept (a search's snippets come back to the notes it keeps finding): each keeps its text,
# a pointer per token (the tokens interned: one string per word of the store) and 8 bytes of offsets per token,
# ≈ 6.5 KB for a note of 1.6 KB and 280 words; ≈ 7 MB for all 1,024.
TEXTS_KEPT = 1024


@lru_cache(maxsize=TEXTS_KEPT)
def _words(text: str) -> tuple[tuple[str, ...], array, dict[str, list[int]]]:
    """``(tokens, offsets, positions)``: the tokens of ``text`` (:func:`~memdir.search.tokenize.word_tokens` of each
    :func:`~memdir.search.tokenize.segments` match, in order), flat, the start and end offsets of the word
    each came from (token ``i``: ``offsets[2 * i]``, ``offsets[2 * i + 1]``), and each distinct token's positions
    in order (read only). Kept per text: a pure function."""
    toks: list[str] = []
    offsets = array("q" if len(text) >= 1 << 32 else "I")
    positions: dict[str, list[int]] = {}
    intern = sys.intern
    for match in segments(text):
        start, end = match.span()
        for tok in word_tokens(match.group(0)):
            tok = intern(tok)
            at = positions.get(tok)
            if at is None:
                positions[tok] = [len(toks)]
            else:
                at.append(len(toks))
            toks.append(tok)
            offsets.append(start)
            offsets.append(end)
    return tuple(toks), offsets, positions


def _term_hits(text: str, weights: dict[str, float], read: relevance.Prefixes) -> list[tuple[int, str]]:
    """``(position, term)`` of every token of ``text`` (:func:`_words`) that ``read`` (joining no words, implying
    none) reads as a term of ``weights``, by position: what reading every token in turn finds, from the text's
    positions by word (:func:`_positions`). A token is a term when it is one, or when its first
    :data:`~memdir.search.spelling.PREFIX_MIN` characters begin one of ``read``'s prefixed terms and
    :meth:`~memdir.search.relevance.Prefixes.term` reads it so; every other token reads as itself, no term."""
    by_word, by_head = _positions(text)
    hits: list[tuple[int, str]] = []
    for term in weights:
        for at in by_word.get(term, ()):
            hits.append((at, term))
    for head in {term[:PREFIX_MIN] for term in read.prefixed()}:
        for word in by_head.get(head, ()):
            if word not in weights and (term := read.term(word)) in weights:
                for at in by_word[word]:
                    hits.append((at, term))
    hits.sort()
    return hits


@lru_cache(maxsize=TEXTS_KEPT)
def _positions(text: str) -> tuple[dict[str, list[int]], dict[str, tuple[str, ...]]]:
    """``(positions, words)``: each distinct token of ``text`` → its token positions, in order (:func:`_words`);
    each :data:`~memdir.search.spelling.PREFIX_MIN`-character start → the distinct tokens beginning so (a shorter
    token is its own start). Kept per text, as :func:`_words`. Read only."""
    by_word = _words(text)[2]
    by_head: dict[str, list[str]] = {}
    for tok in by_word:
        by_head.setdefault(tok[:PREFIX_MIN], []).append(tok)
    return by_word, {head: tuple(w) for head, w in by_head.items()}


def sentence_after(text: str, at: int, before: int) -> int:
    """The offset of the first sentence or line of ``text`` starting at or after ``at`` (0 for ``at`` ≤ 0),
    ``before`` when none starts before it."""
    if at <= 0:
        return 0
    found = _SENTENCE_END.search(text, at - 1, before)
    return _word_at(text, found.end(), before) if found else before


def _word_at(text: str, at: int, limit: int) -> int:
    """``at`` moved past the whitespace after it, never past ``limit``."""
    while at < limit and text[at].isspace():
        at += 1
    return at


__all__ = ["SENTENCE_BACK", "located", "sentence_after"]
