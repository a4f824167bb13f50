"""A query's compounds and the memories' words: which spellings of one compound meet (DESIGN §6, issue 28).

The tokenizer (:mod:`memdir.search.tokenize`) gives a compound its whole and its parts (``back-off`` →
``backoff back off``; :func:`~memdir.search.tokenize.compound_groups`). Here: which of a query's wholes are only
their parts written together (:func:`joined_parts`: they weigh nothing of their own), what a memory holding a whole
holds with it (:func:`implied`, read by :class:`memdir.search.relevance.Prefixes`), and which two words a query
writes apart may be one word a memory writes joined (:func:`spaced_pairs`, pure, and :func:`written_joined`, one
read of the index's vocabulary in the caller's transaction; ``back off`` / ``backoff``), and which of its kana terms
memories write in the other kana (:func:`in_other_kana`: ``かなだ`` / ``カナダ``).
"""

from __future__ import annotations

import unicodedata

from ..text.fold import script_spellings
from ..text.printable import without_hidden
from .oneword import PHRASAL_NOUNS, PHRASAL_VERBS
from .stemming import kind_spelled
from .tokenize import (MAX_QUERY_CHARS, MAX_QUERY_TERMS, compound_groups, is_stopword, segments, stem,
                       word_tokens)

# The function words a phrasal compound may end in: back off / backoff, set up / setup, log in / login.
_PARTICLES = frozenset("up out off in on down over back away".split())


def spaced_pairs(query: str) -> dict[str, tuple[str, str]]:
    """``{the two words written together: (first, second)}`` for each two words of ``query`` one after the other
    (a space between; each a word of its own, not a compound) that could be one word written apart: ``back off``
    → ``{"backoff": ("back", "off")}``, ``tz info`` → ``tzinfo``, a name and its number (``python 3`` →
    ``python3``), a name and its JS kind as a memory writes it joined (``node js`` → ``nodejs``: Node.js), stemmed
    as :func:`~memdir.search.tokenize.tokens` gives them. The first is a word of 2 letters or more, no function word; the second is no function word but a particle (``up``, ``off``, ``in``…): ``red
    is`` is no ``redis``. Whether a memory writes the pair joined is the index's question
    (:func:`written_joined`). Pure."""
    text = unicodedata.normalize("NFKC", without_hidden(query[:MAX_QUERY_CHARS]))
    out: dict[str, tuple[str, str]] = {}
    previous = None
    for match in segments(text):
        word = match.group("word")
        alone = bool(word) and word.isascii() and word.isalnum() and len(word_tokens(word)) == 1
        if alone and previous is not None and text[previous.end():match.start()].isspace():
            first, second = previous.group("word").casefold(), word.casefold()
            a, b = stem(first), word_tokens(word)[0]
            if len(first) >= 2 and not is_stopword(a) and (second in _PARTICLES or not is_stopword(b)):
                kind = kind_spelled(first + second)  # node js: a memory writes nodejs (Node.js), not node
                joined = kind[0][0] if kind else stem(first + second)
                # "logs in Loki" is no login (search.oneword joined the phrasal verbs it is sure of); the verb's own
                # form may be ("how do I log in here"): the query looks for both, the memory's words decide
                if joined not in PHRASAL_NOUNS or first.lower() in PHRASAL_VERBS:
                    out.setdefault(joined, (a, b))
        previous = match if alone and word.isalpha() else None
    return out


def joined_parts(groups: dict[str, tuple[str, ...]], terms: list[str]) -> frozenset[str]:
    """The query's compounds (``groups``, :func:`~memdir.search.tokenize.compound_groups`) whose every part is a term of the query too
    (``multi-tenant``: ``multi``, ``tenant``; ``02.11.2026``): such a compound is only its parts written together,
    so it weighs nothing of its own (:func:`memdir.search.weighing.term_weights`) and a memory holding the parts
    holds the query, joined (``multitenant`` stands for its parts: :class:`memdir.search.relevance.Prefixes`),
    apart or in another order (``2026-11-02``). Not one with a part the query drops (``back-off``'s ``off``): a
    memory must then write it joined or its parts one after another (``back office`` is no ``back-off``). A group
    of one part is a second spelling of that part (``mueller`` of ``muller``, a word written with an umlaut:
    :func:`memdir.text.fold.umlauts_spelled`): it weighs nothing of its own either, and a memory writing either
    spelling holds the word. Pure."""
    have = set(terms)
    return frozenset(whole for whole, parts in groups.items()
                     if whole in have and parts and all(p in have and p != whole for p in parts))


def implied(groups: dict[str, tuple[str, ...]], terms) -> dict[str, tuple[str, ...]]:
    """``{whole: what a memory holding it holds with it}`` for the compounds of ``groups``
    (:func:`~memdir.search.tokenize.compound_groups`): its parts that are ``terms`` and the other groups whose
    parts lie one after another among its own (``5550102030`` in ``15550102030``); wholes implying nothing left
    out. Pure."""
    out = {}
    for term, parts in groups.items():
        also = [p for p in parts if p in terms and p != term]
        also += [other for other, inner in groups.items() if other != term and len(inner) < len(parts) and any(
            parts[i:i + len(inner)] == inner for i in range(len(parts) - len(inner) + 1))]
        if also:
            out[term] = tuple(dict.fromkeys(also))
    return out


def written_joined(conn, pairs: dict[str, tuple[str, str]], terms: list[str]) -> dict[str, tuple[str, str]]:
    """Of a query's words written apart (``pairs``, :func:`spaced_pairs`: ``back off``),
    those some memory writes as one word (``backoff`` in the index's vocabulary), not already among ``terms``:
    ``{joined: (first, second)}``, one read of the vocabulary; ``{}`` when none."""
    wanted = [joined for joined in pairs if joined not in terms]
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    known = {r[0] for r in conn.execute(f"SELECT term FROM fts_terms WHERE term IN ({marks})", wanted)}
    return {joined: pairs[joined] for joined in wanted if joined in known}



def in_other_kana(conn, terms: list[str]) -> dict[str, tuple[str]]:
    """``{spelling: (term,)}`` for each of the query's ``terms`` whose other spelling
    (:func:`memdir.text.fold.script_spellings`: in the other kana, ``かな`` of ``カナ``, ``ドッ`` of ``どっ``; in Persian
    or Arabic letters, ``کرمانشاه`` of ``كرمانشاه``; with or without its article, ``الخادم`` of ``خادم``, ``שרת`` of
    ``השרת``) some memory writes and the query does not: a group of one part, a second spelling of the term (:func:`joined_parts`). One read of the
    index's vocabulary in the caller's transaction; ``{}`` when none."""
    have = set(terms)
    wanted = {other: term for term in terms for other in script_spellings(term) if other not in have}
    if not wanted:
        return {}
    marks = ",".join("?" * len(wanted))
    known = {r[0] for r in conn.execute(f"SELECT term FROM fts_terms WHERE term IN ({marks})", list(wanted))}
    return {other: (term,) for other, term in wanted.items() if other in known}


def read(conn, query: str, terms: list[str]) -> tuple[list[str], dict[str, tuple[str, ...]]]:
    """``(terms, groups)``: the query's ``terms`` (:func:`~memdir.search.tokenize.query_terms`) with the words it
    writes apart that a memory writes joined added (:func:`written_joined`) and its kana terms as the memories write
    them in the other kana (:func:`in_other_kana`: ``かなだ`` finds ``カナダ``), at most
    :data:`~memdir.search.tokenize.MAX_QUERY_TERMS` terms in all, and ``{whole: parts}`` of its compounds: its own
    (:func:`~memdir.search.tokenize.compound_groups`: ``back-off``) and those (``back off``), and ``{spelling:
    (term,)}`` of those kana. Two reads of the index's vocabulary in the caller's transaction."""
    joined = written_joined(conn, spaced_pairs(query), terms)
    kana = in_other_kana(conn, terms)
    return (terms + list(joined) + list(kana))[:MAX_QUERY_TERMS], {**kana, **joined, **compound_groups(query)}


__all__ = ["implied", "in_other_kana", "joined_parts", "read", "spaced_pairs", "written_joined"]
