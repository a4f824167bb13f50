"""The terms of a query that name no topic: stopwords, chat words, CJK grammar (DESIGN §6).

Tokens are stemmed (:func:`memdir.search.stemming.stem`), so the word lists of :mod:`memdir.text.words` are
compared by their stems: ``because`` is the token ``becaus``. The stems are the same in every process, so they
are read from :mod:`memdir.search.wordstems`, computed once from these lists (a test recomputes them and asserts
equality: the lists stay the one source), where the stemmer is the one they were computed with; else computed here.
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..text.fold import fold, lone_letter
from ..text.words import CHAT_WORDS, CJK_FUNCTION_TERMS, FUNCTION_WORDS, INTERJECTIONS, THAI_FUNCTION_WORDS
from ..vocabulary import THAI_FIRST, THAI_LAST
from . import wordstems
from .stemming import stem

# Dropped from queries (never from documents) when the query has other terms: they match nearly every memory,
# cost time and add no ranking signal. The function words, chat words and interjections (memdir.text.words: "the",
# "please", "um", "lol") with two named deltas, so the recall figures (evals/recall, fitted with this list) stay
# what they are: _ALSO_DROPPED, the rest of the classic English stop list (reflexive and rarer pronouns,
# prepositions of place and time, quantifiers) and the pieces the tokenizer leaves of a contraction (don't → don +
# t); _KEPT, function words a query has always kept as terms.
_ALSO_DROPPED = frozenset("""
above after again against aren because before below between both d didn doesn doing don down during each few
further having hers herself him himself if isn itself ll m more most myself nor off once only other ours
ourselves out over own re s same some such t theirs themselves through too under until up ve wasn weren while
whom won yours yourself yourselves
""".split())
_KEPT = frozenset("may might must shall also really".split())
STOPWORDS = FUNCTION_WORDS - _KEPT | _ALSO_DROPPED | CHAT_WORDS | INTERJECTIONS
"""The query stopwords as written (``because``, ``does``); :func:`is_stopword` compares a token (stemmed:
``becaus``, ``doe``) with their stems. CJK grammar (:data:`memdir.text.words.CJK_FUNCTION_TERMS` and its two
rules) is a stopword too."""


STAY_TERMS = frozenset("como al dan sao io del von".split())
"""Words that stay terms though :data:`STOPWORDS` holds them or a word of it folds or stems onto them: names and
words of English or of tools that :mod:`memdir.text.words` leaves out of its lists on purpose (``como``, ``al``,
``dan``; not ``il``, Italian's article as well as ``ils`` stemmed: "di il la" finds nothing, and ``IL`` in capitals
stays a word), a place's name (``São`` Paulo, ``São`` Tomé: Portuguese ``são``), a module and a key (``io``:
Italian "I"; ``del``: Spanish and Italian "of the") and the particle of a surname (``von`` Neumann: German "of").
Folded, ``cómo`` is ``como``; stemmed, French ``dans`` and German ``als`` are ``dan``, ``al``:
before this set, a search of "Dan", "Lake Como", "São", "io" or "del key" found nothing beside the memory
holding the word. What it costs those languages' queries: :mod:`memdir.text.words` says it for every such word."""


def stopword_stems() -> frozenset[str]:
    """The stems of :data:`STOPWORDS`, each folded first (the Greek words are written with their accents; a lone
    accented letter kept: :func:`_term`), but
    those of :data:`STAY_TERMS`: the rule :data:`memdir.search.wordstems.STOPWORDS` holds computed. Raises
    :class:`memdir.errors.MissingExtra` without ``snowballstemmer``."""
    return frozenset(_term(word) for word in STOPWORDS) - {_term(word) for word in STAY_TERMS}


def _term(word: str) -> str:
    """A listed word as the tokenizer reads it alone: folded and stemmed, a lone accented letter as itself
    (:func:`memdir.text.fold.lone_letter`: ``é``, ``ở``; no ``e``, ``o``)."""
    return lone_letter(word) or stem(fold(word))


def chat_stems() -> frozenset[str]:
    """The stems of the chat words and interjections (:data:`memdir.text.words.CHAT_WORDS`,
    :data:`~memdir.text.words.INTERJECTIONS`), folded first: the rule :data:`memdir.search.wordstems.CHAT` holds
    computed. Raises :class:`memdir.errors.MissingExtra` without ``snowballstemmer``."""
    return frozenset(stem(fold(word)) for word in CHAT_WORDS | INTERJECTIONS)


@lru_cache(maxsize=1)
def _stopword_stems() -> frozenset[str]:
    return wordstems.STOPWORDS if wordstems.hold() else stopword_stems()


@lru_cache(maxsize=1)
def _chat_stems() -> frozenset[str]:
    return wordstems.CHAT if wordstems.hold() else chat_stems()


def is_stopword(token: str) -> bool:
    """True when ``token`` (a term as :func:`memdir.search.tokenize.tokens` gives it, stemmed) is one
    of :data:`STOPWORDS` (``becaus``, ``doe``, ``the``, ``um``) or CJK grammar
    (:func:`is_cjk_grammar`: ``니다``, ``ます``, ``的``)."""
    return token in _stopword_stems() or (not token.isascii() and is_cjk_grammar(token))


def is_chat(token: str) -> bool:
    """True when ``token`` (stemmed, as :func:`memdir.search.tokenize.tokens` gives it) is a chat word or an
    interjection (:data:`memdir.text.words.CHAT_WORDS`, :data:`~memdir.text.words.INTERJECTIONS`: ``pleas``,
    ``um``, ``lol``): a sound around a request, not a word of it."""
    return token in _chat_stems()


HANGUL_FIRST, HANGUL_LAST = 0xAC00, 0xD7A3  # the Hangul syllable blocks
_FINALS, _FINAL_B = 28, 17  # finals per syllable; ㅂ is final 17
_MASU_STEMS = frozenset("いきしちにひみりぎじびぴえけせてねへめれげぜでべぺ")


def is_cjk_grammar(token: str) -> bool:
    """True when ``token`` (a CJK bigram or one-character run of :func:`memdir.search.tokenize.tokens`)
    is grammar, not content: one of :data:`memdir.text.words.CJK_FUNCTION_TERMS`,
    a Hangul syllable closed by ㅂ before ``니`` (``합니``, ``습니``: the
    ending -ㅂ니다), or a hiragana of the i or e row before ``ま`` (``りま``,
    ``しま``: a verb stem before -ます). Pure."""
    if token in CJK_FUNCTION_TERMS:
        return True
    if len(token) != 2:
        return False
    first, second = token
    if second == "니" and HANGUL_FIRST <= ord(first) <= HANGUL_LAST:
        return (ord(first) - HANGUL_FIRST) % _FINALS == _FINAL_B
    return second == "ま" and first in _MASU_STEMS


@lru_cache(maxsize=1)
def _thai_grammar() -> re.Pattern:
    """A whole Thai run made of :data:`memdir.text.words.THAI_FUNCTION_WORDS` alone (longest first), no Thai letter
    or mark on either side."""
    words = "|".join(map(re.escape, sorted(THAI_FUNCTION_WORDS, key=len, reverse=True)))
    thai = f"{THAI_FIRST}-{THAI_LAST}"
    return re.compile(f"(?<![{thai}])(?:{words})+(?![{thai}])")


def without_thai_grammar(text: str) -> str:
    """``text`` with each Thai run made of function words alone (:data:`memdir.text.words.THAI_FUNCTION_WORDS`:
    ``ของ และ ใน``, ``คืออะไร``) as a space; a run holding another word keeps them (its character pairs stand in
    content words too). Pure; a text without Thai is returned as it is."""
    return _thai_grammar().sub(" ", text) if any(THAI_FIRST <= c <= THAI_LAST for c in text) else text


__all__ = ["HANGUL_FIRST", "HANGUL_LAST", "STAY_TERMS", "STOPWORDS", "chat_stems", "is_chat", "is_cjk_grammar", "is_stopword",
           "stopword_stems", "without_thai_grammar"]
