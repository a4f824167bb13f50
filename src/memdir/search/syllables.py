"""A name written in syllables, as a person types it joined (DESIGN §6): ``Hà Nội`` is also ``hanoi``,
``Hồ Chí Minh`` also ``hochiminh``, ``Đà Nẵng`` also ``danang``.

Vietnamese writes each syllable of a name apart and capitalized, with its marks; English text writes the same
name as one word without them (``Hanoi``, ``Danang``). A query of either finds a memory of the other when the
written syllables also give their joined form: each run of two or three capitalized words of Latin letters, at
most seven letters each (a Vietnamese syllable's longest, ``Nghiêng``), one space apart, one of them written with a
mark (``Hà``, ``Nội``), gives its words folded and joined (:func:`memdir.text.fold.fold`) and stemmed, a term added
to the words', not in their place. Words without marks (``New York``, ``Ho Chi Minh``) give nothing: a title's
capitals (``Release Notes``) would join words that are no name. Pure.
"""

from __future__ import annotations

import re

from ..text.fold import fold
from .stemming import stem

MOST_SYLLABLES = 3
"""The longest run of syllables joined (``Hồ Chí Minh``); a run of capitalized words gives each of its runs of two
and three (``Visited Hà Nội`` → ``visitedha``, ``hanoi``, ``visitedhanoi``)."""

# Capitalized words of letters of at most seven, one space apart, not part of a longer word or identifier.
_RUN = re.compile(r"(?<![\w'’.\-])[^\W\d_]{1,7}(?: [^\W\d_]{1,7})+(?![\w'’\-]|\.\w)")


def _syllable(word: str) -> bool:
    return word[:1].isupper() and (len(word) == 1 or word[1:].islower()) and fold(word).isascii()


def joined_syllables(text: str) -> list[str]:
    """The joined terms of the names ``text`` (NFKC-normalized) writes in syllables (the module), in order:
    ``"Trip to Hà Nội"`` → ``["hanoi"]``; ``[]`` for ASCII text (a fast test first). Linear in ``text``."""
    if text.isascii():
        return []
    out: list[str] = []
    for match in _RUN.finditer(text):
        words = match.group(0).split(" ")
        titled: list[str] = []
        for word in [*words, ""]:
            if word and _syllable(word):
                titled.append(word)
                continue
            for size in range(2, MOST_SYLLABLES + 1):
                for start in range(len(titled) - size + 1):
                    window = titled[start:start + size]
                    if any(not w.isascii() for w in window):
                        out.append(stem("".join(fold(w) for w in window)))
            titled = []
    return out


__all__ = ["MOST_SYLLABLES", "joined_syllables"]
