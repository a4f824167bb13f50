"""The value of a memory, as memdir compares it: the one rule of "the same value".

A memory's value is its description and body. Two values are the same when their
:func:`normalize_value` forms are equal — case, Unicode form (NFC/NFD, full-width), spacing, the letters
a person types without their marks as names and search fold them (:func:`memdir.text.fold.fold`: accents,
``ø``/``ł``/``æ`` as ``o``/``l``/``ae``, Hebrew points, Arabic harakat), invisible characters, digits of
other scripts and look-alike letters make no other value (break13: ``København`` was another value than
``Kobenhavn``, though one name and one search term; a tombstone made before keeps matching by its
description, kept in clear). Both sides that ask "is this value held?" use it: an exact duplicate
(:func:`memdir.files.memfile.duplicate_key`, what a write warns or refuses as a copy and ``doctor`` and
``status`` list) and a tombstone's first and strictest match (:mod:`memdir.tombstones.match`, which
also decides whether a deletion leaves a tombstone or names the live memory that still holds its value).

Pure, standard library only.
"""

from __future__ import annotations

import re
import unicodedata

from .fold import fold
from .lookalike import unmix
from .printable import BIDI_CONTROLS, INVISIBLE

# What a value drops before it is compared: what one-line fields drop (printable.INVISIBLE), the bidi
# controls, and the joiners and selectors fields keep for their scripts (ZWNJ, ZWJ, Mongolian free
# variation selectors, variation selectors) — a fact is the same fact without them.
_INVISIBLE = re.compile(f"[{INVISIBLE}{BIDI_CONTROLS}\u180b-\u180f\u200c\u200d\u2065\ufe00-\ufe0f]")
_SPACE = re.compile(r"\s+")
# Characters drawn as nothing but taking a place: Hangul fillers, the musical null notehead (the braille
# blank is :mod:`memdir.text.lookalike`'s).
_BLANKS = str.maketrans(dict.fromkeys("\u115f\u1160\u3164\uffa0\U0001d159", " "))
# Combining marks on a Latin or Greek letter (after NFD): an accent does not make another fact.
_ACCENTS = re.compile(r"(?<=[A-Za-z\u00c0-\u024f\u0370-\u03ff\u1e00-\u1fff])[\u0300-\u036f\u1ab0-\u1aff"
                      r"\u1dc0-\u1dff\u20d0-\u20ff\ufe20-\ufe2f]+")


def normalize_value(text: str) -> str:
    """The normalized form a tombstone compares: NFKC, zero-width and other
    invisible characters removed, blank-like characters (:data:`_BLANKS`) as a space,
    combining marks on Latin and Greek letters dropped, a word made with look-alike
    letters read in one script (:func:`memdir.text.lookalike.unmix`), folded (:func:`memdir.text.fold.fold`:
    case-folded, ``ø`` as ``o``, Hebrew and Arabic without their points, digits of any script as ASCII
    digits), whitespace collapsed, trimmed."""
    text = unicodedata.normalize("NFKC", text).translate(_BLANKS)
    text = _INVISIBLE.sub("", text)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    if not text.isascii():
        text = unicodedata.normalize("NFC", _ACCENTS.sub("", unicodedata.normalize("NFD", text)))
    text = unmix(text)  # before fold, which reads digits: unmix reads an Arabic zero between letters as a dot
    return _SPACE.sub(" ", fold(text)).strip()


def value_of(description: str, body: str) -> str:
    """The normalized value of a memory: its description and body together."""
    return normalize_value(f"{description}\n{body}")


__all__ = ["normalize_value", "value_of"]
