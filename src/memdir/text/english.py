"""Whether a word is an English word as written: the dictionary that tells a real word from a slip of the keyboard.

A search reads a word no memory holds as the word one slip away that a memory writes
(:func:`memdir.search.spelling.slips`): ``paginaton`` is "pagination". A word spelled right is no slip, even where
the store does not hold it: ``contact`` is not "contract", ``compliant`` not "complaint", ``addictive`` not
"additive" (words18: a query about a contact found the memory about a contract, told as a guess). Spelling alone
cannot tell ``contact`` from ``paginaton``; a word list can. ``english_words.txt`` beside this module holds the
55,235 words of :data:`MIN_LETTERS` letters or more of SCOWL's size-50 American and British lists (Debian's
wamerican and wbritish; its header says how it was made, ``english_words.COPYRIGHT`` the notices), inflections
included (``contacted``, ``readying``), names of places and people too (``christopher``), no misspellings.

Read only when a search has a word of :data:`MIN_LETTERS` letters or more that no memory holds: the file's 565 KB
once a process (about 1 ms), then one scan of it a word (``bytes.find``, about 0.1 ms); never on the prompt hook's
path (recall reads no slips).
"""

from __future__ import annotations

import functools
from pathlib import Path

MIN_LETTERS = 7
"""Letters of the shortest word the list holds: :data:`memdir.search.spelling.SLIP_MIN`, the shortest word a search
reads as a slip. A word shorter than this is not looked up (:func:`is_word` says False)."""

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
    return b"\n" + word.encode("ascii") + b"\n" in _text()


__all__ = ["MIN_LETTERS", "is_word"]
