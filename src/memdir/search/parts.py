"""A query term a memory holds only inside code identifiers, in another form than the query writes it, weighs less.

"add requests" against a note whose only "request" is the ``request_id`` of its code: the word is there as a part
of an identifier (:func:`memdir.search.tokenize.identifier_parts`), not as what the note is about. Split from
:mod:`memdir.search.relevance`, whose :data:`~memdir.search.weighing.SOFT_WEIGHT` such a term weighs.
"""

from __future__ import annotations

import re
from functools import lru_cache

from .weighing import SOFT_WEIGHT

# Where a code identifier's parts meet: snake_case, camelCase (a name starting in lower case, getUserId; not the
# PascalCase of product names such as ClickHouse or PostgreSQL, which prose writes as words).
_SNAKE, _CAMEL = re.compile(r"[^\W_]_+[^\W_]"), re.compile(r"[a-z][A-Z]")
_WORD_START, _WORD_END = re.compile(r"\w*$"), re.compile(r"\w*")


def _identifiers(raw: str) -> list[str]:
    """The words of ``raw`` with a code identifier's seam, each as often as it has seams."""
    out = []
    for pattern in (_SNAKE, _CAMEL) if "_" in raw else (_CAMEL,):
        for seam in pattern.finditer(raw):
            start = _WORD_START.search(raw, max(0, seam.start() - 64), seam.start()).start()
            word = raw[start:_WORD_END.match(raw, seam.end()).end()]
            if pattern is _SNAKE or word[:1].islower():
                out.append(word)
    return out


def parts_weighed(weights: dict[str, float], raw: str, forms: dict[str, set[str]],
                  head: frozenset[str] | set[str] = frozenset(),
                  names: dict[str, frozenset[str]] | None = None) -> dict[str, float]:
    """``weights`` with each query term that ``raw`` (a memory's text as written) holds only as a part of code
    identifiers (:func:`memdir.search.tokenize.identifier_parts`) in another form than the query writes it
    (``forms``, :func:`memdir.search.tokenize.word_forms`: "requests" against the "request" of ``request_id``)
    at :data:`SOFT_WEIGHT` of its weight; ``weights`` itself when there is none. Never a term of ``head`` (the
    query terms the memory's name, title or description holds as words: the note on the ``db-port`` is about the
    database whatever ``DATABASE_URL`` its body writes). A text's parts are kept per
    process (:data:`PARTS_KEPT` texts of at most :data:`PARTS_CHARS` characters): a store's notes come back.

    ``names``: the query's terms written only as parts of product names, each with those names
    (:func:`memdir.search.tokenize.name_parts` of the query: ``{"sql": {"mysql"}, "my": {"mysql"}}`` for "what
    is the MySQL port?"). Such a term that ``raw`` too holds only as a part of other names (the ``sql`` of
    ``PostgreSQL``) weighs nothing, head or not: two products sharing a part are not one ("MySQL" is no
    "PostgreSQL", "TypeScript" no "JavaScript", "GitLab" no "GitHub"). A part the memory writes as a word
    ("postgres" beside the query's "PostgreSQL") or of the same name keeps its weight."""
    parts = _parts_kept(raw) if len(raw) <= PARTS_CHARS else _parts(raw)
    weak = {t for t, written in parts.items() if t in weights and t not in head and not written & forms.get(t, set())}
    other = _other_names(weights, raw, names) if names else set()
    if not weak and not other:
        return weights
    return {t: 0.0 if t in other else w * SOFT_WEIGHT if t in weak else w for t, w in weights.items()}


def _other_names(weights: dict[str, float], raw: str, names: dict[str, frozenset[str]]) -> set[str]:
    """The terms of ``names`` (the query's product-name parts) that ``raw`` holds only as parts of other names."""
    if not any(t in weights for t in names):
        return set()
    held = _names_kept(raw) if len(raw) <= PARTS_CHARS else _names(raw)
    return {t for t, asked in names.items() if t in weights and t in held and not held[t] & asked}


PARTS_KEPT = 4096
PARTS_CHARS = 8192


def _parts(raw: str) -> dict[str, set[str]]:
    from .tokenize import identifier_parts

    return identifier_parts(raw) if _identifiers(raw) else {}


_parts_kept = lru_cache(maxsize=PARTS_KEPT)(_parts)


def _names(raw: str) -> dict[str, frozenset[str]]:
    from .tokenize import name_parts

    return name_parts(raw)


_names_kept = lru_cache(maxsize=PARTS_KEPT)(_names)


__all__ = ["PARTS_CHARS", "PARTS_KEPT", "parts_weighed"]
