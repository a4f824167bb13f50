"""A number written with dots (a version, ``v2.3.1``) as the terms of its leading parts (vers19, issue 28).

``v2.3`` and ``v2.4`` were both the term ``v2`` alone (a one-digit group of a dotted number is no term of its own:
``port 2`` is no ``v3.2.1``), so a memory on v2.3.1 could not be told from one on v2.4, and a query ``2.3`` met a
"v2.3.1" only by chance. Joining the digits (``v2.4`` → ``v24``) collides with other numbers (``v1.0`` is ``v10``,
``v10.0.x`` ``v100``). Here each leading run of two groups or more is one term, its groups joined by
:data:`VERSION_JOIN`, a character no word or number gives a term: ``v2.3.1`` → ``2⋅3``, ``2⋅3⋅1`` (⋅ standing for
it), beside the terms :mod:`memdir.search.tokenize` gave it before. Memories and queries alike
(:func:`memdir.search.tokenize.tokens`); a pair of one-digit groups is its term alone (``1.5`` is no ``1`` and ``5``).
The terms weigh as any other (:func:`memdir.search.relevance.term_weights`: rarer than the bare major, they rank):
``v2.3`` finds "v2.3.1" at 1.0 and "v2.4" at 0.04, by ``v2`` alone; a version no memory holds (``16.5``) is a
partial match of its major's memory. A date written with dots is no version (``02.11.2026`` meets ``2026-11-02``).
"""

from __future__ import annotations

import re

from ..text.fold import fold
from ..vocabulary import CJK_RANGES, SPACELESS_RANGES

# A version or other number written with dots (v2.3.1, 16.4, 2.3.1-rc1, 10.0.0.1, 0.5): its groups of
# digits, a lower-case or capital v before the first, no dot, letter or digit on either side (a suffix after a hyphen
# or a plus is the version's: -rc1, +build; so is .x; so are letters after it: a unit, 1.5GB, 2.5ms, 0.5s, 1.5x, as
# written apart, "1.5 GB": break20). Not python3.11 (a name's digits), 02/11/2026 (a slash).
# Digits of other scripts are read as ASCII (text.fold, as in words: ٢.٣ is 2.3). A letter of a script written
# without spaces (CJK, Thai: vocabulary) is no part of the number beside it: "バージョン2.3.1を使う" holds 2.3.1.
_WORD = f"[^\\W{CJK_RANGES}{SPACELESS_RANGES}]"  # a letter, digit or _ of a script written with spaces
_VERSION = re.compile(rf"(?<!\.)(?<!{_WORD})[vV]?(\d+(?:\.\d+)+)(?![\d_]|\.\d)")

VERSION_JOIN = "\ue000"
"""What joins the groups of a version's leading parts into one term (``v2.3.1`` → ``2\ue0003``,
``2\ue0003\ue0001``): a private-use character (U+E000), which no text gives a term (no letter or digit to
:func:`memdir.search.tokenize.segments`) and SQLite's FTS5 ``unicode61`` tokenizer reads as part of a token (its
categories ``L* N* Co``), so such a term is never a word's or another number's: ``v1.0`` is no ``v10``, ``v10.0``
no ``V100``, ``2.3`` no ``23``."""


def dotted_versions(text: str, most: int) -> list[tuple[int, int, list[str]]]:
    """``(where a version starts, where it ends, its terms)``, in order, for each number of ``text`` written with
    dots (:data:`_VERSION`) of at most ``most`` groups (a longer run is a list): each of its leading runs of two
    groups or more, the groups' digits as written joined by :data:`VERSION_JOIN` (``v2.3.1`` → ``2⋅3``, ``2⋅3⋅1``;
    ``16.4`` → ``16⋅4``; ``10.0.0.1`` → ``10⋅0``, ``10⋅0⋅0``, ``10⋅0⋅0⋅1``). A query's ``2.3`` so meets a memory's
    ``v2.3.1`` (and ``2.3.4``), and its ``v2.3`` meets ``v2.4`` by the bare ``v2`` alone. A date is no version
    (:func:`_dated`: ``02.11.2026`` meets ``2026-11-02`` by its groups and their joins, written any way). Pure."""
    out: list[tuple[int, int, list[str]]] = []
    for match in _VERSION.finditer(text):
        groups = fold(match.group(1)).split(".")
        if len(groups) <= most and not _dated(groups):
            out.append((match.start(), match.end(), [VERSION_JOIN.join(groups[:n]) for n in range(2, len(groups) + 1)]))
    return out


def written(term: str) -> str:
    """``term`` as a person reads it: a version's part with its dots (``2\ue0003`` → ``2.3``), any other term as it
    is. What a result shows it was found by (:func:`memdir.search.why.why`). Pure."""
    return term.replace(VERSION_JOIN, ".")


def _dated(groups: list[str]) -> bool:
    """True when the digit ``groups`` of a dotted number are a date: three, a year of four digits first or last and
    two of one or two digits (``2024.01.15``, ``02.11.2026``; not ``1.10.2``, ``120.0.6099.109``)."""
    if len(groups) != 3:
        return False
    year, *rest = groups if len(groups[0]) == 4 else groups[::-1]
    return len(year) == 4 and all(len(g) <= 2 for g in rest)


__all__ = ["VERSION_JOIN", "dotted_versions", "written"]
