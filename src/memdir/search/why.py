"""What a result says it was found by (``why``), in the words of the query that found it.

A search result and a recalled memory carry ``why``: the query terms the memory matched and its cosine. The
index matches stems (``variabl``, ``oper``, ``stage``); a person or a model reading the result is shown the word
the query wrote for each (``variable``, ``operations``, ``staging``). Pure.
"""

from __future__ import annotations

import unicodedata

from ..text.fold import fold
from ..text.printable import without_hidden
from .addressing import written as written_address
from .emoji import written as written_emoji
from .relevance import Evidence
from .stemming import stem
from .tokenize import segments, word_parts, word_tokens
from .versions import written as written_version


def written(query: str, read: list[str] | None = None) -> dict[str, str]:
    """Each term of the words of ``query`` (not CJK) with the word the query
    writes for it, casefolded (NFC, accents kept): ``{"port": "ports",
    "listen": "listening"}`` for "which ports are listening", ``{"zurich":
    "zürich", "zuerich": "zürich"}`` for "Zürich", ``{"requestid":
    "request_id", "request": "request", "id": "id"}`` for "request_id"; a term
    two words give is the first's; a character that shows as nothing is no part
    of a word (:func:`memdir.text.printable.without_hidden`, as the tokenizer
    reads it: ``oper<U+200B>ations`` writes "operations", not "oper"). What a
    result shows as the words it matched (:func:`why`) instead of stems. ``read``: the query's terms as the search
    read them (:class:`memdir.search.terms.ReadTerms`): a term read in another's place is shown as the word it
    stands for (``pagin`` for "paginaton" as "pagination", the word a memory writes). Pure."""
    out: dict[str, str] = {}
    for match in segments(without_hidden(query)):
        word = match.group("word") or ""
        if not word:
            continue
        parts = {}
        for piece in word_parts(word):
            parts.setdefault(stem(fold(piece)), unicodedata.normalize("NFC", piece).casefold())
        whole = unicodedata.normalize("NFC", word).casefold()
        for term in word_tokens(word):
            out.setdefault(term, parts.get(term, whole))
    for held, (term, meant) in getattr(read, "stands_for", {}).items():
        out.setdefault(held, meant or out.get(term, term))
    return out


def why(evidence: Evidence, words: dict[str, str] | None = None) -> dict:
    """``{"terms": [...], "cosine": float | None}`` (cosine to 3 decimals) of a memory's ``evidence``: the query
    terms it matched, each as ``words`` (:func:`written` of the query and its read terms) shows it, else as
    indexed (a stem; a version's part with its dots: ``2.3``, :func:`memdir.search.versions.written`; an emoji as
    itself: :func:`memdir.search.emoji.written`; an IPv6 address as ``fe80::1``, a network as ``fe80::``:
    :func:`memdir.search.ipv6.written`), without
    repeats."""
    cos = evidence.cosine
    words = words or {}
    shown = (words.get(t) or written_emoji(written_version(written_address(t))) for t in evidence.matched)
    return {"terms": list(dict.fromkeys(shown)), "cosine": None if cos is None else round(cos, 3)}


__all__ = ["written", "why"]
