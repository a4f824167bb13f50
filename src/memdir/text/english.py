"""Whether a word is an English word as written: the dictionary that tells a real word from a slip of the keyboard.

A query reads a word no memory holds as the word a slip or two away that a memory writes
(:mod:`memdir.search.typos`): ``paginaton`` is "pagination", ``conect`` "connect". A word spelled right is no slip, even where
the store does not hold it: ``contact`` is not "contract", ``compliant`` not "complaint", ``addictive`` not
"additive" (words18: a query about a contact found the memory about a contract, told as a guess). Spelling alone
cannot tell ``contact`` from ``paginaton``; a word list can. ``english_words.txt`` beside this module holds the
70,464 words of :data:`MIN_LETTERS` letters or more of SCOWL's size-50 American and British lists (Debian's
wamerican and wbritish; its header says how it was made, ``english_words.COPYRIGHT`` the notices), inflections
included (``contacted``, ``readying``), names of places and people too (``christopher``), no misspellings.

Read only when a query has a word of :data:`MIN_LETTERS` letters or more that no memory holds: the file's 670 KB
once a process (about 1 ms), then a binary search of it a word (a few µs); the prompt hook's too
(recall reads typos since recall28; the 5- and 6-letter words were added then, so that ``aerial`` stays no
"Arial").
"""

from __future__ import annotations

import functools
from pathlib import Path

MIN_LETTERS = 5
"""Letters of the shortest word the list holds: :data:`memdir.search.typos.TYPO_MIN`, the shortest word a query
reads as a typo. A word shorter than this is not looked up (:func:`is_word` says False)."""

_WORDS = Path(__file__).with_name("english_words.txt")


@functools.cache
def _text() -> bytes:
    """The list, ``b"\\n"`` before and after each word (its ``#`` header lines left out of every match)."""
    return b"\n" + _WORDS.read_bytes() + b"\n"


def is_word(word: str) -> bool:
    """True when ``word`` (case-folded ASCII letters, :data:`MIN_LETTERS` or more) is an English word as written:
    ``contact``, ``contacts``, ``compliant``, ``readying``; not ``paginaton``, ``strucltog``, ``launchdarkly``,
    ``kubernetes``, nor a word of fewer letters, another script's or one with capitals (not looked up: False).
    Raises OSError when the installed package lacks the list."""
    if len(word) < MIN_LETTERS or not (word.isascii() and word.isalpha() and word.islower()):
        return False
    return _holds(_text(), word.encode("ascii"))


def _holds(text: bytes, word: bytes) -> bool:
    """True when ``word`` is a line of ``text``, whose lines are sorted byte for byte after its header (``#`` lines,
    each before any word): a binary search, about 17 lines read of the list's 70,000 (a scan of the whole
    took 0.1 ms a word; :mod:`memdir.search.typos` asks it of a few hundred spellings)."""
    lo, hi = 0, len(text)
    while lo < hi:
        mid = (lo + hi) // 2
        start = text.rfind(b"\n", 0, mid) + 1
        end = text.find(b"\n", mid)
        if end < 0:
            end = len(text)
        line = text[start:end]
        if line == word:
            return True
        if line < word:
            lo = end + 1
        else:
            hi = start - 1 if start else 0
    return False


__all__ = ["MIN_LETTERS", "is_word"]
