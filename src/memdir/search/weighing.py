"""How a query's terms weigh: the word classes of a prompt and each term's weight against the store.

A term's weight is its IDF against the store plus :data:`BACKGROUND_DOCS`
imagined memories that hold none of the query's terms:
``ln(1 + (N + B − n + 0.5)/(n + 0.5))``. The background keeps a term absent
from a small store from outweighing the present ones (without it, in 8
memories an absent term weighs about 5× a present one). CJK bigrams that no
memory holds (mostly pairs that straddle a word boundary), function words and
chat filler (:data:`FILLER`: "thanks", "ok", "continue", …) weigh
:data:`SOFT_WEIGHT` of a term (:func:`soft_terms`); task and request words
(:func:`is_generic`: "add", "remind", "details", "帮我") :data:`GENERIC_WEIGHT`.

The word classes are also what :mod:`memdir.search.relevance` reads a query
by: filler around keywords makes no sentence (:func:`is_filler`), a request or
a question around a few words is those words (:func:`reads_as_request`), and a
prompt of generic words only asks for no memory (:func:`is_topic`). Pure
functions over stemmed terms (as :func:`memdir.search.tokenize.tokens` gives
them); nothing here reads the store.
"""

from __future__ import annotations

import math
import re
from functools import lru_cache

from ..text.fold import fold, kana_spellings
from ..text.words import QUESTION_WORDS, UNITS

BACKGROUND_DOCS = 100
SOFT_WEIGHT = 0.25

# Prompt filler: words that say how a conversation goes, not what it is about. Stemmed. A prompt reads as the
# words around them ("tenacity, go", "ok pnpm then" are ``tenacity``, ``pnpm``: :func:`is_filler`).
FILLER = frozenset("""
thank thanks ok okay yes yeah yep nope pleas pleas great nice cool good fine perfect sure done work continu
go ahead proceed again later agre right lgtm awesom then just basical anyway new
谢谢 继续 可以 好的 あり りが がと とう 続け けて くだ ださ さい 고마 마워 계속 감사 danke weiter bitt
""".split())

# Words a task prompt is built of, not what it is about ("add", "fix", "library", "something"): they weigh
# GENERIC_WEIGHT of a term, and a memory holds every word of a search when it holds all but these. Stemmed.
GENERIC = frozenset("""
abl actual add anoth anyth best better chang correct creat current differ everyth exact find fix get give
help implement instead issu know let librari like look make mani mayb mean much need now other possibl
probabl problem proper put question quick same see set setup show simpl some someth stuff sure take tell thing
think today tool tri updat use want way write run alway never check verifi ensur confirm doublecheck
""".split())
GENERIC_WEIGHT = 0.5
# A request ("remind me about", "any notes on", "배포 알려줘") names its topic in a few words: at most this many
# besides its request and function words, and the query reads as those keywords (:func:`reads_as_request`).
TOPIC_TERMS = 4


def is_request(term: str) -> bool:
    """True when ``term`` (stemmed, as a query reads it) asks for information
    or help (:data:`memdir.text.words.REQUEST_WORDS`: ``remind``, ``detail``,
    ``stori``, ``帮我``, ``알려``, ``教え``): not what the query is about."""
    from .tokenize import request_terms

    return term in request_terms()


# A filler word in a noun's place names a thing: after an article, a possessive or a preposition and before a content
# word ("the go indentation", "our go services", "the work queue") or last after a preposition ("errors in go"). Stemmed
# (``using`` is ``use``). An adjective of FILLER ("a new release", "a good name") modifies the noun after it there and
# stays filler: NAMING_FILLER are the others. Pooled fit data (all fit sets, 2026-12-05 recall23) [hits, needing,
# false, none]: fold 0 [111, 145, 20, 114] unchanged, fold 1 [101, 136, 18, 121] → [102, 136, 18, 121] ("the go
# indentation" finds tabs-go, 0.005 → 0.73); no false recall, no hit lost on any set.
_BEFORE_NAME = frozenset("the a an this these those our my your their it in with for of on about use into".split())
_AFTER_PREPOSITION = frozenset("in with for of on about use into".split())
NAMING_FILLER = FILLER - frozenset("great nice cool good fine perfect sure right new just basical anyway".split())


def named_fillers(words: list[str]) -> frozenset[str]:
    """The filler terms of a query that stand in a noun's place in it (``words``: its tokens in order, stopwords kept,
    as :func:`memdir.search.tokenize.query_tokens` gives them): a term of :data:`NAMING_FILLER` after an article, a
    possessive or a preposition and before a content word (not filler, not a function word, not generic), or last
    after a preposition. ``["the", "go", "indent"]`` → ``{"go"}``; ``["ok", "go", "ahead"]``, ``["tenaciti", "go"]``,
    ``["cut", "a", "new", "releas"]`` → ``{}``. Such a term is a topic word of that query wherever the store holds it
    (:func:`memdir.search.ranking.ranked` keeps it from :func:`soft_terms`; :func:`unfilled` embeds it): a word that
    is filler in "ok go ahead" is a language's name beside "indentation". Pure."""
    out = set()
    for i, word in enumerate(words):
        if word not in NAMING_FILLER or not i or words[i - 1] not in _BEFORE_NAME:
            continue
        after = words[i + 1] if i + 1 < len(words) else None
        if after is None and words[i - 1] in _AFTER_PREPOSITION or after is not None and is_topic(after):
            out.add(word)
    return frozenset(out)


def letters_typed(terms: list[str]) -> frozenset[str]:
    """The terms of a search a person or a model typed (``terms``: its terms as
    :func:`memdir.search.tokenize.query_terms` gives them) when every one is a lone letter with its accent
    (:func:`memdir.text.fold.lone_letter`: ``é``, ``à``, ``ở``; function words of Portuguese, French, Italian and
    Vietnamese), else ``{}``: a letter asked alone is that letter, a word of the search, as ``o`` and ``🚀`` are
    (search42: ``é`` found nothing though a memory holds it). :func:`memdir.search.ranking.ranked` keeps them from
    :func:`soft_terms` in an explicit search only: a prompt's lone letters stay function words ("o que é isso"
    recalls nothing), and a search of other function words alone still finds nothing ("the", "us", "de la el":
    padding, break13). Pure."""
    from ..text.fold import lone_letter

    return frozenset(terms) if terms and all(lone_letter(t) == t for t in terms) else frozenset()


def elided_typed(query: str, terms: list[str]) -> frozenset[str]:
    """The terms of a search a person or a model typed (``query``; ``terms`` as
    :func:`memdir.search.tokenize.query_terms` gives them) when it writes an elision
    (:func:`memdir.search.oneword.writes_elision`: ``c'est``, ``n'est``) and every term is a function word (the
    elision's word, ``est``, is one): those words are what it asks, as :func:`letters_typed`'s are (ux49: ``c'est``
    found nothing where the French note holding it had been found), else ``{}`` — a search of function words that
    writes no elision still finds nothing ("the", "de la el": break13), and beside a content word the elided one
    stays a function word (``c'est node``: the node notes, not the French one). Pure."""
    from .oneword import writes_elision
    from .stopwords import is_stopword

    return frozenset(terms) if terms and all(map(is_stopword, terms)) and writes_elision(query) else frozenset()


def is_filler(term: str) -> bool:
    """True when ``term`` (stemmed, as a query reads it) is prompt filler (:data:`FILLER`: ``go``, ``again``,
    ``then``, ``basical``) or a chat word (:func:`memdir.search.tokenize.is_chat`: ``ok``, ``um``): how a
    conversation goes, never a word of what a prompt asks."""
    from .tokenize import is_chat

    return term in FILLER or is_chat(term)


@lru_cache(maxsize=256)
def unfilled(text: str) -> str:
    """``text`` (words apart by single spaces) without the words all of whose terms are filler
    (:func:`is_filler`: "tenacity, go" is "tenacity,", "cut a new release" is "cut a release") unless they stand in a
    noun's place (:func:`named_fillers`: "the go indentation" is kept whole); ``text`` as it is
    when nothing else is left ("thanks, go ahead"). What the dense side embeds of a query
    (:func:`memdir.search.vectors.query_text`): filler moves a match neither in words nor in meaning. Pure."""
    from .tokenize import query_tokens, tokens

    named = named_fillers(query_tokens(text))  # "the go indentation": "go" names a language there
    kept = [word for word in text.split(" ")
            if not (terms := tokens(word)) or not all(is_filler(t) and t not in named for t in terms)]
    return " ".join(kept) if kept and len(kept) < len(text.split(" ")) else text


def is_topic(term: str) -> bool:
    """True when ``term`` (stemmed) can be what a prompt is about: not filler (:func:`is_filler`), not a
    function word (:func:`memdir.search.tokenize.is_stopword`), not generic (:func:`is_generic`: "use",
    "never", "run"). A prompt with no such word asks for no memory (``use``, ``run it again``)."""
    from .tokenize import is_stopword

    return not is_filler(term) and not is_stopword(term) and not is_generic(term)


@lru_cache(maxsize=4096)  # a search asks it of each query term for every candidate
def is_generic(term: str) -> bool:
    """True when ``term`` weighs :data:`GENERIC_WEIGHT` and is no core word of a query whose other words are
    (:func:`memdir.search.relevance.evidence`): a word a task prompt is built of (:data:`GENERIC`) or a request
    (:func:`is_request`)."""
    return term in GENERIC or is_request(term)


def reads_as_request(words: list[str]) -> bool | None:
    """Whether ``words`` (a query's tokens, filler left out) read as keywords because they ask for a topic: None
    when no word is a request (:func:`is_request`) or a question word (:data:`memdir.text.words.QUESTION_WORDS`:
    "when is the backup?", "백업은 언제?" read as ``backup``, ``백업``); else True when the words neither requests
    nor stopwords are 1 to :data:`TOPIC_TERMS` and none is filler ("remind me about alembic", "帮我审查一下代码" read
    as ``alembic``, ``审查 代码``; "remind me later", "tell me more" do not)."""
    from .tokenize import is_stopword

    asks = question_terms()
    if not any(is_request(w) or w in asks for w in words):
        return None
    topic = [w for w in words if not is_request(w) and not is_stopword(w)]
    return 0 < len(set(topic)) <= TOPIC_TERMS and not soft_terms(topic)


@lru_cache(maxsize=1)
def question_terms() -> frozenset[str]:
    """The terms of :data:`memdir.text.words.QUESTION_WORDS` as a query reads them (stemmed, folded; a CJK
    one's bigrams): ``when``, ``언제``, ``어떻``, ``いつ``, ``когд``. Each is a stopword
    (:func:`memdir.search.tokenize.is_stopword`)."""
    from . import wordstems

    return wordstems.QUESTIONS if wordstems.hold() else question_terms_of_words()


def question_terms_of_words() -> frozenset[str]:
    """:func:`question_terms` computed from the word list: the rule :data:`memdir.search.wordstems.QUESTIONS` holds."""
    from .tokenize import tokens

    return frozenset(t for word in QUESTION_WORDS for t in tokens(fold(word)))


def soft_terms(terms: list[str], doc_freq: dict[str, int] | None = None,
               kept: frozenset[str] = frozenset()) -> set[str]:
    """The terms of a query that weigh :data:`SOFT_WEIGHT`: filler; function
    words (a query of nothing else keeps them as its terms:
    :func:`~memdir.search.tokenize.query_terms`; "the" is no content word a
    memory shares); bigrams of hiragana alone (Japanese inflections and
    particles) when the query has other terms (their spellings in katakana,
    :func:`memdir.search.compounds.in_other_kana`, are none); a bigram of a hiragana
    before a katakana or a kanji (``に実`` of "30分に実行", ``のコ`` of "このコード": a particle or an inflection's
    end before the next word's start, one word of neither; evals/recall/conversation.py, false33); and, when ``doc_freq`` is
    given, CJK bigrams that no memory holds (mostly pairs that straddle a
    word boundary). Never a term of ``kept`` (an acronym the query and the
    memory both write in capitals: :func:`~memdir.search.tokenize.acronyms`)."""
    from .tokenize import has_cjk, is_stopword

    kana = {t for t in terms if not t.isascii() and _hiragana().fullmatch(t)}
    out = {t for t in terms if t in FILLER or is_stopword(t)}
    if kana and len(kana | {o for t in kana for o in kana_spellings(t)}.intersection(terms)) < len(terms):
        out |= kana
    out |= {t for t in terms if len(t) == 2 and not t.isascii() and _particle_pair().fullmatch(t)}
    if doc_freq is not None:
        out |= {t for t in terms if doc_freq.get(t, 0) == 0 and has_cjk(t)}
    return out - kept


@lru_cache(maxsize=1)
def _particle_pair() -> re.Pattern:
    return re.compile("[\u3040-\u309f][\u30a1-\u30fa\u4e00-\u9fff]")  # hiragana, then a katakana letter (not ー) or a kanji


@lru_cache(maxsize=1)
def _hiragana() -> re.Pattern:
    return re.compile("[\u3040-\u309f]+")  # compiled by the first term that is not ASCII (≈ 2 ms)


def term_weights(terms: list[str], doc_freq: dict[str, int], total_docs: int,
                 kept: frozenset[str] = frozenset(), joined: frozenset[str] = frozenset()) -> dict[str, float]:
    """Each query term's weight: IDF against the store plus
    :data:`BACKGROUND_DOCS`, × :data:`SOFT_WEIGHT` for :func:`soft_terms`
    (``kept`` as there), × :data:`GENERIC_WEIGHT` for :data:`GENERIC` words and for a unit the query writes after
    a number (:func:`is_unit`: ``timeout 900 seconds`` — the number says which fact, the unit only what kind, so
    "Request timeout is 900" outranks "HTTP timeout is 30 seconds"); 0 for a term of ``joined``
    (:func:`memdir.search.compounds.joined_parts`: its parts weigh for it)."""
    n_all = total_docs + BACKGROUND_DOCS
    softened = soft_terms(terms, doc_freq, kept)
    out = {}
    for i, term in enumerate(terms):
        if term in joined:
            out[term] = 0.0
            continue
        n = doc_freq.get(term, 0)
        weight = math.log(1 + (n_all - n + 0.5) / (n + 0.5))
        generic = is_generic(term) or i > 0 and terms[i - 1].isdigit() and is_unit(term)
        out[term] = weight * (SOFT_WEIGHT if term in softened else GENERIC_WEIGHT if generic else 1.0)
    return out


@lru_cache(maxsize=1)
def _unit_terms() -> frozenset[str]:
    from .tokenize import stem

    return frozenset(stem(word) for word in (*UNITS.values(), "kilobyte", "megabyte", "gigabyte", "terabyte"))


def is_unit(term: str) -> bool:
    """True when ``term`` (stemmed) is a unit of time or size as search reads one after a number
    (:data:`memdir.text.words.UNITS`, the size units of :data:`memdir.text.words.SHORT_FORMS`): ``second``,
    ``minut``, ``day``, ``gigabyt``."""
    return term in _unit_terms()
